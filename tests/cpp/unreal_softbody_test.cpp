// The Unreal plugin's soft body component (USinewSoftBodyComponent), compiled by g++
// against the stand-in engine of tests/cpp/ue_stub (no Unreal on CI) and run: a 40 cm
// box given as Unreal stores it (4 vertices per face, UV seams, clockwise front faces)
// or wound the other way becomes a pressure body,
// a tet body and a shape-matched body; each joins the world's simulation, its scene
// proxy draws every source vertex and triangle with unit normals (outward on Unreal's
// winding), the drawn box falls
// with the body (30 frames: about 1.1 m), the volume is read back in cm³, Blueprint setters
// edit the live body (a raised pressure inflates it, cluster stiffness), and EndPlay
// removes the body. Built and run by tests/bindings/cpp_wrapper.rs
// (`unreal_soft_body_on_a_stub_engine`, plain and under ASan/UBSan).

#include "../../unreal-sample/Plugins/Sinew/Source/Sinew/Private/SinewWorldSubsystem.cpp"
#include "../../unreal-sample/Plugins/Sinew/Source/Sinew/Private/SinewSoftBodyComponent.cpp"
#include "../../unreal-sample/Plugins/Sinew/Source/Sinew/Private/SinewMeshSceneProxy.cpp"
#include "../../unreal-sample/Plugins/Sinew/Source/Sinew/Private/SinewEditorPreview.cpp"
#include "../../unreal-sample/Plugins/Sinew/Source/Sinew/Private/SinewTaskGraph.cpp"
#include "../../unreal-sample/Plugins/Sinew/Source/Sinew/Private/SinewProfiling.cpp"

#include <cmath>
#include <cstdio>
#include <cstring>
#include <memory>
#include <string>
#include <vector>

#include "unreal_test_game.h"

namespace {
/// The vertex positions the proxy uploaded to its GPU buffer (local space, cm).
std::vector<FVector3f> Uploaded(const FSinewMeshSceneProxy& Proxy) {
    const FRHIBuffer* Buffer = Proxy.GetVertexBuffers().PositionVertexBuffer.VertexBufferRHI;
    std::vector<FVector3f> Out(Proxy.GetNumVertices());
    if (Buffer && Buffer->Bytes.size() >= Out.size() * sizeof(FVector3f))
        std::memcpy(Out.data(), Buffer->Bytes.data(), Out.size() * sizeof(FVector3f));
    return Out;
}

/// A box of half-size 20 cm as a static mesh section: 24 vertices (UV seams), 12
/// triangles, wound as Unreal stores its meshes (clockwise seen from outside: its front
/// faces) or, with `Mirrored`, the other way (as a mesh mirrored at import would be).
void Box(UStaticMesh& Mesh, bool Mirrored) {
    for (int axis = 0; axis < 3; ++axis)
        for (int sign = -1; sign <= 1; sign += 2) {
            const int u = (axis + 1) % 3, w = (axis + 2) % 3;
            const int32 base = Mesh.StubVertices.Num();
            const double corners[4][2] = {{-1, -1}, {1, -1}, {1, 1}, {-1, 1}};
            for (const auto& c : corners) {
                double p[3] = {0, 0, 0};
                p[axis] = 20.0 * sign;
                p[u] = 20.0 * c[0];
                p[w] = 20.0 * sign * c[1];
                Mesh.StubVertices.Add(FVector(p[0], p[1], p[2]));
                Mesh.StubUVs.Add(FVector2D(0.5 * (c[0] + 1), 0.5 * (c[1] + 1)));
            }
            const int32 Clockwise[6] = {0, 2, 1, 0, 3, 2}, Counter[6] = {0, 1, 2, 0, 2, 3};
            for (int32 k : Mirrored ? Counter : Clockwise) Mesh.StubTriangles.Add(base + k);
        }
}
} // namespace

int main() {
    UStaticMesh Unreal, Mirrored;
    Box(Unreal, false);
    Box(Mirrored, true);
    const std::pair<ESinewSoftBodyMode, bool> Runs[] = {{ESinewSoftBodyMode::Pressure, false}, {ESinewSoftBodyMode::Tetrahedral, false},
                                                        {ESinewSoftBodyMode::ShapeMatching, false}, {ESinewSoftBodyMode::Pressure, true},
                                                        {ESinewSoftBodyMode::Tetrahedral, true}};
    for (const auto& Run : Runs) {
        const ESinewSoftBodyMode Mode = Run.first;
        UStaticMesh& Mesh = Run.second ? Mirrored : Unreal;
        const std::string Name = std::string(Mode == ESinewSoftBodyMode::Pressure ? "pressure" : Mode == ESinewSoftBodyMode::Tetrahedral ? "tet" : "shape") +
                                 (Run.second ? " (mirrored winding)" : "");
        Game G;
        auto C = std::make_unique<USinewSoftBodyComponent>(FObjectInitializer());
        C->World = &G.World;
        C->Transform = FTransform(FVector(0, 0, 300));
        C->SourceMesh = &Mesh;
        C->Mode = Mode;
        C->Resolution = 4;
        C->CollisionRadius = 0.0f;
        C->RegisterComponent();
        G.Primitives.push_back(C.get());
        C->BeginPlay();
        const bool Joined = C->IsSimulating();
        check(Joined && G.Sub.GetBodyCount() == 1, Name + ": the body joined the simulation");
        if (!Joined) continue;
        check(Mode == ESinewSoftBodyMode::Pressure ? C->GetParticleCount() == 8 && C->GetTetCount() == 0
                                                   : C->GetParticleCount() == 125 && C->GetTetCount() == 320,
              Name + ": particles " + std::to_string(C->GetParticleCount()) + ", tets " + std::to_string(C->GetTetCount()));
        const float V0 = C->GetVolume();
        check(std::fabs(V0 - 64000.0f) < 1.0f, Name + ": volume 64000 cm^3, read " + std::to_string(V0));
        G.Frames(30);
        const FSinewMeshSceneProxy* Proxy = static_cast<const FSinewMeshSceneProxy*>(C->SceneProxy);
        check(Proxy && Proxy->GetNumVertices() == 24 && Proxy->GetNumIndices() == 36,
              Name + ": the proxy draws every source vertex and triangle");
        if (!Proxy) continue;
        const std::vector<FVector3f> V = Uploaded(*Proxy);
        double Low = 1e9;
        for (const FVector3f& P : V) Low = std::fmin(Low, (double)P.Z);
        // Free fall, drawn between the subsystem's last two fixed steps: 28 to 30 steps of
        // 1/60 s (g t^2 / 2 = 107 to 123 cm).
        const double Fell = -20.0 - Low;
        check(Fell > 100.0 && Fell < 125.0, Name + ": the drawn box fell " + std::to_string(Fell) + " cm in 30 frames");
        bool Unit = true;
        int Outward = 0;
        double Cx = 0.0, Cy = 0.0, Cz = 0.0;
        for (const FVector3f& P : V) Cx += P.X / (double)V.size(), Cy += P.Y / (double)V.size(), Cz += P.Z / (double)V.size();
        const FStaticMeshVertexBuffer& Attributes = Proxy->GetVertexBuffers().StaticMeshVertexBuffer;
        for (uint32 v = 0; v < 24; ++v) {
            const FVector4f N = Attributes.VertexTangentZ(v);
            Unit = Unit && std::fabs(N.X * N.X + N.Y * N.Y + N.Z * N.Z - 1.0f) < 1e-4f;
            Outward += N.X * (V[v].X - Cx) + N.Y * (V[v].Y - Cy) + N.Z * (V[v].Z - Cz) > 0.0 ? 1 : 0;
        }
        check(Unit, Name + ": unit normals");
        // Drawn with the source's winding: Unreal's front faces, lit from outside (normals
        // outward); the mirrored mesh is drawn inside out, as Unreal draws that mesh itself.
        check(Outward == (Run.second ? 0 : 24), Name + ": " + std::to_string(Outward) + " of 24 drawn normals point outward");
        if (Mode == ESinewSoftBodyMode::Pressure) {
            C->SetPressure(1.5f);
            G.Frames(60);
            check(C->GetVolume() > 1.3f * V0, Name + ": SetPressure(1.5) inflates it to " + std::to_string(C->GetVolume()) + " cm^3");
        } else {
            C->SetShapeStiffness(1.0f);
            C->SetStretchCompliance(1e-3f);
            C->SetMass(3.0f);
            G.Frames(10);
            check(std::fabs(C->GetVolume() / V0 - 1.0f) < 0.1f, Name + ": keeps its volume after live edits");
        }
        C->EndPlay(EEndPlayReason::Destroyed);
        check(!C->IsSimulating() && G.Sub.GetBodyCount() == 0, Name + ": EndPlay removes the body");
    }
    return Finish();
}

// Motion vectors of the Unreal plugin's scene proxy (bOutputMotionVectors on the rope,
// cloth and soft body components), compiled by g++ against the stand-in engine of
// tests/cpp/ue_stub (no Unreal on CI) and run. Every frame the proxy uploads, texture
// coordinates 1 (x, y) and 2 (x) of its vertex buffer must hold each vertex's
// displacement since the frame it uploaded before (previous - current, local space, cm),
// bit for bit against the positions it uploaded (a falling soft body, a swinging and
// winched rope, a tearing cloth, a character cloth settling on its skinned pose), and 0
// on the first frame and on a frame whose topology changed (a winch parking particles, a
// cut, a tear); the proxy draws
// velocity; and with the option off nothing of it exists (one UV channel, no velocity,
// no extra buffer writes) while everything else is drawn bit for bit as with it on.
// Built and run by tests/bindings/cpp_wrapper.rs (`unreal_motion_vectors_on_a_stub_engine`,
// plain and under ASan/UBSan).

#include "../../unreal-sample/Plugins/Sinew/Source/Sinew/Private/SinewWorldSubsystem.cpp"
#include "../../unreal-sample/Plugins/Sinew/Source/Sinew/Private/SinewRopeComponent.cpp"
#include "../../unreal-sample/Plugins/Sinew/Source/Sinew/Private/SinewClothComponent.cpp"
#include "../../unreal-sample/Plugins/Sinew/Source/Sinew/Private/SinewSoftBodyComponent.cpp"
#include "../../unreal-sample/Plugins/Sinew/Source/Sinew/Private/SinewSkinnedClothComponent.cpp"
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
const FSinewMeshSceneProxy* ProxyOf(const UPrimitiveComponent& C) {
    return static_cast<const FSinewMeshSceneProxy*>(C.SceneProxy);
}

/// What one frame's upload left in the GPU buffers: positions (local, cm), every UV channel.
struct Upload {
    std::vector<FVector3f> Positions;
    std::vector<FVector2f> UVs; ///< NumTexCoords per vertex
    uint32 NumTexCoords = 0;
    uint32 TopologyUploads = 0;
};

Upload Read(const FSinewMeshSceneProxy& Proxy) {
    Upload U;
    const FStaticMeshVertexBuffers& Buffers = Proxy.GetVertexBuffers();
    const FRHIBuffer* Positions = Buffers.PositionVertexBuffer.VertexBufferRHI;
    const FRHIBuffer* UVs = Buffers.StaticMeshVertexBuffer.TexCoordVertexBuffer.VertexBufferRHI;
    U.NumTexCoords = Buffers.StaticMeshVertexBuffer.GetNumTexCoords();
    U.TopologyUploads = Proxy.GetTopologyUploads();
    U.Positions.resize(Proxy.GetNumVertices());
    U.UVs.resize(static_cast<std::size_t>(Proxy.GetNumVertices()) * U.NumTexCoords);
    if (Positions && Positions->Bytes.size() >= U.Positions.size() * sizeof(FVector3f))
        std::memcpy(U.Positions.data(), Positions->Bytes.data(), U.Positions.size() * sizeof(FVector3f));
    if (UVs && UVs->Bytes.size() >= U.UVs.size() * sizeof(FVector2f))
        std::memcpy(U.UVs.data(), UVs->Bytes.data(), U.UVs.size() * sizeof(FVector2f));
    return U;
}

/// Follows one proxy frame by frame: each upload's displacement channels against the
/// positions it and the upload before drew.
struct Tracker {
    std::string Name;
    Upload Last;
    bool bHaveLast = false;
    int Frames = 0, Moving = 0, Zeroed = 0, Wrong = 0;
    double MeanDz = 0.0; ///< the last frame's mean z displacement, cm

    explicit Tracker(std::string InName) : Name(std::move(InName)) {}

    void Observe(const FSinewMeshSceneProxy& Proxy) {
        Upload Now = Read(Proxy);
        if (Now.Positions.empty()) {
            bHaveLast = false; // nothing drawn: the next frame has nothing to compare with
            return;
        }
        ++Frames;
        const bool bComparable = bHaveLast && Now.TopologyUploads == Last.TopologyUploads && Now.Positions.size() == Last.Positions.size();
        bool bAllZero = true, bExact = Now.NumTexCoords == 3;
        double Dz = 0.0;
        for (std::size_t i = 0; bExact && i < Now.Positions.size(); ++i) {
            const FVector2f XY = Now.UVs[i * 3 + FSinewMeshSceneProxy::MotionTexCoordXY];
            const FVector2f Z = Now.UVs[i * 3 + FSinewMeshSceneProxy::MotionTexCoordZ];
            const FVector3f P = Now.Positions[i];
            FVector3f Expected(0.0f, 0.0f, 0.0f);
            if (bComparable) {
                const FVector3f Q = Last.Positions[i];
                Expected = FVector3f(Q.X - P.X, Q.Y - P.Y, Q.Z - P.Z);
            }
            bExact = XY.X == Expected.X && XY.Y == Expected.Y && Z.X == Expected.Z && Z.Y == 0.0f;
            bAllZero = bAllZero && XY.X == 0.0f && XY.Y == 0.0f && Z.X == 0.0f;
            Dz += Z.X;
        }
        MeanDz = Dz / (double)Now.Positions.size();
        if (!bExact) {
            if (Wrong == 0) std::printf("%s: frame %d's displacements differ from previous - current\n", Name.c_str(), Frames);
            ++Wrong;
        } else if (!bComparable) {
            ++Zeroed;
        } else if (!bAllZero) {
            ++Moving;
        }
        Last = std::move(Now);
        bHaveLast = true;
    }
};

bool DrawsVelocity(const FSinewMeshSceneProxy& Proxy) {
    FSceneView View;
    return Proxy.GetViewRelevance(&View).bVelocityRelevance && Proxy.AlwaysHasVelocity();
}

/// A box of half-size 20 cm as a static mesh section: 24 vertices (UV seams), 12
/// triangles, clockwise seen from outside (Unreal's front faces).
void Box(UStaticMesh& Mesh) {
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
            for (int32 k : {0, 2, 1, 0, 3, 2}) Mesh.StubTriangles.Add(base + k);
        }
}

std::unique_ptr<USinewSoftBodyComponent> MakeSoftBody(Game& G, UStaticMesh& Mesh, bool bMotion) {
    auto C = std::make_unique<USinewSoftBodyComponent>(FObjectInitializer());
    C->World = &G.World;
    C->Transform = FTransform(FVector(0, 0, 300));
    C->SourceMesh = &Mesh;
    C->Mode = ESinewSoftBodyMode::Pressure;
    C->CollisionRadius = 0.0f;
    C->bOutputMotionVectors = bMotion;
    C->RegisterComponent();
    G.Primitives.push_back(C.get());
    C->BeginPlay();
    return C;
}

bool SameBits(const void* A, const void* B, std::size_t Bytes) { return Bytes == 0 || std::memcmp(A, B, Bytes) == 0; }

/// A falling pressure body drawn with and without motion vectors, in two worlds stepped alike.
void FallingSoftBody() {
    UStaticMesh Mesh;
    Box(Mesh);
    Game On, Off;
    auto WithMotion = MakeSoftBody(On, Mesh, true);
    auto Without = MakeSoftBody(Off, Mesh, false);
    const FSinewMeshSceneProxy& P = *ProxyOf(*WithMotion);
    const FSinewMeshSceneProxy& Q = *ProxyOf(*Without);
    check(P.OutputsMotionVectors() && DrawsVelocity(P), "soft body, motion vectors on: the proxy draws velocity");
    check(!Q.OutputsMotionVectors() && !DrawsVelocity(Q), "soft body, motion vectors off: no velocity");
    Tracker T{"soft body"};
    On.EndOfFrame();
    Off.EndOfFrame();
    T.Observe(P);
    bool SameDrawing = true, OffHasOneUV = true, Locks = true;
    double FirstDz = -1.0;
    for (int f = 0; f < 30; ++f) {
        const int32 Before = GStubRHICmdList().Locks;
        On.Frame();
        const int32 Middle = GStubRHICmdList().Locks;
        Off.Frame();
        const int32 After = GStubRHICmdList().Locks;
        // A cloth-like body uploads positions and tangents each frame; with motion vectors
        // its texture coordinates too (the displacement changes every frame).
        Locks = Locks && Middle - Before == 3 && After - Middle == 2;
        T.Observe(P);
        if (f == 0) FirstDz = T.MeanDz;
        const Upload A = Read(P), B = Read(Q);
        const FStaticMeshVertexBuffer& AV = P.GetVertexBuffers().StaticMeshVertexBuffer;
        const FStaticMeshVertexBuffer& BV = Q.GetVertexBuffers().StaticMeshVertexBuffer;
        SameDrawing = SameDrawing && A.Positions.size() == B.Positions.size() &&
                      SameBits(A.Positions.data(), B.Positions.data(), A.Positions.size() * sizeof(FVector3f));
        for (uint32 v = 0; SameDrawing && v < P.GetNumVertices(); ++v) {
            const FVector4f N1 = AV.VertexTangentZ(v), N2 = BV.VertexTangentZ(v);
            const FVector2f U1 = A.UVs[v * 3], U2 = B.UVs[v];
            SameDrawing = N1.X == N2.X && N1.Y == N2.Y && N1.Z == N2.Z && U1.X == U2.X && U1.Y == U2.Y;
        }
        OffHasOneUV = OffHasOneUV && B.NumTexCoords == 1 && !BV.GetUseFullPrecisionUVs() &&
                      Q.GetVertexBuffers().StaticMeshVertexBuffer.TexCoordVertexBuffer.VertexBufferRHI.P->Bytes.size() ==
                          (std::size_t)Q.GetNumVertices() * sizeof(FVector2f);
    }
    const FStaticMeshVertexBuffer& AV = P.GetVertexBuffers().StaticMeshVertexBuffer;
    check(AV.GetNumTexCoords() == 3 && AV.GetUseFullPrecisionUVs(), "soft body: three UV channels, stored as floats");
    check(T.Frames == 31 && T.Wrong == 0, "soft body: every frame's UV1.xy, UV2.x = previous - current position, bit for bit (" +
                                              std::to_string(T.Frames) + " frames, " + std::to_string(T.Wrong) + " wrong)");
 // The first frame's step may come a frame later (the fixed-step accumulator): still, not moved.
    check(T.Zeroed == 1 && T.Moving >= 29, "soft body: 0 on the first frame only, then it moves (" + std::to_string(T.Zeroed) + " zero, " +
                                               std::to_string(T.Moving) + " moving)");
    // A fall at 60 Hz drawn between fixed steps: the 30th frame's step is at most g t dt
    // with t = 0.5 s (8.2 cm; the body's damping takes some); the previous position is
    // above, so the displacement is +z.
    check(FirstDz >= 0.0 && FirstDz < 1.0 && T.MeanDz > 5.0 && T.MeanDz < 8.2,
          "soft body: the displacement is the fall per frame (" + std::to_string(FirstDz) + " cm after one frame, " + std::to_string(T.MeanDz) +
              " cm after 30)");
    check(SameDrawing, "soft body: positions, normals and UV0 are the same bits with motion vectors on and off");
    check(OffHasOneUV, "soft body, off: one UV channel (half floats in UE), as big as before");
    check(Locks, "soft body: 3 buffer writes per frame with motion vectors, 2 without");
    WithMotion->EndPlay(EEndPlayReason::Destroyed);
    Without->EndPlay(EEndPlayReason::Destroyed);
}

/// A 1 m rope of 10 links hanging from its start, reeled in by the winch and then cut.
void WinchedRope() {
    Game G;
    auto Rope = std::make_unique<USinewRopeComponent>(FObjectInitializer());
    Rope->World = &G.World;
    Rope->Transform = FTransform(FVector(0, 0, 300));
    Rope->EndLocation = FVector(100, 0, 0); // starts horizontal: it swings down
    Rope->bAttachEnd = false;
    Rope->RopeLength = 100.0f;
    Rope->NumSegments = 10;
    Rope->Mass = 1.0f;
    Rope->bOutputMotionVectors = true;
    Rope->RegisterComponent();
    G.Primitives.push_back(Rope.get());
    Rope->BeginPlay();
    check(Rope->IsSimulating(), "rope: joined the simulation");
    const FSinewMeshSceneProxy& P = *ProxyOf(*Rope);
    check(DrawsVelocity(P), "rope: the proxy draws velocity");
    Tracker T{"rope"};
    G.EndOfFrame();
    T.Observe(P);
    for (int f = 0; f < 20; ++f) {
        G.Frame();
        T.Observe(P);
    }
    check(T.Wrong == 0 && T.Zeroed == 1 && T.Moving >= 18 && T.Frames == 21,
          "rope: swinging, 0 on the first frame, then previous - current bit for bit (" + std::to_string(T.Frames) + " frames, " +
              std::to_string(T.Zeroed) + " zero, " + std::to_string(T.Moving) + " moving, " + std::to_string(T.Wrong) + " wrong)");
    // The winch reels in 50 cm at 1 m/s: particles park at the drum one by one, each a new
    // set of pieces (a new index buffer) on which the displacement starts again from 0.
    Rope->SetWinchSpeed(100.0f);
    Rope->SetLength(50.0f);
    const uint32 TopologyBefore = P.GetTopologyUploads();
    const int ZeroedBefore = T.Zeroed, MovingBefore = T.Moving;
    for (int f = 0; f < 45; ++f) {
        G.Frame();
        T.Observe(P);
    }
    const uint32 Changes = P.GetTopologyUploads() - TopologyBefore;
    check(Changes >= 3, "rope: the winch changed the drawn pieces " + std::to_string(Changes) + " times");
    check(T.Wrong == 0 && T.Zeroed - ZeroedBefore == (int)Changes && T.Moving > MovingBefore,
          "rope: while winched, 0 on each frame whose pieces changed (" + std::to_string(T.Zeroed - ZeroedBefore) +
              "), previous - current on the others (" + std::to_string(T.Moving - MovingBefore) + ")");
    const int ZeroedBeforeCut = T.Zeroed;
    check(Rope->Cut(8), "rope: cut link 8");
    G.Frame();
    T.Observe(P);
    check(T.Wrong == 0 && T.Zeroed == ZeroedBeforeCut + 1, "rope: 0 on the frame after the cut");
    G.Frame();
    T.Observe(P);
    check(T.Wrong == 0 && T.Zeroed == ZeroedBeforeCut + 1, "rope: previous - current again on the frame after that");
    check(GStubRHICmdList().BadLocks == 0, "rope: every buffer lock was valid");
    Rope->EndPlay(EEndPlayReason::Destroyed);
}

/// An 80 cm sheet hanging from its top row, pulled down by a corner until it tears.
void TearingCloth() {
    Game G;
    UStaticMesh Sheet;
    for (int j = 0; j < 9; ++j)
        for (int i = 0; i < 9; ++i) {
            Sheet.StubVertices.Add(FVector(10.0 * i, 0, 10.0 * j));
            Sheet.StubUVs.Add(FVector2D(i / 8.0, j / 8.0));
        }
    for (int j = 0; j < 8; ++j)
        for (int i = 0; i < 8; ++i) {
            const int32 a = j * 9 + i, b = a + 1, c = a + 9, d = a + 10;
            for (int32 v : {a, b, d, a, d, c}) Sheet.StubTriangles.Add(v);
        }
    auto C = std::make_unique<USinewClothComponent>(FObjectInitializer());
    C->World = &G.World;
    C->Transform = FTransform(FVector(300, 500, 100));
    C->SourceMesh = &Sheet;
    C->TearThreshold = 1.2f;
    C->bOutputMotionVectors = true;
    C->RegisterComponent();
    G.Primitives.push_back(C.get());
    C->BeginPlay();
    const FSinewMeshSceneProxy& P = *ProxyOf(*C);
    check(C->IsSimulating() && DrawsVelocity(P), "cloth: joined the simulation, the proxy draws velocity");
    Tracker T{"cloth"};
    G.EndOfFrame();
    T.Observe(P);
    for (int f = 0; f < 30; ++f) {
        G.Frame();
        T.Observe(P);
    }
    check(T.Wrong == 0 && T.Zeroed == 1 && T.Moving >= 20, "cloth: settling, 0 on the first frame, then previous - current bit for bit");
    check(C->GrabParticle(0), "cloth: grab the bottom corner");
    C->SetGrabLocation(FVector(300, 500, -100));
    const uint32 TopologyBefore = P.GetTopologyUploads();
    const int ZeroedBefore = T.Zeroed;
    for (int f = 0; f < 60; ++f) {
        G.Frame();
        T.Observe(P);
    }
    const uint32 Tears = P.GetTopologyUploads() - TopologyBefore;
    check(C->GetTopologyVersion() > 0 && Tears >= 1 && P.GetNumVertices() > 81, "cloth: it tore (" + std::to_string(Tears) + " new topologies)");
    check(T.Wrong == 0 && T.Zeroed - ZeroedBefore == (int)Tears,
          "cloth: 0 on each frame whose topology changed, previous - current bit for bit on the others (" + std::to_string(T.Frames) + " frames)");
    check(GStubRHICmdList().BadLocks == 0, "cloth: every buffer lock was valid");
    C->EndPlay(EEndPlayReason::Destroyed);
}
/// A character cloth (a 9 x 9 sheet section of a stand-in skeletal mesh) settling on its skinned pose.
void CharacterCloth() {
    Game G;
    FSkeletalMeshRenderData RenderData;
    FSkeletalMeshLODRenderData LOD;
    FSkelMeshRenderSection Section;
    Section.NumTriangles = 128;
    Section.NumVertices = 81;
    LOD.RenderSections.Add(Section);
    USkeletalMeshComponent Skeletal;
    for (int j = 0; j < 9; ++j)
        for (int i = 0; i < 9; ++i) {
            FFinalSkinVertex V;
            V.Position = FVector3f(10.0f * i, 0.0f, 10.0f * j);
            Skeletal.Skinned.Add(V);
        }
    for (int j = 0; j < 8; ++j)
        for (int i = 0; i < 8; ++i) {
            const uint32 a = (uint32)(j * 9 + i), b = a + 1, c = a + 9, d = a + 10;
            for (uint32 v : {a, b, d, a, d, c}) LOD.MultiSizeIndexContainer.Indices.Add(v);
        }
    LOD.StaticVertexBuffers.StaticMeshVertexBuffer.Init(81, 1);
    LOD.StaticVertexBuffers.ColorVertexBuffer.InitFromSingleColor(FColor::White, 81);
    RenderData.LODRenderData.Add(LOD);
    Skeletal.RenderData = &RenderData;
    Skeletal.Transform = FTransform(FVector(0, -500, 100));
    auto Cape = std::make_unique<USinewSkinnedClothComponent>(FObjectInitializer());
    Cape->World = &G.World;
    Cape->AttachParent = &Skeletal;
    Cape->Transform = Skeletal.Transform;
    Cape->bUseSceneWind = false;
    Cape->bOutputMotionVectors = true;
    Cape->RegisterComponent();
    G.Primitives.push_back(Cape.get());
    Cape->BeginPlay();
    const FSinewMeshSceneProxy& P = *ProxyOf(*Cape);
    check(G.Sub.GetBodyCount() == 1 && DrawsVelocity(P), "character cloth: joined the simulation, the proxy draws velocity");
    Tracker T{"character cloth"};
    G.EndOfFrame();
    T.Observe(P);
    for (int f = 0; f < 30; ++f) {
        G.Frame();
        T.Observe(P);
    }
    check(T.Wrong == 0 && T.Zeroed == 1 && T.Moving >= 20 && P.GetNumVertices() == 81,
          "character cloth: 0 on the first frame, then previous - current bit for bit (" + std::to_string(T.Frames) + " frames, " +
              std::to_string(T.Moving) + " moving)");
    Cape->EndPlay(EEndPlayReason::Destroyed);
}
} // namespace

int main() {
    FallingSoftBody();
    WinchedRope();
    TearingCloth();
    CharacterCloth();
    return Finish();
}

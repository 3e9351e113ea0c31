// The Unreal plugin's collider component with Shape StaticMesh (a static mesh's signed
// distance field, baked by the library) on the stand-in engine of tests/cpp/ue_stub:
// a 40 cm cube given as Unreal stores it (4 vertices per face, UV seams) becomes a
// field collider, a rope falling on it drapes over the cube's top and no particle ends
// inside the cube; the field is baked once and kept (no new log line over many frames),
// baked again when the mesh is re-imported (new bounds) and when the cell size changes
// (fewer nodes); the cube wound the other way
// bakes the same field; the mesh of the static mesh component the collider is attached
// to is used when SdfMesh is empty; a cube with a face missing is refused with one
// clear log line and no collider; EndPlay removes it; on a static mesh component that
// simulates physics it couples two-way (the rope's push reaches the body as AddForce or
// a velocity change) and raises the contact delegates. Built and run by
// tests/bindings/cpp_wrapper.rs (`unreal_sdf_collider_on_a_stub_engine`, plain and
// under ASan/UBSan).

#include "../../unreal-sample/Plugins/Sinew/Source/Sinew/Private/SinewWorldSubsystem.cpp"
#include "../../unreal-sample/Plugins/Sinew/Source/Sinew/Private/SinewColliderComponent.cpp"
#include "../../unreal-sample/Plugins/Sinew/Source/Sinew/Private/SinewRopeComponent.cpp"
#include "../../unreal-sample/Plugins/Sinew/Source/Sinew/Private/SinewMeshSceneProxy.cpp"
#include "../../unreal-sample/Plugins/Sinew/Source/Sinew/Private/SinewEditorPreview.cpp"
#include "../../unreal-sample/Plugins/Sinew/Source/Sinew/Private/SinewTaskGraph.cpp"
#include "../../unreal-sample/Plugins/Sinew/Source/Sinew/Private/SinewProfiling.cpp"

#include <cmath>
#include <cstdio>
#include <memory>
#include <string>
#include <vector>

#include "unreal_test_game.h"

namespace {
/// A cube of half-size 20 cm as a static mesh section: 24 vertices (UV seams), 12
/// triangles, all wound one way (`Flip` turns every triangle over); `Faces` of its 6.
void Cube(UStaticMesh& Mesh, bool Flip = false, int Faces = 6) {
    int Made = 0;
    for (int axis = 0; axis < 3; ++axis)
        for (int sign = -1; sign <= 1; sign += 2) {
            if (Made++ == Faces) return;
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
            for (int32 k : Flip ? std::vector<int32>{0, 2, 1, 0, 3, 2} : std::vector<int32>{0, 1, 2, 0, 2, 3})
                Mesh.StubTriangles.Add(base + k);
        }
}

std::unique_ptr<USinewColliderComponent> MakeField(Game& G, UStaticMesh* Mesh, FVector At) {
    auto C = std::make_unique<USinewColliderComponent>(FObjectInitializer());
    C->World = &G.World;
    C->Transform = FTransform(At);
    C->bMirrorParentShape = false;
    C->Shape = ESinewColliderShape::StaticMesh;
    C->SdfMesh = Mesh;
    C->SdfCellSize = 5.0f;
    return C;
}
} // namespace

int main() {
    UStaticMesh Box, Plain, Flipped, Open;
    Cube(Box);
    Cube(Plain); // Box is re-imported larger below
    Cube(Flipped, true);
    Cube(Open, false, 5);

    {
        Game G;
        auto Field = MakeField(G, &Box, FVector(0, 0, 100)); // the cube spans z 80..120 cm
        Field->BeginPlay();
        const int32 Nodes = Field->GetSdfNodeCount();
        check(Field->IsSimulating() && Nodes > 0 && Nodes <= 20 * 20 * 20,
              "the cube's field joins the simulation (" + std::to_string(Nodes) + " nodes of 5 cm)");

        // A rope of 20 links, 4 cm thick, hanging from 60 cm left of the cube's top, its free end to the right.
        auto Rope = std::make_unique<USinewRopeComponent>(FObjectInitializer());
        Rope->World = &G.World;
        Rope->Transform = FTransform(FVector(-60, 0, 140));
        Rope->EndLocation = FVector(120, 0, 0);
        Rope->bAttachEnd = false;
        Rope->RopeLength = 120.0f;
        Rope->NumSegments = 20;
        Rope->CollisionRadius = 2.0f;
        Rope->RegisterComponent();
        G.Primitives.push_back(Rope.get());
        Rope->BeginPlay();
        const int32 Logs = GStubLogCount();
        G.Frames(120);
        TArray<FVector> P;
        Rope->GetParticleLocations(P);
        bool Outside = P.Num() == 21, OnTop = false;
        for (const FVector& X : P) {
            const bool Over = std::fabs(X.X) < 18.0 && std::fabs(X.Y) < 18.0;
            Outside = Outside && !(Over && X.Z < 119.0 && X.Z > 81.0);
            OnTop = OnTop || (Over && X.Z > 119.0 && X.Z < 126.0);
        }
        check(OnTop, "the rope lies on the cube's top face (a particle over it, 0 to 6 cm above)");
        check(Outside, "no particle of the rope inside the cube");
        check(GStubLogCount() == Logs && Field->GetSdfNodeCount() == Nodes, "120 frames: the field is kept, nothing logged");

        // The mesh re-imported larger (the same object, other bounds): baked again.
        UStaticMesh Bigger;
        Cube(Bigger);
        for (FVector& V : Bigger.StubVertices) V = V * 1.5;
        Bigger.Bounds = FBoxSphereBounds(FBox(FVector(-30, -30, -30), FVector(30, 30, 30)));
        Box.StubVertices = Bigger.StubVertices;
        Box.Bounds = Bigger.Bounds;
        G.Frames(1);
        const int32 Reimported = Field->GetSdfNodeCount();
        check(Field->IsSimulating() && Reimported > Nodes, "a re-imported, larger mesh (new bounds) is baked again (" + std::to_string(Reimported) + " nodes)");

        Field->SdfCellSize = 10.0f;
        G.Frames(1);
        const int32 Coarse = Field->GetSdfNodeCount();
        check(Field->IsSimulating() && Coarse > 0 && Coarse < Reimported,
              "a larger cell bakes again, with fewer nodes (" + std::to_string(Coarse) + ")");

        Rope->EndPlay(EEndPlayReason::Destroyed);
        Field->EndPlay(EEndPlayReason::Destroyed);
        check(!Field->IsSimulating(), "EndPlay removes the field's collider");
    }

    {
        Game G;
        auto Field = MakeField(G, &Flipped, FVector(0, 0, 100));
        Field->BeginPlay();
        auto Reference = MakeField(G, &Plain, FVector(200, 0, 100));
        Reference->BeginPlay();
        check(Field->IsSimulating() && Field->GetSdfNodeCount() == Reference->GetSdfNodeCount(),
              "the cube wound the other way bakes the same field");
        Field->EndPlay(EEndPlayReason::Destroyed);
        Reference->EndPlay(EEndPlayReason::Destroyed);

        // No SdfMesh: the mesh of the static mesh component it is attached to.
        UStaticMeshComponent Parent{FObjectInitializer()};
        Parent.SetStaticMesh(&Plain);
        Parent.Transform = FTransform(FVector(0, 300, 100));
        auto Child = MakeField(G, nullptr, FVector(0, 300, 100));
        Child->AttachParent = &Parent;
        Child->BeginPlay();
        check(Child->IsSimulating() && Child->GetSdfNodeCount() > 0, "the parent static mesh component's mesh when SdfMesh is empty");
        Child->EndPlay(EEndPlayReason::Destroyed);

        const int32 Logs = GStubLogCount();
        auto Broken = MakeField(G, &Open, FVector(0, 600, 100));
        Broken->BeginPlay();
        G.Frames(10);
        check(!Broken->IsSimulating() && Broken->GetSdfNodeCount() == 0, "a cube with a face missing is refused: no collider");
        check(GStubLogCount() == Logs + 1, "with one log line over 10 frames (the library's message names the open edge)");
        Broken->EndPlay(EEndPlayReason::Destroyed);
    }

    {
        // Two-way with Chaos and contact delegates: the field of a static mesh component
        // that simulates physics (a 5 kg cube spanning z 80..120 cm, its collider taking
        // the mesh from it), a rope dropped across its top. The rope pushes the body down
        // (AddForce, UE units; the torque at its centre of mass), the delegates name the
        // collider and the rope, on the top face with the normal +Z, and in the velocity
        // change mode the push is added to the body's velocity.
        Game G;
        UStaticMeshComponent Body{FObjectInitializer()};
        Body.SetStaticMesh(&Plain);
        Body.Transform = FTransform(FVector(0, 0, 100));
        Body.bSimulatePhysics = true;
        Body.Mass = 5.0f;
        Body.BodyInstance.CenterOfMass = FVector(0, 0, 100);
        Body.BodyInstance.Inertia = FVector(1e4, 1e4, 1e4);
        auto Field = MakeField(G, nullptr, FVector(0, 0, 100));
        Field->AttachParent = &Body;
        Field->BodyCoupling = ESinewBodyCoupling::ForceAndTorque;
        Field->bContactEvents = true;
        struct Hit {
            int Kind;
            USinewColliderComponent* Collider;
            USceneComponent* Body;
            FVector Location, Normal;
            float Impulse;
        };
        std::vector<Hit> Hits;
        Field->OnSinewContactBegin.AddLambda([&](USinewColliderComponent* C, USceneComponent* B, FVector L, FVector N, float J) {
            Hits.push_back({0, C, B, L, N, J});
        });
        Field->OnSinewContactPersist.AddLambda([&](USinewColliderComponent* C, USceneComponent* B, FVector L, FVector N, float J) {
            Hits.push_back({1, C, B, L, N, J});
        });
        Field->BeginPlay();
        check(Field->IsSimulating() && Field->GetSdfNodeCount() > 0, "two-way: the simulating static mesh's field joins the simulation");
        auto Rope = std::make_unique<USinewRopeComponent>(FObjectInitializer());
        Rope->World = &G.World;
        Rope->Transform = FTransform(FVector(-15, 0, 130)); // across the top, which spans x -20..20
        Rope->EndLocation = FVector(30, 0, 0);
        Rope->bAttachEnd = false;
        Rope->RopeLength = 30.0f;
        Rope->NumSegments = 10;
        Rope->CollisionRadius = 2.0f;
        Rope->bAttachStart = false;
        Rope->RegisterComponent();
        G.Primitives.push_back(Rope.get());
        Rope->BeginPlay();
        G.Frames(60);
        check(Body.ForceAdded.Z < 0.0, "two-way: the rope pushes the static mesh's body down (AddForce, " + std::to_string(Body.ForceAdded.Z) + ")");
        check(Body.LinearVelocity.Z == 0.0, "two-way: ForceAndTorque leaves the velocity to the engine");
        check(!Hits.empty() && Hits[0].Kind == 0, "field contact delegates: a begin first");
        bool AllOurs = !Hits.empty(), OnTop = true, Persisted = false;
        for (const Hit& H : Hits) {
            AllOurs = AllOurs && H.Collider == Field.get() && H.Body == Rope.get();
            OnTop = OnTop && std::fabs(H.Location.Z - 120.0) < 1.5 && H.Normal.Z > 0.99;
            Persisted = Persisted || (H.Kind == 1 && H.Impulse > 0.0f);
        }
        check(AllOurs, "field contact delegates: the field's collider and the rope component");
        check(OnTop, "field contact delegates: on the cube's top face (cm), normal +Z");
        check(Persisted, "field contact delegates: persist with a normal impulse while the rope lies there");
        Field->BodyCoupling = ESinewBodyCoupling::VelocityChange;
        G.Frames(30);
        check(Body.LinearVelocity.Z < 0.0, "two-way: VelocityChange adds the proxy's velocity change to the body");
        Rope->EndPlay(EEndPlayReason::Destroyed);
        Field->EndPlay(EEndPlayReason::Destroyed);
        check(!Field->IsSimulating(), "two-way: EndPlay removes the field's collider");
    }

    return Finish();
}

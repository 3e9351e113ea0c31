// The Unreal plugin's rope component and world subsystem, compiled by g++ against the
// stand-in engine of tests/cpp/ue_stub (no Unreal on CI) and run: ropes edited from
// "Blueprint" (their setters, the details panel hook, Cut, CutAlong) change in place,
// a link that breaks fires OnRopeBroken, the mesh splits into one section per piece,
// and a rope in another component continues bit for bit as it does alone.
// Built and run by tests/cpp_wrapper.rs (`unreal_components_on_a_stub_engine`).

#include "../../unreal-sample/Plugins/Sinew/Source/Sinew/Private/SinewWorldSubsystem.cpp"
#include "../../unreal-sample/Plugins/Sinew/Source/Sinew/Private/SinewRopeComponent.cpp"
#include "../../unreal-sample/Plugins/Sinew/Source/Sinew/Private/SinewTaskGraph.cpp"

#include <cstdio>
#include <memory>

DEFINE_LOG_CATEGORY(LogSinew);
bool FSinewModule::bAvailable = true;
bool FSinewModule::IsAvailable() { return bAvailable; }

namespace {
int g_checks = 0, g_failures = 0;
void check(bool ok, const char* what) {
    ++g_checks;
    if (!ok) ++g_failures;
    std::printf("[%s] %s\n", ok ? "PASS" : "FAIL", what);
}

/// One game world with its Sinew subsystem, stepped at 60 Hz.
struct Game {
    UWorld World;
    USinewWorldSubsystem Sub;
    Game() {
        World.Subsystem = &Sub;
        Sub.World = &World;
        FSubsystemCollectionBase Collection;
        Sub.Initialize(Collection);
        Sub.OnWorldBeginPlay(World);
    }
    ~Game() { Sub.Deinitialize(); }
    void Frames(int n) {
        for (int i = 0; i < n; ++i) Sub.Step(1.0f / 60.0f);
    }
};

/// A 1 m rope of 10 links hanging from `Top` (cm) along `End` (cm, relative), its end free.
std::unique_ptr<USinewRopeComponent> MakeRope(Game& G, FVector Top, FVector End, float Mass, bool Tethers) {
    auto Rope = std::make_unique<USinewRopeComponent>(FObjectInitializer());
    Rope->World = &G.World;
    Rope->Transform = FTransform(Top);
    Rope->EndLocation = End;
    Rope->bAttachEnd = false;
    Rope->RopeLength = 100.0f;
    Rope->NumSegments = 10;
    Rope->Mass = Mass;
    Rope->bTethers = Tethers;
    Rope->Compliance = 1e-5f;
    return Rope;
}

bool Same(const TArray<FVector>& A, const TArray<FVector>& B) {
    if (A.Num() != B.Num()) return false;
    for (int32 i = 0; i < A.Num(); ++i)
        if (A[i].X != B[i].X || A[i].Y != B[i].Y || A[i].Z != B[i].Z) return false;
    return true;
}
} // namespace

int main() {
    Game Alone, Shared;
    // The same swinging rope in both games; the shared game also has a rope that is
    // winched and cut and one that snaps, 10 m and 20 m away.
    auto Swing = MakeRope(Alone, FVector(0, 0, 300), FVector(100, 0, 0), 1.0f, true);
    auto Crane = MakeRope(Shared, FVector(1000, 0, 300), FVector(0, 0, -100), 1.0f, true);
    auto Snap = MakeRope(Shared, FVector(2000, 0, 300), FVector(0, 0, -100), 1.1f, false);
    auto Beside = MakeRope(Shared, FVector(0, 0, 300), FVector(100, 0, 0), 1.0f, true);
    Swing->BeginPlay();
    Crane->BeginPlay();
    Snap->BeginPlay();
    Beside->BeginPlay();
    check(Swing->IsSimulating() && Crane->IsSimulating() && Snap->IsSimulating() && Beside->IsSimulating(),
          "every rope joined its world's simulation");
    check(Shared.Sub.GetBodyCount() == 3 && Alone.Sub.GetBodyCount() == 1, "body counts");
    check(std::fabs(Crane->GetCurrentLength() - 100.0f) < 0.1f, "the winch starts at the built length");

    struct Heard {
        USinewRopeComponent* Rope;
        int32 Link;
        FVector Location;
        float Force;
    };
    std::vector<Heard> Breaks;
    Snap->OnRopeBroken.AddLambda([&](USinewRopeComponent* R, int32 Link, FVector At, float Force) {
        Breaks.push_back({R, Link, At, Force});
    });
    Crane->OnRopeBroken.AddLambda([&](USinewRopeComponent* R, int32 Link, FVector At, float Force) {
        Breaks.push_back({R, Link, At, Force});
    });
    Alone.Frames(20);
    Shared.Frames(20);

    // Edits from Blueprint while the game runs.
    Crane->SetWinchSpeed(100.0f); // cm/s
    Crane->SetLength(50.0f);      // cm: 0.5 s
    Crane->SetCompliance(1e-6f);
    Crane->BendCompliance = 0.02f; // a details-panel edit
    FPropertyChangedEvent Edit{FName("BendCompliance")};
    Crane->PostEditChangeProperty(Edit);
    // Link k of the snapping rope holds its 10 - k lowest particles (0.11 kg each,
    // 10.8 N on the top link, 9.7 N on the next): 10.2 N breaks the top link only.
    Snap->SetBreakForce(10.2f);
    const int LogsBefore = GStubLogCount();
    Alone.Frames(40);
    Shared.Frames(40);
    check(std::fabs(Crane->GetCurrentLength() - 50.0f) < 0.01f, "the winch reeled the rope in to 50 cm");
    check(Breaks.size() == 1, "one link broke");
    if (!Breaks.empty()) {
        check(Breaks[0].Rope == Snap.get() && Breaks[0].Link == 0, "OnRopeBroken: the snapping rope's top link");
        check(Breaks[0].Force > 10.2f && Breaks[0].Force < 12.0f, "OnRopeBroken: the force just past the break force");
        check(std::fabs(Breaks[0].Location.X - 2000.0) < 1.0 && Breaks[0].Location.Z < 300.0 &&
                  Breaks[0].Location.Z > 290.0,
              "OnRopeBroken: world location (cm) at the top link");
    }
    check(Snap->IsLinkBroken(0) && !Snap->IsLinkBroken(1), "the component knows which link broke");
    check(Snap->SectionVertices.size() == 1, "the snapped rope draws its falling piece (the pin alone is left out)");
    const std::size_t WholeCrane = Crane->SectionVertices.size() == 1 ? (std::size_t)Crane->SectionVertices[0] : 0;
    check(WholeCrane > 0, "the winched rope is one section");

    // Cuts: by link and by a swipe.
    check(!Crane->Cut(10) && !Crane->Cut(-1), "cuts out of range refused");
    check(Crane->Cut(8), "cut link 8");
    check(!Crane->Cut(8), "a cut link cannot be cut again");
    Shared.Frames(1);
    Alone.Frames(1);
    check(Crane->SectionVertices.size() == 2, "the cut rope draws two pieces");
    const int32 Swiped = Crane->CutAlong(FVector(900, 0, 285), FVector(1100, 0, 285));
    check(Swiped >= 5 && Swiped <= 7 && Crane->IsLinkBroken(Swiped), "a swipe 15 cm under the drum cuts an active link");
    Shared.Frames(30);
    Alone.Frames(30);
    check(Breaks.size() == 1, "cuts fire no OnRopeBroken");
    check(GStubLogCount() == LogsBefore, "nothing was logged (no call failed)");
    check(Swing->BadUpdates == 0 && Beside->BadUpdates == 0 && Crane->BadUpdates == 0 && Snap->BadUpdates == 0,
          "mesh sections are updated with the vertex counts they were made with");

    TArray<FVector> A, B;
    Swing->GetParticleLocations(A);
    Beside->GetParticleLocations(B);
    check(A.Num() == 11 && A[10].Z < 250.0, "the rope swings down from horizontal");
    check(Same(A, B), "the rope beside the edited ones continues bit for bit as it does alone");

    // Another component ends play: its body goes, the others continue untouched.
    Crane->EndPlay(EEndPlayReason::Destroyed);
    check(!Crane->IsSimulating() && Shared.Sub.GetBodyCount() == 2, "the ended rope left the simulation");
    Alone.Frames(30);
    Shared.Frames(30);
    Swing->GetParticleLocations(A);
    Beside->GetParticleLocations(B);
    check(Same(A, B), "still bit for bit after another rope ended play");
    Snap->EndPlay(EEndPlayReason::Destroyed);
    Beside->EndPlay(EEndPlayReason::Destroyed);
    Swing->EndPlay(EEndPlayReason::Destroyed);

    // USinewSettings::bUseTaskGraph: the world's passes on FSinewTaskGraphTaskSystem
    // (ParallelFor; the stub's runs serially) step a large cloth to the same bits as one
    // thread, and a game with the setting on runs its rope as the game without.
    {
        auto Cloth = [](uint32 Threads) {
            sinew::World W = sinew::World::create(sinew::WorldDesc().with_substeps(10).with_threads(Threads)).value();
            sinew::ClothGridDesc Grid;
            Grid.with_segments(127, 127).with_pinned_corners(3);
            (void)W.add_cloth_grid(sinew::ClothDesc(), Grid).value();
            return W;
        };
        sinew::World One = Cloth(1), OnGraph = Cloth(1);
        check(FSinewTaskGraphTaskSystem::WorkerCount() == 4, "task graph: 3 workers + the calling thread");
        check((bool)OnGraph.set_task_system(FSinewTaskGraphTaskSystem::Get()), "task graph: installed");
        bool SameBits = true;
        for (int F = 0; F < 3; ++F) {
            (void)One.step(1.0f / 60.0f).value();
            (void)OnGraph.step(1.0f / 60.0f).value();
            SameBits = SameBits && One.state_hash().value() == OnGraph.state_hash().value();
        }
        check(SameBits, "task graph: a 128 x 128 cloth steps to the same state hashes as one thread");

        USinewSettings* Settings = const_cast<USinewSettings*>(GetDefault<USinewSettings>());
        Game Plain, Graph;
        auto R1 = MakeRope(Plain, FVector(0, 0, 300), FVector(100, 0, 0), 1.0f, true);
        auto R2 = MakeRope(Graph, FVector(0, 0, 300), FVector(100, 0, 0), 1.0f, true);
        const int LogsBeforeGraph = GStubLogCount();
        R1->BeginPlay(); // Plain's scene is made now, with the setting off
        Settings->bUseTaskGraph = true;
        R2->BeginPlay(); // Graph's scene, with the setting on
        Settings->bUseTaskGraph = false;
        Plain.Frames(30);
        Graph.Frames(30);
        R1->GetParticleLocations(A);
        R2->GetParticleLocations(B);
        check(GStubLogCount() == LogsBeforeGraph && Same(A, B),
              "task graph: bUseTaskGraph installs without a warning, the rope moves bit for bit as without");
        R1->EndPlay(EEndPlayReason::Destroyed);
        R2->EndPlay(EEndPlayReason::Destroyed);
    }
    std::printf("%d checks, %d failed\n", g_checks, g_failures);
    return g_failures == 0 ? 0 : 1;
}

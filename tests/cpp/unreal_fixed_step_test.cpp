// The Unreal plugin's world subsystem (its .cpp as shipped) on the stand-in engine of
// tests/cpp/ue_stub: the fixed step and its accumulator. Frames of 2.5 fixed steps run
// 2 then 3 steps with GetInterpolationAlpha 0.5 then 0; PreSinewStep fires before each
// fixed step, PostSinewStep once per frame (also when no step was due); a hitch runs
// MaxStepsPerFrame steps and drops the rest; jittery frames end in the same state hash
// as frames of exactly one fixed step; what a component draws is the lerp of the last
// two states. Built and run by tests/bindings/cpp_wrapper.rs (`unreal_fixed_step_on_a_stub_engine`).

#include "../../unreal-sample/Plugins/Sinew/Source/Sinew/Private/SinewWorldSubsystem.cpp"
#include "../../unreal-sample/Plugins/Sinew/Source/Sinew/Private/SinewEditorPreview.cpp"
#include "../../unreal-sample/Plugins/Sinew/Source/Sinew/Private/SinewTaskGraph.cpp"
#include "../../unreal-sample/Plugins/Sinew/Source/Sinew/Private/SinewProfiling.cpp"

#include <cmath>
#include <cstdio>
#include <cstring>
#include <string>
#include <vector>

#include "unreal_test_game.h"

namespace {
/// A component's view of the subsystem: counts the callbacks and draws its rope at the
/// interpolation weight in PostSinewStep, as the rope and cloth components do.
struct FakeRope : ISinewSimulated {
    sinew::BodyId Body = 0;
    int Pre = 0, Post = 0;
    std::vector<sinew::Vec3> Drawn;
    void PreSinewStep(USinewWorldSubsystem&) override { ++Pre; }
    void PostSinewStep(USinewWorldSubsystem& Sub) override {
        ++Post;
        Drawn.resize(11);
        if (!Sub.GetScene()->read_interpolated_positions(Body, Sub.GetInterpolationAlpha(), Drawn)) Drawn.clear();
    }
    uint32 GetSinewBody() const override { return Body; }
};

/// One game world with its subsystem and one swinging rope.
struct RopeGame {
    UWorld World;
    USinewWorldSubsystem Sub;
    FakeRope Rope;
    RopeGame() {
        World.Subsystem = &Sub;
        Sub.World = &World;
        FSubsystemCollectionBase Collection;
        Sub.Initialize(Collection);
        Sub.OnWorldBeginPlay(World);
        sinew::RopeDesc Desc;
        Desc.with_ends(sinew::Vec3{0, 2, 0}, sinew::Vec3{1, 2, 0}).with_segments(10);
        Rope.Body = Sub.GetScene()->add_rope(Desc).value();
        Sub.Register(&Rope);
    }
    ~RopeGame() { Sub.Deinitialize(); }
    std::vector<sinew::Vec3> Positions() {
        std::vector<sinew::Vec3> P(11);
        (void)Sub.GetScene()->read_positions(Rope.Body, P);
        return P;
    }
};

bool SameBits(const std::vector<sinew::Vec3>& A, const std::vector<sinew::Vec3>& B) {
    return A.size() == B.size() && std::memcmp(A.data(), B.data(), A.size() * sizeof(sinew::Vec3)) == 0;
}
} // namespace

int main() {
    USinewSettings& Settings = const_cast<USinewSettings&>(*GetDefault<USinewSettings>());
    Settings.FixedTimeStep = 1.0f / 64.0f; // a power of two: the multiples below are exact
    Settings.MaxStepsPerFrame = 4;
    const float Fixed = Settings.FixedTimeStep;

    RopeGame G;
    G.Sub.Step(2.5f * Fixed);
    check(G.Sub.GetStepsLastFrame() == 2 && G.Sub.GetInterpolationAlpha() == 0.5f, "2.5 steps of time: 2 steps, alpha 0.5");
    check(G.Rope.Pre == 2 && G.Rope.Post == 1, "PreSinewStep before each step, PostSinewStep once");
    std::vector<sinew::Vec3> Before = G.Positions();
    G.Sub.Step(2.5f * Fixed);
    check(G.Sub.GetStepsLastFrame() == 3 && G.Sub.GetInterpolationAlpha() == 0.0f, "then 3 steps, alpha 0");
    G.Sub.Step(0.25f * Fixed);
    check(G.Sub.GetStepsLastFrame() == 0 && G.Sub.GetInterpolationAlpha() == 0.25f && G.Rope.Post == 3,
          "a short frame: no step, alpha 0.25, PostSinewStep still runs");
    Before = G.Positions();
    G.Sub.Step(0.75f * Fixed);
    const std::vector<sinew::Vec3> After = G.Positions();
    check(G.Sub.GetStepsLastFrame() == 1 && G.Sub.GetInterpolationAlpha() == 0.0f, "one step due");
    check(SameBits(G.Rope.Drawn, Before), "alpha 0 draws the state before the step");
    G.Sub.Step(0.5f * Fixed);
    bool Lerp = G.Rope.Drawn.size() == After.size();
    for (size_t i = 0; Lerp && i < After.size(); ++i) {
        const sinew::Vec3 W{Before[i].x * 0.5f + After[i].x * 0.5f, Before[i].y * 0.5f + After[i].y * 0.5f,
                            Before[i].z * 0.5f + After[i].z * 0.5f};
        Lerp = std::memcmp(&W, &G.Rope.Drawn[i], sizeof W) == 0;
    }
    check(Lerp, "alpha 0.5 draws the midpoint of the last two states");
    check(std::memcmp(&Before[10], &After[10], sizeof(sinew::Vec3)) != 0, "the free end moved in that step");

    // A hitch of 10.5 steps: 4 run, 6 dropped, the half kept (0.5 + 10.5 = 11 -> alpha 0).
    const int PreBefore = G.Rope.Pre;
    G.Sub.Step(10.5f * Fixed);
    check(G.Sub.GetStepsLastFrame() == 4 && G.Rope.Pre - PreBefore == 4, "a hitch runs MaxStepsPerFrame steps");
    check(G.Sub.GetInterpolationAlpha() == 0.0f, "the whole steps past the cap are dropped");
    G.Sub.Step(0.5f * Fixed);
    check(G.Sub.GetStepsLastFrame() == 0, "and do not come back");

    // Jittery frames and frames of one fixed step end in the same state, bit for bit.
    RopeGame Jittery, Steady;
    uint32_t Seed = 99u;
    int Total = 0;
    for (int Frame = 0; Frame < 60; ++Frame) {
        Seed = Seed * 1664525u + 1013904223u;
        Jittery.Sub.Step(Fixed * (0.2f + 2.0f * (float)(Seed >> 8) / 16777216.0f));
        Total += Jittery.Sub.GetStepsLastFrame();
    }
    for (int k = 0; k < Total; ++k) Steady.Sub.Step(Fixed);
    check(Total > 40, "the jittery frames ran steps");
    check(Jittery.Sub.GetStateHash() == Steady.Sub.GetStateHash() && SameBits(Jittery.Positions(), Steady.Positions()),
          "jittery frames give the same state as fixed frames");

    // Profiling on (USinewSettings::bProfiling): Insights events around every stage pair
    // up inside the fixed step's scope, `stat Sinew` gets the step's times and counts,
    // and the trajectory is the same bits as without profiling.
    {
        RopeGame Plain; // created without profiling
        Settings.bProfiling = true;
        RopeGame Profiled;
        const int Begun = FCpuProfilerTrace::Begun();
        const int Scopes = UEStub::CycleScopes();
        for (int k = 0; k < 3; ++k) {
            Profiled.Sub.Step(Fixed);
            Plain.Sub.Step(Fixed);
        }
        check(FCpuProfilerTrace::Open().empty() && FCpuProfilerTrace::Unmatched() == 0,
              "profiling: every Insights event ended, none ended twice");
        // Each step: the fixed-step scope, Sinew.step, a substep per substep, the stages.
        check(FCpuProfilerTrace::Begun() - Begun > 3 * 20, "profiling: an event per stage of each step");
        check(UEStub::CycleScopes() - Scopes >= 6, "profiling: a cycle counter around every fixed step");
        check(UEStub::StatValues()["STAT_SinewStepMs"] > 0.0 && UEStub::StatValues()["STAT_SinewParticles"] == 11.0,
              "profiling: stat Sinew has the step time and the particle count");
        check(Profiled.Sub.GetStateHash() == Plain.Sub.GetStateHash(), "profiling changes no bit");
    }
    Settings.bProfiling = false;

    return Finish();
}

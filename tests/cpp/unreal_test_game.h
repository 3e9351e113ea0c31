// What the Unreal plugin's stub tests (tests/cpp/unreal_*_test.cpp) share: the plugin
// module's definitions, a check that prints PASS/FAIL and counts, and one game world with
// its Sinew subsystem stepped at 60 Hz. Included once per test, after the plugin sources
// the test compiles.
#pragma once

#include <cstdio>
#include <string>
#include <vector>

DEFINE_LOG_CATEGORY(LogSinew);
bool FSinewModule::bAvailable = true;
bool FSinewModule::IsAvailable() { return bAvailable; }

namespace {
int g_checks = 0, g_failures = 0;

void check(bool ok, const std::string& what) {
    ++g_checks;
    if (!ok) ++g_failures;
    std::printf("[%s] %s\n", ok ? "PASS" : "FAIL", what.c_str());
}

/// Prints the count and gives main's exit status (0 when every check passed).
int Finish() {
    std::printf("%d checks, %d failed\n", g_checks, g_failures);
    return g_failures == 0 ? 0 : 1;
}

/// One game world (or an editor world, which never begins play) with its Sinew subsystem,
/// stepped at 60 Hz; after each step the primitives' dirty render data goes to their
/// proxies (the engine's end of frame).
struct Game {
    UWorld World;
    ULevel Level;
    USinewWorldSubsystem Sub;
    std::vector<UPrimitiveComponent*> Primitives;
    explicit Game(EWorldType::Type Type = EWorldType::Game) {
        World.Subsystem = &Sub;
        World.WorldType = Type;
        World.PersistentLevel = &Level;
        Sub.World = &World;
        FSubsystemCollectionBase Collection;
        Sub.Initialize(Collection);
        if (Type != EWorldType::Editor) Sub.OnWorldBeginPlay(World);
    }
    ~Game() { Sub.Deinitialize(); }
    void EndOfFrame() {
        for (UPrimitiveComponent* P : Primitives) P->SendRenderDynamicDataForStub();
    }
    void Frame() {
        Sub.Step(1.0f / 60.0f);
        EndOfFrame();
    }
    void Frames(int n) {
        for (int i = 0; i < n; ++i) Frame();
    }
};
} // namespace

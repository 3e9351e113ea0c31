#pragma once
#include "CoreMinimal.h"

class ULevel;
enum ELevelTick { LEVELTICK_TimeOnly, LEVELTICK_ViewportsOnly, LEVELTICK_All, LEVELTICK_PauseTick };
namespace ENamedThreads {
enum Type { GameThread };
}
struct FGraphEventRef {};
enum ETickingGroup { TG_PrePhysics, TG_StartPhysics, TG_DuringPhysics, TG_EndPhysics, TG_PostPhysics, TG_PostUpdateWork };
struct FTickFunction {
    virtual ~FTickFunction() = default;
    bool bCanEverTick = false;
    bool bStartWithTickEnabled = true;
    bool bTickEvenWhenPaused = false;
    ETickingGroup TickGroup = TG_PrePhysics;
    ETickingGroup EndTickGroup = TG_PrePhysics;
    bool bRegistered = false;
    void RegisterTickFunction(ULevel*) {
        bRegistered = true;
        ++GStubTickRegistrations();
    }
    /// Stub: registrations so far, over every tick function.
    static int& GStubTickRegistrations() {
        static int n = 0;
        return n;
    }
    void UnRegisterTickFunction() { bRegistered = false; }
    bool IsTickFunctionRegistered() const { return bRegistered; }
    virtual void ExecuteTick(float, ELevelTick, ENamedThreads::Type, const FGraphEventRef&) = 0;
    virtual FString DiagnosticMessage() = 0;
    virtual FName DiagnosticContext(bool) = 0;
};
template <class T>
struct TStructOpsTypeTraitsBase2 {};
template <class T>
struct TStructOpsTypeTraits {};

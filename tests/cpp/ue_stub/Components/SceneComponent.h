#pragma once
#include "CoreMinimal.h"

class AActor;
class UWorld;

namespace EEndPlayReason {
enum Type { Destroyed, LevelTransition, EndPlayInEditor, RemovedFromWorld, Quit };
}
namespace ECollisionEnabled {
enum Type { NoCollision, QueryOnly, PhysicsOnly, QueryAndPhysics };
}

struct FActorComponentTickFunction {
    bool bCanEverTick = true;
};

class UActorComponent : public UObject {
  public:
    virtual void BeginPlay() {}
    virtual void EndPlay(const EEndPlayReason::Type) {}
#if WITH_EDITOR
    virtual void PostEditChangeProperty(FPropertyChangedEvent&) {}
#endif
    AActor* GetOwner() const { return nullptr; }
    UWorld* GetWorld() const { return World; }
    FActorComponentTickFunction PrimaryComponentTick;
    UWorld* World = nullptr; ///< stub: set by the test
};

class USceneComponent : public UActorComponent {
  public:
    /// Stub: the component's world transform is a translation the test sets.
    FTransform GetSocketTransform(FName = FName()) const { return Transform; }
    const FTransform& GetComponentTransform() const { return Transform; }
    FTransform Transform;
};

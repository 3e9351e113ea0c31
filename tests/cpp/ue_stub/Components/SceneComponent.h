#pragma once
#include "CoreMinimal.h"

class AActor;
class UWorld;

namespace EEndPlayReason {
enum Type { Destroyed, LevelTransition, EndPlayInEditor, RemovedFromWorld, Quit };
}
namespace EComponentMobility {
enum Type { Static, Stationary, Movable };
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
    virtual void OnRegister() {}
    virtual void OnUnregister() {}
    /// Stub of the engine's registration: OnRegister, then the render state.
    void RegisterComponent() {
        bRegistered = true;
        OnRegister();
        CreateRenderStateForStub();
    }
    /// Stub: the render state goes, then OnUnregister.
    void UnregisterComponent() {
        DestroyRenderStateForStub();
        OnUnregister();
        bRegistered = false;
    }
    bool IsRegistered() const { return bRegistered; }
    bool bTickInEditor = false;
#if WITH_EDITOR
    virtual void PostEditChangeProperty(FPropertyChangedEvent&) {}
#endif
    AActor* GetOwner() const { return Owner; }
    AActor* Owner = nullptr; ///< stub: set by the test
    UWorld* GetWorld() const { return World; }
    FActorComponentTickFunction PrimaryComponentTick;
    UWorld* World = nullptr; ///< stub: set by the test

  protected:
    virtual void CreateRenderStateForStub() {}
    virtual void DestroyRenderStateForStub() {}

  private:
    bool bRegistered = false;
};

class USceneComponent : public UActorComponent {
  public:
    using Super = USceneComponent; // UE's GENERATED_BODY makes Super the direct base
    USceneComponent() = default;
    explicit USceneComponent(const FObjectInitializer&) {}
    /// Stub: the component's world transform is a translation the test sets.
    FTransform GetSocketTransform(FName = FName()) const { return Transform; }
    const FTransform& GetComponentTransform() const { return Transform; }
    FVector GetComponentLocation() const { return Transform.GetLocation(); }
    USceneComponent* GetAttachParent() const { return AttachParent; }
    FTransform Transform;
    USceneComponent* AttachParent = nullptr; ///< stub: set by the test
    EComponentMobility::Type Mobility = EComponentMobility::Movable;
};

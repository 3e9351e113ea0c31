#pragma once
#include "CoreMinimal.h"

class UWorld;
struct FSubsystemCollectionBase {};
namespace EWorldType {
enum Type { None, Game, Editor, PIE, EditorPreview, GamePreview, GameRPC, Inactive };
}
class UWorldSubsystem : public UObject {
  public:
    using Super = UWorldSubsystem;
    virtual bool ShouldCreateSubsystem(UObject*) const { return true; }
    virtual void Initialize(FSubsystemCollectionBase&) {}
    virtual void OnWorldBeginPlay(UWorld&) {}
    virtual void Deinitialize() {}
    UWorld* GetWorld() const { return World; }
    UWorld* World = nullptr; ///< stub: set by the test

  protected:
    virtual bool DoesSupportWorldType(const EWorldType::Type) const { return true; }
};

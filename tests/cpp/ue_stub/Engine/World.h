#pragma once
#include "CoreMinimal.h"
#include "Subsystems/WorldSubsystem.h"

class FSceneInterface;

class ULevel;
/// One world with one subsystem (the stub's GetSubsystem returns it for any T that it is).
class UWorld : public UObject {
  public:
    template <class T>
    T* GetSubsystem() const {
        return dynamic_cast<T*>(Subsystem);
    }
    double GetGravityZ() const { return -980.0; }
    UWorldSubsystem* Subsystem = nullptr;
    EWorldType::Type WorldType = EWorldType::Game;
    FSceneInterface* Scene = nullptr; ///< the renderer's scene (wind sources); stub: set by the test
    ULevel* PersistentLevel = nullptr;
    /// Where the views rendered last frame stood (cm); stub: set by the test.
    TArray<FVector> ViewLocationsRenderedLastFrame;
};

#pragma once
#include "CoreMinimal.h"
#include "Components/SceneComponent.h"

/// A component picked in the editor; the stub holds it directly.
struct FComponentReference {
    UActorComponent* Component = nullptr;
    UActorComponent* GetComponent(AActor*) const { return Component; }
};

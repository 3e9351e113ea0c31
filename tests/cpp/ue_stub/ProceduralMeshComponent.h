#pragma once
#include "CoreMinimal.h"

/// A procedural mesh tangent. The plugin only reads static mesh sections through
/// UKismetProceduralMeshLibrary (see KismetProceduralMeshLibrary.h); it draws through
/// its own scene proxy, not a UProceduralMeshComponent.
struct FProcMeshTangent {
    FVector TangentX;
    bool bFlipTangentY = false;
    FProcMeshTangent(const FVector& x, bool flip) : TangentX(x), bFlipTangentY(flip) {}
};

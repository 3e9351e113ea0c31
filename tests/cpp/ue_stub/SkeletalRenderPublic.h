#pragma once
#include "CoreMinimal.h"

/// A packed unit vector. Stub: three floats.
struct FPackedNormal {
    FVector3f V{0, 0, 1};
    FVector3f ToFVector3f() const { return V; }
};
/// A CPU-skinned vertex (USkinnedMeshComponent::GetCPUSkinnedVertices).
struct FFinalSkinVertex {
    FVector3f Position;
    FPackedNormal TangentX, TangentZ;
    float U = 0, V = 0;
};

#pragma once
#include "CoreMinimal.h"
#include "StubRendering.h"

/// A static mesh. Stub: holds one section (what the test gives it) for
/// UKismetProceduralMeshLibrary::GetSectionFromStaticMesh, a material and bounds.
class UStaticMesh : public UObject {
  public:
    UMaterialInterface* GetMaterial(int32) const { return Material; }
    /// Stub: one section (the test's), on LOD 0 only.
    int32 GetNumSections(int32 LOD) const { return LOD == 0 && StubVertices.Num() > 0 ? 1 : 0; }
    FBoxSphereBounds GetBounds() const { return Bounds; }
    UMaterialInterface* Material = nullptr;
    FBoxSphereBounds Bounds;
    TArray<FVector> StubVertices;    ///< cm, the section's vertices
    TArray<int32> StubTriangles;
    TArray<FVector2D> StubUVs;
};

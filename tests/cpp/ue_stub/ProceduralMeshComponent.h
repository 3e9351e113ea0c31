#pragma once
#include "CoreMinimal.h"
#include "Components/SceneComponent.h"

struct FProcMeshTangent {
    FVector TangentX;
    bool bFlipTangentY = false;
    FProcMeshTangent(const FVector& x, bool flip) : TangentX(x), bFlipTangentY(flip) {}
};

/// Records the sections made and updated.
class UProceduralMeshComponent : public USceneComponent {
  public:
    using Super = UProceduralMeshComponent; // UE's GENERATED_BODY makes Super the direct base
    explicit UProceduralMeshComponent(const FObjectInitializer&) {}
    void SetCollisionEnabled(ECollisionEnabled::Type) {}
    bool bUseAsyncCooking = false;
    void CreateMeshSection_LinearColor(int32 Section, const TArray<FVector>& Vertices, const TArray<int32>& Triangles,
                                       const TArray<FVector>&, const TArray<FVector2D>&,
                                       const TArray<FLinearColor>&, const TArray<FProcMeshTangent>&, bool) {
        if (static_cast<std::size_t>(Section) >= SectionVertices.size())
            SectionVertices.resize(static_cast<std::size_t>(Section) + 1);
        SectionVertices[static_cast<std::size_t>(Section)] = Vertices.Num();
        TrianglesMade += Triangles.Num() / 3;
    }
    void UpdateMeshSection_LinearColor(int32 Section, const TArray<FVector>& Vertices, const TArray<FVector>&,
                                       const TArray<FVector2D>&, const TArray<FLinearColor>&,
                                       const TArray<FProcMeshTangent>&) {
        if (static_cast<std::size_t>(Section) >= SectionVertices.size() ||
            SectionVertices[static_cast<std::size_t>(Section)] != Vertices.Num())
            ++BadUpdates;
    }
    void ClearAllMeshSections() { SectionVertices.clear(); }
    std::vector<int32> SectionVertices; ///< stub: vertex count per live section
    int32 TrianglesMade = 0;
    int32 BadUpdates = 0; ///< updates of a missing section or with another vertex count
};

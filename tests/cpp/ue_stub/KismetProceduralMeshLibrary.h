#pragma once
#include "CoreMinimal.h"
#include "Engine/StaticMesh.h"
#include "ProceduralMeshComponent.h"

/// Stub: returns the one section the test put in the mesh (LOD 0, section 0), with
/// normals +Z and tangents +X.
class UKismetProceduralMeshLibrary {
  public:
    static void GetSectionFromStaticMesh(UStaticMesh* InMesh, int32 LODIndex, int32 SectionIndex, TArray<FVector>& Vertices,
                                         TArray<int32>& Triangles, TArray<FVector>& Normals, TArray<FVector2D>& UVs,
                                         TArray<FProcMeshTangent>& Tangents) {
        Vertices.Reset();
        Triangles.Reset();
        Normals.Reset();
        UVs.Reset();
        Tangents.Reset();
        if (!InMesh || LODIndex != 0 || SectionIndex != 0) return;
        Vertices = InMesh->StubVertices;
        Triangles = InMesh->StubTriangles;
        UVs = InMesh->StubUVs;
        for (int32 i = 0; i < Vertices.Num(); ++i) {
            Normals.Add(FVector(0, 0, 1));
            Tangents.Add(FProcMeshTangent(FVector(1, 0, 0), false));
        }
    }
};

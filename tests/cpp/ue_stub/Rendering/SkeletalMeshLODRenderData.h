#pragma once
#include "CoreMinimal.h"
#include "StubRendering.h"

struct FSkelMeshRenderSection {
    uint16_t MaterialIndex = 0;
    uint32 BaseIndex = 0;
    uint32 NumTriangles = 0;
    uint32 BaseVertexIndex = 0;
    uint32 NumVertices = 0;
};
/// The LOD's index buffer. Stub: the indices the test sets.
struct FMultiSizeIndexContainer {
    void GetIndexBuffer(TArray<uint32>& Out) const { Out = Indices; }
    TArray<uint32> Indices;
};
struct FSkeletalMeshLODRenderData {
    TArray<FSkelMeshRenderSection> RenderSections;
    FMultiSizeIndexContainer MultiSizeIndexContainer;
    FStaticMeshVertexBuffers StaticVertexBuffers;
};

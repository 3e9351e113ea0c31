#pragma once
#include "Components/MeshComponent.h"
#include "Rendering/SkeletalMeshRenderData.h"
#include "SkeletalRenderPublic.h"

/// A skeletal mesh component. Stub: its render data and CPU-skinned vertices are what
/// the test sets (no animation, no skinning).
class USkeletalMeshComponent : public UMeshComponent {
  public:
    USkeletalMeshComponent() : UMeshComponent(FObjectInitializer()) {}
    FSkeletalMeshRenderData* GetSkeletalMeshRenderData() const { return RenderData; }
    void GetCPUSkinnedVertices(TArray<FFinalSkinVertex>& Out, int32) const { Out = Skinned; }
    void ShowMaterialSection(int32, int32 SectionIndex, bool bShow, int32) { HiddenSection = bShow ? -1 : SectionIndex; }
    FSkeletalMeshRenderData* RenderData = nullptr;
    TArray<FFinalSkinVertex> Skinned;
    int32 HiddenSection = -1;
};

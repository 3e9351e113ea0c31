#pragma once
#include "Rendering/SkeletalMeshLODRenderData.h"

struct FSkeletalMeshRenderData {
    TArray<FSkeletalMeshLODRenderData> LODRenderData;
};

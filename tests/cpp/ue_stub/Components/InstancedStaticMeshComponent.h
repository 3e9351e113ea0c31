#pragma once
#include "Components/MeshComponent.h"
#include "Engine/StaticMesh.h"

/// A static mesh component. Stub: holds its mesh.
class UStaticMeshComponent : public UMeshComponent {
  public:
    using Super = UStaticMeshComponent; // UE's GENERATED_BODY makes Super the direct base
    explicit UStaticMeshComponent(const FObjectInitializer& I) : UMeshComponent(I) {}
    virtual bool SetStaticMesh(UStaticMesh* NewMesh) {
        StaticMesh = NewMesh;
        return true;
    }
    UStaticMesh* GetStaticMesh() const { return StaticMesh; }

  private:
    UStaticMesh* StaticMesh = nullptr;
};

/// Instances of one static mesh. Stub: keeps the instance transforms (in component
/// space, as UE does; the component's transform is a translation here) and the
/// per-instance custom data, and checks the indices it is given as UE asserts them
/// (a bad index is counted, not undefined behaviour). Signatures follow UE 5.3.
class UInstancedStaticMeshComponent : public UStaticMeshComponent {
  public:
    using Super = UInstancedStaticMeshComponent;
    explicit UInstancedStaticMeshComponent(const FObjectInitializer& I) : UStaticMeshComponent(I) {}

    int32 NumCustomDataFloats = 0;

    int32 GetInstanceCount() const { return Instances.Num(); }
    TArray<int32> AddInstances(const TArray<FTransform>& InstanceTransforms, bool bShouldReturnIndices,
                               bool bWorldSpace = false, bool bUpdateNavigation = true) {
        TArray<int32> Added;
        for (const FTransform& T : InstanceTransforms) {
            if (bShouldReturnIndices) Added.Add(Instances.Num());
            Instances.Add(bWorldSpace ? ToLocal(T) : T);
            for (int32 k = 0; k < NumCustomDataFloats; ++k) PerInstanceCustomData.Add(0.0f);
        }
        ++StubAddCalls;
        return Added;
    }
    bool BatchUpdateInstancesTransforms(int32 StartInstanceIndex, const TArray<FTransform>& NewInstancesTransforms,
                                        bool bWorldSpace = false, bool bMarkRenderStateDirty = false,
                                        bool bTeleport = false) {
        if (StartInstanceIndex < 0 || StartInstanceIndex + NewInstancesTransforms.Num() > Instances.Num()) {
            ++StubBadIndices;
            return false;
        }
        for (int32 i = 0; i < NewInstancesTransforms.Num(); ++i)
            Instances[StartInstanceIndex + i] =
                bWorldSpace ? ToLocal(NewInstancesTransforms[i]) : NewInstancesTransforms[i];
        ++StubUpdateCalls;
        return true;
    }
    /// Removes the instances (UE sorts them and removes from the highest index down).
    bool RemoveInstances(const TArray<int32>& InstancesToRemove) {
        std::vector<int32> Sorted(InstancesToRemove.begin(), InstancesToRemove.end());
        std::sort(Sorted.rbegin(), Sorted.rend());
        for (int32 i : Sorted) {
            if (i < 0 || i >= Instances.Num()) {
                ++StubBadIndices;
                return false;
            }
            Instances.V.erase(Instances.V.begin() + i);
            const auto From = PerInstanceCustomData.V.begin() + static_cast<std::ptrdiff_t>(i) * NumCustomDataFloats;
            PerInstanceCustomData.V.erase(From, From + NumCustomDataFloats);
        }
        return true;
    }
    void ClearInstances() {
        Instances.Reset();
        PerInstanceCustomData.Reset();
    }
    bool SetCustomDataValue(int32 InstanceIndex, int32 CustomDataIndex, float CustomDataValue,
                            bool bMarkRenderStateDirty = false) {
        if (InstanceIndex < 0 || InstanceIndex >= Instances.Num() || CustomDataIndex < 0 ||
            CustomDataIndex >= NumCustomDataFloats) {
            ++StubBadIndices;
            return false;
        }
        PerInstanceCustomData[InstanceIndex * NumCustomDataFloats + CustomDataIndex] = CustomDataValue;
        return true;
    }
    bool GetInstanceTransform(int32 InstanceIndex, FTransform& OutInstanceTransform, bool bWorldSpace = false) const {
        if (InstanceIndex < 0 || InstanceIndex >= Instances.Num()) return false;
        OutInstanceTransform = Instances[InstanceIndex];
        if (bWorldSpace) OutInstanceTransform.Translation = GetComponentTransform().TransformPosition(OutInstanceTransform.Translation);
        return true;
    }
    void MarkRenderStateDirty() { ++StubRenderStateDirty; }

    TArray<FTransform> Instances;       ///< component space
    TArray<float> PerInstanceCustomData; ///< NumCustomDataFloats per instance
    int32 StubAddCalls = 0, StubUpdateCalls = 0, StubRenderStateDirty = 0;
    int32 StubBadIndices = 0; ///< calls with an index UE would assert on

  private:
    FTransform ToLocal(const FTransform& World) const {
        FTransform L = World;
        L.Translation = GetComponentTransform().InverseTransformPosition(World.Translation);
        return L;
    }
};

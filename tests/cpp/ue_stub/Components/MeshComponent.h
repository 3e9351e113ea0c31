#pragma once
#include "Components/SceneComponent.h"
#include "StubRendering.h"

struct FRegisterComponentContext;

/// A primitive with a scene proxy. Stub: the render state is made when the component
/// is registered (CreateSceneProxy) and destroyed when it is unregistered; render data
/// marked dirty is sent at the end of the frame, when the test calls
/// SendRenderDynamicDataForStub (the engine does it once per frame for dirty components).
class UPrimitiveComponent : public USceneComponent {
  public:
    ~UPrimitiveComponent() override { DestroyRenderStateForStub(); }
    virtual FPrimitiveSceneProxy* CreateSceneProxy() { return nullptr; }
    virtual FBoxSphereBounds CalcBounds(const FTransform&) const { return FBoxSphereBounds(); }
    virtual void CreateRenderState_Concurrent(FRegisterComponentContext*) { SceneProxy = CreateSceneProxy(); }
    virtual void SendRenderDynamicData_Concurrent() {}
    virtual int32 GetNumMaterials() const { return 0; }
    void MarkRenderDynamicDataDirty() { bRenderDynamicDataDirty = true; }
    void MarkRenderTransformDirty() { ++RenderTransformUpdates; }
    void UpdateBounds() { Bounds = CalcBounds(GetComponentTransform()); }
    void SetCollisionEnabled(ECollisionEnabled::Type) {}
    UMaterialInterface* GetMaterial(int32) const { return Material; }
    void SetMaterial(int32, UMaterialInterface* M) { Material = M; }
    FMaterialRelevance GetMaterialRelevance(ERHIFeatureLevel::Type) const { return {}; }
    /// Stub: the end-of-frame update of a component whose render data is dirty.
    void SendRenderDynamicDataForStub() {
        if (bRenderDynamicDataDirty && SceneProxy) SendRenderDynamicData_Concurrent();
        bRenderDynamicDataDirty = false;
    }
    /// Stub: rendered within Tolerance seconds is bRenderedForStub.
    bool WasRecentlyRendered(float Tolerance = 0.2f) const { return bRenderedForStub; }
    bool bRenderedForStub = true;
    FPrimitiveSceneProxy* SceneProxy = nullptr;
    FBoxSphereBounds Bounds;
    bool CastShadow = false;
    int32 RenderTransformUpdates = 0;

  protected:
    void CreateRenderStateForStub() override { CreateRenderState_Concurrent(nullptr); }
    void DestroyRenderStateForStub() override {
        delete SceneProxy; // the engine deletes it on the render thread
        SceneProxy = nullptr;
    }

  private:
    UMaterialInterface* Material = nullptr;
    bool bRenderDynamicDataDirty = false;
};

class UMeshComponent : public UPrimitiveComponent {
  public:
    using Super = UMeshComponent; // UE's GENERATED_BODY makes Super the direct base
    explicit UMeshComponent(const FObjectInitializer&) {}
};

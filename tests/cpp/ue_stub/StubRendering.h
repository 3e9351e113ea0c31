// Stand-ins for the rendering types the Sinew scene proxy uses (RHI buffers, vertex
// buffers, the local vertex factory, the primitive scene proxy, mesh batches,
// ENQUEUE_RENDER_COMMAND). Not Unreal: a "GPU buffer" is a byte array that
// LockBuffer hands out (and checks the bounds of), render commands run at once on the
// calling thread, and the vertex buffers keep their CPU copies in plain arrays (tangents
// as float vectors rather than packed normals). Names and signatures follow UE 5.3+.
// Included by the one-line headers named after the engine's (PrimitiveSceneProxy.h,
// StaticMeshResources.h, ...).
#pragma once
#include "CoreMinimal.h"

#include <deque>
#include <memory>

class UPrimitiveComponent;
class FLocalVertexFactory;

namespace ERHIFeatureLevel {
enum Type { ES3_1, SM5, SM6 };
}
enum EResourceLockMode { RLM_ReadOnly, RLM_WriteOnly };
enum EPrimitiveType { PT_TriangleList, PT_LineList };
enum ESceneDepthPriorityGroup { SDPG_World, SDPG_Foreground };
enum EMaterialDomain { MD_Surface };

/// A GPU buffer: bytes, written between LockBuffer and UnlockBuffer.
struct FRHIBuffer {
    std::vector<uint8> Bytes;
    bool bLocked = false;
};
/// Unreal's TRefCountPtr<FRHIBuffer>: converts to FRHIBuffer*.
struct FBufferRHIRef {
    std::shared_ptr<FRHIBuffer> P;
    operator FRHIBuffer*() const { return P.get(); }
    bool IsValid() const { return P != nullptr; }
};

class FRHICommandListBase {
  public:
    /// Checks what UE's RHI asserts: the buffer exists, is not locked, and the range fits.
    void* LockBuffer(FRHIBuffer* Buffer, uint32 Offset, uint32 Size, EResourceLockMode) {
        if (!Buffer || Buffer->bLocked || static_cast<std::size_t>(Offset) + Size > Buffer->Bytes.size()) {
            ++BadLocks;
            return Scratch(Size);
        }
        Buffer->bLocked = true;
        ++Locks;
        return Buffer->Bytes.data() + Offset;
    }
    void UnlockBuffer(FRHIBuffer* Buffer) {
        if (!Buffer || !Buffer->bLocked)
            ++BadLocks;
        else
            Buffer->bLocked = false;
    }
    int32 Locks = 0;
    int32 BadLocks = 0; ///< stub: locks of a missing or locked buffer or past its end

  private:
    void* Scratch(uint32 Size) {
        ScratchBytes.assign(Size, 0);
        return ScratchBytes.data();
    }
    std::vector<uint8> ScratchBytes;
};
class FRHICommandListImmediate : public FRHICommandListBase {};
inline FRHICommandListImmediate& GStubRHICmdList() {
    static FRHICommandListImmediate List;
    return List;
}

/// Render commands run at once, on the calling thread.
template <class F>
void StubEnqueueRenderCommand(F&& Command) {
    Command(GStubRHICmdList());
}
#define ENQUEUE_RENDER_COMMAND(Type) StubEnqueueRenderCommand

class FRenderResource {
  public:
    virtual ~FRenderResource() = default;
    void InitResource(FRHICommandListBase& RHICmdList) {
        InitRHI(RHICmdList);
        bInitialized = true;
    }
    void ReleaseResource() { bInitialized = false; }
    bool IsInitialized() const { return bInitialized; }
    virtual void InitRHI(FRHICommandListBase&) {}

  private:
    bool bInitialized = false;
};
inline FBufferRHIRef StubCreateBuffer(const void* Data, std::size_t Bytes) {
    FBufferRHIRef R{std::make_shared<FRHIBuffer>()};
    R.P->Bytes.assign(static_cast<const uint8*>(Data), static_cast<const uint8*>(Data) + Bytes);
    return R;
}

struct FVertexBuffer : FRenderResource {
    FBufferRHIRef VertexBufferRHI;
};
struct FIndexBuffer : FRenderResource {
    FBufferRHIRef IndexBufferRHI;
};

class FLocalVertexFactory : public FRenderResource {
  public:
    struct FDataType {
        int32 BoundStreams = 0; ///< stub: how many Bind* calls filled it
    };
    FLocalVertexFactory(ERHIFeatureLevel::Type, const char*) {}
    void SetData(FRHICommandListBase&, const FDataType& InData) { Data = InData; }
    FDataType Data;
};

class FPositionVertexBuffer : public FVertexBuffer {
  public:
    void Init(uint32 NumVertices) { Positions.assign(NumVertices, FVector3f()); }
    FVector3f& VertexPosition(uint32 i) { return Positions[i]; }
    const FVector3f& VertexPosition(uint32 i) const { return Positions[i]; }
    void* GetVertexData() { return Positions.data(); }
    uint32 GetStride() const { return sizeof(FVector3f); }
    uint32 GetNumVertices() const { return static_cast<uint32>(Positions.size()); }
    void InitRHI(FRHICommandListBase&) override { VertexBufferRHI = StubCreateBuffer(Positions.data(), Positions.size() * sizeof(FVector3f)); }
    void BindPositionVertexBuffer(const FLocalVertexFactory*, FLocalVertexFactory::FDataType& Data) const { ++Data.BoundStreams; }

  private:
    std::vector<FVector3f> Positions;
};

class FStaticMeshVertexBuffer : public FRenderResource {
  public:
    struct FTangents {
        FVector3f X, Y, Z;
    };
    /// Stub: UVs are always stored as floats; UE stores half floats unless this is set (before Init).
    void SetUseFullPrecisionUVs(bool UseFull) { bUseFullPrecisionUVs = UseFull; }
    bool GetUseFullPrecisionUVs() const { return bUseFullPrecisionUVs; }
    uint32 GetNumTexCoords() const { return NumUVs; }
    void Init(uint32 NumVertices, uint32 NumTexCoords) {
        Tangents.assign(NumVertices, FTangents{});
        TexCoords.assign(static_cast<std::size_t>(NumVertices) * NumTexCoords, FVector2f());
        NumUVs = NumTexCoords;
    }
    void SetVertexTangents(uint32 i, FVector3f X, FVector3f Y, FVector3f Z) { Tangents[i] = FTangents{X, Y, Z}; }
    uint32 GetNumVertices() const { return static_cast<uint32>(Tangents.size()); }
    void SetVertexUV(uint32 i, uint32 UVIndex, const FVector2f& UV) { TexCoords[static_cast<std::size_t>(i) * NumUVs + UVIndex] = UV; }
    FVector4f VertexTangentX(uint32 i) const { return FVector4f(Tangents[i].X, 0.0f); }
    FVector3f VertexTangentY(uint32 i) const { return Tangents[i].Y; }
    FVector4f VertexTangentZ(uint32 i) const { return FVector4f(Tangents[i].Z, 1.0f); }
    FVector2f GetVertexUV(uint32 i, uint32 UVIndex) const { return TexCoords[static_cast<std::size_t>(i) * NumUVs + UVIndex]; }
    void* GetTangentData() { return Tangents.data(); }
    uint32 GetTangentSize() const { return static_cast<uint32>(Tangents.size() * sizeof(FTangents)); }
    void* GetTexCoordData() { return TexCoords.data(); }
    uint32 GetTexCoordSize() const { return static_cast<uint32>(TexCoords.size() * sizeof(FVector2f)); }
    void InitRHI(FRHICommandListBase&) override {
        TangentsVertexBuffer.VertexBufferRHI = StubCreateBuffer(Tangents.data(), GetTangentSize());
        TexCoordVertexBuffer.VertexBufferRHI = StubCreateBuffer(TexCoords.data(), GetTexCoordSize());
    }
    void BindTangentVertexBuffer(const FLocalVertexFactory*, FLocalVertexFactory::FDataType& Data) const { ++Data.BoundStreams; }
    void BindPackedTexCoordVertexBuffer(const FLocalVertexFactory*, FLocalVertexFactory::FDataType& Data) const { ++Data.BoundStreams; }
    void BindLightMapVertexBuffer(const FLocalVertexFactory*, FLocalVertexFactory::FDataType& Data, int32) const { ++Data.BoundStreams; }
    FVertexBuffer TangentsVertexBuffer;
    FVertexBuffer TexCoordVertexBuffer;

  private:
    std::vector<FTangents> Tangents;
    std::vector<FVector2f> TexCoords;
    uint32 NumUVs = 1;
    bool bUseFullPrecisionUVs = false;
};

class FColorVertexBuffer : public FVertexBuffer {
  public:
    void InitFromSingleColor(const FColor& Color, uint32 NumVertices) { Colors.assign(NumVertices, Color); }
    uint32 GetNumVertices() const { return static_cast<uint32>(Colors.size()); }
    const FColor& VertexColor(uint32 i) const { return Colors[i]; }
    void InitRHI(FRHICommandListBase&) override { VertexBufferRHI = StubCreateBuffer(Colors.data(), Colors.size() * sizeof(FColor)); }
    void BindColorVertexBuffer(const FLocalVertexFactory*, FLocalVertexFactory::FDataType& Data) const { ++Data.BoundStreams; }

  private:
    std::vector<FColor> Colors;
};

struct FStaticMeshVertexBuffers {
    FStaticMeshVertexBuffer StaticMeshVertexBuffer;
    FPositionVertexBuffer PositionVertexBuffer;
    FColorVertexBuffer ColorVertexBuffer;
};

class FDynamicMeshIndexBuffer32 : public FIndexBuffer {
  public:
    TArray<uint32> Indices;
    void InitRHI(FRHICommandListBase&) override {
        IndexBufferRHI = StubCreateBuffer(Indices.GetData(), static_cast<std::size_t>(Indices.Num()) * sizeof(uint32));
    }
};

class FMaterialRenderProxy {};
class UMaterialInterface : public UObject {
  public:
    FMaterialRenderProxy* GetRenderProxy() const { return const_cast<FMaterialRenderProxy*>(&Proxy); }

  private:
    FMaterialRenderProxy Proxy;
};
class UMaterial : public UMaterialInterface {
  public:
    static UMaterial* GetDefaultMaterial(EMaterialDomain) {
        static UMaterial Default;
        return &Default;
    }
};

struct FPrimitiveViewRelevance {
    bool bDrawRelevance = false;
    bool bShadowRelevance = false;
    bool bDynamicRelevance = false;
    bool bStaticRelevance = false;
    bool bRenderInMainPass = true;
    bool bOpaque = true;
    bool bVelocityRelevance = false;
};
struct FMaterialRelevance {
    bool bDisableDepthTest = false;
    void SetPrimitiveViewRelevance(FPrimitiveViewRelevance& R) const { R.bOpaque = true; }
};

struct FUniformBufferRHIRef {};
struct FMeshBatchElement {
    const FIndexBuffer* IndexBuffer = nullptr;
    const FUniformBufferRHIRef* PrimitiveUniformBuffer = nullptr;
    uint32 FirstIndex = 0;
    uint32 NumPrimitives = 0;
    uint32 MinVertexIndex = 0;
    uint32 MaxVertexIndex = 0;
};
struct FMeshBatch {
    FMeshBatchElement Elements[1];
    const FLocalVertexFactory* VertexFactory = nullptr;
    const FMaterialRenderProxy* MaterialRenderProxy = nullptr;
    bool bWireframe = false;
    bool ReverseCulling = false;
    bool bCanApplyViewModeOverrides = true;
    EPrimitiveType Type = PT_TriangleList;
    ESceneDepthPriorityGroup DepthPriorityGroup = SDPG_World;
};
class FMeshElementCollector {
  public:
    FMeshBatch& AllocateMesh() {
        Batches.emplace_back();
        return Batches.back();
    }
    void AddMesh(int32 ViewIndex, FMeshBatch& Batch) { Added.push_back({ViewIndex, &Batch}); }
    std::deque<FMeshBatch> Batches;
    std::vector<std::pair<int32, const FMeshBatch*>> Added; ///< stub: what was drawn, per view
};
class FSceneView {};
struct FEngineShowFlags {
    bool Wireframe = false;
};
class FSceneViewFamily {
  public:
    FEngineShowFlags EngineShowFlags;
};
inline bool AllowDebugViewmodes() { return true; }

class FSceneInterface {
  public:
    ERHIFeatureLevel::Type GetFeatureLevel() const { return ERHIFeatureLevel::SM5; }
    /// Stub: the wind the test sets (UE sums its wind directional sources at Position).
    void GetWindParameters_GameThread(const FVector&, FVector& OutDirection, float& OutSpeed, float& OutMinGust,
                                      float& OutMaxGust) const {
        OutDirection = WindDirection;
        OutSpeed = WindSpeed;
        OutMinGust = 0.0f;
        OutMaxGust = 0.0f;
    }
    FVector WindDirection{1, 0, 0};
    float WindSpeed = 0.0f;
};

class FPrimitiveSceneProxy {
  public:
    explicit FPrimitiveSceneProxy(const UPrimitiveComponent*) : bAlwaysHasVelocity(false), bHasWorldPositionOffsetVelocity(false) {}
    virtual ~FPrimitiveSceneProxy() = default;
    virtual SIZE_T GetTypeHash() const = 0;
    virtual void GetDynamicMeshElements(const TArray<const FSceneView*>&, const FSceneViewFamily&, uint32, FMeshElementCollector&) const {}
    virtual FPrimitiveViewRelevance GetViewRelevance(const FSceneView*) const { return {}; }
    virtual bool CanBeOccluded() const { return true; }
    virtual uint32 GetMemoryFootprint() const = 0;
    FSceneInterface& GetScene() const {
        static FSceneInterface Scene;
        return Scene;
    }
    bool IsShown(const FSceneView*) const { return true; }
    bool IsShadowCast(const FSceneView*) const { return true; }
    bool ShouldRenderInMainPass() const { return true; }
    bool IsLocalToWorldDeterminantNegative() const { return false; }
    const FUniformBufferRHIRef* GetUniformBuffer() const { return &UniformBuffer; }
    SIZE_T GetAllocatedSize() const { return 0; }
    /// UE: also true for a movable primitive or a material with pixel animation (the stub's never are).
    bool DrawsVelocity() const { return bAlwaysHasVelocity || bHasWorldPositionOffsetVelocity; }
    /// UE: the WPO flag counts when the primitive evaluates its WPO (the stub's always do).
    bool AlwaysHasVelocity() const { return bAlwaysHasVelocity || bHasWorldPositionOffsetVelocity; }

  protected:
    uint8 bAlwaysHasVelocity : 1;
    uint8 bHasWorldPositionOffsetVelocity : 1;

  private:
    FUniformBufferRHIRef UniformBuffer;
};

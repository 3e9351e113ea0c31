#pragma once
// Stand-in for Niagara's data interface base (UE 5.4 names and signatures), its render
// thread proxy and GPU contexts, and the VM parameter helpers (FNDIInputParam /
// FNDIOutputParam) the Sinew data interface uses. Not Niagara: nothing compiles scripts;
// the test binds and calls the VM functions itself, with the registers laid out as
// VectorVM.h describes, and plays the GPU tick's calls (ProvidePerInstanceDataForRenderThread,
// ConsumePerInstanceDataFromGameThread, PreStage, SetShaderParameters) in the engine's order.
#include "CoreMinimal.h"
#include "Engine/EngineBaseTypes.h"
#include "NiagaraTypes.h"
#include "RenderGraphBuilder.h"
#include "VectorVM.h"

#include <cstdlib>

#define WITH_EDITORONLY_DATA 1

class FNiagaraSystemInstance;

enum class ENiagaraSimTarget : uint8 { CPUSim, GPUComputeSim };

struct FNiagaraFunctionSignature {
    FName Name;
    TArray<FNiagaraVariable> Inputs;
    TArray<FNiagaraVariable> Outputs;
    bool bMemberFunction = false;
    bool bRequiresContext = false;
    bool bSupportsCPU = true;
    bool bSupportsGPU = true;
};

struct FVMExternalFunctionBindingInfo {
    FName Name;
};

class FNiagaraShaderParametersBuilder;
class FNiagaraCompileHashVisitor;

/// NiagaraShared.h: what the HLSL translator tells a data interface about one use of it.
struct FNiagaraDataInterfaceGeneratedFunction {
    FName DefinitionName; ///< the function's name in its signature
    FString InstanceName; ///< the name the generated HLSL function must have
};
struct FNiagaraDataInterfaceGPUParamInfo {
    FString DataInterfaceHLSLSymbol; ///< prefix of this data interface's HLSL parameters
    FString DIClassName;
    TArray<FNiagaraDataInterfaceGeneratedFunction> GeneratedFunctions;
};

/// The render thread half of a data interface.
struct FNDIGpuComputePreStageContext;
struct FNiagaraDataInterfaceProxy {
    virtual ~FNiagaraDataInterfaceProxy() = default;
    virtual int32 PerInstanceDataPassedToRenderThreadSize() const = 0;
    virtual void ConsumePerInstanceDataFromGameThread(void* PerInstanceData, const FNiagaraSystemInstanceID& Instance) { std::abort(); }
    virtual void PreStage(const FNDIGpuComputePreStageContext& Context) {}
};

/// Stub constructors: the graph and the system instance a GPU tick runs for.
struct FNDIGpuComputePreStageContext {
    FNDIGpuComputePreStageContext(FRDGBuilder& InGraphBuilder, FNiagaraSystemInstanceID InId) : GraphBuilder(InGraphBuilder), Id(InId) {}
    FRDGBuilder& GetGraphBuilder() const { return GraphBuilder; }
    FNiagaraSystemInstanceID GetSystemInstanceID() const { return Id; }

  private:
    FRDGBuilder& GraphBuilder;
    FNiagaraSystemInstanceID Id;
};
struct FNiagaraDataInterfaceSetShaderParametersContext {
    FNiagaraDataInterfaceSetShaderParametersContext(FRDGBuilder& InGraphBuilder, FNiagaraDataInterfaceProxy* InProxy, FNiagaraSystemInstanceID InId,
                                                    uint8* InBaseParameters)
        : GraphBuilder(InGraphBuilder), Proxy(InProxy), Id(InId), BaseParameters(InBaseParameters) {}
    FRDGBuilder& GetGraphBuilder() const { return GraphBuilder; }
    template <class T>
    T& GetProxy() const {
        return static_cast<T&>(*Proxy);
    }
    FNiagaraSystemInstanceID GetSystemInstanceID() const { return Id; }
    /// The next nested struct of the parameters, where BuildShaderParameters added it.
    template <class T>
    T* GetParameterNestedStruct() const {
        const uint32 Offset = Align(ParametersOffset, alignof(T));
        ParametersOffset = Offset + static_cast<uint32>(sizeof(T));
        return reinterpret_cast<T*>(BaseParameters + Offset);
    }

  private:
    FRDGBuilder& GraphBuilder;
    FNiagaraDataInterfaceProxy* Proxy;
    FNiagaraSystemInstanceID Id;
    uint8* BaseParameters;
    mutable uint32 ParametersOffset = 0;
};

class UNiagaraDataInterface : public UObject {
  public:
    using Super = UNiagaraDataInterface; // UE's GENERATED_BODY makes Super the direct base
    explicit UNiagaraDataInterface(const FObjectInitializer& = FObjectInitializer()) {}
    virtual void PostInitProperties() override {}
    virtual bool InitPerInstanceData(void*, FNiagaraSystemInstance*) { return true; }
    virtual void DestroyPerInstanceData(void*, FNiagaraSystemInstance*) {}
    virtual bool PerInstanceTick(void*, FNiagaraSystemInstance*, float) { return false; }
    virtual int32 PerInstanceDataSize() const { return 0; }
    void GetFunctionSignatures(TArray<FNiagaraFunctionSignature>& OutFunctions) const { GetFunctionsInternal(OutFunctions); }
    virtual void GetVMExternalFunction(const FVMExternalFunctionBindingInfo&, void*, FVMExternalFunction&) {}
    bool CopyTo(UNiagaraDataInterface* Destination) const { return CopyToInternal(Destination); }
    virtual bool Equals(const UNiagaraDataInterface* Other) const { return Other != nullptr; }
    virtual bool CanExecuteOnTarget(ENiagaraSimTarget) const { return false; }
    virtual bool HasTickGroupPrereqs() const { return false; }
    virtual ETickingGroup CalculateTickGroup(const void*) const { return TG_PrePhysics; }
    virtual bool AppendCompileHash(FNiagaraCompileHashVisitor*) const { return true; }
    virtual void GetParameterDefinitionHLSL(const FNiagaraDataInterfaceGPUParamInfo&, FString&) {}
    virtual bool GetFunctionHLSL(const FNiagaraDataInterfaceGPUParamInfo&, const FNiagaraDataInterfaceGeneratedFunction&, int, FString&) { return false; }
    virtual void BuildShaderParameters(FNiagaraShaderParametersBuilder&) const {}
    virtual void SetShaderParameters(const FNiagaraDataInterfaceSetShaderParametersContext&) const {}
    /// UE checks that a data interface passing data to the render thread overrides this.
    virtual void ProvidePerInstanceDataForRenderThread(void*, void*, const FNiagaraSystemInstanceID&) { std::abort(); }
    virtual int32 PerInstanceDataPassedToRenderThreadSize() const { return Proxy ? Proxy->PerInstanceDataPassedToRenderThreadSize() : 0; }
    FNiagaraDataInterfaceProxy* GetProxy() { return Proxy.Get(); }

  protected:
    virtual void GetFunctionsInternal(TArray<FNiagaraFunctionSignature>&) const {}
    virtual bool CopyToInternal(UNiagaraDataInterface* Destination) const { return Destination != nullptr; }
    template <class T>
    T* GetProxyAs() {
        return static_cast<T*>(Proxy.Get());
    }
    TUniquePtr<FNiagaraDataInterfaceProxy> Proxy;
};

template <class T>
struct FNDIInputParam;
template <>
struct FNDIInputParam<int32> {
    VectorVM::FExternalFuncInputHandler<int32> Data;
    explicit FNDIInputParam(FVectorVMExternalFunctionContext& Context) : Data(Context) {}
    int32 GetAndAdvance() { return Data.GetAndAdvance(); }
};

template <class T>
struct FNDIOutputParam;
template <>
struct FNDIOutputParam<int32> {
    VectorVM::FExternalFuncRegisterHandler<int32> Data;
    explicit FNDIOutputParam(FVectorVMExternalFunctionContext& Context) : Data(Context) {}
    bool IsValid() const { return Data.IsValid(); }
    void SetAndAdvance(int32 Val) { *Data.GetDestAndAdvance() = Val; }
};
template <>
struct FNDIOutputParam<float> {
    VectorVM::FExternalFuncRegisterHandler<float> Data;
    explicit FNDIOutputParam(FVectorVMExternalFunctionContext& Context) : Data(Context) {}
    bool IsValid() const { return Data.IsValid(); }
    void SetAndAdvance(float Val) { *Data.GetDestAndAdvance() = Val; }
};
template <>
struct FNDIOutputParam<FVector3f> {
    VectorVM::FExternalFuncRegisterHandler<float> X, Y, Z;
    explicit FNDIOutputParam(FVectorVMExternalFunctionContext& Context) : X(Context), Y(Context), Z(Context) {}
    bool IsValid() const { return X.IsValid() || Y.IsValid() || Z.IsValid(); }
    void SetAndAdvance(FVector3f Val) {
        *X.GetDestAndAdvance() = Val.X;
        *Y.GetDestAndAdvance() = Val.Y;
        *Z.GetDestAndAdvance() = Val.Z;
    }
};
template <>
struct FNDIOutputParam<FNiagaraPosition> {
    VectorVM::FExternalFuncRegisterHandler<float> X, Y, Z;
    explicit FNDIOutputParam(FVectorVMExternalFunctionContext& Context) : X(Context), Y(Context), Z(Context) {}
    bool IsValid() const { return X.IsValid() || Y.IsValid() || Z.IsValid(); }
    void SetAndAdvance(FNiagaraPosition Val) {
        *X.GetDestAndAdvance() = Val.X;
        *Y.GetDestAndAdvance() = Val.Y;
        *Z.GetDestAndAdvance() = Val.Z;
    }
};
template <>
struct FNDIOutputParam<FQuat4f> {
    VectorVM::FExternalFuncRegisterHandler<float> X, Y, Z, W;
    explicit FNDIOutputParam(FVectorVMExternalFunctionContext& Context) : X(Context), Y(Context), Z(Context), W(Context) {}
    bool IsValid() const { return X.IsValid() || Y.IsValid() || Z.IsValid() || W.IsValid(); }
    void SetAndAdvance(FQuat4f Val) {
        *X.GetDestAndAdvance() = Val.X;
        *Y.GetDestAndAdvance() = Val.Y;
        *Z.GetDestAndAdvance() = Val.Z;
        *W.GetDestAndAdvance() = Val.W;
    }
};

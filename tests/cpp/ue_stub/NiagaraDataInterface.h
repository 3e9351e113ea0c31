#pragma once
// Stand-in for Niagara's data interface base (UE 5.4 names and signatures) and the
// VM parameter helpers (FNDIInputParam / FNDIOutputParam) the Sinew data interface
// uses. Not Niagara: nothing compiles scripts; the test binds and calls the VM
// functions itself, with the registers laid out as VectorVM.h describes.
#include "CoreMinimal.h"
#include "Engine/EngineBaseTypes.h"
#include "NiagaraTypes.h"
#include "VectorVM.h"

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

class UNiagaraDataInterface : public UObject {
  public:
    using Super = UNiagaraDataInterface; // UE's GENERATED_BODY makes Super the direct base
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

  protected:
    virtual void GetFunctionsInternal(TArray<FNiagaraFunctionSignature>&) const {}
    virtual bool CopyToInternal(UNiagaraDataInterface* Destination) const { return Destination != nullptr; }
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

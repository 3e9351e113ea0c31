#pragma once
// Stand-in for the VectorVM's external function interface (UE 5.3+ names): a function
// bound by a data interface receives a context whose registers its parameter handlers
// take in order (the user pointer, then the inputs, then the outputs). Stub: the test
// lays the registers out itself, one array of GetNumInstances() values each (a user
// pointer: one int32, its index in UserPtrTable).
#include "CoreMinimal.h"

class FVectorVMExternalFunctionContext {
  public:
    int32 GetNumInstances() const { return NumInstances; }
    /// Stub: the next register, or null past the last (an output nobody reads).
    void* TakeRegister() { return Next < Registers.size() ? Registers[Next++] : nullptr; }
    int32 NumInstances = 1;
    std::vector<void*> Registers;
    std::size_t Next = 0;
    std::vector<void*> UserPtrTable;
};

namespace VectorVM {
template <class T>
struct FExternalFuncInputHandler {
    explicit FExternalFuncInputHandler(FVectorVMExternalFunctionContext& Context)
        : P(static_cast<const T*>(Context.TakeRegister())) {}
    T GetAndAdvance() { return P[I++]; }
    bool IsConstant() const { return false; }
    const T* P;
    int32 I = 0;
};
template <class T>
struct FExternalFuncRegisterHandler {
    explicit FExternalFuncRegisterHandler(FVectorVMExternalFunctionContext& Context)
        : P(static_cast<T*>(Context.TakeRegister())) {}
    bool IsValid() const { return P != nullptr; }
    T* GetDestAndAdvance() { return P ? P++ : &Dummy; }
    T* P;
    T Dummy{};
};
template <class T>
struct FUserPtrHandler {
    explicit FUserPtrHandler(FVectorVMExternalFunctionContext& Context) {
        const int32* Index = static_cast<const int32*>(Context.TakeRegister());
        Ptr = static_cast<T*>(Context.UserPtrTable[static_cast<std::size_t>(*Index)]);
    }
    T* Get() const { return Ptr; }
    T* operator->() const { return Ptr; }
    T* Ptr = nullptr;
};
} // namespace VectorVM

/// TDelegate<void(FVectorVMExternalFunctionContext&)>. Stub: a std::function.
struct FVMExternalFunction {
    template <class T>
    static FVMExternalFunction CreateUObject(T* Object, void (T::*Method)(FVectorVMExternalFunctionContext&)) {
        FVMExternalFunction F;
        F.Call = [Object, Method](FVectorVMExternalFunctionContext& Context) { (Object->*Method)(Context); };
        return F;
    }
    bool IsBound() const { return static_cast<bool>(Call); }
    void Execute(FVectorVMExternalFunctionContext& Context) const { Call(Context); }
    std::function<void(FVectorVMExternalFunctionContext&)> Call;
};

#pragma once
// Stand-in for the Niagara types the plugin's data interface names.
#include "CoreMinimal.h"

/// NiagaraCommon.h: one running system instance's id.
using FNiagaraSystemInstanceID = uint64;

/// A position in a Niagara simulation's space (cm, relative to the system's LWC origin).
struct FNiagaraPosition : FVector3f {
    FNiagaraPosition() = default;
    FNiagaraPosition(const FVector3f& v) : FVector3f(v) {}
};

/// Stub: a type is its name.
struct FNiagaraTypeDefinition {
    std::string Name;
    FNiagaraTypeDefinition() = default;
    explicit FNiagaraTypeDefinition(UClass*) : Name("DataInterface") {}
    explicit FNiagaraTypeDefinition(const char* n) : Name(n) {}
    static FNiagaraTypeDefinition GetIntDef() { return FNiagaraTypeDefinition("int"); }
    static FNiagaraTypeDefinition GetFloatDef() { return FNiagaraTypeDefinition("float"); }
    static FNiagaraTypeDefinition GetBoolDef() { return FNiagaraTypeDefinition("bool"); }
    static FNiagaraTypeDefinition GetVec3Def() { return FNiagaraTypeDefinition("Vector"); }
    static FNiagaraTypeDefinition GetPositionDef() { return FNiagaraTypeDefinition("Position"); }
    static FNiagaraTypeDefinition GetQuatDef() { return FNiagaraTypeDefinition("Quat"); }
};

struct FNiagaraVariable {
    FNiagaraTypeDefinition Type;
    FName Name;
    FNiagaraVariable(const FNiagaraTypeDefinition& t, FName n) : Type(t), Name(n) {}
};

/// World (cm, double) <-> a world-space system's simulation space (float, relative to
/// the system's position, so that large worlds keep float precision).
struct FNiagaraLWCConverter {
    explicit FNiagaraLWCConverter(FVector InSystemWorldPos = FVector::ZeroVector) : SystemWorldPos(InSystemWorldPos) {}
    FNiagaraPosition ConvertWorldToSimulationPosition(FVector WorldPosition) const {
        return FNiagaraPosition(FVector3f(WorldPosition - SystemWorldPos));
    }
    FVector ConvertSimulationPositionToWorld(FNiagaraPosition P) const { return FVector(P) + SystemWorldPos; }

  private:
    FVector SystemWorldPos;
};

enum class ENiagaraTypeRegistryFlags : uint32 { None = 0, AllowAnyVariable = 1, AllowParameter = 2 };
inline ENiagaraTypeRegistryFlags operator|(ENiagaraTypeRegistryFlags a, ENiagaraTypeRegistryFlags b) {
    return static_cast<ENiagaraTypeRegistryFlags>(static_cast<uint32>(a) | static_cast<uint32>(b));
}
/// Stub: records what was registered.
struct FNiagaraTypeRegistry {
    static void Register(const FNiagaraTypeDefinition& Type, ENiagaraTypeRegistryFlags Flags) {
        Registered().push_back({Type.Name, Flags});
    }
    static std::vector<std::pair<std::string, ENiagaraTypeRegistryFlags>>& Registered() {
        static std::vector<std::pair<std::string, ENiagaraTypeRegistryFlags>> r;
        return r;
    }
};

#pragma once
#include "CoreMinimal.h"
#include "NiagaraTypes.h"

class USceneComponent;
class UWorld;
/// One running Niagara system. Stub: what a data interface asks of it, set by the test.
class FNiagaraSystemInstance {
  public:
    USceneComponent* GetAttachComponent() { return AttachComponent; }
    UWorld* GetWorld() const { return World; }
    FNiagaraLWCConverter GetLWCConverter(bool bLocalSpaceEmitter = false) const { return FNiagaraLWCConverter(LWCOrigin); }
    FNiagaraSystemInstanceID GetId() const { return Id; }
    USceneComponent* AttachComponent = nullptr;
    FNiagaraSystemInstanceID Id = 1; ///< stub: set by the test
    UWorld* World = nullptr;
    FVector LWCOrigin; ///< stub: the system's large-world origin (cm)
};

#pragma once
#include "CoreMinimal.h"
#include "Modules/ModuleInterface.h"

/// Stub: a module's factory, as UE's macro defines one (no module manager here).
#define IMPLEMENT_MODULE(ModuleClass, ModuleName) \
    IModuleInterface* InitializeModule_##ModuleName() { return new ModuleClass(); }

#pragma once
#include "CoreMinimal.h"

/// Stub: loading libraries by path is Windows and Mac only in the plugin; here the
/// library is linked, so nothing is loaded or freed.
struct FPlatformProcess {
    static void* GetDllHandle(const TCHAR*) { return nullptr; }
    static void FreeDllHandle(void*) {}
};

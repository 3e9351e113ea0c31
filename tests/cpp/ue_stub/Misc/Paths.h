#pragma once
#include "CoreMinimal.h"
// Stub: FPaths is used only on Windows and Mac (PLATFORM_WINDOWS, PLATFORM_MAC are 0 here).

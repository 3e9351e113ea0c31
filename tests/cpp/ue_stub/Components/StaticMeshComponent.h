#pragma once
// Stub: UStaticMeshComponent is declared with the instanced one.
#include "Components/InstancedStaticMeshComponent.h"

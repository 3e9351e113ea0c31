#pragma once
// Stub: UPrimitiveComponent lives in MeshComponent.h here.
#include "Components/MeshComponent.h"

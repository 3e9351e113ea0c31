#pragma once
#include "Components/MeshComponent.h"

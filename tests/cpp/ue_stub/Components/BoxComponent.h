#pragma once
#include "Components/ShapeComponent.h"

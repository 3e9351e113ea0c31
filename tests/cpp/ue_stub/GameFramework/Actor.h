#pragma once
#include "CoreMinimal.h"
class AActor : public UObject {};

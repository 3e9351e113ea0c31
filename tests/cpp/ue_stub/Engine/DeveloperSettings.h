#pragma once
#include "CoreMinimal.h"
class UDeveloperSettings : public UObject {
  public:
    virtual FName GetCategoryName() const { return FName(); }
};

#pragma once
#include "CoreMinimal.h"

/// A soft reference to an object. Stub: a plain pointer the test sets.
template <class T>
class TSoftObjectPtr {
  public:
    TSoftObjectPtr() = default;
    TSoftObjectPtr(T* p) : P(p) {}
    T* Get() const { return P; }
    bool operator==(const TSoftObjectPtr& o) const { return P == o.P; }

  private:
    T* P = nullptr;
};

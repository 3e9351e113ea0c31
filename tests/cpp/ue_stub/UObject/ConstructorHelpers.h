#pragma once
#include "CoreMinimal.h"

/// Asset lookups in constructors. Stub: no assets exist, so nothing is found.
struct ConstructorHelpers {
    template <class T>
    struct FObjectFinder {
        T* Object = nullptr;
        explicit FObjectFinder(const TCHAR*) {}
        bool Succeeded() const { return Object != nullptr; }
    };
};

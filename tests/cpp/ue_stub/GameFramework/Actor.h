#pragma once
#include "CoreMinimal.h"

class UActorComponent;
/// An actor. Stub: the components the test adds to it.
class AActor : public UObject {
  public:
    template <class T>
    void GetComponents(TArray<T*>& Out) const {
        Out.Reset();
        for (UObject* C : Components)
            if (T* Typed = dynamic_cast<T*>(C)) Out.Add(Typed);
    }
    template <class T>
    T* FindComponentByClass() const {
        for (UObject* C : Components)
            if (T* Typed = dynamic_cast<T*>(C)) return Typed;
        return nullptr;
    }
    TArray<UObject*> Components;
};

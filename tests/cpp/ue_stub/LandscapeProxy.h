#pragma once
#include "CoreMinimal.h"
#include "GameFramework/Actor.h"

#include <functional>
#include <optional>

/// Stub of TOptional: std::optional with UE's names.
template <class T>
struct TOptional {
    std::optional<T> V;
    TOptional() = default;
    TOptional(const T& v) : V(v) {}
    bool IsSet() const { return V.has_value(); }
    const T& GetValue() const { return *V; }
};

enum class EHeightfieldSource : uint8 { None, Simple, Complex, Editor };

/// A landscape. Stub: the test gives the ground's height as a function.
class ALandscapeProxy : public AActor {
  public:
    TOptional<float> GetHeightAtLocation(FVector Location, EHeightfieldSource Source = EHeightfieldSource::Complex) const {
        (void)Source;
        return HeightForStub ? HeightForStub(Location) : TOptional<float>();
    }
    std::function<TOptional<float>(FVector)> HeightForStub; ///< stub: set by the test
};

#pragma once
#include "CoreMinimal.h"

/// A primitive's physics body. Stub: the values the test sets (principal inertia in
/// kg·cm², centre of mass in cm, world); the mass space is not rotated.
struct FBodyInstance {
    FVector GetCOMPosition() const { return CenterOfMass; }
    FVector GetBodyInertiaTensor() const { return Inertia; }
    FTransform GetMassSpaceToWorldSpace() const { return FTransform(CenterOfMass); }
    FVector CenterOfMass;
    FVector Inertia{1.0, 1.0, 1.0};
};

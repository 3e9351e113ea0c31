#pragma once
#include "Components/MeshComponent.h"

/// Collision shapes. Stub: their unscaled sizes, which the test sets.
class UShapeComponent : public UPrimitiveComponent {};
class USphereComponent : public UShapeComponent {
  public:
    float GetUnscaledSphereRadius() const { return SphereRadius; }
    float SphereRadius = 32.0f;
};
class UCapsuleComponent : public UShapeComponent {
  public:
    float GetUnscaledCapsuleRadius() const { return CapsuleRadius; }
    float GetUnscaledCapsuleHalfHeight() const { return CapsuleHalfHeight; }
    float CapsuleRadius = 22.0f;
    float CapsuleHalfHeight = 44.0f;
};
class UBoxComponent : public UShapeComponent {
  public:
    FVector GetUnscaledBoxExtent() const { return BoxExtent; }
    FVector BoxExtent{32.0, 32.0, 32.0};
};

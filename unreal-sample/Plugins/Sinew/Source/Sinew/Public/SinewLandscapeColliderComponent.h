// A Sinew heightfield collider sampled from a Landscape: ropes, cloths and water lie on
// the terrain. When it joins the simulation it samples the landscape's height
// (ALandscapeProxy::GetHeightAtLocation) on a square grid of CellSize cm over
// 2 Extent.X by 2 Extent.Y cm centred on this component; a sample with no ground (a
// painted hole, or past the landscape's edge) makes the cells around it holes. The
// conversion is engine-neutral (sinew::colliders::heightfield_from_samples). Call
// Resample after editing the landscape at run time; the grid does not follow the
// component's later moves.
//
// Units: lengths in cm; friction coefficients and restitution are unitless.
#pragma once

#include "CoreMinimal.h"
#include "Components/SceneComponent.h"
#include "SinewWorldSubsystem.h"

#include "SinewLandscapeColliderComponent.generated.h"

class ALandscapeProxy;

UCLASS(ClassGroup = (Physics), meta = (BlueprintSpawnableComponent), hidecategories = (Object, Activation, "Components|Activation"))
class SINEW_API USinewLandscapeColliderComponent : public USceneComponent, public ISinewSimulated
{
	GENERATED_BODY()

public:
	USinewLandscapeColliderComponent(const FObjectInitializer& ObjectInitializer);

	/** The landscape to sample (read when the collider joins the simulation and by Resample). */
	UPROPERTY(EditAnywhere, BlueprintReadWrite, Category = "Sinew|Landscape")
	TObjectPtr<ALandscapeProxy> Landscape = nullptr;

	/** Half size of the sampled area around this component, cm (X and Y). */
	UPROPERTY(EditAnywhere, BlueprintReadWrite, Category = "Sinew|Landscape", meta = (ClampMin = "1", Units = "cm"))
	FVector2D Extent = FVector2D(2000.0, 2000.0);

	/** Distance between samples, cm (the landscape's own quad size is a good choice). */
	UPROPERTY(EditAnywhere, BlueprintReadWrite, Category = "Sinew|Landscape", meta = (ClampMin = "1", Units = "cm"))
	float CellSize = 100.0f;

	/** Coulomb coefficient below which a contact sticks (>= 0; the library refuses more than SINEW_MAX_FRICTION). */
	UPROPERTY(EditAnywhere, BlueprintReadWrite, Category = "Sinew|Material", meta = (ClampMin = "0"))
	float StaticFriction = 0.5f;

	/** Coulomb coefficient of sliding (>= 0; the library refuses more than SINEW_MAX_FRICTION). */
	UPROPERTY(EditAnywhere, BlueprintReadWrite, Category = "Sinew|Material", meta = (ClampMin = "0"))
	float DynamicFriction = 0.4f;

	/** Normal velocity kept after an impact (0 = no bounce, 1 = elastic). At least 0, at most 1. */
	UPROPERTY(EditAnywhere, BlueprintReadWrite, Category = "Sinew|Material", meta = (ClampMin = "0", ClampMax = "1"))
	float Restitution = 0.0f;

	/** True while the heightfield is in the world's simulation. */
	UFUNCTION(BlueprintPure, Category = "Sinew|Landscape")
	bool IsSimulating() const { return Collider != 0; }

	/** Samples the landscape again and replaces the heightfield (after editing the landscape at run time). */
	UFUNCTION(BlueprintCallable, Category = "Sinew|Landscape")
	void Resample();

	virtual void BeginPlay() override;
	virtual void EndPlay(const EEndPlayReason::Type EndPlayReason) override;

	virtual void PreSinewStep(USinewWorldSubsystem& InSubsystem) override {}
	virtual void PostSinewStep(USinewWorldSubsystem& InSubsystem) override {}
	virtual uint32 GetSinewCollider() const override { return Collider; }

private:
	/** Samples the landscape and adds the heightfield; logs and leaves it out on failure. */
	void AddHeightfield(USinewWorldSubsystem& Sub);
	void RemoveHeightfield();

	UPROPERTY(Transient)
	TWeakObjectPtr<USinewWorldSubsystem> Subsystem;

	uint32 Collider = 0;
};

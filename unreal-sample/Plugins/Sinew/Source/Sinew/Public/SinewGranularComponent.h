// Granular material (sand, gravel, grain, snow) poured by a Sinew grain emitter and drawn
// as the instances of this instanced static mesh component: each frame, after the fixed
// steps, the emitted grains' positions (interpolated between the last two steps) are read
// in one call into a scratch buffer and written as instance transforms (world space), one
// per grain. Give it a sphere (the engine's /Engine/BasicShapes/Sphere by default) and a
// material.
//
// The component's transform is the emitter: a nozzle pours along its forward (+X) axis (a
// nozzle of radius 0 is a point), a box scatters grains inside BoxExtent around it; moving
// the component moves the emitter. The grains' material (static and kinetic friction,
// rolling resistance, cohesion in Pa), radius, density, budget and collision layers are
// read when the emitter joins the simulation; the stream (transform, radius, speed, rate)
// applies in place. Grains already poured stay in the world when the component leaves it.
//
// Units: lengths in cm, speeds in cm/s, density in kg/m³, cohesion in Pa, time in s; the
// library's SI values go through SinewConversions.h.
#pragma once

#include "CoreMinimal.h"
#include "Components/InstancedStaticMeshComponent.h"
#include "SinewFluidComponent.h"
#include "SinewWorldSubsystem.h"

#include <vector>

THIRD_PARTY_INCLUDES_START
#include "sinew.hpp"
#include "sinew_scene.hpp"
THIRD_PARTY_INCLUDES_END

#include "SinewGranularComponent.generated.h"

UCLASS(ClassGroup = (Physics), meta = (BlueprintSpawnableComponent), hidecategories = (Object, Activation, "Components|Activation"))
class SINEW_API USinewGranularComponent : public UInstancedStaticMeshComponent, public ISinewSimulated
{
	GENERATED_BODY()

public:
	USinewGranularComponent(const FObjectInitializer& ObjectInitializer);

	/** Coulomb coefficient below which a contact between grains sticks (mu_s): a pile stands up to about atan mu_s. At least 0 (the library refuses more than SINEW_MAX_FRICTION). */
	UPROPERTY(EditAnywhere, BlueprintReadOnly, Category = "Sinew|Granular", meta = (ClampMin = "0", UIMax = "1.5"))
	float StaticFriction = 0.6f;

	/** Coulomb coefficient of sliding between grains (mu_k, at most mu_s). At least 0 (the library refuses more than SINEW_MAX_FRICTION). */
	UPROPERTY(EditAnywhere, BlueprintReadOnly, Category = "Sinew|Granular", meta = (ClampMin = "0", UIMax = "1.5"))
	float KineticFriction = 0.5f;

	/** Rolling resistance of round grains (mu_r): caps both coefficients, so round grains roll where rolling is cheaper than sliding. 0 = the grains do not roll. */
	UPROPERTY(EditAnywhere, BlueprintReadOnly, Category = "Sinew|Granular", meta = (ClampMin = "0", UIMax = "1.5"))
	float RollingFriction = 0.0f;

	/** Tensile strength of the bulk material (wet sand 100-1000 Pa, snow 1-100 kPa); 0 = dry. At least 0, at most 1e7 Pa. */
	UPROPERTY(EditAnywhere, BlueprintReadOnly, Category = "Sinew|Granular", meta = (ClampMin = "0", ToolTip = "Tensile strength of the bulk material in Pa (wet sand 100-1000, snow 1-100 kPa); 0 = dry."))
	float Cohesion = 0.0f;

	/** Grain radius, cm (its contact radius). */
	UPROPERTY(EditAnywhere, BlueprintReadOnly, Category = "Sinew|Granular", meta = (ClampMin = "0", UIMin = "0.2", UIMax = "20", Units = "cm"))
	float GrainRadius = 2.0f;

	/** Density of the grain's material (quartz sand 2650): a grain weighs rho 4/3 pi r^3. Above 0, at most 100000 kg/m^3. */
	UPROPERTY(EditAnywhere, BlueprintReadOnly, Category = "Sinew|Granular", meta = (ClampMin = "0"))
	float GrainDensity = 2650.0f;

	/** Grains the emitter makes in all (particles reserved when it joins the simulation). */
	UPROPERTY(EditAnywhere, BlueprintReadOnly, Category = "Sinew|Granular", meta = (ClampMin = "1"))
	int32 Budget = 2000;

	/** Collision layers the grains are on (bits). */
	UPROPERTY(EditAnywhere, BlueprintReadOnly, Category = "Sinew|Granular")
	int32 Layers = 1;

	/** Collision layers the grains collide with (bits; -1 = all). */
	UPROPERTY(EditAnywhere, BlueprintReadOnly, Category = "Sinew|Granular")
	int32 Mask = -1;

	/** This component's emitter (its transform): a nozzle along +X (radius 0 = a point), or a box; None pauses it. */
	UPROPERTY(EditAnywhere, BlueprintReadWrite, Category = "Sinew|Emitter")
	ESinewFluidEmitterShape EmitterShape = ESinewFluidEmitterShape::Nozzle;

	/** Nozzle radius, cm (grains leave it on a lattice of 2.2 grain radii). */
	UPROPERTY(EditAnywhere, BlueprintReadWrite, Category = "Sinew|Emitter", meta = (ClampMin = "0", UIMin = "0", UIMax = "100", Units = "cm"))
	float NozzleRadius = 10.0f;

	/** Box half extents, cm (in the component's frame, not scaled). */
	UPROPERTY(EditAnywhere, BlueprintReadWrite, Category = "Sinew|Emitter", meta = (Units = "cm"))
	FVector BoxExtent = FVector(25.0, 25.0, 5.0);

	/** Grains per second (0 pauses the emitter); a nozzle passes at most speed x its lattice points / 2.2 r. */
	UPROPERTY(EditAnywhere, BlueprintReadWrite, Category = "Sinew|Emitter", meta = (ClampMin = "0", UIMin = "0", UIMax = "5000"))
	float EmitterRate = 200.0f;

	/** Speed of new grains along +X, cm/s. */
	UPROPERTY(EditAnywhere, BlueprintReadWrite, Category = "Sinew|Emitter", meta = (ClampMin = "0", UIMin = "0", UIMax = "1000", Units = "cm/s"))
	float EmitterSpeed = 100.0f;

	/** Diameter of the instanced mesh at scale 1, cm (the engine's sphere: 100). */
	UPROPERTY(EditAnywhere, BlueprintReadWrite, Category = "Sinew|Rendering", meta = (ClampMin = "0.001", UIMin = "1", UIMax = "200", Units = "cm"))
	float MeshDiameter = 100.0f;

	/** Applies this component's emitter (transform, shape, radius, speed, rate) in place, from the next step on. False (logged) when the library refused it. */
	UFUNCTION(BlueprintCallable, Category = "Sinew|Emitter")
	bool ApplyEmitter();

	/** Grains poured so far (0 while not simulating). */
	UFUNCTION(BlueprintPure, Category = "Sinew|Granular")
	int32 GetEmittedCount() const;

	/** The grains' positions (cm, world; interpolated as drawn), as last drawn. */
	UFUNCTION(BlueprintCallable, Category = "Sinew|Granular")
	int32 ReadGrains(TArray<FVector>& OutLocations) const;

	/** True while the emitter is in the world's simulation. */
	UFUNCTION(BlueprintPure, Category = "Sinew|Granular")
	bool IsSimulating() const { return bSimulating; }

	virtual void BeginPlay() override;
	virtual void EndPlay(const EEndPlayReason::Type EndPlayReason) override;

	virtual void PreSinewStep(USinewWorldSubsystem& InSubsystem) override;
	virtual void PostSinewStep(USinewWorldSubsystem& InSubsystem) override;
	virtual USceneComponent* GetSinewComponent() override { return this; }
	virtual bool ReadSinewParticles(USinewWorldSubsystem& InSubsystem, FSinewParticleReadback& Out) override;

private:
	/** Adds the grain emitter to the subsystem's simulation (BeginPlay). */
	void JoinSimulation(USinewWorldSubsystem& Sub);
	/** Removes the emitter (EndPlay); its grains stay. */
	void LeaveSimulation();
	/** The library's stream of this component's emitter (SI; rate 0 for None). */
	sinew::EmitterDesc MakeStream() const;
	/** The sinew::Scene of the world while simulating, else null. */
	sinew::Scene* SimScene() const;
	void LogFailure(const sinew::Error& Error) const;

	UPROPERTY(Transient)
	TWeakObjectPtr<USinewWorldSubsystem> Subsystem;

	bool bSimulating = false;
	SinewGrainEmitter Emitter{};              // the library's handle (no ownership: LeaveSimulation removes it)
	sinew::EmitterDesc AppliedStream;         // what Emitter was last set to
	uint32 First = 0;                         // first reserved world particle
	std::vector<FVector3f> SimPositions;      // scratch: m, simulation space, one per reserved particle
	TArray<FTransform> InstanceTransforms;    // scratch: this frame's instances, world space
	int32 DrawnCount = 0;                     // grains drawn in the last PostSinewStep
};

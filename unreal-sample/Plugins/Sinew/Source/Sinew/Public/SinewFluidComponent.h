// A Position Based Fluid simulated by Sinew (Macklin & Müller 2013), drawn as the
// instances of this instanced static mesh component: each frame, after the fixed steps,
// the live particles are read in one call (positions interpolated between the last two
// steps, and velocities) into a scratch buffer and written as instance transforms (world
// space), one per particle, with the particle's speed as per-instance custom data 0
// (0 at rest .. 1 at FastSpeed) for the material to colour by (PerInstanceCustomData).
// Give it a sphere (the engine's /Engine/BasicShapes/Sphere by default) and a material
// (a translucent water material reads best with ellipsoids).
//
// DrawMode Ellipsoids (the default) draws each particle as the ellipsoid of its
// neighbourhood (Yu & Turk 2013, sinew_fluid_read_anisotropy, one more read per frame):
// the instance is rotated to the ellipsoid's axes and scaled non-uniformly by their
// radii, so the surface lies flat and thin sheets and streams stretch; Spheres draws
// every particle at Spacing x ParticleScale. Diffuse particles (spray, foam, bubbles;
// bDiffuse, off by default) are written into a second instanced mesh component that you
// add to the actor and assign to DiffuseInstances (a small sphere or a camera-facing
// quad material), with their opacity as its custom data 0.
//
// Niagara is the alternative renderer for many particles: a Niagara system with a
// sprite or mesh renderer whose particle positions come from an array the game thread
// fills each frame (UNiagaraDataInterfaceArrayFunctionLibrary::SetNiagaraArrayVector on
// a user parameter) from the same read (ReadParticles below); this plugin does not
// depend on Niagara, so it ships the instanced mesh path (docs/unreal.md, "Water").
//
// The component's transform is the emitter: a nozzle pours along its forward (+X) axis,
// a box emits inside BoxExtent around it; moving the component moves the emitter.
// Settings, the emitter and the kill volumes apply in place (Blueprint setters or the
// details panel while playing); Spacing and Capacity are read when the fluid joins the
// simulation. Bodies (ropes, cloths) float in it through two-way coupling, on by default
// for particles with a collision radius: SetBodyFluidCoupling switches it per body and
// GetBodyFluidForce reads the force (buoyancy and drag, N).
//
// Units: lengths in cm, speeds in cm/s, density in kg/m³ (SI, as Chaos' densities are
// not), time in s; the library's SI values go through SinewConversions.h.
#pragma once

#include "CoreMinimal.h"
#include "Components/InstancedStaticMeshComponent.h"
#include "SinewWorldSubsystem.h"

#include <vector>

THIRD_PARTY_INCLUDES_START
#include "sinew.hpp"
#include "sinew_scene.hpp"
THIRD_PARTY_INCLUDES_END

#include "SinewFluidComponent.generated.h"

/** The emitter of a USinewFluidComponent, or of AddEmitter. */
UENUM(BlueprintType)
enum class ESinewFluidEmitterShape : uint8
{
	/** No emitter: particles come from Emit. */
	None,
	/** A round nozzle (a hose, a tap) pouring along the emitter's forward (+X) axis. */
	Nozzle,
	/** A box (rain, a spring): particles at pseudo-random points inside its extent. */
	Box
};

/** The shape of a kill volume. */
UENUM(BlueprintType)
enum class ESinewKillVolumeShape : uint8
{
	/** An oriented box: Transform's location and rotation, Extent. */
	Box,
	/** A ball: Transform's location, Radius. */
	Sphere,
	/** Everything below the plane through Transform's location whose normal is its up (+Z) axis. */
	Below
};

/** How a USinewFluidComponent draws its particles. */
UENUM(BlueprintType)
enum class ESinewFluidDrawMode : uint8
{
	/** One sphere per particle, Spacing x ParticleScale across. */
	Spheres,
	/** One ellipsoid per particle from its neighbours (Yu & Turk 2013): flat along the surface, stretched along sheets and streams, so the water reads as one body. */
	Ellipsoids
};

/** An emitter of a fluid (world space). */
USTRUCT(BlueprintType)
struct FSinewFluidEmitter
{
	GENERATED_BODY()

	UPROPERTY(EditAnywhere, BlueprintReadWrite, Category = "Sinew|Fluid")
	ESinewFluidEmitterShape Shape = ESinewFluidEmitterShape::Nozzle;

	/** Where, and which way: a nozzle pours along the transform's forward (+X) axis. Scale is ignored. */
	UPROPERTY(EditAnywhere, BlueprintReadWrite, Category = "Sinew|Fluid")
	FTransform Transform;

	/** Box half extents, cm. */
	UPROPERTY(EditAnywhere, BlueprintReadWrite, Category = "Sinew|Fluid", meta = (Units = "cm"))
	FVector BoxExtent = FVector(25.0, 25.0, 5.0);

	// BEGIN GENERATED EmitterDesc properties
	/** The radius of the disc the particles leave, centred on the emitter and facing its local +z axis, on a lattice of the fluid's spacing (at most MAX_NOZZLE_SPACINGS spacings). At least 0, at most 1e11 cm. */
	UPROPERTY(EditAnywhere, BlueprintReadWrite, Category = "Sinew|Fluid", meta = (ClampMin = "0", ClampMax = "1e11", Units = "cm", ToolTip = "The radius of the disc the particles leave, centred on the emitter and facing its local +z axis, on a lattice of the fluid's spacing (at most MAX_NOZZLE_SPACINGS spacings). At least 0, at most 1e11 cm."))
	float NozzleRadius = 10.0f;

	/** Speed along the emitter's local +z given to each new particle. At least 0, at most 100000 cm/s. */
	UPROPERTY(EditAnywhere, BlueprintReadWrite, Category = "Sinew|Fluid", meta = (ClampMin = "0", ClampMax = "100000", Units = "cm/s", ToolTip = "Speed along the emitter's local +z given to each new particle. At least 0, at most 100000 cm/s."))
	float Speed = 200.0f;

	/** Particles per second; 0 pauses the emitter. A nozzle passes at most speed × its lattice points / spacing per second (520/s for the default 10 cm nozzle at 2 m/s and 5 cm spacing); a higher rate is capped there. At least 0, at most 1e7 particles/s. */
	UPROPERTY(EditAnywhere, BlueprintReadWrite, Category = "Sinew|Fluid", meta = (ClampMin = "0", ClampMax = "1e7", ToolTip = "Particles per second; 0 pauses the emitter. A nozzle passes at most speed x its lattice points / spacing per second (520/s for the default 10 cm nozzle at 2 m/s and 5 cm spacing); a higher rate is capped there. At least 0, at most 1e7 particles/s."))
	float Rate = 500.0f;
	// END GENERATED EmitterDesc properties
};

/** A volume whose fluid particles are removed at the end of each step (world space). */
USTRUCT(BlueprintType)
struct FSinewKillVolume
{
	GENERATED_BODY()

	UPROPERTY(EditAnywhere, BlueprintReadWrite, Category = "Sinew|Fluid")
	ESinewKillVolumeShape Shape = ESinewKillVolumeShape::Box;

	/** Centre and rotation of a box or ball; a point of the plane and its normal (+Z) for Below. Scale is ignored. */
	UPROPERTY(EditAnywhere, BlueprintReadWrite, Category = "Sinew|Fluid")
	FTransform Transform;

	/** Box half extents, cm. */
	UPROPERTY(EditAnywhere, BlueprintReadWrite, Category = "Sinew|Fluid", meta = (Units = "cm"))
	FVector Extent = FVector(100.0, 100.0, 100.0);

	// BEGIN GENERATED KillVolumeDesc properties
	/** The ball's radius. At least 0, at most 1e11 cm. */
	UPROPERTY(EditAnywhere, BlueprintReadWrite, Category = "Sinew|Fluid", meta = (ClampMin = "0", ClampMax = "1e11", Units = "cm", ToolTip = "The ball's radius. At least 0, at most 1e11 cm."))
	float Radius = 100.0f;
	// END GENERATED KillVolumeDesc properties
};

/** Counters and density figures of a fluid (GetStats). */
USTRUCT(BlueprintType)
struct FSinewFluidStats
{
	GENERATED_BODY()

	/** Live particles. */
	UPROPERTY(BlueprintReadOnly, Category = "Sinew|Fluid")
	int32 Count = 0;

	/** Reserved particles. */
	UPROPERTY(BlueprintReadOnly, Category = "Sinew|Fluid")
	int32 Capacity = 0;

	/** Particles emitted since the fluid joined the simulation. */
	UPROPERTY(BlueprintReadOnly, Category = "Sinew|Fluid")
	int64 Emitted = 0;

	/** Particles removed (kill volumes, lifetime, recycling, Clear). */
	UPROPERTY(BlueprintReadOnly, Category = "Sinew|Fluid")
	int64 Removed = 0;

	/** Emissions skipped because the fluid was full. */
	UPROPERTY(BlueprintReadOnly, Category = "Sinew|Fluid")
	int64 Refused = 0;

	/** Mean density over rest density of the live particles after the last step (1 = incompressible). */
	UPROPERTY(BlueprintReadOnly, Category = "Sinew|Fluid")
	float MeanDensityRatio = 0.0f;

	/** Largest density over rest density. */
	UPROPERTY(BlueprintReadOnly, Category = "Sinew|Fluid")
	float MaxDensityRatio = 0.0f;
};

UCLASS(ClassGroup = (Physics), meta = (BlueprintSpawnableComponent), hidecategories = (Object, Activation, "Components|Activation"))
class SINEW_API USinewFluidComponent : public UInstancedStaticMeshComponent, public ISinewSimulated
{
	GENERATED_BODY()

public:
	USinewFluidComponent(const FObjectInitializer& ObjectInitializer);

	// BEGIN GENERATED FluidDesc properties
	/** Rest density ρ₀ (per unit thickness in a planar world, in kg/m²); water is 1000. Bodies lighter than this float. Above 0, at most 100000 kg/m³. */
	UPROPERTY(EditAnywhere, BlueprintReadWrite, BlueprintSetter = SetRestDensity, Category = "Sinew|Fluid", meta = (ClampMin = "1e-45", ClampMax = "100000", ToolTip = "Rest density rho0 (per unit thickness in a planar world, in kg/m^2); water is 1000. Bodies lighter than this float. Above 0, at most 100000 kg/m^3."))
	float RestDensity = 1000.0f;

	/** Particle spacing s: the rest distance between particles. Sets the particle mass ρ₀·s³ (ρ₀·s² in a planar world) and volume s³ (s²). Fixed once the fluid is added. At least 0.1, at most 1000 cm. */
	UPROPERTY(EditAnywhere, BlueprintReadOnly, Category = "Sinew|Fluid", meta = (ClampMin = "0.1", ClampMax = "1000", Units = "cm", ToolTip = "Particle spacing s: the rest distance between particles. Sets the particle mass rho0*s^3 (rho0*s^2 in a planar world) and volume s^3 (s^2). Fixed once the fluid is added. At least 0.1, at most 1000 cm."))
	float Spacing = 5.0f;

	/** Smoothing radius h; a value other than 0 must also lie in [spacing, MAX_SMOOTHING_RATIO·spacing]. At least 0, at most 4000 cm; 0 = 2·spacing. */
	UPROPERTY(EditAnywhere, BlueprintReadWrite, Category = "Sinew|Fluid", meta = (ClampMin = "0", ClampMax = "4000", Units = "cm", ToolTip = "Smoothing radius h; a value other than 0 must also lie in [spacing, MAX_SMOOTHING_RATIO*spacing]. At least 0, at most 4000 cm; 0 = 2*spacing."))
	float SmoothingRadius = 0.0f;

	/** Particles reserved up front: emission never allocates; a full fluid refuses emission or recycles its oldest particle. Fixed once the fluid is added. At least 1, at most 4194304 particles. */
	UPROPERTY(EditAnywhere, BlueprintReadOnly, Category = "Sinew|Fluid", meta = (ClampMin = "1", ClampMax = "4194304", ToolTip = "Particles reserved up front: emission never allocates; a full fluid refuses emission or recycles its oldest particle. Fixed once the fluid is added. At least 1, at most 4194304 particles."))
	int32 Capacity = 4096;

	/** Constraint relaxation ε, the CFM term of the density constraint (whose gradient carries the particle volume, so ε has units of 1/m²); it softens the constraint. 0.04 / spacing² is 100 m⁻² at spacing 0.02 m. At least 0, at most 1e12 m⁻²; 0 = 0.04 / spacing². */
	UPROPERTY(EditAnywhere, BlueprintReadWrite, Category = "Sinew|Fluid", meta = (ClampMin = "0", ClampMax = "1e12", ToolTip = "Constraint relaxation epsilon, the CFM term of the density constraint (whose gradient carries the particle volume, so epsilon has units of 1/m^2); it softens the constraint. 0.04 / spacing^2 is 100 m^-2 at spacing 0.02 m. At least 0, at most 1e12 m^-2; 0 = 0.04 / spacing^2."))
	float Relaxation = 0.0f;

	/** Artificial pressure s_corr = −k·(W(r)/W(Δq))ⁿ: k, dimensionless. Keeps particles from clumping at the surface. At least 0, at most 1000. */
	UPROPERTY(EditAnywhere, BlueprintReadWrite, Category = "Sinew|Fluid", meta = (ClampMin = "0", ClampMax = "1000", ToolTip = "Artificial pressure s_corr = -k*(W(r)/W(Deltaq))^n: k, dimensionless. Keeps particles from clumping at the surface. At least 0, at most 1000."))
	float ArtificialPressure = 0.1f;

	/** Artificial pressure exponent n. At least 1, at most 8. */
	UPROPERTY(EditAnywhere, BlueprintReadWrite, Category = "Sinew|Fluid", meta = (ClampMin = "1", ClampMax = "8", ToolTip = "Artificial pressure exponent n. At least 1, at most 8."))
	int32 ArtificialPressureExponent = 4;

	/** Artificial pressure Δq, as a fraction of the smoothing radius h. At least 0, at most 0.9. */
	UPROPERTY(EditAnywhere, BlueprintReadWrite, Category = "Sinew|Fluid", meta = (ClampMin = "0", ClampMax = "0.9", ToolTip = "Artificial pressure Deltaq, as a fraction of the smoothing radius h. At least 0, at most 0.9."))
	float ArtificialPressureDistance = 0.2f;

	/** XSPH viscosity c, dimensionless, applied once per substep (0.01 water; larger is thicker, like honey). At least 0, at most 1. */
	UPROPERTY(EditAnywhere, BlueprintReadWrite, BlueprintSetter = SetViscosity, Category = "Sinew|Fluid", meta = (ClampMin = "0", ClampMax = "1", ToolTip = "XSPH viscosity c, dimensionless, applied once per substep (0.01 water; larger is thicker, like honey). At least 0, at most 1."))
	float Viscosity = 0.01f;

	/** Vorticity confinement ε_vort, dimensionless (scaled by the particle volume and h internally; 0 = off): puts back the swirl that damping removes. At least 0, at most 1000. */
	UPROPERTY(EditAnywhere, BlueprintReadWrite, Category = "Sinew|Fluid", meta = (ClampMin = "0", ClampMax = "1000", ToolTip = "Vorticity confinement epsilon_vort, dimensionless (scaled by the particle volume and h internally; 0 = off): puts back the swirl that damping removes. At least 0, at most 1000."))
	float Vorticity = 0.0f;

	/** Cohesion / surface tension γ (Akinci et al. 2013), dimensionless (0 = off): 1 lets a neighbour at the kernel's peak accelerate a particle at spacing × 3600 s⁻² (a spacing per 60 Hz frame per frame), for any substep count. At least 0, at most 1000. */
	UPROPERTY(EditAnywhere, BlueprintReadWrite, Category = "Sinew|Fluid", meta = (ClampMin = "0", ClampMax = "1000", ToolTip = "Cohesion / surface tension gamma (Akinci et al. 2013), dimensionless (0 = off): 1 lets a neighbour at the kernel's peak accelerate a particle at spacing x 3600 s^-2 (a spacing per 60 Hz frame per frame), for any substep count. At least 0, at most 1000."))
	float Cohesion = 0.0f;

	/** Adhesion β to solid particles (Akinci et al. 2013), dimensionless (0 = off): scaled as cohesion, weighted by the solid's volume over the particle's; water that wets the bodies it touches. At least 0, at most 1000. */
	UPROPERTY(EditAnywhere, BlueprintReadWrite, Category = "Sinew|Fluid", meta = (ClampMin = "0", ClampMax = "1000", ToolTip = "Adhesion beta to solid particles (Akinci et al. 2013), dimensionless (0 = off): scaled as cohesion, weighted by the solid's volume over the particle's; water that wets the bodies it touches. At least 0, at most 1000."))
	float Adhesion = 0.0f;

	/** Radius with which the fluid's particles meet colliders; a value of 0 or more must also be at most the spacing. 0 projects the particle centres onto collider surfaces. At least 0, at most 1000 cm; negative = spacing / 2. */
	UPROPERTY(EditAnywhere, BlueprintReadWrite, Category = "Sinew|Fluid", meta = (ClampMax = "1000", Units = "cm", ToolTip = "Radius with which the fluid's particles meet colliders; a value of 0 or more must also be at most the spacing. 0 projects the particle centres onto collider surfaces. At least 0, at most 1000 cm; negative = spacing / 2."))
	float CollisionRadius = -100.0f;

	/** Lifetime of an emitted particle (0 = forever). At least 0, at most 1000000 s. */
	UPROPERTY(EditAnywhere, BlueprintReadWrite, Category = "Sinew|Fluid", meta = (ClampMin = "0", ClampMax = "1000000", Units = "s", ToolTip = "Lifetime of an emitted particle (0 = forever). At least 0, at most 1000000 s."))
	float Lifetime = 0.0f;

	/** When an emitter needs a slot and the fluid is full: true removes the oldest particle, false skips the emission (counted in the stats' `refused`). */
	UPROPERTY(EditAnywhere, BlueprintReadWrite, Category = "Sinew|Fluid", meta = (ToolTip = "When an emitter needs a slot and the fluid is full: true removes the oldest particle, false skips the emission (counted in the stats' `refused`)."))
	bool bRecycleOldest = false;

	/** The solid particles (with a radius) whose collision layers meet this mask take part in the fluid's density (two-way coupling: buoyancy and drag); all bits set = every layer. */
	UPROPERTY(EditAnywhere, BlueprintReadWrite, Category = "Sinew|Fluid", meta = (ToolTip = "The solid particles (with a radius) whose collision layers meet this mask take part in the fluid's density (two-way coupling: buoyancy and drag); all bits set = every layer."))
	int32 CouplingMask = -1;

	/** The density solves per second of simulated time, at least: a substep of h seconds runs ⌈rate·h / iterations⌉ Jacobi solves per iteration (at most 16), so long substeps keep the stiffness of short ones (one solve carries the floor's push only about two rows up the water; a pool 12 rows deep at 1 substep of 1/60 s and one solve boiled over). 480 is one solve per substep at the world's default of 8 substeps of 1/60 s. 0: one solve per iteration, whatever the substep (Macklin & Müller's scheme as published). With several fluids the largest rate counts. At least 0, at most 1000000 Hz. */
	UPROPERTY(EditAnywhere, BlueprintReadWrite, Category = "Sinew|Fluid", meta = (ClampMin = "0", ClampMax = "1000000", ToolTip = "The density solves per second of simulated time, at least: a substep of h seconds runs ?rate*h / iterations? Jacobi solves per iteration (at most 16), so long substeps keep the stiffness of short ones (one solve carries the floor's push only about two rows up the water; a pool 12 rows deep at 1 substep of 1/60 s and one solve boiled over). 480 is one solve per substep at the world's default of 8 substeps of 1/60 s. 0: one solve per iteration, whatever the substep (Macklin & Mueller's scheme as published). With several fluids the largest rate counts. At least 0, at most 1000000 Hz."))
	float SolveRate = 480.0f;
	// END GENERATED FluidDesc properties

	/** This component's own emitter (its transform): none, a nozzle along +X, or a box. */
	UPROPERTY(EditAnywhere, BlueprintReadWrite, Category = "Sinew|Emitter")
	ESinewFluidEmitterShape EmitterShape = ESinewFluidEmitterShape::Nozzle;

	/** Nozzle radius, cm. */
	UPROPERTY(EditAnywhere, BlueprintReadWrite, Category = "Sinew|Emitter", meta = (ClampMin = "0", UIMin = "0", UIMax = "100", Units = "cm"))
	float NozzleRadius = 10.0f;

	/** Box half extents, cm (in the component's frame, not scaled). */
	UPROPERTY(EditAnywhere, BlueprintReadWrite, Category = "Sinew|Emitter", meta = (Units = "cm"))
	FVector BoxExtent = FVector(25.0, 25.0, 5.0);

	/** Particles per second (0 pauses the emitter). */
	UPROPERTY(EditAnywhere, BlueprintReadWrite, BlueprintSetter = SetEmitterRate, Category = "Sinew|Emitter", meta = (ClampMin = "0", UIMin = "0", UIMax = "20000"))
	float EmitterRate = 1000.0f;

	/** Speed of new particles along +X, cm/s. */
	UPROPERTY(EditAnywhere, BlueprintReadWrite, Category = "Sinew|Emitter", meta = (ClampMin = "0", UIMin = "0", UIMax = "2000", Units = "cm/s"))
	float EmitterSpeed = 200.0f;

	/** Kill volumes (world space), added when the fluid joins the simulation; AddKillVolume adds more. */
	UPROPERTY(EditAnywhere, BlueprintReadOnly, Category = "Sinew|Kill Volumes")
	TArray<FSinewKillVolume> KillVolumes;

	/** Ellipsoids: each particle shaped by its neighbours (Yu & Turk 2013); Spheres: Spacing x ParticleScale across (no anisotropy read). */
	UPROPERTY(EditAnywhere, BlueprintReadWrite, Category = "Sinew|Rendering")
	ESinewFluidDrawMode DrawMode = ESinewFluidDrawMode::Ellipsoids;

	/** Spheres: instance diameter as a multiple of Spacing. */
	UPROPERTY(EditAnywhere, BlueprintReadWrite, Category = "Sinew|Rendering", meta = (ClampMin = "0", UIMin = "0.1", UIMax = "3", EditCondition = "DrawMode == ESinewFluidDrawMode::Spheres"))
	float ParticleScale = 1.0f;

	/** Ellipsoids: the radius inside the water as a multiple of half the Spacing (k_s); a little over 1 closes the gaps between neighbours. */
	UPROPERTY(EditAnywhere, BlueprintReadWrite, Category = "Sinew|Rendering", meta = (ClampMin = "0", UIMin = "0.1", UIMax = "10", EditCondition = "DrawMode == ESinewFluidDrawMode::Ellipsoids"))
	float EllipsoidScale = 1.25f;

	/** Ellipsoids: Laplacian smoothing of the centres, 0 (at the particle) to 1 (at its neighbours' weighted mean); 0.9 smooths the surface. */
	UPROPERTY(EditAnywhere, BlueprintReadWrite, Category = "Sinew|Rendering", meta = (ClampMin = "0", ClampMax = "1", EditCondition = "DrawMode == ESinewFluidDrawMode::Ellipsoids"))
	float EllipsoidSmoothing = 0.9f;

	/** Ellipsoids: the longest axis is at most this many times the shortest (k_r). */
	UPROPERTY(EditAnywhere, BlueprintReadWrite, Category = "Sinew|Rendering", meta = (ClampMin = "1", UIMax = "100", EditCondition = "DrawMode == ESinewFluidDrawMode::Ellipsoids"))
	float EllipsoidMaxRatio = 4.0f;

	/** Ellipsoids: radius of a particle with few neighbours (a drop) as a fraction of the radius inside the water (k_n). */
	UPROPERTY(EditAnywhere, BlueprintReadWrite, Category = "Sinew|Rendering", meta = (ClampMin = "0", UIMax = "10", EditCondition = "DrawMode == ESinewFluidDrawMode::Ellipsoids"))
	float IsolatedScale = 0.5f;

	/** Diameter of the instanced mesh at scale 1, cm (the engine's sphere: 100). */
	UPROPERTY(EditAnywhere, BlueprintReadWrite, Category = "Sinew|Rendering", meta = (ClampMin = "0.001", UIMin = "1", UIMax = "200", Units = "cm"))
	float MeshDiameter = 100.0f;

	/** Speed written as 1 into per-instance custom data 0 (0 at rest), cm/s. */
	UPROPERTY(EditAnywhere, BlueprintReadWrite, Category = "Sinew|Rendering", meta = (ClampMin = "0.001", UIMin = "10", UIMax = "2000", Units = "cm/s"))
	float FastSpeed = 300.0f;

	/** Spawns spray, foam and bubbles where fast water traps air or breaks at a crest (Ihmsen et al. 2012); render state only: the water moves the same without them. Applies in place (ApplySettings). */
	UPROPERTY(EditAnywhere, BlueprintReadWrite, BlueprintSetter = SetDiffuseEnabled, Category = "Sinew|Diffuse")
	bool bDiffuse = false;

	/** Diffuse particles reserved (a full set spawns no more); a new value starts them afresh. */
	UPROPERTY(EditAnywhere, BlueprintReadWrite, Category = "Sinew|Diffuse", meta = (ClampMin = "1", UIMax = "65536"))
	int32 DiffuseCapacity = 4096;

	/** Seconds each diffuse particle lives. */
	UPROPERTY(EditAnywhere, BlueprintReadWrite, Category = "Sinew|Diffuse", meta = (ClampMin = "0", UIMin = "0.01", UIMax = "60", Units = "s"))
	float DiffuseLifetime = 2.0f;

	/** Diffuse particles per fluid particle per second at full potential (trapped air and wave crests each). */
	UPROPERTY(EditAnywhere, BlueprintReadWrite, Category = "Sinew|Diffuse", meta = (ClampMin = "0", UIMax = "1000"))
	float DiffuseRate = 50.0f;

	/** Water slower than this spawns none (kinetic energy 1/2 v^2 from there, full at ten times it), cm/s. The library's default is 316 cm/s; a small tank wants about 150. */
	UPROPERTY(EditAnywhere, BlueprintReadWrite, Category = "Sinew|Diffuse", meta = (ClampMin = "0", UIMax = "2000", Units = "cm/s"))
	float DiffuseMinSpeed = 316.0f;

	/** Diffuse instance diameter as a multiple of Spacing (DiffuseInstances' mesh of MeshDiameter). */
	UPROPERTY(EditAnywhere, BlueprintReadWrite, Category = "Sinew|Diffuse", meta = (ClampMin = "0", UIMax = "2"))
	float DiffuseSize = 0.35f;

	/** The instanced mesh component (on the same actor) that draws the diffuse particles: one instance per particle, world space, its opacity (spray 0.9, foam 1, bubbles 0.5, fading over its last 0.3 s) as custom data 0. None: they are simulated but not drawn. */
	UPROPERTY(EditAnywhere, BlueprintReadWrite, Category = "Sinew|Diffuse")
	TObjectPtr<UInstancedStaticMeshComponent> DiffuseInstances = nullptr;

	/** Turns the diffuse particles on or off in place (ApplySettings). */
	UFUNCTION(BlueprintCallable, Category = "Sinew|Diffuse")
	void SetDiffuseEnabled(bool bEnabled);

	/** Live diffuse particles after the last step (0 while off). */
	UFUNCTION(BlueprintPure, Category = "Sinew|Diffuse")
	int32 GetDiffuseCount() const { return DrawnDiffuseCount; }

	/** Sets the rest density (kg/m³) in place, from the next step on. */
	UFUNCTION(BlueprintCallable, Category = "Sinew|Fluid")
	void SetRestDensity(float NewRestDensity);

	/** Sets the XSPH viscosity in place, from the next step on. */
	UFUNCTION(BlueprintCallable, Category = "Sinew|Fluid")
	void SetViscosity(float NewViscosity);

	/** Sets this component's emitter rate (particles/s) in place; 0 pauses it. */
	UFUNCTION(BlueprintCallable, Category = "Sinew|Emitter")
	void SetEmitterRate(float NewRate);

	/**
	 * Applies every fluid setting (all but Spacing and Capacity) and this component's
	 * emitter in place, from the next step on (the setters and the details panel call it).
	 * False (logged) when the library refused a value; the fluid keeps its previous ones.
	 */
	UFUNCTION(BlueprintCallable, Category = "Sinew|Fluid")
	bool ApplySettings();

	/**
	 * Emits particles at Locations (cm, world) with Velocities (cm/s; empty = at rest, else
	 * one per location), all or none. Returns the index of the first new live particle,
	 * or -1 (logged) when they do not fit in the free capacity or a value is refused.
	 */
	UFUNCTION(BlueprintCallable, Category = "Sinew|Fluid")
	int32 Emit(const TArray<FVector>& Locations, const TArray<FVector>& Velocities);

	/** Removes every live particle (the reserved capacity stays). */
	UFUNCTION(BlueprintCallable, Category = "Sinew|Fluid")
	void Clear();

	/** Adds an emitter of this fluid; returns its handle (> 0), or 0 when refused (logged). */
	UFUNCTION(BlueprintCallable, Category = "Sinew|Emitter")
	int32 AddEmitter(const FSinewFluidEmitter& Emitter);

	/** Moves or retunes an emitter from AddEmitter in place. */
	UFUNCTION(BlueprintCallable, Category = "Sinew|Emitter")
	bool SetEmitter(int32 Handle, const FSinewFluidEmitter& Emitter);

	/** Removes an emitter from AddEmitter. */
	UFUNCTION(BlueprintCallable, Category = "Sinew|Emitter")
	bool RemoveEmitter(int32 Handle);

	/** Adds a kill volume; returns its handle (> 0), or 0 when refused (logged). */
	UFUNCTION(BlueprintCallable, Category = "Sinew|Kill Volumes")
	int32 AddKillVolume(const FSinewKillVolume& Volume);

	/** Removes a kill volume from AddKillVolume. */
	UFUNCTION(BlueprintCallable, Category = "Sinew|Kill Volumes")
	bool RemoveKillVolume(int32 Handle);

	/** Counters and density figures (zeros while not simulating). */
	UFUNCTION(BlueprintPure, Category = "Sinew|Fluid")
	FSinewFluidStats GetStats() const;

	/**
	 * Turns the two-way coupling of a Sinew rope or cloth component's body with every
	 * fluid on or off (on by default for particles with a collision radius). False when
	 * Body is not a simulating Sinew body component.
	 */
	UFUNCTION(BlueprintCallable, Category = "Sinew|Fluid")
	bool SetBodyFluidCoupling(USceneComponent* Body, bool bCoupled);

	/** The force (N, world axes) the fluids exerted on a Sinew body component in the last substep: buoyancy plus drag. Zero when it is not simulating. */
	UFUNCTION(BlueprintPure, Category = "Sinew|Fluid")
	FVector GetBodyFluidForce(USceneComponent* Body) const;

	/** The live particles' positions (cm, world; interpolated as drawn) and velocities (cm/s), as last drawn. */
	UFUNCTION(BlueprintCallable, Category = "Sinew|Fluid")
	int32 ReadParticles(TArray<FVector>& OutLocations, TArray<FVector>& OutVelocities) const;

	/** True while the fluid is in the world's simulation. */
	UFUNCTION(BlueprintPure, Category = "Sinew|Fluid")
	bool IsSimulating() const { return bSimulating; }

	virtual void BeginPlay() override;
	virtual void EndPlay(const EEndPlayReason::Type EndPlayReason) override;

	virtual void PreSinewStep(USinewWorldSubsystem& InSubsystem) override;
	virtual void PostSinewStep(USinewWorldSubsystem& InSubsystem) override;
	virtual USceneComponent* GetSinewComponent() override { return this; }
	virtual bool ReadSinewParticles(USinewWorldSubsystem& InSubsystem, FSinewParticleReadback& Out) override;

#if WITH_EDITOR
	virtual void PostEditChangeProperty(FPropertyChangedEvent& PropertyChangedEvent) override;
#endif

private:
	/** Adds the fluid, its emitter and kill volumes to the subsystem's simulation (BeginPlay). */
	void JoinSimulation(USinewWorldSubsystem& Sub);
	/** Removes the fluid (EndPlay). */
	void LeaveSimulation();
	/** The fluid's settings from the properties (SI). */
	sinew::FluidDesc MakeDesc() const;
	/** The anisotropy readback's settings from the properties. */
	sinew::AnisotropyDesc MakeAnisotropyDesc() const;
	/** The diffuse particles' settings from the properties (SI; capacity 0 while off). */
	sinew::DiffuseDesc MakeDiffuseDesc() const;
	/** Sets the diffuse particles when their settings changed (recorded in AppliedDiffuse on success). */
	bool SyncDiffuse();
	/** Writes the diffuse particles into DiffuseInstances (PostSinewStep). */
	void DrawDiffuse();
	/** Makes Instances hold exactly Transforms (tail removal, in-place update, additions). */
	void SetInstances(UInstancedStaticMeshComponent& Instances, const TArray<FTransform>& Transforms);
	/** This component's emitter at its transform (SI). */
	FSinewFluidEmitter OwnEmitter() const;
	/** The library's desc of an emitter; false when its shape is None. */
	bool MakeEmitterDesc(const FSinewFluidEmitter& Emitter, sinew::EmitterDesc& Out) const;
	/** The library's desc of a kill volume. */
	sinew::KillVolumeDesc MakeKillVolumeDesc(const FSinewKillVolume& Volume) const;
	/** This component's emitter, added, moved or removed to match the properties and transform (recorded in AppliedEmitter, refused or not). */
	bool SyncOwnEmitter();
	/** Whether two emitters differ in anything the library sees. */
	static bool Differ(const FSinewFluidEmitter& A, const FSinewFluidEmitter& B);
	/** The sinew::Scene of the world while simulating, else null. */
	sinew::Scene* SimScene() const;
	/** The sinew::Scene body id of a simulating Sinew body component, or 0. */
	uint32 BodyOf(const USceneComponent* Body) const;
	void LogFailure(const sinew::Error& Error) const;

	UPROPERTY(Transient)
	TWeakObjectPtr<USinewWorldSubsystem> Subsystem;

	bool bSimulating = false;
	sinew::Fluid Fluid;                       // the library's handle (no ownership: LeaveSimulation removes it)
	sinew::Emitter OwnEmitterHandle;          // this component's emitter (invalid = none)
	FSinewFluidEmitter AppliedEmitter;        // what OwnEmitterHandle was last set to
	std::vector<sinew::Emitter> Emitters;     // AddEmitter's, by handle - 1 (invalid = removed)
	std::vector<sinew::KillVolume> Volumes;   // AddKillVolume's and KillVolumes', by handle - 1
	float AppliedSpacing = 0.0f;              // m, as the fluid was built
	uint32 AppliedCapacity = 0;               // as the fluid was built
	std::vector<FVector3f> SimPositions;      // scratch: m, simulation space, one per reserved particle
	std::vector<FVector3f> SimVelocities;     // scratch: m/s
	std::vector<SinewFluidEllipsoid> SimEllipsoids; // scratch: one per reserved particle (Ellipsoids)
	std::vector<SinewDiffuseParticle> SimDiffuse;   // scratch: one per reserved diffuse particle
	SinewDiffuseDesc AppliedDiffuse{};        // the diffuse settings last set (capacity 0: none)
	TArray<FTransform> InstanceTransforms;    // scratch: this frame's instances, world space
	TArray<FTransform> SplitTransforms;       // scratch: the kept or the added part of InstanceTransforms
	TArray<int32> TailInstances;              // scratch: instances past the live count, to remove
	int32 DrawnCount = 0;                     // live particles in the last PostSinewStep
	int32 DrawnDiffuseCount = 0;              // diffuse particles in the last PostSinewStep
};

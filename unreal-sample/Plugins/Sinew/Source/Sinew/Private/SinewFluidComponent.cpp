#include "SinewFluidComponent.h"

#include "Engine/World.h"
#include "SinewConversions.h"
#include "SinewFluidInstances.h"
#include "SinewModule.h"
#include "UObject/ConstructorHelpers.h"

#include <cmath>
#include <cstring>
#include <limits>

USinewFluidComponent::USinewFluidComponent(const FObjectInitializer& ObjectInitializer)
	: Super(ObjectInitializer)
{
	PrimaryComponentTick.bCanEverTick = false; // stepped by USinewWorldSubsystem
	SetCollisionEnabled(ECollisionEnabled::NoCollision);
	Mobility = EComponentMobility::Movable; // the instances move every frame
	NumCustomDataFloats = 1; // per-instance custom data 0: the particle's speed, 0..1 of FastSpeed
	CastShadow = true;
	// The engine's sphere (100 cm across, MeshDiameter's default) until another is set.
	static ConstructorHelpers::FObjectFinder<UStaticMesh> Sphere(TEXT("/Engine/BasicShapes/Sphere.Sphere"));
	if (Sphere.Succeeded())
	{
		SetStaticMesh(Sphere.Object);
	}
}

void USinewFluidComponent::BeginPlay()
{
	Super::BeginPlay();
	USinewWorldSubsystem* Sub = GetWorld() ? GetWorld()->GetSubsystem<USinewWorldSubsystem>() : nullptr;
	if (!Sub || !Sub->GetScene())
	{
		UE_LOG(LogSinew, Warning, TEXT("%s: no Sinew simulation in this world (library unavailable?)"), *GetPathName());
		return;
	}
	JoinSimulation(*Sub);
}

void USinewFluidComponent::EndPlay(const EEndPlayReason::Type EndPlayReason)
{
	LeaveSimulation();
	Super::EndPlay(EndPlayReason);
}

sinew::FluidDesc USinewFluidComponent::MakeDesc() const
{
	sinew::FluidDesc D;
	// BEGIN GENERATED FluidDesc copy
	D.rest_density = RestDensity;
	D.spacing = SinewUE::LengthToSim(Spacing);
	D.smoothing_radius = SinewUE::LengthToSim(SmoothingRadius);
	D.capacity = (uint32)Capacity;
	D.relaxation = Relaxation;
	D.scorr_k = ArtificialPressure;
	D.scorr_n = (uint32)ArtificialPressureExponent;
	D.scorr_dq = ArtificialPressureDistance;
	D.viscosity = Viscosity;
	D.vorticity = Vorticity;
	D.cohesion = Cohesion;
	D.adhesion = Adhesion;
	D.collision_radius = SinewUE::LengthToSim(CollisionRadius);
	D.lifetime = Lifetime;
	D.recycle_oldest = bRecycleOldest ? 1u : 0u;
	D.coupling_mask = (uint32)CouplingMask;
	D.solve_rate = SolveRate;
	// END GENERATED FluidDesc copy
	return D;
}

FSinewFluidEmitter USinewFluidComponent::OwnEmitter() const
{
	FSinewFluidEmitter E;
	E.Shape = EmitterShape;
	E.Transform = GetComponentTransform();
	E.NozzleRadius = NozzleRadius;
	E.BoxExtent = BoxExtent;
	E.Speed = EmitterSpeed;
	E.Rate = EmitterRate;
	return E;
}

bool USinewFluidComponent::MakeEmitterDesc(const FSinewFluidEmitter& Emitter, sinew::EmitterDesc& Out) const
{
	if (Emitter.Shape == ESinewFluidEmitterShape::None)
	{
		return false;
	}
	const USinewWorldSubsystem* Sub = Subsystem.Get();
	const sinew::units::Frame Frame = Sub ? Sub->GetFrame() : sinew::units::Frame();
	Out = sinew::EmitterDesc();
	Out.shape = Emitter.Shape == ESinewFluidEmitterShape::Box ? SINEW_EMITTER_BOX : SINEW_EMITTER_NOZZLE;
	Out.radius = SinewUE::LengthToSim(Emitter.NozzleRadius);
	Out.position = SinewUE::ToSim(Frame, Emitter.Transform.GetLocation());
	// The library's emitter pours along its local +Z; this one along the transform's +X:
	// the library's frame is the transform's turned 90 degrees about Y, whose local X, Y,
	// Z axes lie along the transform's -Z, Y, X, so the box's half extents swap X and Z.
	Out.rotation = SinewUE::ForwardToZ(Emitter.Transform.GetRotation());
	Out.half_extents = SinewUE::ExtentToSim(FVector(Emitter.BoxExtent.Z, Emitter.BoxExtent.Y, Emitter.BoxExtent.X));
	Out.speed = SinewUE::LengthToSim(Emitter.Speed);
	Out.rate = Emitter.Rate;
	return true;
}

sinew::KillVolumeDesc USinewFluidComponent::MakeKillVolumeDesc(const FSinewKillVolume& Volume) const
{
	const USinewWorldSubsystem* Sub = Subsystem.Get();
	const sinew::units::Frame Frame = Sub ? Sub->GetFrame() : sinew::units::Frame();
	sinew::KillVolumeDesc D;
	D.center = SinewUE::ToSim(Frame, Volume.Transform.GetLocation());
	switch (Volume.Shape)
	{
	case ESinewKillVolumeShape::Box:
		D.shape = SINEW_KILL_VOLUME_BOX;
		D.rotation = SinewUE::Rotation(Volume.Transform.GetRotation());
		D.half_extents = SinewUE::ExtentToSim(Volume.Extent);
		break;
	case ESinewKillVolumeShape::Sphere:
		D.shape = SINEW_KILL_VOLUME_SPHERE;
		D.radius = SinewUE::LengthToSim(Volume.Radius);
		break;
	case ESinewKillVolumeShape::Below:
		D.shape = SINEW_KILL_VOLUME_HALF_SPACE;
		D.normal = SinewUE::Direction(Volume.Transform.TransformVectorNoScale(FVector(0.0, 0.0, 1.0)));
		break;
	}
	return D;
}

void USinewFluidComponent::JoinSimulation(USinewWorldSubsystem& Sub)
{
	sinew::Scene* Scene = Sub.GetScene();
	if (!Scene || bSimulating)
	{
		return;
	}
	const sinew::FluidDesc Desc = MakeDesc();
	sinew::Result<sinew::Fluid> Added = Scene->world().add_fluid(Desc);
	if (!Added)
	{
		LogFailure(Added.error());
		return;
	}
	Fluid = *Added;
	Subsystem = &Sub;
	bSimulating = true;
	AppliedSpacing = Desc.spacing;
	AppliedCapacity = Desc.capacity;
	SimPositions.assign(Desc.capacity, FVector3f());
	SimVelocities.assign(Desc.capacity, FVector3f());
	SimEllipsoids.assign(Desc.capacity, SinewFluidEllipsoid{});
	AppliedDiffuse = sinew::DiffuseDesc(); // capacity 0: a new fluid has none
	SimDiffuse.clear();
	SyncDiffuse();
	OwnEmitterHandle = sinew::Emitter();
	Emitters.clear();
	Volumes.clear();
	SyncOwnEmitter();
	for (const FSinewKillVolume& Volume : KillVolumes)
	{
		AddKillVolume(Volume);
	}
	Sub.Register(this);
}

void USinewFluidComponent::LeaveSimulation()
{
	if (USinewWorldSubsystem* Sub = Subsystem.Get())
	{
		Sub->Unregister(this);
		if (sinew::Scene* Scene = Sub->GetScene(); Scene && bSimulating)
		{
			(void)Fluid.remove(); // its particles go inert (no other index shifts); its emitters and kill volumes go with it
		}
	}
	bSimulating = false;
	Fluid = sinew::Fluid();
	OwnEmitterHandle = sinew::Emitter();
	Emitters.clear();
	Volumes.clear();
	DrawnCount = 0;
	DrawnDiffuseCount = 0;
	ClearInstances();
	if (DiffuseInstances)
	{
		DiffuseInstances->ClearInstances();
	}
	Subsystem.Reset();
}

sinew::AnisotropyDesc USinewFluidComponent::MakeAnisotropyDesc() const
{
	// The library's ranges (generated limits): a value typed past the sliders is
	// clamped, never refused.
	const float MaxScale = static_cast<float>(SINEW_MAX_ELLIPSOID_SCALE);
	sinew::AnisotropyDesc Desc;
	Desc.with_scale(FMath::Clamp(EllipsoidScale, std::numeric_limits<float>::min(), MaxScale))
		.with_smoothing(FMath::Clamp(EllipsoidSmoothing, 0.0f, 1.0f))
		.with_max_ratio(FMath::Clamp(EllipsoidMaxRatio, 1.0f, static_cast<float>(SINEW_MAX_ELLIPSOID_RATIO)))
		.with_isolated_scale(FMath::Clamp(IsolatedScale, 0.0f, MaxScale));
	return Desc;
}

sinew::DiffuseDesc USinewFluidComponent::MakeDiffuseDesc() const
{
	sinew::DiffuseDesc Desc;
	const double MinSpeed = sinew::units::length_to_sim(FMath::Max(DiffuseMinSpeed, 0.0f)); // m/s
	// Full potential at ten times the threshold's energy, which stays within the limit.
	const float EnergyMin = FMath::Min((float)(0.5 * MinSpeed * MinSpeed),
		static_cast<float>(SINEW_MAX_DIFFUSE_ENERGY) / 10.0f); // J/kg
	const float Rate = FMath::Clamp(DiffuseRate, 0.0f, static_cast<float>(SINEW_MAX_DIFFUSE_RATE));
	const float Lifetime = FMath::Clamp(DiffuseLifetime, std::numeric_limits<float>::min(),
		static_cast<float>(SINEW_MAX_FLUID_LIFETIME));
	const int32 Capacity = FMath::Clamp(DiffuseCapacity, 0, static_cast<int32>(SINEW_MAX_FLUID_CAPACITY));
	Desc.with_capacity(bDiffuse ? static_cast<uint32>(Capacity) : 0u)
		.with_lifetime(Lifetime)
		.with_trapped_air_rate(Rate)
		.with_wave_crest_rate(Rate)
		.with_energy_min(EnergyMin)
		.with_energy_max(10.0f * EnergyMin);
	return Desc;
}

bool USinewFluidComponent::SyncDiffuse()
{
	if (!SimScene())
	{
		return false;
	}
	const sinew::DiffuseDesc Wanted = MakeDiffuseDesc();
	const SinewDiffuseDesc& W = Wanted;
	// Off stays off whatever the other fields say (capacity 0 in both).
	if (std::memcmp(&W, &AppliedDiffuse, sizeof(SinewDiffuseDesc)) == 0 || (W.capacity == 0 && AppliedDiffuse.capacity == 0))
	{
		return true;
	}
	const sinew::Result<void> Set = Fluid.set_diffuse(Wanted);
	if (!Set)
	{
		LogFailure(Set.error());
		return false;
	}
	AppliedDiffuse = W;
	SimDiffuse.assign(W.capacity, SinewDiffuseParticle{}); // only when the capacity is set, never per frame
	return true;
}

void USinewFluidComponent::SetDiffuseEnabled(bool bEnabled)
{
	bDiffuse = bEnabled;
	ApplySettings();
}

void USinewFluidComponent::SetInstances(UInstancedStaticMeshComponent& Instances, const TArray<FTransform>& Transforms)
{
	const int32 N = Transforms.Num();
	const int32 Have = Instances.GetInstanceCount();
	if (Have > N)
	{
		TailInstances.Reset();
		for (int32 i = Have - 1; i >= N; --i)
		{
			TailInstances.Add(i);
		}
		Instances.RemoveInstances(TailInstances);
	}
	// The kept instances move in place, the missing ones are added (through a scratch
	// array that keeps its room from frame to frame).
	const int32 Kept = FMath::Min(Have, N);
	if (Kept == N && N > 0)
	{
		Instances.BatchUpdateInstancesTransforms(0, Transforms, /*bWorldSpace=*/true, /*bMarkRenderStateDirty=*/false, /*bTeleport=*/true);
		return;
	}
	if (Kept > 0)
	{
		SplitTransforms.Reset();
		for (int32 i = 0; i < Kept; ++i)
		{
			SplitTransforms.Add(Transforms[i]);
		}
		Instances.BatchUpdateInstancesTransforms(0, SplitTransforms, /*bWorldSpace=*/true, /*bMarkRenderStateDirty=*/false, /*bTeleport=*/true);
	}
	if (N > Kept)
	{
		SplitTransforms.Reset();
		for (int32 i = Kept; i < N; ++i)
		{
			SplitTransforms.Add(Transforms[i]);
		}
		Instances.AddInstances(SplitTransforms, /*bShouldReturnIndices=*/false, /*bWorldSpace=*/true);
	}
}

void USinewFluidComponent::DrawDiffuse()
{
	DrawnDiffuseCount = 0;
	if (AppliedDiffuse.capacity == 0 || SimDiffuse.empty())
	{
		if (DiffuseInstances && DiffuseInstances->GetInstanceCount() > 0)
		{
			DiffuseInstances->ClearInstances();
		}
		return;
	}
	const sinew::Result<uint32_t> Read = Fluid.read_diffuse(sinew::Span<SinewDiffuseParticle>(SimDiffuse));
	if (!Read)
	{
		LogFailure(Read.error());
		return;
	}
	DrawnDiffuseCount = (int32)*Read;
	if (!DiffuseInstances)
	{
		return;
	}
	USinewWorldSubsystem* Sub = Subsystem.Get();
	const sinew::units::Frame& Frame = Sub->GetFrame();
	const double Scale = (double)FMath::Max(DiffuseSize, 0.0f) * (double)Spacing / (double)FMath::Max(MeshDiameter, 0.001f);
	InstanceTransforms.Reset();
	for (int32 i = 0; i < DrawnDiffuseCount; ++i)
	{
		InstanceTransforms.Add(FTransform(FQuat::Identity, SinewUE::FromSim(Frame, SimDiffuse[(size_t)i].position), FVector(Scale, Scale, Scale)));
	}
	SetInstances(*DiffuseInstances, InstanceTransforms);
	if (DiffuseInstances->NumCustomDataFloats >= 1)
	{
		for (int32 i = 0; i < DrawnDiffuseCount; ++i)
		{
			DiffuseInstances->SetCustomDataValue(i, 0, SinewUE::DiffuseOpacity(SimDiffuse[(size_t)i], 0.3f), /*bMarkRenderStateDirty=*/false);
		}
	}
	DiffuseInstances->MarkRenderStateDirty();
}

sinew::Scene* USinewFluidComponent::SimScene() const
{
	USinewWorldSubsystem* Sub = Subsystem.Get();
	sinew::Scene* Scene = Sub ? Sub->GetScene() : nullptr;
	return (Scene && bSimulating) ? Scene : nullptr;
}

void USinewFluidComponent::LogFailure(const sinew::Error& Error) const
{
	UE_LOG(LogSinew, Warning, TEXT("%s: %s"), *GetPathName(), UTF8_TO_TCHAR(Error.message.c_str()));
}

bool USinewFluidComponent::SyncOwnEmitter()
{
	if (!SimScene())
	{
		return false;
	}
	const FSinewFluidEmitter Wanted = OwnEmitter();
	AppliedEmitter = Wanted; // a refused emitter is tried again when it changes, not every step
	sinew::EmitterDesc Desc;
	if (!MakeEmitterDesc(Wanted, Desc))
	{
		if (OwnEmitterHandle.valid())
		{
			(void)OwnEmitterHandle.remove();
			OwnEmitterHandle = sinew::Emitter();
		}
		return true;
	}
	if (!OwnEmitterHandle.valid())
	{
		sinew::Result<sinew::Emitter> Added = Fluid.add_emitter(Desc);
		if (!Added)
		{
			LogFailure(Added.error());
			return false;
		}
		OwnEmitterHandle = *Added;
		return true;
	}
	const sinew::Result<void> Set = OwnEmitterHandle.set(Desc);
	if (!Set)
	{
		LogFailure(Set.error());
		return false;
	}
	return true;
}

bool USinewFluidComponent::ApplySettings()
{
	if (!SimScene())
	{
		return false;
	}
	sinew::FluidDesc Desc = MakeDesc();
	// Spacing and capacity size the reserved particles: they stay as the fluid was built.
	Desc.spacing = AppliedSpacing;
	Desc.capacity = AppliedCapacity;
	const sinew::Result<void> Set = Fluid.set_desc(Desc);
	if (!Set)
	{
		LogFailure(Set.error());
		return false;
	}
	const bool bDiffuseSet = SyncDiffuse();
	return SyncOwnEmitter() && bDiffuseSet;
}

void USinewFluidComponent::SetRestDensity(float NewRestDensity)
{
	RestDensity = NewRestDensity;
	ApplySettings();
}

void USinewFluidComponent::SetViscosity(float NewViscosity)
{
	Viscosity = NewViscosity;
	ApplySettings();
}

void USinewFluidComponent::SetEmitterRate(float NewRate)
{
	EmitterRate = NewRate;
	SyncOwnEmitter();
}

int32 USinewFluidComponent::Emit(const TArray<FVector>& Locations, const TArray<FVector>& Velocities)
{
	if (!SimScene())
	{
		return -1;
	}
	if (Velocities.Num() != 0 && Velocities.Num() != Locations.Num())
	{
		UE_LOG(LogSinew, Warning, TEXT("%s: Emit: %d velocities for %d locations (give none or one each)"), *GetPathName(), Velocities.Num(), Locations.Num());
		return -1;
	}
	const sinew::units::Frame& Frame = Subsystem.Get()->GetFrame();
	std::vector<sinew::Vec3> P((size_t)Locations.Num());
	std::vector<sinew::Vec3> V((size_t)Velocities.Num());
	for (int32 i = 0; i < Locations.Num(); ++i)
	{
		P[(size_t)i] = SinewUE::ToSim(Frame, Locations[i]);
	}
	for (int32 i = 0; i < Velocities.Num(); ++i)
	{
		V[(size_t)i] = SinewUE::VelocityToSim(Velocities[i]);
	}
	const sinew::Result<uint32_t> First = Fluid.emit(sinew::Span<const sinew::Vec3>(P), sinew::Span<const sinew::Vec3>(V));
	if (!First)
	{
		LogFailure(First.error());
		return -1;
	}
	return (int32)*First;
}

void USinewFluidComponent::Clear()
{
	if (SimScene())
	{
		const sinew::Result<void> Cleared = Fluid.clear();
		if (!Cleared)
		{
			LogFailure(Cleared.error());
		}
	}
}

int32 USinewFluidComponent::AddEmitter(const FSinewFluidEmitter& Emitter)
{
	sinew::EmitterDesc Desc;
	if (!SimScene() || !MakeEmitterDesc(Emitter, Desc))
	{
		return 0;
	}
	sinew::Result<sinew::Emitter> Added = Fluid.add_emitter(Desc);
	if (!Added)
	{
		LogFailure(Added.error());
		return 0;
	}
	Emitters.push_back(*Added);
	return (int32)Emitters.size();
}

bool USinewFluidComponent::SetEmitter(int32 Handle, const FSinewFluidEmitter& Emitter)
{
	sinew::EmitterDesc Desc;
	if (!SimScene() || Handle < 1 || (size_t)Handle > Emitters.size() || !Emitters[(size_t)Handle - 1].valid())
	{
		return false;
	}
	if (!MakeEmitterDesc(Emitter, Desc))
	{
		return RemoveEmitter(Handle); // shape None: no emitter
	}
	const sinew::Result<void> Set = Emitters[(size_t)Handle - 1].set(Desc);
	if (!Set)
	{
		LogFailure(Set.error());
		return false;
	}
	return true;
}

bool USinewFluidComponent::RemoveEmitter(int32 Handle)
{
	if (!SimScene() || Handle < 1 || (size_t)Handle > Emitters.size() || !Emitters[(size_t)Handle - 1].valid())
	{
		return false;
	}
	const sinew::Result<void> Removed = Emitters[(size_t)Handle - 1].remove();
	Emitters[(size_t)Handle - 1] = sinew::Emitter();
	return (bool)Removed;
}

int32 USinewFluidComponent::AddKillVolume(const FSinewKillVolume& Volume)
{
	if (!SimScene())
	{
		return 0;
	}
	sinew::Result<sinew::KillVolume> Added = Fluid.add_kill_volume(MakeKillVolumeDesc(Volume));
	if (!Added)
	{
		LogFailure(Added.error());
		return 0;
	}
	Volumes.push_back(*Added);
	return (int32)Volumes.size();
}

bool USinewFluidComponent::RemoveKillVolume(int32 Handle)
{
	if (!SimScene() || Handle < 1 || (size_t)Handle > Volumes.size() || !Volumes[(size_t)Handle - 1].valid())
	{
		return false;
	}
	const sinew::Result<void> Removed = Volumes[(size_t)Handle - 1].remove();
	Volumes[(size_t)Handle - 1] = sinew::KillVolume();
	return (bool)Removed;
}

FSinewFluidStats USinewFluidComponent::GetStats() const
{
	FSinewFluidStats Out;
	if (!SimScene())
	{
		return Out;
	}
	const sinew::Result<sinew::FluidStats> S = Fluid.stats();
	if (!S)
	{
		LogFailure(S.error());
		return Out;
	}
	Out.Count = (int32)S->count;
	Out.Capacity = (int32)S->capacity;
	Out.Emitted = (int64)S->emitted;
	Out.Removed = (int64)S->removed;
	Out.Refused = (int64)S->refused;
	Out.MeanDensityRatio = S->mean_density_ratio;
	Out.MaxDensityRatio = S->max_density_ratio;
	return Out;
}

uint32 USinewFluidComponent::BodyOf(const USceneComponent* Body) const
{
	const USinewWorldSubsystem* Sub = Subsystem.Get();
	return Sub ? Sub->GetSinewBodyOf(Body) : 0;
}

bool USinewFluidComponent::SetBodyFluidCoupling(USceneComponent* Body, bool bCoupled)
{
	sinew::Scene* Scene = SimScene();
	const uint32 Id = BodyOf(Body);
	if (!Scene || Id == 0)
	{
		return false;
	}
	const sinew::Result<void> Set = Scene->set_fluid_coupling(Id, bCoupled);
	if (!Set)
	{
		LogFailure(Set.error());
		return false;
	}
	return true;
}

FVector USinewFluidComponent::GetBodyFluidForce(USceneComponent* Body) const
{
	sinew::Scene* Scene = SimScene();
	const uint32 Id = BodyOf(Body);
	if (!Scene || Id == 0)
	{
		return FVector::ZeroVector;
	}
	const sinew::Result<sinew::Vec3> Force = Scene->fluid_force(Id);
	if (!Force)
	{
		LogFailure(Force.error());
		return FVector::ZeroVector;
	}
	// Newtons are SI on both sides; the axes are not swapped.
	return FVector((double)Force->x, (double)Force->y, (double)Force->z);
}

int32 USinewFluidComponent::ReadParticles(TArray<FVector>& OutLocations, TArray<FVector>& OutVelocities) const
{
	OutLocations.Reset();
	OutVelocities.Reset();
	const USinewWorldSubsystem* Sub = Subsystem.Get();
	if (!Sub || !bSimulating)
	{
		return 0;
	}
	OutLocations.Reserve(DrawnCount);
	OutVelocities.Reserve(DrawnCount);
	for (int32 i = 0; i < DrawnCount; ++i)
	{
		const FVector3f& P = SimPositions[(size_t)i];
		const FVector3f& V = SimVelocities[(size_t)i];
		OutLocations.Add(SinewUE::FromSim(Sub->GetFrame(), sinew::Vec3{P.X, P.Y, P.Z}));
		OutVelocities.Add(SinewUE::VelocityFromSim(sinew::Vec3{V.X, V.Y, V.Z}));
	}
	return DrawnCount;
}

bool USinewFluidComponent::Differ(const FSinewFluidEmitter& A, const FSinewFluidEmitter& B)
{
	return A.Shape != B.Shape || !A.Transform.Equals(B.Transform, 0.0) || A.NozzleRadius != B.NozzleRadius || A.BoxExtent != B.BoxExtent ||
		A.Speed != B.Speed || A.Rate != B.Rate;
}

void USinewFluidComponent::PreSinewStep(USinewWorldSubsystem& Sub)
{
	// The emitter follows the component (moved by gameplay or an attachment parent).
	if (bSimulating && Differ(OwnEmitter(), AppliedEmitter))
	{
		SyncOwnEmitter();
	}
}

bool USinewFluidComponent::ReadSinewParticles(USinewWorldSubsystem& Sub, FSinewParticleReadback& Out)
{
	Out.Count = 0;
	Out.Ellipsoids.clear();
	if (!SimScene())
	{
		Out.DensityRatios.clear();
		return false;
	}
	// Room for every reserved particle: the live count never exceeds it.
	Out.Positions.resize(AppliedCapacity);
	Out.Velocities.resize(AppliedCapacity);
	Out.DensityRatios.resize(AppliedCapacity);
	const sinew::Result<uint32_t> Read = Fluid.read_particles(Sub.GetInterpolationAlpha(), sinew::Span<FVector3f>(Out.Positions), sinew::Span<FVector3f>(Out.Velocities), sinew::Span<float>(Out.DensityRatios));
	if (!Read)
	{
		LogFailure(Read.error());
		return false;
	}
	if (Out.bWantEllipsoids)
	{
		Out.Ellipsoids.resize(AppliedCapacity);
		const sinew::Result<uint32_t> Shaped = Fluid.read_anisotropy(MakeAnisotropyDesc(), Sub.GetInterpolationAlpha(), sinew::Span<SinewFluidEllipsoid>(Out.Ellipsoids));
		if (!Shaped)
		{
			LogFailure(Shaped.error());
			Out.Ellipsoids.clear();
			return false;
		}
	}
	Out.Count = *Read;
	return true;
}

void USinewFluidComponent::PostSinewStep(USinewWorldSubsystem& Sub)
{
	if (!SimScene())
	{
		return;
	}
	// The live particles in slot order, between the last two steps, into the scratch
	// buffers (FVector3f is three packed floats: the library writes them in place).
	const sinew::Result<uint32_t> Read = Fluid.read_particles(Sub.GetInterpolationAlpha(), sinew::Span<FVector3f>(SimPositions), sinew::Span<FVector3f>(SimVelocities));
	if (!Read)
	{
		LogFailure(Read.error());
		return;
	}
	const int32 N = (int32)*Read;
	const sinew::units::Frame& Frame = Sub.GetFrame();
	const bool bShaped = DrawMode == ESinewFluidDrawMode::Ellipsoids;
	if (bShaped)
	{
		// The same particles in the same order, computed now from the last step's neighbours.
		const sinew::Result<uint32_t> Shaped = Fluid.read_anisotropy(MakeAnisotropyDesc(), Sub.GetInterpolationAlpha(), sinew::Span<SinewFluidEllipsoid>(SimEllipsoids));
		if (!Shaped)
		{
			LogFailure(Shaped.error());
			return;
		}
	}
	const double Scale = (double)FMath::Max(ParticleScale, 0.0f) * (double)Spacing / (double)FMath::Max(MeshDiameter, 0.001f);
	const FVector Scale3D(Scale, Scale, Scale);
	const float Fast = SinewUE::LengthToSim(FMath::Max(FastSpeed, 0.001f)); // m/s
	// Instances 0..N-1 are the live particles: the ones past N go, missing ones are added.
	InstanceTransforms.Reset();
	for (int32 i = 0; i < N; ++i)
	{
		if (bShaped)
		{
			InstanceTransforms.Add(SinewUE::EllipsoidTransform(Frame, SimEllipsoids[(size_t)i], MeshDiameter));
		}
		else
		{
			const FVector3f& P = SimPositions[(size_t)i];
			InstanceTransforms.Add(FTransform(FQuat::Identity, SinewUE::FromSim(Frame, sinew::Vec3{P.X, P.Y, P.Z}), Scale3D));
		}
	}
	SetInstances(*this, InstanceTransforms);
	for (int32 i = 0; i < N; ++i)
	{
		const FVector3f& V = SimVelocities[(size_t)i];
		const float Speed = std::sqrt(V.X * V.X + V.Y * V.Y + V.Z * V.Z);
		const float T = std::isfinite(Speed) ? FMath::Min(Speed / Fast, 1.0f) : 1.0f;
		SetCustomDataValue(i, 0, T, /*bMarkRenderStateDirty=*/false);
	}
	DrawnCount = N;
	MarkRenderStateDirty();
	DrawDiffuse();
}

#if WITH_EDITOR
void USinewFluidComponent::PostEditChangeProperty(FPropertyChangedEvent& PropertyChangedEvent)
{
	Super::PostEditChangeProperty(PropertyChangedEvent);
	// While playing: a changed setting or emitter applies in place (Spacing and Capacity
	// wait for the next play).
	if (bSimulating)
	{
		ApplySettings();
	}
}
#endif

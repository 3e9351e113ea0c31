#include "SinewGranularComponent.h"

#include "Engine/World.h"
#include "SinewConversions.h"
#include "SinewModule.h"
#include "UObject/ConstructorHelpers.h"

#include <cstring>

USinewGranularComponent::USinewGranularComponent(const FObjectInitializer& ObjectInitializer)
	: Super(ObjectInitializer)
{
	PrimaryComponentTick.bCanEverTick = false; // stepped by USinewWorldSubsystem
	SetCollisionEnabled(ECollisionEnabled::NoCollision);
	Mobility = EComponentMobility::Movable; // the instances move every frame
	CastShadow = true;
	// The engine's sphere (100 cm across, MeshDiameter's default) until another is set.
	static ConstructorHelpers::FObjectFinder<UStaticMesh> Sphere(TEXT("/Engine/BasicShapes/Sphere.Sphere"));
	if (Sphere.Succeeded())
	{
		SetStaticMesh(Sphere.Object);
	}
}

void USinewGranularComponent::BeginPlay()
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

void USinewGranularComponent::EndPlay(const EEndPlayReason::Type EndPlayReason)
{
	LeaveSimulation();
	Super::EndPlay(EndPlayReason);
}

sinew::EmitterDesc USinewGranularComponent::MakeStream() const
{
	const USinewWorldSubsystem* Sub = Subsystem.Get();
	const sinew::units::Frame Frame = Sub ? Sub->GetFrame() : sinew::units::Frame();
	const FTransform T = GetComponentTransform();
	sinew::EmitterDesc Out;
	Out.shape = EmitterShape == ESinewFluidEmitterShape::Box ? SINEW_EMITTER_BOX : SINEW_EMITTER_NOZZLE;
	Out.radius = SinewUE::LengthToSim(NozzleRadius);
	Out.position = SinewUE::ToSim(Frame, T.GetLocation());
	// The library's emitter pours along its local +Z, this one along +X (as the fluid
	// component's: the box's half extents swap X and Z).
	Out.rotation = SinewUE::ForwardToZ(T.GetRotation());
	Out.half_extents = SinewUE::ExtentToSim(FVector(BoxExtent.Z, BoxExtent.Y, BoxExtent.X));
	const bool bOn = EmitterShape != ESinewFluidEmitterShape::None;
	Out.speed = bOn ? SinewUE::LengthToSim(EmitterSpeed) : 0.0f;
	Out.rate = bOn ? EmitterRate : 0.0f;
	return Out;
}

void USinewGranularComponent::JoinSimulation(USinewWorldSubsystem& Sub)
{
	sinew::Scene* Scene = Sub.GetScene();
	if (!Scene || bSimulating)
	{
		return;
	}
	Subsystem = &Sub;
	const sinew::ParticleMaterial Material = sinew::ParticleMaterial()
		.with_static_friction(StaticFriction)
		.with_dynamic_friction(KineticFriction)
		.with_rolling_friction(RollingFriction)
		.with_cohesion(Cohesion);
	const sinew::GrainEmitterDesc Grains = sinew::GrainEmitterDesc()
		.with_budget((uint32)FMath::Max(Budget, 0))
		.with_grain_radius(SinewUE::LengthToSim(GrainRadius))
		.with_grain_density(GrainDensity)
		.with_layers((uint32)Layers)
		.with_mask((uint32)Mask);
	const sinew::EmitterDesc Stream = MakeStream();
	sinew::Result<SinewGrainEmitter> Added = Scene->world().add_grain_emitter(Grains, Stream, Material);
	if (!Added)
	{
		LogFailure(Added.error());
		Subsystem.Reset();
		return;
	}
	Emitter = *Added;
	AppliedStream = Stream;
	const sinew::Result<SinewGrainEmitterStats> Stats = Scene->world().grain_emitter_stats(Emitter);
	First = Stats ? Stats->first : 0;
	SimPositions.assign(Grains.budget, FVector3f());
	bSimulating = true;
	Sub.Register(this);
}

void USinewGranularComponent::LeaveSimulation()
{
	if (USinewWorldSubsystem* Sub = Subsystem.Get())
	{
		Sub->Unregister(this);
		if (sinew::Scene* Scene = Sub->GetScene(); Scene && bSimulating)
		{
			(void)Scene->world().remove_grain_emitter(Emitter); // its grains stay in the world
		}
	}
	bSimulating = false;
	Emitter = SinewGrainEmitter{};
	DrawnCount = 0;
	ClearInstances();
	Subsystem.Reset();
}

sinew::Scene* USinewGranularComponent::SimScene() const
{
	USinewWorldSubsystem* Sub = Subsystem.Get();
	sinew::Scene* Scene = Sub ? Sub->GetScene() : nullptr;
	return (Scene && bSimulating) ? Scene : nullptr;
}

void USinewGranularComponent::LogFailure(const sinew::Error& Error) const
{
	UE_LOG(LogSinew, Warning, TEXT("%s: %s"), *GetPathName(), UTF8_TO_TCHAR(Error.message.c_str()));
}

bool USinewGranularComponent::ApplyEmitter()
{
	sinew::Scene* Scene = SimScene();
	if (!Scene)
	{
		return false;
	}
	const sinew::EmitterDesc Stream = MakeStream();
	AppliedStream = Stream; // a refused stream is tried again when it changes, not every step
	const sinew::Result<void> Set = Scene->world().set_grain_emitter(Emitter, Stream);
	if (!Set)
	{
		LogFailure(Set.error());
		return false;
	}
	return true;
}

int32 USinewGranularComponent::GetEmittedCount() const
{
	sinew::Scene* Scene = SimScene();
	if (!Scene)
	{
		return 0;
	}
	const sinew::Result<SinewGrainEmitterStats> Stats = Scene->world().grain_emitter_stats(Emitter);
	return Stats ? (int32)Stats->emitted : 0;
}

int32 USinewGranularComponent::ReadGrains(TArray<FVector>& OutLocations) const
{
	OutLocations.Reset();
	for (int32 i = 0; i < DrawnCount; ++i)
	{
		FTransform T;
		if (GetInstanceTransform(i, T, /*bWorldSpace=*/true))
		{
			OutLocations.Add(T.GetLocation());
		}
	}
	return DrawnCount;
}

void USinewGranularComponent::PreSinewStep(USinewWorldSubsystem& Sub)
{
	// The emitter follows the component (moved by gameplay or an attachment parent).
	if (bSimulating)
	{
		const sinew::EmitterDesc Wanted = MakeStream();
		if (std::memcmp(&Wanted, &AppliedStream, sizeof Wanted) != 0)
		{
			ApplyEmitter();
		}
	}
}

bool USinewGranularComponent::ReadSinewParticles(USinewWorldSubsystem& Sub, FSinewParticleReadback& Out)
{
	Out.Count = 0;
	Out.DensityRatios.clear();
	Out.Ellipsoids.clear();
	sinew::Scene* Scene = SimScene();
	if (!Scene)
	{
		return false;
	}
	// The grains poured so far: world particles First, First + 1, ... (the count only grows).
	const uint32 N = (uint32)FMath::Min(GetEmittedCount(), (int32)SimPositions.size());
	Out.Positions.resize(N);
	Out.Velocities.resize(N);
	if (N > 0)
	{
		const sinew::Result<void> Read = Scene->world().read_interpolated_positions(First, Sub.GetInterpolationAlpha(), sinew::Span<FVector3f>(Out.Positions));
		const sinew::Result<void> Moved = Read ? Scene->world().read_velocities(First, sinew::Span<FVector3f>(Out.Velocities)) : Read;
		if (!Moved)
		{
			LogFailure(Moved.error());
			return false;
		}
	}
	Out.Count = N;
	return true;
}

void USinewGranularComponent::PostSinewStep(USinewWorldSubsystem& Sub)
{
	sinew::Scene* Scene = SimScene();
	if (!Scene)
	{
		return;
	}
	const int32 N = FMath::Min(GetEmittedCount(), (int32)SimPositions.size());
	if (N > 0)
	{
		const sinew::Result<void> Read = Scene->world().read_interpolated_positions(
			First, Sub.GetInterpolationAlpha(), sinew::Span<FVector3f>(SimPositions.data(), (size_t)N));
		if (!Read)
		{
			LogFailure(Read.error());
			return;
		}
	}
	const sinew::units::Frame& Frame = Sub.GetFrame();
	const double Scale = 2.0 * (double)GrainRadius / (double)FMath::Max(MeshDiameter, 0.001f);
	const FVector Scale3D(Scale, Scale, Scale);
	// Instances 0..N-1 are the grains (the count only grows): update the kept ones, add the new.
	const int32 Have = FMath::Min(GetInstanceCount(), N);
	InstanceTransforms.Reset();
	for (int32 i = 0; i < N; ++i)
	{
		if (i == Have && Have > 0)
		{
			BatchUpdateInstancesTransforms(0, InstanceTransforms, /*bWorldSpace=*/true, /*bMarkRenderStateDirty=*/false, /*bTeleport=*/true);
			InstanceTransforms.Reset();
		}
		const FVector3f& P = SimPositions[(size_t)i];
		InstanceTransforms.Add(FTransform(FQuat::Identity, SinewUE::FromSim(Frame, sinew::Vec3{P.X, P.Y, P.Z}), Scale3D));
	}
	if (N > Have)
	{
		AddInstances(InstanceTransforms, /*bShouldReturnIndices=*/false, /*bWorldSpace=*/true);
	}
	else if (N > 0)
	{
		BatchUpdateInstancesTransforms(0, InstanceTransforms, /*bWorldSpace=*/true, /*bMarkRenderStateDirty=*/false, /*bTeleport=*/true);
	}
	DrawnCount = N;
	MarkRenderStateDirty();
}

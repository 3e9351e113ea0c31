#include "SinewLandscapeColliderComponent.h"

#include "Engine/World.h"
#include "LandscapeProxy.h"
#include "SinewModule.h"

THIRD_PARTY_INCLUDES_START
#include "sinew_colliders.hpp"
THIRD_PARTY_INCLUDES_END

USinewLandscapeColliderComponent::USinewLandscapeColliderComponent(const FObjectInitializer& ObjectInitializer)
	: Super(ObjectInitializer)
{
	PrimaryComponentTick.bCanEverTick = false; // static: sampled when it joins the simulation
}

void USinewLandscapeColliderComponent::BeginPlay()
{
	Super::BeginPlay();
	USinewWorldSubsystem* Sub = GetWorld() ? GetWorld()->GetSubsystem<USinewWorldSubsystem>() : nullptr;
	if (!Sub || !Sub->GetScene())
	{
		UE_LOG(LogSinew, Warning, TEXT("%s: no Sinew simulation in this world (library unavailable?)"), *GetPathName());
		return;
	}
	Subsystem = Sub;
	Sub->Register(this);
	AddHeightfield(*Sub);
}

void USinewLandscapeColliderComponent::Resample()
{
	if (USinewWorldSubsystem* Sub = Subsystem.Get())
	{
		RemoveHeightfield();
		AddHeightfield(*Sub);
	}
}

void USinewLandscapeColliderComponent::AddHeightfield(USinewWorldSubsystem& Sub)
{
	sinew::Scene* Scene = Sub.GetScene();
	if (!Scene || !Landscape)
	{
		UE_LOG(LogSinew, Warning, TEXT("%s: no landscape to sample"), *GetPathName());
		return;
	}
	const double Cell = FMath::Max((double)CellSize, 1.0);
	// Enough samples to cover the area (fewer than 2 a side, from an extent of 0, is refused and logged).
	const uint32 Columns = (uint32)FMath::CeilToDouble(2.0 * Extent.X / Cell) + 1;
	const uint32 Rows = (uint32)FMath::CeilToDouble(2.0 * Extent.Y / Cell) + 1;
	const FVector Centre = GetComponentLocation();
	const ALandscapeProxy* Ground = Landscape;
	auto Sample = [Ground](double X, double Y, double& Z) {
		const TOptional<float> Height = Ground->GetHeightAtLocation(FVector(X, Y, 0.0), EHeightfieldSource::Complex);
		if (!Height.IsSet())
		{
			return false;
		}
		Z = Height.GetValue();
		return true;
	};
	const sinew::colliders::Material Material{StaticFriction, DynamicFriction, Restitution, true};
	const sinew::Result<sinew::colliders::Heightfield> Grid = sinew::colliders::heightfield_from_samples(
		Sub.GetFrame(), Centre.X - Extent.X, Centre.Y + Extent.Y, Centre.Z, Cell, Columns, Rows, Sample, Material);
	if (!Grid)
	{
		UE_LOG(LogSinew, Warning, TEXT("%s: %s"), *GetPathName(), UTF8_TO_TCHAR(Grid.error().message.c_str()));
		return;
	}
	const sinew::Result<sinew::ColliderId> Added = Scene->add_heightfield_collider(
		Grid->desc, Grid->columns, Grid->rows, Grid->cell, Grid->cell, Grid->heights, Grid->holes);
	if (!Added)
	{
		UE_LOG(LogSinew, Warning, TEXT("%s: %s"), *GetPathName(), UTF8_TO_TCHAR(Added.error().message.c_str()));
		return;
	}
	Collider = *Added;
}

void USinewLandscapeColliderComponent::RemoveHeightfield()
{
	if (USinewWorldSubsystem* Sub = Subsystem.Get())
	{
		if (sinew::Scene* Scene = Sub->GetScene(); Scene && Collider != 0)
		{
			(void)Scene->remove_collider(Collider);
		}
	}
	Collider = 0;
}

void USinewLandscapeColliderComponent::EndPlay(const EEndPlayReason::Type EndPlayReason)
{
	RemoveHeightfield();
	if (USinewWorldSubsystem* Sub = Subsystem.Get())
	{
		Sub->Unregister(this);
	}
	Subsystem.Reset();
	Super::EndPlay(EndPlayReason);
}

// One Sinew simulation per game world, stepped once per frame in TG_PostPhysics (after
// UE's physics and animation have moved whatever the ropes and cloths hang from).
#pragma once

#include "CoreMinimal.h"
#include "Engine/EngineBaseTypes.h"
#include "Subsystems/WorldSubsystem.h"

#include <memory>

THIRD_PARTY_INCLUDES_START
#include "sinew_scene.hpp"
#include "sinew_units.hpp"
THIRD_PARTY_INCLUDES_END

#include "SinewWorldSubsystem.generated.h"

class USinewWorldSubsystem;

/** Implemented by the components that own a body in the simulation. */
class SINEW_API ISinewSimulated
{
public:
	virtual ~ISinewSimulated() = default;
	/** Before the step: write pinned and grabbed particles' positions. */
	virtual void PreSinewStep(USinewWorldSubsystem& InSubsystem) = 0;
	/** After the step: read positions and forces, update the mesh. */
	virtual void PostSinewStep(USinewWorldSubsystem& InSubsystem) = 0;
};

/** The subsystem's tick, registered in TG_PostPhysics on the persistent level. */
USTRUCT()
struct FSinewWorldTickFunction : public FTickFunction
{
	GENERATED_BODY()

	/** Owner; set before registration, cleared at unregistration. */
	USinewWorldSubsystem* Subsystem = nullptr;

	virtual void ExecuteTick(float DeltaTime, ELevelTick TickType, ENamedThreads::Type CurrentThread, const FGraphEventRef& MyCompletionGraphEvent) override;
	virtual FString DiagnosticMessage() override;
	virtual FName DiagnosticContext(bool bDetailed) override;
};

template <>
struct TStructOpsTypeTraits<FSinewWorldTickFunction> : public TStructOpsTypeTraitsBase2<FSinewWorldTickFunction>
{
	enum
	{
		WithCopy = false
	};
};

UCLASS()
class SINEW_API USinewWorldSubsystem : public UWorldSubsystem
{
	GENERATED_BODY()

public:
	virtual bool ShouldCreateSubsystem(UObject* Outer) const override;
	virtual void Initialize(FSubsystemCollectionBase& Collection) override;
	virtual void OnWorldBeginPlay(UWorld& InWorld) override;
	virtual void Deinitialize() override;

	/** The simulation (created on first use); null if it cannot be created or the world is shutting down. */
	sinew::Scene* GetScene();
	/** The cm <-> m conversion of this world. */
	const sinew::units::Frame& GetFrame() const { return Frame; }

	void Register(ISinewSimulated* Body);
	void Unregister(ISinewSimulated* Body);

	/** Runs one frame: PreSinewStep of every body, one step of DeltaSeconds (clamped to MaxDeltaTime), PostSinewStep. */
	void Step(float DeltaSeconds);

	/** Number of bodies (ropes, cloths) in this world's simulation. */
	UFUNCTION(BlueprintPure, Category = "Sinew")
	int32 GetBodyCount() const;

	/** How many times the simulation was rebuilt (a body removed, a compliance changed). */
	UFUNCTION(BlueprintPure, Category = "Sinew")
	int32 GetRebuildCount() const;

protected:
	virtual bool DoesSupportWorldType(const EWorldType::Type WorldType) const override;

private:
	FSinewWorldTickFunction TickFunction;
	std::unique_ptr<sinew::Scene> Scene;
	sinew::units::Frame Frame;
	TArray<ISinewSimulated*> Simulated;
	/** Set when creating the simulation failed or after Deinitialize: GetScene returns null. */
	bool bNoScene = false;
};

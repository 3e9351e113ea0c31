// One Sinew simulation per game world, stepped in TG_PostPhysics (after UE's physics and
// animation have moved whatever the ropes and cloths hang from) with a fixed dt and an
// accumulator; components render positions interpolated between the last two steps.
#pragma once

#include "CoreMinimal.h"
#include "Components/SceneComponent.h"
#include "Engine/EngineBaseTypes.h"
#include "Subsystems/WorldSubsystem.h"

#include <memory>
#include <vector>

THIRD_PARTY_INCLUDES_START
#include "sinew_scene.hpp"
#include "sinew_units.hpp"
THIRD_PARTY_INCLUDES_END

#include "SinewWorldSubsystem.generated.h"

class USinewWorldSubsystem;
class UPrimitiveComponent;

/**
 * A Sinew component's particles as one read hands them to a Niagara data interface
 * (USinewNiagaraDataInterface, through ISinewSimulated::ReadSinewParticles): SI units in
 * simulation space, Count of each, in the component's particle order. The vectors keep
 * their capacity from tick to tick (no allocation once they are large enough).
 */
struct FSinewParticleReadback
{
	/** Particles read (the body's particle count, a fluid's live particles, the grains poured). */
	uint32 Count = 0;
	/** m, interpolated between the last two steps as the component draws them. */
	std::vector<FVector3f> Positions;
	/** m/s, of the last step. */
	std::vector<FVector3f> Velocities;
	/** rho / rho0 of each fluid particle; empty for every other component. */
	std::vector<float> DensityRatios;
	/** Asked by the reader: a fluid also fills Ellipsoids (its anisotropy pass; costs a neighbour search). */
	bool bWantEllipsoids = false;
	/** With bWantEllipsoids, each fluid particle's ellipsoid (centre and axes, m); else empty. */
	std::vector<SinewFluidEllipsoid> Ellipsoids;
};

/** Implemented by the components that own a body in the simulation. */
class SINEW_API ISinewSimulated
{
public:
	virtual ~ISinewSimulated() = default;
	/** Before each fixed step: write pinned and grabbed particles' positions. */
	virtual void PreSinewStep(USinewWorldSubsystem& InSubsystem) = 0;
	/**
	 * Once per frame, after the frame's fixed steps (zero or more): read positions
	 * (interpolated with InSubsystem.GetInterpolationAlpha()) and forces, update the mesh.
	 */
	virtual void PostSinewStep(USinewWorldSubsystem& InSubsystem) = 0;
	/** After the step, before PostSinewStep: link Link (a rope's, from its start; MAX_uint32 for other constraints) of GetSinewBody() broke under Force (N) at WorldLocation (cm). */
	virtual void OnSinewBreak(USinewWorldSubsystem& InSubsystem, uint32 Link, const FVector& WorldLocation, float Force) {}
	/** The sinew::Scene collider id this owns (0 = none): what contact events are routed by. */
	virtual uint32 GetSinewCollider() const { return 0; }
	/** After the step, before PostSinewStep: a contact event of GetSinewCollider() (see SetContactListener); Body is the component that owns Event.body, or null. */
	virtual void OnSinewContact(USinewWorldSubsystem& InSubsystem, const sinew::Scene::ContactEvent& Event, USceneComponent* Body) {}
	/** The sinew::Scene body id this owns (0 = none, e.g. a collider): what PickParticle reports. */
	virtual uint32 GetSinewBody() const { return 0; }
	/** The component PickParticle returns for a hit on GetSinewBody(), and USinewWorldSubsystem::FindSimulated finds. */
	virtual USceneComponent* GetSinewComponent() { return nullptr; }
	/**
	 * Copies this component's particles into Out (see FSinewParticleReadback), for a
	 * Niagara data interface, once per tick. This default reads the body
	 * GetSinewBody() (ropes, cloths, soft bodies); fluids and granular emitters read
	 * theirs. False (Out.Count 0) when there is nothing simulating to read.
	 */
	virtual bool ReadSinewParticles(USinewWorldSubsystem& InSubsystem, FSinewParticleReadback& Out);
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

/** What USinewWorldSubsystem::PickParticle found. */
USTRUCT(BlueprintType)
struct FSinewPickResult
{
	GENERATED_BODY()

	/** True when the ray passed close enough to a particle. */
	UPROPERTY(BlueprintReadOnly, Category = "Sinew|Interaction")
	bool bHit = false;

	/** The rope or cloth component the particle belongs to. */
	UPROPERTY(BlueprintReadOnly, Category = "Sinew|Interaction")
	TObjectPtr<USceneComponent> Component = nullptr;

	/** The particle's index in that component (for its GrabParticle). */
	UPROPERTY(BlueprintReadOnly, Category = "Sinew|Interaction")
	int32 Particle = INDEX_NONE;

	/** Distance from the ray origin along the ray, cm. */
	UPROPERTY(BlueprintReadOnly, Category = "Sinew|Interaction")
	float DistanceCm = -1.0f;
};

/**
 * Level of detail of a rope or cloth component (docs/concepts.md, "Level of detail"):
 * full rate near the views, a reduced rate (one substep in ReducedEvery) beyond
 * ReducedDistance or when not rendered lately, paused beyond PausedDistance (or when not
 * rendered, with bPauseWhenNotRendered). A resumed body catches up at rest.
 */
USTRUCT(BlueprintType)
struct FSinewLodSettings
{
	GENERATED_BODY()

	/** Drive the body's simulation mode from distance and rendering (off = always full). */
	UPROPERTY(EditAnywhere, BlueprintReadWrite, Category = "Sinew|Level Of Detail")
	bool bEnabled = false;

	/** Beyond this distance from the nearest view the body runs at a reduced rate, cm. */
	UPROPERTY(EditAnywhere, BlueprintReadWrite, Category = "Sinew|Level Of Detail", meta = (ClampMin = "0", Units = "cm"))
	float ReducedDistance = 2000.0f;

	/** Beyond this distance from the nearest view the body is paused, cm. */
	UPROPERTY(EditAnywhere, BlueprintReadWrite, Category = "Sinew|Level Of Detail", meta = (ClampMin = "0", Units = "cm"))
	float PausedDistance = 8000.0f;

	/** A reduced body runs one substep in this many (clamped to the world's substeps). */
	UPROPERTY(EditAnywhere, BlueprintReadWrite, Category = "Sinew|Level Of Detail", meta = (ClampMin = "1", UIMax = "16"))
	int32 ReducedEvery = 4;

	/** Not rendered for NotRenderedSeconds (WasRecentlyRendered): paused (on) or reduced (off). */
	UPROPERTY(EditAnywhere, BlueprintReadWrite, Category = "Sinew|Level Of Detail")
	bool bPauseWhenNotRendered = true;

	/** How long the component may go unrendered before it counts as not rendered, s. */
	UPROPERTY(EditAnywhere, BlueprintReadWrite, Category = "Sinew|Level Of Detail", meta = (ClampMin = "0", Units = "s"))
	float NotRenderedSeconds = 0.5f;
};

/** The simulation mode a component last set on its body (USinewWorldSubsystem::ApplyLod). */
struct FSinewLodState
{
	SinewSimMode Mode = SINEW_SIM_FULL;
	uint32 Every = 1;
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
	/**
	 * Routes (bListen) or stops routing the contact events of Listener->GetSinewCollider()
	 * to Listener->OnSinewContact after each fixed step; the simulation's contact events
	 * are on while any listener is registered. Unregister stops it too.
	 */
	void SetContactListener(ISinewSimulated* Listener, bool bListen);

	/**
	 * Runs one frame: adds DeltaSeconds to the accumulator, then for each whole fixed step due
	 * (FixedTimeStep, at most MaxStepsPerFrame; the time past the cap is dropped)
	 * PreSinewStep of every body, one step of FixedTimeStep, OnSinewBreak of the bodies
	 * whose constraints broke; then PostSinewStep of every body once, even when no step was
	 * due (the interpolation weight moved).
	 */
	void Step(float DeltaSeconds);

	/**
	 * How far this frame's time lies between the simulation's last two states, in [0, 1):
	 * the accumulator's leftover over FixedTimeStep. Components draw
	 * (1 - Alpha) * previous + Alpha * current (sinew::Scene::read_interpolated_positions),
	 * at most one fixed step behind real time.
	 */
	UFUNCTION(BlueprintPure, Category = "Sinew")
	float GetInterpolationAlpha() const { return InterpolationAlpha; }

	/** Fixed steps run in the last frame (0..MaxStepsPerFrame). */
	UFUNCTION(BlueprintPure, Category = "Sinew")
	int32 GetStepsLastFrame() const { return StepsLastFrame; }

	/** The registered Sinew component (rope, cloth, soft body, fluid, granular emitter) that Component is, or null. */
	ISinewSimulated* FindSimulated(const USceneComponent* Component) const;

	/** The sinew::Scene body id of a registered Sinew component (a rope or cloth; 0 = none, e.g. a collider or a fluid). */
	uint32 GetSinewBodyOf(const USceneComponent* Component) const;

	/**
	 * Level of detail (before each fixed step, from the rope and cloth components): the
	 * mode Lod asks for Component, from its distance to the nearest view rendered last
	 * frame (UWorld::ViewLocationsRenderedLastFrame; none = near) and
	 * WasRecentlyRendered(Lod.NotRenderedSeconds); set on Body only when it differs
	 * from State (full when Lod is off).
	 */
	void ApplyLod(uint32 Body, const FSinewLodSettings& Lod, const UPrimitiveComponent& Component, FSinewLodState& State);

	/** The mode for a component Distance cm from the nearest view, rendered lately or not. */
	static SinewSimMode ChooseSimMode(const FSinewLodSettings& Lod, float Distance, bool bRendered);

	/** Number of bodies (ropes, cloths) in this world's simulation. */
	UFUNCTION(BlueprintPure, Category = "Sinew")
	int32 GetBodyCount() const;

	/**
	 * The particle nearest along the ray WorldOrigin + t WorldDirection (cm, t >= 0) whose
	 * centre is within RadiusCm + its own collision radius of the ray, over every rope and
	 * cloth of this world. Pass the hit to the component's GrabParticle.
	 */
	UFUNCTION(BlueprintCallable, Category = "Sinew|Interaction")
	FSinewPickResult PickParticle(FVector WorldOrigin, FVector WorldDirection, float RadiusCm = 5.0f);

	/**
	 * Saves the whole simulation (every rope, cloth and collider's state, with the
	 * handles the components hold) into OutBytes, for a USaveGame's
	 * UPROPERTY() TArray<uint8>. False (and OutBytes untouched) when there is no
	 * simulation or the save failed (logged).
	 */
	UFUNCTION(BlueprintCallable, Category = "Sinew|SaveGame")
	bool SaveSimulation(TArray<uint8>& OutBytes);

	/**
	 * Restores a simulation saved by SaveSimulation in this level, with the same Sinew
	 * components present: every particle, constraint, collider and grab continues
	 * exactly from the saved moment. A truncated, corrupt or foreign buffer is refused
	 * (false, logged) and changes nothing.
	 */
	UFUNCTION(BlueprintCallable, Category = "Sinew|SaveGame")
	bool RestoreSimulation(const TArray<uint8>& Bytes);

	/**
	 * SaveGame through an archive: saves when Ar.IsSaving(), restores when
	 * Ar.IsLoading() (the bytes are written as one length-prefixed TArray<uint8>). Call
	 * it from a USaveGame's or an actor's Serialize(FArchive&). False when there is no
	 * simulation or the restore was refused.
	 */
	bool SerializeSimulation(FArchive& Ar);

	/**
	 * A 64-bit hash of the simulation state (equal on every machine for equal states:
	 * compare it between lockstep peers to detect a desync); 0 without a simulation.
	 */
	UFUNCTION(BlueprintPure, Category = "Sinew|SaveGame")
	int64 GetStateHash();

	/** True in editor worlds (the level editor's, the Blueprint editor's preview), where components with bPreviewInEditor simulate in realtime viewports. */
	bool IsEditorPreview() const;

protected:
	virtual bool DoesSupportWorldType(const EWorldType::Type WorldType) const override;

private:
	/** In an editor world: registers the tick (once), as OnWorldBeginPlay does in game worlds (SinewEditorPreview.cpp). */
	void StartEditorPreview();

	FSinewWorldTickFunction TickFunction;
	std::unique_ptr<sinew::Scene> Scene;
	sinew::units::Frame Frame;
	TArray<ISinewSimulated*> Simulated;
	/** The break events of the last step (see Step). */
	std::vector<sinew::Scene::Break> Breaks;
	/** Components whose collider's contact events are routed to them (SetContactListener). */
	TArray<ISinewSimulated*> ContactListeners;
	/** The contact events of the last step (capacity reused from step to step). */
	std::vector<sinew::Scene::ContactEvent> Contacts;
	/** Takes the last step's contact events and hands each to its collider's listener. */
	void RouteContacts(const TArray<ISinewSimulated*>& Bodies);
	/** Whether this simulation was created with USinewSettings::bProfiling (its stages then feed `stat Sinew`). */
	bool bProfiled = false;
	/** Set when creating the simulation failed or after Deinitialize: GetScene returns null. */
	bool bNoScene = false;
	/** Real time (s) not yet simulated, in [0, FixedTimeStep) between frames. */
	double Accumulator = 0.0;
	/** See GetInterpolationAlpha. */
	float InterpolationAlpha = 0.0f;
	/** See GetStepsLastFrame. */
	int32 StepsLastFrame = 0;
	/** One fixed step: PreSinewStep, the step, break events. False when the step failed. */
	bool RunFixedStep(const TArray<ISinewSimulated*>& Bodies, float FixedDt);
};

#include "SinewWorldSubsystem.h"

#include "Components/PrimitiveComponent.h"
#include "Engine/Level.h"
#include "Engine/World.h"
#include "SinewConversions.h"
#include "SinewModule.h"
#include "SinewProfiling.h"
#include "SinewSettings.h"
#include "SinewTaskGraph.h"
#include "ProfilingDebugging/CpuProfilerTrace.h"
#include "Stats/Stats.h"

DECLARE_CYCLE_STAT(TEXT("Sinew fixed step"), STAT_SinewFixedStep, STATGROUP_Game);

void FSinewWorldTickFunction::ExecuteTick(float DeltaTime, ELevelTick TickType, ENamedThreads::Type CurrentThread, const FGraphEventRef& MyCompletionGraphEvent)
{
	// Editor worlds tick with LEVELTICK_ViewportsOnly (realtime viewports): the preview.
	if (Subsystem && (TickType != LEVELTICK_ViewportsOnly || Subsystem->IsEditorPreview()))
	{
		Subsystem->Step(DeltaTime);
	}
}

FString FSinewWorldTickFunction::DiagnosticMessage()
{
	return TEXT("FSinewWorldTickFunction");
}

FName FSinewWorldTickFunction::DiagnosticContext(bool bDetailed)
{
	return FName(TEXT("SinewWorldSubsystem"));
}

bool USinewWorldSubsystem::ShouldCreateSubsystem(UObject* Outer) const
{
	return Super::ShouldCreateSubsystem(Outer) && FSinewModule::IsAvailable();
}

bool USinewWorldSubsystem::DoesSupportWorldType(const EWorldType::Type WorldType) const
{
	return WorldType == EWorldType::Game || WorldType == EWorldType::PIE || WorldType == EWorldType::Editor || WorldType == EWorldType::EditorPreview;
}

void USinewWorldSubsystem::Initialize(FSubsystemCollectionBase& Collection)
{
	Super::Initialize(Collection);
	// The world origin maps to the simulation origin; sinew::units::Frame can rebase
	// on another origin for scenes far from it (see sinew_units.hpp).
	Frame = sinew::units::Frame();
}

sinew::Scene* USinewWorldSubsystem::GetScene()
{
	if (!Scene && !bNoScene)
	{
		const USinewSettings* Settings = GetDefault<USinewSettings>();
		sinew::WorldDesc Desc;
		Desc.gravity = SinewUE::Gravity(GetWorld()->GetGravityZ());
		// BEGIN GENERATED WorldDesc copy
		Desc.substeps = (uint32)Settings->Substeps;
		Desc.iterations = (uint32)Settings->Iterations;
		Desc.jacobi_relaxation = Settings->JacobiRelaxation;
		Desc.damping = Settings->Damping;
		Desc.threads = (uint32)Settings->Threads;
		Desc.profiling = Settings->bProfiling ? 1u : 0u;
		Desc.sleeping = Settings->bSleeping ? 1u : 0u;
		Desc.sleep_threshold = Settings->SleepThreshold;
		Desc.sleep_time = Settings->SleepTime;
		// END GENERATED WorldDesc copy
		sinew::Result<sinew::Scene> Created = sinew::Scene::create(Desc);
		if (!Created)
		{
			bNoScene = true;
			UE_LOG(LogSinew, Error, TEXT("Cannot create the simulation: %s"), UTF8_TO_TCHAR(Created.error().message.c_str()));
			return nullptr;
		}
		Scene = std::make_unique<sinew::Scene>(std::move(Created).value());
		if (Settings->bUseTaskGraph)
		{
			const sinew::Result<void> OnTaskGraph = FSinewTaskGraphTaskSystem::Install(*Scene);
			if (!OnTaskGraph)
			{
				UE_LOG(LogSinew, Warning, TEXT("Task graph not used, Sinew's own threads run the solver: %s"), UTF8_TO_TCHAR(OnTaskGraph.error().message.c_str()));
			}
		}
		if (Settings->bProfiling)
		{
			// Insights events around each stage, `stat Sinew` from each step's times.
			const sinew::Result<void> Profiled = FSinewProfiling::Install(*Scene);
			bProfiled = (bool)Profiled;
			if (!Profiled)
			{
				UE_LOG(LogSinew, Warning, TEXT("Sinew profiling not installed: %s"), UTF8_TO_TCHAR(Profiled.error().message.c_str()));
			}
		}
	}
	return Scene.get();
}

void USinewWorldSubsystem::OnWorldBeginPlay(UWorld& InWorld)
{
	Super::OnWorldBeginPlay(InWorld);
	TickFunction.Subsystem = this;
	TickFunction.bCanEverTick = true;
	TickFunction.bStartWithTickEnabled = true;
	TickFunction.bTickEvenWhenPaused = false;
	TickFunction.TickGroup = TG_PostPhysics;
	TickFunction.EndTickGroup = TG_PostPhysics;
	TickFunction.RegisterTickFunction(InWorld.PersistentLevel);
}

void USinewWorldSubsystem::Deinitialize()
{
	if (TickFunction.IsTickFunctionRegistered())
	{
		TickFunction.UnRegisterTickFunction();
	}
	TickFunction.Subsystem = nullptr;
	Simulated.Reset();
	Scene.reset(); // destroys the sinew world
	bNoScene = true; // components ending play after this find no simulation
	Super::Deinitialize();
}

void USinewWorldSubsystem::Register(ISinewSimulated* Body)
{
	Simulated.AddUnique(Body);
	StartEditorPreview(); // editor worlds never begin play: their tick starts with the first body
}

void USinewWorldSubsystem::Unregister(ISinewSimulated* Body)
{
	Simulated.Remove(Body);
	if (ContactListeners.Contains(Body))
	{
		SetContactListener(Body, false);
	}
}

void USinewWorldSubsystem::SetContactListener(ISinewSimulated* Listener, bool bListen)
{
	const bool bWasOn = ContactListeners.Num() > 0;
	if (bListen)
	{
		ContactListeners.AddUnique(Listener);
	}
	else
	{
		ContactListeners.Remove(Listener);
	}
	const bool bOn = ContactListeners.Num() > 0;
	if (bOn != bWasOn && Scene)
	{
		const sinew::Result<void> Done = Scene->set_contact_events(bOn);
		if (!Done)
		{
			UE_LOG(LogSinew, Warning, TEXT("Turning contact events %s failed: %s"), bOn ? TEXT("on") : TEXT("off"), UTF8_TO_TCHAR(Done.error().message.c_str()));
		}
	}
}

void USinewWorldSubsystem::RouteContacts(const TArray<ISinewSimulated*>& Bodies)
{
	const sinew::Result<uint64_t> Lost = Scene->take_contact_events(Contacts);
	if (!Lost)
	{
		UE_LOG(LogSinew, Warning, TEXT("Reading contact events failed: %s"), UTF8_TO_TCHAR(Lost.error().message.c_str()));
		return;
	}
	if (*Lost > 0)
	{
		UE_LOG(LogSinew, Warning, TEXT("%llu contact events were lost (the queue was full)"), (unsigned long long)*Lost);
	}
	// A listener's Blueprint event may end other components' play: only those still
	// registered (and listening) hear.
	for (const sinew::Scene::ContactEvent& Event : Contacts)
	{
		if (Event.collider == 0)
		{
			continue;
		}
		ISinewSimulated* Listener = nullptr;
		for (ISinewSimulated* Candidate : ContactListeners)
		{
			if (Candidate->GetSinewCollider() == Event.collider)
			{
				Listener = Candidate;
				break;
			}
		}
		if (!Listener || !Simulated.Contains(Listener))
		{
			continue;
		}
		USceneComponent* Body = nullptr;
		for (ISinewSimulated* Owner : Bodies)
		{
			if (Event.body != 0 && Simulated.Contains(Owner) && Owner->GetSinewBody() == Event.body)
			{
				Body = Owner->GetSinewComponent();
				break;
			}
		}
		Listener->OnSinewContact(*this, Event, Body);
	}
}

void USinewWorldSubsystem::Step(float DeltaSeconds)
{
	StepsLastFrame = 0;
	if (!Scene || Simulated.Num() == 0)
	{
		return;
	}
	const USinewSettings* Settings = GetDefault<USinewSettings>();
	// The library's limits (the properties' ClampMin/ClampMax are rendered from them too).
	const float FixedDt = FMath::Clamp(Settings->FixedTimeStep, (float)SINEW_MIN_DT, (float)SINEW_MAX_DT);
	const int32 MaxSteps = FMath::Clamp(Settings->MaxStepsPerFrame, 1, (int32)SINEW_MAX_STEPS_PER_ADVANCE);
	// The fixed step and its accumulator (Fiedler, "Fix Your Timestep!", 2004), as
	// sinew_world_advance does it, with the components' callbacks around each step: the
	// same dt every step, so the simulation does not depend on the frame rate.
	if (DeltaSeconds > 0.0f && FMath::IsFinite(DeltaSeconds))
	{
		Accumulator += (double)DeltaSeconds;
	}
	// Components may unregister from their callbacks: iterate over a copy.
	const TArray<ISinewSimulated*> Bodies = Simulated;
	const double Fixed = (double)FixedDt;
	while (StepsLastFrame < MaxSteps && Accumulator >= Fixed)
	{
		Accumulator -= Fixed;
		++StepsLastFrame;
		if (!RunFixedStep(Bodies, FixedDt))
		{
			break;
		}
	}
	// Over the cap (or after a failed step): drop the whole steps, keep the fraction.
	Accumulator = FMath::Fmod(Accumulator, Fixed);
	InterpolationAlpha = FMath::Clamp((float)(Accumulator / Fixed), 0.0f, 1.0f - 1e-7f);
	for (ISinewSimulated* Body : Bodies)
	{
		if (Simulated.Contains(Body))
		{
			Body->PostSinewStep(*this);
		}
	}
}

bool USinewWorldSubsystem::RunFixedStep(const TArray<ISinewSimulated*>& Bodies, float FixedDt)
{
	// The fixed step with the bodies' callbacks around it (the stages inside come from
	// FSinewProfiling when USinewSettings::bProfiling is on).
	SCOPE_CYCLE_COUNTER(STAT_SinewFixedStep);
	TRACE_CPUPROFILER_EVENT_SCOPE(SinewFixedStep);
	for (ISinewSimulated* Body : Bodies)
	{
		if (Simulated.Contains(Body))
		{
			Body->PreSinewStep(*this);
		}
	}
	const sinew::Result<void> Stepped = Scene->step(FixedDt);
	if (!Stepped)
	{
		UE_LOG(LogSinew, Warning, TEXT("Step failed: %s"), UTF8_TO_TCHAR(Stepped.error().message.c_str()));
		return false;
	}
	if (bProfiled)
	{
		FSinewProfiling::Publish(*Scene);
	}
	// Links that broke in this step, to the components that own them (their
	// Blueprint events may end other components' play: only registered ones hear).
	const sinew::Result<uint64_t> Lost = Scene->take_break_events(Breaks);
	if (!Lost)
	{
		UE_LOG(LogSinew, Warning, TEXT("Reading break events failed: %s"), UTF8_TO_TCHAR(Lost.error().message.c_str()));
	}
	else if (*Lost > 0)
	{
		UE_LOG(LogSinew, Warning, TEXT("%llu break events were lost (the queue was full)"), (unsigned long long)*Lost);
	}
	for (const sinew::Scene::Break& Break : Breaks)
	{
		for (ISinewSimulated* Body : Bodies)
		{
			if (Break.body != 0 && Simulated.Contains(Body) && Body->GetSinewBody() == Break.body)
			{
				Body->OnSinewBreak(*this, Break.link, SinewUE::FromSim(Frame, Break.position), Break.force);
				break;
			}
		}
	}
	if (ContactListeners.Num() > 0)
	{
		RouteContacts(Bodies);
	}
	return true;
}

bool USinewWorldSubsystem::SaveSimulation(TArray<uint8>& OutBytes)
{
	sinew::Scene* S = GetScene();
	if (!S)
	{
		return false;
	}
	sinew::Result<std::vector<uint8_t>> Saved = S->world().save();
	if (!Saved)
	{
		UE_LOG(LogSinew, Warning, TEXT("SaveSimulation failed: %s"), UTF8_TO_TCHAR(Saved.error().message.c_str()));
		return false;
	}
	const std::vector<uint8_t>& Bytes = *Saved;
	if (Bytes.size() > (size_t)MAX_int32)
	{
		UE_LOG(LogSinew, Warning, TEXT("SaveSimulation: the snapshot exceeds a TArray"));
		return false;
	}
	OutBytes.SetNumUninitialized((int32)Bytes.size());
	FMemory::Memcpy(OutBytes.GetData(), Bytes.data(), Bytes.size());
	return true;
}

bool USinewWorldSubsystem::RestoreSimulation(const TArray<uint8>& Bytes)
{
	sinew::Scene* S = GetScene();
	if (!S)
	{
		return false;
	}
	const sinew::Result<void> Restored = S->world().restore(Bytes.GetData(), (std::size_t)Bytes.Num());
	if (!Restored)
	{
		UE_LOG(LogSinew, Warning, TEXT("RestoreSimulation refused: %s"), UTF8_TO_TCHAR(Restored.error().message.c_str()));
		return false;
	}
	return true;
}

bool USinewWorldSubsystem::SerializeSimulation(FArchive& Ar)
{
	TArray<uint8> Bytes;
	if (Ar.IsSaving() && !SaveSimulation(Bytes))
	{
		Bytes.Reset(); // an empty record: loading it restores nothing
	}
	Ar << Bytes;
	if (Ar.IsLoading())
	{
		return Bytes.Num() > 0 && RestoreSimulation(Bytes);
	}
	return Bytes.Num() > 0;
}

int64 USinewWorldSubsystem::GetStateHash()
{
	sinew::Scene* S = GetScene();
	if (!S)
	{
		return 0;
	}
	const sinew::Result<uint64_t> Hash = S->world().state_hash();
	return Hash ? (int64)*Hash : 0;
}

FSinewPickResult USinewWorldSubsystem::PickParticle(FVector WorldOrigin, FVector WorldDirection, float RadiusCm)
{
	FSinewPickResult Result;
	sinew::Scene* S = GetScene();
	if (!S || WorldDirection.IsNearlyZero())
	{
		return Result;
	}
	const sinew::Result<sinew::ScenePick> Pick = S->pick(SinewUE::ToSim(Frame, WorldOrigin), SinewUE::Direction(WorldDirection), SinewUE::LengthToSim(FMath::Max(RadiusCm, 0.0f)));
	if (!Pick)
	{
		UE_LOG(LogSinew, Warning, TEXT("PickParticle: %s"), UTF8_TO_TCHAR(Pick.error().message.c_str()));
		return Result;
	}
	if (!Pick->hit())
	{
		return Result;
	}
	for (ISinewSimulated* Body : Simulated)
	{
		if (Body->GetSinewBody() == Pick->body)
		{
			Result.bHit = true;
			Result.Component = Body->GetSinewComponent();
			Result.Particle = (int32)Pick->particle;
			Result.DistanceCm = SinewUE::LengthFromSim(Pick->distance);
			break;
		}
	}
	return Result;
}

int32 USinewWorldSubsystem::GetBodyCount() const
{
	return Scene ? (int32)Scene->body_count() : 0;
}


ISinewSimulated* USinewWorldSubsystem::FindSimulated(const USceneComponent* Component) const
{
	if (!Component)
	{
		return nullptr;
	}
	for (ISinewSimulated* Body : Simulated)
	{
		if (Body->GetSinewComponent() == Component)
		{
			return Body;
		}
	}
	return nullptr;
}

bool ISinewSimulated::ReadSinewParticles(USinewWorldSubsystem& InSubsystem, FSinewParticleReadback& Out)
{
	Out.Count = 0;
	Out.DensityRatios.clear();
	Out.Ellipsoids.clear();
	sinew::Scene* Scene = InSubsystem.GetScene();
	const uint32 Body = GetSinewBody();
	if (!Scene || Body == 0 || !Scene->contains(Body))
	{
		return false;
	}
	if (!Scene->read_interpolated_positions(Body, InSubsystem.GetInterpolationAlpha(), Out.Positions) || !Scene->read_velocities(Body, Out.Velocities))
	{
		return false;
	}
	Out.Count = (uint32)Out.Positions.size();
	return true;
}

uint32 USinewWorldSubsystem::GetSinewBodyOf(const USceneComponent* Component) const
{
	if (!Component)
	{
		return 0;
	}
	for (ISinewSimulated* Body : Simulated)
	{
		if (Body->GetSinewBody() != 0 && Body->GetSinewComponent() == Component)
		{
			return Body->GetSinewBody();
		}
	}
	return 0;
}

SinewSimMode USinewWorldSubsystem::ChooseSimMode(const FSinewLodSettings& Lod, float Distance, bool bRendered)
{
	if (!Lod.bEnabled)
	{
		return SINEW_SIM_FULL;
	}
	if (Distance > Lod.PausedDistance || (!bRendered && Lod.bPauseWhenNotRendered))
	{
		return SINEW_SIM_PAUSED;
	}
	if (Distance > Lod.ReducedDistance || !bRendered)
	{
		return SINEW_SIM_REDUCED;
	}
	return SINEW_SIM_FULL;
}

void USinewWorldSubsystem::ApplyLod(uint32 Body, const FSinewLodSettings& Lod, const UPrimitiveComponent& Component, FSinewLodState& State)
{
	sinew::Scene* Sim = GetScene();
	if (!Sim || Body == 0)
	{
		return;
	}
	float Distance = 0.0f;
	bool bRendered = true;
	if (Lod.bEnabled)
	{
		bRendered = Component.WasRecentlyRendered(Lod.NotRenderedSeconds);
		const FVector At = Component.GetComponentLocation();
		bool bAny = false;
		double Nearest = 0.0;
		if (const UWorld* World = GetWorld())
		{
			for (const FVector& View : World->ViewLocationsRenderedLastFrame)
			{
				const double D = FVector::Dist(View, At);
				Nearest = bAny ? FMath::Min(Nearest, D) : D;
				bAny = true;
			}
		}
		Distance = (float)Nearest;
	}
	const SinewSimMode Mode = ChooseSimMode(Lod, Distance, bRendered);
	const int32 Substeps = FMath::Max(GetDefault<USinewSettings>()->Substeps, 1);
	const uint32 Every = Mode == SINEW_SIM_REDUCED ? (uint32)FMath::Clamp(Lod.ReducedEvery, 1, Substeps) : 1u;
	if (Mode == State.Mode && Every == State.Every)
	{
		return;
	}
	const sinew::Result<void> Set = Sim->set_sim_mode(Body, Mode, Every);
	if (!Set)
	{
		UE_LOG(LogSinew, Warning, TEXT("Sinew level of detail: %s"), UTF8_TO_TCHAR(Set.error().message.c_str()));
		return;
	}
	State.Mode = Mode;
	State.Every = Every;
}

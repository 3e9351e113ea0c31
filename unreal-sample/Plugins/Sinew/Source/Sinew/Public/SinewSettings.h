// Project Settings > Plugins > Sinew: the solver settings of every world's simulation.
#pragma once

#include "CoreMinimal.h"
#include "Engine/DeveloperSettings.h"
#include "SinewSettings.generated.h"

UCLASS(Config = Game, DefaultConfig, meta = (DisplayName = "Sinew"))
class SINEW_API USinewSettings : public UDeveloperSettings
{
	GENERATED_BODY()

public:
	// The world's settings (WorldDesc; the gravity is the level's, the solver Gauss-Seidel).
	// BEGIN GENERATED WorldDesc properties
	/** Substeps per step. More substeps with one iteration is usually better than more iterations. At least 1, at most 1024. */
	UPROPERTY(Config, EditAnywhere, BlueprintReadWrite, Category = "Solver", meta = (ClampMin = "1", ClampMax = "1024", ToolTip = "Substeps per step. More substeps with one iteration is usually better than more iterations. At least 1, at most 1024."))
	int32 Substeps = 8;

	/** Solver iterations per substep. At least 1, at most 1024. */
	UPROPERTY(Config, EditAnywhere, BlueprintReadWrite, Category = "Solver", meta = (ClampMin = "1", ClampMax = "1024", ToolTip = "Solver iterations per substep. At least 1, at most 1024."))
	int32 Iterations = 1;

	/** Jacobi only: scale of the averaged correction (1 = plain averaging; above 1 over-relaxes). Above 0, below 2. */
	UPROPERTY(Config, EditAnywhere, BlueprintReadWrite, Category = "Solver", meta = (ClampMin = "1e-45", ClampMax = "1.9999999", ToolTip = "Jacobi only: scale of the averaged correction (1 = plain averaging; above 1 over-relaxes). Above 0, below 2."))
	float JacobiRelaxation = 1.0f;

	/** Linear velocity damping: velocities decay as exp(−damping·t). At least 0, at most 1000000 1/s. */
	UPROPERTY(Config, EditAnywhere, BlueprintReadWrite, Category = "Solver", meta = (ClampMin = "0", ClampMax = "1000000", ToolTip = "Linear velocity damping: velocities decay as exp(-damping*t). At least 0, at most 1000000 1/s."))
	float Damping = 0.0f;

	/** Worker threads (1 = the calling thread only). Results are bit-identical whatever the count. At least 0, at most 256; 0 = all cores. */
	UPROPERTY(Config, EditAnywhere, BlueprintReadWrite, Category = "Solver", meta = (ClampMin = "0", ClampMax = "256", ToolTip = "Worker threads (1 = the calling thread only). Results are bit-identical whatever the count. At least 0, at most 256; 0 = all cores."))
	int32 Threads = 0;

	/** Time every stage of each step (read back as the last step's stage times; no clock is read when off). The physics is the same bits on or off. */
	UPROPERTY(Config, EditAnywhere, BlueprintReadWrite, Category = "Solver", meta = (ToolTip = "Time every stage of each step (read back as the last step's stage times; no clock is read when off). The physics is the same bits on or off."))
	bool bProfiling = false;

	/** Sleeping: islands of particles at rest stop being simulated until something wakes them (src/world/sleep.rs). Off, the physics is the same bits and costs nothing. */
	UPROPERTY(Config, EditAnywhere, BlueprintReadWrite, Category = "Solver", meta = (ToolTip = "Sleeping: islands of particles at rest stop being simulated until something wakes them (src/world/sleep.rs). Off, the physics is the same bits and costs nothing."))
	bool bSleeping = false;

	/** Kinetic energy per mass ½|v|² under which a particle counts as at rest (1e-3 J/kg: about 4.5 cm/s). At least 0, at most 1000000 J/kg. */
	UPROPERTY(Config, EditAnywhere, BlueprintReadWrite, Category = "Solver", meta = (ClampMin = "0", ClampMax = "1000000", ToolTip = "Kinetic energy per mass ?|v|^2 under which a particle counts as at rest (1e-3 J/kg: about 4.5 cm/s). At least 0, at most 1000000 J/kg."))
	float SleepThreshold = 0.001f;

	/** How long every particle of an island must stay at rest before it sleeps. At least 0, at most 1000000 s. */
	UPROPERTY(Config, EditAnywhere, BlueprintReadWrite, Category = "Solver", meta = (ClampMin = "0", ClampMax = "1000000", Units = "s", ToolTip = "How long every particle of an island must stay at rest before it sleeps. At least 0, at most 1000000 s."))
	float SleepTime = 0.5f;
	// END GENERATED WorldDesc properties

	// BEGIN GENERATED Stepping properties
	/**
	 * Length of one simulation step, s. The simulation steps with this fixed dt whatever the
	 * frame rate (an accumulator collects the frames' time and runs the whole steps due), so
	 * it behaves the same at 30 and 144 fps; components render positions interpolated
	 * between the last two steps (GetInterpolationAlpha), so motion stays smooth.
	 */
	UPROPERTY(Config, EditAnywhere, Category = "Stepping", meta = (ClampMin = "1e-6", ClampMax = "10", Units = "s"))
	float FixedTimeStep = 1.0f / 60.0f;

	/**
	 * Most fixed steps simulated in one frame. After a hitch the time past this many steps is
	 * dropped: the simulation falls behind real time instead of spending ever longer frames
	 * catching up (the "spiral of death").
	 */
	UPROPERTY(Config, EditAnywhere, Category = "Stepping", meta = (ClampMin = "1", ClampMax = "1024"))
	int32 MaxStepsPerFrame = 4;
	// END GENERATED Stepping properties

	/** Run the solver's parallel passes on the engine's task graph (ParallelFor) instead of Sinew's own worker threads (Threads is then unused); results do not depend on it. */
	UPROPERTY(Config, EditAnywhere, Category = "Solver")
	bool bUseTaskGraph = false;

	virtual FName GetCategoryName() const override { return TEXT("Plugins"); }
};

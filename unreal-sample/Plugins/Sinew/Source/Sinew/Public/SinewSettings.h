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
	/** Substeps per frame (small steps: more substeps beat more iterations). */
	UPROPERTY(Config, EditAnywhere, Category = "Solver", meta = (ClampMin = "1", ClampMax = "1024"))
	int32 Substeps = 8;

	/** Solver iterations per substep. */
	UPROPERTY(Config, EditAnywhere, Category = "Solver", meta = (ClampMin = "1", ClampMax = "1024"))
	int32 Iterations = 1;

	/** Linear velocity damping, 1/s (velocities decay as exp(-Damping t)). */
	UPROPERTY(Config, EditAnywhere, Category = "Solver", meta = (ClampMin = "0"))
	float Damping = 0.1f;

	/** Worker threads of the solver (0 = all cores, 1 = the game thread only); results do not depend on it. */
	UPROPERTY(Config, EditAnywhere, Category = "Solver", meta = (ClampMin = "0", ClampMax = "64"))
	int32 Threads = 2;

	/**
	 * Length of one simulation step, s. The simulation steps with this fixed dt whatever the
	 * frame rate (an accumulator collects the frames' time and runs the whole steps due), so
	 * it behaves the same at 30 and 144 fps; components render positions interpolated
	 * between the last two steps (GetInterpolationAlpha), so motion stays smooth.
	 */
	UPROPERTY(Config, EditAnywhere, Category = "Stepping", meta = (ClampMin = "0.001", ClampMax = "0.1", Units = "s"))
	float FixedTimeStep = 1.0f / 60.0f;

	/**
	 * Most fixed steps simulated in one frame. After a hitch the time past this many steps is
	 * dropped: the simulation falls behind real time instead of spending ever longer frames
	 * catching up (the "spiral of death").
	 */
	UPROPERTY(Config, EditAnywhere, Category = "Stepping", meta = (ClampMin = "1", ClampMax = "16"))
	int32 MaxStepsPerFrame = 4;

	virtual FName GetCategoryName() const override { return TEXT("Plugins"); }
};

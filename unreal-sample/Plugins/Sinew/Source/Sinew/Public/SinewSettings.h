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

	/** Longest frame time simulated in one step, s: a hitch is simulated as this much time. */
	UPROPERTY(Config, EditAnywhere, Category = "Solver", meta = (ClampMin = "0.001", ClampMax = "1", Units = "s"))
	float MaxDeltaTime = 1.0f / 30.0f;

	/** Run the solver's parallel passes on the engine's task graph (ParallelFor) instead of Sinew's own worker threads (Threads is then unused); results do not depend on it. */
	UPROPERTY(Config, EditAnywhere, Category = "Solver")
	bool bUseTaskGraph = false;

	virtual FName GetCategoryName() const override { return TEXT("Plugins"); }
};

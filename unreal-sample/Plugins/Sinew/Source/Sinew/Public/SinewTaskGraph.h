// Runs a Sinew world's parallel passes on Unreal's task graph (ParallelFor) instead of
// the library's own worker threads (C: sinew_world_set_task_system), so the solver's
// work shares the engine's workers. Opt in with Project Settings > Plugins > Sinew >
// Use Task Graph (USinewSettings::bUseTaskGraph). Results are bit-identical to the
// built-in pool and to one thread.
#pragma once

#include "CoreMinimal.h"

THIRD_PARTY_INCLUDES_START
#include "sinew_scene.hpp"
THIRD_PARTY_INCLUDES_END

/**
 * A Sinew task system on ParallelFor. Each pass Sinew enqueues runs as one ParallelFor
 * over its items (every item a loop that takes Sinew's fixed chunks of work from a
 * shared counter until none is left), on the task graph's workers and the calling
 * thread; ParallelFor returns when the pass is done, so enqueue returns nullptr and
 * finish is never needed. Stateless: one system serves every world.
 */
class SINEW_API FSinewTaskGraphTaskSystem
{
public:
	/** Threads a pass may use: the task graph's worker threads and the calling thread, in [1, 256]. */
	static uint32 WorkerCount();

	/** The C task system (static callbacks, no user context). */
	static SinewTaskSystem Get();

	/** Runs Scene's passes on the task graph from now on. */
	static sinew::Result<void> Install(sinew::Scene& Scene);

private:
	static void* Enqueue(SinewTaskFn Task, uint32 ItemCount, uint32 MinRange, void* TaskContext, void* UserContext);
	static void Finish(void* HostTask, void* UserContext);
};

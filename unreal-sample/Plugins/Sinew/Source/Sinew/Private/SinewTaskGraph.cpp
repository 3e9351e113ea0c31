#include "SinewTaskGraph.h"

#include "Async/ParallelFor.h"
#include "Async/TaskGraphInterfaces.h"

uint32 FSinewTaskGraphTaskSystem::WorkerCount()
{
	return (uint32)FMath::Clamp(FTaskGraphInterface::Get().GetNumWorkerThreads() + 1, 1, (int32)SINEW_MAX_THREADS);
}

SinewTaskSystem FSinewTaskGraphTaskSystem::Get()
{
	SinewTaskSystem System{};
	System.worker_count = WorkerCount();
	System.enqueue = &FSinewTaskGraphTaskSystem::Enqueue;
	System.finish = &FSinewTaskGraphTaskSystem::Finish;
	System.user_context = nullptr;
	return System;
}

sinew::Result<void> FSinewTaskGraphTaskSystem::Install(sinew::Scene& Scene)
{
	return Scene.set_task_system(Get());
}

void* FSinewTaskGraphTaskSystem::Enqueue(SinewTaskFn Task, uint32 ItemCount, uint32 MinRange, void* TaskContext, void* UserContext)
{
	// Blocks until every item has run (the calling thread takes part), so the pass is
	// done when this returns: nullptr tells Sinew not to call Finish. Sinew enqueues at
	// most WorkerCount() - 1 items, each worth a thread of its own: one item per index.
	(void)MinRange;
	(void)UserContext;
	ParallelFor((int32)ItemCount, [Task, TaskContext](int32 Index)
	{
		Task((uint32)Index, (uint32)Index + 1, TaskContext);
	});
	return nullptr;
}

void FSinewTaskGraphTaskSystem::Finish(void* HostTask, void* UserContext)
{
	// Never called: Enqueue always returns nullptr.
	(void)HostTask;
	(void)UserContext;
}

#include "SinewEditorPreview.h"

#include "Engine/Level.h"
#include "SinewWorldSubsystem.h"

bool USinewWorldSubsystem::IsEditorPreview() const
{
	return SinewPreview::IsEditorWorld(GetWorld());
}

void USinewWorldSubsystem::StartEditorPreview()
{
	UWorld* World = GetWorld();
	if (!IsEditorPreview() || !World || !World->PersistentLevel || TickFunction.IsTickFunctionRegistered())
	{
		return;
	}
	// The game world's tick (OnWorldBeginPlay), in TG_PostPhysics; the editor runs it in
	// realtime viewports only (LEVELTICK_ViewportsOnly, see ExecuteTick).
	TickFunction.Subsystem = this;
	TickFunction.bCanEverTick = true;
	TickFunction.bStartWithTickEnabled = true;
	TickFunction.bTickEvenWhenPaused = false;
	TickFunction.TickGroup = TG_PostPhysics;
	TickFunction.EndTickGroup = TG_PostPhysics;
	TickFunction.RegisterTickFunction(World->PersistentLevel);
}

// Which worlds simulate Sinew bodies in the editor: the level editor's world and the
// Blueprint editor's preview world (EWorldType::Editor, EditorPreview). There a rope or
// cloth with bPreviewInEditor joins the simulation when it is registered (and leaves
// when it is unregistered: a property change restarts it), as CableComponent simulates
// in the editor viewport; game, PIE and Simulate in Editor worlds join at BeginPlay.
#pragma once

#include "CoreMinimal.h"
#include "Engine/World.h"

namespace SinewPreview
{
/** An editor world that previews: not while a commandlet (cooking, resaving) loads levels. */
inline bool IsEditorWorld(const UWorld* World)
{
	return World && (World->WorldType == EWorldType::Editor || World->WorldType == EWorldType::EditorPreview) && !IsRunningCommandlet();
}
} // namespace SinewPreview

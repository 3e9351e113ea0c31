// The Sinew step in Unreal's profilers: Insights CPU events around every stage of each
// step (from the world's profile listener, on the game thread that steps it) and a
// `stat Sinew` group with the last step's main stage times and counts.
#pragma once

#include "CoreMinimal.h"

THIRD_PARTY_INCLUDES_START
#include "sinew_scene.hpp"
THIRD_PARTY_INCLUDES_END

/** Installs and reads back the Sinew profiler for one simulation (USinewSettings::bProfiling). */
struct FSinewProfiling
{
	/** Times every step of Scene and opens an Insights event ("Sinew.<stage>") around each of its stages. */
	static sinew::Result<void> Install(sinew::Scene& Scene);

	/** After a step: sets the STAT_Sinew* counters from the step's stage times and counts. */
	static void Publish(const sinew::Scene& Scene);
};

#include "SinewProfiling.h"

#include "ProfilingDebugging/CpuProfilerTrace.h"
#include "Stats/Stats.h"

#include <array>
#include <string>

DECLARE_STATS_GROUP(TEXT("Sinew"), STATGROUP_Sinew, STATCAT_Advanced);
DECLARE_FLOAT_COUNTER_STAT(TEXT("Step (ms)"), STAT_SinewStepMs, STATGROUP_Sinew);
DECLARE_FLOAT_COUNTER_STAT(TEXT("Collision detection (ms)"), STAT_SinewDetectionMs, STATGROUP_Sinew);
DECLARE_FLOAT_COUNTER_STAT(TEXT("Constraints (ms)"), STAT_SinewConstraintsMs, STATGROUP_Sinew);
DECLARE_FLOAT_COUNTER_STAT(TEXT("Contacts (ms)"), STAT_SinewContactsMs, STATGROUP_Sinew);
DECLARE_FLOAT_COUNTER_STAT(TEXT("Fluids (ms)"), STAT_SinewFluidsMs, STATGROUP_Sinew);
DECLARE_FLOAT_COUNTER_STAT(TEXT("Integrate (ms)"), STAT_SinewIntegrateMs, STATGROUP_Sinew);
DECLARE_DWORD_COUNTER_STAT(TEXT("Bodies"), STAT_SinewBodies, STATGROUP_Sinew);
DECLARE_DWORD_COUNTER_STAT(TEXT("Particles"), STAT_SinewParticles, STATGROUP_Sinew);
DECLARE_DWORD_COUNTER_STAT(TEXT("Collider contacts"), STAT_SinewColliderContacts, STATGROUP_Sinew);
DECLARE_DWORD_COUNTER_STAT(TEXT("Fluid neighbours"), STAT_SinewFluidNeighbours, STATGROUP_Sinew);

namespace
{
/** "Sinew.<stage name>" per stage, made once. */
const std::array<std::string, SINEW_PROFILE_STAGE_COUNT>& EventNames()
{
	static const std::array<std::string, SINEW_PROFILE_STAGE_COUNT> Names = []
	{
		std::array<std::string, SINEW_PROFILE_STAGE_COUNT> Out;
		for (uint32 Stage = 0; Stage < SINEW_PROFILE_STAGE_COUNT; ++Stage)
		{
			const sinew::Result<const char*> Name = sinew::World::stage_name(Stage);
			Out[Stage] = std::string("Sinew.") + (Name ? *Name : "stage");
		}
		return Out;
	}();
	return Names;
}

/** The world's listener: an Insights event per stage (begin and end pair on the stepping thread). */
struct FTraceListener
{
	void begin(uint32 Stage)
	{
#if CPUPROFILERTRACE_ENABLED
		if (Stage < SINEW_PROFILE_STAGE_COUNT)
		{
			FCpuProfilerTrace::OutputBeginDynamicEvent(EventNames()[Stage].c_str());
		}
#endif
	}
	void end(uint32 Stage)
	{
#if CPUPROFILERTRACE_ENABLED
		if (Stage < SINEW_PROFILE_STAGE_COUNT)
		{
			FCpuProfilerTrace::OutputEndEvent();
		}
#endif
	}
};

FTraceListener Listener;

double Ms(const std::array<SinewStageTime, SINEW_PROFILE_STAGE_COUNT>& Times, std::initializer_list<uint32> Stages)
{
	uint64 Ns = 0;
	for (uint32 Stage : Stages)
	{
		Ns += Times[Stage].nanoseconds;
	}
	return (double)Ns * 1e-6;
}
} // namespace

sinew::Result<void> FSinewProfiling::Install(sinew::Scene& Scene)
{
	(void)EventNames(); // the names before the first step, not during it
	if (sinew::Result<void> On = Scene.set_profiling(true); !On)
	{
		return On;
	}
	return Scene.set_profile_listener(Listener);
}

void FSinewProfiling::Publish(const sinew::Scene& Scene)
{
	std::array<SinewStageTime, SINEW_PROFILE_STAGE_COUNT> Times{};
	if (!Scene.read_stage_times(sinew::Span<SinewStageTime>(Times)))
	{
		return;
	}
	SET_FLOAT_STAT(STAT_SinewStepMs, Ms(Times, {SINEW_PROFILE_STAGE_STEP}));
	SET_FLOAT_STAT(STAT_SinewDetectionMs, Ms(Times, {SINEW_PROFILE_STAGE_COLLISION_DETECTION, SINEW_PROFILE_STAGE_COLLIDER_DETECTION}));
	double Constraints = 0.0;
	for (uint32 Stage = SINEW_PROFILE_STAGE_DISTANCE; Stage <= SINEW_PROFILE_STAGE_TORN; ++Stage)
	{
		if (Stage != SINEW_PROFILE_STAGE_FLUID_DENSITY)
		{
			Constraints += Ms(Times, {Stage});
		}
	}
	Constraints += Ms(Times, {SINEW_PROFILE_STAGE_CONSTRAINT_STEP, SINEW_PROFILE_STAGE_CONSTRAINT_SUBSTEP});
	SET_FLOAT_STAT(STAT_SinewConstraintsMs, Constraints);
	SET_FLOAT_STAT(STAT_SinewContactsMs, Ms(Times, {SINEW_PROFILE_STAGE_CONTACTS}));
	SET_FLOAT_STAT(STAT_SinewFluidsMs, Ms(Times, {SINEW_PROFILE_STAGE_FLUID_EMIT, SINEW_PROFILE_STAGE_FLUID_DENSITY, SINEW_PROFILE_STAGE_FLUID_VELOCITY}));
	SET_FLOAT_STAT(STAT_SinewIntegrateMs, Ms(Times, {SINEW_PROFILE_STAGE_INTEGRATE}));
	if (const sinew::Result<SinewProfileCounts> Counts = Scene.profile_counts())
	{
		SET_DWORD_STAT(STAT_SinewBodies, (uint32)Counts->bodies);
		SET_DWORD_STAT(STAT_SinewParticles, (uint32)Counts->particles);
		SET_DWORD_STAT(STAT_SinewColliderContacts, (uint32)Counts->collider_contacts);
		SET_DWORD_STAT(STAT_SinewFluidNeighbours, (uint32)Counts->fluid_neighbours);
	}
}

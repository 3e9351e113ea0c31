// Stand-in for UE's stats system (Stats/Stats.h): the declarations compile to nothing,
// the counters record the last value set (read by tests/cpp/unreal_stub_test.cpp).
#pragma once

#include "CoreMinimal.h"

#include <map>
#include <string>

enum EStatCategory { STATCAT_Advanced };

namespace UEStub
{
/** The last value each stat was set to, by stat name. */
inline std::map<std::string, double>& StatValues()
{
	static std::map<std::string, double> Values;
	return Values;
}
/** Scoped cycle counters entered so far. */
inline int& CycleScopes()
{
	static int Count = 0;
	return Count;
}
struct FCycleScope
{
	FCycleScope() { ++CycleScopes(); }
};
} // namespace UEStub

#define DECLARE_STATS_GROUP(Desc, Group, Category) struct Group##_Tag;
#define DECLARE_CYCLE_STAT(Desc, Stat, Group) static const char* const Stat##_Name = #Stat;
#define DECLARE_FLOAT_COUNTER_STAT(Desc, Stat, Group) static const char* const Stat##_Name = #Stat;
#define DECLARE_DWORD_COUNTER_STAT(Desc, Stat, Group) static const char* const Stat##_Name = #Stat;
#define SCOPE_CYCLE_COUNTER(Stat) UEStub::FCycleScope Stat##_Scope; (void)Stat##_Name
#define SET_FLOAT_STAT(Stat, Value) (UEStub::StatValues()[Stat##_Name] = (double)(Value))
#define SET_DWORD_STAT(Stat, Value) (UEStub::StatValues()[Stat##_Name] = (double)(Value))

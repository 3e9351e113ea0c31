// Stand-in for UE's Insights CPU trace (ProfilingDebugging/CpuProfilerTrace.h): records
// the open events so tests/cpp/unreal_stub_test.cpp can check that begins and ends pair.
#pragma once

#include "CoreMinimal.h"

#include <string>
#include <vector>

#define CPUPROFILERTRACE_ENABLED 1

struct FCpuProfilerTrace
{
	/** The events open now, innermost last; events begun and ended so far. */
	static std::vector<std::string>& Open()
	{
		static std::vector<std::string> Events;
		return Events;
	}
	static int& Begun()
	{
		static int Count = 0;
		return Count;
	}
	static int& Unmatched()
	{
		static int Count = 0;
		return Count;
	}
	static void OutputBeginDynamicEvent(const char* Name)
	{
		Open().push_back(Name);
		++Begun();
	}
	static void OutputEndEvent()
	{
		if (Open().empty())
		{
			++Unmatched();
			return;
		}
		Open().pop_back();
	}
};

struct FStubCpuTraceScope
{
	explicit FStubCpuTraceScope(const char* Name) { FCpuProfilerTrace::OutputBeginDynamicEvent(Name); }
	~FStubCpuTraceScope() { FCpuProfilerTrace::OutputEndEvent(); }
};

#define TRACE_CPUPROFILER_EVENT_SCOPE(Name) FStubCpuTraceScope Name##_TraceScope(#Name)

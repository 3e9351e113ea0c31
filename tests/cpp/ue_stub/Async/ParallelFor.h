// Stand-in for UE 5's Async/ParallelFor.h (see CoreMinimal.h): ParallelFor runs the body
// for every index on the calling thread, in order, as UE does when it has no workers.
#pragma once

#include "CoreMinimal.h"

enum class EParallelForFlags { None = 0 };

template <class Body>
void ParallelFor(int32 Num, Body&& Function, EParallelForFlags Flags = EParallelForFlags::None) {
    (void)Flags;
    for (int32 Index = 0; Index < Num; ++Index) Function(Index);
}

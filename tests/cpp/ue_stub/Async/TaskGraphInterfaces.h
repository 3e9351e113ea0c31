// Stand-in for UE 5's Async/TaskGraphInterfaces.h (see CoreMinimal.h): the worker count
// only.
#pragma once

#include "CoreMinimal.h"

class FTaskGraphInterface {
  public:
    static FTaskGraphInterface& Get() {
        static FTaskGraphInterface Instance;
        return Instance;
    }
    int32 GetNumWorkerThreads() const { return 3; }
};

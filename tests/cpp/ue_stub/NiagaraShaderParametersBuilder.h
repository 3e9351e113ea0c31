#pragma once
// Stand-in for Niagara's shader parameter builder: records the structs a data interface adds.
#include "CoreMinimal.h"

class FNiagaraShaderParametersBuilder {
  public:
    template <class T>
    void AddNestedStruct() {
        StructSizes.push_back(sizeof(T));
    }
    std::vector<std::size_t> StructSizes; ///< stub: one entry per AddNestedStruct
};

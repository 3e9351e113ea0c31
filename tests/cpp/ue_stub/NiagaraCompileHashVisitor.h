#pragma once
// Stand-in for the visitor that hashes what a GPU script's compile depends on. Stub: it
// keeps what it was given, in order.
#include "CoreMinimal.h"

class FNiagaraCompileHashVisitor {
  public:
    bool UpdateString(const TCHAR* InDebugName, const FString& InData) {
        Strings.push_back({InDebugName, InData.S});
        return true;
    }
    template <class T>
    bool UpdatePOD(const TCHAR* InDebugName, const T& InData) {
        Strings.push_back({InDebugName, std::to_string(InData)});
        return true;
    }
    template <class T>
    bool UpdateShaderParameters() {
        ShaderParameterStructs += 1;
        return true;
    }
    std::vector<std::pair<std::string, std::string>> Strings; ///< stub: (debug name, data)
    int32 ShaderParameterStructs = 0;                         ///< stub: UpdateShaderParameters calls
};

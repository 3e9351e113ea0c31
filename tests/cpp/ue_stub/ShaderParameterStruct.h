#pragma once
// Stand-in for the shader parameter struct macros (ShaderParameterMacros.h). Not UE's
// metadata: the struct gets the members as UE lays them out for the C++ side (values, RDG
// views), and StubMembers() lists each member's declared type and name in order, so that
// a test can compare them with the HLSL a data interface declares.
#include "CoreMinimal.h"
#include "RenderGraphBuilder.h"

struct FStubShaderParameterMember {
    const char* Type; ///< as written in the macro: int32, float, StructuredBuffer<float4>, ...
    const char* Name;
};

#define BEGIN_SHADER_PARAMETER_STRUCT(StructTypeName, PrefixKeywords)                                                  \
    struct StructTypeName {                                                                                            \
        static std::vector<FStubShaderParameterMember>& StubMembers() {                                                \
            static std::vector<FStubShaderParameterMember> Members;                                                    \
            return Members;                                                                                            \
        }
#define STUB_SHADER_PARAMETER_MEMBER(TypeText, MemberName)                                                             \
    static inline const bool MemberName##StubListed = (StubMembers().push_back({TypeText, #MemberName}), true);
#define SHADER_PARAMETER(MemberType, MemberName)                                                                       \
    MemberType MemberName{};                                                                                           \
    STUB_SHADER_PARAMETER_MEMBER(#MemberType, MemberName)
#define SHADER_PARAMETER_RDG_BUFFER_SRV(ShaderType, MemberName)                                                        \
    FRDGBufferSRVRef MemberName = nullptr;                                                                             \
    STUB_SHADER_PARAMETER_MEMBER(#ShaderType, MemberName)
#define END_SHADER_PARAMETER_STRUCT() };

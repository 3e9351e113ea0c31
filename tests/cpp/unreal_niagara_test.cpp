// The Unreal plugin's Niagara data interface (USinewNiagaraDataInterface, its .cpp as
// shipped) on the stand-in engine of tests/cpp/ue_stub, against a real Sinew world: the
// class default object registers its type with Niagara; its function signatures are
// CPU member functions; a Niagara system attached to an actor with two ropes reads the
// first rope (or, by SourceComponentName, the second), and its VM functions, called as
// the VectorVM calls them (registers in order, one value per Niagara instance), give
// the rope's particle count and each particle's position where the rope draws it
// (interpolated at the subsystem's alpha, converted to cm as the components convert;
// here minus the system's large-world origin) and velocity
// (cm/s), zeros past the last index; a fluid on another actor (Source set) gives its
// live count, positions, velocities, density ratios and, with bReadEllipsoids, the
// ellipsoids its instanced mesh draws (centre, rotation, radii in cm); after the rope
// leaves the simulation the count is 0.
// GPU emitters: the functions are GPU functions too; the frame the game thread hands the
// render thread, once consumed by the proxy, uploaded in PreStage (once for several
// stages) and bound by SetShaderParameters, holds the same floats the VM functions
// return, bit for bit, for every index (in and out of range, read as the generated HLSL
// indexes the buffer: the test checks the HLSL text has those index expressions), before
// play, with zero particles and for an instance with no data yet; the HLSL declares every
// function with the signature's name, inputs and outputs, and every shader parameter
// under {symbol}_{member}; with glslangValidator installed the HLSL, wrapped in a compute
// shader that calls every function, compiles with its HLSL front end, and with a Vulkan
// driver (Mesa's lavapipe runs on the CPU) a wrapper that calls every function for each
// index runs over the uploaded buffer and returns the VM's floats bit for bit (each step
// skipped, and said so, without its tool; the execution is skipped under ASan, whose
// leak check would report the uninstrumented driver's allocations). Built and run by
// tests/bindings/cpp_wrapper.rs (`unreal_niagara_on_a_stub_engine`, plain and under
// ASan/UBSan).

#include "../../unreal-sample/Plugins/Sinew/Source/Sinew/Private/SinewWorldSubsystem.cpp"
#include "../../unreal-sample/Plugins/Sinew/Source/Sinew/Private/SinewRopeComponent.cpp"
#include "../../unreal-sample/Plugins/Sinew/Source/Sinew/Private/SinewFluidComponent.cpp"
#include "../../unreal-sample/Plugins/Sinew/Source/Sinew/Private/SinewNiagaraDataInterface.cpp"
#include "../../unreal-sample/Plugins/Sinew/Source/Sinew/Private/SinewMeshSceneProxy.cpp"
#include "../../unreal-sample/Plugins/Sinew/Source/Sinew/Private/SinewEditorPreview.cpp"
#include "../../unreal-sample/Plugins/Sinew/Source/Sinew/Private/SinewTaskGraph.cpp"
#include "../../unreal-sample/Plugins/Sinew/Source/Sinew/Private/SinewProfiling.cpp"

#include "NiagaraCompileHashVisitor.h"
#include "NiagaraShaderParametersBuilder.h"

#if __has_include(<vulkan/vulkan.h>)
#include "vulkan_compute.h"
#define SINEW_TEST_VULKAN 1
#endif

#include <cmath>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <iterator>
#include <limits>
#include <sstream>
#include <cstdio>
#include <memory>
#include <string>
#include <vector>

#include "unreal_test_game.h"

namespace {
/// A rope of `Segments` links hanging sideways from `Top` (cm), its end free, owned by `Owner`.
std::unique_ptr<USinewRopeComponent> MakeRope(Game& G, AActor& Owner, const char* Name, FVector Top, int32 Segments) {
    auto Rope = std::make_unique<USinewRopeComponent>(FObjectInitializer());
    Rope->World = &G.World;
    Rope->Owner = &Owner;
    Rope->Name = FName(Name);
    Rope->Transform = FTransform(Top);
    Rope->EndLocation = FVector(100, 0, 0);
    Rope->bAttachEnd = false;
    Rope->RopeLength = 100.0f;
    Rope->NumSegments = Segments;
    Rope->RegisterComponent();
    G.Primitives.push_back(Rope.get());
    Owner.Components.Add(Rope.get());
    return Rope;
}

/// A data interface's per-instance data, made and destroyed as Niagara does.
struct Instance {
    USinewNiagaraDataInterface& DI;
    FNiagaraSystemInstance& System;
    std::vector<std::max_align_t> Storage;
    Instance(USinewNiagaraDataInterface& InDI, FNiagaraSystemInstance& InSystem) : DI(InDI), System(InSystem) {
        Storage.resize((std::size_t)DI.PerInstanceDataSize() / sizeof(std::max_align_t) + 1);
        check(DI.InitPerInstanceData(Storage.data(), &System), "InitPerInstanceData succeeds");
    }
    ~Instance() { DI.DestroyPerInstanceData(Storage.data(), &System); }
    void Tick() { check(!DI.PerInstanceTick(Storage.data(), &System, 1.0f / 60.0f), "PerInstanceTick never asks for a reset"); }
};

/// What one VM call of a function wrote: its output registers, one value per instance.
struct VMCall {
    std::vector<std::vector<float>> Floats; // per float output register
    std::vector<int32> Ints;                // an int32 output (GetNumParticles)
};

/// Calls the VM function `Name` of DI bound for `Inst`, with one Niagara instance per
/// entry of `Indices` (none for GetNumParticles), `FloatOutputs` float registers out.
VMCall Call(Instance& Inst, const char* Name, const std::vector<int32>& Indices, int FloatOutputs) {
    FVMExternalFunctionBindingInfo Binding;
    Binding.Name = FName(Name);
    FVMExternalFunction Function;
    Inst.DI.GetVMExternalFunction(Binding, Inst.Storage.data(), Function);
    VMCall Out;
    if (!Function.IsBound()) return Out;
    const int32 N = Indices.empty() ? 3 : (int32)Indices.size();
    int32 UserPtrIndex = 0;
    FVectorVMExternalFunctionContext Context;
    Context.NumInstances = N;
    Context.UserPtrTable.push_back(Inst.Storage.data());
    Context.Registers.push_back(&UserPtrIndex);
    std::vector<int32> In = Indices;
    if (!In.empty()) Context.Registers.push_back(In.data());
    Out.Ints.assign((std::size_t)N, -7);
    if (FloatOutputs == 0) Context.Registers.push_back(Out.Ints.data());
    Out.Floats.assign((std::size_t)FloatOutputs, std::vector<float>((std::size_t)N, -7.0f));
    for (auto& R : Out.Floats) Context.Registers.push_back(R.data());
    Function.Execute(Context);
    return Out;
}

std::vector<int32> Indices(int32 Count) {
    std::vector<int32> I;
    for (int32 i = -1; i <= Count; ++i) I.push_back(i); // one before the first, one past the last
    return I;
}

/// A body component's particles where it draws them: interpolated at the subsystem's
/// alpha, converted to cm as every component converts them (SinewUE::FromSim).
TArray<FVector> Drawn(Game& G, const USceneComponent& C) {
    TArray<FVector> Out;
    std::vector<sinew::Vec3> Sim;
    if (!G.Sub.GetScene()->read_interpolated_positions(G.Sub.GetSinewBodyOf(&C), G.Sub.GetInterpolationAlpha(), Sim)) return Out;
    for (const sinew::Vec3& P : Sim) Out.Add(SinewUE::FromSim(G.Sub.GetFrame(), P));
    return Out;
}

bool SameF(float A, double B) { return A == static_cast<float>(B); }

bool SameBits(float A, float B) { return std::memcmp(&A, &B, sizeof(float)) == 0; }

/// What SetShaderParameters bound for one system instance after one GPU tick.
struct GpuTick {
    int32 NumParticles = -1;
    int32 NumEllipsoids = -1;
    std::vector<FVector4f> Particles; ///< the bound structured buffer's contents
    int32 Uploads = 0, BadUploads = 0;
    bool SizeAligned = false;
};

/// One GPU tick of Niagara for Inst, in the engine's order: the game thread places this
/// tick's data in memory Niagara owns (ProvidePerInstanceDataForRenderThread), the
/// proxy consumes it on the render thread, PreStage runs for `Stages` simulation stages,
/// then SetShaderParameters fills the parameters BuildShaderParameters laid out. Without
/// `Provide`, only the render thread's part runs (no new data this tick).
GpuTick RenderTick(Instance& Inst, int Stages = 2, bool Provide = true) {
    GpuTick Out;
    FNiagaraDataInterfaceProxy* Proxy = Inst.DI.GetProxy();
    const int32 Size = Inst.DI.PerInstanceDataPassedToRenderThreadSize();
    Out.SizeAligned = Proxy != nullptr && Size > 0 && Size % 16 == 0;
    std::vector<std::max_align_t> ForRenderThread((std::size_t)Size / sizeof(std::max_align_t) + 1);
    if (Provide) {
        Inst.DI.ProvidePerInstanceDataForRenderThread(ForRenderThread.data(), Inst.Storage.data(), Inst.System.GetId());
        Proxy->ConsumePerInstanceDataFromGameThread(ForRenderThread.data(), Inst.System.GetId());
    }
    FRDGBuilder GraphBuilder;
    for (int k = 0; k < Stages; ++k) Proxy->PreStage(FNDIGpuComputePreStageContext(GraphBuilder, Inst.System.GetId()));
    FNiagaraShaderParametersBuilder Builder;
    Inst.DI.BuildShaderParameters(Builder);
    if (Builder.StructSizes.size() != 1) return Out;
    std::vector<std::max_align_t> Parameters(Builder.StructSizes[0] / sizeof(std::max_align_t) + 1);
    FNiagaraDataInterfaceSetShaderParametersContext Context(GraphBuilder, Proxy, Inst.System.GetId(), reinterpret_cast<uint8*>(Parameters.data()));
    Inst.DI.SetShaderParameters(Context);
    const auto* P = reinterpret_cast<const SinewNiagara::FShaderParameters*>(Parameters.data());
    Out.NumParticles = P->NumParticles;
    Out.NumEllipsoids = P->NumEllipsoids;
    if (P->Particles) {
        const std::vector<uint8>& Bytes = P->Particles->GetParent()->Pooled->Bytes;
        Out.Particles.resize(Bytes.size() / sizeof(FVector4f));
        std::memcpy(Out.Particles.data(), Bytes.data(), Out.Particles.size() * sizeof(FVector4f));
    }
    Out.Uploads = GraphBuilder.Uploads;
    Out.BadUploads = GraphBuilder.BadUploads;
    return Out;
}

/// The generated HLSL functions' reads, in C++ (the test checks the HLSL has these index
/// expressions): what a GPU function returns for Index, as the VM's output floats.
std::vector<float> GpuRead(const GpuTick& T, const char* Function, int32 Index) {
    const int32 N = T.NumParticles;
    auto At = [&](int32 i) { return (std::size_t)i < T.Particles.size() ? T.Particles[(std::size_t)i] : FVector4f(NAN, NAN, NAN, NAN); };
    const std::string F = Function;
    const bool In = Index >= 0 && Index < N;
    if (F == "GetPosition") return In ? std::vector<float>{At(Index).X, At(Index).Y, At(Index).Z} : std::vector<float>{0, 0, 0};
    if (F == "GetVelocity") return In ? std::vector<float>{At(N + Index).X, At(N + Index).Y, At(N + Index).Z} : std::vector<float>{0, 0, 0};
    if (F == "GetDensityRatio") return {In ? At(Index).W : 0.0f};
    if (Index < 0 || Index >= T.NumEllipsoids) return {0, 0, 0, 0, 0, 0, 1, 0, 0, 0};
    const int32 Base = 2 * N + 3 * Index;
    const FVector4f C = At(Base), Q = At(Base + 1), R = At(Base + 2);
    return {C.X, C.Y, C.Z, Q.X, Q.Y, Q.Z, Q.W, R.X, R.Y, R.Z};
}

/// The generated HLSL compiled (glslangValidator) into a compute shader that calls every
/// function for the index of its thread and writes what they return, run on a Vulkan
/// device (Mesa's lavapipe on a CPU): the HLSL itself executed over the buffer the proxy
/// uploaded. `Why` says why not when it cannot run here.
struct HlslExecutor {
    bool Ready = false;
    std::string Why = "not set up";
    std::string Device;
    std::vector<uint32_t> Spirv;
    uint32_t GlobalSlot = 0, ParticlesSlot = 0, IndicesSlot = 0, OutSlot = 0;
};
HlslExecutor& Executor() {
    static HlslExecutor E;
    return E;
}
/// Floats each thread of the executing shader writes: Count (as bits), Position,
/// Velocity, DensityRatio, Center, Rotation, Radii.
constexpr int ExecutedFloats = 18;

/// Compiles `Hlsl` (the data interface's parameters and functions, symbol
/// DISinewParticles_0) wrapped in the executing shader, beside `Base`.
void SetUpExecutor(const std::string& Hlsl, const std::string& Base) {
    HlslExecutor& E = Executor();
#if !defined(SINEW_TEST_VULKAN) || defined(__SANITIZE_ADDRESS__)
    (void)Hlsl;
    (void)Base;
#if defined(__SANITIZE_ADDRESS__)
    // The driver is not instrumented, and LeakSanitizer reports what it keeps at exit.
    E.Why = "not under AddressSanitizer (the plain build of this test executes it)";
#else
    E.Why = "<vulkan/vulkan.h> not installed (libvulkan-dev)";
#endif
#else
    const std::string Source = Hlsl + R"(
StructuredBuffer<int> SinewIndices;
RWStructuredBuffer<float> SinewOut;
[numthreads(1, 1, 1)]
void main(uint3 Thread : SV_DispatchThreadID)
{
	const int Index = SinewIndices[Thread.x];
	const uint At = Thread.x * 18u;
	int Count;
	float3 Position, Velocity, Center, Radii;
	float4 Rotation;
	float DensityRatio;
	GetNumParticles_DISinewParticles_0(Count);
	GetPosition_DISinewParticles_0(Index, Position);
	GetVelocity_DISinewParticles_0(Index, Velocity);
	GetDensityRatio_DISinewParticles_0(Index, DensityRatio);
	GetEllipsoid_DISinewParticles_0(Index, Center, Rotation, Radii);
	SinewOut[At] = asfloat(Count);
	SinewOut[At + 1u] = Position.x; SinewOut[At + 2u] = Position.y; SinewOut[At + 3u] = Position.z;
	SinewOut[At + 4u] = Velocity.x; SinewOut[At + 5u] = Velocity.y; SinewOut[At + 6u] = Velocity.z;
	SinewOut[At + 7u] = DensityRatio;
	SinewOut[At + 8u] = Center.x; SinewOut[At + 9u] = Center.y; SinewOut[At + 10u] = Center.z;
	SinewOut[At + 11u] = Rotation.x; SinewOut[At + 12u] = Rotation.y; SinewOut[At + 13u] = Rotation.z; SinewOut[At + 14u] = Rotation.w;
	SinewOut[At + 15u] = Radii.x; SinewOut[At + 16u] = Radii.y; SinewOut[At + 17u] = Radii.z;
}
)";
    const std::string Path = Base + ".run.hlsl";
    if (FILE* F = std::fopen(Path.c_str(), "w")) {
        std::fputs(Source.c_str(), F);
        std::fclose(F);
    }
    // --amb gives each resource a binding; -q prints them (the uniform block reflection).
    const std::string Command = "glslangValidator -D -S comp -e main -V --amb -q '" + Path + "' -o '" + Path + ".spv' > '" + Path + ".log' 2>&1";
    if (std::system(Command.c_str()) != 0) {
        E.Why = "glslangValidator failed on the executing shader: " + Command;
        return;
    }
    std::ifstream Spv(Path + ".spv", std::ios::binary);
    const std::vector<char> Bytes((std::istreambuf_iterator<char>(Spv)), std::istreambuf_iterator<char>());
    E.Spirv.assign(Bytes.size() / 4, 0u);
    if (!Bytes.empty()) std::memcpy(E.Spirv.data(), Bytes.data(), E.Spirv.size() * 4);
    std::ifstream Log(Path + ".log");
    std::string Line;
    bool Blocks = false;
    int Found = 0;
    while (std::getline(Log, Line)) {
        if (Line.rfind("Uniform block reflection:", 0) == 0) Blocks = true;
        else if (Line.empty()) Blocks = false;
        const std::size_t Colon = Line.find(':'), At = Line.find("binding ");
        if (!Blocks || Colon == std::string::npos || At == std::string::npos) continue;
        const std::string Name = Line.substr(0, Colon);
        const uint32_t Slot = static_cast<uint32_t>(std::stoul(Line.substr(At + 8)));
        if (Name == "$Global") E.GlobalSlot = Slot, ++Found;
        if (Name == "DISinewParticles_0_Particles") E.ParticlesSlot = Slot, ++Found;
        if (Name == "SinewIndices") E.IndicesSlot = Slot, ++Found;
        if (Name == "SinewOut") E.OutSlot = Slot, ++Found;
    }
    if (Found != 4 || E.Spirv.empty()) {
        E.Why = "glslangValidator's reflection (" + Path + ".log) does not name the four buffers";
        return;
    }
    // A probe run: is there a Vulkan device here?
    std::vector<vkc::Binding> Probe(1);
    Probe[0].Slot = E.OutSlot;
    bool Unavailable = false;
    const std::string Error = vkc::Run(E.Spirv, Probe, 0, Unavailable, &E.Device);
    if (Unavailable) {
        E.Why = "no Vulkan (" + Error + "; Mesa's lavapipe is Debian's mesa-vulkan-drivers)";
        return;
    }
    E.Ready = true;
    E.Why.clear();
#endif
}

/// Runs the executing shader for Indices over what T bound; the threads' floats.
std::vector<float> Execute(const GpuTick& T, const std::vector<int32>& Indices, std::string& Error) {
    std::vector<float> Out;
#ifdef SINEW_TEST_VULKAN
    const HlslExecutor& E = Executor();
    std::vector<vkc::Binding> B(4);
    const int32 Global[4] = {T.NumParticles, T.NumEllipsoids, 0, 0}; // $Global: two ints, std140
    B[0].Slot = E.GlobalSlot;
    B[0].Uniform = true;
    B[0].Bytes.assign(reinterpret_cast<const uint8*>(Global), reinterpret_cast<const uint8*>(Global) + sizeof(Global));
    B[1].Slot = E.ParticlesSlot;
    B[1].Bytes.assign(reinterpret_cast<const uint8*>(T.Particles.data()), reinterpret_cast<const uint8*>(T.Particles.data() + T.Particles.size()));
    B[2].Slot = E.IndicesSlot;
    B[2].Bytes.assign(reinterpret_cast<const uint8*>(Indices.data()), reinterpret_cast<const uint8*>(Indices.data() + Indices.size()));
    B[3].Slot = E.OutSlot;
    B[3].Bytes.assign(Indices.size() * ExecutedFloats * sizeof(float), 0xFF);
    bool Unavailable = false;
    Error = vkc::Run(E.Spirv, B, static_cast<uint32_t>(Indices.size()), Unavailable);
    if (Error.empty()) {
        Out.resize(Indices.size() * ExecutedFloats);
        std::memcpy(Out.data(), B[3].Bytes.data(), Out.size() * sizeof(float));
    }
#else
    (void)T;
    (void)Indices;
    Error = "no Vulkan headers";
#endif
    return Out;
}

/// After a VM tick of Inst: one GPU tick gives every function's VM outputs, bit for bit,
/// for each index from -2 to count + 1 and for INT32_MIN / INT32_MAX.
void CheckGpuMatchesVm(Instance& Inst, const std::string& What) {
    const GpuTick T = RenderTick(Inst);
    const int32 N = Call(Inst, "GetNumParticles", {}, 0).Ints[0];
    check(T.SizeAligned && T.BadUploads == 0 && T.Uploads == 1,
          What + ": the render thread data's size is a multiple of 16 bytes; one upload for two stages, within the buffer");
    check(T.NumParticles == N && !T.Particles.empty(), What + ": the GPU's particle count is the VM's (" + std::to_string(N) + "), a buffer is bound");
    std::vector<int32> Ix{std::numeric_limits<int32>::min(), std::numeric_limits<int32>::max()};
    for (int32 i = -2; i <= N + 1; ++i) Ix.push_back(i);
    const std::pair<const char*, int> Functions[] = {{"GetPosition", 3}, {"GetVelocity", 3}, {"GetDensityRatio", 1}, {"GetEllipsoid", 10}};
    for (const auto& [Name, Outputs] : Functions) {
        const VMCall Vm = Call(Inst, Name, Ix, Outputs);
        bool Same = (int)Vm.Floats.size() == Outputs;
        for (std::size_t k = 0; Same && k < Ix.size(); ++k) {
            const std::vector<float> Gpu = GpuRead(T, Name, Ix[k]);
            for (int o = 0; Same && o < Outputs; ++o) Same = SameBits(Gpu[(std::size_t)o], Vm.Floats[(std::size_t)o][k]);
        }
        check(Same, What + ": " + Name + " on the GPU gives the VM's floats, bit for bit, in and out of range");
    }
    if (!Executor().Ready) {
        std::printf("[SKIP] %s: the generated HLSL not executed: %s\n", What.c_str(), Executor().Why.c_str());
        return;
    }
    // The HLSL itself, executed over the uploaded buffer, against the VM.
    std::string Error;
    const std::vector<float> Ran = Execute(T, Ix, Error);
    const std::pair<const char*, int> Offsets[] = {{"GetPosition", 1}, {"GetVelocity", 4}, {"GetDensityRatio", 7}, {"GetEllipsoid", 8}};
    bool Executed = Error.empty() && Ran.size() == Ix.size() * ExecutedFloats;
    for (std::size_t k = 0; Executed && k < Ix.size(); ++k) {
        int32 Count = -1;
        std::memcpy(&Count, &Ran[k * ExecutedFloats], sizeof(int32));
        Executed = Count == N;
    }
    std::string Which;
    for (const auto& [Name, Offset] : Offsets) {
        const int Outputs = Name == std::string("GetEllipsoid") ? 10 : Name == std::string("GetDensityRatio") ? 1 : 3;
        const VMCall Vm = Call(Inst, Name, Ix, Outputs);
        for (std::size_t k = 0; Executed && k < Ix.size(); ++k)
            for (int o = 0; o < Outputs; ++o)
                if (!SameBits(Ran[k * ExecutedFloats + (std::size_t)(Offset + o)], Vm.Floats[(std::size_t)o][k])) {
                    Executed = false;
                    Which = std::string(" (") + Name + " at index " + std::to_string(Ix[k]) + ")";
                }
    }
    check(Executed, What + ": the generated HLSL, executed (" + Executor().Device + ") over the uploaded buffer, returns the VM's count and floats bit for bit for every index" + Which + Error);
}

/// The HLSL type Niagara gives a signature's type (the stub names types as HLSL does not).
std::string HlslType(const std::string& Type) {
    if (Type == "int") return "int";
    if (Type == "float") return "float";
    if (Type == "Vector" || Type == "Position") return "float3";
    if (Type == "Quat") return "float4";
    return "?" + Type;
}

/// The parameter list of `void Name(...)` in Hlsl (empty when there is none).
std::string HlslParameters(const std::string& Hlsl, const std::string& Name) {
    const std::size_t At = Hlsl.find("void " + Name + "(");
    if (At == std::string::npos) return "";
    const std::size_t Open = At + 5 + Name.size() + 1;
    return Hlsl.substr(Open, Hlsl.find(')', Open) - Open);
}
} // namespace

int main(int argc, char** argv) {
    // The class default object registers the data interface's type with Niagara.
    {
        USinewNiagaraDataInterface Default{FObjectInitializer()};
        Default.Flags = RF_ClassDefaultObject;
        Default.PostInitProperties();
        USinewNiagaraDataInterface Plain{FObjectInitializer()};
        Plain.PostInitProperties();
        const auto& R = FNiagaraTypeRegistry::Registered();
        check(R.size() == 1 && R[0].first == "DataInterface" &&
                  R[0].second == (ENiagaraTypeRegistryFlags::AllowAnyVariable | ENiagaraTypeRegistryFlags::AllowParameter),
              "the class default object (and only it) registers the type, as a parameter and any variable");
    }

    USinewNiagaraDataInterface DI{FObjectInitializer()};
    {
        TArray<FNiagaraFunctionSignature> Sigs;
        DI.GetFunctionSignatures(Sigs);
        const char* Names[] = {"GetNumParticles", "GetPosition", "GetVelocity", "GetDensityRatio", "GetEllipsoid"};
        const int Outputs[] = {1, 1, 1, 1, 3};
        bool Ok = Sigs.Num() == 5;
        for (int k = 0; Ok && k < 5; ++k) {
            const FNiagaraFunctionSignature& S = Sigs[k];
            Ok = S.Name == FName(Names[k]) && S.bMemberFunction && !S.bRequiresContext && S.bSupportsCPU && S.bSupportsGPU &&
                 S.Inputs.Num() == (k == 0 ? 1 : 2) && S.Inputs[0].Type.Name == "DataInterface" &&
                 (k == 0 || (S.Inputs[1].Type.Name == "int" && S.Inputs[1].Name == FName("Index"))) &&
                 S.Outputs.Num() == Outputs[k];
        }
        check(Ok, "five CPU and GPU member functions: the count, then position, velocity, density ratio, ellipsoid by index");
        check(Sigs.Num() == 5 && Sigs[1].Outputs[0].Type.Name == "Position" && Sigs[4].Outputs[1].Type.Name == "Quat",
              "positions are Niagara positions (large-world aware), the ellipsoid's rotation a quaternion");
        check(DI.CanExecuteOnTarget(ENiagaraSimTarget::CPUSim) && DI.CanExecuteOnTarget(ENiagaraSimTarget::GPUComputeSim),
              "CPU and GPU simulations");

        // The HLSL: every function the VM has, with its signature's inputs and outputs.
        FNiagaraDataInterfaceGPUParamInfo Param;
        Param.DataInterfaceHLSLSymbol = FString("DISinewParticles_0");
        FString Definitions;
        DI.GetParameterDefinitionHLSL(Param, Definitions);
        std::string Hlsl = Definitions.S;
        bool AllGenerated = true, Signatures = true;
        std::string Mismatch;
        for (const FNiagaraFunctionSignature& S : Sigs) {
            FNiagaraDataInterfaceGeneratedFunction Function;
            Function.DefinitionName = S.Name;
            Function.InstanceName = FString((S.Name.S + "_DISinewParticles_0").c_str());
            FString Out;
            AllGenerated = AllGenerated && DI.GetFunctionHLSL(Param, Function, 0, Out) && !Out.IsEmpty();
            Hlsl += Out.S;
            // Inputs but the data interface itself, then the outputs as out parameters.
            std::string Expected;
            for (int32 i = 1; i < S.Inputs.Num(); ++i)
                Expected += (Expected.empty() ? "" : ", ") + HlslType(S.Inputs[i].Type.Name) + " " + S.Inputs[i].Name.S;
            for (const FNiagaraVariable& O : S.Outputs) Expected += (Expected.empty() ? "out " : ", out ") + HlslType(O.Type.Name) + " " + O.Name.S;
            const std::string Got = HlslParameters(Out.S, Function.InstanceName.S);
            if (Got != Expected) {
                Signatures = false;
                Mismatch += " " + S.Name.S + ": (" + Got + ") vs (" + Expected + ")";
            }
        }
        check(AllGenerated, "GetFunctionHLSL writes every function the VM has");
        check(Signatures, "each HLSL function is named as Niagara asks, with the signature's inputs and outputs in order" + Mismatch);
        FNiagaraDataInterfaceGeneratedFunction NotOurs;
        NotOurs.DefinitionName = FName("GetMass");
        NotOurs.InstanceName = FString("GetMass_DISinewParticles_0");
        FString Nothing;
        check(!DI.GetFunctionHLSL(Param, NotOurs, 0, Nothing) && Nothing.IsEmpty(), "GetFunctionHLSL refuses an unknown function and writes nothing");
        bool Declared = !SinewNiagara::FShaderParameters::StubMembers().empty();
        for (const FStubShaderParameterMember& M : SinewNiagara::FShaderParameters::StubMembers()) {
            const std::string Type = std::string(M.Type) == "int32" ? "int" : M.Type;
            Declared = Declared && Definitions.S.find(Type + " DISinewParticles_0_" + M.Name + ";\n") != std::string::npos;
        }
        check(Declared && SinewNiagara::FShaderParameters::StubMembers().size() == 3,
              "the HLSL declares each shader parameter as {symbol}_{member} with the member's type (count, ellipsoids, buffer)");
        // Out-of-range indices: the HLSL guards as the VM does, and reads the layout GpuRead reads.
        const char* Reads[] = {
            "if (Index >= 0 && Index < DISinewParticles_0_NumParticles)",
            "Position = DISinewParticles_0_Particles[Index].xyz;",
            "Velocity = DISinewParticles_0_Particles[DISinewParticles_0_NumParticles + Index].xyz;",
            "DensityRatio = DISinewParticles_0_Particles[Index].w;",
            "if (Index >= 0 && Index < DISinewParticles_0_NumEllipsoids)",
            "const int Base = 2 * DISinewParticles_0_NumParticles + 3 * Index;",
            "Center = DISinewParticles_0_Particles[Base].xyz;",
            "Rotation = DISinewParticles_0_Particles[Base + 1];",
            "Radii = DISinewParticles_0_Particles[Base + 2].xyz;",
            "Rotation = float4(0.0f, 0.0f, 0.0f, 1.0f);",
        };
        bool Reading = true;
        for (const char* R : Reads) Reading = Reading && Hlsl.find(R) != std::string::npos;
        check(Reading, "the HLSL bounds each index by the count as the VM does (identity rotation outside) and reads the documented layout");

        FNiagaraCompileHashVisitor Visitor;
        check(DI.AppendCompileHash(&Visitor) && Visitor.ShaderParameterStructs == 1 && Visitor.Strings.size() == 1 &&
                  Visitor.Strings[0].second.find("out float4 Rotation") != std::string::npos &&
                  Visitor.Strings[0].second.find("StructuredBuffer<float4> DI_Particles;") != std::string::npos,
              "AppendCompileHash hashes the shader parameters and the generated HLSL's text");

        // The HLSL compiles (glslang's HLSL front end), wrapped in a compute shader calling every function.
        const std::string Wrapper = Hlsl + R"(
RWStructuredBuffer<float4> SinewOut;
[numthreads(64, 1, 1)]
void main(uint3 Thread : SV_DispatchThreadID)
{
	const int Index = (int)Thread.x - 1;
	int Count;
	GetNumParticles_DISinewParticles_0(Count);
	float3 Position, Velocity, Center, Radii;
	float4 Rotation;
	float DensityRatio;
	GetPosition_DISinewParticles_0(Index, Position);
	GetVelocity_DISinewParticles_0(Index, Velocity);
	GetDensityRatio_DISinewParticles_0(Index, DensityRatio);
	GetEllipsoid_DISinewParticles_0(Index, Center, Rotation, Radii);
	SinewOut[Thread.x] = float4(Position + Velocity + Center + Radii, DensityRatio + (float)Count) + Rotation;
}
)";
        if (std::system("command -v glslangValidator > /dev/null 2>&1") == 0) {
            // Beside this test's executable (its scratch directory), never in the working directory.
            const std::string Path = std::string(argc > 0 ? argv[0] : "unreal_niagara_test") + ".hlsl";
            bool Written = false;
            if (FILE* F = std::fopen(Path.c_str(), "w")) {
                Written = std::fputs(Wrapper.c_str(), F) >= 0;
                Written = std::fclose(F) == 0 && Written;
            }
            const std::string Command = "glslangValidator -D -S comp -e main -V '" + Path + "' -o '" + Path + ".spv' > '" + Path + ".log' 2>&1";
            const int Rc = Written ? std::system(Command.c_str()) : -1;
            if (Rc != 0) std::system(("cat '" + Path + ".log'").c_str());
            check(Written && Rc == 0, "the generated HLSL compiles as a compute shader (glslangValidator -D -S comp -e main -V " + Path + ")");
            SetUpExecutor(Hlsl, std::string(argc > 0 ? argv[0] : "unreal_niagara_test"));
        } else {
            Executor().Why = "glslangValidator not installed";
            std::printf("[SKIP] glslangValidator not installed (package glslang-tools): the generated HLSL was not compiled\n");
        }
        check(DI.HasTickGroupPrereqs() && DI.CalculateTickGroup(nullptr) > TG_PostPhysics,
              "ticks after TG_PostPhysics, where the Sinew subsystem steps");
        FVMExternalFunctionBindingInfo Unknown;
        Unknown.Name = FName("GetMass");
        FVMExternalFunction None;
        DI.GetVMExternalFunction(Unknown, nullptr, None);
        check(!None.IsBound(), "an unknown function is left unbound");
    }

    Game G;
    AActor Actor;
    auto First = MakeRope(G, Actor, "RopeA", FVector(0, 0, 300), 10);
    auto Second = MakeRope(G, Actor, "RopeB", FVector(500, 0, 300), 6);
    USceneComponent NiagaraComponent; // what the Niagara system is attached to, on the same actor
    NiagaraComponent.Owner = &Actor;
    Actor.Components.Add(&NiagaraComponent);
    FNiagaraSystemInstance System;
    System.AttachComponent = &NiagaraComponent;
    System.World = &G.World;
    System.LWCOrigin = FVector(1000.0, -500.0, 20.0);

    {
        Instance Inst(DI, System);
        {
            Instance Fresh(DI, System);
            const GpuTick NoData = RenderTick(Fresh, 1, false);
            check(NoData.NumParticles == 0 && NoData.NumEllipsoids == 0 && NoData.Particles.size() == 1 && NoData.Particles[0].X == 0.0f &&
                      NoData.Particles[0].W == 0.0f && NoData.BadUploads == 0,
                  "GPU: an instance with no data on the render thread yet binds one zero float4 and count 0");
        }
        check(static_cast<SinewNiagara::FProxy*>(DI.GetProxy())->Instances.Num() == 0, "nothing left on the render thread of an instance never ticked");
        Inst.Tick(); // before play: nothing simulates
        check(Call(Inst, "GetNumParticles", {}, 0).Ints[0] == 0, "no particles before the ropes begin play");
        CheckGpuMatchesVm(Inst, "before play (no Sinew component yet)");
        First->BeginPlay();
        Second->BeginPlay();
        G.Frames(20); // a third of a second: swinging down
        Inst.Tick();
        const VMCall Count = Call(Inst, "GetNumParticles", {}, 0);
        check(Count.Ints == std::vector<int32>{11, 11, 11}, "GetNumParticles: the first rope's 11 particles, for every instance");

        // The rope as drawn: its particles interpolated at the subsystem's alpha, in cm.
        TArray<FVector> Locations = Drawn(G, *First);
        const std::vector<int32> Ix = Indices(11);
        const VMCall Pos = Call(Inst, "GetPosition", Ix, 3);
        bool Exact = Locations.Num() == 11;
        for (int32 i = 0; Exact && i < 11; ++i) {
            const FVector Sim = Locations[i] - System.LWCOrigin;
            Exact = SameF(Pos.Floats[0][(size_t)i + 1], Sim.X) && SameF(Pos.Floats[1][(size_t)i + 1], Sim.Y) &&
                    SameF(Pos.Floats[2][(size_t)i + 1], Sim.Z);
        }
        check(Exact, "GetPosition(i): the rope's particle as drawn (cm, world) in the system's space, bit for bit");
        check(Locations.Num() == 11 && Locations[10].Z < 290.0, "the free end has fallen (the positions are this frame's)");
        const bool Edges = Pos.Floats[0][0] == 0.0f && Pos.Floats[2][0] == 0.0f && Pos.Floats[0][12] == 0.0f && Pos.Floats[2][12] == 0.0f;
        check(Edges, "GetPosition outside [0, count): zeros");

        std::vector<FVector3f> SimVel;
        check(static_cast<bool>(G.Sub.GetScene()->read_velocities(G.Sub.GetSinewBodyOf(First.get()), SimVel)), "the rope's velocities read");
        const VMCall Vel = Call(Inst, "GetVelocity", Ix, 3);
        bool VelOk = SimVel.size() == 11;
        for (int32 i = 0; VelOk && i < 11; ++i) {
            const FVector V = SinewUE::VelocityFromSim(sinew::Vec3{SimVel[(size_t)i].X, SimVel[(size_t)i].Y, SimVel[(size_t)i].Z});
            VelOk = SameF(Vel.Floats[0][(size_t)i + 1], V.X) && SameF(Vel.Floats[1][(size_t)i + 1], V.Y) && SameF(Vel.Floats[2][(size_t)i + 1], V.Z);
        }
        check(VelOk, "GetVelocity(i): the particle's velocity in cm/s");
        check(Vel.Floats[0][1] == 0.0f && Vel.Floats[2][1] == 0.0f && Vel.Floats[2][11] < -50.0f,
              "the pinned top is still, the free end falls (over 50 cm/s)");
        const VMCall Dens = Call(Inst, "GetDensityRatio", Ix, 1);
        bool Zero = true;
        for (float D : Dens.Floats[0]) Zero = Zero && D == 0.0f;
        check(Zero, "GetDensityRatio: 0 for a rope's particles");
        const VMCall Ell = Call(Inst, "GetEllipsoid", {0, 5}, 10);
        check(Ell.Floats[3][0] == 0.0f && Ell.Floats[6][0] == 1.0f && Ell.Floats[7][1] == 0.0f,
              "GetEllipsoid: nothing for a rope (identity rotation, zero radii)");
        CheckGpuMatchesVm(Inst, "a rope");
        const GpuTick Again = RenderTick(Inst, 3, false);
        check(Again.Uploads == 0 && Again.NumParticles == 11 && Again.Particles.size() == 22,
              "GPU: a render tick without new data uploads nothing and binds the last buffer (11 particles, 2 float4 each)");

        // The second rope by name.
        USinewNiagaraDataInterface Named{FObjectInitializer()};
        Named.SourceComponentName = FName("RopeB");
        Instance ByName(Named, System);
        ByName.Tick();
        check(Call(ByName, "GetNumParticles", {}, 0).Ints[0] == 7, "SourceComponentName picks the second rope (7 particles)");
        const TArray<FVector> SecondLocations = Drawn(G, *Second);
        const VMCall Last = Call(ByName, "GetPosition", {6}, 3);
        check(SecondLocations.Num() == 7 && SameF(Last.Floats[0][0], SecondLocations[6].X - System.LWCOrigin.X) &&
                  SameF(Last.Floats[2][0], SecondLocations[6].Z - System.LWCOrigin.Z),
              "and its last particle where that rope draws it");
        check(Named.Equals(&Named) && !Named.Equals(&DI), "Equals compares the source settings");
        USinewNiagaraDataInterface Copy{FObjectInitializer()};
        check(Named.CopyTo(&Copy) && Copy.Equals(&Named) && Copy.SourceComponentName == FName("RopeB"), "CopyTo copies them");

        // The rope leaves: nothing to read, nothing stale.
        First->EndPlay(EEndPlayReason::Destroyed);
        G.Frames(1);
        Inst.Tick();
        check(Call(Inst, "GetNumParticles", {}, 0).Ints[0] == 7, "the first rope gone, the next Sinew component of the actor is read");
        Second->EndPlay(EEndPlayReason::Destroyed);
        G.Frames(1);
        Inst.Tick();
        check(Call(Inst, "GetNumParticles", {}, 0).Ints[0] == 0 && Call(Inst, "GetPosition", {0}, 3).Floats[0][0] == 0.0f,
              "no Sinew component left: count 0, zeros");
        CheckGpuMatchesVm(Inst, "after the ropes left (zero particles)");
    }
    check(static_cast<SinewNiagara::FProxy*>(DI.GetProxy())->Instances.Num() == 0,
          "DestroyPerInstanceData removes the instance's buffer on the render thread");

    // A fluid on another actor (Source), drawn as ellipsoids, read with its ellipsoids.
    {
        AActor Tank;
        auto Water = std::make_unique<USinewFluidComponent>(FObjectInitializer());
        Water->World = &G.World;
        Water->Owner = &Tank;
        Water->Spacing = 5.0f;
        Water->Capacity = 400;
        Water->EmitterShape = ESinewFluidEmitterShape::None;
        Water->DrawMode = ESinewFluidDrawMode::Ellipsoids;
        Tank.Components.Add(Water.get());
        Water->BeginPlay();
        TArray<FVector> At, NoVel;
        for (int i = 0; i < 4; ++i)
            for (int j = 0; j < 4; ++j)
                for (int k = 0; k < 4; ++k) At.Add(FVector(2000.0 + 5.0 * i, 5.0 * j, 100.0 + 5.0 * k));
        check(Water->Emit(At, NoVel) == 0, "64 fluid particles emitted");
        G.Frames(3);

        USinewNiagaraDataInterface Fluid{FObjectInitializer()};
        Fluid.Source = &Tank;
        Fluid.bReadEllipsoids = true;
        Instance Inst(Fluid, System);
        Inst.Tick();
        const int32 N = Call(Inst, "GetNumParticles", {}, 0).Ints[0];
        TArray<FVector> Loc, Vel;
        check(N == 64 && Water->ReadParticles(Loc, Vel) == 64, "GetNumParticles: the fluid's 64 live particles");
        std::vector<int32> Ix;
        for (int32 i = 0; i < N; ++i) Ix.push_back(i);
        const VMCall P = Call(Inst, "GetPosition", Ix, 3);
        const VMCall V = Call(Inst, "GetVelocity", Ix, 3);
        const VMCall D = Call(Inst, "GetDensityRatio", Ix, 1);
        const VMCall E = Call(Inst, "GetEllipsoid", Ix, 10);
        bool PosOk = N == 64, VelOk = N == 64, DensOk = N == 64, EllOk = N == 64;
        float MaxRatio = 0.0f;
        for (int32 i = 0; i < N; ++i) {
            const FVector Sim = Loc[i] - System.LWCOrigin;
            PosOk = PosOk && SameF(P.Floats[0][(size_t)i], Sim.X) && SameF(P.Floats[1][(size_t)i], Sim.Y) && SameF(P.Floats[2][(size_t)i], Sim.Z);
            VelOk = VelOk && SameF(V.Floats[0][(size_t)i], Vel[i].X) && SameF(V.Floats[1][(size_t)i], Vel[i].Y) && SameF(V.Floats[2][(size_t)i], Vel[i].Z);
            const float Ratio = D.Floats[0][(size_t)i];
            DensOk = DensOk && std::isfinite(Ratio) && Ratio > 0.0f;
            MaxRatio = std::fmax(MaxRatio, Ratio);
            // The instance the component draws: a sphere of MeshDiameter scaled by radius / (diameter / 2).
            FTransform Drawn;
            const bool Have = Water->GetInstanceTransform(i, Drawn, true);
            const double R = 0.5 * Water->MeshDiameter;
            const FVector C = Drawn.GetLocation() - System.LWCOrigin;
            const FQuat Q = Drawn.GetRotation();
            EllOk = EllOk && Have && SameF(E.Floats[0][(size_t)i], C.X) && SameF(E.Floats[1][(size_t)i], C.Y) &&
                    SameF(E.Floats[2][(size_t)i], C.Z) && SameF(E.Floats[3][(size_t)i], Q.X) && SameF(E.Floats[6][(size_t)i], Q.W) &&
                    std::fabs(E.Floats[7][(size_t)i] - Drawn.GetScale3D().X * R) < 1e-4 * R &&
                    std::fabs(E.Floats[9][(size_t)i] - Drawn.GetScale3D().Z * R) < 1e-4 * R && E.Floats[7][(size_t)i] > 0.0f;
        }
        check(PosOk, "GetPosition(i): the fluid component's particle location, bit for bit");
        check(VelOk, "GetVelocity(i): its velocity in cm/s, bit for bit");
        check(DensOk, "GetDensityRatio(i): a positive, finite rho / rho0 per particle");
        const float StatsMax = Water->GetStats().MaxDensityRatio;
        check(std::fabs(MaxRatio - StatsMax) <= 1e-5f * StatsMax, "their maximum is the fluid's MaxDensityRatio (" + std::to_string(MaxRatio) + ")");
        check(EllOk, "GetEllipsoid(i): the centre, rotation and radii (cm) of the ellipsoid the fluid draws");
        CheckGpuMatchesVm(Inst, "a fluid with ellipsoids");
        const GpuTick Shaped = RenderTick(Inst);
        check(Shaped.NumEllipsoids == 64 && Shaped.Particles.size() == 64 * 5, "GPU: the fluid's 64 ellipsoids follow its particles (5 float4 each)");
        Water->EndPlay(EEndPlayReason::Destroyed);
    }

    return Finish();
}

#include "SinewNiagaraDataInterface.h"

#include "Components/SceneComponent.h"
#include "Engine/World.h"
#include "GameFramework/Actor.h"
#include "NiagaraCompileHashVisitor.h"
#include "NiagaraShaderParametersBuilder.h"
#include "NiagaraSystemInstance.h"
#include "NiagaraTypes.h"
#include "RenderGraphBuilder.h"
#include "RenderingThread.h"
#include "ShaderParameterStruct.h"
#include "SinewConversions.h"
#include "SinewFluidInstances.h"
#include "SinewWorldSubsystem.h"

#include <new>

namespace SinewNiagara
{
static const FName GetNumParticlesName(TEXT("GetNumParticles"));
static const FName GetPositionName(TEXT("GetPosition"));
static const FName GetVelocityName(TEXT("GetVelocity"));
static const FName GetDensityRatioName(TEXT("GetDensityRatio"));
static const FName GetEllipsoidName(TEXT("GetEllipsoid"));
/** Every function, in the order AddSignatures lists them. */
static const FName FunctionNames[] = {GetNumParticlesName, GetPositionName, GetVelocityName, GetDensityRatioName, GetEllipsoidName};

/** What one Niagara system instance reads: this tick's particles in Niagara's units. */
struct FInstanceData
{
	/** The component read last tick (looked up again when it stops simulating). */
	TWeakObjectPtr<USceneComponent> Component;
	/** SI readback from the component (capacity kept between ticks). */
	FSinewParticleReadback Readback;
	/** Count entries each, in the component's particle order. */
	TArray<FNiagaraPosition> Positions;    // cm, simulation space of a world-space emitter
	TArray<FVector3f> Velocities;          // cm/s
	TArray<float> DensityRatios;           // rho / rho0 (0 when the component has none)
	TArray<FNiagaraPosition> Centers;      // ellipsoid centres, cm (bReadEllipsoids)
	TArray<FQuat4f> Rotations;             // the ellipsoid's axes as a rotation of X, Y, Z
	TArray<FVector3f> Radii;               // cm along those axes, longest first
	int32 Count = 0;
};

/** What the game thread hands the render thread each tick for GPU emitters (the layout at the top of the header). */
struct FGpuFrame
{
	TArray<FVector4f> Packed; // never empty: one float4 of zeros when there is nothing to read
	int32 NumParticles = 0;
	int32 NumEllipsoids = 0;
};

/** Packs this tick's particles as the GPU functions read them; the same floats the VM functions return. */
static void PackForGpu(const FInstanceData& Data, FGpuFrame& Out)
{
	const int32 N = Data.Count;
	const int32 E = FMath::Min(Data.Centers.Num(), N); // as VMGetEllipsoid bounds its index
	Out.NumParticles = N;
	Out.NumEllipsoids = E;
	Out.Packed.SetNumUninitialized(FMath::Max(2 * N + 3 * E, 1));
	Out.Packed[0] = FVector4f(0.0f, 0.0f, 0.0f, 0.0f);
	for (int32 i = 0; i < N; ++i)
	{
		Out.Packed[i] = FVector4f(Data.Positions[i], Data.DensityRatios[i]);
		Out.Packed[N + i] = FVector4f(Data.Velocities[i], 0.0f);
	}
	for (int32 i = 0; i < E; ++i)
	{
		const FQuat4f& Q = Data.Rotations[i];
		Out.Packed[2 * N + 3 * i] = FVector4f(Data.Centers[i], 0.0f);
		Out.Packed[2 * N + 3 * i + 1] = FVector4f(Q.X, Q.Y, Q.Z, Q.W);
		Out.Packed[2 * N + 3 * i + 2] = FVector4f(Data.Radii[i], 0.0f);
	}
}

/** The compute shader's parameters; HLSL names them {DataInterfaceHLSLSymbol}_{Member}. */
BEGIN_SHADER_PARAMETER_STRUCT(FShaderParameters, )
	SHADER_PARAMETER(int32, NumParticles)
	SHADER_PARAMETER(int32, NumEllipsoids)
	SHADER_PARAMETER_RDG_BUFFER_SRV(StructuredBuffer<float4>, Particles)
END_SHADER_PARAMETER_STRUCT()

// The HLSL: {Symbol} is the data interface's HLSL symbol, {Function} the generated function's name.
static const TCHAR* const ParameterHLSL = TEXT(
	"StructuredBuffer<float4> {Symbol}_Particles;\n"
	"int {Symbol}_NumParticles;\n"
	"int {Symbol}_NumEllipsoids;\n");
static const TCHAR* const GetNumParticlesHLSL = TEXT(
	"void {Function}(out int Count)\n"
	"{\n"
	"\tCount = {Symbol}_NumParticles;\n"
	"}\n");
static const TCHAR* const GetPositionHLSL = TEXT(
	"void {Function}(int Index, out float3 Position)\n"
	"{\n"
	"\tPosition = float3(0.0f, 0.0f, 0.0f);\n"
	"\tif (Index >= 0 && Index < {Symbol}_NumParticles)\n"
	"\t{\n"
	"\t\tPosition = {Symbol}_Particles[Index].xyz;\n"
	"\t}\n"
	"}\n");
static const TCHAR* const GetVelocityHLSL = TEXT(
	"void {Function}(int Index, out float3 Velocity)\n"
	"{\n"
	"\tVelocity = float3(0.0f, 0.0f, 0.0f);\n"
	"\tif (Index >= 0 && Index < {Symbol}_NumParticles)\n"
	"\t{\n"
	"\t\tVelocity = {Symbol}_Particles[{Symbol}_NumParticles + Index].xyz;\n"
	"\t}\n"
	"}\n");
static const TCHAR* const GetDensityRatioHLSL = TEXT(
	"void {Function}(int Index, out float DensityRatio)\n"
	"{\n"
	"\tDensityRatio = 0.0f;\n"
	"\tif (Index >= 0 && Index < {Symbol}_NumParticles)\n"
	"\t{\n"
	"\t\tDensityRatio = {Symbol}_Particles[Index].w;\n"
	"\t}\n"
	"}\n");
static const TCHAR* const GetEllipsoidHLSL = TEXT(
	"void {Function}(int Index, out float3 Center, out float4 Rotation, out float3 Radii)\n"
	"{\n"
	"\tCenter = float3(0.0f, 0.0f, 0.0f);\n"
	"\tRotation = float4(0.0f, 0.0f, 0.0f, 1.0f);\n"
	"\tRadii = float3(0.0f, 0.0f, 0.0f);\n"
	"\tif (Index >= 0 && Index < {Symbol}_NumEllipsoids)\n"
	"\t{\n"
	"\t\tconst int Base = 2 * {Symbol}_NumParticles + 3 * Index;\n"
	"\t\tCenter = {Symbol}_Particles[Base].xyz;\n"
	"\t\tRotation = {Symbol}_Particles[Base + 1];\n"
	"\t\tRadii = {Symbol}_Particles[Base + 2].xyz;\n"
	"\t}\n"
	"}\n");

/** The HLSL template of the function named Definition (null for a name this data interface does not have). */
static const TCHAR* FunctionTemplate(FName Definition)
{
	if (Definition == GetNumParticlesName)
	{
		return GetNumParticlesHLSL;
	}
	if (Definition == GetPositionName)
	{
		return GetPositionHLSL;
	}
	if (Definition == GetVelocityName)
	{
		return GetVelocityHLSL;
	}
	if (Definition == GetDensityRatioName)
	{
		return GetDensityRatioHLSL;
	}
	if (Definition == GetEllipsoidName)
	{
		return GetEllipsoidHLSL;
	}
	return nullptr;
}

static FString Substitute(const TCHAR* Template, const FString& Symbol, const FString& Function)
{
	return FString(Template).Replace(TEXT("{Symbol}"), *Symbol, ESearchCase::CaseSensitive).Replace(TEXT("{Function}"), *Function, ESearchCase::CaseSensitive);
}

/** The render thread's side: one structured buffer per system instance, uploaded once per tick. */
struct FProxy : public FNiagaraDataInterfaceProxy
{
	struct FInstance
	{
		FGpuFrame Frame;                          // the last tick's data from the game thread
		bool bUploaded = false;                   // Frame is in Buffer
		TRefCountPtr<FRDGPooledBuffer> Buffer;    // Frame.Packed on the GPU
		int32 NumParticles = 0;
		int32 NumEllipsoids = 0;
	};
	TMap<FNiagaraSystemInstanceID, FInstance> Instances;

	virtual int32 PerInstanceDataPassedToRenderThreadSize() const override { return (int32)Align(sizeof(FGpuFrame), 16); }

	virtual void ConsumePerInstanceDataFromGameThread(void* PerInstanceData, const FNiagaraSystemInstanceID& Instance) override
	{
		FGpuFrame* From = static_cast<FGpuFrame*>(PerInstanceData);
		FInstance& To = Instances.FindOrAdd(Instance);
		To.Frame = MoveTemp(*From);
		To.bUploaded = false;
		From->~FGpuFrame(); // Niagara recycles the memory; what was placed in it is destroyed here
	}

	virtual void PreStage(const FNDIGpuComputePreStageContext& Context) override
	{
		FInstance* Instance = Instances.Find(Context.GetSystemInstanceID());
		if (!Instance || Instance->bUploaded || Instance->Frame.Packed.Num() == 0)
		{
			return; // nothing new (several stages in one tick upload once)
		}
		FRDGBuilder& GraphBuilder = Context.GetGraphBuilder();
		const TArray<FVector4f>& Packed = Instance->Frame.Packed;
		FRDGBufferRef Buffer = GraphBuilder.CreateBuffer(FRDGBufferDesc::CreateStructuredDesc(sizeof(FVector4f), (uint32)Packed.Num()), TEXT("Sinew.NiagaraParticles"));
		GraphBuilder.QueueBufferUpload(Buffer, Packed.GetData(), (uint64)Packed.Num() * sizeof(FVector4f), ERDGInitialDataFlags::None);
		Instance->Buffer = GraphBuilder.ConvertToExternalBuffer(Buffer);
		Instance->NumParticles = Instance->Frame.NumParticles;
		Instance->NumEllipsoids = Instance->Frame.NumEllipsoids;
		Instance->bUploaded = true;
	}
};

/** The Sinew particle component of Actor named Name (none: the first one), registered with Sub. */
static USceneComponent* FindSource(const AActor& Actor, FName Name, const USinewWorldSubsystem& Sub)
{
	TArray<USceneComponent*> Components;
	Actor.GetComponents(Components);
	for (USceneComponent* Component : Components)
	{
		if ((Name.IsNone() || Component->GetFName() == Name) && Sub.FindSimulated(Component))
		{
			return Component;
		}
	}
	return nullptr;
}
} // namespace SinewNiagara

USinewNiagaraDataInterface::USinewNiagaraDataInterface(const FObjectInitializer& ObjectInitializer)
	: Super(ObjectInitializer)
{
	Proxy.Reset(new SinewNiagara::FProxy());
}

void USinewNiagaraDataInterface::PostInitProperties()
{
	Super::PostInitProperties();
	// Niagara knows a data interface's type once it is registered (the class default object does it).
	if (HasAnyFlags(RF_ClassDefaultObject))
	{
		ENiagaraTypeRegistryFlags Flags = ENiagaraTypeRegistryFlags::AllowAnyVariable | ENiagaraTypeRegistryFlags::AllowParameter;
		FNiagaraTypeRegistry::Register(FNiagaraTypeDefinition(GetClass()), Flags);
	}
}

int32 USinewNiagaraDataInterface::PerInstanceDataSize() const
{
	return (int32)sizeof(SinewNiagara::FInstanceData);
}

bool USinewNiagaraDataInterface::InitPerInstanceData(void* PerInstanceData, FNiagaraSystemInstance* SystemInstance)
{
	new (PerInstanceData) SinewNiagara::FInstanceData();
	return true;
}

void USinewNiagaraDataInterface::DestroyPerInstanceData(void* PerInstanceData, FNiagaraSystemInstance* SystemInstance)
{
	static_cast<SinewNiagara::FInstanceData*>(PerInstanceData)->~FInstanceData();
	if (SystemInstance)
	{
		// The render thread's buffer of this instance goes after the commands already queued.
		SinewNiagara::FProxy* RenderProxy = GetProxyAs<SinewNiagara::FProxy>();
		const FNiagaraSystemInstanceID Id = SystemInstance->GetId();
		ENQUEUE_RENDER_COMMAND(FSinewNiagaraRemoveInstance)(
			[RenderProxy, Id](FRHICommandListImmediate& RHICmdList)
			{
				RenderProxy->Instances.Remove(Id);
			});
	}
}

void USinewNiagaraDataInterface::ProvidePerInstanceDataForRenderThread(void* DataForRenderThread, void* PerInstanceData, const FNiagaraSystemInstanceID& SystemInstance)
{
	SinewNiagara::FGpuFrame* Frame = new (DataForRenderThread) SinewNiagara::FGpuFrame();
	SinewNiagara::PackForGpu(*static_cast<const SinewNiagara::FInstanceData*>(PerInstanceData), *Frame);
}

#if WITH_EDITORONLY_DATA
bool USinewNiagaraDataInterface::AppendCompileHash(FNiagaraCompileHashVisitor* InVisitor) const
{
	bool bOk = Super::AppendCompileHash(InVisitor);
	// The HLSL is generated here, not read from a file: hash its text (a change recompiles the GPU scripts).
	FString HLSL = SinewNiagara::Substitute(SinewNiagara::ParameterHLSL, TEXT("DI"), TEXT(""));
	for (const FName& Name : SinewNiagara::FunctionNames)
	{
		HLSL += SinewNiagara::Substitute(SinewNiagara::FunctionTemplate(Name), TEXT("DI"), TEXT("F"));
	}
	bOk &= InVisitor->UpdateString(TEXT("SinewNiagaraDataInterfaceHLSL"), HLSL);
	bOk &= InVisitor->UpdateShaderParameters<SinewNiagara::FShaderParameters>();
	return bOk;
}

void USinewNiagaraDataInterface::GetParameterDefinitionHLSL(const FNiagaraDataInterfaceGPUParamInfo& ParamInfo, FString& OutHLSL)
{
	OutHLSL += SinewNiagara::Substitute(SinewNiagara::ParameterHLSL, ParamInfo.DataInterfaceHLSLSymbol, TEXT(""));
}

bool USinewNiagaraDataInterface::GetFunctionHLSL(const FNiagaraDataInterfaceGPUParamInfo& ParamInfo, const FNiagaraDataInterfaceGeneratedFunction& FunctionInfo, int FunctionInstanceIndex, FString& OutHLSL)
{
	const TCHAR* Template = SinewNiagara::FunctionTemplate(FunctionInfo.DefinitionName);
	if (!Template)
	{
		return false;
	}
	OutHLSL += SinewNiagara::Substitute(Template, ParamInfo.DataInterfaceHLSLSymbol, FunctionInfo.InstanceName);
	return true;
}
#endif

void USinewNiagaraDataInterface::BuildShaderParameters(FNiagaraShaderParametersBuilder& ShaderParametersBuilder) const
{
	ShaderParametersBuilder.AddNestedStruct<SinewNiagara::FShaderParameters>();
}

void USinewNiagaraDataInterface::SetShaderParameters(const FNiagaraDataInterfaceSetShaderParametersContext& Context) const
{
	SinewNiagara::FProxy& RenderProxy = Context.GetProxy<SinewNiagara::FProxy>();
	SinewNiagara::FShaderParameters* Parameters = Context.GetParameterNestedStruct<SinewNiagara::FShaderParameters>();
	FRDGBuilder& GraphBuilder = Context.GetGraphBuilder();
	const SinewNiagara::FProxy::FInstance* Instance = RenderProxy.Instances.Find(Context.GetSystemInstanceID());
	if (Instance && Instance->Buffer.IsValid())
	{
		Parameters->NumParticles = Instance->NumParticles;
		Parameters->NumEllipsoids = Instance->NumEllipsoids;
		Parameters->Particles = GraphBuilder.CreateSRV(GraphBuilder.RegisterExternalBuffer(Instance->Buffer));
		return;
	}
	// Nothing uploaded yet for this instance: nothing to read, and still a buffer bound.
	static const FVector4f Zero(0.0f, 0.0f, 0.0f, 0.0f);
	FRDGBufferRef Empty = GraphBuilder.CreateBuffer(FRDGBufferDesc::CreateStructuredDesc(sizeof(FVector4f), 1), TEXT("Sinew.NiagaraParticles.Empty"));
	GraphBuilder.QueueBufferUpload(Empty, &Zero, sizeof(FVector4f), ERDGInitialDataFlags::None);
	Parameters->NumParticles = 0;
	Parameters->NumEllipsoids = 0;
	Parameters->Particles = GraphBuilder.CreateSRV(Empty);
}

bool USinewNiagaraDataInterface::PerInstanceTick(void* PerInstanceData, FNiagaraSystemInstance* SystemInstance, float DeltaSeconds)
{
	SinewNiagara::FInstanceData& Data = *static_cast<SinewNiagara::FInstanceData*>(PerInstanceData);
	Data.Count = 0;
	UWorld* World = SystemInstance ? SystemInstance->GetWorld() : nullptr;
	USinewWorldSubsystem* Sub = World ? World->GetSubsystem<USinewWorldSubsystem>() : nullptr;
	if (!Sub)
	{
		return false;
	}
	ISinewSimulated* Simulated = Sub->FindSimulated(Data.Component.Get());
	if (!Simulated)
	{
		// Not found yet, or it left the simulation: look again.
		const USceneComponent* Attach = SystemInstance->GetAttachComponent();
		const AActor* Actor = Source.Get() ? Source.Get() : (Attach ? Attach->GetOwner() : nullptr);
		Data.Component = Actor ? SinewNiagara::FindSource(*Actor, SourceComponentName, *Sub) : nullptr;
		Simulated = Sub->FindSimulated(Data.Component.Get());
	}
	Data.Readback.bWantEllipsoids = bReadEllipsoids;
	if (!Simulated || !Simulated->ReadSinewParticles(*Sub, Data.Readback))
	{
		return false;
	}
	// One pass over the read particles: cm, world axes, the emitter's simulation space.
	const FSinewParticleReadback& Read = Data.Readback;
	const int32 N = (int32)Read.Count;
	const sinew::units::Frame& Frame = Sub->GetFrame();
	const FNiagaraLWCConverter LWC = SystemInstance->GetLWCConverter();
	Data.Positions.SetNumUninitialized(N);
	Data.Velocities.SetNumUninitialized(N);
	Data.DensityRatios.SetNumUninitialized(N);
	const bool bDensities = Read.DensityRatios.size() >= (size_t)N;
	for (int32 i = 0; i < N; ++i)
	{
		const FVector3f& P = Read.Positions[(size_t)i];
		const FVector3f& V = Read.Velocities[(size_t)i];
		Data.Positions[i] = LWC.ConvertWorldToSimulationPosition(SinewUE::FromSim(Frame, sinew::Vec3{P.X, P.Y, P.Z}));
		Data.Velocities[i] = FVector3f(SinewUE::VelocityFromSim(sinew::Vec3{V.X, V.Y, V.Z}));
		Data.DensityRatios[i] = bDensities ? Read.DensityRatios[(size_t)i] : 0.0f;
	}
	const int32 Shaped = Read.Ellipsoids.size() >= (size_t)N ? N : 0;
	Data.Centers.SetNumUninitialized(Shaped);
	Data.Rotations.SetNumUninitialized(Shaped);
	Data.Radii.SetNumUninitialized(Shaped);
	for (int32 i = 0; i < Shaped; ++i)
	{
		// A sphere of diameter 2 cm scaled by the transform's scale is the ellipsoid: the scale is the radii in cm.
		const FTransform T = SinewUE::EllipsoidTransform(Frame, Read.Ellipsoids[(size_t)i], 2.0);
		Data.Centers[i] = LWC.ConvertWorldToSimulationPosition(T.GetLocation());
		Data.Rotations[i] = FQuat4f(T.GetRotation());
		Data.Radii[i] = FVector3f(T.GetScale3D());
	}
	Data.Count = N;
	return false; // never asks Niagara to reset the system instance
}

void USinewNiagaraDataInterface::AddSignatures(TArray<FNiagaraFunctionSignature>& OutFunctions) const
{
	FNiagaraFunctionSignature Base;
	Base.bMemberFunction = true;
	Base.bRequiresContext = false;
	Base.bSupportsCPU = true;
	Base.bSupportsGPU = true;
	Base.Inputs.Add(FNiagaraVariable(FNiagaraTypeDefinition(GetClass()), TEXT("SinewParticles")));
	{
		FNiagaraFunctionSignature& Sig = OutFunctions.Add_GetRef(Base);
		Sig.Name = SinewNiagara::GetNumParticlesName;
		Sig.Outputs.Add(FNiagaraVariable(FNiagaraTypeDefinition::GetIntDef(), TEXT("Count")));
	}
	Base.Inputs.Add(FNiagaraVariable(FNiagaraTypeDefinition::GetIntDef(), TEXT("Index")));
	{
		FNiagaraFunctionSignature& Sig = OutFunctions.Add_GetRef(Base);
		Sig.Name = SinewNiagara::GetPositionName;
		Sig.Outputs.Add(FNiagaraVariable(FNiagaraTypeDefinition::GetPositionDef(), TEXT("Position")));
	}
	{
		FNiagaraFunctionSignature& Sig = OutFunctions.Add_GetRef(Base);
		Sig.Name = SinewNiagara::GetVelocityName;
		Sig.Outputs.Add(FNiagaraVariable(FNiagaraTypeDefinition::GetVec3Def(), TEXT("Velocity")));
	}
	{
		FNiagaraFunctionSignature& Sig = OutFunctions.Add_GetRef(Base);
		Sig.Name = SinewNiagara::GetDensityRatioName;
		Sig.Outputs.Add(FNiagaraVariable(FNiagaraTypeDefinition::GetFloatDef(), TEXT("DensityRatio")));
	}
	{
		FNiagaraFunctionSignature& Sig = OutFunctions.Add_GetRef(Base);
		Sig.Name = SinewNiagara::GetEllipsoidName;
		Sig.Outputs.Add(FNiagaraVariable(FNiagaraTypeDefinition::GetPositionDef(), TEXT("Center")));
		Sig.Outputs.Add(FNiagaraVariable(FNiagaraTypeDefinition::GetQuatDef(), TEXT("Rotation")));
		Sig.Outputs.Add(FNiagaraVariable(FNiagaraTypeDefinition::GetVec3Def(), TEXT("Radii")));
	}
}

#if UE_VERSION_OLDER_THAN(5, 4, 0)
void USinewNiagaraDataInterface::GetFunctions(TArray<FNiagaraFunctionSignature>& OutFunctions)
{
	AddSignatures(OutFunctions);
}
#elif WITH_EDITORONLY_DATA
void USinewNiagaraDataInterface::GetFunctionsInternal(TArray<FNiagaraFunctionSignature>& OutFunctions) const
{
	AddSignatures(OutFunctions);
}
#endif

void USinewNiagaraDataInterface::GetVMExternalFunction(const FVMExternalFunctionBindingInfo& BindingInfo, void* InstanceData, FVMExternalFunction& OutFunc)
{
	if (BindingInfo.Name == SinewNiagara::GetNumParticlesName)
	{
		OutFunc = FVMExternalFunction::CreateUObject(this, &USinewNiagaraDataInterface::VMGetNumParticles);
	}
	else if (BindingInfo.Name == SinewNiagara::GetPositionName)
	{
		OutFunc = FVMExternalFunction::CreateUObject(this, &USinewNiagaraDataInterface::VMGetPosition);
	}
	else if (BindingInfo.Name == SinewNiagara::GetVelocityName)
	{
		OutFunc = FVMExternalFunction::CreateUObject(this, &USinewNiagaraDataInterface::VMGetVelocity);
	}
	else if (BindingInfo.Name == SinewNiagara::GetDensityRatioName)
	{
		OutFunc = FVMExternalFunction::CreateUObject(this, &USinewNiagaraDataInterface::VMGetDensityRatio);
	}
	else if (BindingInfo.Name == SinewNiagara::GetEllipsoidName)
	{
		OutFunc = FVMExternalFunction::CreateUObject(this, &USinewNiagaraDataInterface::VMGetEllipsoid);
	}
}

void USinewNiagaraDataInterface::VMGetNumParticles(FVectorVMExternalFunctionContext& Context)
{
	VectorVM::FUserPtrHandler<SinewNiagara::FInstanceData> Data(Context);
	FNDIOutputParam<int32> OutCount(Context);
	for (int32 i = 0; i < Context.GetNumInstances(); ++i)
	{
		OutCount.SetAndAdvance(Data->Count);
	}
}

void USinewNiagaraDataInterface::VMGetPosition(FVectorVMExternalFunctionContext& Context)
{
	VectorVM::FUserPtrHandler<SinewNiagara::FInstanceData> Data(Context);
	FNDIInputParam<int32> InIndex(Context);
	FNDIOutputParam<FNiagaraPosition> OutPosition(Context);
	for (int32 i = 0; i < Context.GetNumInstances(); ++i)
	{
		const int32 Index = InIndex.GetAndAdvance();
		OutPosition.SetAndAdvance(Index >= 0 && Index < Data->Count ? Data->Positions[Index] : FNiagaraPosition(FVector3f(0.0f, 0.0f, 0.0f)));
	}
}

void USinewNiagaraDataInterface::VMGetVelocity(FVectorVMExternalFunctionContext& Context)
{
	VectorVM::FUserPtrHandler<SinewNiagara::FInstanceData> Data(Context);
	FNDIInputParam<int32> InIndex(Context);
	FNDIOutputParam<FVector3f> OutVelocity(Context);
	for (int32 i = 0; i < Context.GetNumInstances(); ++i)
	{
		const int32 Index = InIndex.GetAndAdvance();
		OutVelocity.SetAndAdvance(Index >= 0 && Index < Data->Count ? Data->Velocities[Index] : FVector3f(0.0f, 0.0f, 0.0f));
	}
}

void USinewNiagaraDataInterface::VMGetDensityRatio(FVectorVMExternalFunctionContext& Context)
{
	VectorVM::FUserPtrHandler<SinewNiagara::FInstanceData> Data(Context);
	FNDIInputParam<int32> InIndex(Context);
	FNDIOutputParam<float> OutRatio(Context);
	for (int32 i = 0; i < Context.GetNumInstances(); ++i)
	{
		const int32 Index = InIndex.GetAndAdvance();
		OutRatio.SetAndAdvance(Index >= 0 && Index < Data->Count ? Data->DensityRatios[Index] : 0.0f);
	}
}

void USinewNiagaraDataInterface::VMGetEllipsoid(FVectorVMExternalFunctionContext& Context)
{
	VectorVM::FUserPtrHandler<SinewNiagara::FInstanceData> Data(Context);
	FNDIInputParam<int32> InIndex(Context);
	FNDIOutputParam<FNiagaraPosition> OutCenter(Context);
	FNDIOutputParam<FQuat4f> OutRotation(Context);
	FNDIOutputParam<FVector3f> OutRadii(Context);
	const int32 Shaped = FMath::Min(Data->Centers.Num(), Data->Count);
	for (int32 i = 0; i < Context.GetNumInstances(); ++i)
	{
		const int32 Index = InIndex.GetAndAdvance();
		const bool bIn = Index >= 0 && Index < Shaped;
		OutCenter.SetAndAdvance(bIn ? Data->Centers[Index] : FNiagaraPosition(FVector3f(0.0f, 0.0f, 0.0f)));
		OutRotation.SetAndAdvance(bIn ? Data->Rotations[Index] : FQuat4f::Identity);
		OutRadii.SetAndAdvance(bIn ? Data->Radii[Index] : FVector3f(0.0f, 0.0f, 0.0f));
	}
}

bool USinewNiagaraDataInterface::Equals(const UNiagaraDataInterface* Other) const
{
	const USinewNiagaraDataInterface* That = Cast<const USinewNiagaraDataInterface>(Other);
	return Super::Equals(Other) && That && That->Source == Source && That->SourceComponentName == SourceComponentName && That->bReadEllipsoids == bReadEllipsoids;
}

bool USinewNiagaraDataInterface::CopyToInternal(UNiagaraDataInterface* Destination) const
{
	USinewNiagaraDataInterface* That = Cast<USinewNiagaraDataInterface>(Destination);
	if (!Super::CopyToInternal(Destination) || !That)
	{
		return false;
	}
	That->Source = Source;
	That->SourceComponentName = SourceComponentName;
	That->bReadEllipsoids = bReadEllipsoids;
	return true;
}

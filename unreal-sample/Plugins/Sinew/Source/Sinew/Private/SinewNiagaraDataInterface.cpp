#include "SinewNiagaraDataInterface.h"

#include "Components/SceneComponent.h"
#include "Engine/World.h"
#include "GameFramework/Actor.h"
#include "NiagaraSystemInstance.h"
#include "NiagaraTypes.h"
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
	Base.bSupportsGPU = false;
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

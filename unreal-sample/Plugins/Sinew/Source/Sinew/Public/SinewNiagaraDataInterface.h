// A Niagara data interface ("Sinew Particles") that exposes the particles of a Sinew
// component to Niagara systems, CPU (VectorVM) and GPU (compute) emitters alike: a
// rope's, a cloth's, a skinned cloth's or a soft body's particles, a fluid's live
// particles (with their density and, on request, their ellipsoids) or the grains a
// granular emitter poured.
//
// Once per tick, on the game thread (PerInstanceTick, in a tick group after the Sinew
// world subsystem has stepped), the source component reads all its particles in one
// call into a per-instance buffer and converts them to Niagara's units (cm, cm/s, world
// axes, simulation space of a world-space emitter); the VM functions then only index
// that buffer, for any number of Niagara particles, on any worker thread. No C call is
// made per Niagara particle.
//
// GPU emitters: the same buffer, packed into float4s (SinewNiagara::FGpuFrame, layout
// below), is handed to the render thread once per tick (ProvidePerInstanceDataForRenderThread
// -> the proxy's ConsumePerInstanceDataFromGameThread), uploaded once per tick into one
// structured buffer (the proxy's PreStage, RDG), and bound to the compute shader
// (SetShaderParameters). The HLSL functions (GetFunctionHLSL) have the VM functions'
// names, inputs and outputs, and read that buffer as the VM functions read theirs.
//   Particles (StructuredBuffer<float4>), N = NumParticles, E = NumEllipsoids:
//     [0, N)                 position (cm, simulation space) in xyz, density ratio in w
//     [N, 2N)                velocity (cm/s) in xyz, 0 in w
//     2N + 3i, +1, +2        ellipsoid i: centre (xyz, 0), rotation (x, y, z, w), radii (xyz, 0)
//   (at least one float4: all zeros when there is nothing to read)
//
// The source: the component named SourceComponentName (or, with no name, the first Sinew
// particle component) of the actor Source, or of the actor that owns the Niagara
// component when Source is not set. It is looked up again while none is found (a
// component that begins play after the Niagara system is picked up then).
//
// Functions (member functions of the data interface, CPU and GPU):
//   GetNumParticles() -> Count                      particles in the buffer
//   GetPosition(Index) -> Position                  cm, world, as drawn (interpolated)
//   GetVelocity(Index) -> Velocity                  cm/s, world axes
//   GetDensityRatio(Index) -> DensityRatio          rho / rho0 of a fluid particle (0 for other components)
//   GetEllipsoid(Index) -> Center, Rotation, Radii  a fluid particle's ellipsoid (bReadEllipsoids), cm
// An index outside [0, Count) gives zeros (the identity rotation for GetEllipsoid), on
// both targets. A GPU emitter reads the frame of the last tick handed to the render thread.
//
// Compiled only against the stand-in engine of the tests (tests/cpp/ue_stub), not by
// UnrealBuildTool; the generated HLSL is compiled by glslang's HLSL front end and run on a
// CPU Vulkan driver in the tests (when installed), not by the engine's shader compiler.
// See docs/unreal.md ("Niagara").
#pragma once

#include "CoreMinimal.h"
#include "Misc/EngineVersionComparison.h"
#include "NiagaraDataInterface.h"
#include "UObject/SoftObjectPtr.h"

#include "SinewNiagaraDataInterface.generated.h"

class AActor;
class FNiagaraCompileHashVisitor;
class FNiagaraShaderParametersBuilder;

UCLASS(EditInlineNew, Category = "Sinew", meta = (DisplayName = "Sinew Particles"))
class SINEW_API USinewNiagaraDataInterface : public UNiagaraDataInterface
{
	GENERATED_BODY()

public:
	/** The actor whose Sinew component is read; none = the actor that owns the Niagara component. */
	UPROPERTY(EditAnywhere, Category = "Sinew")
	TSoftObjectPtr<AActor> Source;

	/** The Sinew component of that actor to read, by name; none = the first rope, cloth, soft body, fluid or granular component found. */
	UPROPERTY(EditAnywhere, Category = "Sinew")
	FName SourceComponentName;

	/** Also read a fluid's ellipsoids each tick (GetEllipsoid): one anisotropy pass over the fluid's neighbours. */
	UPROPERTY(EditAnywhere, Category = "Sinew")
	bool bReadEllipsoids = false;

	USinewNiagaraDataInterface(const FObjectInitializer& ObjectInitializer);

	//~ UObject
	virtual void PostInitProperties() override;

	//~ UNiagaraDataInterface
	virtual bool InitPerInstanceData(void* PerInstanceData, FNiagaraSystemInstance* SystemInstance) override;
	virtual void DestroyPerInstanceData(void* PerInstanceData, FNiagaraSystemInstance* SystemInstance) override;
	virtual bool PerInstanceTick(void* PerInstanceData, FNiagaraSystemInstance* SystemInstance, float DeltaSeconds) override;
	virtual int32 PerInstanceDataSize() const override;
	virtual void GetVMExternalFunction(const FVMExternalFunctionBindingInfo& BindingInfo, void* InstanceData, FVMExternalFunction& OutFunc) override;
	virtual bool CanExecuteOnTarget(ENiagaraSimTarget Target) const override { return Target == ENiagaraSimTarget::CPUSim || Target == ENiagaraSimTarget::GPUComputeSim; }
	virtual bool Equals(const UNiagaraDataInterface* Other) const override;
	/** Tick after the Sinew world subsystem (TG_PostPhysics) so that this frame's step is read. */
	virtual bool HasTickGroupPrereqs() const override { return true; }
	virtual ETickingGroup CalculateTickGroup(const void* PerInstanceData) const override { return TG_PostUpdateWork; }

	// GPU emitters (see the top of this file).
#if WITH_EDITORONLY_DATA
	virtual bool AppendCompileHash(FNiagaraCompileHashVisitor* InVisitor) const override;
	virtual void GetParameterDefinitionHLSL(const FNiagaraDataInterfaceGPUParamInfo& ParamInfo, FString& OutHLSL) override;
	virtual bool GetFunctionHLSL(const FNiagaraDataInterfaceGPUParamInfo& ParamInfo, const FNiagaraDataInterfaceGeneratedFunction& FunctionInfo, int FunctionInstanceIndex, FString& OutHLSL) override;
#endif
	virtual void BuildShaderParameters(FNiagaraShaderParametersBuilder& ShaderParametersBuilder) const override;
	virtual void SetShaderParameters(const FNiagaraDataInterfaceSetShaderParametersContext& Context) const override;
	virtual void ProvidePerInstanceDataForRenderThread(void* DataForRenderThread, void* PerInstanceData, const FNiagaraSystemInstanceID& SystemInstance) override;

	// The VM functions (see the top of this file).
	void VMGetNumParticles(FVectorVMExternalFunctionContext& Context);
	void VMGetPosition(FVectorVMExternalFunctionContext& Context);
	void VMGetVelocity(FVectorVMExternalFunctionContext& Context);
	void VMGetDensityRatio(FVectorVMExternalFunctionContext& Context);
	void VMGetEllipsoid(FVectorVMExternalFunctionContext& Context);

protected:
	// UE 5.4 made the function list editor-only and const (GetFunctionsInternal).
#if UE_VERSION_OLDER_THAN(5, 4, 0)
	virtual void GetFunctions(TArray<FNiagaraFunctionSignature>& OutFunctions) override;
#elif WITH_EDITORONLY_DATA
	virtual void GetFunctionsInternal(TArray<FNiagaraFunctionSignature>& OutFunctions) const override;
#endif
	virtual bool CopyToInternal(UNiagaraDataInterface* Destination) const override;

private:
	/** The signatures of the VM functions (both engine versions' GetFunctions). */
	void AddSignatures(TArray<FNiagaraFunctionSignature>& OutFunctions) const;
};

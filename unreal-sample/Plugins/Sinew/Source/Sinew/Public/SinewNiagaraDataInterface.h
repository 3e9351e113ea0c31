// A Niagara data interface ("Sinew Particles") that exposes the particles of a Sinew
// component to Niagara systems running on the CPU (the VectorVM): a rope's, a cloth's,
// a skinned cloth's or a soft body's particles, a fluid's live particles (with their
// density and, on request, their ellipsoids) or the grains a granular emitter poured.
//
// Once per tick, on the game thread (PerInstanceTick, in a tick group after the Sinew
// world subsystem has stepped), the source component reads all its particles in one
// call into a per-instance buffer and converts them to Niagara's units (cm, cm/s, world
// axes, simulation space of a world-space emitter); the VM functions then only index
// that buffer, for any number of Niagara particles, on any worker thread. No C call is
// made per Niagara particle.
//
// The source: the component named SourceComponentName (or, with no name, the first Sinew
// particle component) of the actor Source, or of the actor that owns the Niagara
// component when Source is not set. It is looked up again while none is found (a
// component that begins play after the Niagara system is picked up then).
//
// VM functions (member functions of the data interface, CPU only):
//   GetNumParticles() -> Count                      particles in the buffer
//   GetPosition(Index) -> Position                  cm, world, as drawn (interpolated)
//   GetVelocity(Index) -> Velocity                  cm/s, world axes
//   GetDensityRatio(Index) -> DensityRatio          rho / rho0 of a fluid particle (0 for other components)
//   GetEllipsoid(Index) -> Center, Rotation, Radii  a fluid particle's ellipsoid (bReadEllipsoids), cm
// An index outside [0, Count) gives zeros (the identity rotation for GetEllipsoid).
//
// GPU emitters are not supported (no HLSL): feed them through the recipe in
// docs/unreal.md ("Niagara"). Compiled only against the stand-in engine of the tests
// (tests/cpp/ue_stub), not by UnrealBuildTool.
#pragma once

#include "CoreMinimal.h"
#include "Misc/EngineVersionComparison.h"
#include "NiagaraDataInterface.h"
#include "UObject/SoftObjectPtr.h"

#include "SinewNiagaraDataInterface.generated.h"

class AActor;

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

	//~ UObject
	virtual void PostInitProperties() override;

	//~ UNiagaraDataInterface
	virtual bool InitPerInstanceData(void* PerInstanceData, FNiagaraSystemInstance* SystemInstance) override;
	virtual void DestroyPerInstanceData(void* PerInstanceData, FNiagaraSystemInstance* SystemInstance) override;
	virtual bool PerInstanceTick(void* PerInstanceData, FNiagaraSystemInstance* SystemInstance, float DeltaSeconds) override;
	virtual int32 PerInstanceDataSize() const override;
	virtual void GetVMExternalFunction(const FVMExternalFunctionBindingInfo& BindingInfo, void* InstanceData, FVMExternalFunction& OutFunc) override;
	virtual bool CanExecuteOnTarget(ENiagaraSimTarget Target) const override { return Target == ENiagaraSimTarget::CPUSim; }
	virtual bool Equals(const UNiagaraDataInterface* Other) const override;
	/** Tick after the Sinew world subsystem (TG_PostPhysics) so that this frame's step is read. */
	virtual bool HasTickGroupPrereqs() const override { return true; }
	virtual ETickingGroup CalculateTickGroup(const void* PerInstanceData) const override { return TG_PostUpdateWork; }

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

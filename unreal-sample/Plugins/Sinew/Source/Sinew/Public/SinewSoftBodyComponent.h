// A soft body simulated by Sinew from a closed static mesh section (a sphere, a box, a
// capsule, any watertight model), in one of three modes (bindings/cpp/sinew_soft.hpp):
//
// * Pressure: the section welded at its UV seams (soft::weld, in the library) is one
//   pressure body: a link per edge and one volume constraint keeping Pressure × its
//   rest volume;
// * Tetrahedral: the library cuts the closed section into tets (soft::tetrahedralize:
//   Resolution cells across its longest side, 5 tets per cell inside) and builds a tet
//   body (a link per tet edge, a volume constraint per tet);
// * ShapeMatching: that tet body plus one shape-matching cluster per tet vertex over the
//   vertices sharing a tet with it (stiffness, and plasticity past YieldDistance).
//
// Renders through the plugin's scene proxy (FSinewMeshSceneProxy), as the cloth does: the
// welded vertices are the keys of the render mesh (normals shared across seams, the
// source's UVs and tangents); each frame the game thread reads the particles (interpolated
// between the last two steps) and writes the keys: a pressure body's keys are its
// particles, a tet body's are embedded in its tets (soft::embed: tet and barycentric
// weights, computed once by the library) and moved with them. Material edits (compliances,
// pressure, mass, damping, cluster stiffness) apply in place from Blueprint or the details
// panel; Mode, Resolution and plasticity shape the body and apply when it joins the
// simulation (BeginPlay; in the editor, a property change re-registers the component
// and its preview starts again). An open or degenerate section is refused with the
// library's reason (the log names the edge or triangle).
//
// The static mesh must allow CPU access (Allow CPU Access in its details). Units: cm, kg,
// compliance in m/N (edges), m⁵/N (a pressure volume) or 1/(N·m) (tet volumes).
#pragma once

#include "CoreMinimal.h"
#include "Components/MeshComponent.h"
#include "SinewRenderData.h"
#include "SinewWorldSubsystem.h"

#include <memory>
#include <vector>

THIRD_PARTY_INCLUDES_START
#include "sinew_cloth.hpp"
#include "sinew_soft.hpp"
THIRD_PARTY_INCLUDES_END

#include "SinewSoftBodyComponent.generated.h"

class UStaticMesh;

/** How USinewSoftBodyComponent turns its mesh into a soft body. */
UENUM(BlueprintType)
enum class ESinewSoftBodyMode : uint8
{
	/** The closed surface inflated: edges + one volume constraint. */
	Pressure,
	/** Tets cut from the closed mesh by the library: edges + tet volumes. */
	Tetrahedral,
	/** Those tets plus shape-matching clusters (stiffness, plasticity). */
	ShapeMatching,
};

UCLASS(ClassGroup = (Physics), meta = (BlueprintSpawnableComponent), hidecategories = (Object, Physics, Activation, "Components|Activation"))
class SINEW_API USinewSoftBodyComponent : public UMeshComponent, public ISinewSimulated
{
	GENERATED_BODY()

public:
	USinewSoftBodyComponent(const FObjectInitializer& ObjectInitializer);

	/** The closed mesh whose section becomes the soft body (needs Allow CPU Access). Its vertices are in cm; its material is used unless this component has one. */
	UPROPERTY(EditAnywhere, BlueprintReadOnly, Category = "Sinew|Soft Body")
	TObjectPtr<UStaticMesh> SourceMesh;

	/** LOD of SourceMesh to read. */
	UPROPERTY(EditAnywhere, BlueprintReadOnly, Category = "Sinew|Soft Body", meta = (ClampMin = "0"))
	int32 LODIndex = 0;

	/** Section (material slot's triangles) of that LOD; it must be closed. */
	UPROPERTY(EditAnywhere, BlueprintReadOnly, Category = "Sinew|Soft Body", meta = (ClampMin = "0"))
	int32 SectionIndex = 0;

	/** Pressure body, tet body, or tet body with shape-matching clusters. Applies when the body joins the simulation. */
	UPROPERTY(EditAnywhere, BlueprintReadOnly, Category = "Sinew|Soft Body")
	ESinewSoftBodyMode Mode = ESinewSoftBodyMode::Pressure;

	/** Tet modes: grid cells across the section's longest side (5 tets per cell inside the mesh), 1..SINEW_MAX_TET_RESOLUTION. Applies when the body joins the simulation. */
	UPROPERTY(EditAnywhere, BlueprintReadOnly, Category = "Sinew|Soft Body", meta = (ClampMin = "1", UIMin = "1", UIMax = "24"))
	int32 Resolution = 8;

	/** Total mass, kg (above 0, at most SINEW_MAX_BODY_MASS: the library refuses the rest). */
	UPROPERTY(EditAnywhere, BlueprintReadWrite, BlueprintSetter = SetMass, Category = "Sinew|Material", meta = (ClampMin = "0", UIMin = "0.01", UIMax = "100", Units = "kg"))
	float Mass = 1.0f;

	/** Compliance of the edges (surface edges of a pressure body, tet edges otherwise), m/N; 0 = rigid. Shape mode: make it soft (1e-3 or more) and let the clusters hold the shape. */
	UPROPERTY(EditAnywhere, BlueprintReadWrite, BlueprintSetter = SetStretchCompliance, Category = "Sinew|Material", meta = (ClampMin = "0", UIMin = "0", UIMax = "0.01"))
	float StretchCompliance = 0.0001f;

	/** Compliance of the volume: the enclosed volume of a pressure body (m⁵/N), each tet's volume in the tet modes (1/(N·m)); 0 = incompressible. */
	UPROPERTY(EditAnywhere, BlueprintReadWrite, BlueprintSetter = SetVolumeCompliance, Category = "Sinew|Material", meta = (ClampMin = "0", UIMin = "0", UIMax = "0.01"))
	float VolumeCompliance = 0.0f;

	/** Pressure mode: the body keeps Pressure × its rest volume (overpressure factor in (0, SINEW_MAX_PRESSURE]; 1 = its rest shape). */
	UPROPERTY(EditAnywhere, BlueprintReadWrite, BlueprintSetter = SetPressure, Category = "Sinew|Material", meta = (ClampMin = "0", UIMin = "0.5", UIMax = "3", Units = "Multiplier"))
	float Pressure = 1.0f;

	/** Shape mode: stiffness of the clusters per substep, 0..1. */
	UPROPERTY(EditAnywhere, BlueprintReadWrite, BlueprintSetter = SetShapeStiffness, Category = "Sinew|Material", meta = (ClampMin = "0", ClampMax = "1"))
	float ShapeStiffness = 0.5f;

	/** Shape mode: the clusters deform plastically past YieldDistance. Applies when the body joins the simulation. */
	UPROPERTY(EditAnywhere, BlueprintReadOnly, Category = "Sinew|Material")
	bool bPlastic = false;

	/** Shape mode, plastic: mean distance from the goal shape past which a cluster yields, cm. */
	UPROPERTY(EditAnywhere, BlueprintReadOnly, Category = "Sinew|Material", meta = (ClampMin = "0", UIMin = "0", UIMax = "20", Units = "cm"))
	float YieldDistance = 5.0f;

	/** Shape mode, plastic: fraction of the excess deformation the rest shape takes per substep, 0..1. */
	UPROPERTY(EditAnywhere, BlueprintReadOnly, Category = "Sinew|Material", meta = (ClampMin = "0", ClampMax = "1"))
	float Creep = 0.1f;

	/** Extra velocity damping of the body's particles, 1/s. */
	UPROPERTY(EditAnywhere, BlueprintReadWrite, BlueprintSetter = SetDamping, Category = "Sinew|Material", meta = (ClampMin = "0", UIMin = "0", UIMax = "10"))
	float Damping = 0.5f;

	/** Collision radius of every particle, cm; 0 = points. Particles of one body never collide with each other. Applies when the body joins the simulation. */
	UPROPERTY(EditAnywhere, BlueprintReadOnly, Category = "Sinew|Collision", meta = (ClampMin = "0", UIMin = "0", UIMax = "20", Units = "cm"))
	float CollisionRadius = 1.0f;

	/** Vertices closer than this are one particle (UV seams), cm; 0 = only identical positions. */
	UPROPERTY(EditAnywhere, BlueprintReadOnly, Category = "Sinew|Soft Body", meta = (ClampMin = "0", UIMin = "0", UIMax = "1", Units = "cm"))
	float WeldDistance = 0.0f;

	/** Simulate in the editor viewport (Realtime), as the cloth does; a property change starts it again. */
	UPROPERTY(EditAnywhere, BlueprintReadOnly, Category = "Sinew|Editor")
	bool bPreviewInEditor = true;

	/** Sets the total mass (kg) in place, from the next step on. */
	UFUNCTION(BlueprintCallable, Category = "Sinew|Material")
	void SetMass(float NewMass);

	/** Sets the compliance of the edges (m/N) in place. */
	UFUNCTION(BlueprintCallable, Category = "Sinew|Material")
	void SetStretchCompliance(float NewCompliance);

	/** Sets the compliance of the volume (m⁵/N pressure, 1/(N·m) tets) in place. */
	UFUNCTION(BlueprintCallable, Category = "Sinew|Material")
	void SetVolumeCompliance(float NewCompliance);

	/** Pressure mode: sets the overpressure factor in place (the body inflates or deflates toward Pressure × its rest volume). */
	UFUNCTION(BlueprintCallable, Category = "Sinew|Material")
	void SetPressure(float NewPressure);

	/** Shape mode: sets the clusters' stiffness (0..1) in place. */
	UFUNCTION(BlueprintCallable, Category = "Sinew|Material")
	void SetShapeStiffness(float NewStiffness);

	/** Sets the extra damping (1/s) in place. */
	UFUNCTION(BlueprintCallable, Category = "Sinew|Material")
	void SetDamping(float NewDamping);

	/** The body's current volume, cm³ (0 when not simulating). */
	UFUNCTION(BlueprintPure, Category = "Sinew|Soft Body")
	float GetVolume() const;

	/** Number of particles (welded vertices of a pressure body, tet vertices otherwise). */
	UFUNCTION(BlueprintPure, Category = "Sinew|Soft Body")
	int32 GetParticleCount() const { return (int32)SimPositions.size(); }

	/** Number of tets (0 in pressure mode). */
	UFUNCTION(BlueprintPure, Category = "Sinew|Soft Body")
	int32 GetTetCount() const { return (int32)Tets.tet_count(); }

	/** True while the body is in the world's simulation. */
	UFUNCTION(BlueprintPure, Category = "Sinew|Soft Body")
	bool IsSimulating() const { return Body != 0; }

	/**
	 * Motion vectors for TAA/TSR and motion blur (off by default): every frame also writes
	 * each vertex's displacement since the frame drawn before (previous - current, local
	 * space, cm) into texture coordinates 1 (x, y) and 2 (x), and the scene proxy draws
	 * velocity. Needs a material that applies it through a Previous Frame Switch on World
	 * Position Offset (docs/unreal.md, "Motion vectors"). Read when the render state is
	 * created (a details-panel edit re-creates it).
	 */
	UPROPERTY(EditAnywhere, BlueprintReadOnly, Category = "Sinew|Rendering")
	bool bOutputMotionVectors = false;

	virtual void BeginPlay() override;
	virtual void EndPlay(const EEndPlayReason::Type EndPlayReason) override;
	virtual void OnRegister() override;
	virtual void OnUnregister() override;

	// Rendering: the plugin's scene proxy, fed like a cloth's.
	virtual FPrimitiveSceneProxy* CreateSceneProxy() override;
	virtual int32 GetNumMaterials() const override { return 1; }
	virtual FBoxSphereBounds CalcBounds(const FTransform& LocalToWorld) const override;
	virtual void SendRenderDynamicData_Concurrent() override;
	virtual void CreateRenderState_Concurrent(FRegisterComponentContext* Context) override;

	virtual void PreSinewStep(USinewWorldSubsystem& InSubsystem) override;
	virtual void PostSinewStep(USinewWorldSubsystem& InSubsystem) override;
	virtual uint32 GetSinewBody() const override { return Body; }
	virtual USceneComponent* GetSinewComponent() override { return this; }

#if WITH_EDITOR
	/** Details-panel edits while playing go through the setters (in place). */
	virtual void PostEditChangeProperty(FPropertyChangedEvent& PropertyChangedEvent) override;
#endif

private:
	/** Adds the body to the subsystem's simulation (from BeginPlay, or OnRegister in an editor world). */
	void JoinSimulation(USinewWorldSubsystem& Sub);
	/** Removes the clusters and the body (from EndPlay, or OnUnregister in an editor world). */
	void LeaveSimulation();
	/** Shape mode: one cluster per tet vertex over its tet neighbours. False (logged) if the library refused one. */
	bool AddClusters(sinew::Scene& Scene);
	/** Game thread: this frame's key positions into a new FSinewClothRenderData, new bounds, render data marked dirty. */
	void UpdateRenderData();
	/** The live scene and body, or null. */
	sinew::Scene* LiveScene() const;

	UPROPERTY(Transient)
	TWeakObjectPtr<USinewWorldSubsystem> Subsystem;

	uint32 Body = 0;
	ESinewSoftBodyMode BuiltMode = ESinewSoftBodyMode::Pressure;
	uint32 FirstCluster = 0;
	uint32 ClusterCount = 0;
	sinew::cloth::Layout Layout;            // the welded render mesh: keys = welded vertices (sim space, m)
	sinew::soft::TetMesh Tets;              // tet modes: the body's rest tet mesh (sim space, m)
	sinew::soft::Embedding Embedding;       // tet modes: each key in the tets
	std::vector<sinew::Vec3> SimPositions;  // m, simulation space: the body's particles, this frame
	std::vector<sinew::tube::Uv> SourceUVs;
	std::shared_ptr<const sinew::render::ClothSource> RenderSource; // render topology (never changes)
	std::shared_ptr<const FSinewClothRenderData> RenderData;         // the frame handed to the render thread
	sinew::render::Box RenderBox;           // m, simulation space, grown by CollisionRadius
};

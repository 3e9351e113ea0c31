// Cloth simulated by Sinew from a static mesh section: the mesh's vertices (welded at
// UV seams) become particles, its edges stretch constraints and the vertex pairs across
// its interior edges bend constraints (bindings/cpp/sinew_cloth.hpp). Pinned vertices
// follow this component's transform. Renders through its own scene proxy
// (FSinewMeshSceneProxy): each frame the game thread reads the particles into an
// FSinewClothRenderData and the render thread writes positions, normals and tangents
// into its vertex buffers. With a Tear Threshold, edges stretched past it split the cloth
// (the library duplicates the vertex); the index buffer is written again only when the
// topology version changes, new vertices copying the UV of the vertex they were split
// from. With bPreviewInEditor it also simulates in the editor viewport.
//
// The static mesh must allow CPU access (Allow CPU Access in its details) so that its
// vertices can be read in a packaged game. Units: cm, kg, compliance in m/N, force in N.
#pragma once

#include "CoreMinimal.h"
#include "Components/MeshComponent.h"
#include "SinewRenderData.h"
#include "SinewWorldSubsystem.h"

#include <memory>
#include <vector>

THIRD_PARTY_INCLUDES_START
#include "sinew_cloth.hpp"
THIRD_PARTY_INCLUDES_END

#include "SinewClothComponent.generated.h"

class UStaticMesh;

UCLASS(ClassGroup = (Physics), meta = (BlueprintSpawnableComponent), hidecategories = (Object, Physics, Activation, "Components|Activation"))
class SINEW_API USinewClothComponent : public UMeshComponent, public ISinewSimulated
{
	GENERATED_BODY()

public:
	USinewClothComponent(const FObjectInitializer& ObjectInitializer);

	/** The mesh whose section becomes the cloth (needs Allow CPU Access). Its vertices are in cm, its material is used unless this component has one. */
	UPROPERTY(EditAnywhere, BlueprintReadOnly, Category = "Sinew|Cloth")
	TObjectPtr<UStaticMesh> SourceMesh;

	/** LOD of SourceMesh to read. */
	UPROPERTY(EditAnywhere, BlueprintReadOnly, Category = "Sinew|Cloth", meta = (ClampMin = "0"))
	int32 LODIndex = 0;

	/** Section (material slot's triangles) of that LOD to simulate. */
	UPROPERTY(EditAnywhere, BlueprintReadOnly, Category = "Sinew|Cloth", meta = (ClampMin = "0"))
	int32 SectionIndex = 0;

	// BEGIN GENERATED ClothGridDesc mass
	/** Total mass, spread evenly over the vertices. Above 0, at most 1e12 kg. */
	UPROPERTY(EditAnywhere, BlueprintReadOnly, Category = "Sinew|Cloth", meta = (ClampMin = "1e-45", ClampMax = "1e12", UIMin = "0.01", UIMax = "50", Units = "kg", ToolTip = "Total mass, spread evenly over the vertices. Above 0, at most 1e12 kg."))
	float Mass = 1.0f;
	// END GENERATED ClothGridDesc mass

	// BEGIN GENERATED ClothDesc properties
	/** Edges: compliance of the edges (m/N). Strain: of the warp stretch (1/(N·m)). At least 0, at most 1e10. */
	UPROPERTY(EditAnywhere, BlueprintReadOnly, Category = "Sinew|Cloth", meta = (ClampMin = "0", ClampMax = "1e10", ToolTip = "Edges: compliance of the edges (m/N). Strain: of the warp stretch (1/(N*m)). At least 0, at most 1e10."))
	float StretchCompliance = 0.0f;

	/** Tether every free vertex to its nearest pinned vertices. */
	UPROPERTY(EditAnywhere, BlueprintReadOnly, Category = "Sinew|Cloth", meta = (ToolTip = "Tether every free vertex to its nearest pinned vertices."))
	bool bTethers = true;

	/** Extra velocity damping of the cloth's particles. At least 0, at most 1000000 1/s. */
	UPROPERTY(EditAnywhere, BlueprintReadOnly, Category = "Sinew|Cloth", meta = (ClampMin = "0", ClampMax = "1000000", ToolTip = "Extra velocity damping of the cloth's particles. At least 0, at most 1000000 1/s."))
	float Damping = 0.0f;
	// END GENERATED ClothDesc properties

	/** Add bend constraints across interior edges: a link between the wings of each (the library's distance bending). */
	UPROPERTY(EditAnywhere, BlueprintReadOnly, Category = "Sinew|Cloth")
	bool bBending = true;

	/** Compliance of the bend constraints, m/N (larger = folds more easily). Set at run time with SetBendCompliance. */
	UPROPERTY(EditAnywhere, BlueprintReadOnly, Category = "Sinew|Cloth", meta = (ClampMin = "0", UIMin = "0", UIMax = "1"))
	float BendCompliance = 0.001f;

	/** Vertices closer than this are one particle (UV seams), cm. */
	UPROPERTY(EditAnywhere, BlueprintReadOnly, Category = "Sinew|Cloth", meta = (ClampMin = "0", UIMin = "0", UIMax = "1", Units = "cm"))
	float WeldDistance = 0.01f;

	/** Pin the vertices at the top of the mesh (highest local Z, within PinHeightTolerance). */
	UPROPERTY(EditAnywhere, BlueprintReadOnly, Category = "Sinew|Pinning")
	bool bPinTopVertices = true;

	/** Vertices within this distance of the top (cm) are pinned by bPinTopVertices. */
	UPROPERTY(EditAnywhere, BlueprintReadOnly, Category = "Sinew|Pinning", meta = (ClampMin = "0", UIMin = "0", UIMax = "50", Units = "cm"))
	float PinHeightTolerance = 1.0f;

	/** Mesh vertex indices to pin as well. */
	UPROPERTY(EditAnywhere, BlueprintReadOnly, Category = "Sinew|Pinning")
	TArray<int32> PinnedVertices;

	/** Tear Threshold: stretch ratio (length / rest length, above 1) past which an edge tears and the cloth splits there; 0 = never tears. */
	UPROPERTY(EditAnywhere, BlueprintReadOnly, Category = "Sinew|Tearing", meta = (ClampMin = "0", UIMin = "0", UIMax = "3", Units = "Multiplier"))
	float TearThreshold = 0.0f;

	/** Spare particles for tearing, taken at the first non-zero threshold (each split takes one); 0 = a quarter of the cloth's particles. */
	UPROPERTY(EditAnywhere, BlueprintReadOnly, Category = "Sinew|Tearing", meta = (ClampMin = "0"))
	int32 TearReserve = 0;

	/** Sets the tear threshold (a stretch ratio above 1; 0 = off) in place, from the next step on. False if the library refused it. */
	UFUNCTION(BlueprintCallable, Category = "Sinew|Tearing")
	bool SetTearThreshold(float NewThreshold);

	/** Number of splits so far (the topology version): changes when the cloth tears. */
	UFUNCTION(BlueprintPure, Category = "Sinew|Tearing")
	int64 GetTopologyVersion() const { return (int64)TopologyVersion; }


	/** True while the body sleeps (sleeping on in the Sinew settings: its island came to rest and is not simulated until something wakes it). */
	UFUNCTION(BlueprintPure, Category = "Sinew|Sleeping")
	bool IsAsleep() const;

	/** Wakes the body and everything in its island. */
	UFUNCTION(BlueprintCallable, Category = "Sinew|Sleeping")
	void Wake();

	/** Sets the stretch compliance (m/N) of this cloth in place, from the next step on; other bodies are untouched. */
	UFUNCTION(BlueprintCallable, Category = "Sinew|Cloth")
	void SetStretchCompliance(float NewCompliance);

	/** Sets the bend compliance (m/N) of this cloth in place, from the next step on. */
	UFUNCTION(BlueprintCallable, Category = "Sinew|Cloth")
	void SetBendCompliance(float NewCompliance);

	/** Largest stretch constraint force in the last substep, N. */
	UFUNCTION(BlueprintPure, Category = "Sinew|Cloth")
	float GetMaxStretchForce() const;

	// BEGIN GENERATED CollisionRadius property
	/** Collision radius of every particle (the cloth's thickness); 0 = no collisions. Particles of one cloth never collide with each other. At least 0, at most 1e11 cm. */
	UPROPERTY(EditAnywhere, BlueprintReadOnly, Category = "Sinew|Collision", meta = (ClampMin = "0", ClampMax = "1e11", UIMin = "0", UIMax = "20", Units = "cm", ToolTip = "Collision radius of every particle (the cloth's thickness); 0 = no collisions. Particles of one cloth never collide with each other. At least 0, at most 1e11 cm."))
	float CollisionRadius = 1.0f;
	// END GENERATED CollisionRadius property

	// BEGIN GENERATED GrabCompliance property
	/** Compliance of the grab (m/N, 0 = rigid): how softly a grabbed particle follows SetGrabLocation. At least 0, at most 1000. */
	UPROPERTY(EditAnywhere, BlueprintReadWrite, Category = "Sinew|Interaction", meta = (ClampMin = "0", ClampMax = "1000", UIMin = "0", UIMax = "0.01", ToolTip = "Compliance of the grab (m/N, 0 = rigid): how softly a grabbed particle follows SetGrabLocation. At least 0, at most 1000."))
	float GrabCompliance = 0.0001f;
	// END GENERATED GrabCompliance property

	/** Grabs the free particle nearest to WorldLocation where it is now (a grab constraint of GrabCompliance). Returns its index, or -1. */
	UFUNCTION(BlueprintCallable, Category = "Sinew|Interaction")
	int32 Grab(FVector WorldLocation);

	/** Grabs particle Particle (e.g. from USinewWorldSubsystem::PickParticle) where it is now. False if it is pinned or out of range. */
	UFUNCTION(BlueprintCallable, Category = "Sinew|Interaction")
	bool GrabParticle(int32 Particle);

	/** Moves the grab target (world space, cm); the particle follows through the grab constraint. */
	UFUNCTION(BlueprintCallable, Category = "Sinew|Interaction")
	void SetGrabLocation(FVector WorldLocation);

	/** Releases the grabbed particle. */
	UFUNCTION(BlueprintCallable, Category = "Sinew|Interaction")
	void Release();

	/**
	 * Simulate in the editor viewport, as CableComponent does: the cloth hangs from its
	 * pins while you edit the level (the viewport must be Realtime), and a property change
	 * starts it again from the source mesh. Simulate in Editor and Play in Editor always
	 * simulate, like a packaged game.
	 */
	UPROPERTY(EditAnywhere, BlueprintReadOnly, Category = "Sinew|Editor")
	bool bPreviewInEditor = true;

	/** Level of detail: full rate near the views, reduced or paused far away or when not rendered (off by default). */
	UPROPERTY(EditAnywhere, BlueprintReadWrite, Category = "Sinew|Level Of Detail")
	FSinewLodSettings Lod;

	/** True while the cloth is in the world's simulation. */
	UFUNCTION(BlueprintPure, Category = "Sinew|Cloth")
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

	// Rendering: the component's own scene proxy (no mesh sections).
	virtual FPrimitiveSceneProxy* CreateSceneProxy() override;
	virtual int32 GetNumMaterials() const override { return 1; }
	virtual FBoxSphereBounds CalcBounds(const FTransform& LocalToWorld) const override;
	virtual void SendRenderDynamicData_Concurrent() override;
	virtual void CreateRenderState_Concurrent(FRegisterComponentContext* Context) override;

	virtual void PreSinewStep(USinewWorldSubsystem& InSubsystem) override;
	virtual void PostSinewStep(USinewWorldSubsystem& InSubsystem) override;
	virtual uint32 GetSinewBody() const override { return Body; }
	virtual USceneComponent* GetSinewComponent() override { return this; }

private:
	/** Adds the cloth's body to the subsystem's simulation (from BeginPlay, or OnRegister in an editor world). */
	void JoinSimulation(USinewWorldSubsystem& Sub);
	/** Removes the body (from EndPlay, or OnUnregister in an editor world). */
	void LeaveSimulation();
	/** Game thread: this frame's key positions into a new FSinewClothRenderData, new bounds, render data marked dirty. */
	void UpdateRenderData();
	/** After a tear: the render topology again (cloth::torn, then a new ClothSource). */
	void RebuildTornMesh(sinew::Scene& Scene);

	UPROPERTY(Transient)
	TWeakObjectPtr<USinewWorldSubsystem> Subsystem;

	uint32 Body = 0;
	FSinewLodState LodState; // the mode last set on Body (Lod)
	int32 GrabbedParticle = INDEX_NONE;
	sinew::cloth::Layout Layout;             // particles in this component's space, cm
	std::vector<uint32_t> Pinned;            // particle indices that follow the component
	std::vector<sinew::Vec3> SimPositions;   // m, simulation space
	std::vector<sinew::Vec3> SpareSpan;      // m, the span of spares tearing took, read in one call
	std::vector<float> StretchForces;        // N
	uint32 FirstParticle = 0;                // world index of the cloth's first particle
	uint64 TopologyVersion = 0;              // the library's, as last rebuilt
	sinew::cloth::TornMesh Torn;             // vertices and triangles a tear added
	std::vector<sinew::tube::Uv> SourceUVs;  // of the source section's vertices
	std::shared_ptr<const sinew::render::ClothSource> ClothSource; // render topology, new after each tear
	std::shared_ptr<const FSinewClothRenderData> RenderData;        // the frame handed to the render thread
	sinew::render::Box RenderBox;            // m, simulation space: what was last handed over, grown by CollisionRadius
};

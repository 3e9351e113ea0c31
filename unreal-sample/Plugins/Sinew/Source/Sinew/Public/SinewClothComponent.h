// Cloth simulated by Sinew from a static mesh section: the mesh's vertices (welded at
// UV seams) become particles, its edges stretch constraints and the vertex pairs across
// its interior edges bend constraints (bindings/cpp/sinew_cloth.hpp). Pinned vertices
// follow this component's transform. Renders through the procedural mesh it is. With a
// Tear Threshold, edges stretched past it split the cloth (the library duplicates the
// vertex); the mesh section is rebuilt when the topology version changes, new vertices
// copying the UV of the vertex they were split from.
//
// The static mesh must allow CPU access (Allow CPU Access in its details) so that its
// vertices can be read in a packaged game. Units: cm, kg, compliance in m/N, force in N.
#pragma once

#include "CoreMinimal.h"
#include "ProceduralMeshComponent.h"
#include "SinewWorldSubsystem.h"

#include <vector>

THIRD_PARTY_INCLUDES_START
#include "sinew_cloth.hpp"
THIRD_PARTY_INCLUDES_END

#include "SinewClothComponent.generated.h"

class UStaticMesh;

UCLASS(ClassGroup = (Physics), meta = (BlueprintSpawnableComponent), hidecategories = (Object, Physics, Activation, "Components|Activation"))
class SINEW_API USinewClothComponent : public UProceduralMeshComponent, public ISinewSimulated
{
	GENERATED_BODY()

public:
	USinewClothComponent(const FObjectInitializer& ObjectInitializer);

	/** The mesh whose section becomes the cloth (needs Allow CPU Access). */
	UPROPERTY(EditAnywhere, BlueprintReadOnly, Category = "Sinew|Cloth")
	TObjectPtr<UStaticMesh> SourceMesh;

	UPROPERTY(EditAnywhere, BlueprintReadOnly, Category = "Sinew|Cloth", meta = (ClampMin = "0"))
	int32 LODIndex = 0;

	UPROPERTY(EditAnywhere, BlueprintReadOnly, Category = "Sinew|Cloth", meta = (ClampMin = "0"))
	int32 SectionIndex = 0;

	/** Total mass, kg. */
	UPROPERTY(EditAnywhere, BlueprintReadOnly, Category = "Sinew|Cloth", meta = (ClampMin = "0.001", Units = "kg"))
	float Mass = 1.0f;

	/** Compliance of the edges, m/N (0 = inextensible). */
	UPROPERTY(EditAnywhere, BlueprintReadOnly, Category = "Sinew|Cloth", meta = (ClampMin = "0"))
	float StretchCompliance = 0.0f;

	/** Add bend constraints across interior edges: a link between the wings of each (the library's distance bending). */
	UPROPERTY(EditAnywhere, BlueprintReadOnly, Category = "Sinew|Cloth")
	bool bBending = true;

	/** Compliance of the bend constraints, m/N (larger = folds more easily). */
	UPROPERTY(EditAnywhere, BlueprintReadOnly, Category = "Sinew|Cloth", meta = (ClampMin = "0"))
	float BendCompliance = 0.001f;

	/** Tether every free vertex to its nearest pinned ones (Kim et al. 2012): the cloth does not sag away from its pins. */
	UPROPERTY(EditAnywhere, BlueprintReadOnly, Category = "Sinew|Cloth")
	bool bTethers = true;

	/** Extra velocity damping of the cloth, 1/s. */
	UPROPERTY(EditAnywhere, BlueprintReadOnly, Category = "Sinew|Cloth", meta = (ClampMin = "0"))
	float Damping = 0.0f;

	/** Vertices closer than this are one particle (UV seams), cm. */
	UPROPERTY(EditAnywhere, BlueprintReadOnly, Category = "Sinew|Cloth", meta = (ClampMin = "0", Units = "cm"))
	float WeldDistance = 0.01f;

	/** Pin the vertices at the top of the mesh (highest local Z, within PinHeightTolerance). */
	UPROPERTY(EditAnywhere, BlueprintReadOnly, Category = "Sinew|Pinning")
	bool bPinTopVertices = true;

	UPROPERTY(EditAnywhere, BlueprintReadOnly, Category = "Sinew|Pinning", meta = (ClampMin = "0", Units = "cm"))
	float PinHeightTolerance = 1.0f;

	/** Mesh vertex indices to pin as well. */
	UPROPERTY(EditAnywhere, BlueprintReadOnly, Category = "Sinew|Pinning")
	TArray<int32> PinnedVertices;

	/** Tear Threshold: stretch ratio (length / rest length, above 1) past which an edge tears and the cloth splits there; 0 = never tears. */
	UPROPERTY(EditAnywhere, BlueprintReadOnly, Category = "Sinew|Tearing", meta = (ClampMin = "0"))
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

	/** Sets the stretch compliance (m/N) of this cloth in place, from the next step on; other bodies are untouched. */
	UFUNCTION(BlueprintCallable, Category = "Sinew|Cloth")
	void SetStretchCompliance(float NewCompliance);

	/** Sets the bend compliance (m/N) of this cloth in place, from the next step on. */
	UFUNCTION(BlueprintCallable, Category = "Sinew|Cloth")
	void SetBendCompliance(float NewCompliance);

	/** Largest stretch constraint force in the last substep, N. */
	UFUNCTION(BlueprintPure, Category = "Sinew|Cloth")
	float GetMaxStretchForce() const;

	/** Collision radius of every particle (the cloth's thickness), cm; 0 = no collisions. Particles of one cloth never collide with each other. */
	UPROPERTY(EditAnywhere, BlueprintReadOnly, Category = "Sinew|Collision", meta = (ClampMin = "0", Units = "cm"))
	float CollisionRadius = 1.0f;

	/** Compliance of the grab (m/N, 0 = rigid): how softly a grabbed particle follows SetGrabLocation. */
	UPROPERTY(EditAnywhere, BlueprintReadWrite, Category = "Sinew|Interaction", meta = (ClampMin = "0", ClampMax = "1000"))
	float GrabCompliance = 0.0001f;

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

	virtual void BeginPlay() override;
	virtual void EndPlay(const EEndPlayReason::Type EndPlayReason) override;

	virtual void PreSinewStep(USinewWorldSubsystem& InSubsystem) override;
	virtual void PostSinewStep(USinewWorldSubsystem& InSubsystem) override;
	virtual uint32 GetSinewBody() const override { return Body; }
	virtual USceneComponent* GetSinewComponent() override { return this; }

private:
	void UpdateMesh();
	void RebuildTornMesh(sinew::Scene& Scene);

	UPROPERTY(Transient)
	TWeakObjectPtr<USinewWorldSubsystem> Subsystem;

	uint32 Body = 0;
	int32 GrabbedParticle = INDEX_NONE;
	sinew::cloth::Layout Layout;             // particles in this component's space, cm
	std::vector<uint32_t> Pinned;            // particle indices that follow the component
	std::vector<sinew::Vec3> SimPositions;   // m, simulation space
	std::vector<sinew::Vec3> LocalParticles; // cm, this component's space
	std::vector<sinew::Vec3> ParticleNormals;
	std::vector<float> StretchForces;        // N
	bool bMeshCreated = false;
	uint32 FirstParticle = 0;                // world index of the cloth's first particle
	uint64 TopologyVersion = 0;              // the library's, as last rebuilt
	sinew::cloth::TornMesh Torn;             // vertices and triangles a tear added
	TArray<FVector2D> SourceUVs;             // of the source section's vertices
	std::vector<sinew::Vec3> TornPositions;  // m, simulation space, one per vertex a tear added
};

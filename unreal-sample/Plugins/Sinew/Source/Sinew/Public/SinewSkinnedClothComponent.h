// Character cloth simulated by Sinew on a section of a USkeletalMeshComponent (a cape,
// a skirt): the section's vertices (welded at UV seams) become particles that follow
// their skinned positions, read each frame from the skeletal mesh (CPU skinning), with
// per-vertex weights from a vertex colour channel: max distance, backstop, anim drive.
// The character's root (the skeletal mesh component, or a bone) drives inertia control;
// UE's wind directional sources blow on it. Renders through its own scene proxy
// (FSinewMeshSceneProxy, as USinewClothComponent): the game thread reads the particles
// into an FSinewClothRenderData each frame, the render thread writes the vertices.
// It simulates in game, PIE and Simulate in Editor worlds (it follows an animation).
// Units: cm (Blueprint), kg, compliance in m/N, wind in m/s.
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

#include "SinewSkinnedClothComponent.generated.h"

class USkeletalMeshComponent;

/** A vertex colour channel that paints a per-vertex weight. */
UENUM(BlueprintType)
enum class ESinewColorChannel : uint8
{
	Red,
	Green,
	Blue,
	Alpha,
	/** Not painted: the weight is 1 everywhere. */
	None,
};

UCLASS(ClassGroup = (Physics), meta = (BlueprintSpawnableComponent), hidecategories = (Object, Physics, Activation, "Components|Activation"))
class SINEW_API USinewSkinnedClothComponent : public UMeshComponent, public ISinewSimulated
{
	GENERATED_BODY()

public:
	USinewSkinnedClothComponent(const FObjectInitializer& ObjectInitializer);

	/** Name of the skeletal mesh component to follow; None = the component this one is attached to, else the owner's first. */
	UPROPERTY(EditAnywhere, BlueprintReadOnly, Category = "Sinew|Skinning")
	FName SkeletalMeshComponentName;

	UPROPERTY(EditAnywhere, BlueprintReadOnly, Category = "Sinew|Skinning", meta = (ClampMin = "0"))
	int32 LODIndex = 0;

	/** The render section that is the cloth. */
	UPROPERTY(EditAnywhere, BlueprintReadOnly, Category = "Sinew|Skinning", meta = (ClampMin = "0"))
	int32 SectionIndex = 0;

	// BEGIN GENERATED Skinning properties
	/** Max distance a vertex may leave its skinned position where its channel is 1 (0 = fully skinned). At least 0, at most 1e11 cm. */
	UPROPERTY(EditAnywhere, BlueprintReadWrite, Category = "Sinew|Skinning", meta = (ClampMin = "0", ClampMax = "1e11", UIMin = "0", UIMax = "100", Units = "cm", ToolTip = "Max distance a vertex may leave its skinned position where its channel is 1 (0 = fully skinned). At least 0, at most 1e11 cm."))
	float MaxDistance = 30.0f;

	/** Radius of the backstop sphere behind the skinned surface where its channel is 1 (0 = none). At least 0, at most 1e11 cm. */
	UPROPERTY(EditAnywhere, BlueprintReadWrite, Category = "Sinew|Skinning", meta = (ClampMin = "0", ClampMax = "1e11", Units = "cm", ToolTip = "Radius of the backstop sphere behind the skinned surface where its channel is 1 (0 = none). At least 0, at most 1e11 cm."))
	float BackstopRadius = 30.0f;

	/** Distance from the skinned surface to the backstop sphere, along -normal. At least 0, at most 1e11 cm. */
	UPROPERTY(EditAnywhere, BlueprintReadWrite, Category = "Sinew|Skinning", meta = (ClampMin = "0", ClampMax = "1e11", Units = "cm", ToolTip = "Distance from the skinned surface to the backstop sphere, along -normal. At least 0, at most 1e11 cm."))
	float BackstopDistance = 1.0f;
	// END GENERATED Skinning properties

	/** The vertex colour channel that scales MaxDistance per vertex (white where the mesh has no colours). */
	UPROPERTY(EditAnywhere, BlueprintReadOnly, Category = "Sinew|Skinning")
	ESinewColorChannel MaxDistanceChannel = ESinewColorChannel::Red;

	/** The vertex colour channel that scales BackstopRadius per vertex. */
	UPROPERTY(EditAnywhere, BlueprintReadOnly, Category = "Sinew|Skinning")
	ESinewColorChannel BackstopChannel = ESinewColorChannel::Green;

	/** Anim-drive compliance (m/N) where the drive channel is 1 (divided by the channel); negative = no drive. */
	UPROPERTY(EditAnywhere, BlueprintReadWrite, Category = "Sinew|Skinning")
	float DriveCompliance = -1.0f;

	/** The vertex colour channel that weights the anim drive per vertex (0 = no drive). */
	UPROPERTY(EditAnywhere, BlueprintReadOnly, Category = "Sinew|Skinning")
	ESinewColorChannel DriveChannel = ESinewColorChannel::Blue;

	/** Bone whose transform is the root for inertia control; None = the skeletal mesh component. */
	UPROPERTY(EditAnywhere, BlueprintReadOnly, Category = "Sinew|Inertia")
	FName RootBone;

	/** Fraction (0..1) of the root's linear acceleration the cloth feels (1 = world space, 0 = carried). */
	UPROPERTY(EditAnywhere, BlueprintReadWrite, Category = "Sinew|Inertia", meta = (ClampMin = "0", ClampMax = "1"))
	float LinearInertia = 0.3f;

	/** Fraction (0..1) of the root's angular acceleration the cloth feels. */
	UPROPERTY(EditAnywhere, BlueprintReadWrite, Category = "Sinew|Inertia", meta = (ClampMin = "0", ClampMax = "1"))
	float AngularInertia = 0.3f;

	// BEGIN GENERATED ClothGridDesc mass
	/** Total mass, spread evenly over the vertices. Above 0, at most 1e12 kg. */
	UPROPERTY(EditAnywhere, BlueprintReadOnly, Category = "Sinew|Cloth", meta = (ClampMin = "1e-45", ClampMax = "1e12", UIMin = "0.01", UIMax = "10", Units = "kg", ToolTip = "Total mass, spread evenly over the vertices. Above 0, at most 1e12 kg."))
	float Mass = 0.4f;
	// END GENERATED ClothGridDesc mass

	// BEGIN GENERATED ClothDesc preset
	/** Compliance of the edges (m/N; 0 = inextensible). At least 0, at most 1e10. */
	UPROPERTY(EditAnywhere, BlueprintReadOnly, Category = "Sinew|Cloth", meta = (ClampMin = "0", ClampMax = "1e10", UIMin = "0", UIMax = "0.01", ToolTip = "Compliance of the edges (m/N; 0 = inextensible). At least 0, at most 1e10."))
	float StretchCompliance = 1e-6f;

	/** Compliance of the distance bend links across interior edges (m/N). At least 0, at most 1e10. */
	UPROPERTY(EditAnywhere, BlueprintReadOnly, Category = "Sinew|Cloth", meta = (ClampMin = "0", ClampMax = "1e10", UIMin = "0", UIMax = "1", ToolTip = "Compliance of the distance bend links across interior edges (m/N). At least 0, at most 1e10."))
	float BendCompliance = 0.001f;

	/** Extra velocity damping of the cloth's particles. At least 0, at most 1000000 1/s. */
	UPROPERTY(EditAnywhere, BlueprintReadOnly, Category = "Sinew|Cloth", meta = (ClampMin = "0", ClampMax = "1000000", UIMin = "0", UIMax = "20", ToolTip = "Extra velocity damping of the cloth's particles. At least 0, at most 1000000 1/s."))
	float Damping = 0.2f;
	// END GENERATED ClothDesc preset

	/** Vertices closer than this are one particle (UV seams), cm. */
	UPROPERTY(EditAnywhere, BlueprintReadOnly, Category = "Sinew|Cloth", meta = (ClampMin = "0", Units = "cm"))
	float WeldDistance = 0.01f;

	// BEGIN GENERATED Aerodynamics properties
	/** Drag coefficient per triangle (cloth 1-1.2; 0 = no aerodynamics). At least 0, at most 10. */
	UPROPERTY(EditAnywhere, BlueprintReadOnly, Category = "Sinew|Wind", meta = (ClampMin = "0", ClampMax = "10", ToolTip = "Drag coefficient per triangle (cloth 1-1.2; 0 = no aerodynamics). At least 0, at most 10."))
	float Drag = 1.2f;

	/** Lift coefficient per triangle (0.1-0.5 makes flags ripple). At least 0, at most 10. */
	UPROPERTY(EditAnywhere, BlueprintReadOnly, Category = "Sinew|Wind", meta = (ClampMin = "0", ClampMax = "10", ToolTip = "Lift coefficient per triangle (0.1-0.5 makes flags ripple). At least 0, at most 10."))
	float Lift = 0.2f;
	// END GENERATED Aerodynamics properties

	/** Read the scene's wind (Wind Directional Source actors) at the root each frame. */
	UPROPERTY(EditAnywhere, BlueprintReadWrite, Category = "Sinew|Wind")
	bool bUseSceneWind = true;

	/** Wind speed (m/s) per unit of the wind source's Speed. */
	UPROPERTY(EditAnywhere, BlueprintReadWrite, Category = "Sinew|Wind", meta = (ClampMin = "0"))
	float WindSpeedScale = 20.0f;

	/** Puts the cloth on its skinned pose at the next step (after a cut or a teleport). */
	UFUNCTION(BlueprintCallable, Category = "Sinew|Skinning")
	void Teleport();

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
	USkeletalMeshComponent* FindSkeletalMesh() const;
	bool ReadSkinned(std::vector<sinew::Vec3>& OutPositions, std::vector<sinew::Vec3>& OutNormals) const;
	/** Game thread: this frame's particle positions into a new FSinewClothRenderData, new bounds, render data marked dirty. */
	void UpdateRenderData();

	UPROPERTY(Transient)
	TWeakObjectPtr<USinewWorldSubsystem> Subsystem;

	UPROPERTY(Transient)
	TWeakObjectPtr<USkeletalMeshComponent> Skeletal;

	uint32 Body = 0;
	bool bTeleport = true;
	int32 BaseVertex = 0;
	int32 NumSectionVertices = 0;
	sinew::cloth::Layout Layout;                // particles in the skeletal component's space, cm
	std::vector<int32> VertexOfParticle;        // first section vertex of each particle
	std::vector<sinew::Vec3> SimPositions;      // m, simulation space
	std::vector<sinew::Vec3> Targets;           // m, per particle
	std::vector<sinew::Vec3> TargetNormals;     // per particle
	std::shared_ptr<const sinew::render::ClothSource> ClothSource; // the section's render vertices, triangles and UVs
	std::shared_ptr<const FSinewClothRenderData> RenderData;        // the frame handed to the render thread
	sinew::render::Box RenderBox;               // m, simulation space
};

// A Sinew collider that follows this component: ropes and cloths (with a non-zero
// CollisionRadius) collide with it. It mirrors the sphere, capsule or box component it
// is attached to (bMirrorParentShape), or uses its own shape below: a sphere, capsule,
// box, plane, or the signed distance field of a closed static mesh (Shape StaticMesh:
// baked by the library, sinew::colliders::sdf_from_mesh, once per mesh, cell size and
// scale, and kept; an open or inconsistently wound mesh is refused with the library's
// message naming the edge or triangle). Attached to a primitive that simulates physics
// (a static mesh component with Shape StaticMesh too), BodyCoupling makes it two-way
// with Chaos: the body's mass, inertia and velocities go to Sinew before each step, and
// the particles' push comes back after it as a force and torque or a velocity change. Shapes are
// converted by bindings/cpp/sinew_colliders.hpp (cm -> m, UE capsules along local Z ->
// Sinew capsules along local Y, UE's scale rules); the transform is sent every frame
// just before the world steps (the collider sweeps from its last pose to the new one,
// so moving colliders carry particles along through friction). With bContactEvents on,
// the begin/persist/end contact events of the bodies touching it are broadcast after
// each fixed step on OnSinewContactBegin/Persist/End (Blueprint assignable).
//
// Units: lengths in cm; friction coefficients and restitution are unitless.
#pragma once

#include "CoreMinimal.h"
#include "Components/SceneComponent.h"
#include "SinewWorldSubsystem.h"

#include <memory>

THIRD_PARTY_INCLUDES_START
#include "sinew_colliders.hpp"
THIRD_PARTY_INCLUDES_END

#include "SinewColliderComponent.generated.h"

class USinewColliderComponent;

/**
 * A body touches a Sinew collider: the collider, the body's component (a rope or cloth;
 * null for particles of no component), the first touching particle's contact point (cm,
 * world), the collider's outward normal there, and the normal impulse the collider gave
 * the body over the step (N·s; 0 for an end; divide by the fixed time step for a mean force in N).
 */
DECLARE_DYNAMIC_MULTICAST_DELEGATE_FiveParams(FSinewContactSignature, USinewColliderComponent*, Collider, USceneComponent*, Body, FVector, Location, FVector, Normal, float, Impulse);

/** The shape of a USinewColliderComponent that does not mirror its parent. */
UENUM(BlueprintType)
enum class ESinewColliderShape : uint8
{
	Sphere,
	/** Along the component's local Z axis, as UCapsuleComponent. */
	Capsule,
	Box,
	/** Infinite plane through the component, normal along its local +Z; particles stay above it. */
	Plane,
	/** The signed distance field of a closed static mesh (SdfMesh, or the static mesh component it comes from), baked once per mesh, cell size and scale. */
	StaticMesh
};

/** How a collider passes the particles' push on to the simulating primitive it is attached to. */
UENUM(BlueprintType)
enum class ESinewBodyCoupling : uint8
{
	/** Kinematic: the collider follows the component; the particles do not push back. */
	None,
	/** Two-way: the body's mass, inertia and velocities go to Sinew before each step; after it the step's mean force and torque are added at its centre of mass (AddForce, AddTorqueInRadians). */
	ForceAndTorque,
	/** Two-way, applied as the velocity change of Sinew's proxy of the body (SetPhysicsLinearVelocity / SetPhysicsAngularVelocityInRadians, added to the current). */
	VelocityChange
};

class UPrimitiveComponent;
class UStaticMesh;

UCLASS(ClassGroup = (Physics), meta = (BlueprintSpawnableComponent), hidecategories = (Object, Activation, "Components|Activation"))
class SINEW_API USinewColliderComponent : public USceneComponent, public ISinewSimulated
{
	GENERATED_BODY()

public:
	USinewColliderComponent(const FObjectInitializer& ObjectInitializer);

	/** Take shape and size from the sphere, capsule or box component this one is attached to (else use Shape below). */
	UPROPERTY(EditAnywhere, BlueprintReadOnly, Category = "Sinew|Collider")
	bool bMirrorParentShape = true;

	/** Two-way coupling with the parent primitive when it simulates physics (a Chaos body): the particles, pins and water push it back. */
	UPROPERTY(EditAnywhere, BlueprintReadWrite, Category = "Sinew|Collider")
	ESinewBodyCoupling BodyCoupling = ESinewBodyCoupling::None;

	/** Shape when not mirroring a parent primitive. */
	UPROPERTY(EditAnywhere, BlueprintReadWrite, Category = "Sinew|Collider")
	ESinewColliderShape Shape = ESinewColliderShape::Sphere;

	// BEGIN GENERATED SphereRadius property
	/** Sphere radius (scaled by the smallest axis of the component scale). Above 0, at most 1e11 cm. */
	UPROPERTY(EditAnywhere, BlueprintReadWrite, Category = "Sinew|Collider", meta = (ClampMin = "1.4e-43", ClampMax = "1e11", UIMin = "1", UIMax = "500", Units = "cm", ToolTip = "Sphere radius (scaled by the smallest axis of the component scale). Above 0, at most 1e11 cm."))
	float SphereRadius = 50.0f;
	// END GENERATED SphereRadius property

	// BEGIN GENERATED CapsuleRadius property
	/** Capsule radius. Above 0, at most 1e11 cm. */
	UPROPERTY(EditAnywhere, BlueprintReadWrite, Category = "Sinew|Collider", meta = (ClampMin = "1.4e-43", ClampMax = "1e11", UIMin = "1", UIMax = "500", Units = "cm", ToolTip = "Capsule radius. Above 0, at most 1e11 cm."))
	float CapsuleRadius = 22.0f;
	// END GENERATED CapsuleRadius property

	/** Capsule half height including the caps, cm (as UCapsuleComponent). */
	UPROPERTY(EditAnywhere, BlueprintReadWrite, Category = "Sinew|Collider", meta = (ClampMin = "0", UIMin = "0", UIMax = "500", Units = "cm"))
	float CapsuleHalfHeight = 44.0f;

	/** Box half extents, cm (scaled per axis). */
	UPROPERTY(EditAnywhere, BlueprintReadWrite, Category = "Sinew|Collider", meta = (Units = "cm"))
	FVector BoxExtent = FVector(32.0, 32.0, 32.0);

	/** Shape StaticMesh: the closed mesh (LOD 0, every section; seams welded) whose distance field collides; none = the static mesh of the parent static mesh component, else of the owner's first one (and the field then follows that component). */
	UPROPERTY(EditAnywhere, BlueprintReadWrite, Category = "Sinew|Collider")
	TObjectPtr<UStaticMesh> SdfMesh = nullptr;

	/** Shape StaticMesh: the field's node spacing, cm (above 0). Smaller follows the mesh more closely; the nodes (4 bytes each) grow as 1 / cell³ and the library refuses more than SINEW_MAX_SDF_SAMPLES. */
	UPROPERTY(EditAnywhere, BlueprintReadWrite, Category = "Sinew|Collider", meta = (ClampMin = "0", UIMin = "1", UIMax = "50", Units = "cm"))
	float SdfCellSize = 5.0f;

	/** Shape StaticMesh: how far around the mesh the field reaches, cm (at least the largest particle radius plus a cell). */
	UPROPERTY(EditAnywhere, BlueprintReadWrite, Category = "Sinew|Collider", meta = (ClampMin = "0", UIMax = "100", Units = "cm"))
	float SdfMargin = 10.0f;

	/** Shape StaticMesh: nodes of the baked field (0 before it is baked, or when the mesh was refused: see the log). */
	UFUNCTION(BlueprintPure, Category = "Sinew|Collider")
	int32 GetSdfNodeCount() const;

	// BEGIN GENERATED ColliderDesc properties
	/** Coulomb coefficient below which a contact sticks. At least 0, at most 100. */
	UPROPERTY(EditAnywhere, BlueprintReadWrite, Category = "Sinew|Material", meta = (ClampMin = "0", ClampMax = "100", ToolTip = "Coulomb coefficient below which a contact sticks. At least 0, at most 100."))
	float StaticFriction = 0.0f;

	/** Coulomb coefficient of sliding. At least 0, at most 100. */
	UPROPERTY(EditAnywhere, BlueprintReadWrite, Category = "Sinew|Material", meta = (ClampMin = "0", ClampMax = "100", ToolTip = "Coulomb coefficient of sliding. At least 0, at most 100."))
	float DynamicFriction = 0.0f;

	/** Normal velocity kept after an impact, as a fraction of the approach speed (0 = no bounce, 1 = elastic). At least 0, at most 1. */
	UPROPERTY(EditAnywhere, BlueprintReadWrite, Category = "Sinew|Material", meta = (ClampMin = "0", ClampMax = "1", ToolTip = "Normal velocity kept after an impact, as a fraction of the approach speed (0 = no bounce, 1 = elastic). At least 0, at most 1."))
	float Restitution = 0.0f;

	/** Whether the contact readback (`World::contacts`, sinew_world_read_contacts) lists this collider's contacts. Off, the collider still acts on the particles, only its contacts are left out (a host world that handles some colliders' contacts itself, or none). */
	UPROPERTY(EditAnywhere, BlueprintReadWrite, Category = "Sinew|Material", meta = (ToolTip = "Whether the contact readback (`World::contacts`, sinew_world_read_contacts) lists this collider's contacts. Off, the collider still acts on the particles, only its contacts are left out (a host world that handles some colliders' contacts itself, or none)."))
	bool bReportContacts = true;
	// END GENERATED ColliderDesc properties

	/** Broadcast OnSinewContactBegin/Persist/End for this collider after each fixed step (needs bReportContacts). Applies from the next step. */
	UPROPERTY(EditAnywhere, BlueprintReadWrite, Category = "Sinew|Contacts")
	bool bContactEvents = false;

	/** A body started touching this collider in the last fixed step. */
	UPROPERTY(BlueprintAssignable, Category = "Sinew|Contacts")
	FSinewContactSignature OnSinewContactBegin;

	/** A body kept touching this collider in the last fixed step. */
	UPROPERTY(BlueprintAssignable, Category = "Sinew|Contacts")
	FSinewContactSignature OnSinewContactPersist;

	/** A body stopped touching this collider in the last fixed step (Impulse 0). */
	UPROPERTY(BlueprintAssignable, Category = "Sinew|Contacts")
	FSinewContactSignature OnSinewContactEnd;

	/** True while the collider is in the world's simulation. */
	UFUNCTION(BlueprintPure, Category = "Sinew|Collider")
	bool IsSimulating() const { return Collider != 0; }

	/** Take part in the editor preview: ropes and cloths previewed in the editor viewport collide with it. */
	UPROPERTY(EditAnywhere, BlueprintReadOnly, Category = "Sinew|Editor")
	bool bPreviewInEditor = true;

	virtual void BeginPlay() override;
	virtual void EndPlay(const EEndPlayReason::Type EndPlayReason) override;
	virtual void OnRegister() override;
	virtual void OnUnregister() override;

	virtual void PreSinewStep(USinewWorldSubsystem& InSubsystem) override;
	virtual void PostSinewStep(USinewWorldSubsystem& InSubsystem) override;
	virtual uint32 GetSinewCollider() const override { return Collider; }
	virtual void OnSinewContact(USinewWorldSubsystem& InSubsystem, const sinew::Scene::ContactEvent& Event, USceneComponent* Body) override;

private:
	/** The collider desc for the current shape, transform and material; false (and logs once) when invalid. For Shape StaticMesh (not mirroring a primitive parent) *OutSdfSource is the component the field follows (else null), and the desc gives only its pose and material. */
	bool BuildDesc(const USinewWorldSubsystem& Sub, SinewColliderDesc& Out, const USceneComponent** OutSdfSource = nullptr);
	/** Shape StaticMesh: the mesh and the component whose transform the field follows (this one for SdfMesh); null mesh when there is none. */
	const USceneComponent* SdfSource(UStaticMesh*& OutMesh) const;
	/** Shape StaticMesh: the field of the source mesh at Source's scale, baked or from the cache; null (logged once) when there is no mesh or the library refused it (open, inside-out, too many nodes). */
	std::shared_ptr<const sinew::colliders::SdfGrid> BakeSdf(const USceneComponent& Source);
	/** PreSinewStep for Shape StaticMesh: adds (the Scene adopts it), moves or re-creates the field's collider, then pushes the coupled body as for every shape. */
	void PreSinewStepSdf(const USinewWorldSubsystem& Sub, sinew::Scene& Scene, const USceneComponent& Source, SinewColliderDesc& Desc);
	/** Removes the field's collider, if Collider is one. */
	void RemoveSdfCollider(sinew::Scene* Scene);
	/** Registers with the subsystem and adds the collider (from BeginPlay, or OnRegister in an editor world). */
	void AddToSimulation(USinewWorldSubsystem& Sub);
	void RemoveFromSimulation();
	/** The parent primitive this collider couples to: simulating physics, and BodyCoupling not None; else null. */
	UPrimitiveComponent* CoupledBody() const;
	/** Before a step: the coupled body's mass, inertia, centre of mass and velocities into the collider (or kinematic again). */
	void PushBody(const USinewWorldSubsystem& Sub, sinew::Scene& Scene, const SinewColliderDesc& Desc);

	UPROPERTY(Transient)
	TWeakObjectPtr<USinewWorldSubsystem> Subsystem;

	/** The collider's Scene id (0: none): a primitive shape's, or the field's (SdfInWorld set). */
	uint32 Collider = 0;
	SinewColliderDesc Current{};
	bool bWarned = false;
	/** Whether the subsystem routes this collider's contact events here (follows bContactEvents). */
	bool bListening = false;
	/** Whether the collider is dynamic in the simulation (a coupled body was pushed). */
	bool bDynamic = false;

	// Shape StaticMesh: the field's collider is made on the Scene's world
	// (sinew::colliders::add_sdf_collider) and adopted by the Scene (Scene::adopt_collider),
	// so it couples two-way with a simulating parent and raises contact events as the
	// primitive shapes do.
	/** The baked field (the cache) and what it was baked from (the mesh's bounds too: a re-import keeps the object); a refused bake is kept too (SdfGrid null), so that it is not tried again every step. */
	std::shared_ptr<const sinew::colliders::SdfGrid> SdfGrid;
	bool bSdfBaked = false;
	const UStaticMesh* SdfBakedMesh = nullptr;
	float SdfBakedCell = 0.0f;
	float SdfBakedMargin = 0.0f;
	FVector SdfBakedScale = FVector(1.0, 1.0, 1.0);
	FBoxSphereBounds SdfBakedBounds;
	/** The field Collider was made from; null while Collider is a primitive shape's (or none). */
	std::shared_ptr<const sinew::colliders::SdfGrid> SdfInWorld;
};

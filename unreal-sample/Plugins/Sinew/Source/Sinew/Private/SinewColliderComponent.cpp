#include "SinewColliderComponent.h"

#include "Components/BoxComponent.h"
#include "Components/CapsuleComponent.h"
#include "Components/StaticMeshComponent.h"
#include "Engine/StaticMesh.h"
#include "GameFramework/Actor.h"
#include "KismetProceduralMeshLibrary.h"
#include "Components/PrimitiveComponent.h"
#include "Components/SphereComponent.h"
#include "Engine/World.h"
#include "PhysicsEngine/BodyInstance.h"
#include "SinewConversions.h"
#include "SinewEditorPreview.h"
#include "SinewModule.h"

#include <utility>
#include <vector>

USinewColliderComponent::USinewColliderComponent(const FObjectInitializer& ObjectInitializer)
	: Super(ObjectInitializer)
{
	PrimaryComponentTick.bCanEverTick = false; // moved by USinewWorldSubsystem before each step
}

bool USinewColliderComponent::BuildDesc(const USinewWorldSubsystem& Sub, SinewColliderDesc& Out, const USceneComponent** OutSdfSource)
{
	if (OutSdfSource)
	{
		*OutSdfSource = nullptr;
	}
	sinew::colliders::ShapeParams Params;
	const USceneComponent* Source = this;
	const USceneComponent* Parent = bMirrorParentShape ? GetAttachParent() : nullptr;
	if (const USphereComponent* SphereParent = Cast<USphereComponent>(Parent))
	{
		Params.shape = sinew::colliders::Shape::Sphere;
		Params.radius_cm = SphereParent->GetUnscaledSphereRadius();
		Source = Parent;
	}
	else if (const UCapsuleComponent* CapsuleParent = Cast<UCapsuleComponent>(Parent))
	{
		Params.shape = sinew::colliders::Shape::Capsule;
		Params.radius_cm = CapsuleParent->GetUnscaledCapsuleRadius();
		Params.half_height_cm = CapsuleParent->GetUnscaledCapsuleHalfHeight();
		Source = Parent;
	}
	else if (const UBoxComponent* BoxParent = Cast<UBoxComponent>(Parent))
	{
		const FVector Extent = BoxParent->GetUnscaledBoxExtent();
		Params.shape = sinew::colliders::Shape::Box;
		Params.box_extent_cm = sinew::units::Double3{Extent.X, Extent.Y, Extent.Z};
		Source = Parent;
	}
	else if (Shape == ESinewColliderShape::StaticMesh)
	{
		// The pose and material only (a sphere's desc): the field replaces the shape.
		UStaticMesh* Mesh = nullptr;
		const USceneComponent* FieldSource = SdfSource(Mesh);
		Params.shape = sinew::colliders::Shape::Sphere;
		Params.radius_cm = SphereRadius;
		Source = FieldSource;
		if (OutSdfSource)
		{
			*OutSdfSource = FieldSource;
		}
	}
	else
	{
		switch (Shape)
		{
		case ESinewColliderShape::Capsule:
			Params.shape = sinew::colliders::Shape::Capsule;
			break;
		case ESinewColliderShape::Box:
			Params.shape = sinew::colliders::Shape::Box;
			break;
		case ESinewColliderShape::Plane:
			Params.shape = sinew::colliders::Shape::Plane;
			break;
		default:
			Params.shape = sinew::colliders::Shape::Sphere;
			break;
		}
		Params.radius_cm = Params.shape == sinew::colliders::Shape::Capsule ? CapsuleRadius : SphereRadius;
		Params.half_height_cm = CapsuleHalfHeight;
		Params.box_extent_cm = sinew::units::Double3{BoxExtent.X, BoxExtent.Y, BoxExtent.Z};
	}
	// BEGIN GENERATED ColliderDesc material
	const sinew::colliders::Material Material{StaticFriction, DynamicFriction, Restitution, bReportContacts};
	// END GENERATED ColliderDesc material
	const sinew::Result<SinewColliderDesc> Desc = sinew::colliders::to_collider_desc(
		Sub.GetFrame(), Params, SinewUE::ColliderTransform(Source->GetComponentTransform()), Material);
	if (!Desc)
	{
		if (!bWarned)
		{
			UE_LOG(LogSinew, Warning, TEXT("%s: %s"), *GetPathName(), UTF8_TO_TCHAR(Desc.error().message.c_str()));
			bWarned = true;
		}
		return false;
	}
	Out = *Desc;
	return true;
}

void USinewColliderComponent::BeginPlay()
{
	Super::BeginPlay();
	USinewWorldSubsystem* Sub = GetWorld() ? GetWorld()->GetSubsystem<USinewWorldSubsystem>() : nullptr;
	if (!Sub || !Sub->GetScene())
	{
		UE_LOG(LogSinew, Warning, TEXT("%s: no Sinew simulation in this world (library unavailable?)"), *GetPathName());
		return;
	}
	AddToSimulation(*Sub);
}

void USinewColliderComponent::OnRegister()
{
	Super::OnRegister();
	// The editor preview: previewed ropes and cloths collide with it (editor worlds never begin play).
	if (bPreviewInEditor && !Subsystem.IsValid() && SinewPreview::IsEditorWorld(GetWorld()))
	{
		if (USinewWorldSubsystem* Sub = GetWorld()->GetSubsystem<USinewWorldSubsystem>(); Sub && Sub->GetScene())
		{
			AddToSimulation(*Sub);
		}
	}
}

void USinewColliderComponent::AddToSimulation(USinewWorldSubsystem& Sub)
{
	Subsystem = &Sub;
	Sub.Register(this);
	PreSinewStep(Sub); // add it now, so that bodies created this frame already see it
}

void USinewColliderComponent::PreSinewStep(USinewWorldSubsystem& Sub)
{
	if (bContactEvents != bListening)
	{
		Sub.SetContactListener(this, bContactEvents);
		bListening = bContactEvents;
	}
	sinew::Scene* Scene = Sub.GetScene();
	SinewColliderDesc Desc;
	const USceneComponent* SdfFrom = nullptr;
	if (!Scene || !BuildDesc(Sub, Desc, &SdfFrom))
	{
		return;
	}
	if (SdfFrom)
	{
		if (Collider != 0 && !SdfInWorld)
		{
			(void)Scene->remove_collider(Collider); // the shape became the mesh's field
			Collider = 0;
			bDynamic = false;
		}
		PreSinewStepSdf(Sub, *Scene, *SdfFrom, Desc);
		return;
	}
	RemoveSdfCollider(Scene); // the shape is no longer the mesh's field
	sinew::Result<void> Done;
	if (Collider != 0 && sinew::colliders::same_geometry(Desc, Current))
	{
		// Same shape and size: sweep to the new pose, update the material if it changed.
		Done = Scene->set_collider_transform(Collider, Desc.position, Desc.rotation);
		if (Done && (Desc.static_friction != Current.static_friction || Desc.dynamic_friction != Current.dynamic_friction || Desc.restitution != Current.restitution))
		{
			Done = Scene->set_collider_material(Collider, Desc.static_friction, Desc.dynamic_friction, Desc.restitution);
			if (!Done)
			{
				// Keep the material that is in the simulation.
				Desc.static_friction = Current.static_friction;
				Desc.dynamic_friction = Current.dynamic_friction;
				Desc.restitution = Current.restitution;
			}
		}
	}
	else
	{
		// First time, or the shape or its size changed (e.g. a scale): re-create it.
		if (Collider != 0)
		{
			(void)Scene->remove_collider(Collider);
			Collider = 0;
		}
		bDynamic = false;
		const sinew::Result<sinew::ColliderId> Added = Scene->add_collider(Desc);
		if (Added)
		{
			Collider = *Added;
		}
		else
		{
			Done = Added.error();
		}
	}
	if (!Done)
	{
		if (!bWarned)
		{
			UE_LOG(LogSinew, Warning, TEXT("%s: %s"), *GetPathName(), UTF8_TO_TCHAR(Done.error().message.c_str()));
			bWarned = true;
		}
		return;
	}
	Current = Desc;
	bWarned = false;
	PushBody(Sub, *Scene, Desc);
}

const USceneComponent* USinewColliderComponent::SdfSource(UStaticMesh*& OutMesh) const
{
	OutMesh = SdfMesh;
	if (OutMesh)
	{
		return this;
	}
	const UStaticMeshComponent* From = Cast<UStaticMeshComponent>(GetAttachParent());
	if (!From && GetOwner())
	{
		From = GetOwner()->FindComponentByClass<UStaticMeshComponent>();
	}
	OutMesh = From ? From->GetStaticMesh() : nullptr;
	return OutMesh ? static_cast<const USceneComponent*>(From) : this;
}

int32 USinewColliderComponent::GetSdfNodeCount() const
{
	return SdfGrid ? (int32)SdfGrid->distances.size() : 0;
}

std::shared_ptr<const sinew::colliders::SdfGrid> USinewColliderComponent::BakeSdf(const USceneComponent& Source)
{
	UStaticMesh* Mesh = nullptr;
	(void)SdfSource(Mesh);
	const FVector Scale = Source.GetComponentTransform().GetScale3D();
	// The mesh's bounds too: a mesh re-imported in the editor keeps its address.
	const FBoxSphereBounds Bounds = Mesh ? Mesh->GetBounds() : FBoxSphereBounds();
	if (bSdfBaked && Mesh == SdfBakedMesh && SdfCellSize == SdfBakedCell && SdfMargin == SdfBakedMargin && Scale == SdfBakedScale && Bounds.Origin == SdfBakedBounds.Origin && Bounds.BoxExtent == SdfBakedBounds.BoxExtent)
	{
		return SdfGrid; // the cache (null when this bake was refused: logged then)
	}
	bSdfBaked = true;
	SdfBakedBounds = Bounds;
	SdfBakedMesh = Mesh;
	SdfBakedCell = SdfCellSize;
	SdfBakedMargin = SdfMargin;
	SdfBakedScale = Scale;
	SdfGrid.reset();
	if (!Mesh)
	{
		UE_LOG(LogSinew, Warning, TEXT("%s: Shape StaticMesh needs a mesh (SdfMesh, or a static mesh component it is attached to or whose actor it is on)"), *GetPathName());
		return nullptr;
	}
	// LOD 0, every section, in the field's frame: scaled, in m (the rotation is the collider's).
	std::vector<sinew::Vec3> Vertices;
	std::vector<uint32_t> Triangles;
	for (int32 Section = 0; Section < Mesh->GetNumSections(0); ++Section)
	{
		TArray<FVector> SectionVertices, Normals;
		TArray<int32> SectionTriangles;
		TArray<FVector2D> UVs;
		TArray<FProcMeshTangent> Tangents;
		UKismetProceduralMeshLibrary::GetSectionFromStaticMesh(Mesh, 0, Section, SectionVertices, SectionTriangles, Normals, UVs, Tangents);
		const uint32_t Base = (uint32_t)Vertices.size();
		for (const FVector& V : SectionVertices)
		{
			Vertices.push_back(SinewUE::ExtentToSim(FVector(V.X * Scale.X, V.Y * Scale.Y, V.Z * Scale.Z)));
		}
		for (const int32 Index : SectionTriangles)
		{
			Triangles.push_back(Base + (uint32_t)FMath::Max(Index, 0));
		}
	}
	// Either winding (Unreal's clockwise, a mirrored scale's) is turned outward as a
	// whole; inconsistent or open meshes are still refused below.
	SinewUE::WindOutward(Vertices, Triangles);
	sinew::Result<sinew::colliders::SdfGrid> Baked = sinew::colliders::sdf_from_mesh(sinew::Span<const sinew::Vec3>(Vertices), sinew::Span<const uint32_t>(Triangles), SinewUE::LengthToSim(SdfCellSize), SinewUE::LengthToSim(FMath::Max(SdfMargin, 0.0f)));
	if (!Baked)
	{
		UE_LOG(LogSinew, Warning, TEXT("%s: no distance field from %s (Shape StaticMesh needs a closed mesh, consistently wound; a larger SdfCellSize for fewer nodes): %s"), *GetPathName(), *Mesh->GetPathName(), UTF8_TO_TCHAR(Baked.error().message.c_str()));
		return nullptr;
	}
	SdfGrid = std::make_shared<const sinew::colliders::SdfGrid>(std::move(Baked).value());
	return SdfGrid;
}

void USinewColliderComponent::PreSinewStepSdf(const USinewWorldSubsystem& Sub, sinew::Scene& Scene, const USceneComponent& Source, SinewColliderDesc& Desc)
{
	const std::shared_ptr<const sinew::colliders::SdfGrid> Grid = BakeSdf(Source);
	if (!Grid)
	{
		RemoveSdfCollider(&Scene); // nothing to collide with (logged by BakeSdf)
		return;
	}
	sinew::Result<void> Done;
	if (Collider != 0 && Grid == SdfInWorld)
	{
		// Same field: sweep to the new pose, update the material if it changed.
		Done = Scene.set_collider_transform(Collider, Desc.position, Desc.rotation);
		if (Done && (Desc.static_friction != Current.static_friction || Desc.dynamic_friction != Current.dynamic_friction || Desc.restitution != Current.restitution))
		{
			Done = Scene.set_collider_material(Collider, Desc.static_friction, Desc.dynamic_friction, Desc.restitution);
			if (!Done)
			{
				Desc.static_friction = Current.static_friction;
				Desc.dynamic_friction = Current.dynamic_friction;
				Desc.restitution = Current.restitution;
			}
		}
	}
	else
	{
		// First time, or a new field (another mesh, cell size or scale): re-create it.
		RemoveSdfCollider(&Scene);
		sinew::Result<sinew::Collider> Added = sinew::colliders::add_sdf_collider(Scene.world(), Desc, *Grid);
		// The scene takes it over: a Scene id as every other shape's (body coupling, contact events).
		const sinew::Result<sinew::ColliderId> Adopted = Added ? Scene.adopt_collider(std::move(*Added)) : sinew::Result<sinew::ColliderId>(Added.error());
		if (Adopted)
		{
			Collider = *Adopted;
			SdfInWorld = Grid;
		}
		else
		{
			Done = Adopted.error();
		}
	}
	if (!Done)
	{
		if (!bWarned)
		{
			UE_LOG(LogSinew, Warning, TEXT("%s: %s"), *GetPathName(), UTF8_TO_TCHAR(Done.error().message.c_str()));
			bWarned = true;
		}
		return;
	}
	Current = Desc;
	bWarned = false;
	PushBody(Sub, Scene, Desc);
}

void USinewColliderComponent::RemoveSdfCollider(sinew::Scene* Scene)
{
	if (!SdfInWorld)
	{
		return; // Collider, if any, is a primitive shape's
	}
	if (Scene && Collider != 0)
	{
		(void)Scene->remove_collider(Collider);
	}
	Collider = 0;
	bDynamic = false;
	SdfInWorld.reset();
}

UPrimitiveComponent* USinewColliderComponent::CoupledBody() const
{
	if (BodyCoupling == ESinewBodyCoupling::None)
	{
		return nullptr;
	}
	UPrimitiveComponent* Body = Cast<UPrimitiveComponent>(GetAttachParent());
	return Body && Body->IsSimulatingPhysics() ? Body : nullptr;
}

void USinewColliderComponent::PushBody(const USinewWorldSubsystem& Sub, sinew::Scene& Scene, const SinewColliderDesc& Desc)
{
	UPrimitiveComponent* Body = CoupledBody();
	const FBodyInstance* Instance = Body ? Body->GetBodyInstance() : nullptr;
	if (!Instance)
	{
		if (bDynamic)
		{
			(void)Scene.clear_collider_dynamics(Collider);
			bDynamic = false;
		}
		return;
	}
	// Everything in the collider's own frame (its Sinew rotation, which for a capsule
	// includes the Y -> Z turn), SI units.
	const sinew::Quat ToLocal{-Desc.rotation.x, -Desc.rotation.y, -Desc.rotation.z, Desc.rotation.w};
	const sinew::Vec3 Com = SinewUE::ToSim(Sub.GetFrame(), Instance->GetCOMPosition());
	const sinew::Vec3 Offset{Com.x - Desc.position.x, Com.y - Desc.position.y, Com.z - Desc.position.z};
	const FQuat Axes = Instance->GetMassSpaceToWorldSpace().GetRotation();
	const sinew::colliders::DQuat AxesLocal = sinew::colliders::multiply(
		sinew::colliders::DQuat{ToLocal.x, ToLocal.y, ToLocal.z, ToLocal.w}, sinew::colliders::DQuat{Axes.X, Axes.Y, Axes.Z, Axes.W});
	const FVector Moments = Instance->GetBodyInertiaTensor(); // kg·cm², principal
	const FVector V = Body->GetPhysicsLinearVelocity();
	const FVector W = Body->GetPhysicsAngularVelocityInRadians();
	SinewColliderDynamics D{};
	D.mass = Body->GetMass();
	D.inertia = SinewUE::InertiaToSim(Moments);
	D.inertia_rotation = sinew::Quat{float(AxesLocal.x), float(AxesLocal.y), float(AxesLocal.z), float(AxesLocal.w)};
	D.center_of_mass = sinew::colliders::rotate(ToLocal, Offset);
	D.velocity = sinew::units::Frame::velocity_to_sim(sinew::units::Double3{V.X, V.Y, V.Z});
	D.angular_velocity = sinew::Vec3{float(W.X), float(W.Y), float(W.Z)}; // rad/s, same axes
	D.gravity = 0; // Chaos integrates the body's gravity
	const sinew::Result<void> Done = Scene.set_collider_dynamics(Collider, D);
	bDynamic = (bool)Done;
	if (!Done && !bWarned)
	{
		UE_LOG(LogSinew, Warning, TEXT("%s: %s"), *GetPathName(), UTF8_TO_TCHAR(Done.error().message.c_str()));
		bWarned = true;
	}
}

void USinewColliderComponent::PostSinewStep(USinewWorldSubsystem& Sub)
{
	UPrimitiveComponent* Body = CoupledBody();
	sinew::Scene* Scene = Sub.GetScene();
	if (!bDynamic || !Body || !Scene || Collider == 0)
	{
		return;
	}
	if (BodyCoupling == ESinewBodyCoupling::VelocityChange)
	{
		const sinew::Result<SinewColliderMotion> M = Scene->collider_motion(Collider);
		if (M)
		{
			const sinew::units::Double3 Dv = sinew::units::Frame::velocity_from_sim(M->velocity_change);
			const SinewVec3 Dw = M->angular_velocity_change;
			Body->SetPhysicsLinearVelocity(FVector(Dv.x, Dv.y, Dv.z), true);
			Body->SetPhysicsAngularVelocityInRadians(FVector(Dw.x, Dw.y, Dw.z), true);
		}
		return;
	}
	const FBodyInstance* Instance = Body->GetBodyInstance();
	if (!Instance)
	{
		return;
	}
	const sinew::Vec3 Com = SinewUE::ToSim(Sub.GetFrame(), Instance->GetCOMPosition());
	const sinew::Result<sinew::Wrench> W = Scene->collider_contact_wrench(Collider, Com);
	if (W)
	{
		Body->AddForce(SinewUE::ForceFromSim(W->force));
		Body->AddTorqueInRadians(SinewUE::TorqueFromSim(W->torque));
	}
}

void USinewColliderComponent::OnSinewContact(USinewWorldSubsystem& Sub, const sinew::Scene::ContactEvent& Event, USceneComponent* Body)
{
	const FVector Location = SinewUE::FromSim(Sub.GetFrame(), Event.point);
	const FVector Normal(Event.normal.x, Event.normal.y, Event.normal.z); // a direction: no unit, same axes
	switch (Event.kind)
	{
	case SINEW_CONTACT_BEGIN:
		OnSinewContactBegin.Broadcast(this, Body, Location, Normal, Event.impulse);
		break;
	case SINEW_CONTACT_PERSIST:
		OnSinewContactPersist.Broadcast(this, Body, Location, Normal, Event.impulse);
		break;
	default:
		OnSinewContactEnd.Broadcast(this, Body, Location, Normal, Event.impulse);
		break;
	}
}

void USinewColliderComponent::RemoveFromSimulation()
{
	if (USinewWorldSubsystem* Sub = Subsystem.Get())
	{
		Sub->Unregister(this);
		sinew::Scene* Scene = Sub->GetScene();
		if (Scene && Collider != 0)
		{
			(void)Scene->remove_collider(Collider);
		}
	}
	Collider = 0;
	bDynamic = false;
	SdfInWorld.reset();
	bListening = false; // Unregister stopped the routing
	Subsystem.Reset();
}

void USinewColliderComponent::EndPlay(const EEndPlayReason::Type EndPlayReason)
{
	RemoveFromSimulation();
	Super::EndPlay(EndPlayReason);
}

void USinewColliderComponent::OnUnregister()
{
	RemoveFromSimulation();
	Super::OnUnregister();
}

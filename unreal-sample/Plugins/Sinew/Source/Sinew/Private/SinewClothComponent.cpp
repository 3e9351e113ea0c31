#include "SinewClothComponent.h"

#include "Engine/StaticMesh.h"
#include "Engine/World.h"
#include "KismetProceduralMeshLibrary.h"
#include "SinewConversions.h"
#include "SinewModule.h"

USinewClothComponent::USinewClothComponent(const FObjectInitializer& ObjectInitializer)
	: Super(ObjectInitializer)
{
	PrimaryComponentTick.bCanEverTick = false; // stepped by USinewWorldSubsystem
	SetCollisionEnabled(ECollisionEnabled::NoCollision);
}

void USinewClothComponent::BeginPlay()
{
	Super::BeginPlay();
	USinewWorldSubsystem* Sub = GetWorld() ? GetWorld()->GetSubsystem<USinewWorldSubsystem>() : nullptr;
	sinew::Scene* Scene = Sub ? Sub->GetScene() : nullptr;
	if (!Scene || !SourceMesh)
	{
		UE_LOG(LogSinew, Warning, TEXT("%s: %s"), *GetPathName(), !SourceMesh ? TEXT("no SourceMesh") : TEXT("no Sinew simulation in this world"));
		return;
	}

	TArray<FVector> Vertices, Normals;
	TArray<int32> Triangles;
	TArray<FVector2D> UVs;
	TArray<FProcMeshTangent> Tangents;
	UKismetProceduralMeshLibrary::GetSectionFromStaticMesh(SourceMesh, LODIndex, SectionIndex, Vertices, Triangles, Normals, UVs, Tangents);
	if (Vertices.Num() == 0 || Triangles.Num() == 0)
	{
		UE_LOG(LogSinew, Error, TEXT("%s: %s has no readable section %d of LOD %d (Allow CPU Access?)"), *GetPathName(), *SourceMesh->GetName(), SectionIndex, LODIndex);
		return;
	}

	std::vector<sinew::Vec3> LocalVertices((size_t)Vertices.Num());
	for (int32 i = 0; i < Vertices.Num(); ++i)
	{
		LocalVertices[(size_t)i] = SinewUE::ToMeshSpace(Vertices[i]);
	}
	std::vector<uint32_t> Indices((size_t)Triangles.Num());
	for (int32 i = 0; i < Triangles.Num(); ++i)
	{
		Indices[(size_t)i] = (uint32_t)FMath::Max(Triangles[i], 0);
	}
	sinew::Result<sinew::cloth::Layout> Built = sinew::cloth::weld(sinew::Span<const sinew::Vec3>(LocalVertices), sinew::Span<const uint32_t>(Indices), WeldDistance);
	if (!Built)
	{
		UE_LOG(LogSinew, Error, TEXT("%s: %s"), *GetPathName(), UTF8_TO_TCHAR(Built.error().message.c_str()));
		return;
	}
	Layout = std::move(Built).value();

	// Pins: the top vertices and the listed ones.
	const size_t N = Layout.particles.size();
	std::vector<bool> IsPinned(N, false);
	if (bPinTopVertices)
	{
		float Top = -TNumericLimits<float>::Max();
		for (const sinew::Vec3& P : Layout.particles)
		{
			Top = FMath::Max(Top, P.z);
		}
		for (size_t i = 0; i < N; ++i)
		{
			IsPinned[i] = Layout.particles[i].z >= Top - PinHeightTolerance;
		}
	}
	for (int32 V : PinnedVertices)
	{
		if (V >= 0 && V < Vertices.Num())
		{
			IsPinned[Layout.render_to_particle[(size_t)V]] = true;
		}
	}

	const sinew::units::Frame& Frame = Sub->GetFrame();
	const FTransform& ToWorld = GetComponentTransform();
	const float W = (float)N / FMath::Max(Mass, 0.001f);
	std::vector<sinew::Vec3> Positions(N);
	std::vector<float> FreeInverseMasses(N, W);
	std::vector<float> InverseMasses(N, W);
	Pinned.clear();
	for (size_t i = 0; i < N; ++i)
	{
		Positions[i] = SinewUE::ToSim(Frame, ToWorld.TransformPosition(SinewUE::FromMeshSpace(Layout.particles[i])));
		if (IsPinned[i])
		{
			InverseMasses[i] = 0.0f;
			Pinned.push_back((uint32_t)i);
		}
	}
	// The library builds the cloth: a link per edge, distance bending, tethers to the pins.
	sinew::ClothDesc Desc;
	Desc.with_model(sinew::ClothModel::Edges)
		.with_bending(bBending ? sinew::BendingModel::Distance : sinew::BendingModel::None, SinewUE::Compliance(BendCompliance))
		.with_tethers(bTethers)
		.with_damping(FMath::Max(Damping, 0.0f));
	Desc.stretch_compliance = SinewUE::Compliance(StretchCompliance);
	const sinew::Result<sinew::BodyId> Added = Scene->add_cloth_mesh(Desc, sinew::Span<const sinew::Vec3>(Positions), sinew::Span<const uint32_t>(Layout.triangles), sinew::Span<const float>(InverseMasses), SinewUE::LengthToSim(FMath::Max(CollisionRadius, 0.0f)), sinew::Span<const float>(FreeInverseMasses));
	if (!Added)
	{
		UE_LOG(LogSinew, Error, TEXT("%s: %s"), *GetPathName(), UTF8_TO_TCHAR(Added.error().message.c_str()));
		return;
	}
	SimPositions = Positions;
	Body = *Added;
	Subsystem = Sub;
	Sub->Register(this);

	// The render mesh keeps the source's vertices, UVs and triangles; positions and
	// normals follow the particles.
	const TArray<FLinearColor> NoColors;
	CreateMeshSection_LinearColor(0, Vertices, Triangles, Normals, UVs, NoColors, Tangents, false);
	if (GetNumMaterials() > 0 && GetMaterial(0) == nullptr)
	{
		SetMaterial(0, SourceMesh->GetMaterial(SectionIndex));
	}
	bMeshCreated = true;
}

void USinewClothComponent::EndPlay(const EEndPlayReason::Type EndPlayReason)
{
	if (USinewWorldSubsystem* Sub = Subsystem.Get())
	{
		Sub->Unregister(this);
		if (sinew::Scene* Scene = Sub->GetScene(); Scene && Body != 0)
		{
			(void)Scene->remove_body(Body); // the library's removal: other bodies are untouched
		}
	}
	Body = 0; // the Scene released its grab with the body
	GrabbedParticle = INDEX_NONE;
	Subsystem.Reset();
	Super::EndPlay(EndPlayReason);
}

void USinewClothComponent::PreSinewStep(USinewWorldSubsystem& Sub)
{
	sinew::Scene* Scene = Sub.GetScene();
	if (!Scene || Body == 0)
	{
		return;
	}
	// Pinned particles follow the component (the actor may move); a grabbed one follows
	// its grab constraint (USinewClothComponent::SetGrabLocation), not this.
	const FTransform& ToWorld = GetComponentTransform();
	std::vector<uint32_t> Indices = Pinned;
	std::vector<sinew::Vec3> Targets;
	Targets.reserve(Indices.size());
	for (uint32_t i : Pinned)
	{
		Targets.push_back(SinewUE::ToSim(Sub.GetFrame(), ToWorld.TransformPosition(SinewUE::FromMeshSpace(Layout.particles[i]))));
	}
	if (!Indices.empty())
	{
		const sinew::Result<void> Moved = Scene->move_particles(Body, sinew::Span<const uint32_t>(Indices), sinew::Span<const sinew::Vec3>(Targets));
		if (!Moved)
		{
			UE_LOG(LogSinew, Warning, TEXT("%s: %s"), *GetPathName(), UTF8_TO_TCHAR(Moved.error().message.c_str()));
		}
	}
}

void USinewClothComponent::PostSinewStep(USinewWorldSubsystem& Sub)
{
	sinew::Scene* Scene = Sub.GetScene();
	if (!Scene || Body == 0)
	{
		return;
	}
	if (!Scene->read_positions(Body, SimPositions) || !Scene->read_forces(Body, sinew::BodyConstraints::Stretch, StretchForces))
	{
		UE_LOG(LogSinew, Warning, TEXT("%s: cannot read the cloth back"), *GetPathName());
		return;
	}
	UpdateMesh();
}

void USinewClothComponent::UpdateMesh()
{
	USinewWorldSubsystem* Sub = Subsystem.Get();
	if (!Sub || !bMeshCreated)
	{
		return;
	}
	const FTransform& ToWorld = GetComponentTransform();
	LocalParticles.resize(SimPositions.size());
	for (size_t i = 0; i < SimPositions.size(); ++i)
	{
		LocalParticles[i] = SinewUE::ToMeshSpace(ToWorld.InverseTransformPosition(SinewUE::FromSim(Sub->GetFrame(), SimPositions[i])));
	}
	sinew::cloth::normals(sinew::Span<const sinew::Vec3>(LocalParticles), sinew::Span<const uint32_t>(Layout.triangles), sinew::tube::FrontFace::Clockwise, ParticleNormals);

	const int32 NumVertices = (int32)Layout.render_to_particle.size();
	TArray<FVector> Vertices, Normals;
	Vertices.SetNumUninitialized(NumVertices);
	Normals.SetNumUninitialized(NumVertices);
	for (int32 v = 0; v < NumVertices; ++v)
	{
		const uint32_t P = Layout.render_to_particle[(size_t)v];
		Vertices[v] = SinewUE::FromMeshSpace(LocalParticles[P]);
		Normals[v] = SinewUE::FromMeshSpace(ParticleNormals[P]);
	}
	const TArray<FVector2D> KeepUVs;
	const TArray<FLinearColor> NoColors;
	const TArray<FProcMeshTangent> KeepTangents;
	UpdateMeshSection_LinearColor(0, Vertices, Normals, KeepUVs, NoColors, KeepTangents);
}

void USinewClothComponent::SetStretchCompliance(float NewCompliance)
{
	StretchCompliance = FMath::Max(NewCompliance, 0.0f);
	USinewWorldSubsystem* Sub = Subsystem.Get();
	if (sinew::Scene* Scene = Sub ? Sub->GetScene() : nullptr; Scene && Body != 0)
	{
		(void)Scene->set_compliance(Body, sinew::BodyConstraints::Stretch, SinewUE::Compliance(StretchCompliance)); // in place
	}
}

void USinewClothComponent::SetBendCompliance(float NewCompliance)
{
	BendCompliance = FMath::Max(NewCompliance, 0.0f);
	USinewWorldSubsystem* Sub = Subsystem.Get();
	if (sinew::Scene* Scene = Sub ? Sub->GetScene() : nullptr; Scene && Body != 0)
	{
		(void)Scene->set_compliance(Body, sinew::BodyConstraints::Bend, SinewUE::Compliance(BendCompliance)); // in place
	}
}

float USinewClothComponent::GetMaxStretchForce() const
{
	float Max = 0.0f;
	for (float F : StretchForces)
	{
		Max = FMath::Max(Max, F);
	}
	return Max;
}

int32 USinewClothComponent::Grab(FVector WorldLocation)
{
	USinewWorldSubsystem* Sub = Subsystem.Get();
	sinew::Scene* Scene = Sub ? Sub->GetScene() : nullptr;
	if (!Scene || Body == 0)
	{
		return INDEX_NONE;
	}
	// Only free particles can be grabbed: pinned ones are driven already.
	const sinew::Result<uint32_t> Nearest = Scene->nearest_free_particle(Body, SinewUE::ToSim(Sub->GetFrame(), WorldLocation));
	if (!Nearest || !GrabParticle((int32)*Nearest))
	{
		return INDEX_NONE;
	}
	return GrabbedParticle;
}

bool USinewClothComponent::GrabParticle(int32 Particle)
{
	USinewWorldSubsystem* Sub = Subsystem.Get();
	sinew::Scene* Scene = Sub ? Sub->GetScene() : nullptr;
	if (!Scene || Body == 0 || Particle < 0 || (size_t)Particle >= SimPositions.size())
	{
		return false;
	}
	Release();
	const sinew::Result<void> Grabbed = Scene->grab(Body, (uint32_t)Particle, SimPositions[(size_t)Particle], FMath::Max(GrabCompliance, 0.0f));
	if (!Grabbed)
	{
		UE_LOG(LogSinew, Warning, TEXT("%s: %s"), *GetPathName(), UTF8_TO_TCHAR(Grabbed.error().message.c_str()));
		return false;
	}
	GrabbedParticle = Particle;
	return true;
}

void USinewClothComponent::SetGrabLocation(FVector WorldLocation)
{
	USinewWorldSubsystem* Sub = Subsystem.Get();
	sinew::Scene* Scene = Sub ? Sub->GetScene() : nullptr;
	if (Scene && Body != 0 && GrabbedParticle != INDEX_NONE)
	{
		(void)Scene->move_grab(Body, (uint32_t)GrabbedParticle, SinewUE::ToSim(Sub->GetFrame(), WorldLocation));
	}
}

void USinewClothComponent::Release()
{
	USinewWorldSubsystem* Sub = Subsystem.Get();
	sinew::Scene* Scene = Sub ? Sub->GetScene() : nullptr;
	if (Scene && Body != 0 && GrabbedParticle != INDEX_NONE)
	{
		(void)Scene->release(Body, (uint32_t)GrabbedParticle);
	}
	GrabbedParticle = INDEX_NONE;
}

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
	FirstParticle = Scene->first_particle(Body).value_or(0);
	if (TearThreshold > 0.0f)
	{
		const sinew::Result<void> TearOn = Scene->set_tear_threshold(Body, TearThreshold, (uint32_t)FMath::Max(TearReserve, 0));
		if (!TearOn)
		{
			UE_LOG(LogSinew, Warning, TEXT("%s: %s"), *GetPathName(), UTF8_TO_TCHAR(TearOn.error().message.c_str()));
		}
	}
	Subsystem = Sub;
	Sub->Register(this);

	// The render mesh keeps the source's vertices, UVs and triangles; positions and
	// normals follow the particles.
	const TArray<FLinearColor> NoColors;
	CreateMeshSection_LinearColor(0, Vertices, Triangles, Normals, UVs, NoColors, Tangents, false);
	SourceUVs = UVs;
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
	// A tear: the library split vertices; rebuild the section over the new topology.
	if (const sinew::Result<uint64_t> Version = Scene->topology_version(Body); Version && *Version != TopologyVersion)
	{
		TopologyVersion = *Version;
		RebuildTornMesh(*Scene);
	}
	for (size_t k = 0; k < Torn.particle.size(); ++k)
	{
		(void)Scene->world().read_positions(Torn.particle[k], sinew::Span<sinew::Vec3>(&TornPositions[k], 1));
	}
	UpdateMesh();
}

void USinewClothComponent::RebuildTornMesh(sinew::Scene& Scene)
{
	const sinew::Result<sinew::ClothTopology> Topology = Scene.topology(Body);
	if (!Topology)
	{
		UE_LOG(LogSinew, Warning, TEXT("%s: %s"), *GetPathName(), UTF8_TO_TCHAR(Topology.error().message.c_str()));
		return;
	}
	sinew::Result<sinew::cloth::TornMesh> Mesh = sinew::cloth::torn(Layout, FirstParticle, *Topology, &Torn);
	if (!Mesh)
	{
		UE_LOG(LogSinew, Warning, TEXT("%s: %s"), *GetPathName(), UTF8_TO_TCHAR(Mesh.error().message.c_str()));
		return;
	}
	Torn = std::move(Mesh).value();
	TornPositions.resize(Torn.particle.size());
	for (size_t k = 0; k < Torn.particle.size(); ++k)
	{
		(void)Scene.world().read_positions(Torn.particle[k], sinew::Span<sinew::Vec3>(&TornPositions[k], 1));
	}
	// The section again, with the new vertices (each with its source's UV) and triangles.
	const int32 NumSource = (int32)Layout.render_to_particle.size();
	const int32 NumVertices = NumSource + (int32)Torn.source.size();
	TArray<FVector> Vertices, Normals;
	TArray<FVector2D> UVs;
	TArray<int32> Triangles;
	Vertices.SetNumZeroed(NumVertices);
	Normals.Init(FVector::UpVector, NumVertices);
	UVs.SetNumZeroed(NumVertices);
	for (int32 v = 0; v < NumVertices; ++v)
	{
		const int32 Source = v < NumSource ? v : (int32)Torn.source[(size_t)(v - NumSource)];
		UVs[v] = SourceUVs.IsValidIndex(Source) ? SourceUVs[Source] : FVector2D::ZeroVector;
	}
	Triangles.SetNumUninitialized((int32)Torn.triangles.size());
	for (int32 i = 0; i < Triangles.Num(); ++i)
	{
		Triangles[i] = (int32)Torn.triangles[(size_t)i];
	}
	const TArray<FLinearColor> NoColors;
	const TArray<FProcMeshTangent> NoTangents;
	CreateMeshSection_LinearColor(0, Vertices, Triangles, Normals, UVs, NoColors, NoTangents, false);
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

	const int32 NumSource = (int32)Layout.render_to_particle.size();
	const int32 NumVertices = NumSource + (int32)Torn.source.size();
	TArray<FVector> Vertices, Normals;
	Vertices.SetNumUninitialized(NumVertices);
	Normals.SetNumUninitialized(NumVertices);
	for (int32 v = 0; v < NumSource; ++v)
	{
		const uint32_t P = Layout.render_to_particle[(size_t)v];
		Vertices[v] = SinewUE::FromMeshSpace(LocalParticles[P]);
		Normals[v] = SinewUE::FromMeshSpace(ParticleNormals[P]);
	}
	// Vertices a tear added: at their own particle, with their source's normal.
	for (int32 v = NumSource; v < NumVertices; ++v)
	{
		const size_t k = (size_t)(v - NumSource);
		const sinew::Vec3 Local = SinewUE::ToMeshSpace(ToWorld.InverseTransformPosition(SinewUE::FromSim(Sub->GetFrame(), TornPositions[k])));
		Vertices[v] = SinewUE::FromMeshSpace(Local);
		Normals[v] = SinewUE::FromMeshSpace(ParticleNormals[Layout.render_to_particle[Torn.source[k]]]);
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

bool USinewClothComponent::SetTearThreshold(float NewThreshold)
{
	TearThreshold = FMath::Max(NewThreshold, 0.0f);
	USinewWorldSubsystem* Sub = Subsystem.Get();
	sinew::Scene* Scene = Sub ? Sub->GetScene() : nullptr;
	if (!Scene || Body == 0)
	{
		return true; // applied at BeginPlay
	}
	const sinew::Result<void> Set = Scene->set_tear_threshold(Body, TearThreshold, (uint32_t)FMath::Max(TearReserve, 0)); // in place
	if (!Set)
	{
		UE_LOG(LogSinew, Warning, TEXT("%s: %s"), *GetPathName(), UTF8_TO_TCHAR(Set.error().message.c_str()));
	}
	return (bool)Set;
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

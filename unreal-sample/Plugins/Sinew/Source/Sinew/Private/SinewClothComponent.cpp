#include "SinewClothComponent.h"

#include "Engine/StaticMesh.h"
#include "Engine/World.h"
#include "KismetProceduralMeshLibrary.h"
#include "RenderingThread.h"
#include "SinewConversions.h"
#include "SinewEditorPreview.h"
#include "SinewMeshSceneProxy.h"
#include "SinewModule.h"

#include <algorithm>

USinewClothComponent::USinewClothComponent(const FObjectInitializer& ObjectInitializer)
	: Super(ObjectInitializer)
{
	PrimaryComponentTick.bCanEverTick = false; // stepped by USinewWorldSubsystem
	bTickInEditor = false;                     // the editor preview is stepped by the editor world's subsystem
	SetCollisionEnabled(ECollisionEnabled::NoCollision);
	CastShadow = true;
}

void USinewClothComponent::BeginPlay()
{
	Super::BeginPlay();
	USinewWorldSubsystem* Sub = GetWorld() ? GetWorld()->GetSubsystem<USinewWorldSubsystem>() : nullptr;
	if (!Sub || !Sub->GetScene())
	{
		UE_LOG(LogSinew, Warning, TEXT("%s: no Sinew simulation in this world"), *GetPathName());
		return;
	}
	JoinSimulation(*Sub);
}

void USinewClothComponent::OnRegister()
{
	Super::OnRegister();
	// The editor preview: an editor world never begins play, so the cloth joins here.
	if (bPreviewInEditor && Body == 0 && SinewPreview::IsEditorWorld(GetWorld()))
	{
		if (USinewWorldSubsystem* Sub = GetWorld()->GetSubsystem<USinewWorldSubsystem>(); Sub && Sub->GetScene())
		{
			JoinSimulation(*Sub);
		}
	}
}

void USinewClothComponent::OnUnregister()
{
	if (SinewPreview::IsEditorWorld(GetWorld()))
	{
		LeaveSimulation();
	}
	Super::OnUnregister();
}

void USinewClothComponent::JoinSimulation(USinewWorldSubsystem& Sub)
{
	sinew::Scene* Scene = Sub.GetScene();
	if (!Scene || Body != 0)
	{
		return;
	}
	if (!SourceMesh)
	{
		UE_LOG(LogSinew, Warning, TEXT("%s: no SourceMesh"), *GetPathName());
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

	const sinew::units::Frame& Frame = Sub.GetFrame();
	const FTransform& ToWorld = GetComponentTransform();
	// Mass is clamped to the declared total mass range (its generated ClampMin/ClampMax); the
	// library checks the inverse masses and refuses, with its message, what lies outside.
	const float W = (float)N / Mass;
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
	// BEGIN GENERATED ClothDesc copy
	Desc.stretch_compliance = StretchCompliance;
	Desc.tethers = bTethers ? 1u : 0u;
	Desc.damping = Damping;
	// END GENERATED ClothDesc copy
	Desc.with_model(sinew::ClothModel::Edges)
		.with_bending(bBending ? sinew::BendingModel::Distance : sinew::BendingModel::None, SinewUE::Compliance(BendCompliance));
	const sinew::Result<sinew::BodyId> Added = Scene->add_cloth_mesh(Desc, sinew::Span<const sinew::Vec3>(Positions), sinew::Span<const uint32_t>(Layout.triangles), sinew::Span<const float>(InverseMasses), SinewUE::LengthToSim(FMath::Max(CollisionRadius, 0.0f)), sinew::Span<const float>(FreeInverseMasses));
	if (!Added)
	{
		UE_LOG(LogSinew, Error, TEXT("%s: %s"), *GetPathName(), UTF8_TO_TCHAR(Added.error().message.c_str()));
		return;
	}
	SimPositions = Positions;
	Body = *Added;
	FirstParticle = Scene->first_particle(Body).value_or(0);
	TopologyVersion = 0;
	Torn = sinew::cloth::TornMesh();
	if (TearThreshold > 0.0f)
	{
		const sinew::Result<void> TearOn = Scene->set_tear_threshold(Body, TearThreshold, (uint32_t)FMath::Max(TearReserve, 0));
		if (!TearOn)
		{
			UE_LOG(LogSinew, Warning, TEXT("%s: %s"), *GetPathName(), UTF8_TO_TCHAR(TearOn.error().message.c_str()));
		}
	}
	Subsystem = &Sub;
	Sub.Register(this);

	// The render mesh keeps the source's vertices, UVs and triangles; positions follow
	// the particles, normals and tangents (from the UVs) are the library's, each frame.
	SourceUVs.assign((size_t)Vertices.Num(), sinew::tube::Uv{});
	for (int32 i = 0; i < Vertices.Num(); ++i)
	{
		if (UVs.IsValidIndex(i))
		{
			SourceUVs[(size_t)i] = sinew::tube::Uv{(float)UVs[i].X, (float)UVs[i].Y};
		}
	}
	sinew::Result<sinew::render::ClothSource> Source = sinew::render::cloth_source(Layout, FirstParticle, nullptr, sinew::Span<const sinew::tube::Uv>(SourceUVs), {}, 0);
	if (!Source)
	{
		UE_LOG(LogSinew, Error, TEXT("%s: %s"), *GetPathName(), UTF8_TO_TCHAR(Source.error().message.c_str()));
		return;
	}
	ClothSource = std::make_shared<const sinew::render::ClothSource>(std::move(Source).value());
	if (GetMaterial(0) == nullptr)
	{
		SetMaterial(0, SourceMesh->GetMaterial(SectionIndex));
	}
	UpdateRenderData();
}

void USinewClothComponent::EndPlay(const EEndPlayReason::Type EndPlayReason)
{
	LeaveSimulation();
	Super::EndPlay(EndPlayReason);
}

void USinewClothComponent::LeaveSimulation()
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
	LodState = FSinewLodState();
	GrabbedParticle = INDEX_NONE;
	Subsystem.Reset();
}

void USinewClothComponent::PreSinewStep(USinewWorldSubsystem& Sub)
{
	sinew::Scene* Scene = Sub.GetScene();
	if (!Scene || Body == 0)
	{
		return;
	}
	Sub.ApplyLod(Body, Lod, *this, LodState);
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
	// A tear: the library split vertices; the render topology is made again (the render
	// thread then writes its index buffer once).
	if (const sinew::Result<uint64_t> Version = Scene->topology_version(Body); Version && *Version != TopologyVersion)
	{
		TopologyVersion = *Version;
		RebuildTornMesh(*Scene);
	}
	UpdateRenderData();
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
	sinew::Result<sinew::render::ClothSource> Source = sinew::render::cloth_source(Layout, FirstParticle, &Torn, sinew::Span<const sinew::tube::Uv>(SourceUVs), {}, TopologyVersion);
	if (!Source)
	{
		UE_LOG(LogSinew, Warning, TEXT("%s: %s"), *GetPathName(), UTF8_TO_TCHAR(Source.error().message.c_str()));
		return;
	}
	ClothSource = std::make_shared<const sinew::render::ClothSource>(std::move(Source).value());
}

void USinewClothComponent::UpdateRenderData()
{
	USinewWorldSubsystem* Sub = Subsystem.Get();
	sinew::Scene* Scene = Sub ? Sub->GetScene() : nullptr;
	if (!Scene || Body == 0 || !ClothSource)
	{
		return;
	}
	// The library's interpolated reads go straight into the array the render thread
	// receives: the body's particles in one call (sinew_body_read_interpolated_positions),
	// then the span of spare particles a tear moved vertices to (splits take the reserve's
	// particles in order, so they lie together) in one more; the subsystem's interpolation
	// alpha (the accumulator's leftover over the fixed step) draws the state between the
	// last two steps.
	const float Alpha = Sub->GetInterpolationAlpha();
	std::shared_ptr<FSinewClothRenderData> Data = std::make_shared<FSinewClothRenderData>();
	Data->Source = ClothSource;
	Data->SimPositions.resize(ClothSource->key_count);
	const size_t N = Layout.particles.size();
	bool bRead = N <= Data->SimPositions.size() && (bool)Scene->read_interpolated_positions(Body, Alpha, sinew::Span<sinew::Vec3>(Data->SimPositions.data(), N));
	const std::vector<uint32_t>& Extra = ClothSource->extra_particles;
	if (bRead && !Extra.empty())
	{
		const auto Span = std::minmax_element(Extra.begin(), Extra.end());
		const uint32_t First = *Span.first;
		SpareSpan.resize((size_t)(*Span.second - First) + 1);
		bRead = (bool)Scene->world().read_interpolated_positions(First, Alpha, sinew::Span<sinew::Vec3>(SpareSpan.data(), SpareSpan.size()));
		for (size_t k = 0; bRead && k < Extra.size(); ++k)
		{
			Data->SimPositions[N + k] = SpareSpan[Extra[k] - First];
		}
	}
	if (!bRead)
	{
		UE_LOG(LogSinew, Warning, TEXT("%s: cannot read the cloth for rendering"), *GetPathName());
		return;
	}
	Data->SimToLocal = SinewUE::SimToLocal(Sub->GetFrame(), GetComponentTransform());
	RenderBox = sinew::render::bounds(sinew::Span<const sinew::Vec3>(Data->SimPositions), SinewUE::LengthToSim(FMath::Max(CollisionRadius, 0.0f)));
	RenderData = std::move(Data);
	UpdateBounds();
	MarkRenderTransformDirty();
	MarkRenderDynamicDataDirty();
}

FPrimitiveSceneProxy* USinewClothComponent::CreateSceneProxy()
{
	return new FSinewMeshSceneProxy(this, bOutputMotionVectors);
}

void USinewClothComponent::CreateRenderState_Concurrent(FRegisterComponentContext* Context)
{
	Super::CreateRenderState_Concurrent(Context);
	SendRenderDynamicData_Concurrent(); // a new proxy gets the last frame at once
}

void USinewClothComponent::SendRenderDynamicData_Concurrent()
{
	Super::SendRenderDynamicData_Concurrent();
	if (!SceneProxy || !RenderData)
	{
		return;
	}
	FSinewMeshSceneProxy* Proxy = static_cast<FSinewMeshSceneProxy*>(SceneProxy);
	std::shared_ptr<const FSinewClothRenderData> Data = RenderData;
	ENQUEUE_RENDER_COMMAND(FSinewSendClothRenderData)(
		[Proxy, Data](FRHICommandListImmediate& RHICmdList)
		{
			Proxy->SetClothData_RenderThread(RHICmdList, Data);
		});
}

FBoxSphereBounds USinewClothComponent::CalcBounds(const FTransform& LocalToWorld) const
{
	const USinewWorldSubsystem* Sub = Subsystem.Get();
	if (!Sub || !RenderBox.valid)
	{
		// Not simulating: the source mesh's bounds where it would start.
		return SourceMesh ? SourceMesh->GetBounds().TransformBy(LocalToWorld) : FBoxSphereBounds(FBox(LocalToWorld.GetLocation(), LocalToWorld.GetLocation()));
	}
	// The simulation frame is a translation and a positive scale: corners map to corners.
	return FBoxSphereBounds(FBox(SinewUE::FromSim(Sub->GetFrame(), RenderBox.min), SinewUE::FromSim(Sub->GetFrame(), RenderBox.max)));
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

bool USinewClothComponent::IsAsleep() const
{
	USinewWorldSubsystem* Sub = Subsystem.Get();
	sinew::Scene* Scene = Sub ? Sub->GetScene() : nullptr;
	if (!Scene || Body == 0)
	{
		return false;
	}
	const sinew::Result<bool> Asleep = Scene->is_asleep(Body);
	return Asleep && *Asleep;
}

void USinewClothComponent::Wake()
{
	USinewWorldSubsystem* Sub = Subsystem.Get();
	sinew::Scene* Scene = Sub ? Sub->GetScene() : nullptr;
	if (Scene && Body != 0)
	{
		(void)Scene->wake(Body);
	}
}

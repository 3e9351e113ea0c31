#include "SinewSoftBodyComponent.h"

#include "Engine/StaticMesh.h"
#include "Engine/World.h"
#include "KismetProceduralMeshLibrary.h"
#include "RenderingThread.h"
#include "SinewConversions.h"
#include "SinewEditorPreview.h"
#include "SinewMeshSceneProxy.h"
#include "SinewModule.h"

#include <limits>
#include <set>

USinewSoftBodyComponent::USinewSoftBodyComponent(const FObjectInitializer& ObjectInitializer)
	: Super(ObjectInitializer)
{
	PrimaryComponentTick.bCanEverTick = false; // stepped by USinewWorldSubsystem
	bTickInEditor = false;                     // the editor preview is stepped by the editor world's subsystem
	SetCollisionEnabled(ECollisionEnabled::NoCollision);
	CastShadow = true;
}

void USinewSoftBodyComponent::BeginPlay()
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

void USinewSoftBodyComponent::OnRegister()
{
	Super::OnRegister();
	// The editor preview: an editor world never begins play, so the body joins here.
	if (bPreviewInEditor && Body == 0 && SinewPreview::IsEditorWorld(GetWorld()))
	{
		if (USinewWorldSubsystem* Sub = GetWorld()->GetSubsystem<USinewWorldSubsystem>(); Sub && Sub->GetScene())
		{
			JoinSimulation(*Sub);
		}
	}
}

void USinewSoftBodyComponent::OnUnregister()
{
	if (SinewPreview::IsEditorWorld(GetWorld()))
	{
		LeaveSimulation();
	}
	Super::OnUnregister();
}

void USinewSoftBodyComponent::JoinSimulation(USinewWorldSubsystem& Sub)
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

	// The render mesh welded at its seams (mesh space, cm): its welded vertices are the
	// keys the render mesh is drawn from.
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
	sinew::Result<sinew::cloth::Layout> Welded = sinew::cloth::weld(sinew::Span<const sinew::Vec3>(LocalVertices), sinew::Span<const uint32_t>(Indices), FMath::Max(WeldDistance, 0.0f));
	if (!Welded)
	{
		UE_LOG(LogSinew, Error, TEXT("%s: %s"), *GetPathName(), UTF8_TO_TCHAR(Welded.error().message.c_str()));
		return;
	}
	Layout = std::move(Welded).value();

	// The keys in simulation space (m).
	const sinew::units::Frame& Frame = Sub.GetFrame();
	const FTransform& ToWorld = GetComponentTransform();
	std::vector<sinew::Vec3> Keys(Layout.particles.size());
	for (size_t i = 0; i < Keys.size(); ++i)
	{
		Keys[i] = SinewUE::ToSim(Frame, ToWorld.TransformPosition(SinewUE::FromMeshSpace(Layout.particles[i])));
	}

	// The surface the library builds from, wound outward as it wants it (Unreal's own
	// winding is clockwise seen from outside); the render mesh keeps the source's.
	std::vector<uint32_t> Surface = Layout.triangles;
	SinewUE::WindOutward(Keys, Surface);

	const float Radius = FMath::Clamp(SinewUE::LengthToSim(FMath::Max(CollisionRadius, 0.0f)), 0.0f, (float)SINEW_MAX_LENGTH);
	BuiltMode = Mode;
	sinew::Result<sinew::BodyId> Added = sinew::Error{sinew::Status::Internal, "not built"};
	if (Mode == ESinewSoftBodyMode::Pressure)
	{
		// The library checks the closed surface and refuses, naming the edge, an open one.
		sinew::PressureBodyDesc Desc;
		Desc.total_mass = Mass;
		Desc.stretch_compliance = SinewUE::Compliance(StretchCompliance);
		Desc.volume_compliance = VolumeCompliance;
		Desc.pressure = Pressure;
		Desc.damping = Damping;
		Added = Scene->add_pressure_body(Desc, sinew::Span<const sinew::Vec3>(Keys), sinew::Span<const uint32_t>(Surface), Radius);
		Tets = sinew::soft::TetMesh();
		Embedding = sinew::soft::Embedding();
	}
	else
	{
		const uint32_t Cells = (uint32_t)FMath::Clamp(Resolution, 1, (int32)SINEW_MAX_TET_RESOLUTION);
		sinew::Result<sinew::soft::TetMesh> Cut = sinew::soft::tetrahedralize(sinew::Span<const sinew::Vec3>(Keys), sinew::Span<const uint32_t>(Surface), Cells);
		if (!Cut)
		{
			UE_LOG(LogSinew, Error, TEXT("%s: %s"), *GetPathName(), UTF8_TO_TCHAR(Cut.error().message.c_str()));
			return;
		}
		Tets = std::move(Cut).value();
		sinew::Result<sinew::soft::Embedding> Embedded = sinew::soft::embed(sinew::Span<const sinew::Vec3>(Tets.vertices), sinew::Span<const uint32_t>(Tets.tets), sinew::Span<const sinew::Vec3>(Keys));
		if (!Embedded)
		{
			UE_LOG(LogSinew, Error, TEXT("%s: %s"), *GetPathName(), UTF8_TO_TCHAR(Embedded.error().message.c_str()));
			return;
		}
		Embedding = std::move(Embedded).value();
		sinew::TetBodyDesc Desc;
		Desc.total_mass = Mass;
		Desc.stretch_compliance = SinewUE::Compliance(StretchCompliance);
		Desc.volume_compliance = VolumeCompliance;
		Desc.damping = Damping;
		Added = Scene->add_tet_body(Desc, sinew::Span<const sinew::Vec3>(Tets.vertices), sinew::Span<const uint32_t>(Tets.tets), Radius);
	}
	if (!Added)
	{
		UE_LOG(LogSinew, Error, TEXT("%s: %s"), *GetPathName(), UTF8_TO_TCHAR(Added.error().message.c_str()));
		return;
	}
	Body = *Added;
	SimPositions.assign(Mode == ESinewSoftBodyMode::Pressure ? Keys.size() : Tets.vertices.size(), sinew::Vec3{0.0f, 0.0f, 0.0f});
	ClusterCount = 0;
	if (Mode == ESinewSoftBodyMode::ShapeMatching && !AddClusters(*Scene))
	{
		// The clusters added so far stay (a tet body with fewer clusters); logged above.
		UE_LOG(LogSinew, Warning, TEXT("%s: %u shape clusters of %u"), *GetPathName(), ClusterCount, (uint32)Tets.vertices.size());
	}
	Subsystem = &Sub;
	Sub.Register(this);

	// The render mesh keeps the source's vertices, UVs and triangles; positions follow
	// the keys, normals and tangents (from the UVs) are the library's, each frame.
	SourceUVs.assign((size_t)Vertices.Num(), sinew::tube::Uv{});
	for (int32 i = 0; i < Vertices.Num(); ++i)
	{
		if (UVs.IsValidIndex(i))
		{
			SourceUVs[(size_t)i] = sinew::tube::Uv{(float)UVs[i].X, (float)UVs[i].Y};
		}
	}
	sinew::Result<sinew::render::ClothSource> Source = sinew::render::cloth_source(Layout, 0, nullptr, sinew::Span<const sinew::tube::Uv>(SourceUVs), {}, 0);
	if (!Source)
	{
		UE_LOG(LogSinew, Error, TEXT("%s: %s"), *GetPathName(), UTF8_TO_TCHAR(Source.error().message.c_str()));
		return;
	}
	RenderSource = std::make_shared<const sinew::render::ClothSource>(std::move(Source).value());
	if (GetMaterial(0) == nullptr)
	{
		SetMaterial(0, SourceMesh->GetMaterial(SectionIndex));
	}
	UpdateRenderData();
}

bool USinewSoftBodyComponent::AddClusters(sinew::Scene& Scene)
{
	const sinew::Result<uint32_t> First = Scene.first_particle(Body);
	if (!First)
	{
		return false;
	}
	// One cluster per tet vertex: it and every vertex sharing a tet with it (world indices).
	std::vector<std::set<uint32_t>> Ring(Tets.vertices.size());
	for (size_t j = 0; j + 3 < Tets.tets.size(); j += 4)
	{
		for (size_t a = 0; a < 4; ++a)
		{
			for (size_t b = 0; b < 4; ++b)
			{
				Ring[Tets.tets[j + a]].insert(Tets.tets[j + b]);
			}
		}
	}
	const float Yield = bPlastic ? FMath::Clamp(SinewUE::LengthToSim(FMath::Max(YieldDistance, 0.0f)), 0.0f, (float)SINEW_MAX_LENGTH) : std::numeric_limits<float>::infinity();
	const float CreepRate = bPlastic ? FMath::Clamp(Creep, 0.0f, 1.0f) : 0.0f;
	std::vector<uint32_t> Members;
	for (size_t i = 0; i < Ring.size(); ++i)
	{
		Members.assign(Ring[i].begin(), Ring[i].end());
		for (uint32_t& M : Members)
		{
			M += *First;
		}
		const sinew::Result<uint32_t> Id = Scene.world().add_shape_cluster(sinew::Span<const uint32_t>(Members), FMath::Clamp(ShapeStiffness, 0.0f, 1.0f), Yield, CreepRate);
		if (!Id)
		{
			UE_LOG(LogSinew, Error, TEXT("%s: %s"), *GetPathName(), UTF8_TO_TCHAR(Id.error().message.c_str()));
			return false;
		}
		if (i == 0)
		{
			FirstCluster = *Id;
		}
		ClusterCount = (uint32)(i + 1);
	}
	return true;
}

void USinewSoftBodyComponent::EndPlay(const EEndPlayReason::Type EndPlayReason)
{
	LeaveSimulation();
	Super::EndPlay(EndPlayReason);
}

void USinewSoftBodyComponent::LeaveSimulation()
{
	if (USinewWorldSubsystem* Sub = Subsystem.Get())
	{
		Sub->Unregister(this);
		if (sinew::Scene* Scene = Sub->GetScene(); Scene && Body != 0)
		{
			if (ClusterCount > 0)
			{
				(void)Scene->world().remove_constraints(sinew::Family::ShapeCluster, FirstCluster, ClusterCount);
			}
			(void)Scene->remove_body(Body); // the library's removal: other bodies are untouched
		}
	}
	Body = 0;
	ClusterCount = 0;
	Subsystem.Reset();
}

sinew::Scene* USinewSoftBodyComponent::LiveScene() const
{
	USinewWorldSubsystem* Sub = Subsystem.Get();
	sinew::Scene* Scene = Sub ? Sub->GetScene() : nullptr;
	return Body != 0 ? Scene : nullptr;
}

void USinewSoftBodyComponent::PreSinewStep(USinewWorldSubsystem& Sub)
{
	// Nothing drives the body before a step: it moves under gravity, contacts and grabs.
}

void USinewSoftBodyComponent::PostSinewStep(USinewWorldSubsystem& Sub)
{
	UpdateRenderData();
}

void USinewSoftBodyComponent::UpdateRenderData()
{
	USinewWorldSubsystem* Sub = Subsystem.Get();
	sinew::Scene* Scene = LiveScene();
	if (!Scene || !Sub || !RenderSource)
	{
		return;
	}
	// The particles between the last two steps (the subsystem's interpolation alpha) in one
	// library call; a pressure body's particles are the keys, a tet body's keys ride on its
	// tets (barycentric weights from the library).
	std::shared_ptr<FSinewClothRenderData> Data = std::make_shared<FSinewClothRenderData>();
	Data->Source = RenderSource;
	Data->SimPositions.resize(RenderSource->key_count);
	bool bRead = (bool)Scene->read_interpolated_positions(Body, Sub->GetInterpolationAlpha(), sinew::Span<sinew::Vec3>(SimPositions));
	if (bRead && BuiltMode == ESinewSoftBodyMode::Pressure)
	{
		bRead = SimPositions.size() == Data->SimPositions.size();
		if (bRead)
		{
			Data->SimPositions = SimPositions;
		}
	}
	else if (bRead)
	{
		bRead = (bool)Embedding.apply(sinew::Span<const sinew::Vec3>(SimPositions), sinew::Span<sinew::Vec3>(Data->SimPositions));
	}
	if (!bRead)
	{
		UE_LOG(LogSinew, Warning, TEXT("%s: cannot read the soft body for rendering"), *GetPathName());
		return;
	}
	Data->SimToLocal = SinewUE::SimToLocal(Sub->GetFrame(), GetComponentTransform());
	RenderBox = sinew::render::bounds(sinew::Span<const sinew::Vec3>(Data->SimPositions), SinewUE::LengthToSim(FMath::Max(CollisionRadius, 0.0f)));
	RenderData = std::move(Data);
	UpdateBounds();
	MarkRenderTransformDirty();
	MarkRenderDynamicDataDirty();
}

FPrimitiveSceneProxy* USinewSoftBodyComponent::CreateSceneProxy()
{
	return new FSinewMeshSceneProxy(this, bOutputMotionVectors);
}

void USinewSoftBodyComponent::CreateRenderState_Concurrent(FRegisterComponentContext* Context)
{
	Super::CreateRenderState_Concurrent(Context);
	SendRenderDynamicData_Concurrent(); // a new proxy gets the last frame at once
}

void USinewSoftBodyComponent::SendRenderDynamicData_Concurrent()
{
	Super::SendRenderDynamicData_Concurrent();
	if (!SceneProxy || !RenderData)
	{
		return;
	}
	FSinewMeshSceneProxy* Proxy = static_cast<FSinewMeshSceneProxy*>(SceneProxy);
	std::shared_ptr<const FSinewClothRenderData> Data = RenderData;
	ENQUEUE_RENDER_COMMAND(FSinewSendSoftBodyRenderData)(
		[Proxy, Data](FRHICommandListImmediate& RHICmdList)
		{
			Proxy->SetClothData_RenderThread(RHICmdList, Data);
		});
}

FBoxSphereBounds USinewSoftBodyComponent::CalcBounds(const FTransform& LocalToWorld) const
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

void USinewSoftBodyComponent::SetMass(float NewMass)
{
	Mass = NewMass;
	if (sinew::Scene* Scene = LiveScene())
	{
		const sinew::Result<void> Set = Scene->set_mass(Body, Mass); // in place; the library refuses a bad mass
		if (!Set)
		{
			UE_LOG(LogSinew, Warning, TEXT("%s: %s"), *GetPathName(), UTF8_TO_TCHAR(Set.error().message.c_str()));
		}
	}
}

void USinewSoftBodyComponent::SetStretchCompliance(float NewCompliance)
{
	StretchCompliance = FMath::Clamp(NewCompliance, 0.0f, (float)SINEW_MAX_BODY_COMPLIANCE);
	if (sinew::Scene* Scene = LiveScene())
	{
		(void)Scene->set_compliance(Body, sinew::BodyConstraints::Stretch, SinewUE::Compliance(StretchCompliance)); // in place
	}
}

void USinewSoftBodyComponent::SetVolumeCompliance(float NewCompliance)
{
	VolumeCompliance = FMath::Clamp(NewCompliance, 0.0f, (float)SINEW_MAX_BODY_COMPLIANCE);
	if (sinew::Scene* Scene = LiveScene())
	{
		(void)Scene->set_compliance(Body, sinew::BodyConstraints::Volume, VolumeCompliance); // in place
	}
}

void USinewSoftBodyComponent::SetPressure(float NewPressure)
{
	Pressure = FMath::Min(NewPressure, (float)SINEW_MAX_PRESSURE);
	sinew::Scene* Scene = LiveScene();
	if (Scene && BuiltMode == ESinewSoftBodyMode::Pressure)
	{
		const sinew::Result<void> Set = Scene->set_pressure(Body, Pressure); // in place; the library refuses a pressure <= 0
		if (!Set)
		{
			UE_LOG(LogSinew, Warning, TEXT("%s: %s"), *GetPathName(), UTF8_TO_TCHAR(Set.error().message.c_str()));
		}
	}
}

void USinewSoftBodyComponent::SetShapeStiffness(float NewStiffness)
{
	ShapeStiffness = FMath::Clamp(NewStiffness, 0.0f, 1.0f);
	if (sinew::Scene* Scene = LiveScene())
	{
		for (uint32 k = 0; k < ClusterCount; ++k)
		{
			(void)Scene->world().set_shape_cluster_stiffness(FirstCluster + k, ShapeStiffness); // in place
		}
	}
}

void USinewSoftBodyComponent::SetDamping(float NewDamping)
{
	Damping = FMath::Clamp(NewDamping, 0.0f, (float)SINEW_MAX_ACCELERATION);
	if (sinew::Scene* Scene = LiveScene())
	{
		(void)Scene->set_damping(Body, Damping); // in place
	}
}

float USinewSoftBodyComponent::GetVolume() const
{
	sinew::Scene* Scene = LiveScene();
	if (!Scene)
	{
		return 0.0f;
	}
	const sinew::Result<float> Volume = Scene->volume(Body); // m³
	const double Cm = SinewUE::LengthFromSim(1.0f);          // cm per m
	return Volume ? (float)((double)*Volume * Cm * Cm * Cm) : 0.0f;
}

#if WITH_EDITOR
void USinewSoftBodyComponent::PostEditChangeProperty(FPropertyChangedEvent& PropertyChangedEvent)
{
	Super::PostEditChangeProperty(PropertyChangedEvent);
	const FName Name = PropertyChangedEvent.GetPropertyName();
	if (Name == GET_MEMBER_NAME_CHECKED(USinewSoftBodyComponent, Mass))
	{
		SetMass(Mass);
	}
	else if (Name == GET_MEMBER_NAME_CHECKED(USinewSoftBodyComponent, StretchCompliance))
	{
		SetStretchCompliance(StretchCompliance);
	}
	else if (Name == GET_MEMBER_NAME_CHECKED(USinewSoftBodyComponent, VolumeCompliance))
	{
		SetVolumeCompliance(VolumeCompliance);
	}
	else if (Name == GET_MEMBER_NAME_CHECKED(USinewSoftBodyComponent, Pressure))
	{
		SetPressure(Pressure);
	}
	else if (Name == GET_MEMBER_NAME_CHECKED(USinewSoftBodyComponent, ShapeStiffness))
	{
		SetShapeStiffness(ShapeStiffness);
	}
	else if (Name == GET_MEMBER_NAME_CHECKED(USinewSoftBodyComponent, Damping))
	{
		SetDamping(Damping);
	}
}
#endif

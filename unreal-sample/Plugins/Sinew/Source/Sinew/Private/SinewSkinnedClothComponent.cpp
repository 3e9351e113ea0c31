#include "SinewSkinnedClothComponent.h"

#include "Components/SkeletalMeshComponent.h"
#include "Engine/World.h"
#include "GameFramework/Actor.h"
#include "Rendering/SkeletalMeshLODRenderData.h"
#include "Rendering/SkeletalMeshRenderData.h"
#include "SceneInterface.h"
#include "SkeletalRenderPublic.h"
#include "RenderingThread.h"
#include "SinewConversions.h"
#include "SinewMeshSceneProxy.h"
#include "SinewModule.h"

namespace
{
/** The weight a colour channel paints (0..1); None paints 1. */
float Channel(const FColor& C, ESinewColorChannel Which)
{
	switch (Which)
	{
	case ESinewColorChannel::Red: return C.R / 255.0f;
	case ESinewColorChannel::Green: return C.G / 255.0f;
	case ESinewColorChannel::Blue: return C.B / 255.0f;
	case ESinewColorChannel::Alpha: return C.A / 255.0f;
	default: return 1.0f;
	}
}

/** A world transform as the simulation's root transform (m; rotations are not rescaled). */
sinew::Transform RootToSim(const sinew::units::Frame& Frame, const FTransform& T)
{
	const FQuat Q = T.GetRotation();
	sinew::Transform Out{};
	Out.position = SinewUE::ToSim(Frame, T.GetLocation());
	Out.rotation = SinewQuat{(float)Q.X, (float)Q.Y, (float)Q.Z, (float)Q.W};
	return Out;
}
} // namespace

USinewSkinnedClothComponent::USinewSkinnedClothComponent(const FObjectInitializer& ObjectInitializer)
	: Super(ObjectInitializer)
{
	PrimaryComponentTick.bCanEverTick = false; // stepped by USinewWorldSubsystem
	SetCollisionEnabled(ECollisionEnabled::NoCollision);
}

USkeletalMeshComponent* USinewSkinnedClothComponent::FindSkeletalMesh() const
{
	AActor* Owner = GetOwner();
	if (Owner && !SkeletalMeshComponentName.IsNone())
	{
		TArray<USkeletalMeshComponent*> All;
		Owner->GetComponents<USkeletalMeshComponent>(All);
		for (USkeletalMeshComponent* C : All)
		{
			if (C && C->GetFName() == SkeletalMeshComponentName)
			{
				return C;
			}
		}
		return nullptr;
	}
	if (USkeletalMeshComponent* Parent = Cast<USkeletalMeshComponent>(GetAttachParent()))
	{
		return Parent;
	}
	return Owner ? Owner->FindComponentByClass<USkeletalMeshComponent>() : nullptr;
}

void USinewSkinnedClothComponent::BeginPlay()
{
	Super::BeginPlay();
	USinewWorldSubsystem* Sub = GetWorld() ? GetWorld()->GetSubsystem<USinewWorldSubsystem>() : nullptr;
	sinew::Scene* Scene = Sub ? Sub->GetScene() : nullptr;
	USkeletalMeshComponent* Sk = FindSkeletalMesh();
	FSkeletalMeshRenderData* RenderData = Sk ? Sk->GetSkeletalMeshRenderData() : nullptr;
	if (!Scene || !Sk || !RenderData || !RenderData->LODRenderData.IsValidIndex(LODIndex))
	{
		UE_LOG(LogSinew, Warning, TEXT("%s: %s"), *GetPathName(), !Sk ? TEXT("no skeletal mesh component to follow") : TEXT("no Sinew simulation or no render data for the LOD"));
		return;
	}
	const FSkeletalMeshLODRenderData& LOD = RenderData->LODRenderData[LODIndex];
	if (!LOD.RenderSections.IsValidIndex(SectionIndex))
	{
		UE_LOG(LogSinew, Error, TEXT("%s: LOD %d has no section %d"), *GetPathName(), LODIndex, SectionIndex);
		return;
	}
	const FSkelMeshRenderSection& Section = LOD.RenderSections[SectionIndex];
	BaseVertex = (int32)Section.BaseVertexIndex;
	NumSectionVertices = (int32)Section.NumVertices;
	TArray<uint32> AllIndices;
	LOD.MultiSizeIndexContainer.GetIndexBuffer(AllIndices);
	std::vector<uint32_t> Indices;
	Indices.reserve((size_t)Section.NumTriangles * 3);
	for (uint32 k = 0; k < Section.NumTriangles * 3; ++k)
	{
		const int64 At = (int64)Section.BaseIndex + k;
		if (!AllIndices.IsValidIndex((int32)At))
		{
			break;
		}
		Indices.push_back((uint32_t)FMath::Max((int64)AllIndices[(int32)At] - BaseVertex, (int64)0));
	}
	Skeletal = Sk;

	// The skinned pose now, in the skeletal component's space (cm), welded at UV seams.
	TArray<FFinalSkinVertex> Skinned;
	Sk->GetCPUSkinnedVertices(Skinned, LODIndex);
	if (Skinned.Num() < BaseVertex + NumSectionVertices || Indices.empty())
	{
		UE_LOG(LogSinew, Error, TEXT("%s: cannot read the skinned vertices of section %d"), *GetPathName(), SectionIndex);
		return;
	}
	std::vector<sinew::Vec3> LocalVertices((size_t)NumSectionVertices);
	for (int32 v = 0; v < NumSectionVertices; ++v)
	{
		LocalVertices[(size_t)v] = SinewUE::ToMeshSpace(FVector(Skinned[BaseVertex + v].Position));
	}
	sinew::Result<sinew::cloth::Layout> Built = sinew::cloth::weld(sinew::Span<const sinew::Vec3>(LocalVertices), sinew::Span<const uint32_t>(Indices), WeldDistance);
	if (!Built)
	{
		UE_LOG(LogSinew, Error, TEXT("%s: %s"), *GetPathName(), UTF8_TO_TCHAR(Built.error().message.c_str()));
		return;
	}
	Layout = std::move(Built).value();
	const size_t N = Layout.particles.size();
	VertexOfParticle.assign(N, 0);
	for (int32 v = NumSectionVertices - 1; v >= 0; --v)
	{
		VertexOfParticle[Layout.render_to_particle[(size_t)v]] = v;
	}

	// Particles at their skinned positions; the library builds edges and bending.
	const sinew::units::Frame& Frame = Sub->GetFrame();
	const FTransform& SkToWorld = Sk->GetComponentTransform();
	std::vector<sinew::Vec3> Positions(N);
	for (size_t i = 0; i < N; ++i)
	{
		Positions[i] = SinewUE::ToSim(Frame, SkToWorld.TransformPosition(SinewUE::FromMeshSpace(Layout.particles[i])));
	}
	// Mass is clamped to the declared total mass range (its generated ClampMin/ClampMax); the
	// library checks the inverse masses and refuses, with its message, what lies outside.
	const std::vector<float> InverseMasses(N, (float)N / Mass);
	sinew::ClothDesc Desc;
	Desc.with_model(sinew::ClothModel::Edges)
		.with_bending(sinew::BendingModel::Distance, SinewUE::Compliance(BendCompliance))
		.with_tethers(false)
		.with_damping(FMath::Max(Damping, 0.0f));
	Desc.stretch_compliance = SinewUE::Compliance(StretchCompliance);
	const sinew::Result<sinew::BodyId> Added = Scene->add_cloth_mesh(Desc, sinew::Span<const sinew::Vec3>(Positions), sinew::Span<const uint32_t>(Layout.triangles), sinew::Span<const float>(InverseMasses), 0.0f);
	if (!Added)
	{
		UE_LOG(LogSinew, Error, TEXT("%s: %s"), *GetPathName(), UTF8_TO_TCHAR(Added.error().message.c_str()));
		return;
	}
	Body = *Added;

	// Per-vertex weights from the colour channels (cm -> m through SinewConversions.h).
	const FColorVertexBuffer& Colors = LOD.StaticVertexBuffers.ColorVertexBuffer;
	const bool bHasColors = Colors.GetNumVertices() >= (uint32)(BaseVertex + NumSectionVertices);
	std::vector<SinewSkinWeights> Weights(N);
	for (size_t i = 0; i < N; ++i)
	{
		const FColor C = bHasColors ? Colors.VertexColor((uint32)(BaseVertex + VertexOfParticle[i])) : FColor::White;
		SinewSkinWeights W = sinew::Body::no_skinning();
		W.max_distance = SinewUE::LengthToSim(MaxDistance * Channel(C, MaxDistanceChannel));
		W.backstop_radius = SinewUE::LengthToSim(BackstopRadius * Channel(C, BackstopChannel));
		W.backstop_distance = SinewUE::LengthToSim(BackstopDistance);
		const float DriveWeight = Channel(C, DriveChannel);
		if (DriveCompliance >= 0.0f && DriveWeight > 0.0f)
		{
			W.drive_compliance = SinewUE::Compliance(DriveCompliance) / DriveWeight;
		}
		Weights[i] = W;
	}
	if (auto R = Scene->set_skin_weights(Body, sinew::Span<const SinewSkinWeights>(Weights)); !R)
	{
		UE_LOG(LogSinew, Error, TEXT("%s: %s"), *GetPathName(), UTF8_TO_TCHAR(R.error().message.c_str()));
	}
	if (auto R = Scene->set_aerodynamics(Body, Drag, Lift); !R)
	{
		UE_LOG(LogSinew, Warning, TEXT("%s: %s"), *GetPathName(), UTF8_TO_TCHAR(R.error().message.c_str()));
	}
	SimPositions = Positions;
	Subsystem = Sub;
	Sub->Register(this);

	// The render mesh: the section's triangles over its vertices with its UVs (when the
	// LOD keeps them on the CPU), drawn by the scene proxy with the library's normals
	// and tangents.
	const FStaticMeshVertexBuffer& Attributes = LOD.StaticVertexBuffers.StaticMeshVertexBuffer;
	const bool bHasAttributes = Attributes.GetNumVertices() >= (uint32)(BaseVertex + NumSectionVertices);
	std::vector<sinew::tube::Uv> UVs((size_t)NumSectionVertices);
	for (int32 v = 0; bHasAttributes && v < NumSectionVertices; ++v)
	{
		const FVector2f UV = Attributes.GetVertexUV((uint32)(BaseVertex + v), 0);
		UVs[(size_t)v] = sinew::tube::Uv{UV.X, UV.Y};
	}
	sinew::Result<sinew::render::ClothSource> Source = sinew::render::cloth_source(Layout, Scene->first_particle(Body).value_or(0), nullptr, sinew::Span<const sinew::tube::Uv>(UVs), {}, 0);
	if (!Source)
	{
		UE_LOG(LogSinew, Error, TEXT("%s: %s"), *GetPathName(), UTF8_TO_TCHAR(Source.error().message.c_str()));
		return;
	}
	ClothSource = std::make_shared<const sinew::render::ClothSource>(std::move(Source).value());
	if (GetMaterial(0) == nullptr)
	{
		SetMaterial(0, Sk->GetMaterial(SectionIndex));
	}
	UpdateRenderData();
	// The skeletal mesh keeps skinning (the targets) but no longer draws the cloth section.
	Sk->ShowMaterialSection(Section.MaterialIndex, SectionIndex, false, LODIndex);
}

void USinewSkinnedClothComponent::EndPlay(const EEndPlayReason::Type EndPlayReason)
{
	if (USinewWorldSubsystem* Sub = Subsystem.Get())
	{
		Sub->Unregister(this);
		if (sinew::Scene* Scene = Sub->GetScene(); Scene && Body != 0)
		{
			(void)Scene->remove_body(Body);
		}
	}
	Body = 0;
	Subsystem.Reset();
	Skeletal.Reset();
	Super::EndPlay(EndPlayReason);
}

void USinewSkinnedClothComponent::Teleport()
{
	bTeleport = true;
}

bool USinewSkinnedClothComponent::ReadSkinned(std::vector<sinew::Vec3>& OutPositions, std::vector<sinew::Vec3>& OutNormals) const
{
	USkeletalMeshComponent* Sk = Skeletal.Get();
	USinewWorldSubsystem* Sub = Subsystem.Get();
	if (!Sk || !Sub)
	{
		return false;
	}
	TArray<FFinalSkinVertex> Skinned;
	Sk->GetCPUSkinnedVertices(Skinned, LODIndex);
	if (Skinned.Num() < BaseVertex + NumSectionVertices)
	{
		return false;
	}
	const FTransform& SkToWorld = Sk->GetComponentTransform();
	OutPositions.resize(VertexOfParticle.size());
	OutNormals.resize(VertexOfParticle.size());
	for (size_t i = 0; i < VertexOfParticle.size(); ++i)
	{
		const FFinalSkinVertex& V = Skinned[BaseVertex + VertexOfParticle[i]];
		OutPositions[i] = SinewUE::ToSim(Sub->GetFrame(), SkToWorld.TransformPosition(FVector(V.Position)));
		OutNormals[i] = SinewUE::Direction(SkToWorld.TransformVectorNoScale(FVector(V.TangentZ.ToFVector3f())));
	}
	return true;
}

void USinewSkinnedClothComponent::PreSinewStep(USinewWorldSubsystem& Sub)
{
	sinew::Scene* Scene = Sub.GetScene();
	USkeletalMeshComponent* Sk = Skeletal.Get();
	if (!Scene || Body == 0 || !Sk)
	{
		return;
	}
	if (!ReadSkinned(Targets, TargetNormals))
	{
		UE_LOG(LogSinew, Warning, TEXT("%s: cannot read the skinned vertices"), *GetPathName());
		return;
	}
	const FTransform Root = RootBone.IsNone() ? Sk->GetComponentTransform() : Sk->GetSocketTransform(RootBone);
	const sinew::Result<void> Written = Scene->set_skin_targets(Body, sinew::Span<const sinew::Vec3>(Targets), sinew::Span<const sinew::Vec3>(TargetNormals));
	const sinew::Result<void> Rooted = Written ? Scene->set_skin_root(Body, RootToSim(Sub.GetFrame(), Root), FMath::Clamp(LinearInertia, 0.0f, 1.0f), FMath::Clamp(AngularInertia, 0.0f, 1.0f)) : Written;
	if (!Rooted)
	{
		UE_LOG(LogSinew, Warning, TEXT("%s: %s"), *GetPathName(), UTF8_TO_TCHAR(Rooted.error().message.c_str()));
		return;
	}
	if (bTeleport)
	{
		(void)Scene->teleport_to_skin(Body);
		bTeleport = false;
	}
	if (bUseSceneWind && GetWorld() && GetWorld()->Scene)
	{
		// UE's wind directional sources, sampled at the root.
		FVector Direction = FVector::ZeroVector;
		float Speed = 0.0f, MinGust = 0.0f, MaxGust = 0.0f;
		GetWorld()->Scene->GetWindParameters_GameThread(Root.GetLocation(), Direction, Speed, MinGust, MaxGust);
		SinewWindDesc Air = sinew::World::wind_defaults();
		const sinew::Vec3 D = SinewUE::Direction(Direction);
		const float MetresPerSecond = FMath::Max(Speed, 0.0f) * WindSpeedScale;
		Air.velocity = sinew::Vec3{D.x * MetresPerSecond, D.y * MetresPerSecond, D.z * MetresPerSecond};
		Air.turbulence = FMath::Max(MaxGust, 0.0f) * WindSpeedScale;
		(void)Scene->set_wind(Air);
	}
}

void USinewSkinnedClothComponent::PostSinewStep(USinewWorldSubsystem& Sub)
{
	sinew::Scene* Scene = Sub.GetScene();
	if (!Scene || Body == 0)
	{
		return;
	}
	if (!Scene->read_positions(Body, SimPositions))
	{
		UE_LOG(LogSinew, Warning, TEXT("%s: cannot read the cloth back"), *GetPathName());
		return;
	}
	UpdateRenderData();
}

void USinewSkinnedClothComponent::UpdateRenderData()
{
	USinewWorldSubsystem* Sub = Subsystem.Get();
	sinew::Scene* Scene = Sub ? Sub->GetScene() : nullptr;
	if (!Scene || Body == 0 || !ClothSource)
	{
		return;
	}
	// One read of the library (sinew_body_read_interpolated_positions), straight into
	// the array the render thread receives, with the subsystem's interpolation alpha (the
	// accumulator's leftover over the fixed step): the state between the last two steps.
	std::shared_ptr<FSinewClothRenderData> Data = std::make_shared<FSinewClothRenderData>();
	Data->Source = ClothSource;
	Data->SimPositions.resize(ClothSource->key_count);
	if (!Scene->read_interpolated_positions(Body, Sub->GetInterpolationAlpha(), sinew::Span<sinew::Vec3>(Data->SimPositions)))
	{
		UE_LOG(LogSinew, Warning, TEXT("%s: cannot read the cloth for rendering"), *GetPathName());
		return;
	}
	Data->SimToLocal = SinewUE::SimToLocal(Sub->GetFrame(), GetComponentTransform());
	RenderBox = sinew::render::bounds(sinew::Span<const sinew::Vec3>(Data->SimPositions), 0.0f);
	RenderData = std::move(Data);
	UpdateBounds();
	MarkRenderTransformDirty();
	MarkRenderDynamicDataDirty();
}

FPrimitiveSceneProxy* USinewSkinnedClothComponent::CreateSceneProxy()
{
	return new FSinewMeshSceneProxy(this, bOutputMotionVectors);
}

void USinewSkinnedClothComponent::CreateRenderState_Concurrent(FRegisterComponentContext* Context)
{
	Super::CreateRenderState_Concurrent(Context);
	SendRenderDynamicData_Concurrent(); // a new proxy gets the last frame at once
}

void USinewSkinnedClothComponent::SendRenderDynamicData_Concurrent()
{
	Super::SendRenderDynamicData_Concurrent();
	if (!SceneProxy || !RenderData)
	{
		return;
	}
	FSinewMeshSceneProxy* Proxy = static_cast<FSinewMeshSceneProxy*>(SceneProxy);
	std::shared_ptr<const FSinewClothRenderData> Data = RenderData;
	ENQUEUE_RENDER_COMMAND(FSinewSendSkinnedClothRenderData)(
		[Proxy, Data](FRHICommandListImmediate& RHICmdList)
		{
			Proxy->SetClothData_RenderThread(RHICmdList, Data);
		});
}

FBoxSphereBounds USinewSkinnedClothComponent::CalcBounds(const FTransform& LocalToWorld) const
{
	const USinewWorldSubsystem* Sub = Subsystem.Get();
	if (!Sub || !RenderBox.valid)
	{
		return FBoxSphereBounds(FBox(LocalToWorld.GetLocation(), LocalToWorld.GetLocation()));
	}
	// The simulation frame is a translation and a positive scale: corners map to corners.
	return FBoxSphereBounds(FBox(SinewUE::FromSim(Sub->GetFrame(), RenderBox.min), SinewUE::FromSim(Sub->GetFrame(), RenderBox.max)));
}

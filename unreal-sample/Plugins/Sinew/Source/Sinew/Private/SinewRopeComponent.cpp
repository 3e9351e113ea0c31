#include "SinewRopeComponent.h"

#include "Engine/World.h"
#include "GameFramework/Actor.h"
#include "RenderingThread.h"
#include "SinewConversions.h"
#include "SinewEditorPreview.h"
#include "SinewMeshSceneProxy.h"
#include "SinewModule.h"

#include <limits>

THIRD_PARTY_INCLUDES_START
#include "sinew_rope.hpp"
THIRD_PARTY_INCLUDES_END

USinewRopeComponent::USinewRopeComponent(const FObjectInitializer& ObjectInitializer)
	: Super(ObjectInitializer)
{
	PrimaryComponentTick.bCanEverTick = false; // stepped by USinewWorldSubsystem
	bTickInEditor = false;                     // the editor preview is stepped by the editor world's subsystem
	SetCollisionEnabled(ECollisionEnabled::NoCollision);
	CastShadow = true;
}

FVector USinewRopeComponent::AttachmentLocation(bool bStart) const
{
	const FComponentReference& Ref = bStart ? AttachStartTo : AttachEndTo;
	const FName Socket = bStart ? AttachStartToSocketName : AttachEndToSocketName;
	const FVector& Offset = bStart ? StartLocation : EndLocation;
	const USceneComponent* Target = nullptr;
	if (!bStart && EndOverride.IsValid())
	{
		Target = EndOverride.Get();
	}
	else if (const UActorComponent* Found = Ref.GetComponent(GetOwner()))
	{
		Target = Cast<USceneComponent>(Found);
	}
	if (!Target)
	{
		Target = this;
	}
	return Target->GetSocketTransform(Socket).TransformPosition(Offset);
}

void USinewRopeComponent::BeginPlay()
{
	Super::BeginPlay();
	USinewWorldSubsystem* Sub = GetWorld() ? GetWorld()->GetSubsystem<USinewWorldSubsystem>() : nullptr;
	if (!Sub || !Sub->GetScene())
	{
		UE_LOG(LogSinew, Warning, TEXT("%s: no Sinew simulation in this world (library unavailable?)"), *GetPathName());
		return;
	}
	JoinSimulation(*Sub);
}

void USinewRopeComponent::OnRegister()
{
	Super::OnRegister();
	// The editor preview: an editor world never begins play, so the rope joins here.
	if (bPreviewInEditor && Body == 0 && SinewPreview::IsEditorWorld(GetWorld()))
	{
		if (USinewWorldSubsystem* Sub = GetWorld()->GetSubsystem<USinewWorldSubsystem>(); Sub && Sub->GetScene())
		{
			JoinSimulation(*Sub);
		}
	}
}

void USinewRopeComponent::OnUnregister()
{
	if (SinewPreview::IsEditorWorld(GetWorld()))
	{
		LeaveSimulation();
	}
	Super::OnUnregister();
}

void USinewRopeComponent::JoinSimulation(USinewWorldSubsystem& Sub)
{
	sinew::Scene* Scene = Sub.GetScene();
	if (!Scene || Body != 0)
	{
		return;
	}
	const sinew::units::Frame& Frame = Sub.GetFrame();
	// The starting shape: a polyline of the rope's own length between the attachments
	// (sagging when longer than their distance); the library builds the rope through it.
	sinew::rope::Params Shape;
	Shape.start = SinewUE::ToSim(Frame, AttachmentLocation(true));
	Shape.end = SinewUE::ToSim(Frame, AttachmentLocation(false));
	Shape.length = sinew::units::length_to_sim(RopeLength);
	Shape.segments = (uint32)FMath::Max(NumSegments, 1);
	Shape.down = SinewUE::Direction(FVector(0.0, 0.0, -1.0));
	const sinew::Result<std::vector<sinew::Vec3>> Points = sinew::rope::polyline(Shape);
	if (!Points)
	{
		UE_LOG(LogSinew, Error, TEXT("%s: %s"), *GetPathName(), UTF8_TO_TCHAR(Points.error().message.c_str()));
		return;
	}
	sinew::RopeDesc Desc;
	// BEGIN GENERATED RopeDesc copy
	Desc.total_mass = Mass;
	Desc.stretch_compliance = Compliance;
	Desc.bend_compliance = BendCompliance;
	Desc.tethers = bTethers ? 1u : 0u;
	Desc.damping = Damping;
	// END GENERATED RopeDesc copy
	Desc.with_pins(bAttachStart, bAttachEnd);
	Desc.radius = SinewUE::LengthToSim(FMath::Max(CollisionRadius, 0.0f));
	const sinew::Result<sinew::BodyId> Added = Scene->add_rope_polyline(Desc, sinew::Span<const sinew::Vec3>(*Points));
	if (!Added)
	{
		UE_LOG(LogSinew, Error, TEXT("%s: %s"), *GetPathName(), UTF8_TO_TCHAR(Added.error().message.c_str()));
		return;
	}
	Body = *Added;
	Subsystem = &Sub;
	SimPositions = *Points;
	Tensions.assign(Shape.segments, 0.0f);
	BrokenLinks.assign(Shape.segments, false);
	FirstDrawnLink = 0;
	bWinch = false;
	// The winch at the start: the rope starts Length long (at most RopeLength, what it
	// was built with) and moves to later Lengths at WinchSpeed.
	// The library's built length is the sum of the polyline's links (a little under
	// RopeLength across a sag's apex); 0.01% less keeps the library's float sum of the
	// link lengths (rounded differently) from refusing a full-length winch.
	double Built = 0.0;
	for (size_t i = 1; i < Points->size(); ++i)
	{
		const sinew::Vec3& A = (*Points)[i - 1];
		const sinew::Vec3& B = (*Points)[i];
		Built += FMath::Sqrt((double)(B.x - A.x) * (B.x - A.x) + (double)(B.y - A.y) * (B.y - A.y) + (double)(B.z - A.z) * (B.z - A.z));
	}
	BuiltLength = (float)(Built * (1.0 - 1e-4));
	if (bAttachStart)
	{
		const sinew::Result<void> Winch = Scene->add_winch(Body, sinew::RopeEnd::Start, WinchLength());
		if (Winch)
		{
			bWinch = true;
		}
		else
		{
			LogFailure(Winch.error());
		}
	}
	if (BreakForce > 0.0f)
	{
		SetBreakForce(BreakForce);
	}
	Sub.Register(this);
	UpdateRenderData();
}

sinew::Scene* USinewRopeComponent::SimulatingScene() const
{
	USinewWorldSubsystem* Sub = Subsystem.Get();
	sinew::Scene* Scene = Sub ? Sub->GetScene() : nullptr;
	return (Scene && Body != 0) ? Scene : nullptr;
}

void USinewRopeComponent::LogFailure(const sinew::Error& Error) const
{
	UE_LOG(LogSinew, Warning, TEXT("%s: %s"), *GetPathName(), UTF8_TO_TCHAR(Error.message.c_str()));
}

void USinewRopeComponent::EndPlay(const EEndPlayReason::Type EndPlayReason)
{
	LeaveSimulation();
	Super::EndPlay(EndPlayReason);
}

void USinewRopeComponent::LeaveSimulation()
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
	bWinch = false;
	Pieces.clear();
	Subsystem.Reset();
}

void USinewRopeComponent::PreSinewStep(USinewWorldSubsystem& Sub)
{
	sinew::Scene* Scene = Sub.GetScene();
	if (!Scene || Body == 0)
	{
		return;
	}
	Sub.ApplyLod(Body, Lod, *this, LodState);
	const sinew::units::Frame& Frame = Sub.GetFrame();
	// Pinned ends follow their attachments; a grabbed particle follows its grab
	// constraint (SetGrabLocation), not this.
	uint32 Indices[2];
	sinew::Vec3 Targets[2];
	uint32 Count = 0;
	if (bAttachStart)
	{
		Indices[Count] = 0;
		Targets[Count++] = SinewUE::ToSim(Frame, AttachmentLocation(true));
	}
	if (bAttachEnd)
	{
		Indices[Count] = (uint32)SimPositions.size() - 1;
		Targets[Count++] = SinewUE::ToSim(Frame, AttachmentLocation(false));
	}
	if (Count > 0)
	{
		const sinew::Result<void> Moved = Scene->move_particles(Body, sinew::Span<const uint32_t>(Indices, Count), sinew::Span<const sinew::Vec3>(Targets, Count));
		if (!Moved)
		{
			UE_LOG(LogSinew, Warning, TEXT("%s: %s"), *GetPathName(), UTF8_TO_TCHAR(Moved.error().message.c_str()));
		}
	}
}

void USinewRopeComponent::PostSinewStep(USinewWorldSubsystem& Sub)
{
	sinew::Scene* Scene = Sub.GetScene();
	if (!Scene || Body == 0)
	{
		return;
	}
	if (!Scene->read_positions(Body, SimPositions) || !Scene->read_forces(Body, sinew::BodyConstraints::Stretch, Tensions))
	{
		UE_LOG(LogSinew, Warning, TEXT("%s: cannot read the rope back"), *GetPathName());
		return;
	}
	if (bWinch)
	{
		if (const sinew::Result<sinew::WinchState> State = Scene->winch_state(Body))
		{
			FirstDrawnLink = State->paying_link;
		}
	}
	UpdateRenderData();
}

void USinewRopeComponent::UpdateRenderData()
{
	USinewWorldSubsystem* Sub = Subsystem.Get();
	sinew::Scene* Scene = SimulatingScene();
	if (!Sub || !Scene || SimPositions.size() < 2)
	{
		return;
	}
	// One read of the library (sinew_body_read_interpolated_positions), straight into
	// the array the render thread receives, with the subsystem's interpolation alpha (the
	// accumulator's leftover over the fixed step): the state between the last two steps.
	std::shared_ptr<FSinewRopeRenderData> Data = std::make_shared<FSinewRopeRenderData>();
	Data->SimPositions.resize(SimPositions.size());
	if (!Scene->read_interpolated_positions(Body, Sub->GetInterpolationAlpha(), sinew::Span<sinew::Vec3>(Data->SimPositions)))
	{
		UE_LOG(LogSinew, Warning, TEXT("%s: cannot read the rope for rendering"), *GetPathName());
		return;
	}
	Data->SimToLocal = SinewUE::SimToLocal(Sub->GetFrame(), GetComponentTransform());
	// One tube per piece: the rope splits where a link broke or was cut, and a winch's
	// parked particles (at the drum) are not drawn. The render thread rebuilds its
	// index buffer only when the pieces change.
	Pieces = sinew::rope::pieces((uint32_t)SimPositions.size(), FirstDrawnLink, BrokenLinks);
	Data->Pieces = Pieces;
	Data->Tube.radius = 0.5f * Width; // cm: the render thread works in local space
	Data->Tube.sides = (uint32)FMath::Clamp(NumSides, 3, 64);
	Data->Tube.v_per_length = TileMaterial / FMath::Max(RopeLength, 0.1f);
	Data->Tube.front_face = sinew::tube::FrontFace::Clockwise; // Unreal's front faces
	RenderBox = sinew::render::bounds(sinew::Span<const sinew::Vec3>(Data->SimPositions), SinewUE::LengthToSim(0.5f * Width));
	RenderData = std::move(Data);
	UpdateBounds();
	MarkRenderTransformDirty();
	MarkRenderDynamicDataDirty();
}

FPrimitiveSceneProxy* USinewRopeComponent::CreateSceneProxy()
{
	return new FSinewMeshSceneProxy(this, bOutputMotionVectors);
}

void USinewRopeComponent::CreateRenderState_Concurrent(FRegisterComponentContext* Context)
{
	Super::CreateRenderState_Concurrent(Context);
	SendRenderDynamicData_Concurrent(); // a new proxy (material change, re-registration) gets the last frame at once
}

void USinewRopeComponent::SendRenderDynamicData_Concurrent()
{
	Super::SendRenderDynamicData_Concurrent();
	if (!SceneProxy || !RenderData)
	{
		return;
	}
	FSinewMeshSceneProxy* Proxy = static_cast<FSinewMeshSceneProxy*>(SceneProxy);
	std::shared_ptr<const FSinewRopeRenderData> Data = RenderData;
	ENQUEUE_RENDER_COMMAND(FSinewSendRopeRenderData)(
		[Proxy, Data](FRHICommandListImmediate& RHICmdList)
		{
			Proxy->SetRopeData_RenderThread(RHICmdList, Data);
		});
}

FBoxSphereBounds USinewRopeComponent::CalcBounds(const FTransform& LocalToWorld) const
{
	const USinewWorldSubsystem* Sub = Subsystem.Get();
	if (!Sub || !RenderBox.valid)
	{
		// Not simulating: the straight line to the end, as wide as the tube.
		const FVector Start = LocalToWorld.GetLocation();
		const FVector Half(0.5 * (double)Width);
		FBox Box(Start - Half, Start + Half);
		Box += AttachmentLocation(false);
		return FBoxSphereBounds(Box.ExpandBy(0.5 * (double)Width));
	}
	// The simulation frame is a translation and a positive scale: corners map to corners.
	return FBoxSphereBounds(FBox(SinewUE::FromSim(Sub->GetFrame(), RenderBox.min), SinewUE::FromSim(Sub->GetFrame(), RenderBox.max)));
}

void USinewRopeComponent::SetCompliance(float NewCompliance)
{
	Compliance = FMath::Max(NewCompliance, 0.0f);
	SetBodyCompliance(sinew::BodyConstraints::Stretch, Compliance);
}

void USinewRopeComponent::SetBendCompliance(float NewCompliance)
{
	BendCompliance = FMath::Max(NewCompliance, 0.0f);
	SetBodyCompliance(sinew::BodyConstraints::Bend, BendCompliance);
}

void USinewRopeComponent::SetBodyCompliance(sinew::BodyConstraints Which, float Value)
{
	if (sinew::Scene* Scene = SimulatingScene())
	{
		const sinew::Result<void> Set = Scene->set_compliance(Body, Which, SinewUE::Compliance(Value));
		if (!Set)
		{
			LogFailure(Set.error());
		}
	}
}

void USinewRopeComponent::SetLength(float NewLength)
{
	Length = FMath::Clamp(NewLength, 0.0f, RopeLength);
	ApplyWinch();
}

void USinewRopeComponent::SetWinchSpeed(float NewWinchSpeed)
{
	WinchSpeed = FMath::Max(NewWinchSpeed, 0.0f);
	ApplyWinch();
}

void USinewRopeComponent::ApplyWinch()
{
	sinew::Scene* Scene = SimulatingScene();
	if (!Scene || !bWinch)
	{
		return; // BeginPlay starts the rope at Length
	}
	const float Target = WinchLength();
	// Speed 0 holds the rope where it is; a target needs a speed.
	const sinew::Result<void> Set = WinchSpeed > 0.0f
		? Scene->set_winch_target(Body, Target, SinewUE::LengthToSim(WinchSpeed))
		: Scene->set_winch_speed(Body, 0.0f);
	if (!Set)
	{
		LogFailure(Set.error());
	}
}

float USinewRopeComponent::WinchLength() const
{
	const float Wanted = Length > 0.0f ? SinewUE::LengthToSim(Length) : BuiltLength;
	// The winch pays out at most the built length (the library checks the rest).
	return FMath::Min(Wanted, BuiltLength);
}

float USinewRopeComponent::GetCurrentLength() const
{
	if (sinew::Scene* Scene = SimulatingScene(); Scene && bWinch)
	{
		if (const sinew::Result<sinew::WinchState> State = Scene->winch_state(Body))
		{
			return SinewUE::LengthFromSim(State->length);
		}
	}
	return RopeLength;
}

void USinewRopeComponent::SetBreakForce(float NewBreakForce)
{
	BreakForce = FMath::Max(NewBreakForce, 0.0f);
	if (sinew::Scene* Scene = SimulatingScene())
	{
		const float Newtons = BreakForce > 0.0f ? BreakForce : std::numeric_limits<float>::infinity();
		const sinew::Result<void> Set = Scene->set_break_force(Body, Newtons);
		if (!Set)
		{
			LogFailure(Set.error());
		}
	}
}

bool USinewRopeComponent::Cut(int32 Link)
{
	sinew::Scene* Scene = SimulatingScene();
	if (!Scene || Link < 0 || (size_t)Link >= BrokenLinks.size() || BrokenLinks[(size_t)Link])
	{
		return false;
	}
	const sinew::Result<void> Done = Scene->cut(Body, (uint32_t)Link);
	if (!Done)
	{
		LogFailure(Done.error());
		return false;
	}
	BrokenLinks[(size_t)Link] = true;
	return true;
}

int32 USinewRopeComponent::CutAlong(FVector WorldStart, FVector WorldEnd)
{
	USinewWorldSubsystem* Sub = Subsystem.Get();
	sinew::Scene* Scene = SimulatingScene();
	if (!Scene || !Sub)
	{
		return INDEX_NONE;
	}
	const sinew::Result<uint32_t> Link = Scene->cut_along(Body, SinewUE::ToSim(Sub->GetFrame(), WorldStart), SinewUE::ToSim(Sub->GetFrame(), WorldEnd));
	if (!Link)
	{
		LogFailure(Link.error());
		return INDEX_NONE;
	}
	if ((size_t)*Link < BrokenLinks.size())
	{
		BrokenLinks[(size_t)*Link] = true;
	}
	return (int32)*Link;
}

bool USinewRopeComponent::IsLinkBroken(int32 Link) const
{
	return Link >= 0 && (size_t)Link < BrokenLinks.size() && BrokenLinks[(size_t)Link];
}

void USinewRopeComponent::OnSinewBreak(USinewWorldSubsystem& InSubsystem, uint32 Link, const FVector& WorldLocation, float Force)
{
	if ((size_t)Link < BrokenLinks.size())
	{
		BrokenLinks[(size_t)Link] = true;
	}
	OnRopeBroken.Broadcast(this, Link < BrokenLinks.size() ? (int32)Link : INDEX_NONE, WorldLocation, Force);
}

#if WITH_EDITOR
void USinewRopeComponent::PostEditChangeProperty(FPropertyChangedEvent& PropertyChangedEvent)
{
	Super::PostEditChangeProperty(PropertyChangedEvent);
	const FName Name = PropertyChangedEvent.GetPropertyName();
	if (Name == GET_MEMBER_NAME_CHECKED(USinewRopeComponent, Length))
	{
		SetLength(Length);
	}
	else if (Name == GET_MEMBER_NAME_CHECKED(USinewRopeComponent, WinchSpeed))
	{
		SetWinchSpeed(WinchSpeed);
	}
	else if (Name == GET_MEMBER_NAME_CHECKED(USinewRopeComponent, BreakForce))
	{
		SetBreakForce(BreakForce);
	}
	else if (Name == GET_MEMBER_NAME_CHECKED(USinewRopeComponent, Compliance))
	{
		SetCompliance(Compliance);
	}
	else if (Name == GET_MEMBER_NAME_CHECKED(USinewRopeComponent, BendCompliance))
	{
		SetBendCompliance(BendCompliance);
	}
}
#endif

float USinewRopeComponent::GetTension(int32 Segment) const
{
	return (Segment >= 0 && (size_t)Segment < Tensions.size()) ? Tensions[(size_t)Segment] : 0.0f;
}

float USinewRopeComponent::GetMaxTension() const
{
	float Max = 0.0f;
	for (float T : Tensions)
	{
		Max = FMath::Max(Max, T);
	}
	return Max;
}

int32 USinewRopeComponent::Grab(FVector WorldLocation)
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

bool USinewRopeComponent::GrabParticle(int32 Particle)
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

void USinewRopeComponent::SetGrabLocation(FVector WorldLocation)
{
	USinewWorldSubsystem* Sub = Subsystem.Get();
	sinew::Scene* Scene = Sub ? Sub->GetScene() : nullptr;
	if (Scene && Body != 0 && GrabbedParticle != INDEX_NONE)
	{
		(void)Scene->move_grab(Body, (uint32_t)GrabbedParticle, SinewUE::ToSim(Sub->GetFrame(), WorldLocation));
	}
}

void USinewRopeComponent::Release()
{
	USinewWorldSubsystem* Sub = Subsystem.Get();
	sinew::Scene* Scene = Sub ? Sub->GetScene() : nullptr;
	if (Scene && Body != 0 && GrabbedParticle != INDEX_NONE)
	{
		(void)Scene->release(Body, (uint32_t)GrabbedParticle);
	}
	GrabbedParticle = INDEX_NONE;
}

void USinewRopeComponent::SetAttachEndToComponent(USceneComponent* Component, FName SocketName)
{
	EndOverride = Component;
	AttachEndToSocketName = SocketName;
}

void USinewRopeComponent::GetParticleLocations(TArray<FVector>& Locations) const
{
	Locations.Reset();
	const USinewWorldSubsystem* Sub = Subsystem.Get();
	if (!Sub)
	{
		return;
	}
	for (const sinew::Vec3& P : SimPositions)
	{
		Locations.Add(SinewUE::FromSim(Sub->GetFrame(), P));
	}
}

bool USinewRopeComponent::IsAsleep() const
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

void USinewRopeComponent::Wake()
{
	USinewWorldSubsystem* Sub = Subsystem.Get();
	sinew::Scene* Scene = Sub ? Sub->GetScene() : nullptr;
	if (Scene && Body != 0)
	{
		(void)Scene->wake(Body);
	}
}

// A rope simulated by Sinew, in the spirit of UE's CableComponent: it starts at this
// component (or another component / socket), ends at another component / socket or a
// point, and renders as a tube (bindings/cpp/sinew_tube.hpp) through its own scene
// proxy (FSinewMeshSceneProxy): each frame the game thread reads the particles into an
// FSinewRopeRenderData and hands it to the render thread, which builds the tube into
// its vertex buffers. With bPreviewInEditor it also simulates in the editor viewport.
//
// Length, WinchSpeed, BreakForce and the compliances edit the rope in place, through the
// library (a winch at the start, the links' break force, the body's compliance): set
// them from Blueprint (their setters) or in the details panel while playing. Nothing is
// rebuilt, and no other rope or cloth is touched. Cut and CutAlong cut the rope; a link
// that breaks under BreakForce fires OnRopeBroken.
//
// Units: lengths and widths in cm (Unreal), mass in kg, compliance in m/N, tension in N.
#pragma once

#include "CoreMinimal.h"
#include "Engine/EngineTypes.h"
#include "Components/MeshComponent.h"
#include "SinewRenderData.h"
#include "SinewWorldSubsystem.h"

#include <memory>
#include <vector>

THIRD_PARTY_INCLUDES_START
#include "sinew_rope.hpp"
#include "sinew_tube.hpp"
THIRD_PARTY_INCLUDES_END

#include "SinewRopeComponent.generated.h"

class USinewRopeComponent;

/** A link of Rope broke: its tension exceeded BreakForce. Link counts from the start (0..NumSegments-1), Location in world space (cm), Force in N. */
DECLARE_DYNAMIC_MULTICAST_DELEGATE_FourParams(FSinewRopeBrokenSignature, USinewRopeComponent*, Rope, int32, Link, FVector, Location, float, Force);

UCLASS(ClassGroup = (Physics), meta = (BlueprintSpawnableComponent), hidecategories = (Object, Physics, Activation, "Components|Activation"))
class SINEW_API USinewRopeComponent : public UMeshComponent, public ISinewSimulated
{
	GENERATED_BODY()

public:
	USinewRopeComponent(const FObjectInitializer& ObjectInitializer);

	/** Pin the first particle to the start point. */
	UPROPERTY(EditAnywhere, BlueprintReadWrite, Category = "Sinew|Attachment")
	bool bAttachStart = true;

	/** Component the rope starts at (none = this component). */
	UPROPERTY(EditAnywhere, Category = "Sinew|Attachment", meta = (UseComponentPicker, AllowedClasses = "/Script/Engine.SceneComponent"))
	FComponentReference AttachStartTo;

	/** Socket of the start component (none = its origin). */
	UPROPERTY(EditAnywhere, BlueprintReadWrite, Category = "Sinew|Attachment")
	FName AttachStartToSocketName;

	/** Start point, cm, in the space of the start component / socket. */
	UPROPERTY(EditAnywhere, BlueprintReadWrite, Category = "Sinew|Attachment")
	FVector StartLocation = FVector::ZeroVector;

	/** Pin the last particle to the end point. */
	UPROPERTY(EditAnywhere, BlueprintReadWrite, Category = "Sinew|Attachment")
	bool bAttachEnd = true;

	/** Component the rope ends at (none = this component). */
	UPROPERTY(EditAnywhere, Category = "Sinew|Attachment", meta = (UseComponentPicker, AllowedClasses = "/Script/Engine.SceneComponent"))
	FComponentReference AttachEndTo;

	/** Socket of the end component (none = its origin). */
	UPROPERTY(EditAnywhere, BlueprintReadWrite, Category = "Sinew|Attachment")
	FName AttachEndToSocketName;

	/** End point, cm, in the space of the end component / socket. */
	UPROPERTY(EditAnywhere, BlueprintReadWrite, Category = "Sinew|Attachment")
	FVector EndLocation = FVector(100.0, 0.0, 0.0);

	// BEGIN GENERATED RopeLength property
	/** Rest length of the rope. Read when the rope joins the simulation. Above 0, at most 1e11 cm. */
	UPROPERTY(EditAnywhere, BlueprintReadOnly, Category = "Sinew|Rope", meta = (ClampMin = "1.4e-43", ClampMax = "1e11", UIMin = "1", UIMax = "5000", Units = "cm", ToolTip = "Rest length of the rope. Read when the rope joins the simulation. Above 0, at most 1e11 cm."))
	float RopeLength = 100.0f;
	// END GENERATED RopeLength property

	// BEGIN GENERATED RopeDesc segments
	/** Number of links along the rope (particles = links + 1). More links bend more smoothly and cost more. At least 1, below 16777216. */
	UPROPERTY(EditAnywhere, BlueprintReadOnly, Category = "Sinew|Rope", meta = (ClampMin = "1", ClampMax = "16777215", UIMin = "1", UIMax = "200", ToolTip = "Number of links along the rope (particles = links + 1). More links bend more smoothly and cost more. At least 1, below 16777216."))
	int32 NumSegments = 10;
	// END GENERATED RopeDesc segments

	// BEGIN GENERATED RopeDesc properties
	/** Total mass, spread evenly over the particles. Above 0, at most 1e12 kg. */
	UPROPERTY(EditAnywhere, BlueprintReadOnly, Category = "Sinew|Rope", meta = (ClampMin = "1e-45", ClampMax = "1e12", Units = "kg", ToolTip = "Total mass, spread evenly over the particles. Above 0, at most 1e12 kg."))
	float Mass = 1.0f;

	/** Compliance of the links (0 = inextensible). At least 0, at most 1e10 m/N. */
	UPROPERTY(EditAnywhere, BlueprintReadWrite, BlueprintSetter = SetCompliance, Category = "Sinew|Rope", meta = (ClampMin = "0", ClampMax = "1e10", ToolTip = "Compliance of the links (0 = inextensible). At least 0, at most 1e10 m/N."))
	float Compliance = 0.0f;

	/** Compliance of the (i, i+2) bend links. At least 0, at most 1e10 m/N. */
	UPROPERTY(EditAnywhere, BlueprintReadWrite, BlueprintSetter = SetBendCompliance, Category = "Sinew|Rope", meta = (ClampMin = "0", ClampMax = "1e10", ToolTip = "Compliance of the (i, i+2) bend links. At least 0, at most 1e10 m/N."))
	float BendCompliance = 0.01f;

	/** Tethers from each pinned end to every particle (Kim et al. 2012; max length = the arc length along the rope). */
	UPROPERTY(EditAnywhere, BlueprintReadOnly, Category = "Sinew|Rope", meta = (ToolTip = "Tethers from each pinned end to every particle (Kim et al. 2012; max length = the arc length along the rope)."))
	bool bTethers = true;

	/** Extra velocity damping of the rope's particles. At least 0, at most 1000000 1/s. */
	UPROPERTY(EditAnywhere, BlueprintReadOnly, Category = "Sinew|Rope", meta = (ClampMin = "0", ClampMax = "1000000", ToolTip = "Extra velocity damping of the rope's particles. At least 0, at most 1000000 1/s."))
	float Damping = 0.0f;
	// END GENERATED RopeDesc properties

	// BEGIN GENERATED Winch properties
	/** Length of rope out of the winch at the start (0 = RopeLength, which is also the most it pays out). The rope starts this long and then moves towards a new Length at WinchSpeed. Needs bAttachStart. At least 0, at most 1e11 cm. */
	UPROPERTY(EditAnywhere, BlueprintReadWrite, BlueprintSetter = SetLength, Category = "Sinew|Winch", meta = (ClampMin = "0", ClampMax = "1e11", UIMin = "0", UIMax = "5000", Units = "cm", ToolTip = "Length of rope out of the winch at the start (0 = RopeLength, which is also the most it pays out). The rope starts this long and then moves towards a new Length at WinchSpeed. Needs bAttachStart. At least 0, at most 1e11 cm."))
	float Length = 0.0f;

	/** Speed at which the winch moves the rope towards Length (0 = the winch holds). At least 0, at most 100000 cm/s. */
	UPROPERTY(EditAnywhere, BlueprintReadWrite, BlueprintSetter = SetWinchSpeed, Category = "Sinew|Winch", meta = (ClampMin = "0", ClampMax = "100000", UIMin = "0", UIMax = "1000", Units = "cm/s", ToolTip = "Speed at which the winch moves the rope towards Length (0 = the winch holds). At least 0, at most 100000 cm/s."))
	float WinchSpeed = 50.0f;
	// END GENERATED Winch properties

	/** A link whose tension exceeds this breaks (N; 0 = unbreakable); OnRopeBroken fires. */
	UPROPERTY(EditAnywhere, BlueprintReadWrite, BlueprintSetter = SetBreakForce, Category = "Sinew|Breaking", meta = (ClampMin = "0", UIMin = "0", UIMax = "10000", Units = "N"))
	float BreakForce = 0.0f;

	/** Fires when a link breaks under BreakForce (not on Cut). */
	UPROPERTY(BlueprintAssignable, Category = "Sinew|Breaking")
	FSinewRopeBrokenSignature OnRopeBroken;

	/** Tube diameter, cm (drawn only; the collision thickness is CollisionRadius). */
	UPROPERTY(EditAnywhere, BlueprintReadWrite, Category = "Sinew|Rendering", meta = (ClampMin = "0.01", UIMin = "0.1", UIMax = "50", Units = "cm"))
	float Width = 2.0f;

	/** Vertices around the tube. */
	UPROPERTY(EditAnywhere, BlueprintReadWrite, Category = "Sinew|Rendering", meta = (ClampMin = "3", ClampMax = "64", UIMin = "3", UIMax = "16"))
	int32 NumSides = 6;

	/** How many times the material repeats along the rope (texture V over RopeLength). */
	UPROPERTY(EditAnywhere, BlueprintReadWrite, Category = "Sinew|Rendering", meta = (ClampMin = "0", UIMin = "0", UIMax = "100"))
	float TileMaterial = 1.0f;

	/** Sets the link compliance (m/N) of this rope in place, from the next step on; other bodies are untouched. */
	UFUNCTION(BlueprintCallable, Category = "Sinew|Rope")
	void SetCompliance(float NewCompliance);

	/** Sets the bend-link compliance (m/N) of this rope in place, from the next step on. */
	UFUNCTION(BlueprintCallable, Category = "Sinew|Rope")
	void SetBendCompliance(float NewCompliance);

	/** Sets the length (cm, 0 = RopeLength) the winch moves the rope to at WinchSpeed; clamped to RopeLength. */
	UFUNCTION(BlueprintCallable, Category = "Sinew|Winch")
	void SetLength(float NewLength);

	/** Sets the winch speed (cm/s, 0 = hold) and drives the rope towards Length at it. */
	UFUNCTION(BlueprintCallable, Category = "Sinew|Winch")
	void SetWinchSpeed(float NewWinchSpeed);

	/** Length of rope out of the winch now, cm (RopeLength without a winch). */
	UFUNCTION(BlueprintPure, Category = "Sinew|Winch")
	float GetCurrentLength() const;

	/** Sets the links' break force (N, 0 = unbreakable) in place. */
	UFUNCTION(BlueprintCallable, Category = "Sinew|Breaking")
	void SetBreakForce(float NewBreakForce);

	/** True while the body sleeps (sleeping on in the Sinew settings: its island came to rest and is not simulated until something wakes it). */
	UFUNCTION(BlueprintPure, Category = "Sinew|Sleeping")
	bool IsAsleep() const;

	/** Wakes the body and everything in its island. */
	UFUNCTION(BlueprintCallable, Category = "Sinew|Sleeping")
	void Wake();

	/** Cuts link Link (0 = at the start): the two pieces fall apart. False if out of range or already cut. */
	UFUNCTION(BlueprintCallable, Category = "Sinew|Breaking")
	bool Cut(int32 Link);

	/** Cuts the link nearest the segment WorldStart-WorldEnd (cm; a sword swipe). Returns the link, or -1. */
	UFUNCTION(BlueprintCallable, Category = "Sinew|Breaking")
	int32 CutAlong(FVector WorldStart, FVector WorldEnd);

	/** True once link Link broke or was cut. */
	UFUNCTION(BlueprintPure, Category = "Sinew|Breaking")
	bool IsLinkBroken(int32 Link) const;

	/** Tension of link Segment (0 = at the start) in the last substep, N. */
	UFUNCTION(BlueprintPure, Category = "Sinew|Rope")
	float GetTension(int32 Segment) const;

	/** Largest link tension, N. */
	UFUNCTION(BlueprintPure, Category = "Sinew|Rope")
	float GetMaxTension() const;

	// BEGIN GENERATED CollisionRadius property
	/** Collision radius of every particle (the rope's thickness); 0 = no collisions. Particles of one rope never collide with each other. At least 0, at most 1e11 cm. */
	UPROPERTY(EditAnywhere, BlueprintReadOnly, Category = "Sinew|Collision", meta = (ClampMin = "0", ClampMax = "1e11", UIMin = "0", UIMax = "20", Units = "cm", ToolTip = "Collision radius of every particle (the rope's thickness); 0 = no collisions. Particles of one rope never collide with each other. At least 0, at most 1e11 cm."))
	float CollisionRadius = 1.0f;
	// END GENERATED CollisionRadius property

	// BEGIN GENERATED GrabCompliance property
	/** Compliance of the grab (m/N, 0 = rigid): how softly a grabbed particle follows SetGrabLocation. At least 0, at most 1000. */
	UPROPERTY(EditAnywhere, BlueprintReadWrite, Category = "Sinew|Interaction", meta = (ClampMin = "0", ClampMax = "1000", UIMin = "0", UIMax = "0.01", ToolTip = "Compliance of the grab (m/N, 0 = rigid): how softly a grabbed particle follows SetGrabLocation. At least 0, at most 1000."))
	float GrabCompliance = 0.0001f;
	// END GENERATED GrabCompliance property

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

	/** Attaches the end to a component (and socket) at run time. */
	UFUNCTION(BlueprintCallable, Category = "Sinew|Attachment")
	void SetAttachEndToComponent(USceneComponent* Component, FName SocketName = NAME_None);

	/** Particle positions, world space, cm (the simulated state, not interpolated). */
	UFUNCTION(BlueprintPure, Category = "Sinew|Rope")
	void GetParticleLocations(TArray<FVector>& Locations) const;

	/** True while the rope is in the world's simulation. */
	UFUNCTION(BlueprintPure, Category = "Sinew|Rope")
	bool IsSimulating() const { return Body != 0; }

	/**
	 * Simulate in the editor viewport, as CableComponent does: the rope hangs and swings
	 * while you edit the level (the viewport must be Realtime), and a property change
	 * starts it again from its new shape. Simulate in Editor and Play in Editor always
	 * simulate, like a packaged game.
	 */
	UPROPERTY(EditAnywhere, BlueprintReadOnly, Category = "Sinew|Editor")
	bool bPreviewInEditor = true;

	/** Level of detail: full rate near the views, reduced or paused far away or when not rendered (off by default). */
	UPROPERTY(EditAnywhere, BlueprintReadWrite, Category = "Sinew|Level Of Detail")
	FSinewLodSettings Lod;

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
	virtual void OnRegister() override;
	virtual void OnUnregister() override;

	// Rendering: the component's own scene proxy (no mesh sections).
	virtual FPrimitiveSceneProxy* CreateSceneProxy() override;
	virtual int32 GetNumMaterials() const override { return 1; }
	virtual FBoxSphereBounds CalcBounds(const FTransform& LocalToWorld) const override;
	virtual void SendRenderDynamicData_Concurrent() override;
	virtual void CreateRenderState_Concurrent(FRegisterComponentContext* Context) override;

	virtual void PreSinewStep(USinewWorldSubsystem& InSubsystem) override;
	virtual void PostSinewStep(USinewWorldSubsystem& InSubsystem) override;
	virtual void OnSinewBreak(USinewWorldSubsystem& InSubsystem, uint32 Link, const FVector& WorldLocation, float Force) override;
	virtual uint32 GetSinewBody() const override { return Body; }
	virtual USceneComponent* GetSinewComponent() override { return this; }

#if WITH_EDITOR
	/** Details-panel edits while playing go through the setters (in place). */
	virtual void PostEditChangeProperty(FPropertyChangedEvent& PropertyChangedEvent) override;
#endif

private:
	/** World location (cm) of the start (bStart) or end attachment. */
	FVector AttachmentLocation(bool bStart) const;
	/** Adds the rope's body to the subsystem's simulation (from BeginPlay, or OnRegister in an editor world). */
	void JoinSimulation(USinewWorldSubsystem& Sub);
	/** Removes the body (from EndPlay, or OnUnregister in an editor world). */
	void LeaveSimulation();
	/** Game thread: this frame's positions (interpolated) into PendingRenderData, new bounds, render data marked dirty. */
	void UpdateRenderData();
	/** Sets one of the rope body's compliances in place (logs a failure). */
	void SetBodyCompliance(sinew::BodyConstraints Which, float Value);
	/** Drives the winch towards Length at WinchSpeed (logs a failure). */
	void ApplyWinch();
	/** Length (m) the winch moves the rope to: Length, or the built length for 0, within (0, built length]. */
	float WinchLength() const;
	/** The Scene if this rope is simulating, else null. */
	sinew::Scene* SimulatingScene() const;
	/** Logs a failed library call. */
	void LogFailure(const sinew::Error& Error) const;

	UPROPERTY(Transient)
	TWeakObjectPtr<USceneComponent> EndOverride;

	UPROPERTY(Transient)
	TWeakObjectPtr<USinewWorldSubsystem> Subsystem;

	uint32 Body = 0;
	FSinewLodState LodState; // the mode last set on Body (Lod)
	int32 GrabbedParticle = INDEX_NONE;
	std::vector<sinew::Vec3> SimPositions; // m, simulation space
	std::vector<float> Tensions;           // N
	std::vector<bool> BrokenLinks;         // per link: broke or cut
	uint32 FirstDrawnLink = 0;             // the winch's paying link: particles before it are parked at the drum
	bool bWinch = false;
	float BuiltLength = 0.0f;              // m, the sum of the built links (less 0.01%)
	std::vector<sinew::rope::Piece> Pieces; // drawn: one tube each
	std::shared_ptr<const FSinewRopeRenderData> RenderData; // the frame handed to the render thread (never modified once made)
	sinew::render::Box RenderBox;           // m, simulation space: what was last handed over, grown by the tube's radius
};

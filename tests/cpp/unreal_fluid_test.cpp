// The Unreal plugin's fluid component (USinewFluidComponent, its .cpp as shipped) on the
// stand-in engine of tests/cpp/ue_stub, with the world subsystem and a rope component:
// particles emitted from "Blueprint" (cm, cm/s) fall freely as the closed form of a
// damped fall says, the instanced mesh holds one instance per live particle at the
// particle's world location (cm) and scale Spacing / MeshDiameter, with its speed over
// FastSpeed as custom data 0; the component's nozzle pours along its +X at its rate; a
// kill volume removes what falls below it and the instances shrink with the live count
// (tail removal only, no bad index); Clear, bad input (all or none, nothing changes),
// in-place settings, AddEmitter / RemoveEmitter, body coupling switches on a rope
// component, and EndPlay. Drawn as ellipsoids (the default), a flat sheet's instances
// are rotated so that their shortest axis is the sheet's normal and scaled flat
// (non-uniformly: the ellipsoid's radii in cm over the mesh's radius), the transform of
// a given ellipsoid is its rotation, radii and centre exactly (a left-handed or
// degenerate one too); diffuse particles switch on in place and fill a second instanced
// mesh with their opacity as custom data 0. Built and run by tests/bindings/cpp_wrapper.rs
// (`unreal_fluid_on_a_stub_engine`).

#include "../../unreal-sample/Plugins/Sinew/Source/Sinew/Private/SinewWorldSubsystem.cpp"
#include "../../unreal-sample/Plugins/Sinew/Source/Sinew/Private/SinewFluidComponent.cpp"
#include "../../unreal-sample/Plugins/Sinew/Source/Sinew/Private/SinewRopeComponent.cpp"
#include "../../unreal-sample/Plugins/Sinew/Source/Sinew/Private/SinewMeshSceneProxy.cpp"
#include "../../unreal-sample/Plugins/Sinew/Source/Sinew/Private/SinewEditorPreview.cpp"
#include "../../unreal-sample/Plugins/Sinew/Source/Sinew/Private/SinewTaskGraph.cpp"
#include "../../unreal-sample/Plugins/Sinew/Source/Sinew/Private/SinewProfiling.cpp"

#include <cmath>
#include <cstdio>
#include <memory>
#include <string>

#include "unreal_test_game.h"

namespace {
/// One game world with its Sinew subsystem, stepped in frames of exactly one fixed step.
struct FluidGame {
    UWorld World;
    ULevel Level;
    USinewWorldSubsystem Sub;
    int Steps = 0; ///< fixed steps run so far
    FluidGame() {
        World.Subsystem = &Sub;
        World.PersistentLevel = &Level;
        Sub.World = &World;
        FSubsystemCollectionBase Collection;
        Sub.Initialize(Collection);
        Sub.OnWorldBeginPlay(World);
    }
    ~FluidGame() { Sub.Deinitialize(); }
    void Frames(int n) {
        const float Dt = GetDefault<USinewSettings>()->FixedTimeStep;
        for (int i = 0; i < n; ++i) {
            Sub.Step(Dt);
            Steps += Sub.GetStepsLastFrame();
        }
    }
};

std::unique_ptr<USinewFluidComponent> MakeFluid(FluidGame& G, FVector At) {
    auto F = std::make_unique<USinewFluidComponent>(FObjectInitializer());
    F->World = &G.World;
    F->Transform = FTransform(At);
    F->Spacing = 5.0f; // cm
    F->Capacity = 400;
    F->EmitterShape = ESinewFluidEmitterShape::None;
    F->DrawMode = ESinewFluidDrawMode::Spheres; // the sections below but the ellipsoids' check spheres
    return F;
}

double Length(const FVector& V) { return std::sqrt(V.X * V.X + V.Y * V.Y + V.Z * V.Z); }

/// Whether Q rotates the unit axes onto X, Y, Z (within Tol) and is a unit quaternion.
bool Rotates(const FQuat& Q, const FVector& X, const FVector& Y, const FVector& Z, double Tol) {
    const double Norm = Q.X * Q.X + Q.Y * Q.Y + Q.Z * Q.Z + Q.W * Q.W;
    return std::fabs(Norm - 1.0) < Tol && Length(Q.RotateVector(FVector(1, 0, 0)) - X) < Tol &&
           Length(Q.RotateVector(FVector(0, 1, 0)) - Y) < Tol && Length(Q.RotateVector(FVector(0, 0, 1)) - Z) < Tol;
}

} // namespace

int main() {
    const double G = 9.8;         // m/s²: UE's -980 cm/s² (the stub world's GetGravityZ)
    const double C = GetDefault<USinewSettings>()->Damping; // 1/s, the world's damping
    const double Dt = GetDefault<USinewSettings>()->FixedTimeStep;

    // --- Emit, free fall, instances --------------------------------------------------
    {
        FluidGame Game;
        auto Water = MakeFluid(Game, FVector(0, 0, 0));
        Water->BeginPlay();
        check(Water->IsSimulating(), "the fluid joined the simulation");
        check(Game.Sub.GetBodyCount() == 0, "a fluid is not a body of the Scene");
        FSinewFluidStats S = Water->GetStats();
        check(S.Count == 0 && S.Capacity == 400, "an empty fluid with its capacity reserved");

        // Eight particles 1 m apart (far beyond the 10 cm smoothing radius: no pressure,
        // no viscosity between them), at rest, then two more with a velocity.
        TArray<FVector> At, Vel, NoVel;
        for (int i = 0; i < 8; ++i) At.Add(FVector(100.0 * i, 0.0, 500.0));
        check(Water->Emit(At, NoVel) == 0, "Emit returns the first new particle (0)");
        TArray<FVector> At2, Vel2;
        At2.Add(FVector(0.0, 300.0, 500.0));
        At2.Add(FVector(0.0, 600.0, 500.0));
        Vel2.Add(FVector(100.0, 0.0, 0.0)); // cm/s
        Vel2.Add(FVector(0.0, 0.0, 200.0));
        check(Water->Emit(At2, Vel2) == 8, "a second Emit continues at 8");
        check(Water->GetStats().Count == 10 && Water->GetStats().Emitted == 10, "ten live particles, ten emitted");

        // Bad input changes nothing.
        const int32 Logs = GStubLogCount();
        TArray<FVector> OneVel;
        OneVel.Add(FVector(0, 0, 0));
        check(Water->Emit(At, OneVel) == -1, "Emit with 1 velocity for 8 locations is refused");
        TArray<FVector> TooMany;
        for (int i = 0; i < 391; ++i) TooMany.Add(FVector(100.0 * i, 1000.0, 500.0));
        check(Water->Emit(TooMany, NoVel) == -1, "Emit past the free capacity (391 > 390) is refused");
        TArray<FVector> Bad;
        Bad.Add(FVector(0.0, 0.0, std::nan("")));
        check(Water->Emit(Bad, NoVel) == -1, "Emit at a NaN location is refused");
        check(Water->GetStats().Count == 10, "refused emissions emit nothing (all or none)");
        check(GStubLogCount() == Logs + 3, "each refusal is logged");

        Game.Frames(30);
        const double T = Game.Steps * Dt;
        check(Game.Steps == 30, "30 frames of one fixed step each ran 30 steps");
        TArray<FVector> Loc, V;
        check(Water->ReadParticles(Loc, V) == 10 && Loc.Num() == 10 && V.Num() == 10, "ReadParticles: the 10 live particles");
        // Damped free fall: v = -(g / c) (1 - e^{-c t}), in cm/s (-g t without damping).
        const double Expected = C > 0.0 ? -100.0 * (G / C) * (1.0 - std::exp(-C * T)) : -100.0 * G * T;
        bool Falls = true;
        for (int i = 0; i < 8; ++i) Falls = Falls && std::fabs(V[i].Z - Expected) < 0.01 * std::fabs(Expected) && std::fabs(V[i].X) < 1e-3;
        check(Falls, "particles at rest fall as -(g/c)(1 - e^(-ct)) = " + std::to_string(Expected) + " cm/s (1%); got " + std::to_string(V[0].Z));
        check(std::fabs(V[8].X - 100.0 * std::exp(-C * T)) < 0.5 && std::fabs(V[9].Z - (200.0 * std::exp(-C * T) + Expected)) < 0.01 * 200.0,
              "emitted velocities (cm/s) carry on, damped, under gravity");
        check(Loc[8].Y == 300.0 || std::fabs(Loc[8].Y - 300.0) < 1e-3, "locations come back in cm, world space");

        // The instanced mesh: one instance per live particle, where it is drawn.
        check(Water->GetInstanceCount() == 10, "one instance per live particle");
        bool Placed = true, Scaled = true, Coloured = true;
        for (int32 i = 0; i < 10; ++i) {
            FTransform I;
            Placed = Placed && Water->GetInstanceTransform(i, I, true) && Length(I.GetLocation() - Loc[i]) < 1e-6;
            Scaled = Scaled && std::fabs(I.GetScale3D().X - 0.05) < 1e-9 && I.GetScale3D().Z == I.GetScale3D().X;
            const double Fraction = std::fmin(Length(V[i]) / 300.0, 1.0);
            Coloured = Coloured && std::fabs(Water->PerInstanceCustomData[i] - Fraction) < 1e-4;
        }
        check(Placed, "instance i sits at particle i's world location (cm)");
        check(Scaled, "instance scale = Spacing / MeshDiameter = 5 / 100");
        check(Water->NumCustomDataFloats == 1 && Coloured, "custom data 0 = speed / FastSpeed, at most 1");
        check(Water->StubBadIndices == 0, "no instance index out of range");

        // A kill volume 1 m below the origin: the particles fall into it and go.
        FSinewKillVolume Below;
        Below.Shape = ESinewKillVolumeShape::Below;
        Below.Transform = FTransform(FVector(0.0, 0.0, -100.0));
        const int32 Kill = Water->AddKillVolume(Below);
        check(Kill > 0, "AddKillVolume returns a handle");
        Game.Frames(90); // 2 s in all: the particles have fallen ~17 m
        S = Water->GetStats();
        check(S.Count == 0 && S.Removed == 10, "the kill volume removed every particle below it");
        check(Water->GetInstanceCount() == 0 && Water->StubBadIndices == 0, "the instances shrank with the live count");
        check(Water->RemoveKillVolume(Kill) && !Water->RemoveKillVolume(Kill), "a kill volume is removed once");

        // A box of half extents 50 cm and a ball of radius 30 cm: what is inside goes, what
        // lies 10 cm beyond their surfaces stays (sizes in cm reach the library in m).
        FSinewKillVolume Box;
        Box.Shape = ESinewKillVolumeShape::Box;
        Box.Transform = FTransform(FVector(1000.0, 0.0, 500.0));
        Box.Extent = FVector(50.0, 50.0, 50.0);
        FSinewKillVolume Ball;
        Ball.Shape = ESinewKillVolumeShape::Sphere;
        Ball.Transform = FTransform(FVector(2000.0, 0.0, 500.0));
        Ball.Radius = 30.0f;
        const int32 KillBox = Water->AddKillVolume(Box), KillBall = Water->AddKillVolume(Ball);
        TArray<FVector> Probes;
        Probes.Add(FVector(1040.0, 0.0, 500.0)); // in the box
        Probes.Add(FVector(1060.0, 0.0, 500.0)); // 10 cm beyond it
        Probes.Add(FVector(2000.0, 25.0, 500.0)); // in the ball
        Probes.Add(FVector(2000.0, 40.0, 500.0)); // 10 cm beyond it
        check(Water->Emit(Probes, NoVel) == 0, "four probes emitted");
        Game.Frames(1);
        Water->ReadParticles(Loc, V);
        bool BoxOut = false, BallOut = false;
        for (const FVector& L : Loc) {
            BoxOut = BoxOut || std::fabs(L.X - 1060.0) < 1.0;
            BallOut = BallOut || (std::fabs(L.X - 2000.0) < 1.0 && std::fabs(L.Y - 40.0) < 1.0);
        }
        check(Loc.Num() == 2 && BoxOut && BallOut, "the box and the ball removed the probes inside them, not those 10 cm out");
        check(Water->RemoveKillVolume(KillBox) && Water->RemoveKillVolume(KillBall), "both removed");
        Water->Clear();

        // In place: a refused setting keeps the fluid's previous ones.
        Water->SetRestDensity(-1.0f);
        check(!Water->ApplySettings(), "a negative rest density is refused");
        Water->RestDensity = 800.0f;
        check(Water->ApplySettings(), "a new rest density applies in place");
        Water->Spacing = 10.0f; // changes only when the fluid joins again
        check(Water->ApplySettings(), "Spacing waits for the next play instead of failing the others");

        Water->EndPlay(EEndPlayReason::Destroyed);
        check(!Water->IsSimulating() && Water->GetInstanceCount() == 0, "EndPlay removes the fluid and its instances");
        check(Water->Emit(At, NoVel) == -1 && Water->GetStats().Capacity == 0, "a fluid out of play emits nothing");
    }

    // --- The component's nozzle ------------------------------------------------------
    {
        FluidGame Game;
        auto Hose = MakeFluid(Game, FVector(0, 0, 1000));
        Hose->EmitterShape = ESinewFluidEmitterShape::Nozzle;
        Hose->NozzleRadius = 10.0f;  // cm: 13 lattice points of 5 cm, up to 3 m/s × 13 / 5 cm = 780 particles/s
        Hose->EmitterRate = 600.0f;  // particles/s
        Hose->EmitterSpeed = 300.0f; // cm/s along +X
        Hose->Capacity = 2000;
        Hose->BeginPlay();
        Game.Frames(60); // 1 s
        FSinewFluidStats S = Hose->GetStats();
        check(S.Emitted >= 540 && S.Emitted <= 660, "the nozzle emitted 600 particles/s (10%): " + std::to_string(S.Emitted));
        TArray<FVector> Loc, V;
        const int32 N = Hose->ReadParticles(Loc, V);
        double MeanVx = 0, MeanX = 0;
        for (int32 i = 0; i < N; ++i) {
            MeanVx += V[i].X / N;
            MeanX += Loc[i].X / N;
        }
        check(N == S.Count && MeanVx > 200.0, "it pours along the component's +X (mean vx " + std::to_string(MeanVx) + " cm/s)");
        // A stream poured for 1 s at 3 m/s reaches 3 m: its middle lies about 1.5 m out.
        check(MeanX > 100.0 && MeanX < 200.0, "the stream's middle lies 1 to 2 m downstream (" + std::to_string(MeanX) + " cm)");
        Hose->SetEmitterRate(0.0f);
        const int64 Before = Hose->GetStats().Emitted;
        Game.Frames(10);
        check(Hose->GetStats().Emitted == Before, "rate 0 pauses the nozzle");

        // Another emitter from Blueprint, removed again.
        FSinewFluidEmitter Rain;
        Rain.Shape = ESinewFluidEmitterShape::Box;
        Rain.Transform = FTransform(FVector(0, 5000, 1000));
        Rain.BoxExtent = FVector(200.0, 50.0, 50.0); // cm, in the emitter's frame: long along X (sparse: no pressure)
        Rain.Speed = 0.0f;
        Rain.Rate = 300.0f;
        const int32 E = Hose->AddEmitter(Rain);
        Game.Frames(30);
        check(E > 0 && Hose->GetStats().Emitted >= Before + 120, "AddEmitter emits (a box of rain)");
        Hose->ReadParticles(Loc, V);
        double RainX = 0, RainY = 0;
        int32 Drops = 0;
        for (int32 i = 0; i < Loc.Num(); ++i) {
            if (Loc[i].Y < 4000.0) continue;
            ++Drops;
            RainX = std::fmax(RainX, std::fabs(Loc[i].X));
            RainY = std::fmax(RainY, std::fabs(Loc[i].Y - 5000.0));
        }
        check(Drops >= 120 && RainX > 100.0 && RainX < 210.0 && RainY < 60.0,
              "the rain box spreads 200 cm along X and 50 cm along Y (its extent in its own frame): " + std::to_string(RainX) +
                  " and " + std::to_string(RainY) + " cm");
        check(Hose->RemoveEmitter(E) && !Hose->RemoveEmitter(E) && !Hose->SetEmitter(E, Rain), "an emitter is removed once");
        const int64 After = Hose->GetStats().Emitted;
        Game.Frames(10);
        check(Hose->GetStats().Emitted == After, "a removed emitter emits no more");
        Hose->Clear();
        Game.Frames(1);
        check(Hose->GetStats().Count == 0 && Hose->GetInstanceCount() == 0, "Clear empties the fluid and its instances");

        // Coupling switches go to Sinew body components only.
        auto Rope = std::make_unique<USinewRopeComponent>(FObjectInitializer());
        Rope->World = &Game.World;
        Rope->Transform = FTransform(FVector(0, -3000, 300));
        Rope->EndLocation = FVector(100, 0, 0);
        Rope->RegisterComponent();
        Rope->BeginPlay();
        check(Hose->SetBodyFluidCoupling(Rope.get(), false) && Hose->SetBodyFluidCoupling(Rope.get(), true), "a rope's coupling switches");
        check(!Hose->SetBodyFluidCoupling(Hose.get(), false) && !Hose->SetBodyFluidCoupling(nullptr, true), "a non-body component has no coupling");
        Game.Frames(2);
        check(Length(Hose->GetBodyFluidForce(Rope.get())) == 0.0, "no water near the rope: no force on it");
        Rope->EndPlay(EEndPlayReason::Destroyed);
        Hose->EndPlay(EEndPlayReason::Destroyed);
    }

    // --- Ellipsoids: the instance transforms --------------------------------------------
    {
        // One ellipsoid by hand: 20 cm along +Y (longest), 10 cm along -X, 5 cm along +Z
        // (right-handed: (0,1,0) x (-1,0,0) = (0,0,1)), centred 1 m up, on the engine's
        // sphere (100 cm across).
        FluidGame Game;
        const sinew::units::Frame& Frame = Game.Sub.GetFrame();
        SinewFluidEllipsoid E{};
        E.center = SinewUE::ToSim(Frame, FVector(30.0, -40.0, 100.0));
        E.axis0 = SinewVec3{0.0f, 0.2f, 0.0f};
        E.axis1 = SinewVec3{-0.1f, 0.0f, 0.0f};
        E.axis2 = SinewVec3{0.0f, 0.0f, 0.05f};
        FTransform T = SinewUE::EllipsoidTransform(Frame, E, 100.0);
        check(Length(T.GetLocation() - FVector(30.0, -40.0, 100.0)) < 1e-4, "the instance sits at the ellipsoid's centre (cm, world)");
        check(Length(T.GetScale3D() - FVector(0.4, 0.2, 0.1)) < 1e-6, "scale = radius (cm) / mesh radius (50 cm) per axis: 0.4, 0.2, 0.1");
        check(Rotates(T.GetRotation(), FVector(0, 1, 0), FVector(-1, 0, 0), FVector(0, 0, 1), 1e-9),
              "the rotation takes the mesh's X, Y, Z onto the ellipsoid's axes");
        // A general orientation: axes along (1,1,0)/√2, (-1,1,0)/√2 tilted by 30° about them.
        const double C30 = std::cos(0.5235987755982988), S30 = std::sin(0.5235987755982988), R2 = std::sqrt(0.5);
        const FVector U0(R2, R2, 0.0), U1(-R2 * C30, R2 * C30, S30), U2(R2 * S30, -R2 * S30, C30);
        E.axis0 = SinewVec3{(float)(0.3 * U0.X), (float)(0.3 * U0.Y), (float)(0.3 * U0.Z)};
        E.axis1 = SinewVec3{(float)(0.2 * U1.X), (float)(0.2 * U1.Y), (float)(0.2 * U1.Z)};
        E.axis2 = SinewVec3{(float)(0.1 * U2.X), (float)(0.1 * U2.Y), (float)(0.1 * U2.Z)};
        T = SinewUE::EllipsoidTransform(Frame, E, 200.0);
        check(Rotates(T.GetRotation(), U0, U1, U2, 1e-6) && Length(T.GetScale3D() - FVector(0.3, 0.2, 0.1)) < 1e-6,
              "a tilted ellipsoid: the rotation follows its axes, a 200 cm mesh halves the scale");
        // A left-handed triple draws the same ellipsoid: the last axis turns over.
        E.axis2 = SinewVec3{-E.axis2.x, -E.axis2.y, -E.axis2.z};
        T = SinewUE::EllipsoidTransform(Frame, E, 200.0);
        check(Rotates(T.GetRotation(), U0, U1, U2, 1e-6), "a left-handed triple becomes a proper rotation");
        // An isolated particle drawn at size 0: no rotation, nothing drawn, no NaN.
        E.axis0 = E.axis1 = E.axis2 = SinewVec3{0.0f, 0.0f, 0.0f};
        T = SinewUE::EllipsoidTransform(Frame, E, 100.0);
        check(Length(T.GetScale3D()) == 0.0 && T.GetRotation().W == 1.0, "a degenerate ellipsoid scales to nothing");

        // A flat sheet of 12 x 12 particles 5 cm apart, drawn by the component.
        auto Sheet = MakeFluid(Game, FVector(0, 0, 0));
        Sheet->DrawMode = ESinewFluidDrawMode::Ellipsoids;
        check(USinewFluidComponent(FObjectInitializer()).DrawMode == ESinewFluidDrawMode::Ellipsoids, "ellipsoids by default");
        Sheet->BeginPlay();
        TArray<FVector> At, NoVel;
        const int N = 12;
        for (int k = 0; k < N * N; ++k) At.Add(FVector(5.0 * (k % N), 5.0 * (k / N), 500.0));
        check(Sheet->Emit(At, NoVel) == 0, "a sheet emitted");
        Game.Frames(1);
        check(Sheet->GetInstanceCount() == N * N, "one ellipsoid instance per particle");
        int Inner = 0;
        bool Flat = true, Ordered = true, Normal = true, Near = true, Clamped = true;
        for (int k = 0; k < N * N; ++k) {
            const int X = k % N, Y = k / N;
            if (X < 3 || Y < 3 || X > N - 4 || Y > N - 4) continue;
            ++Inner;
            FTransform I;
            Sheet->GetInstanceTransform(k, I, true);
            const FVector S = I.GetScale3D();
            const FVector Z = I.GetRotation().RotateVector(FVector(0, 0, 1));
            Ordered = Ordered && S.X >= S.Y * (1 - 1e-6) && S.Y >= S.Z * (1 - 1e-6) && S.Z > 0.0;
            Flat = Flat && 3.0 * S.Z < S.X;
            Clamped = Clamped && S.X <= 4.0 * S.Z * (1 + 1e-4);
            Normal = Normal && std::fabs(Z.Z) > 0.999;
            Near = Near && Length(I.GetLocation() - FVector(5.0 * X, 5.0 * Y, I.GetLocation().Z)) < 2.5;
        }
        check(Inner == (N - 6) * (N - 6), "the sheet's inner particles");
        check(Ordered, "scales longest first, none zero");
        check(Flat && Clamped, "a sheet's ellipsoids are flat (shortest < longest / 3), at most 4:1 (k_r)");
        check(Normal, "their shortest axis is the sheet's normal (world Z)");
        check(Near, "each stays within half a spacing of its particle across the sheet");
        check(Sheet->StubBadIndices == 0, "no instance index out of range");
        Sheet->DrawMode = ESinewFluidDrawMode::Spheres;
        Game.Frames(1);
        FTransform I0;
        Sheet->GetInstanceTransform(0, I0, true);
        check(std::fabs(I0.GetScale3D().X - 0.05) < 1e-9 && I0.GetScale3D().Z == I0.GetScale3D().X && I0.GetRotation().W == 1.0,
              "switched to spheres: uniform Spacing / MeshDiameter, no rotation");

        // Diffuse particles: off by default; on in place, into a second instanced mesh.
        check(!Sheet->bDiffuse && Sheet->GetDiffuseCount() == 0, "no diffuse particles by default");
        UInstancedStaticMeshComponent Spray{FObjectInitializer()};
        Spray.NumCustomDataFloats = 1;
        Sheet->DiffuseInstances = &Spray;
        Sheet->DiffuseCapacity = 500;
        Sheet->DiffuseMinSpeed = 50.0f; // cm/s
        Sheet->DiffuseRate = 500.0f;
        Sheet->SetDiffuseEnabled(true);
        check(Sheet->ApplySettings(), "diffuse settings apply in place");
        // Two blocks thrown into each other at 6 m/s: trapped air.
        Sheet->Clear();
        TArray<FVector> Blocks, Speeds;
        for (int k = 0; k < 2 * 64; ++k) {
            const int B = k / 64, L = k % 64;
            Blocks.Add(FVector(5.0 * (L % 4) + (B ? 30.0 : -30.0), 5.0 * ((L / 4) % 4), 300.0 + 5.0 * (L / 16)));
            Speeds.Add(FVector(B ? -600.0 : 600.0, 0.0, 0.0));
        }
        check(Sheet->Emit(Blocks, Speeds) == 0, "two blocks thrown");
        int Most = 0;
        bool Matched = true, Opaque = true;
        for (int f = 0; f < 30; ++f) {
            Game.Frames(1);
            const int32 Count = Sheet->GetDiffuseCount();
            Most = std::max(Most, (int)Count);
            Matched = Matched && Spray.GetInstanceCount() == Count;
            for (int32 i = 0; i < Count; ++i) Opaque = Opaque && Spray.PerInstanceCustomData[i] > 0.0f && Spray.PerInstanceCustomData[i] <= 1.0f;
        }
        check(Most > 0 && Most <= 500, "the collision spawns diffuse particles (most " + std::to_string(Most) + ", capacity 500)");
        check(Matched && Spray.StubBadIndices == 0, "the diffuse instances follow their count");
        check(Opaque, "custom data 0: an opacity in (0, 1]");
        Sheet->SetDiffuseEnabled(false);
        Game.Frames(1);
        check(Sheet->GetDiffuseCount() == 0 && Spray.GetInstanceCount() == 0, "switched off: no diffuse particles, no instances");
        Sheet->EndPlay(EEndPlayReason::Destroyed);
    }

    return Finish();
}

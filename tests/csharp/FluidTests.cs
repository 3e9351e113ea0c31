// Fluids through the idiomatic layer: settings round trip, emission and the strided
// readback (arrays of Vector3 and of an interleaved vertex struct), a lone particle in
// free fall (y = y0 - g h² N(N+1)/2 after N substeps of h), an emitter's rate, a kill
// volume, removal, body coupling calls, and bad input (a status and a message, nothing
// changed).

using System;
using Sinew;
using Sinew.Native;

namespace SinewTests
{
    public static class FluidTests
    {
        const float G = 9.81f;
        const float Dt = 1f / 60f;

        static FluidSettings Small(int capacity)
        {
            var s = FluidSettings.Default;
            s.Capacity = capacity;
            return s;
        }

        static Vector3[] Block(int n, float y)
        {
            var p = new Vector3[n];
            for (int k = 0; k < n; k++)
                p[k] = new Vector3(0.05f * (k % 2), y + 0.05f * ((k / 2) % 2), 0.05f * (k / 4));
            return p;
        }

        /// <summary>Defaults read from the library (water), Settings get/set round trip,
        /// the reserved range.</summary>
        public static void TestSettingsDefaultsAndRoundTrip()
        {
            var d = FluidSettings.Default;
            Check.Near(1000, d.RestDensity, 0, "rest density");
            Check.Near(0.05, d.Spacing, 1e-7, "spacing");
            Check.Equal(4096, d.Capacity, "capacity");
            Check.Equal(4, d.ScorrN, "scorr n");
            Check.Equal(false, d.RecycleOldest, "recycle oldest");
            Check.Equal(uint.MaxValue, d.CouplingMask, "coupling mask");
            Check.Equal(SinewEmitterShape.Nozzle, EmitterSettings.Default.Shape, "emitter shape");
            Check.Near(500, EmitterSettings.Default.Rate, 0, "emitter rate");
            Check.Equal(SinewKillVolumeShape.Box, KillVolumeSettings.Default.Shape, "kill volume shape");
            using (var w = NativeBodyTests.MakeWorld(G, 4))
            {
                w.AddParticles(new[] { new Vector3(5, 5, 5) });
                var s = Small(64);
                s.Viscosity = 0.05f;
                s.RecycleOldest = true;
                s.CouplingMask = 3;
                var f = w.AddFluid(s);
                Check.Equal(1, w.FluidCount, "fluid count");
                Check.Equal(1, f.FirstParticle, "first reserved particle follows the existing one");
                Check.Equal(64, f.Capacity, "capacity");
                Check.Equal(65, w.ParticleCount, "reserved particles are world particles");
                var back = f.Settings;
                Check.Equal(0.05f, back.Viscosity, "viscosity back");
                Check.Equal(true, back.RecycleOldest, "recycle back");
                Check.Equal(3u, back.CouplingMask, "mask back");
                back.Cohesion = 0.5f;
                f.Settings = back;
                Check.Near(0.5, f.Settings.Cohesion, 0, "cohesion set");
                var bad = back;
                bad.Capacity = 128;
                Check.Throws(SinewStatus.ErrorInvalidArgument, () => f.Settings = bad, "sinew_fluid_set_desc", "capacity");
                bad = back;
                bad.Spacing = 0.04f;
                Check.Throws(SinewStatus.ErrorInvalidArgument, () => f.Settings = bad, "sinew_fluid_set_desc", "spacing");
                Check.Near(0.5, f.Settings.Cohesion, 0, "settings unchanged by the refusals");
            }
        }

        /// <summary>Emitted particles read back as emitted (positions, velocities) into
        /// Vector3 arrays and into an interleaved vertex struct; emitting past the free
        /// capacity is refused whole; Clear empties the fluid.</summary>
        public static void TestEmitReadAndClear()
        {
            using (var w = NativeBodyTests.MakeWorld(G, 4))
            {
                var f = w.AddFluid(Small(16));
                var p = Block(8, 1f);
                var v = new Vector3[8];
                for (int k = 0; k < 8; k++) v[k] = new Vector3(k, 0, -k);
                Check.Equal(0, f.Emit(p, v), "first emitted index");
                Check.Equal(8, f.Emit(Block(4, 2f)), "second batch follows");
                var st = f.Stats;
                Check.Equal(12, st.Count, "live");
                Check.Equal(16, st.Capacity, "capacity");
                Check.Equal(12L, st.Emitted, "emitted");
                var pos = new Vector3[16];
                var vel = new Vector3[16];
                var dens = new float[16];
                Check.Equal(12, f.ReadParticles(1f, pos, vel, dens), "read count");
                for (int k = 0; k < 8; k++)
                {
                    Check.Near(p[k].x, pos[k].x, 0, "x " + k);
                    Check.Near(p[k].y, pos[k].y, 0, "y " + k);
                    Check.Near(v[k].x, vel[k].x, 0, "vx " + k);
                    Check.Near(v[k].z, vel[k].z, 0, "vz " + k);
                    Check.True(dens[k] >= 0 && !float.IsNaN(dens[k]), "density ratio " + k);
                }
                Check.Near(0, vel[9].y, 0, "emitted at rest without velocities");
                var verts = new Vertex[12];
                verts[0].u = 42f;
                Check.Equal(12, f.ReadParticles<Vertex>(1f, verts, null, null), "vertex read");
                Check.Near(p[3].z, verts[3].position.z, 0, "vertex position");
                Check.Near(42, verts[0].u, 0, "the rest of the vertex untouched");
                Check.Throws(SinewStatus.ErrorOutOfRange, () => f.ReadParticles(1f, new Vector3[11], null, null),
                    "sinew_fluid_read_particles", "11", "12");
                Check.Throws(SinewStatus.ErrorInvalidArgument, () => f.ReadParticles(2f, pos, null, null),
                    "sinew_fluid_read_particles", "alpha");
                // 5 more do not fit in the 4 free slots: nothing is emitted.
                Check.Throws(SinewStatus.ErrorOutOfRange, () => f.Emit(Block(5, 3f)), "sinew_fluid_emit");
                Check.Equal(12, f.Count, "a refused emission adds nothing");
                var nan = Block(2, 3f);
                nan[1].y = float.NaN;
                Check.Throws(SinewStatus.ErrorInvalidArgument, () => f.Emit(nan), "sinew_fluid_emit");
                Check.Throws(SinewStatus.ErrorInvalidArgument, () => f.Emit(Block(2, 3f), new Vector3[1]), "Fluid.Emit", "velocities");
                Check.Equal(12, f.Count, "still 12");
                f.Clear();
                st = f.Stats;
                Check.Equal(0, st.Count, "cleared");
                Check.Equal(12L, st.Removed, "removed");
                Check.Equal(0, f.ReadParticles<Vector3>(1f, null, null, dens), "nothing live");
            }
        }

        /// <summary>A lone fluid particle (its own density is below the rest density, so the
        /// density constraint is inactive) falls freely: after N substeps of h from rest,
        /// v = -g h N and y = y0 - g h² N (N + 1) / 2.</summary>
        public static void TestLoneParticleFallsFreely()
        {
            const int substeps = 8;
            using (var w = NativeBodyTests.MakeWorld(G, substeps))
            {
                var f = w.AddFluid(Small(4));
                f.Emit(new[] { new Vector3(0, 10, 0) });
                const int steps = 30;
                for (int i = 0; i < steps; i++) w.Step(Dt);
                var pos = new Vector3[1];
                var vel = new Vector3[1];
                f.ReadParticles(1f, pos, vel, null);
                double h = Dt / substeps;
                int n = steps * substeps;
                Check.Near(-G * h * n, vel[0].y, 1e-3, "velocity");
                Check.Near(10 - G * h * h * n * (n + 1) / 2, pos[0].y, 1e-3, "height");
                Check.Near(0, pos[0].x, 0, "no sideways drift");
                // alpha 0: the position at the start of the last step.
                var before = new Vector3[1];
                f.ReadParticles(0f, before, null, null);
                double nb = n - substeps;
                Check.Near(10 - G * h * h * nb * (nb + 1) / 2, before[0].y, 1e-3, "alpha 0");
            }
        }

        /// <summary>An emitter of 600 particles/s emits 10 per 1/60 s step, carrying the
        /// fraction; a removed emitter stops; a kill half-space removes what falls through
        /// it.</summary>
        public static void TestEmitterRateAndKillVolume()
        {
            using (var w = NativeBodyTests.MakeWorld(G, 4))
            {
                var f = w.AddFluid(Small(2000));
                var e = EmitterSettings.Default;
                e.Position = new SinewVec3(0, 2, 0);
                e.Rate = 600f;
                e.Speed = 3f; // the nozzle then passes up to 780 particles/s
                var em = f.AddEmitter(e);
                for (int i = 0; i < 30; i++) w.Step(Dt);
                var st = f.Stats;
                Check.Near(300, st.Emitted, 1, "emitted at 600/s for 0.5 s");
                Check.Equal(0L, st.Refused, "nothing refused");
                e.Rate = 0f;
                em.Set(e);
                long emitted = f.Stats.Emitted;
                w.Step(Dt);
                Check.Equal(emitted, f.Stats.Emitted, "rate 0 pauses");
                em.Remove();
                Check.Throws(SinewStatus.ErrorInvalidHandle, () => em.Set(e), "sinew_emitter_set");
                var k = KillVolumeSettings.Default;
                k.Shape = SinewKillVolumeShape.HalfSpace;
                k.Center = new SinewVec3(0, -1, 0);
                k.Normal = new SinewVec3(0, 1, 0);
                var kv = f.AddKillVolume(k);
                for (int i = 0; i < 120; i++) w.Step(Dt);
                st = f.Stats;
                Check.Equal(0, st.Count, "every particle fell through the kill plane");
                Check.Equal(st.Emitted, st.Removed, "all removed");
                kv.Remove();
                Check.Throws(SinewStatus.ErrorInvalidHandle, () => kv.Remove(), "sinew_kill_volume_remove");
                var bad = KillVolumeSettings.Default;
                bad.Radius = -1f;
                bad.Shape = SinewKillVolumeShape.Sphere;
                Check.Throws(SinewStatus.ErrorInvalidArgument, () => f.AddKillVolume(bad), "sinew_fluid_add_kill_volume");
                var badE = EmitterSettings.Default;
                badE.Rate = -5f;
                Check.Throws(SinewStatus.ErrorInvalidArgument, () => f.AddEmitter(badE), "sinew_fluid_add_emitter", "rate");
            }
        }

        static SinewVec3 RopeUnderFluid(bool coupled)
        {
            using (var w = NativeBodyTests.MakeWorld(G, 1))
            {
                var rope = RopeSettings.Default;
                rope.Start = new SinewVec3(-0.3f, 0.9f, 0f);
                rope.End = new SinewVec3(0.3f, 0.9f, 0f);
                rope.Segments = 12;
                rope.PinEnd = true;
                rope.Tethers = false;
                var body = w.AddRope(rope);
                var radii = new float[body.ParticleCount];
                for (int k = 0; k < radii.Length; k++) radii[k] = 0.025f;
                w.SetParticleRadii(body.FirstParticle, radii);
                body.SetFluidCoupling(coupled);
                var f = w.AddFluid(Small(216));
                var p = new Vector3[216];
                for (int k = 0; k < 216; k++)
                    p[k] = new Vector3(-0.125f + 0.05f * (k % 6), 0.875f + 0.05f * (k / 36), -0.125f + 0.05f * ((k / 6) % 6));
                f.Emit(p);
                w.Step(Dt);
                return body.FluidForce;
            }
        }

        /// <summary>A rope (its particles given a radius) along the bottom of a block of
        /// fluid, one substep per step: coupled, the fluid pushes it down; switched off,
        /// exactly no force.</summary>
        public static void TestCouplingSwitchAndForce()
        {
            var on = RopeUnderFluid(true);
            Check.True(on.y < -1f, "coupled rope pushed down: " + on.y + " N");
            var off = RopeUnderFluid(false);
            Check.Equal(0f, off.x, "no force x");
            Check.Equal(0f, off.y, "no force y");
            Check.Equal(0f, off.z, "no force z");
        }

        /// <summary>Bad settings are refused naming the field; a removed fluid's calls throw
        /// ErrorInvalidHandle; Dispose is idempotent; a body's coupling switch and force.</summary>
        public static void TestBadInputRemovalAndBodies()
        {
            using (var w = NativeBodyTests.MakeWorld(G, 4))
            {
                var s = Small(8);
                s.RestDensity = -1f;
                Check.Throws(SinewStatus.ErrorInvalidArgument, () => w.AddFluid(s), "sinew_world_add_fluid", "rest_density");
                s = Small(0);
                Check.Throws(SinewStatus.ErrorInvalidArgument, () => w.AddFluid(s), "sinew_world_add_fluid", "capacity");
                s = Small(8);
                s.SmoothingRadius = s.Spacing * 0.5f;
                Check.Throws(SinewStatus.ErrorInvalidArgument, () => w.AddFluid(s), "sinew_world_add_fluid", "smoothing_radius");
                Check.Equal(0, w.FluidCount, "nothing added");
                Check.Equal(0, w.ParticleCount, "no particle reserved");

                var rope = RopeSettings.Default;
                rope.Segments = 4;
                var body = w.AddRope(rope);
                var f = w.AddFluid(Small(8));
                var em = f.AddEmitter(EmitterSettings.Default);
                body.SetFluidCoupling(false);
                body.SetFluidCoupling(true);
                w.Step(Dt);
                var force = body.FluidForce;
                Check.True(!float.IsNaN(force.x) && !float.IsNaN(force.y) && !float.IsNaN(force.z), "finite force");
                f.Remove();
                Check.True(f.IsRemoved, "removed");
                Check.Equal(0, w.FluidCount, "no fluid left");
                Check.Throws(SinewStatus.ErrorInvalidHandle, () => { var x = f.Stats; }, "sinew_fluid_stats");
                Check.Throws(SinewStatus.ErrorInvalidHandle, () => em.Set(EmitterSettings.Default), "sinew_emitter_set");
                f.Dispose();
                f.Dispose();
                body.Remove();
                Check.Throws(SinewStatus.ErrorInvalidHandle, () => body.SetFluidCoupling(true), "sinew_body_set_fluid_coupling");
                Check.Throws(SinewStatus.ErrorInvalidHandle, () => { var x = body.FluidForce; }, "sinew_body_fluid_force");
                var g = w.AddFluid(Small(8));
                w.Dispose();
                g.Dispose();
            }
        }
    }
}

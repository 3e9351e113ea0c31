// SinewFluidHandle's engine-neutral half (unity-sample/Runtime/SinewFluidAuthoring.cs, compiled
// into these tests): the component builds and edits its fluid, emitter and kill volumes
// only through it, so these are the component's own code paths against the library.
// Settings apply in place (Capacity and Spacing stay as built), a refused value changes
// nothing, an emitter follows its pose (a nozzle of radius 0 emits one particle per
// 1/rate s along its +z at its speed), kill boxes from box colliders remove what is
// inside, the drawing's batches and speed colours follow their closed forms, the
// ellipsoids' instance transforms are the ellipsoids (a unit sphere's point on +x lands on
// the longest axis's tip; the columns orthogonal), and the diffuse settings apply once,
// refuse a bad value without a trace and fade the drawn opacity.

using System;
using Sinew;
using Sinew.Native;
using Sinew.Unity;

namespace SinewTests
{
    public static class FluidAuthoringTests
    {
        const float Dt = 1f / 60f;

        static World Weightless()
        {
            var s = WorldSettings.Default;
            s.Gravity = new SinewVec3(0f, 0f, 0f);
            s.Substeps = 4;
            s.Threads = 1;
            s.Damping = 0f;
            return new World(s);
        }

        static FluidSettings Water(int capacity)
        {
            FluidSettings s = FluidSettings.Default;
            s.Spacing = 0.05f;
            s.Capacity = capacity;
            return s;
        }

        public static void TestBatchesAndSpeedColours()
        {
            Check.Equal(0, SinewFluidAuthoring.Batches(0), "no particles, no draw call");
            Check.Equal(1, SinewFluidAuthoring.Batches(1), "1 particle");
            Check.Equal(1, SinewFluidAuthoring.Batches(1023), "1023 particles: one call");
            Check.Equal(2, SinewFluidAuthoring.Batches(1024), "1024 particles: two calls");
            Check.Equal(5, SinewFluidAuthoring.Batches(4096), "4096 particles: five calls");
            Check.Near(0.5, SinewFluidAuthoring.SpeedFraction(new SinewVec3(3f, 4f, 0f), 10f), 1e-7, "|(3,4,0)| / 10");
            Check.Near(1.0, SinewFluidAuthoring.SpeedFraction(new SinewVec3(3f, 4f, 0f), 2f), 0.0, "clamped at 1");
            Check.Near(0.0, SinewFluidAuthoring.SpeedFraction(new SinewVec3(0f, 0f, 0f), 2f), 0.0, "at rest");
            Check.Near(0.0, SinewFluidAuthoring.SpeedFraction(new SinewVec3(float.NaN, 0f, 0f), 2f), 0.0, "NaN draws as rest");
            Check.Near(1.0, SinewFluidAuthoring.SpeedFraction(new SinewVec3(float.PositiveInfinity, 0f, 0f), 2f), 0.0,
                       "infinite speed draws as fast");
        }

        public static void TestSettingsApplyInPlaceExceptCapacityAndSpacing()
        {
            using (var w = Weightless())
            {
                FluidSettings built = Water(64);
                Fluid fluid = w.AddFluid(built);
                FluidSettings applied = built;
                FluidSettings wanted = built;
                Check.True(!SinewFluidAuthoring.EditFluid(fluid, ref applied, wanted), "nothing to apply");

                wanted.Viscosity = 0.2f;
                wanted.RestDensity = 800f;
                wanted.Cohesion = 0.5f;
                Check.True(SinewFluidAuthoring.EditFluid(fluid, ref applied, wanted), "edits apply");
                FluidSettings now = fluid.Settings;
                Check.Equal(0.2f, now.Viscosity, "viscosity in place");
                Check.Equal(800f, now.RestDensity, "rest density in place");
                Check.Equal(0.5f, now.Cohesion, "cohesion in place");
                Check.Equal(0.2f, applied.Viscosity, "applied records the edit");

                wanted.Spacing = 0.1f;
                wanted.Capacity = 128;
                Check.Equal("Capacity", SinewFluidAuthoring.FluidRebuildReason(applied, wanted), "capacity needs a rebuild");
                Check.True(!SinewFluidAuthoring.EditFluid(fluid, ref applied, wanted), "spacing and capacity wait for a rebuild");
                Check.Equal(0.05f, fluid.Settings.Spacing, "spacing as built");
                Check.Equal(64, fluid.Settings.Capacity, "capacity as built");

                FluidSettings before = applied;
                wanted = applied;
                wanted.RestDensity = -1f;
                Check.Throws(SinewStatus.ErrorInvalidArgument, () => SinewFluidAuthoring.EditFluid(fluid, ref applied, wanted),
                             "rest_density");
                Check.Equal(before.RestDensity, applied.RestDensity, "a refused edit is not recorded");
                Check.Equal(800f, fluid.Settings.RestDensity, "a refused edit changes nothing");
            }
        }

        public static void TestNozzleFollowsItsPoseAndRate()
        {
            using (var w = Weightless())
            {
                Fluid fluid = w.AddFluid(Water(256));
                Emitter emitter = null;
                var applied = default(FluidEmitterOptions);
                var wanted = new FluidEmitterOptions
                {
                    Kind = FluidEmitterKind.None,
                    Rotation = new SinewQuat(0f, 0f, 0f, 1f),
                };
                Check.True(!SinewFluidAuthoring.SyncEmitter(fluid, ref emitter, ref applied, wanted), "None: no emitter");
                Check.True(emitter == null, "still none");

                // A nozzle of radius 0 at (1, 2, 3) pointing along +x (+z turned by 90° about y):
                // 60 particles/s at 6 m/s, one per step on its axis, 10 cm (the smoothing
                // radius) apart. In a weightless world they do not touch each other's kernels
                // and share one velocity: each keeps the speed it left with.
                float s = (float)Math.Sqrt(0.5);
                wanted.Kind = FluidEmitterKind.Nozzle;
                wanted.NozzleRadius = 0f;
                wanted.Position = new SinewVec3(1f, 2f, 3f);
                wanted.Rotation = new SinewQuat(0f, s, 0f, s);
                wanted.Speed = 6f;
                wanted.Rate = 60f;
                Check.True(SinewFluidAuthoring.SyncEmitter(fluid, ref emitter, ref applied, wanted), "the nozzle is added");
                Check.True(emitter != null, "an emitter exists");
                Check.True(!SinewFluidAuthoring.SyncEmitter(fluid, ref emitter, ref applied, wanted), "the same pose: nothing to do");
                for (int i = 0; i < 30; i++)
                    w.Step(Dt);
                FluidStats st = fluid.Stats;
                Check.True(Math.Abs((long)st.Emitted - 30) <= 1, "60 particles/s for 0.5 s: " + st.Emitted);
                var p = new SinewVec3[256];
                var v = new SinewVec3[256];
                int n = fluid.ReadParticles(1f, p, v, null);
                Check.Equal((int)st.Count, n, "every live particle is read");
                for (int k = 0; k < n; k++)
                {
                    Check.Near(6.0, v[k].x, 1e-3, "particle " + k + " moves along the nozzle's +z (world +x)");
                    Check.Near(0.0, v[k].y, 1e-3, "no sideways velocity");
                    Check.Near(0.0, v[k].z, 1e-3, "no sideways velocity");
                    Check.Near(2.0, p[k].y, 1e-3, "on the nozzle's axis (y)");
                    Check.Near(3.0, p[k].z, 1e-3, "on the nozzle's axis (z)");
                    Check.True(p[k].x >= 1f - 1e-4f && p[k].x <= 1f + 6f * (0.5f + Dt) + 1e-3f,
                               "between the nozzle and 0.5 s (and the step's emission spread) downstream: x = " + p[k].x + " (particle " + k + ")");
                }

                // Moved: the stream starts where the nozzle is now.
                wanted.Position = new SinewVec3(-5f, 0f, 0f);
                Check.True(SinewFluidAuthoring.SyncEmitter(fluid, ref emitter, ref applied, wanted), "a moved nozzle is set in place");
                int before = (int)fluid.Stats.Count;
                w.Step(Dt);
                n = fluid.ReadParticles(1f, p, v, null);
                Check.True(n > before, "it goes on emitting");
                Check.True(p[n - 1].x < -4f, "the newest particle left the moved nozzle");

                wanted.Kind = FluidEmitterKind.None;
                Check.True(SinewFluidAuthoring.SyncEmitter(fluid, ref emitter, ref applied, wanted), "None removes it");
                Check.True(emitter == null, "no emitter left");
                long emitted = (long)fluid.Stats.Emitted;
                w.Step(Dt);
                Check.Equal(emitted, (long)fluid.Stats.Emitted, "a removed emitter emits no more");
            }
        }

        public static void TestKillBoxesFromBoxColliders()
        {
            KillVolumeSettings box = SinewFluidAuthoring.KillBox(new SinewVec3(0f, 1f, 0f), new SinewQuat(0f, 0f, 0f, 1f),
                                                                 new SinewVec3(2f, 4f, 6f), new SinewVec3(1f, -1f, 0.5f));
            Check.Equal(SinewKillVolumeShape.Box, box.Shape, "a box");
            Check.Near(1.0, box.HalfExtents.x, 0.0, "half of 2 × 1");
            Check.Near(2.0, box.HalfExtents.y, 0.0, "half of 4 × |-1|");
            Check.Near(1.5, box.HalfExtents.z, 0.0, "half of 6 × 0.5");
            using (var w = Weightless())
            {
                Fluid fluid = w.AddFluid(Water(64));
                var inside = new[] { new SinewVec3(0f, 1f, 0f), new SinewVec3(0.5f, 2f, 1f) };
                var outside = new[] { new SinewVec3(5f, 1f, 0f) };
                fluid.Emit(inside);
                fluid.Emit(outside);
                var volumes = new KillVolume[0];
                var applied = new KillVolumeSettings[0];
                int count = 0;
                var wanted = new[] { box };
                Check.True(SinewFluidAuthoring.SyncKillVolumes(fluid, ref volumes, ref applied, ref count, wanted, 1), "added");
                Check.True(!SinewFluidAuthoring.SyncKillVolumes(fluid, ref volumes, ref applied, ref count, wanted, 1), "unchanged");
                w.Step(Dt);
                FluidStats st = fluid.Stats;
                Check.Equal(1, st.Count, "the particle outside the box is left");
                Check.Equal(2L, st.Removed, "the two inside were removed");
                var p = new SinewVec3[64];
                fluid.ReadParticles(1f, p, null, null);
                Check.Near(5.0, p[0].x, 1e-5, "the survivor moved into slot 0");

                // The box moves over the survivor: removed and added again, in place.
                wanted[0].Center = new SinewVec3(5f, 1f, 0f);
                Check.True(SinewFluidAuthoring.SyncKillVolumes(fluid, ref volumes, ref applied, ref count, wanted, 1), "moved");
                w.Step(Dt);
                Check.Equal(0, fluid.Stats.Count, "the moved box removed it");
                Check.True(SinewFluidAuthoring.SyncKillVolumes(fluid, ref volumes, ref applied, ref count, wanted, 0), "all removed");
                Check.Equal(0, count, "no volume left");
                fluid.Emit(outside);
                w.Step(Dt);
                Check.Equal(1, fluid.Stats.Count, "without kill volumes the particle stays");

                wanted[0] = SinewFluidAuthoring.KillSphere(new SinewVec3(0f, 0f, 0f), -1f);
                Check.Throws(SinewStatus.ErrorInvalidArgument,
                             () => SinewFluidAuthoring.SyncKillVolumes(fluid, ref volumes, ref applied, ref count, wanted, 1),
                             "radius");
                Check.Equal(0, count, "a refused volume is not recorded");
            }
        }

        static double Dot(SinewVec3 a, SinewVec3 b) { return (double)a.x * b.x + (double)a.y * b.y + (double)a.z * b.z; }

        public static void TestEllipsoidTransformsAreTheEllipsoids()
        {
            InstanceTransform s = SinewFluidAuthoring.Sphere(new SinewVec3(1f, 2f, 3f), 0.1f, 0.5f);
            Check.Equal(0.1f, s.X.x, "a diameter-1 mesh scaled to 0.1 m");
            Check.Equal(0.1f, s.Z.z, "uniformly");
            Check.Equal(0f, s.X.y, "no rotation");
            Check.Equal(3f, s.T.z, "at the point");
            using (var w = Weightless())
            {
                const int N = 8;
                Fluid fluid = w.AddFluid(Water(N * N * N));
                var at = new SinewVec3[N * N * N];
                for (int k = 0; k < at.Length; k++)
                    at[k] = new SinewVec3((k % N) * 0.05f, (k / N % N) * 0.05f, (k / (N * N)) * 0.05f);
                fluid.Emit(at);
                w.Step(Dt);
                var e = new SinewFluidEllipsoid[at.Length];
                AnisotropySettings a = SinewFluidAuthoring.Anisotropy(1.25f, 0.9f, 4f, 0.5f);
                Check.Equal(1.25f, a.Scale, "k_s");
                Check.Equal(6, a.MinNeighbours, "the rest are the library's defaults");
                Check.Equal(at.Length, fluid.ReadAnisotropy(a, 1f, e), "every particle");
                foreach (SinewFluidEllipsoid el in e)
                {
                    InstanceTransform t = SinewFluidAuthoring.Ellipsoid(el, 0.5f);
                    // The mesh's point (0.5, 0, 0) maps to centre + axis0.
                    Check.Near(el.center.x + el.axis0.x, t.T.x + 0.5 * t.X.x, 1e-6, "x tip");
                    Check.Near(el.center.y + el.axis0.y, t.T.y + 0.5 * t.X.y, 1e-6, "y tip");
                    double lx = Math.Sqrt(Dot(t.X, t.X)), ly = Math.Sqrt(Dot(t.Y, t.Y)), lz = Math.Sqrt(Dot(t.Z, t.Z));
                    Check.True(lx >= ly * (1 - 1e-5) && ly >= lz * (1 - 1e-5), "longest first");
                    Check.True(lz > 0.0, "never flat to nothing");
                    Check.Near(0.0, Dot(t.X, t.Y) / (lx * ly), 1e-4, "x, y orthogonal");
                    Check.Near(0.0, Dot(t.Y, t.Z) / (ly * lz), 1e-4, "y, z orthogonal");
                    Check.True(lx <= 4.0 * lz * (1 + 1e-4), "k_r clamps the stretch");
                }
            }
        }

        public static void TestDiffuseSettingsApplyOnceAndFade()
        {
            DiffuseSettings off = SinewFluidAuthoring.Diffuse(false, 500, 1.5f, 20f, 2f);
            Check.Equal(0, off.Capacity, "off: no capacity");
            DiffuseSettings on = SinewFluidAuthoring.Diffuse(true, 500, 1.5f, 20f, 2f);
            Check.Equal(500, on.Capacity, "capacity");
            Check.Equal(1.5f, on.Lifetime, "lifetime");
            Check.Equal(20f, on.TrappedAirRate, "rate: trapped air");
            Check.Equal(20f, on.WaveCrestRate, "rate: wave crests");
            Check.Near(2.0, on.EnergyMin, 1e-6, "1/2 v^2 at 2 m/s");
            Check.Near(20.0, on.EnergyMax, 1e-5, "full at ten times");
            using (var w = Weightless())
            {
                Fluid fluid = w.AddFluid(Water(64));
                DiffuseSettings applied = fluid.Diffuse;
                Check.Equal(0, applied.Capacity, "none by default");
                Check.True(!SinewFluidAuthoring.SyncDiffuse(fluid, ref applied, off), "off stays off");
                Check.True(SinewFluidAuthoring.SyncDiffuse(fluid, ref applied, on), "on applies");
                Check.Equal(500, fluid.Diffuse.Capacity, "in the library");
                Check.True(!SinewFluidAuthoring.SyncDiffuse(fluid, ref applied, on), "unchanged: nothing to do");
                DiffuseSettings bad = on;
                bad.Lifetime = -1f;
                Check.Throws(SinewStatus.ErrorInvalidArgument, () => SinewFluidAuthoring.SyncDiffuse(fluid, ref applied, bad),
                             "lifetime");
                Check.Equal(1.5f, applied.Lifetime, "a refused value is not recorded");
                Check.Equal(1.5f, fluid.Diffuse.Lifetime, "nor applied");
            }
            var p = new SinewDiffuseParticle { lifetime = 1f, kind = (uint)SinewDiffuseKind.Spray };
            Check.Near(0.9, SinewFluidAuthoring.DiffuseOpacity(p, 0.3f), 1e-6, "spray");
            p.kind = (uint)SinewDiffuseKind.Foam;
            Check.Near(1.0, SinewFluidAuthoring.DiffuseOpacity(p, 0.3f), 1e-6, "foam");
            p.kind = (uint)SinewDiffuseKind.Bubble;
            Check.Near(0.5, SinewFluidAuthoring.DiffuseOpacity(p, 0.3f), 1e-6, "bubble");
            p.kind = (uint)SinewDiffuseKind.Foam;
            p.lifetime = 0.15f;
            Check.Near(0.5, SinewFluidAuthoring.DiffuseOpacity(p, 0.3f), 1e-6, "half way through its fade");
            p.lifetime = 0f;
            Check.Near(0.0, SinewFluidAuthoring.DiffuseOpacity(p, 0.3f), 0.0, "dead");
        }
    }
}

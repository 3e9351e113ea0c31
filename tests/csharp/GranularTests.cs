// Granular materials through the idiomatic C# layer: a grain on a tilted floor of pinned
// grains sticks with friction and slides without, the material reads back, and bad input
// is refused with the native message.

using System;
using Sinew;
using Sinew.Native;

namespace SinewTests
{
    public static class GranularTests
    {
        // A grain (r = 1 cm) resting on a floor of pinned grains 1 mm apart, gravity tilted by
        // 20°; returns how far it moved along the slope (m) in 0.5 s.
        static float Slide(ParticleMaterialSettings material)
        {
            var settings = WorldSettings.Default;
            double t = 20.0 * Math.PI / 180.0;
            settings.Gravity = new SinewVec3((float)(9.81 * Math.Sin(t)), (float)(-9.81 * Math.Cos(t)), 0f);
            settings.Substeps = 16;
            settings.Iterations = 4;
            using (var w = new World(settings))
            {
                const int n = 201;
                var floor = new SinewVec3[n];
                for (int i = 0; i < n; i++)
                    floor[i] = new SinewVec3(-0.1f + 0.001f * i, 0f, 0f);
                int f = w.AddParticles(floor, new float[n]);
                int g = w.AddParticles(new[] { new SinewVec3(0f, 0.02f, 0f) }, new[] { 100f });
                var radii = new float[n + 1];
                for (int i = 0; i <= n; i++)
                    radii[i] = 0.01f;
                w.SetParticleRadii(f, radii);
                w.SetParticleMaterial(f, n + 1, material);
                for (int i = 0; i < 30; i++)
                    w.Step(1f / 60f);
                var x = new SinewVec3[1];
                w.ReadPositions(g, x);
                return x[0].x;
            }
        }

        public static void TestFrictionHoldsAGrainBelowTheFrictionAngle()
        {
            var sand = ParticleMaterialSettings.Default;
            Check.Near(0.0, sand.StaticFriction, 0.0, "frictionless by default");
            sand.StaticFriction = 0.6f;
            sand.DynamicFriction = 0.5f;
            Check.Near(0.0, Slide(sand), 1e-4, "μ 0.6 holds at 20° (atan 0.6 = 31°)");
            Check.True(Slide(ParticleMaterialSettings.Default) > 0.1f, "frictionless slides");
        }

        public static void TestParticleMaterialReadsBackAndBadInputIsRefused()
        {
            using (var w = new World(WorldSettings.Default))
            {
                int p = w.AddParticles(new[] { new SinewVec3(0f, 1f, 0f), new SinewVec3(0f, 2f, 0f) });
                var wet = ParticleMaterialSettings.Default;
                wet.StaticFriction = 0.8f;
                wet.DynamicFriction = 0.6f;
                wet.RollingFriction = 0.1f;
                wet.Cohesion = 500f;
                w.SetParticleMaterial(p + 1, 1, wet);
                var back = w.ParticleMaterial(p + 1);
                Check.Near(0.8, back.StaticFriction, 1e-7, "static friction");
                Check.Near(500.0, back.Cohesion, 0.0, "cohesion");
                Check.Near(0.0, w.ParticleMaterial(p).Cohesion, 0.0, "the other particle keeps the default");
                var bad = wet;
                bad.DynamicFriction = 0.9f;
                Check.Throws(SinewStatus.ErrorInvalidArgument, () => w.SetParticleMaterial(p, 2, bad),
                    "sinew_world_set_particle_material", "dynamic_friction");
                bad = wet;
                bad.Cohesion = -1f;
                Check.Throws(SinewStatus.ErrorInvalidArgument, () => w.SetParticleMaterial(p, 2, bad), "cohesion");
                Check.Throws(SinewStatus.ErrorOutOfRange, () => w.SetParticleMaterial(p, 3, wet),
                    "sinew_world_set_particle_material");
            }
        }

        public static void TestGrainEmitterPoursUpToItsBudget()
        {
            using (var w = new World(WorldSettings.Default))
            {
                var grains = GrainEmitterSettings.Default;
                grains.Budget = 20;
                grains.GrainRadius = 0.01f;
                var stream = EmitterSettings.Default;
                stream.Radius = 0f;
                stream.Speed = 1f;
                stream.Rate = 40f;
                var sand = ParticleMaterialSettings.Default;
                sand.StaticFriction = 0.6f;
                sand.DynamicFriction = 0.5f;
                var pour = w.AddGrainEmitter(grains, stream, sand);
                for (int i = 0; i < 15; i++)
                    w.Step(1f / 60f);
                Check.Near(10.0, pour.Emitted, 0.0, "40 grains/s for 0.25 s");
                for (int i = 0; i < 60; i++)
                    w.Step(1f / 60f);
                Check.Near(20.0, pour.Emitted, 0.0, "the budget stops the pour");
                Check.Near(0.6, w.ParticleMaterial(pour.First + 19).StaticFriction, 1e-7, "the grains have the material");
                grains.GrainRadius = -1f;
                Check.Throws(SinewStatus.ErrorInvalidArgument, () => w.AddGrainEmitter(grains, stream, sand),
                    "sinew_world_add_grain_emitter", "grain_radius");
                pour.Remove();
                Check.Throws(SinewStatus.ErrorInvalidHandle, () => { var _ = pour.Emitted; }, "sinew_grain_emitter_stats");
            }
        }
    }
}

// Wind and skinned targets through the idiomatic layer: a flat cloth falls at its
// terminal speed sqrt(2 m g / (rho C_d A)), zones add their wind, a particle with max
// distance r hangs r below its target, the anim drive deflects by m g alpha; bad input.

using System;
using Sinew;
using Sinew.Native;

namespace SinewTests
{
    public static class CharacterClothTests
    {
        const float G = 9.81f;
        const float Dt = 1f / 60f;

        static Body Patch(World w, float mass, int segments, float y)
        {
            var cloth = ClothSettings.Default;
            cloth.BendCompliance = 0f;
            cloth.ShearCompliance = 0f;
            var grid = ClothGridSettings.Default;
            grid.Origin = new SinewVec3(-0.5f, y, -0.5f);
            grid.SegmentsU = segments;
            grid.SegmentsV = segments;
            grid.TotalMass = mass;
            return w.AddClothGrid(cloth, grid);
        }

        static float MeanVelocityY(World w, Body b)
        {
            var v = new Vector3[b.ParticleCount];
            w.ReadVelocities(b.FirstParticle, v);
            float sum = 0;
            foreach (var x in v) sum += x.y;
            return sum / v.Length;
        }

        /// <summary>A 1 m² cloth of 0.1 kg with C_d = 1 in air of 1.225 kg/m³ falls at
        /// sqrt(2 m g / (rho C_d A)) = 1.2656 m/s.</summary>
        public static void TestFlatClothFallsAtItsTerminalSpeed()
        {
            using (var w = NativeBodyTests.MakeWorld(G, 16))
            {
                var c = Patch(w, 0.1f, 4, 10f);
                c.SetAerodynamics(1f, 0f);
                for (int i = 0; i < 120; i++) w.Step(Dt);
                double expected = Math.Sqrt(2 * 0.1 * G / (1.225 * 1.0));
                Check.Rel(expected, -MeanVelocityY(w, c), 0.01, "terminal speed");
            }
        }

        /// <summary>The world wind plus a sphere zone, read back at points; bad settings throw
        /// and change nothing.</summary>
        public static void TestWindFieldAndZones()
        {
            using (var w = NativeBodyTests.MakeWorld(G, 4))
            {
                var wind = WindSettings.Default;
                Check.Near(1.225, wind.AirDensity, 1e-6, "default air density");
                wind.Velocity = new SinewVec3(1f, 0f, 2f);
                w.SetWind(wind);
                var zone = WindZoneSettings.Default;
                zone.Shape = SinewWindZoneShape.Sphere;
                zone.Position = new SinewVec3(0f, 5f, 0f);
                zone.Radius = 2f;
                zone.Direction = new SinewVec3(0f, 1f, 0f);
                zone.Strength = 3f;
                int id = w.AddWindZone(zone);
                Check.Equal(0, id, "first zone id");
                var u = w.WindAt(new SinewVec3(0f, 5.5f, 0f));
                Check.Near(3f, u.y, 1e-6, "zone wind");
                Check.Near(1f, u.x, 1e-6, "world wind");
                zone.Position = new SinewVec3(0f, 50f, 0f);
                w.SetWindZone(id, zone);
                Check.Near(0f, w.WindAt(new SinewVec3(0f, 5.5f, 0f)).y, 1e-6, "moved zone");
                w.RemoveWindZone(id);
                Check.Throws(SinewStatus.ErrorInvalidArgument, () => w.RemoveWindZone(id), "removed");
                wind.AirDensity = -1f;
                Check.Throws(SinewStatus.ErrorInvalidArgument, () => w.SetWind(wind), "air_density");
                Check.Near(1f, w.WindAt(new SinewVec3(0f, 0f, 0f)).x, 1e-6, "wind unchanged");
            }
        }

        /// <summary>Max distance r: the patch hangs exactly r below its targets; the anim drive
        /// (compliance alpha) deflects each particle by m g alpha; teleport lands on the
        /// targets.</summary>
        public static void TestSkinnedTargets()
        {
            foreach (bool drive in new[] { false, true })
            {
                using (var w = NativeBodyTests.MakeWorld(G, 8, 5f))
                {
                    var c = Patch(w, 0.9f, 2, 1f); // 9 particles of 0.1 kg
                    var rest = new Vector3[c.ParticleCount];
                    c.ReadPositions(rest);
                    var weights = new SkinWeights[c.ParticleCount];
                    for (int i = 0; i < weights.Length; i++)
                    {
                        weights[i] = SkinWeights.None;
                        if (drive) weights[i].DriveCompliance = 0.05f;
                        else weights[i].MaxDistance = 0.2f;
                    }
                    c.SetSkinWeights(weights);
                    var up = new Vector3[rest.Length];
                    for (int i = 0; i < up.Length; i++) up[i] = new Vector3(0f, 1f, 0f);
                    c.SetSkinTargets(rest, up);
                    c.SetSkinRoot(new SinewVec3(0f, 0f, 0f), new SinewQuat(0f, 0f, 0f, 1f), 1f, 1f);
                    for (int i = 0; i < 600; i++) w.Step(Dt);
                    var p = new Vector3[rest.Length];
                    c.ReadPositions(p);
                    double expected = drive ? 0.1 * G * 0.05 : 0.2;
                    Check.Rel(expected, rest[4].y - p[4].y, drive ? 0.01 : 1e-4, drive ? "drive deflection" : "max distance");
                    c.TeleportToSkin();
                    c.ReadPositions(p);
                    Check.Near(rest[4].y, p[4].y, 1e-6, "teleported");
                    weights[0].MaxDistance = float.NaN;
                    Check.Throws(SinewStatus.ErrorInvalidArgument, () => c.SetSkinWeights(weights), "max_distance");
                    Check.Throws(SinewStatus.ErrorInvalidArgument, () => c.SetAerodynamics(11f, 0f), "drag");
                }
            }
        }
    }
}

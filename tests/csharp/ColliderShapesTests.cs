// The Unity package's collider mapping (unity-sample/Runtime/ColliderShapes.cs: Unity
// Sphere/Box/Capsule collider parameters and scale -> ColliderSettings), checked on
// Mono against the real library: the numbers, and particles resting on the colliders
// where the geometry says. ColliderShapes uses Sinew types only (no UnityEngine), so
// run.sh compiles it into the test program.

using System;
using Sinew;
using Sinew.Native;
using Sinew.Unity;

namespace SinewTests
{
    public static class ColliderShapesTests
    {
        static readonly SinewQuat Id = new SinewQuat(0, 0, 0, 1);
        static readonly SinewVec3 Zero = new SinewVec3(0, 0, 0);

        static SinewVec3 Rotate(SinewQuat q, SinewVec3 v)
        {
            var p = new SinewQuat(v.x, v.y, v.z, 0);
            var c = new SinewQuat(-q.x, -q.y, -q.z, q.w);
            var r = ColliderShapes.Multiply(ColliderShapes.Multiply(q, p), c);
            return new SinewVec3(r.x, r.y, r.z);
        }

        /// <summary>Drops a point particle from y = 5 at (x, z) onto the collider `d` for
        /// 4 s and returns where it rests (y).</summary>
        static float RestY(ColliderSettings d, float x, float z)
        {
            using (var w = new World(WorldSettings.Default))
            {
                w.AddCollider(d);
                int p = w.AddParticles(new[] { new SinewVec3(x, 5f, z) });
                for (int i = 0; i < 240; i++)
                    w.Step(1f / 60f);
                var o = new SinewVec3[1];
                w.ReadPositions(p, o);
                return o[0].y;
            }
        }

        public static void TestCapsuleAxisRotationMapsYOntoUnityDirection()
        {
            for (int dir = 0; dir < 3; dir++)
            {
                var a = Rotate(ColliderShapes.YToAxis(dir), new SinewVec3(0, 1, 0));
                Check.Near(dir == 0 ? 1 : 0, a.x, 1e-6, "axis " + dir + " x");
                Check.Near(dir == 1 ? 1 : 0, a.y, 1e-6, "axis " + dir + " y");
                Check.Near(dir == 2 ? 1 : 0, a.z, 1e-6, "axis " + dir + " z");
            }
            // A Z capsule on an object turned 90° about Y lies along world X.
            var yaw = new SinewQuat(0, (float)Math.Sqrt(0.5), 0, (float)Math.Sqrt(0.5));
            var cz = ColliderShapes.Capsule(ColliderSettings.Default, 0.25f, 3f, 2, new SinewVec3(1, 1, 1), Zero, yaw);
            var ax = Rotate(cz.Rotation, new SinewVec3(0, 1, 0));
            Check.Near(1, ax.x, 1e-6, "yawed Z capsule axis x");
            Check.Near(0, ax.z, 1e-6, "yawed Z capsule axis z");
        }

        public static void TestScaleAppliesAsUnityDoes()
        {
            var d0 = ColliderSettings.Default;
            var s = ColliderShapes.Sphere(d0, 0.5f, new SinewVec3(1, -3, 2), Zero, Id);
            Check.Near(1.5, s.Radius, 1e-6, "sphere radius × max |scale|");
            var b = ColliderShapes.Box(d0, new SinewVec3(1, 2, 3), new SinewVec3(2, -1, 0.5f), Zero, Id);
            Check.Near(1, b.HalfExtents.x, 1e-6, "box half x");
            Check.Near(1, b.HalfExtents.y, 1e-6, "box half y");
            Check.Near(0.75, b.HalfExtents.z, 1e-6, "box half z");
            // Capsule r 0.5 height 4 along X, scale (2, 1, 3): radius 0.5 × 3, half length
            // 4 × 2 / 2 − 1.5.
            var c = ColliderShapes.Capsule(d0, 0.5f, 4f, 0, new SinewVec3(2, 1, 3), Zero, Id);
            Check.Equal(SinewShape.Capsule, c.Shape, "capsule shape");
            Check.Near(1.5, c.Radius, 1e-6, "capsule radius");
            Check.Near(2.5, c.HalfHeight, 1e-6, "capsule half height");
            // No taller than its diameter: a sphere (the library rejects half height 0).
            var cs = ColliderShapes.Capsule(d0, 0.5f, 0.8f, 1, new SinewVec3(1, 1, 1), Zero, Id);
            Check.Equal(SinewShape.Sphere, cs.Shape, "short capsule shape");
            Check.Near(0.5, cs.Radius, 0, "short capsule radius");
        }

        public static void TestParticlesRestOnTheMappedColliders()
        {
            var d0 = ColliderSettings.Default;
            var one = new SinewVec3(1, 1, 1);
            Check.Near(2.0, RestY(ColliderShapes.Sphere(d0, 0.5f, new SinewVec3(2, 2, 2), new SinewVec3(0, 1, 0), Id), 0, 0),
                       0.02, "on top of a sphere of radius 1 at y = 1");
            Check.Near(0.25, RestY(ColliderShapes.Box(d0, one, new SinewVec3(4, 0.5f, 4), Zero, Id), 1.5f, 1.5f),
                       0.02, "on a 0.5 m thick box");
            var capsuleX = ColliderShapes.Capsule(d0, 0.25f, 3f, 0, one, Zero, Id);
            Check.Near(0.25, RestY(capsuleX, 1.2f, 0f), 0.02, "on an X capsule over its segment");
            Check.True(RestY(capsuleX, 1.8f, 0f) < -10f, "past the X capsule's end it falls by");
        }
    }
}

// Dynamic colliders through the idiomatic C# layer: particles falling on a light box
// floating in zero gravity push it (the box's momentum change is the wrench's impulse),
// a pinned particle drags the box, and bad input is refused with the native message.

using System;
using Sinew;
using Sinew.Native;

namespace SinewTests
{
    public static class DynamicColliderTests
    {
        static readonly SinewQuat Identity = new SinewQuat(0f, 0f, 0f, 1f);

        public static void TestParticlesPushALightBoxAndThePinDragsIt()
        {
            using (var w = new World(WorldSettings.Default))
            {
                var d = World.ColliderDesc();
                d.shape = (uint)SinewShape.Box;
                d.half_extents = new SinewVec3(0.5f, 0.1f, 0.5f);
                var box = w.AddCollider(d);
                const float mass = 0.5f;
                w.SetColliderDynamics(box, mass, new SinewVec3(0.05f, 0.08f, 0.05f), Identity,
                    new SinewVec3(0f, 0f, 0f), new SinewVec3(0f, 0f, 0f), new SinewVec3(0f, 0f, 0f));
                var points = new SinewVec3[9];
                for (int k = 0; k < 9; k++)
                    points[k] = new SinewVec3((k % 3) * 0.2f - 0.2f, 0.3f, (k / 3) * 0.2f - 0.2f);
                var inv = new float[9];
                for (int k = 0; k < 9; k++)
                    inv[k] = 10f;
                int p = w.AddParticles(points, inv);
                var radii = new float[9];
                for (int k = 0; k < 9; k++)
                    radii[k] = 0.03f;
                w.SetParticleRadii(p, radii);
                for (int i = 0; i < 40; i++)
                {
                    w.Step(1f / 60f);
                    var m = w.ReadColliderMotion(box);
                    SinewVec3 f, t;
                    w.ContactWrench(box, out f, out t);
                    Check.Near(m.VelocityChange.y * mass, f.y / 60f, 1e-4 + 1e-4 * Math.Abs(f.y / 60f),
                        "m Δv is the wrench's impulse");
                }
                Check.True(w.ReadColliderMotion(box).Velocity.y < -0.3f, "the pile pushes the box down");
                int pin = w.PinParticles(box, new[] { (uint)p }, new[] { new SinewVec3(0f, 0.13f, 0f) });
                Check.Equal(0, pin, "first pin");
                w.Step(1f / 60f);
                var forces = new SinewVec3[1];
                w.ReadPinForces(0, forces);
                Check.True(!float.IsNaN(forces[0].y), "pin force reads");
                w.RemovePins(0, 1);
                Check.Throws(SinewStatus.ErrorInvalidArgument,
                    () => w.SetColliderDynamics(box, -1f, new SinewVec3(1f, 1f, 1f), Identity,
                        new SinewVec3(0f, 0f, 0f), new SinewVec3(0f, 0f, 0f), new SinewVec3(0f, 0f, 0f)),
                    "mass");
                w.ClearColliderDynamics(box);
                Check.Throws(SinewStatus.ErrorInvalidArgument, () => w.ReadColliderMotion(box), "not dynamic");
            }
        }
    }
}

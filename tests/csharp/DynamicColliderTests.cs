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
                var d = ColliderSettings.Default;
                d.Shape = SinewShape.Box;
                d.HalfExtents = new SinewVec3(0.5f, 0.1f, 0.5f);
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

        // A WorldCollider owns its handle: the operations on the object, a particle's
        // bounce off a free dynamic box with restitution 0.5 (relative normal speed half
        // the approach, momentum kept), the contacts naming it, Remove and Dispose.
        public static void TestAWorldColliderOwnsItsHandleAndBouncesParticles()
        {
            var settings = WorldSettings.Default;
            settings.Gravity = new SinewVec3(0f, 0f, 0f);
            using (var w = new World(settings))
            {
                var d = ColliderSettings.Default;
                d.Shape = SinewShape.Box;
                d.HalfExtents = new SinewVec3(0.2f, 0.2f, 0.2f);
                WorldCollider box = w.AddCollider(d);
                Check.Equal(SinewShape.Box, box.Shape, "shape");
                Check.True(box.World == w && !box.IsRemoved, "owned by its world");
                const float mass = 2f, mp = 0.5f, v0 = -3f;
                float i = mass / 12f * (4f * 0.04f + 4f * 0.04f);
                box.SetDynamics(mass, new SinewVec3(i, i, i), Identity, new SinewVec3(0f, 0f, 0f),
                    new SinewVec3(0f, 0f, 0f), new SinewVec3(0f, 0f, 0f));
                box.SetMaterial(0f, 0f, 0.5f);
                int p = w.AddParticles(new[] { new SinewVec3(0f, 0.6f, 0f) }, new[] { 1f / mp });
                w.SetParticleRadii(p, new[] { 0.05f });
                w.WriteVelocities(p, new[] { new SinewVec3(0f, v0, 0f) });
                bool touched = false;
                var contacts = new Contact[4];
                for (int k = 0; k < 30; k++)
                {
                    w.Step(1f / 60f);
                    int n = w.ReadContacts(contacts);
                    if (n > 0)
                    {
                        touched = true;
                        Check.True(box.Is(contacts[0].Collider), "the contact names the box");
                    }
                }
                Check.True(touched, "the particle hit the box");
                var v = new SinewVec3[1];
                w.ReadVelocities(p, v);
                ColliderMotion m = box.ReadMotion();
                Check.Near(1.5, v[0].y - m.Velocity.y, 2e-3, "relative normal speed = -e × approach");
                Check.Near(mp * v0, mp * v[0].y + mass * m.Velocity.y, 1e-4, "momentum kept");
                SinewVec3 f, t;
                box.ContactWrench(new SinewVec3(0f, 0f, 0f), out f, out t);
                Check.True(!float.IsNaN(f.y), "wrench reads");
                box.ClearDynamics();
                Check.Throws(SinewStatus.ErrorInvalidArgument, () => box.ReadMotion(), "not dynamic");
                SinewColliderHandle raw = box;
                Check.Equal(box.Handle.id, raw.id, "implicit raw handle");
                box.SetTransform(new SinewVec3(1f, 0f, 0f), Identity, true);
                box.Remove();
                Check.True(box.IsRemoved, "removed");
                Check.Throws(SinewStatus.ErrorInvalidHandle, () => box.Remove(), "sinew_collider_remove");
                Check.Throws(SinewStatus.ErrorInvalidHandle, () => box.SetTransform(new SinewVec3(0f, 0f, 0f), Identity));
                box.Dispose(); // after Remove: nothing

                var plane = w.AddCollider(ColliderSettings.Default);
                Check.Equal(SinewShape.Plane, plane.Shape, "plane");
                int before = w.ColliderCount;
                plane.Dispose();
                Check.Equal(before - 1, w.ColliderCount, "Dispose removes the collider");
                Check.True(plane.IsRemoved, "disposed");
                var kept = w.AddCollider(ColliderSettings.Default);
                w.Dispose();
                kept.Dispose(); // its world is gone, and the collider with it: nothing
                Check.ThrowsDisposed(() => kept.SetMaterial(0f, 0f, 0f), "world disposed");
            }
        }
    }
}

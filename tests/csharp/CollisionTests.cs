// Collisions through the idiomatic C# layer: a particle on a box collider, the contact
// readback, ray pick and drag, and bad input with the native message.

using Sinew;
using Sinew.Native;

namespace SinewTests
{
    public static unsafe class CollisionTests
    {
        public static void TestCollisionStructLayoutsMatchC()
        {
            Check.Equal(16, System.Runtime.InteropServices.Marshal.SizeOf(typeof(SinewQuat)), "sizeof(SinewQuat)");
            Check.Equal(56, System.Runtime.InteropServices.Marshal.SizeOf(typeof(SinewContact)), "sizeof(SinewContact)");
            Check.Equal(64, System.Runtime.InteropServices.Marshal.SizeOf(typeof(SinewContactEvent)), "sizeof(SinewContactEvent)");
            Check.Equal(16, System.Runtime.InteropServices.Marshal.SizeOf(typeof(SinewCollisionFilter)), "sizeof(SinewCollisionFilter)");
        }

        public static void TestFastParticleStopsOnThinBoxAndIsReported()
        {
            using (var w = new World(WorldSettings.Default))
            {
                var box = w.AddCollider(ColliderSettings.Box(new SinewVec3(0f, 0f, 0f), new SinewQuat(0f, 0f, 0f, 1f),
                    new SinewVec3(1f, 0.005f, 1f)));
                Check.True(box.Shape == SinewShape.Box, "a box");
                int p = w.AddParticles(new[] { new SinewVec3(0f, 0.5f, 0f) });
                w.SetParticleRadii(p, new[] { 0.01f });
                w.WriteVelocities(p, new[] { new SinewVec3(0f, -20f, 0f) });
                for (int i = 0; i < 60; i++)
                    w.Step(1f / 60f);
                var x = new SinewVec3[1];
                w.ReadPositions(p, x);
                Check.Near(0.015, x[0].y, 2e-3, "rests on the 1 cm box at 20 m/s");
                Check.Equal(1, w.ContactCount, "one contact");
                var contacts = new Contact[4];
                Check.Equal(1, w.ReadContacts(contacts), "one contact read");
                Check.True(box.Is(contacts[0].Collider), "contact names the box");
                Check.Equal(p, contacts[0].Particle, "contact names the particle");
                Check.Rel(9.81 / 60.0, contacts[0].Impulse, 0.02, "impulse m g dt");
                Check.Near(1.0, contacts[0].Normal.y, 1e-5, "the normal is the top face's");
                Check.Throws(SinewStatus.ErrorInvalidArgument,
                    () => w.SetColliderTransform(box, new SinewVec3(0f, 0f, 0f), new SinewQuat(0f, 0f, 0f, 2f)),
                    "sinew_collider_set_transform", "unit quaternion");
                Check.Throws(SinewStatus.ErrorInvalidArgument, () => w.SetParticleRadii(p, new[] { -1f }),
                    "sinew_world_set_particle_radii");
                w.RemoveCollider(box);
                Check.Throws(SinewStatus.ErrorInvalidHandle, () => w.RemoveCollider(box), "sinew_collider_remove");
            }
        }

        public static void TestContactReadbackWrenchAndEventsWithoutAllocation()
        {
            using (var w = new World(WorldSettings.Default))
            {
                var d = ColliderSettings.Default;
                d.Shape = SinewShape.Box;
                d.Position = new SinewVec3(0f, -0.1f, 0f);
                d.HalfExtents = new SinewVec3(1f, 0.1f, 1f);
                var box = w.AddCollider(d);
                int p = w.AddParticles(new[] { new SinewVec3(0.2f, 0.1f, 0f) });
                w.SetParticleRadii(p, new[] { 0.05f });
                w.SetContactEvents(true);
                int began = 0, persisted = 0, ended = 0;
                ContactEvent first = default(ContactEvent);
                w.ContactBegan += e => { began++; first = e; };
                w.ContactPersisted += e => persisted++;
                w.ContactEnded += e => ended++;
                var contacts = new Contact[8];
                int n = 0;
                for (int i = 0; i < 60; i++)
                {
                    w.Step(1f / 60f);
                    w.DispatchContactEvents();
                    n = w.ReadContacts(contacts);
                }
                // Steady frames: the reused array, the reused event buffer, no garbage.
                long before = System.GC.GetAllocatedBytesForCurrentThread();
                for (int i = 0; i < 10; i++)
                {
                    w.Step(1f / 60f);
                    w.DispatchContactEvents();
                    n = w.ReadContacts(contacts);
                }
                long allocated = System.GC.GetAllocatedBytesForCurrentThread() - before;
                Check.Equal(0L, allocated, "bytes allocated by 10 frames of readback and events");
                Check.Equal(1, n, "one contact");
                Check.Near(0.0, contacts[0].Point.y, 1e-3, "the point is on the top face");
                Check.Near(0.2, contacts[0].Point.x, 1e-3, "under the particle");
                Check.Equal(1, began, "began once");
                Check.True(first.Kind == SinewContactEventKind.Begin, "a begin event");
                Check.True(box.Is(first.Collider), "the event names the box");
                Check.Equal(p, first.Particle, "the event names the particle");
                Check.Equal(0UL, first.Body.id, "a particle in no body");
                Check.Near(0.0, first.Point.y, 1e-3, "the event's point is on the top face");
                Check.True(first.Impulse > 0f, "the event carries the impulse: " + first.Impulse);
                Check.True(persisted > 60, "persists while resting: " + persisted);
                SinewVec3 force, torque;
                w.ContactWrench(box, out force, out torque);
                Check.Rel(-9.81, force.y, 0.02, "the box carries the weight");
                w.ContactWrench(box, new SinewVec3(0.2f, 0f, 0f), out force, out torque);
                Check.Near(0.0, torque.z, 0.02, "no moment about the contact");
                w.RemoveCollider(box);
                w.Step(1f / 60f);
                w.DispatchContactEvents();
                Check.Equal(1, ended, "ends once when the box is removed");
            }
        }

        public static void TestHeightfieldHoldsParticlesAndItsHolesLetThemThrough()
        {
            using (var w = new World(WorldSettings.Default))
            {
                var heights = new float[25];
                var holes = new bool[16];
                holes[5] = true; // cell (1, 1): local x, z in [1, 2]
                w.AddHeightfieldCollider(ColliderSettings.Default, 5, 5, 1f, 1f, heights, holes);
                int p = w.AddParticles(new[] { new SinewVec3(1.5f, 1f, 1.5f), new SinewVec3(2.5f, 1f, 2.5f) });
                w.SetParticleRadii(p, new[] { 0.05f, 0.05f });
                for (int i = 0; i < 90; i++)
                    w.Step(1f / 60f);
                var x = new SinewVec3[2];
                w.ReadPositions(p, x);
                Check.True(x[0].y < -5f, "through the hole: " + x[0].y);
                Check.Near(0.05, x[1].y, 2e-3, "held by the solid cell");
                Check.Throws(SinewStatus.ErrorInvalidArgument,
                    () => w.AddHeightfieldCollider(ColliderSettings.Default, 2, 2, 0f, 1f, new float[4]),
                    "sinew_world_add_heightfield_collider", "cell_x");
            }
        }

        public static void TestSdfFromMeshHoldsAParticleAtItsRadius()
        {
            using (var w = new World(WorldSettings.Default))
            {
                // A closed box of half extents (0.5, 0.1, 0.5), outward triangles.
                var v = new SinewVec3[8];
                for (int i = 0; i < 8; i++)
                    v[i] = new SinewVec3((i & 1) != 0 ? 0.5f : -0.5f, (i & 2) != 0 ? 0.1f : -0.1f, (i & 4) != 0 ? 0.5f : -0.5f);
                var t = new[] { 0, 2, 3, 0, 3, 1, 4, 5, 7, 4, 7, 6, 0, 1, 5, 0, 5, 4, 2, 6, 7, 2, 7, 3, 0, 4, 6, 0, 6, 2, 1, 3, 7, 1, 7, 5 };
                var grid = SdfGrid.FromMesh(v, t, 0.05f, 0.1f);
                Check.Equal(grid.Nx * grid.Ny * grid.Nz, grid.Distances.Length, "node count");
                var c = w.AddSdfCollider(ColliderSettings.Default, grid);
                Check.True(c.Shape == SinewShape.Sdf, "an sdf");
                int p = w.AddParticles(new[] { new SinewVec3(0.1f, 0.5f, 0f) });
                w.SetParticleRadii(p, new[] { 0.03f });
                for (int i = 0; i < 120; i++)
                    w.Step(1f / 60f);
                var x = new SinewVec3[1];
                w.ReadPositions(p, x);
                Check.Near(0.13, x[0].y, 1e-3, "rests at its radius on the field");
                Check.Throws(SinewStatus.ErrorInvalidArgument,
                    () => SdfGrid.FromMesh(v, new[] { 0, 2, 3 }, 0.05f, 0.1f),
                    "sinew_sdf_from_mesh", "closed surface");
                grid.CellSize = 0f;
                Check.Throws(SinewStatus.ErrorInvalidArgument,
                    () => w.AddSdfCollider(ColliderSettings.Default, grid),
                    "sinew_world_add_sdf_collider", "cell_size");
                w.RemoveCollider(c);
            }
        }

        public static void TestPickAndDragRopeEnd()
        {
            using (var w = new World(WorldSettings.Default))
            {
                var pts = new SinewVec3[6];
                var inv = new float[6];
                for (int i = 0; i < 6; i++)
                {
                    pts[i] = new SinewVec3(0.1f * i, 0f, 0f);
                    inv[i] = i == 0 ? 0f : 1f;
                }
                w.AddParticles(pts, inv);
                int particle;
                float distance;
                Check.True(w.PickParticle(new SinewVec3(0.5f, 0f, -1f), new SinewVec3(0f, 0f, 1f), 0.02f, out particle, out distance), "ray hits");
                Check.Equal(5, particle, "picked the end");
                Check.Near(1.0, distance, 1e-5, "distance along the ray");
                Check.True(!w.PickParticle(new SinewVec3(5f, 5f, 5f), new SinewVec3(1f, 0f, 0f), 0.02f, out particle, out distance), "ray misses");
                Check.Throws(SinewStatus.ErrorInvalidArgument,
                    () => { int a; float b; w.PickParticle(new SinewVec3(0f, 0f, 0f), new SinewVec3(0f, 0f, 0f), 0.1f, out a, out b); },
                    "sinew_world_pick_particle", "direction");
                var target = new SinewVec3(0.3f, 0.3f, 0f);
                w.GrabParticle(5, pts[5], 0f);
                for (int i = 1; i <= 60; i++)
                {
                    w.MoveGrab(5, SinewVec3.Lerp(pts[5], target, i / 60f));
                    w.Step(1f / 60f);
                }
                var x = new SinewVec3[1];
                w.ReadPositions(5, x);
                Check.Near(0.0, (x[0] - target).Length, 1e-3, "dragged end at the target");
                w.ReleaseParticle(5);
            }
        }

        public static void TestColliderSettingsAreTheLibrarysDescAndItsShapes()
        {
            var d = ColliderSettings.Default;
            Check.True(d.Shape == SinewShape.Plane, "default shape");
            Check.Equal(0.5f, d.Radius, "default radius");
            Check.Equal(0.5f, d.HalfHeight, "default half height");
            Check.Equal(1f, d.Rotation.w, "identity rotation");
            Check.True(d.ReportContacts, "contacts reported by default");
            var q = new SinewQuat(0f, 0f, 0.70710678f, 0.70710678f);
            var capsule = ColliderSettings.Capsule(new SinewVec3(1f, 2f, 3f), q, 0.25f, 0.75f);
            capsule.StaticFriction = 0.4f;
            capsule.ReportContacts = false;
            SinewColliderDesc raw = capsule.ToNative();
            Check.Equal((uint)SinewShape.Capsule, raw.shape, "raw shape");
            Check.Equal(0.25f, raw.radius, "raw radius");
            Check.Equal(0.75f, raw.half_height, "raw half height");
            Check.Equal(2f, raw.position.y, "raw position");
            Check.Equal(0.4f, raw.static_friction, "raw static friction");
            Check.Equal(0u, raw.report_contacts, "raw report flag");
            var back = ColliderSettings.FromNative(raw);
            Check.True(back.Shape == SinewShape.Capsule && back.HalfHeight == 0.75f && !back.ReportContacts, "round trip");
            var sphere = ColliderSettings.Sphere(new SinewVec3(0f, 1f, 0f), 0.3f);
            Check.True(sphere.Shape == SinewShape.Sphere && sphere.Radius == 0.3f, "sphere");
            var plane = ColliderSettings.Plane(new SinewVec3(0f, -1f, 0f), new SinewQuat(0f, 0f, 0f, 1f));
            using (var w = new World(WorldSettings.Default))
            {
                var floor = w.AddCollider(plane);
                Check.True(floor.Shape == SinewShape.Plane, "a plane");
                var ball = w.AddCollider(sphere);
                Check.Equal(2, w.ColliderCount, "two colliders");
                int p = w.AddParticles(new[] { new SinewVec3(2f, 0f, 0f) });
                w.SetParticleRadii(p, new[] { 0.1f });
                for (int i = 0; i < 60; i++)
                    w.Step(1f / 60f);
                var x = new SinewVec3[1];
                w.ReadPositions(p, x);
                Check.Near(-0.9, x[0].y, 2e-3, "rests on the plane 1 m down");
                sphere.Radius = -1f;
                Check.Throws(SinewStatus.ErrorInvalidArgument, () => w.AddCollider(sphere), "sinew_world_add_collider", "radius");
                Check.Equal(2, w.ColliderCount, "the bad one was not added");
                ball.Remove();
            }
        }

        public static void TestTakeContactEventsIntoACallerArray()
        {
            using (var w = new World(WorldSettings.Default))
            {
                var box = w.AddCollider(ColliderSettings.Box(new SinewVec3(0f, -0.1f, 0f), new SinewQuat(0f, 0f, 0f, 1f),
                    new SinewVec3(1f, 0.1f, 1f)));
                int p = w.AddParticles(new[] { new SinewVec3(0f, 0.05f, 0f), new SinewVec3(0.5f, 0.05f, 0f) });
                w.SetParticleRadii(p, new[] { 0.05f, 0.05f });
                w.SetContactEvents(true);
                w.Step(1f / 60f);
                var events = new ContactEvent[1];
                long lost;
                Check.Equal(1, w.TakeContactEvents(events, out lost), "one event fits");
                Check.Equal(0L, lost, "none lost");
                Check.True(events[0].Kind == SinewContactEventKind.Begin && box.Is(events[0].Collider), "a begin on the box");
                Check.Equal(1, w.TakeContactEvents(events, out lost), "the second one waited");
                Check.True(events[0].Particle == p || events[0].Particle == p + 1, "one of the particles: " + events[0].Particle);
                Check.Equal(0, w.TakeContactEvents(new ContactEvent[0], out lost), "an empty array takes none");
                Check.Equal(0, w.TakeContactEvents(events, out lost), "nothing left");
            }
        }

        public static void TestCollisionFiltersGoInPlace()
        {
            // Two overlapping free particles, no gravity: pushed apart unless the filters
            // say they do not collide (tests/physics/collisions.rs, through C#).
            System.Func<ParticleCollisionFilter, ParticleCollisionFilter, bool> collide = (a, b) =>
            {
                var s = WorldSettings.Default;
                s.Gravity = new SinewVec3(0f, 0f, 0f);
                s.Substeps = 1;
                using (var w = new World(s))
                {
                    int p = w.AddParticles(new[] { new SinewVec3(0f, 0f, 0f), new SinewVec3(0.1f, 0f, 0f) });
                    w.SetParticleRadii(p, new[] { 0.1f, 0.1f });
                    w.SetCollisionFilters(p, new[] { a, b });
                    w.Step(1f / 60f);
                    var x = new SinewVec3[1];
                    w.ReadPositions(p, x);
                    return x[0].x != 0f;
                }
            };
            var f = ParticleCollisionFilter.Default;
            Check.True(!f.SelfCollision && f.Layers == 1u && f.Mask == uint.MaxValue && f.Group == 0u, "defaults");
            var body = f;
            body.Group = 7;
            var selfCollision = body;
            selfCollision.SelfCollision = true;
            Check.True(selfCollision.SelfCollision, "the flag reads back");
            var layer2 = f;
            layer2.Layers = 2;
            var not2 = f;
            not2.Mask = ~2u;
            Check.True(collide(f, f), "default filters collide");
            Check.True(!collide(new ParticleCollisionFilter(), new ParticleCollisionFilter()), "zeroed filters (no layers) collide with nothing");
            Check.True(!collide(body, body), "one body without self-collision");
            Check.True(collide(selfCollision, selfCollision), "one body with self-collision");
            Check.True(!collide(layer2, not2), "a mask without the other's layer");
        }
    }
}

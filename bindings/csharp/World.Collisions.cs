// Sinew.World: colliders (WorldCollider, the object that owns a collider's handle),
// particle collision properties, contact readback, picking and grabbing (README
// "Collisions and interaction"). Lengths in m, impulses in N·s, friction coefficients
// >= 0, restitution and unyielding factors in [0, 1].

using System;
using Sinew.Native;

namespace Sinew
{
    public sealed partial class World
    {
        /// <summary>Adds a plane, sphere, capsule or box collider (start from
        /// <see cref="ColliderSettings.Default"/>, <see cref="ColliderSettings.Sphere"/>, ...);
        /// returns the <see cref="WorldCollider"/> that owns it.</summary>
        public unsafe WorldCollider AddCollider(ColliderSettings settings)
        {
            SinewColliderDesc desc = settings.ToNative();
            SinewColliderHandle c;
            SinewException.Check(SinewNative.sinew_world_add_collider(Handle, &desc, &c));
            return new WorldCollider(this, c, settings.Shape);
        }

        /// <summary>Adds a static two-sided triangle-mesh collider: vertices (m, local frame)
        /// and three vertex indices per triangle; <paramref name="settings"/> give the pose
        /// and material (their shape is ignored).</summary>
        public unsafe WorldCollider AddMeshCollider(ColliderSettings settings, SinewVec3[] vertices, int[] indices)
        {
            const string F = "World.AddMeshCollider";
            Args.NotNull(vertices, F, "vertices");
            Args.NotNull(indices, F, "indices");
            if (indices.Length % 3 != 0)
                throw SinewException.Argument(F, "indices has " + indices.Length + " elements, not a multiple of 3");
            SinewColliderDesc desc = settings.ToNative();
            SinewColliderHandle c;
            fixed (SinewVec3* v = vertices)
            fixed (int* t = indices)
                SinewException.Check(SinewNative.sinew_world_add_mesh_collider(Handle, &desc, v, unchecked((uint)vertices.Length), (uint*)t, unchecked((uint)(indices.Length / 3)), &c));
            return new WorldCollider(this, c, SinewShape.Mesh);
        }

        /// <summary>Number of colliders in the world.</summary>
        public unsafe int ColliderCount
        {
            get
            {
                uint n;
                return (int)SinewException.Checked(SinewNative.sinew_world_collider_count(Handle, &n), n);
            }
        }

        /// <summary>Removes a collider by its raw handle (<see cref="WorldCollider.Remove"/> for a
        /// <see cref="WorldCollider"/>); the handle becomes invalid.</summary>
        public void RemoveCollider(SinewColliderHandle collider)
        {
            SinewException.Check(SinewNative.sinew_collider_remove(Handle, collider));
        }

        /// <summary>Moves a collider (m, unit quaternion): it sweeps there during the next
        /// step, or jumps there when <paramref name="teleport"/>.</summary>
        public unsafe void SetColliderTransform(SinewColliderHandle collider, SinewVec3 position, SinewQuat rotation, bool teleport = false)
        {
            SinewException.Check(SinewNative.sinew_collider_set_transform(Handle, collider, &position, &rotation, teleport ? 1u : 0u));
        }

        /// <summary>Sets Coulomb friction coefficients (>= 0) and restitution ([0, 1]).</summary>
        public void SetColliderMaterial(SinewColliderHandle collider, float staticFriction, float dynamicFriction, float restitution)
        {
            SinewException.Check(SinewNative.sinew_collider_set_material(Handle, collider, staticFriction, dynamicFriction, restitution));
        }

        /// <summary>Sets collision radii (m, >= 0) of particles first..first+radii.Length.</summary>
        public unsafe void SetParticleRadii(int first, float[] radii)
        {
            Args.NotNull(radii, "World.SetParticleRadii", "radii");
            fixed (float* r = radii)
                SinewException.Check(SinewNative.sinew_world_set_particle_radii(Handle, unchecked((uint)first), unchecked((uint)radii.Length), r));
        }

        /// <summary>Sets the collision filters of particles first..first+filters.Length
        /// (passed in place: nothing is copied or allocated).</summary>
        public unsafe void SetCollisionFilters(int first, ParticleCollisionFilter[] filters)
        {
            Args.NotNull(filters, "World.SetCollisionFilters", "filters");
            // ParticleCollisionFilter has SinewCollisionFilter's layout (four 32-bit fields).
            fixed (ParticleCollisionFilter* f = filters)
                SinewException.Check(SinewNative.sinew_world_set_collision_filters(Handle, unchecked((uint)first),
                    unchecked((uint)filters.Length), (SinewCollisionFilter*)f));
        }

        /// <summary>Sets unyielding factors ([0, 1]; the UE 4.26 Niagara Advanced PBD sample (Epic Games, 2020)) of particles.</summary>
        public unsafe void SetUnyielding(int first, float[] factors)
        {
            Args.NotNull(factors, "World.SetUnyielding", "factors");
            fixed (float* u = factors)
                SinewException.Check(SinewNative.sinew_world_set_unyielding(Handle, unchecked((uint)first), unchecked((uint)factors.Length), u));
        }

        /// <summary>Limits every particle's speed (m/s; 0 = unlimited) at each substep, so
        /// fast particles cannot skip thin cloth or each other.</summary>
        public void SetMaxSpeed(float maxSpeed)
        {
            SinewException.Check(SinewNative.sinew_world_set_max_speed(Handle, maxSpeed));
        }

        /// <summary>Adds a static heightfield collider (a terrain): columns x rows samples
        /// of <paramref name="heights"/> (m, row by row: row j at local z = j·cellZ,
        /// sample i at local x = i·cellX; the corner sample at settings.Position, turned by
        /// settings.Rotation) and, when <paramref name="holes"/> is not null, one flag per
        /// cell ((rows-1)·(columns-1), row by row; true = a hole particles pass through).
        /// Swept with the material of <paramref name="settings"/> (their shape is ignored).
        /// Its shape reads as <see cref="SinewShape.Mesh"/> (two triangles per solid
        /// cell).</summary>
        public unsafe WorldCollider AddHeightfieldCollider(ColliderSettings settings, int columns, int rows,
            float cellX, float cellZ, float[] heights, bool[] holes = null)
        {
            const string F = "World.AddHeightfieldCollider";
            Args.NotNull(heights, F, "heights");
            if (columns < 2 || rows < 2 || heights.Length != columns * rows)
                throw SinewException.Argument(F, heights.Length + " heights for " + columns + " x " + rows + " samples");
            byte[] flags = null;
            if (holes != null)
            {
                if (holes.Length != (columns - 1) * (rows - 1))
                    throw SinewException.Argument(F, holes.Length + " hole flags for " + ((columns - 1) * (rows - 1)) + " cells");
                flags = new byte[holes.Length];
                for (int i = 0; i < holes.Length; i++)
                    flags[i] = holes[i] ? (byte)1 : (byte)0;
            }
            SinewColliderDesc desc = settings.ToNative();
            SinewColliderHandle c;
            fixed (float* h = heights)
            fixed (byte* f = flags)
                SinewException.Check(SinewNative.sinew_world_add_heightfield_collider(Handle, &desc,
                    (uint)columns, (uint)rows, cellX, cellZ, h, flags == null ? null : f, &c));
            return new WorldCollider(this, c, SinewShape.Mesh);
        }

        /// <summary>Number of particle-collider contacts of the last step.</summary>
        public unsafe int ContactCount
        {
            get
            {
                uint n;
                SinewException.Check(SinewNative.sinew_world_contact_count(Handle, &n));
                return (int)n;
            }
        }

        /// <summary>Copies the last step's contacts (particle order; collider, particle,
        /// normal impulse >= 0, normal, point, friction impulse) into
        /// <paramref name="destination"/>, up to its length, and returns how many: reuse
        /// one array from frame to frame and nothing is allocated (the library writes
        /// into it in place).</summary>
        public unsafe int ReadContacts(Contact[] destination)
        {
            Args.NotNull(destination, "World.ReadContacts", "destination");
            if (destination.Length == 0)
                return 0;
            uint written;
            // Contact has SinewContact's layout.
            fixed (Contact* c = destination)
                SinewException.Check(SinewNative.sinew_world_read_contacts(Handle, (SinewContact*)c,
                    (uint)destination.Length, &written));
            return (int)written;
        }

        /// <summary>The force (N) and torque (N·m) the particles exerted on
        /// <paramref name="collider"/> over the last step (the means of its reported
        /// contacts' impulses), the torque about the collider's position.</summary>
        public unsafe void ContactWrench(SinewColliderHandle collider, out SinewVec3 force, out SinewVec3 torque)
        {
            SinewVec3 f, t;
            SinewException.Check(SinewNative.sinew_collider_contact_wrench(Handle, collider, null, &f, &t));
            force = f;
            torque = t;
        }

        /// <summary>As <see cref="ContactWrench(SinewColliderHandle, out SinewVec3, out SinewVec3)"/>,
        /// the torque about <paramref name="about"/> (world, m).</summary>
        public unsafe void ContactWrench(SinewColliderHandle collider, SinewVec3 about, out SinewVec3 force, out SinewVec3 torque)
        {
            SinewVec3 f, t;
            SinewException.Check(SinewNative.sinew_collider_contact_wrench(Handle, collider, &about, &f, &t));
            force = f;
            torque = t;
        }

        /// <summary>Turns the contact events on or off (off by default): while on, each
        /// step queues a begin, persist or end event per (collider, body) pair of the
        /// reported contacts, to take with <see cref="TakeContactEvents"/> or raise with
        /// <see cref="DispatchContactEvents"/>.</summary>
        public void SetContactEvents(bool enabled)
        {
            SinewException.Check(SinewNative.sinew_world_set_contact_events(Handle, enabled ? 1u : 0u));
        }

        /// <summary>Moves the waiting contact events (oldest first, up to
        /// destination.Length) into <paramref name="destination"/>; returns how many, and
        /// in <paramref name="lost"/> how many a full queue dropped since the last call.
        /// Allocates nothing (the library writes into it in place).</summary>
        public unsafe int TakeContactEvents(ContactEvent[] destination, out long lost)
        {
            Args.NotNull(destination, "World.TakeContactEvents", "destination");
            uint n = 0;
            ulong dropped = 0;
            if (destination.Length == 0)
            {
                SinewContactEvent none;
                SinewException.Check(SinewNative.sinew_world_take_contact_events(Handle, &none, 0, &n, &dropped));
            }
            else
            {
                // ContactEvent has SinewContactEvent's layout.
                fixed (ContactEvent* p = destination)
                    SinewException.Check(SinewNative.sinew_world_take_contact_events(Handle, (SinewContactEvent*)p,
                        (uint)destination.Length, &n, &dropped));
            }
            lost = (long)dropped;
            return (int)n;
        }

        /// <summary>A (collider, body) pair began touching in the last step.</summary>
        public event System.Action<ContactEvent> ContactBegan;
        /// <summary>A (collider, body) pair kept touching in the last step.</summary>
        public event System.Action<ContactEvent> ContactPersisted;
        /// <summary>A (collider, body) pair stopped touching in the last step.</summary>
        public event System.Action<ContactEvent> ContactEnded;

        ContactEvent[] contactEventBuffer;

        /// <summary>Takes every waiting contact event and raises
        /// <see cref="ContactBegan"/>, <see cref="ContactPersisted"/> or
        /// <see cref="ContactEnded"/> for each, oldest first; returns how many were lost
        /// to a full queue. Call it after each step (turn the events on first). Reuses one
        /// buffer: nothing is allocated per call.</summary>
        public long DispatchContactEvents()
        {
            if (contactEventBuffer == null)
                contactEventBuffer = new ContactEvent[256];
            long lostTotal = 0;
            while (true)
            {
                long lost;
                int n = TakeContactEvents(contactEventBuffer, out lost);
                lostTotal += lost;
                for (int i = 0; i < n; i++)
                {
                    var e = contactEventBuffer[i];
                    switch (e.Kind)
                    {
                        case SinewContactEventKind.Begin:
                            ContactBegan?.Invoke(e);
                            break;
                        case SinewContactEventKind.Persist:
                            ContactPersisted?.Invoke(e);
                            break;
                        default:
                            ContactEnded?.Invoke(e);
                            break;
                    }
                }
                if (n < contactEventBuffer.Length)
                    return lostTotal;
            }
        }

        /// <summary>The particle nearest along the ray origin + t·direction (t >= 0) within
        /// <paramref name="radius"/> (m) + its own radius of it: true and its index and
        /// distance t (m), or false.</summary>
        public unsafe bool PickParticle(SinewVec3 origin, SinewVec3 direction, float radius, out int particle, out float distance)
        {
            uint p;
            float t;
            SinewException.Check(SinewNative.sinew_world_pick_particle(Handle, &origin, &direction, radius, &p, &t));
            particle = p == uint.MaxValue ? -1 : (int)p;
            distance = t;
            return p != uint.MaxValue;
        }

        /// <summary>Attaches a particle to <paramref name="target"/> (m) with a compliance
        /// (m/N, 0 = rigid) until <see cref="ReleaseParticle"/>.</summary>
        public unsafe void GrabParticle(int particle, SinewVec3 target, float compliance)
        {
            SinewException.Check(SinewNative.sinew_world_grab_particle(Handle, unchecked((uint)particle), &target, compliance));
        }

        /// <summary>Moves the target (m) of the grab on a particle (mouse drag).</summary>
        public unsafe void MoveGrab(int particle, SinewVec3 target)
        {
            SinewException.Check(SinewNative.sinew_world_move_grab(Handle, unchecked((uint)particle), &target));
        }

        /// <summary>Releases the grab on a particle.</summary>
        public void ReleaseParticle(int particle)
        {
            SinewException.Check(SinewNative.sinew_world_release_particle(Handle, unchecked((uint)particle)));
        }
    }

    /// <summary>A collider owned by a <see cref="World"/> (<see cref="World.AddCollider"/>,
    /// <see cref="World.AddMeshCollider"/>, <see cref="World.AddHeightfieldCollider"/>,
    /// <see cref="World.AddSdfCollider"/>): its pose and material, the host body behind it
    /// when dynamic, and what the particles did to it. Every method throws
    /// <see cref="SinewException"/> on failure and changes nothing then; after
    /// <see cref="Remove"/> they throw with status ErrorInvalidHandle, once its world is
    /// disposed ObjectDisposedException. <see cref="Dispose"/> removes the collider if it
    /// and its world are still there; a collider never disposed lives as long as its
    /// world. It converts implicitly to its raw handle, which the contact readback and
    /// the events name (<see cref="Is"/>). (Named so as not to shadow
    /// UnityEngine.Collider in code that uses both namespaces.)</summary>
    public sealed class WorldCollider : IDisposable
    {
        /// <summary>The world that owns the collider.</summary>
        public World World { get; private set; }
        /// <summary>The native handle (for the raw layer).</summary>
        public SinewColliderHandle Handle { get; private set; }
        /// <summary>The shape it was added with (a heightfield is a
        /// <see cref="SinewShape.Mesh"/>).</summary>
        public SinewShape Shape { get; private set; }
        /// <summary>True once <see cref="Remove"/> or <see cref="Dispose"/> removed it.</summary>
        public bool IsRemoved { get; private set; }

        internal WorldCollider(World world, SinewColliderHandle handle, SinewShape shape)
        {
            World = world;
            Handle = handle;
            Shape = shape;
        }

        /// <summary>The raw handle of <paramref name="collider"/>.</summary>
        public static implicit operator SinewColliderHandle(WorldCollider collider)
        {
            if (collider == null)
                throw new ArgumentNullException("collider");
            return collider.Handle;
        }

        /// <summary>Whether <paramref name="handle"/> (a contact's or a contact event's
        /// collider) names this collider.</summary>
        public bool Is(SinewColliderHandle handle)
        {
            return handle.id == Handle.id;
        }

        /// <summary>Removes the collider from its world (a second call throws with
        /// ErrorInvalidHandle).</summary>
        public void Remove()
        {
            World.RemoveCollider(Handle);
            IsRemoved = true;
        }

        /// <summary>Removes the collider if it and its world are still there; otherwise
        /// does nothing.</summary>
        public void Dispose()
        {
            if (IsRemoved || World.IsDisposed)
                return;
            IsRemoved = true;
            try
            {
                // Fails only for a collider the raw layer already removed: nothing to do then.
                SinewNative.sinew_collider_remove(World.Handle, Handle);
            }
            catch (ObjectDisposedException)
            {
                // The world was disposed meanwhile, and the collider with it.
            }
        }

        /// <summary>Moves the collider (m, unit quaternion): it sweeps there during the
        /// next step, or jumps there when <paramref name="teleport"/>.</summary>
        public void SetTransform(SinewVec3 position, SinewQuat rotation, bool teleport = false)
        {
            World.SetColliderTransform(Handle, position, rotation, teleport);
        }

        /// <summary>Sets the Coulomb friction coefficients (>= 0) and the restitution
        /// ([0, 1]; a dynamic collider bounces particles off the host body's material
        /// velocity, keeping the momentum).</summary>
        public void SetMaterial(float staticFriction, float dynamicFriction, float restitution)
        {
            World.SetColliderMaterial(Handle, staticFriction, dynamicFriction, restitution);
        }

        /// <summary>The force (N) and torque (N·m, about the collider's position) the
        /// particles exerted on the collider over the last step.</summary>
        public void ContactWrench(out SinewVec3 force, out SinewVec3 torque)
        {
            World.ContactWrench(Handle, out force, out torque);
        }

        /// <summary>As <see cref="ContactWrench(out SinewVec3, out SinewVec3)"/>, the torque
        /// about <paramref name="about"/> (world, m; a body's centre of mass).</summary>
        public void ContactWrench(SinewVec3 about, out SinewVec3 force, out SinewVec3 torque)
        {
            World.ContactWrench(Handle, about, out force, out torque);
        }

        /// <summary>Makes the collider dynamic: the host body behind it (mass in kg,
        /// principal moments of inertia in kg·m² along <paramref name="inertiaRotation"/> in
        /// the collider's frame, centre of mass in the collider's frame, velocity and
        /// angular velocity in world space). Call it every fixed step before the world's
        /// step; afterwards <see cref="ReadMotion"/> and <see cref="ContactWrench(SinewVec3, out SinewVec3, out SinewVec3)"/>
        /// say what the particles did to it. <paramref name="gravity"/>: whether Sinew
        /// applies the world's gravity to the proxy (false when the host integrates
        /// it).</summary>
        public void SetDynamics(float mass, SinewVec3 inertia, SinewQuat inertiaRotation, SinewVec3 centerOfMass,
            SinewVec3 velocity, SinewVec3 angularVelocity, bool gravity = false)
        {
            World.SetColliderDynamics(Handle, mass, inertia, inertiaRotation, centerOfMass, velocity,
                angularVelocity, gravity);
        }

        /// <summary>Makes the collider kinematic again (moved by the host alone).</summary>
        public void ClearDynamics()
        {
            World.ClearColliderDynamics(Handle);
        }

        /// <summary>What the proxy of the dynamic collider did over the last step: its end
        /// velocities and the velocity change the particles, pins and fluids made (gravity
        /// and the gyroscopic turn left out). Allocates nothing.</summary>
        public ColliderMotion ReadMotion()
        {
            return World.ReadColliderMotion(Handle);
        }

        /// <summary>Pins <paramref name="particles"/> to the points
        /// <paramref name="offsets"/> (m, the collider's frame) with
        /// <paramref name="compliance"/> (m/N, 0 = rigid); a dynamic collider takes the
        /// reaction. Returns the first pin's index (<see cref="World.RemovePins"/>,
        /// <see cref="World.ReadPinForces"/>).</summary>
        public int PinParticles(uint[] particles, SinewVec3[] offsets, float compliance = 0f)
        {
            return World.PinParticles(Handle, particles, offsets, compliance);
        }
    }
}

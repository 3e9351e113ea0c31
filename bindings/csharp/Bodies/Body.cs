// A body built by the library (rope, cloth, tet or pressure soft body): a SinewBodyHandle
// handle plus the world that owns it. Made by World.AddRope / AddRopePolyline (a Rope),
// AddClothGrid / AddClothMesh (a Cloth), AddTetBody / AddPressureBody (a Body).

using System;
using Sinew.Native;

namespace Sinew
{
    /// <summary>A rope, cloth or soft body owned by a <see cref="World"/>: ropes are the
    /// <see cref="Rope"/> and cloths the <see cref="Cloth"/> derived from it (their kind's
    /// extras on top), soft bodies plain Bodies. Its particles are
    /// <see cref="FirstParticle"/>..FirstParticle+<see cref="ParticleCount"/> in the world
    /// and keep their indices for the world's lifetime (after <see cref="Remove"/> too).
    /// Every method throws <see cref="SinewException"/> on failure and changes nothing then;
    /// after the body is removed they throw with status ErrorInvalidHandle.
    /// <see cref="Dispose"/> removes the body if it is still there (twice is fine, and so is
    /// disposing after its world); there is no finalizer: a Body dropped undisposed stays in
    /// its world until the world is disposed.</summary>
    public partial class Body : IDisposable
    {
        /// <summary>The world that owns the body.</summary>
        public World World { get; private set; }
        /// <summary>The native handle (for the raw layer).</summary>
        public SinewBodyHandle Handle { get; private set; }
        /// <summary>Rope, cloth, tet soft body or pressure soft body.</summary>
        public SinewBodyKind Kind { get; private set; }
        /// <summary>World index of the body's first particle.</summary>
        public int FirstParticle { get; private set; }
        /// <summary>Number of particles (a rope's segments + 1, a grid's (u+1)(v+1), a mesh's
        /// vertices).</summary>
        public int ParticleCount { get; private set; }
        /// <summary>True once <see cref="Remove"/> or <see cref="Dispose"/> removed it.</summary>
        public bool IsRemoved { get; private set; }

        internal unsafe Body(World world, SinewBodyHandle handle)
        {
            World = world;
            Handle = handle;
            SinewBodyInfo info;
            SinewException.Check(SinewNative.sinew_body_info(world.Handle, handle, &info));
            Kind = (SinewBodyKind)info.kind;
            FirstParticle = (int)info.first_particle;
            ParticleCount = (int)info.particle_count;
        }

        /// <summary>What the library reports now: kind, particle range, rope radius (m),
        /// damping (1/s).</summary>
        unsafe SinewBodyInfo Info
        {
            get
            {
                SinewBodyInfo info;
                return SinewException.Checked(SinewNative.sinew_body_info(World.Handle, Handle, &info), info);
            }
        }

        /// <summary>Rope radius (m) from its settings; 0 for other bodies.</summary>
        public float Radius { get { return Info.radius; } }

        /// <summary>Extra velocity damping (1/s, >= 0), from the next step on when set.</summary>
        public float Damping
        {
            get { return Info.damping; }
            set { SinewException.Check(SinewNative.sinew_body_set_damping(World.Handle, Handle, value)); }
        }

        /// <summary>Sets the compliance of one of the body's constraint groups from the next
        /// step on: Stretch / Shear / Tether in m/N, Bend in the units of the bending model,
        /// Volume in 1/(N·m) (tet volumes) or m⁵/N (a pressure surface). A group the body
        /// does not have is refused.</summary>
        public void SetCompliance(SinewBodyConstraints which, float compliance)
        {
            SinewException.Check(SinewNative.sinew_body_set_compliance(World.Handle, Handle, (uint)which, compliance));
        }

        /// <summary>Sets the overpressure factor (in (0, 100]) of a pressure soft body; other
        /// kinds are refused.</summary>
        public void SetPressure(float pressure)
        {
            SinewException.Check(SinewNative.sinew_body_set_pressure(World.Handle, Handle, pressure));
        }

        /// <summary>Scales a rope's or distance-model cloth's rest lengths to
        /// <paramref name="scale"/> (in (0, 1000]) times their built lengths, from the next
        /// step on; other bodies are untouched. Change it gradually.</summary>
        public void SetRestScale(float scale)
        {
            SinewException.Check(SinewNative.sinew_body_set_rest_scale(World.Handle, Handle, scale));
        }

        /// <summary>Sets the total mass (kg) of the body's movable particles, keeping their
        /// ratios; pinned particles stay pinned.</summary>
        public void SetMass(float kg)
        {
            SinewException.Check(SinewNative.sinew_body_set_mass(World.Handle, Handle, kg));
        }

        /// <summary>A rope's links break when their tension exceeds
        /// <paramref name="newtons"/> (+infinity: never); build breakable ropes without
        /// tethers. Events: <see cref="World.TakeBreakEvents"/>.</summary>
        public void SetBreakForce(float newtons)
        {
            SinewException.Check(SinewNative.sinew_body_set_break_force(World.Handle, Handle, newtons));
        }

        /// <summary>Cuts a rope at link <paramref name="link"/> (0 = at its start).</summary>
        public void Cut(int link)
        {
            SinewException.Check(SinewNative.sinew_body_cut_rope(World.Handle, Handle, unchecked((uint)link)));
        }

        /// <summary>Whether the body sleeps (its island is frozen until something wakes
        /// it; <see cref="World.Sleeping"/>).</summary>
        public unsafe bool IsAsleep
        {
            get
            {
                uint asleep = 0;
                return SinewException.Checked(SinewNative.sinew_body_is_asleep(World.Handle, Handle, &asleep), asleep != 0);
            }
        }

        /// <summary>Wakes the body and everything in its island.</summary>
        public void Wake()
        {
            SinewException.Check(SinewNative.sinew_body_wake(World.Handle, Handle));
        }

        /// <summary>Puts the body and its island to sleep now, at rest where it is (a
        /// level loaded at rest). Sleeping must be on.</summary>
        public void Sleep()
        {
            SinewException.Check(SinewNative.sinew_body_sleep(World.Handle, Handle));
        }

        /// <summary>Cuts a rope at the link nearest the segment a–b (a sword swipe); returns
        /// the link.</summary>
        public unsafe int CutAlong(SinewVec3 a, SinewVec3 b)
        {
            uint link;
            return (int)SinewException.Checked(SinewNative.sinew_body_cut_rope_along(World.Handle, Handle, &a, &b, &link), link);
        }

        /// <summary>Attaches a winch at the rope's pinned <paramref name="end"/> and reels it
        /// in at once to <paramref name="length"/> m (its built length is the most it pays
        /// out).</summary>
        public void AddWinch(SinewRopeEnd end, float length)
        {
            SinewException.Check(SinewNative.sinew_body_add_winch(World.Handle, Handle, (uint)end, length));
        }

        /// <summary>Drives the winch (m/s; > 0 pays out, < 0 reels in, 0 holds).</summary>
        public void SetWinchSpeed(float metersPerSecond)
        {
            SinewException.Check(SinewNative.sinew_body_set_winch_speed(World.Handle, Handle, metersPerSecond));
        }

        /// <summary>Drives the winch to <paramref name="length"/> m at
        /// <paramref name="metersPerSecond"/> (> 0); it stops there.</summary>
        public void SetWinchTarget(float length, float metersPerSecond)
        {
            SinewException.Check(SinewNative.sinew_body_set_winch_target(World.Handle, Handle, length, metersPerSecond));
        }

        /// <summary>The winch's active length (m), speed (m/s) and paying link (its index in
        /// <see cref="ReadForces"/>' Stretch group).</summary>
        public unsafe void ReadWinch(out float length, out float speed, out int payingLink)
        {
            float l, v;
            uint k;
            SinewException.Check(SinewNative.sinew_body_winch_state(World.Handle, Handle, &l, &v, &k));
            length = l;
            speed = v;
            payingLink = (int)k;
        }

        /// <summary>The current volume (m³) of a soft body: the enclosed volume of a pressure
        /// body, the summed tet volume of a tet body. Ropes and cloth are refused.</summary>
        public unsafe float Volume
        {
            get
            {
                float v;
                return SinewException.Checked(SinewNative.sinew_body_volume(World.Handle, Handle, &v), v);
            }
        }

        /// <summary>Copies the positions (m) of all the body's particles into
        /// destination[0..ParticleCount] (Unity's Vector3, SinewVec3, or any blittable struct
        /// whose first 12 bytes are x, y, z), in one library call straight into the array.</summary>
        public unsafe void ReadPositions<T>(T[] destination) where T : struct
        {
            const string F = "Body.ReadPositions";
            Args.NotNull(destination, F, "destination");
            Args.Vec3Element<T>(F);
            using (var p = new Pin(destination))
                ReadPositions(p.Ptr, destination.Length, Element<T>.Size);
        }

        /// <summary>Copies the positions (m) of all the body's particles to
        /// <paramref name="destination"/>, one x, y, z every <paramref name="strideBytes"/>
        /// (>= 12), e.g. a vertex buffer; <paramref name="capacity"/> elements fit there (at
        /// least ParticleCount).</summary>
        public unsafe void ReadPositions(void* destination, int capacity, int strideBytes)
        {
            SinewException.Check(SinewNative.sinew_body_read_positions(World.Handle, Handle, destination,
                unchecked((uint)capacity), unchecked((uint)strideBytes)));
        }

        /// <summary>Copies |λ|/h² (N) of the body's length constraints of one group in the
        /// last substep of the last step (0 before the first step) into destination, in the
        /// order the library built them, and returns how many: Stretch (a rope's links from
        /// start to end, cloth edges), Shear (grid diagonals), Bend (a rope's (i, i+2) links,
        /// distance bending), Tether. A destination shorter than the group throws
        /// (ErrorOutOfRange) and writes nothing.</summary>
        public unsafe int ReadForces(SinewBodyConstraints which, float[] destination)
        {
            Args.NotNull(destination, "Body.ReadForces", "destination");
            uint n;
            fixed (float* p = destination)
                SinewException.Check(SinewNative.sinew_body_read_forces(World.Handle, Handle, (uint)which, p,
                    (uint)destination.Length, &n));
            return (int)n;
        }

        /// <summary>Removes the body: its particles keep their indices but become inert
        /// (inverse mass 0, they stay where they are); its constraints and the attachments on
        /// its particles stop acting. Removing it again throws (ErrorInvalidHandle).</summary>
        public void Remove()
        {
            SinewException.Check(SinewNative.sinew_world_remove_body(World.Handle, Handle));
            IsRemoved = true;
        }

        /// <summary>Removes the body if it and its world are still there; otherwise does
        /// nothing.</summary>
        public void Dispose()
        {
            if (IsRemoved || World.IsDisposed)
                return;
            IsRemoved = true;
            try
            {
                // Fails only for a body the raw layer already removed: nothing to do then.
                SinewNative.sinew_world_remove_body(World.Handle, Handle);
            }
            catch (ObjectDisposedException)
            {
                // The world was disposed meanwhile, and the body with it.
            }
        }

        public override string ToString()
        {
            return Kind + " body, particles " + FirstParticle + ".." + (FirstParticle + ParticleCount);
        }
    }
}

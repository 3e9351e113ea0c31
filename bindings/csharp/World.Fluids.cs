// Sinew.World: fluids (Position Based Fluids coupled two-way with every solid particle
// that has a radius). A Fluid owns a range of world particles reserved up front; its
// live particles are the first Count of them. Emitters and kill volumes belong to a
// fluid. A body's coupling switch and the force the fluids exert on it are on the Body
// (Body.SetFluidCoupling, Body.FluidForce).

using System;
using Sinew.Native;

namespace Sinew
{
    public sealed partial class World
    {
        /// <summary>Adds a fluid and reserves settings.Capacity particles for it (appended
        /// after the existing ones, inert until emitted).</summary>
        public unsafe Fluid AddFluid(FluidSettings settings)
        {
            SinewFluidDesc desc = settings.ToNative();
            SinewFluidHandle fluid;
            return new Fluid(this, SinewException.Checked(SinewNative.sinew_world_add_fluid(Handle, &desc, &fluid), fluid));
        }

        /// <summary>Number of fluids in the world.</summary>
        public unsafe int FluidCount
        {
            get
            {
                uint n;
                return (int)SinewException.Checked(SinewNative.sinew_world_fluid_count(Handle, &n), n);
            }
        }
    }

    /// <summary>A fluid owned by a <see cref="World"/>. Its particles are
    /// <see cref="FirstParticle"/>..FirstParticle+<see cref="Capacity"/>; the live ones are
    /// the first Stats.count of them (a removed particle's slot takes the last live one's
    /// state; no other body's index ever shifts). Every method throws
    /// <see cref="SinewException"/> on failure and changes nothing then; after
    /// <see cref="Remove"/> they throw with status ErrorInvalidHandle.
    /// <see cref="Dispose"/> removes the fluid if it is still there.</summary>
    public sealed class Fluid : IDisposable
    {
        /// <summary>The world that owns the fluid.</summary>
        public World World { get; private set; }
        /// <summary>The native handle (for the raw layer).</summary>
        public SinewFluidHandle Handle { get; private set; }
        /// <summary>World index of the fluid's first reserved particle (the live ones are
        /// the first <see cref="Count"/> from it).</summary>
        public int FirstParticle { get; private set; }
        /// <summary>Particles reserved for the fluid.</summary>
        public int Capacity { get; private set; }
        /// <summary>True once <see cref="Remove"/> or <see cref="Dispose"/> removed it.</summary>
        public bool IsRemoved { get; private set; }

        internal unsafe Fluid(World world, SinewFluidHandle handle)
        {
            World = world;
            Handle = handle;
            uint first, capacity;
            SinewException.Check(SinewNative.sinew_fluid_particle_range(world.Handle, handle, &first, &capacity));
            FirstParticle = (int)first;
            Capacity = (int)capacity;
        }

        /// <summary>The fluid's settings; setting them changes a running fluid from the next
        /// step on (Capacity and Spacing must stay as they are).</summary>
        public unsafe FluidSettings Settings
        {
            get
            {
                SinewFluidDesc d;
                SinewException.Check(SinewNative.sinew_fluid_get_desc(World.Handle, Handle, &d));
                return FluidSettings.FromNative(d);
            }
            set
            {
                SinewFluidDesc d = value.ToNative();
                SinewException.Check(SinewNative.sinew_fluid_set_desc(World.Handle, Handle, &d));
            }
        }

        /// <summary>Counters (live, emitted, removed, refused) and the mean and largest
        /// ρ/ρ₀ of the last step.</summary>
        public unsafe FluidStats Stats
        {
            get
            {
                SinewFluidStats s;
                return FluidStats.From(SinewException.Checked(SinewNative.sinew_fluid_stats(World.Handle, Handle, &s), s));
            }
        }

        /// <summary>Live particles.</summary>
        public int Count { get { return Stats.Count; } }

        /// <summary>Emits one particle per position (m) with <paramref name="velocities"/>
        /// (m/s; null = at rest), all or none (more than the free capacity is refused).
        /// Positions and velocities are Unity's Vector3, SinewVec3, or any blittable struct
        /// whose first 12 bytes are x, y, z. Returns the index (among the live particles) of
        /// the first new one.</summary>
        public unsafe int Emit<T>(T[] positions, T[] velocities = null) where T : struct
        {
            const string F = "Fluid.Emit";
            Args.NotNull(positions, F, "positions");
            Args.Vec3Element<T>(F);
            if (velocities != null && velocities.Length != positions.Length)
                throw SinewException.Argument(F, "velocities has " + velocities.Length + " elements for " +
                    positions.Length + " positions");
            uint first;
            if (Element<T>.Size == 12)
            {
                using (var p = new Pin(positions))
                using (var v = new Pin(velocities))
                    SinewException.Check(SinewNative.sinew_fluid_emit(World.Handle, Handle, (SinewVec3*)p.Ptr,
                        (SinewVec3*)v.Ptr, (uint)positions.Length, &first));
                return (int)first;
            }
            var pp = Packed(positions);
            var vv = velocities == null ? null : Packed(velocities);
            fixed (SinewVec3* p = pp)
            fixed (SinewVec3* v = vv)
                SinewException.Check(SinewNative.sinew_fluid_emit(World.Handle, Handle, p, v, (uint)pp.Length, &first));
            return (int)first;
        }

        static unsafe SinewVec3[] Packed<T>(T[] values) where T : struct
        {
            var packed = new SinewVec3[values.Length];
            int size = Element<T>.Size;
            using (var p = new Pin(values))
                for (int k = 0; k < values.Length; k++)
                    packed[k] = *(SinewVec3*)(p.Ptr + (long)k * size);
            return packed;
        }

        /// <summary>Removes every live particle (the slots stay reserved).</summary>
        public void Clear()
        {
            SinewException.Check(SinewNative.sinew_fluid_clear(World.Handle, Handle));
        }

        /// <summary>Adds an emitter (it emits from the next step on).</summary>
        public unsafe Emitter AddEmitter(EmitterSettings settings)
        {
            SinewEmitterDesc d = settings.ToNative();
            SinewEmitterHandle e;
            return new Emitter(this, SinewException.Checked(SinewNative.sinew_fluid_add_emitter(World.Handle, Handle, &d, &e), e));
        }

        /// <summary>Adds a kill volume: the fluid's particles inside it are removed at the end
        /// of each step.</summary>
        public unsafe KillVolume AddKillVolume(KillVolumeSettings settings)
        {
            SinewKillVolumeDesc d = settings.ToNative();
            SinewKillVolumeHandle k;
            return new KillVolume(this, SinewException.Checked(SinewNative.sinew_fluid_add_kill_volume(World.Handle, Handle, &d, &k), k));
        }

        /// <summary>Copies the live particles, in order, into the arrays that are not null:
        /// positions (m, interpolated between the start and the end of the last step by
        /// <paramref name="alpha"/> in [0, 1], the one World.Advance returned; 1 = now),
        /// velocities (m/s) and density ratios ρ/ρ₀. Vectors are Unity's Vector3, SinewVec3
        /// or any blittable struct whose first 12 bytes are x, y, z (a vertex struct: the
        /// stride is its size). Returns the live count; arrays shorter than it throw
        /// (ErrorOutOfRange) and nothing is written.</summary>
        public unsafe int ReadParticles<T>(float alpha, T[] positions, T[] velocities, float[] densityRatios) where T : struct
        {
            const string F = "Fluid.ReadParticles";
            Args.Vec3Element<T>(F);
            int capacity = int.MaxValue;
            if (positions != null)
                capacity = Math.Min(capacity, positions.Length);
            if (velocities != null)
                capacity = Math.Min(capacity, velocities.Length);
            if (densityRatios != null)
                capacity = Math.Min(capacity, densityRatios.Length);
            if (capacity == int.MaxValue)
                capacity = 0;
            using (var p = new Pin(positions))
            using (var v = new Pin(velocities))
            using (var d = new Pin(densityRatios))
                return ReadParticles(alpha, capacity, p.Ptr, Element<T>.Size, v.Ptr, Element<T>.Size, d.Ptr, 4);
        }

        /// <summary>Copies the live particles straight into strided buffers (a vertex
        /// buffer): each may be null (skipped); <paramref name="capacity"/> elements fit in
        /// each; strides in bytes (vectors at least 12, densities at least 4). Returns the
        /// live count.</summary>
        public unsafe int ReadParticles(float alpha, int capacity, void* positions, int positionStride,
                                        void* velocities, int velocityStride, void* densityRatios, int densityStride)
        {
            uint n;
            SinewException.Check(SinewNative.sinew_fluid_read_particles(World.Handle, Handle, alpha,
                unchecked((uint)capacity), positions, unchecked((uint)positionStride), velocities,
                unchecked((uint)velocityStride), densityRatios, unchecked((uint)densityStride), &n));
            return (int)n;
        }

        /// <summary>Computes the ellipsoid of each live particle (Yu &amp; Turk 2013: smoothed
        /// centre and three axes from its neighbours; docs/fluids.md) into
        /// <paramref name="ellipsoids"/>, in the order of ReadParticles: T is
        /// <see cref="SinewFluidEllipsoid"/> or any blittable struct of at least 48 bytes
        /// whose first 48 are the centre and the three axes (direction times radius, longest
        /// first, right-handed): the columns of a unit sphere's instance matrix. Computed by
        /// this call from the last step's neighbour grid; nothing is allocated. Returns the
        /// live count; a shorter array throws ErrorOutOfRange and nothing is
        /// written.</summary>
        public unsafe int ReadAnisotropy<T>(AnisotropySettings settings, float alpha, T[] ellipsoids) where T : struct
        {
            const string F = "Fluid.ReadAnisotropy";
            Args.NotNull(ellipsoids, F, "ellipsoids");
            if (!Element<T>.Blittable || Element<T>.Size < sizeof(SinewFluidEllipsoid))
                throw SinewException.Argument(F, typeof(T).Name + " is not a blittable struct of at least " +
                    sizeof(SinewFluidEllipsoid) + " bytes");
            using (var p = new Pin(ellipsoids))
                return ReadAnisotropy(settings, alpha, ellipsoids.Length, p.Ptr, Element<T>.Size);
        }

        /// <summary>ReadAnisotropy into a strided buffer of <paramref name="capacity"/>
        /// elements <paramref name="stride"/> bytes apart (at least 48; an instance buffer);
        /// a null buffer only counts. Returns the live count.</summary>
        public unsafe int ReadAnisotropy(AnisotropySettings settings, float alpha, int capacity, void* ellipsoids, int stride)
        {
            SinewAnisotropyDesc d = settings.ToNative();
            uint n;
            SinewException.Check(SinewNative.sinew_fluid_read_anisotropy(World.Handle, Handle, &d, alpha,
                unchecked((uint)capacity), ellipsoids, unchecked((uint)stride), &n));
            return (int)n;
        }

        /// <summary>Sets the fluid's diffuse particles (spray, foam, bubbles; Capacity 0
        /// removes them): room is reserved now, later steps move, age and spawn them
        /// without allocating. Not held by snapshots.</summary>
        public unsafe void SetDiffuse(DiffuseSettings settings)
        {
            SinewDiffuseDesc d = settings.ToNative();
            SinewException.Check(SinewNative.sinew_fluid_set_diffuse(World.Handle, Handle, &d));
        }

        /// <summary>The fluid's diffuse settings (Capacity 0 when it has none).</summary>
        public unsafe DiffuseSettings Diffuse
        {
            get
            {
                SinewDiffuseDesc d;
                SinewException.Check(SinewNative.sinew_fluid_get_diffuse(World.Handle, Handle, &d));
                return DiffuseSettings.FromNative(d);
            }
        }

        /// <summary>Copies the live diffuse particles into <paramref name="particles"/>:
        /// T is <see cref="SinewDiffuseParticle"/> or any blittable struct of at least 32
        /// bytes starting with its fields (position, lifetime, velocity, kind). Nothing is
        /// allocated. Returns their number; a shorter array throws ErrorOutOfRange and
        /// nothing is written.</summary>
        public unsafe int ReadDiffuse<T>(T[] particles) where T : struct
        {
            const string F = "Fluid.ReadDiffuse";
            Args.NotNull(particles, F, "particles");
            if (!Element<T>.Blittable || Element<T>.Size < sizeof(SinewDiffuseParticle))
                throw SinewException.Argument(F, typeof(T).Name + " is not a blittable struct of at least " +
                    sizeof(SinewDiffuseParticle) + " bytes");
            using (var p = new Pin(particles))
                return ReadDiffuse(particles.Length, p.Ptr, Element<T>.Size);
        }

        /// <summary>ReadDiffuse into a strided buffer (stride at least 32 bytes); a null
        /// buffer only counts. Returns the number of diffuse particles.</summary>
        public unsafe int ReadDiffuse(int capacity, void* particles, int stride)
        {
            uint n;
            SinewException.Check(SinewNative.sinew_fluid_read_diffuse(World.Handle, Handle,
                unchecked((uint)capacity), particles, unchecked((uint)stride), &n));
            return (int)n;
        }

        /// <summary>Builds the fluid's surface mesh (docs/fluids.md "Drawing water":
        /// marching tetrahedra over a narrow band of a smooth colour field of the particles
        /// at the positions interpolated by <paramref name="alpha"/>), replacing the world's
        /// last one, and returns its size; copy it out with ReadSurface. Closed, normals
        /// outward, triangles counter-clockwise seen from outside in Sinew's right-handed
        /// frame (flip the winding for a left-handed engine). Later builds allocate nothing
        /// once the buffers have room.</summary>
        public unsafe SurfaceCounts BuildSurface(SurfaceSettings settings, float alpha)
        {
            SinewSurfaceDesc d = settings.ToNative();
            SinewSurfaceCounts c;
            SinewException.Check(SinewNative.sinew_fluid_build_surface(World.Handle, Handle, &d, alpha, &c));
            return SurfaceCounts.From(c);
        }

        /// <summary>Copies the mesh of the last BuildSurface of this fluid into the arrays
        /// that are not null: positions (m) and unit normals (Unity's Vector3, SinewVec3 or
        /// any blittable struct whose first 12 bytes are x, y, z) and indices (three per
        /// triangle). Returns the counts; an array shorter than its count throws
        /// (ErrorOutOfRange) and nothing is written.</summary>
        public unsafe SurfaceCounts ReadSurface<T>(T[] positions, T[] normals, int[] indices) where T : struct
        {
            const string F = "Fluid.ReadSurface";
            Args.Vec3Element<T>(F);
            int vertices = int.MaxValue;
            if (positions != null)
                vertices = Math.Min(vertices, positions.Length);
            if (normals != null)
                vertices = Math.Min(vertices, normals.Length);
            if (vertices == int.MaxValue)
                vertices = 0;
            using (var p = new Pin(positions))
            using (var n = new Pin(normals))
            using (var i = new Pin(indices))
                return ReadSurface(vertices, p.Ptr, Element<T>.Size, n.Ptr, Element<T>.Size,
                    indices == null ? 0 : indices.Length, (uint*)i.Ptr);
        }

        /// <summary>ReadSurface straight into strided buffers (a vertex buffer: positions and
        /// normals may interleave with the same stride, at least 12 bytes) and a packed
        /// index buffer; any may be null (skipped).</summary>
        public unsafe SurfaceCounts ReadSurface(int vertexCapacity, void* positions, int positionStride,
                                                      void* normals, int normalStride, int indexCapacity, uint* indices)
        {
            SinewSurfaceCounts c;
            SinewException.Check(SinewNative.sinew_fluid_read_surface(World.Handle, Handle,
                unchecked((uint)vertexCapacity), positions, unchecked((uint)positionStride), normals,
                unchecked((uint)normalStride), unchecked((uint)indexCapacity), indices, &c));
            return SurfaceCounts.From(c);
        }

        /// <summary>Removes the fluid: its particles become inert for good (their indices
        /// stay), its emitters and kill volumes go with it.</summary>
        public void Remove()
        {
            SinewException.Check(SinewNative.sinew_fluid_remove(World.Handle, Handle));
            IsRemoved = true;
        }

        /// <summary>Removes the fluid if it and its world are still there; otherwise does
        /// nothing.</summary>
        public void Dispose()
        {
            if (IsRemoved || World.IsDisposed)
                return;
            IsRemoved = true;
            try
            {
                // Fails only for a fluid the raw layer already removed: nothing to do then.
                SinewNative.sinew_fluid_remove(World.Handle, Handle);
            }
            catch (ObjectDisposedException)
            {
                // The world was disposed meanwhile, and the fluid with it.
            }
        }

        public override string ToString()
        {
            return "Fluid, particles " + FirstParticle + ".." + (FirstParticle + Capacity);
        }
    }

    /// <summary>An emitter of a <see cref="Fluid"/> (<see cref="Fluid.AddEmitter"/>).</summary>
    public sealed class Emitter
    {
        /// <summary>The fluid it emits into.</summary>
        public Fluid Fluid { get; private set; }
        /// <summary>The native handle.</summary>
        public SinewEmitterHandle Handle { get; private set; }

        internal Emitter(Fluid fluid, SinewEmitterHandle handle)
        {
            Fluid = fluid;
            Handle = handle;
        }

        /// <summary>Moves or retunes the emitter (a hose that follows the player); next step on.</summary>
        public unsafe void Set(EmitterSettings settings)
        {
            SinewEmitterDesc d = settings.ToNative();
            SinewException.Check(SinewNative.sinew_emitter_set(Fluid.World.Handle, Handle, &d));
        }

        /// <summary>Removes the emitter; later calls throw (ErrorInvalidHandle).</summary>
        public void Remove()
        {
            SinewException.Check(SinewNative.sinew_emitter_remove(Fluid.World.Handle, Handle));
        }
    }

    /// <summary>A kill volume of a <see cref="Fluid"/> (<see cref="Fluid.AddKillVolume"/>).</summary>
    public sealed class KillVolume
    {
        /// <summary>The fluid whose particles it removes.</summary>
        public Fluid Fluid { get; private set; }
        /// <summary>The native handle.</summary>
        public SinewKillVolumeHandle Handle { get; private set; }

        internal KillVolume(Fluid fluid, SinewKillVolumeHandle handle)
        {
            Fluid = fluid;
            Handle = handle;
        }

        /// <summary>Removes the kill volume; removing it again throws (ErrorInvalidHandle).</summary>
        public void Remove()
        {
            SinewException.Check(SinewNative.sinew_kill_volume_remove(Fluid.World.Handle, Handle));
        }
    }
}

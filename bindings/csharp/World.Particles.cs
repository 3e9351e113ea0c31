// Sinew.World: particles. Positions in m, velocities in m/s, inverse masses in 1/kg
// (0 = pinned: the particle moves only when you write its position).
//
// Position and velocity arrays are generic over any blittable struct T of at least 12
// bytes whose first three floats are x, y, z: Unity's Vector3, SinewVec3, or a vertex
// struct that starts with its position. They are pinned and read or written by the
// library in place with stride sizeof(T): no per-element marshalling.

using Sinew.Native;

namespace Sinew
{
    public sealed partial class World
    {
        /// <summary>Number of particles in the world.</summary>
        public unsafe int ParticleCount
        {
            get { uint n; return (int)SinewException.Checked(SinewNative.sinew_world_particle_count(Handle, &n), n); }
        }

        /// <summary>Adds particles at rest at <paramref name="positions"/> (m) with
        /// <paramref name="inverseMasses"/> (1/kg, 0 = pinned; null = all 1 kg). Returns
        /// the index of the first; the new particles are first..first+positions.Length.</summary>
        public unsafe int AddParticles<T>(T[] positions, float[] inverseMasses = null) where T : struct
        {
            const string F = "World.AddParticles";
            Args.NotNull(positions, F, "positions");
            Args.Vec3Element<T>(F);
            if (inverseMasses != null && inverseMasses.Length != positions.Length)
                throw SinewException.Argument(F, "inverseMasses has " + inverseMasses.Length +
                    " elements but positions has " + positions.Length);
            using (var p = PackVec3(positions, F, "positions"))
            using (var m = new Pin(inverseMasses))
                return AddParticles((SinewVec3*)p.Ptr, (float*)m.Ptr, positions.Length);
        }

        /// <summary>Adds <paramref name="count"/> particles from packed positions (m) and
        /// inverse masses (1/kg; null = all 1). Returns the index of the first.</summary>
        public unsafe int AddParticles(SinewVec3* positions, float* inverseMasses, int count)
        {
            uint first;
            SinewException.Check(SinewNative.sinew_world_add_particles(Handle, positions, inverseMasses, unchecked((uint)count), &first));
            return (int)first;
        }

        // Positions and velocities, read and written: three overloads each (whole array,
        // part of an array, raw strided memory), all through Strided below.

        /// <summary>Copies positions (m) of particles first..first+destination.Length
        /// into <paramref name="destination"/>.</summary>
        public void ReadPositions<T>(int first, T[] destination) where T : struct
        {
            Strided(readPositions, first, destination, "World.ReadPositions", "destination");
        }

        /// <summary>Copies positions (m) of particles first..first+count into
        /// destination[start..start+count].</summary>
        public void ReadPositions<T>(int first, T[] destination, int start, int count) where T : struct
        {
            Strided(readPositions, first, destination, start, count, "World.ReadPositions", "destination");
        }

        /// <summary>Copies positions (m) of particles first..first+count to
        /// <paramref name="destination"/>, one x, y, z every <paramref name="strideBytes"/>
        /// (>= 12), e.g. straight into a vertex buffer.</summary>
        public unsafe void ReadPositions(int first, int count, void* destination, int strideBytes)
        {
            Strided(readPositions, first, count, destination, strideBytes);
        }

        /// <summary>Moves particles first..first+source.Length to <paramref name="source"/>
        /// (m); velocities are kept. Pinned particles (inverse mass 0) are moved this way.</summary>
        public void WritePositions<T>(int first, T[] source) where T : struct
        {
            Strided(writePositions, first, source, "World.WritePositions", "source");
        }

        /// <summary>Moves particles first..first+count to source[start..start+count] (m).</summary>
        public void WritePositions<T>(int first, T[] source, int start, int count) where T : struct
        {
            Strided(writePositions, first, source, start, count, "World.WritePositions", "source");
        }

        /// <summary>Moves particles first..first+count to positions (m) read every
        /// <paramref name="strideBytes"/> (>= 12) from <paramref name="source"/>.</summary>
        public unsafe void WritePositions(int first, int count, void* source, int strideBytes)
        {
            Strided(writePositions, first, count, source, strideBytes);
        }

        /// <summary>Copies velocities (m/s) of particles first..first+destination.Length.</summary>
        public void ReadVelocities<T>(int first, T[] destination) where T : struct
        {
            Strided(readVelocities, first, destination, "World.ReadVelocities", "destination");
        }

        /// <summary>Copies velocities (m/s) of particles first..first+count into
        /// destination[start..start+count].</summary>
        public void ReadVelocities<T>(int first, T[] destination, int start, int count) where T : struct
        {
            Strided(readVelocities, first, destination, start, count, "World.ReadVelocities", "destination");
        }

        /// <summary>Copies velocities (m/s) of particles first..first+count (strided).</summary>
        public unsafe void ReadVelocities(int first, int count, void* destination, int strideBytes)
        {
            Strided(readVelocities, first, count, destination, strideBytes);
        }

        /// <summary>Sets velocities (m/s) of particles first..first+source.Length; pinned
        /// particles keep velocity 0.</summary>
        public void WriteVelocities<T>(int first, T[] source) where T : struct
        {
            Strided(writeVelocities, first, source, "World.WriteVelocities", "source");
        }

        /// <summary>Sets velocities (m/s) of particles first..first+count from
        /// source[start..start+count].</summary>
        public void WriteVelocities<T>(int first, T[] source, int start, int count) where T : struct
        {
            Strided(writeVelocities, first, source, start, count, "World.WriteVelocities", "source");
        }

        /// <summary>Sets velocities (m/s) of particles first..first+count (strided).</summary>
        public unsafe void WriteVelocities(int first, int count, void* source, int strideBytes)
        {
            Strided(writeVelocities, first, count, source, strideBytes);
        }

        /// <summary>Sets inverse masses (1/kg; 0 = pinned) of particles
        /// first..first+inverseMasses.Length.</summary>
        public unsafe void SetInverseMasses(int first, float[] inverseMasses)
        {
            Args.NotNull(inverseMasses, "World.SetInverseMasses", "inverseMasses");
            using (var p = new Pin(inverseMasses))
                SetInverseMasses(first, (float*)p.Ptr, inverseMasses.Length);
        }

        /// <summary>Sets inverse masses (1/kg; 0 = pinned) of particles first..first+count.</summary>
        public unsafe void SetInverseMasses(int first, float* inverseMasses, int count)
        {
            SinewException.Check(SinewNative.sinew_world_set_inverse_masses(Handle, unchecked((uint)first), unchecked((uint)count), inverseMasses));
        }

        /// <summary>The four strided particle calls of the library (one signature).</summary>
        unsafe delegate int StridedCall(SinewWorldHandle world, uint first, uint count, void* data, uint strideBytes);

        // Created once: the per-frame reads and writes allocate nothing.
        static readonly unsafe StridedCall readPositions = SinewNative.sinew_world_read_positions;
        static readonly unsafe StridedCall writePositions = SinewNative.sinew_world_write_positions;
        static readonly unsafe StridedCall readVelocities = SinewNative.sinew_world_read_velocities;
        static readonly unsafe StridedCall writeVelocities = SinewNative.sinew_world_write_velocities;

        /// <summary>Particles first..first+array.Length from or to the whole array.</summary>
        void Strided<T>(StridedCall call, int first, T[] array, string function, string name) where T : struct
        {
            Args.NotNull(array, function, name);
            Strided(call, first, array, 0, array.Length, function, name);
        }

        /// <summary>Particles first..first+count from or to array[start..start+count], pinned
        /// in place with stride sizeof(T).</summary>
        unsafe void Strided<T>(StridedCall call, int first, T[] array, int start, int count, string function,
                               string name) where T : struct
        {
            using (var p = PinVec3(array, start, count, function, name))
                Strided(call, first, count, p.Ptr + (long)start * Element<T>.Size, Element<T>.Size);
        }

        unsafe void Strided(StridedCall call, int first, int count, void* data, int strideBytes)
        {
            SinewException.Check(call(Handle, unchecked((uint)first), unchecked((uint)count), data, unchecked((uint)strideBytes)));
        }

        static Pin PinVec3<T>(T[] array, int start, int count, string function, string name) where T : struct
        {
            Args.NotNull(array, function, name);
            Args.Vec3Element<T>(function);
            Args.Range(array.Length, start, count, function, name);
            return new Pin(array);
        }
    }
}

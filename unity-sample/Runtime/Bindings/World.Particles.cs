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
            get
            {
                uint n;
                SinewException.Check(SinewNative.sinew_world_particle_count(Handle, &n));
                return (int)n;
            }
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
            if (Element<T>.Size == 12)
            {
                using (var p = new Pin(positions))
                using (var m = new Pin(inverseMasses))
                    return AddParticles((SinewVec3*)p.Ptr, (float*)m.Ptr, positions.Length);
            }
            // A wider struct: gather the positions (the library takes packed SinewVec3).
            var packed = new SinewVec3[positions.Length];
            using (var p = new Pin(positions))
            {
                for (int i = 0; i < packed.Length; i++)
                    packed[i] = *(SinewVec3*)(p.Ptr + (long)i * Element<T>.Size);
            }
            return AddParticles(packed, inverseMasses);
        }

        /// <summary>Adds <paramref name="count"/> particles from packed positions (m) and
        /// inverse masses (1/kg; null = all 1). Returns the index of the first.</summary>
        public unsafe int AddParticles(SinewVec3* positions, float* inverseMasses, int count)
        {
            uint first;
            SinewException.Check(SinewNative.sinew_world_add_particles(Handle, positions, inverseMasses, unchecked((uint)count), &first));
            return (int)first;
        }

        /// <summary>Copies positions (m) of particles first..first+destination.Length
        /// into <paramref name="destination"/>.</summary>
        public void ReadPositions<T>(int first, T[] destination) where T : struct
        {
            Args.NotNull(destination, "World.ReadPositions", "destination");
            ReadPositions(first, destination, 0, destination.Length);
        }

        /// <summary>Copies positions (m) of particles first..first+count into
        /// destination[start..start+count].</summary>
        public unsafe void ReadPositions<T>(int first, T[] destination, int start, int count) where T : struct
        {
            using (var p = PinVec3(destination, start, count, "World.ReadPositions", "destination"))
                ReadPositions(first, count, p.Ptr + (long)start * Element<T>.Size, Element<T>.Size);
        }

        /// <summary>Copies positions (m) of particles first..first+count to
        /// <paramref name="destination"/>, one x, y, z every <paramref name="strideBytes"/>
        /// (>= 12), e.g. straight into a vertex buffer.</summary>
        public unsafe void ReadPositions(int first, int count, void* destination, int strideBytes)
        {
            SinewException.Check(SinewNative.sinew_world_read_positions(Handle, unchecked((uint)first), unchecked((uint)count), destination, unchecked((uint)strideBytes)));
        }

        /// <summary>Moves particles first..first+source.Length to <paramref name="source"/>
        /// (m); velocities are kept. Pinned particles (inverse mass 0) are moved this way.</summary>
        public void WritePositions<T>(int first, T[] source) where T : struct
        {
            Args.NotNull(source, "World.WritePositions", "source");
            WritePositions(first, source, 0, source.Length);
        }

        /// <summary>Moves particles first..first+count to source[start..start+count] (m).</summary>
        public unsafe void WritePositions<T>(int first, T[] source, int start, int count) where T : struct
        {
            using (var p = PinVec3(source, start, count, "World.WritePositions", "source"))
                WritePositions(first, count, p.Ptr + (long)start * Element<T>.Size, Element<T>.Size);
        }

        /// <summary>Moves particles first..first+count to positions (m) read every
        /// <paramref name="strideBytes"/> (>= 12) from <paramref name="source"/>.</summary>
        public unsafe void WritePositions(int first, int count, void* source, int strideBytes)
        {
            SinewException.Check(SinewNative.sinew_world_write_positions(Handle, unchecked((uint)first), unchecked((uint)count), source, unchecked((uint)strideBytes)));
        }

        /// <summary>Copies velocities (m/s) of particles first..first+destination.Length.</summary>
        public void ReadVelocities<T>(int first, T[] destination) where T : struct
        {
            Args.NotNull(destination, "World.ReadVelocities", "destination");
            ReadVelocities(first, destination, 0, destination.Length);
        }

        /// <summary>Copies velocities (m/s) of particles first..first+count into
        /// destination[start..start+count].</summary>
        public unsafe void ReadVelocities<T>(int first, T[] destination, int start, int count) where T : struct
        {
            using (var p = PinVec3(destination, start, count, "World.ReadVelocities", "destination"))
                ReadVelocities(first, count, p.Ptr + (long)start * Element<T>.Size, Element<T>.Size);
        }

        /// <summary>Copies velocities (m/s) of particles first..first+count (strided).</summary>
        public unsafe void ReadVelocities(int first, int count, void* destination, int strideBytes)
        {
            SinewException.Check(SinewNative.sinew_world_read_velocities(Handle, unchecked((uint)first), unchecked((uint)count), destination, unchecked((uint)strideBytes)));
        }

        /// <summary>Sets velocities (m/s) of particles first..first+source.Length; pinned
        /// particles keep velocity 0.</summary>
        public void WriteVelocities<T>(int first, T[] source) where T : struct
        {
            Args.NotNull(source, "World.WriteVelocities", "source");
            WriteVelocities(first, source, 0, source.Length);
        }

        /// <summary>Sets velocities (m/s) of particles first..first+count from
        /// source[start..start+count].</summary>
        public unsafe void WriteVelocities<T>(int first, T[] source, int start, int count) where T : struct
        {
            using (var p = PinVec3(source, start, count, "World.WriteVelocities", "source"))
                WriteVelocities(first, count, p.Ptr + (long)start * Element<T>.Size, Element<T>.Size);
        }

        /// <summary>Sets velocities (m/s) of particles first..first+count (strided).</summary>
        public unsafe void WriteVelocities(int first, int count, void* source, int strideBytes)
        {
            SinewException.Check(SinewNative.sinew_world_write_velocities(Handle, unchecked((uint)first), unchecked((uint)count), source, unchecked((uint)strideBytes)));
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

        static Pin PinVec3<T>(T[] array, int start, int count, string function, string name) where T : struct
        {
            Args.NotNull(array, function, name);
            Args.Vec3Element<T>(function);
            Args.Range(array.Length, start, count, function, name);
            return new Pin(array);
        }
    }
}

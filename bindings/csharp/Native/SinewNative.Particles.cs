// Raw layer: particles (src/ffi/particles.rs). Positions in m, velocities in m/s,
// inverse masses in 1/kg (0 = pinned). Strided buffers: one SinewVec3 every
// stride_bytes (>= 12).

using System.Runtime.InteropServices;

namespace Sinew.Native
{
    public static unsafe partial class SinewNative
    {
        /// <summary>Adds <c>count</c> particles at rest; <c>inverse_masses</c> NULL = all 1.</summary>
        [DllImport(Lib, CallingConvention = CallingConvention.Cdecl)]
        public static extern int sinew_world_add_particles(SinewWorld world, SinewVec3* positions, float* inverse_masses, uint count, uint* out_first);

        /// <summary>Writes the number of particles to <c>*out_count</c>.</summary>
        [DllImport(Lib, CallingConvention = CallingConvention.Cdecl)]
        public static extern int sinew_world_particle_count(SinewWorld world, uint* out_count);

        /// <summary>Copies positions of <c>first..first+count</c> to <c>out</c> (strided).</summary>
        [DllImport(Lib, CallingConvention = CallingConvention.Cdecl)]
        public static extern int sinew_world_read_positions(SinewWorld world, uint first, uint count, void* @out, uint stride_bytes);

        /// <summary>Moves particles <c>first..first+count</c> to <c>positions</c> (strided); velocities kept.</summary>
        [DllImport(Lib, CallingConvention = CallingConvention.Cdecl)]
        public static extern int sinew_world_write_positions(SinewWorld world, uint first, uint count, void* positions, uint stride_bytes);

        /// <summary>Copies velocities of <c>first..first+count</c> to <c>out</c> (strided).</summary>
        [DllImport(Lib, CallingConvention = CallingConvention.Cdecl)]
        public static extern int sinew_world_read_velocities(SinewWorld world, uint first, uint count, void* @out, uint stride_bytes);

        /// <summary>Sets velocities of <c>first..first+count</c> (strided); pinned particles keep 0.</summary>
        [DllImport(Lib, CallingConvention = CallingConvention.Cdecl)]
        public static extern int sinew_world_write_velocities(SinewWorld world, uint first, uint count, void* velocities, uint stride_bytes);

        /// <summary>Sets inverse masses (1/kg; 0 = pinned) of <c>first..first+count</c>.</summary>
        [DllImport(Lib, CallingConvention = CallingConvention.Cdecl)]
        public static extern int sinew_world_set_inverse_masses(SinewWorld world, uint first, uint count, float* inverse_masses);
    }
}

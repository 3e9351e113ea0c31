// Raw layer: distance constraints (src/ffi/constraints.rs). particle_pairs holds
// 2*count indices; rest_lengths (m) NULL = current distances; compliance in m/N.

using System.Runtime.InteropServices;

namespace Sinew.Native
{
    public static unsafe partial class SinewNative
    {
        /// <summary>Adds <c>count</c> XPBD distance constraints with compliance α (m/N).</summary>
        [DllImport(Lib, CallingConvention = CallingConvention.Cdecl)]
        public static extern int sinew_world_add_distance_constraints(SinewWorld world, uint* particle_pairs, float* rest_lengths, uint count, float compliance, uint* out_first);

        /// <summary>Adds <c>count</c> PBD distance constraints with stiffness k in [0, 1].</summary>
        [DllImport(Lib, CallingConvention = CallingConvention.Cdecl)]
        public static extern int sinew_world_add_pbd_distance_constraints(SinewWorld world, uint* particle_pairs, float* rest_lengths, uint count, float stiffness, uint* out_first);

        /// <summary>Writes the number of distance constraints (both flavours) to <c>*out_count</c>.</summary>
        [DllImport(Lib, CallingConvention = CallingConvention.Cdecl)]
        public static extern int sinew_world_distance_constraint_count(SinewWorld world, uint* out_count);

        /// <summary>Writes |λ|/h² (N) of constraints <c>first..first+count</c> in the last substep.</summary>
        [DllImport(Lib, CallingConvention = CallingConvention.Cdecl)]
        public static extern int sinew_world_read_constraint_forces(SinewWorld world, uint first, uint count, float* out_newtons);
    }
}

// Raw layer: world lifetime and stepping (src/ffi/world.rs).
//
// sinew_world_desc_default() returns a 40-byte struct by value and is deliberately not
// declared (by-value structs larger than a handle are not Burst-compatible and are
// marshalled differently across platforms); sinew_world_desc_init fills the same
// defaults through a pointer.

using System.Runtime.InteropServices;

namespace Sinew.Native
{
    public static unsafe partial class SinewNative
    {
        /// <summary>Fills <c>*out_desc</c> with every field at its default.</summary>
        [DllImport(Lib, CallingConvention = CallingConvention.Cdecl)]
        public static extern int sinew_world_desc_init(SinewWorldDesc* out_desc);

        /// <summary>Creates a world; <c>*out_world</c> is written only on success.</summary>
        [DllImport(Lib, CallingConvention = CallingConvention.Cdecl)]
        public static extern int sinew_world_create(SinewWorldDesc* desc, SinewWorld* out_world);

        /// <summary>Destroys a world; every copy of its handle becomes invalid.</summary>
        [DllImport(Lib, CallingConvention = CallingConvention.Cdecl)]
        public static extern int sinew_world_destroy(SinewWorld world);

        /// <summary>Advances the world by <c>dt</c> seconds (finite, in [1e-6, 10]).</summary>
        [DllImport(Lib, CallingConvention = CallingConvention.Cdecl)]
        public static extern int sinew_world_step(SinewWorld world, float dt);
    }
}

// Raw layer: library-wide functions (src/ffi/mod.rs).

using System.Runtime.InteropServices;

namespace Sinew.Native
{
    public static unsafe partial class SinewNative
    {
        /// <summary>Returns <c>SINEW_ABI_VERSION</c> of the loaded binary.</summary>
        [DllImport(Lib, CallingConvention = CallingConvention.Cdecl)]
        public static extern uint sinew_abi_version();

        /// <summary>The library version ("major.minor.patch"), a static NUL-terminated string.</summary>
        [DllImport(Lib, CallingConvention = CallingConvention.Cdecl)]
        public static extern byte* sinew_version();

        /// <summary>The reason for the last failed call on this thread, "function: reason".</summary>
        [DllImport(Lib, CallingConvention = CallingConvention.Cdecl)]
        public static extern byte* sinew_last_error_message();
    }
}

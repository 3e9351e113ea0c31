// Loading the native library: the first use of the idiomatic layer checks that the
// binary's sinew_abi_version() is the one these bindings were written for.

using System;
using Sinew.Native;

namespace Sinew
{
    /// <summary>The native library as a whole.</summary>
    public static class Library
    {
        static readonly object gate = new object();
        static bool loaded;
        static string failure;

        /// <summary>The ABI version these bindings were written for.</summary>
        public const uint ExpectedAbiVersion = SinewNative.SINEW_ABI_VERSION;

        /// <summary>Loads the library and checks its ABI version once; throws
        /// <see cref="SinewLibraryException"/> (every time) when it cannot be loaded or
        /// does not match. Every World calls it; call it early to fail early.</summary>
        public static void EnsureLoaded()
        {
            if (loaded)
                return;
            lock (gate)
            {
                if (loaded)
                    return;
                if (failure == null)
                    failure = Probe();
                if (failure != null)
                    throw new SinewLibraryException(failure);
                loaded = true;
            }
        }

        static string Probe()
        {
            uint native;
            try
            {
                native = SinewNative.sinew_abi_version();
            }
            catch (DllNotFoundException e)
            {
                return "the native library '" + SinewNative.Lib + "' could not be loaded (" + e.Message +
                       "); build it with `cargo build --release` and put " + SearchPath();
            }
            catch (EntryPointNotFoundException e)
            {
                return "the native library '" + SinewNative.Lib + "' has no sinew_abi_version (" + e.Message + "): not a Sinew binary";
            }
            return AbiMismatch(native, ExpectedAbiVersion);
        }

        /// <summary>Where this platform's runtime looks for the library, with the search
        /// variable's present value, for the message of a missing library.</summary>
        static string SearchPath()
        {
            string folder = AppDomain.CurrentDomain.BaseDirectory;
            switch (Environment.OSVersion.Platform)
            {
                case PlatformID.Win32NT:
                    return "sinew.dll in the program's folder (" + folder + ") or a folder on PATH";
                case PlatformID.MacOSX:
                    return "libsinew.dylib in the program's folder (" + folder + ") or on DYLD_LIBRARY_PATH (now '" +
                           Environment.GetEnvironmentVariable("DYLD_LIBRARY_PATH") + "')";
                default:
                    // Mono reports macOS as Unix too; LD_LIBRARY_PATH is what both Linux and
                    // Mono's own loader read.
                    return "libsinew.so (target/release/libsinew.so) in the program's folder (" + folder +
                           ") or a folder on LD_LIBRARY_PATH (now '" +
                           Environment.GetEnvironmentVariable("LD_LIBRARY_PATH") + "'); in Unity: the package's Plugins folder " +
                           "(unity-sample/Tools~/build-plugins.sh puts it there)";
            }
        }

        /// <summary>null when <paramref name="native"/> equals <paramref name="expected"/>,
        /// else the message that names both.</summary>
        public static string AbiMismatch(uint native, uint expected)
        {
            if (native == expected)
                return null;
            return "native Sinew library has ABI version " + native + " but these C# bindings need ABI version " +
                   expected + ": rebuild the library and the bindings from the same Sinew release";
        }

        /// <summary>The loaded library's version, "major.minor.patch".</summary>
        public static unsafe string Version
        {
            get
            {
                EnsureLoaded();
                return SinewNative.Utf8ToString(SinewNative.sinew_version());
            }
        }

        /// <summary>The loaded library's ABI version.</summary>
        public static uint AbiVersion
        {
            get
            {
                EnsureLoaded();
                return SinewNative.sinew_abi_version();
            }
        }
    }
}

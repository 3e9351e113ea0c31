// Loading checks, each run in its own Mono process by tests/csharp/run.sh:
//   --abi-mismatch  against a stand-in libsinew.so whose sinew_abi_version() returns 999
//   --no-library    with no libsinew.so to be found

using Sinew;
using Sinew.Native;

namespace SinewTests
{
    public static class AbiMismatchTests
    {
        public static void TestMismatchedBinaryIsRefusedNamingBothVersions()
        {
            var e = Check.Throws(SinewStatus.ErrorInternal, () => new World(), "ABI version 999", "ABI version " + Library.ExpectedAbiVersion);
            Check.True(e is SinewLibraryException, "a SinewLibraryException");
            // Refused every time, not only the first.
            Check.Throws(SinewStatus.ErrorInternal, () => { var unused = WorldSettings.Default; }, "ABI version 999");
            Check.Throws(SinewStatus.ErrorInternal, () => Library.EnsureLoaded(), "ABI version 999");
        }
    }

    public static class NoLibraryTests
    {
        public static void TestMissingLibraryIsASinewLibraryException()
        {
            var e = Check.Throws(SinewStatus.ErrorInternal, () => new World(), "'sinew' could not be loaded");
            Check.True(e is SinewLibraryException, "a SinewLibraryException");
            // It says where the runtime looked (tests/csharp/run.sh runs this with an empty
            // folder on LD_LIBRARY_PATH).
            Check.True(e.Message.Contains("LD_LIBRARY_PATH (now '") && e.Message.Contains("nolib"),
                "names the search path and its value: " + e.Message);
        }
    }
}

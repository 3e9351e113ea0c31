// The raw P/Invoke layer against the freshly built library: struct sizes, defaults,
// and status codes straight from the C functions.

using System.Runtime.InteropServices;
using Sinew;
using Sinew.Native;

namespace SinewTests
{
    public static unsafe class RawTests
    {
        public static void TestStructSizesMatchTheHeader()
        {
            Check.Equal(12, Marshal.SizeOf(typeof(SinewVec3)), "sizeof(SinewVec3)");
            Check.Equal(8, Marshal.SizeOf(typeof(SinewWorld)), "sizeof(SinewWorld)");
            Check.Equal(40, Marshal.SizeOf(typeof(SinewWorldDesc)), "sizeof(SinewWorldDesc)");
            Check.Equal(12, sizeof(SinewVec3), "unmanaged sizeof(SinewVec3)");
            Check.Equal(40, sizeof(SinewWorldDesc), "unmanaged sizeof(SinewWorldDesc)");
            Check.Equal(24, (int)Marshal.OffsetOf(typeof(SinewWorldDesc), "jacobi_relaxation"), "offset of jacobi_relaxation");
            Check.Equal(36, (int)Marshal.OffsetOf(typeof(SinewWorldDesc), "internal_cookie"), "offset of internal_cookie");
        }

        public static void TestAbiAndVersionFunctions()
        {
            Check.Equal(SinewNative.SINEW_ABI_VERSION, SinewNative.sinew_abi_version(), "sinew_abi_version");
            string v = SinewNative.Utf8ToString(SinewNative.sinew_version());
            Check.True(System.Text.RegularExpressions.Regex.IsMatch(v, @"^\d+\.\d+\.\d+$"), "version \"" + v + "\" is major.minor.patch");
        }

        public static void TestDescInitFillsDefaultsAndCookie()
        {
            SinewWorldDesc d = default(SinewWorldDesc);
            Check.Equal((int)SinewStatus.Ok, SinewNative.sinew_world_desc_init(&d), "desc_init");
            Check.Equal(-9.81f, d.gravity.y, "gravity.y");
            Check.Equal(0f, d.gravity.x, "gravity.x");
            Check.Equal(8u, d.substeps, "substeps");
            Check.Equal(1u, d.iterations, "iterations");
            Check.Equal((uint)SinewSolver.GaussSeidel, d.solver, "solver");
            Check.Equal(1f, d.jacobi_relaxation, "jacobi_relaxation");
            Check.Equal(0f, d.damping, "damping");
            Check.Equal(0u, d.threads, "threads");
            Check.True(d.internal_cookie != 0, "cookie set");
            Check.Equal((int)SinewStatus.ErrorNullPointer, SinewNative.sinew_world_desc_init(null), "desc_init(NULL)");
            Check.True(SinewNative.Utf8ToString(SinewNative.sinew_last_error_message()).StartsWith("sinew_world_desc_init: "),
                "last error names the function");
        }

        public static void TestCreateStepDestroyAndStaleHandle()
        {
            SinewWorldDesc d;
            SinewNative.sinew_world_desc_init(&d);
            SinewWorld w = default(SinewWorld);
            Check.Equal((int)SinewStatus.Ok, SinewNative.sinew_world_create(&d, &w), "create");
            Check.True(w.id != 0, "handle is not null");
            var p = new SinewVec3(0, 1, 0);
            uint first = 99;
            Check.Equal((int)SinewStatus.Ok, SinewNative.sinew_world_add_particles(w, &p, null, 1, &first), "add_particles");
            Check.Equal(0u, first, "first");
            Check.Equal((int)SinewStatus.Ok, SinewNative.sinew_world_step(w, 1f / 60f), "step");
            Check.Equal((int)SinewStatus.Ok, SinewNative.sinew_world_destroy(w), "destroy");
            Check.Equal((int)SinewStatus.ErrorInvalidHandle, SinewNative.sinew_world_destroy(w), "destroy twice");
            uint n = 1234;
            Check.Equal((int)SinewStatus.ErrorInvalidHandle, SinewNative.sinew_world_particle_count(w, &n), "count on stale handle");
            Check.Equal(1234u, n, "output untouched on failure");
        }

        public static void TestZeroedDescIsRejected()
        {
            SinewWorldDesc d = default(SinewWorldDesc);
            SinewWorld w = default(SinewWorld);
            Check.Equal((int)SinewStatus.ErrorInvalidArgument, SinewNative.sinew_world_create(&d, &w), "create from zeroed desc");
            Check.Equal(0ul, w.id, "out_world untouched");
            string m = SinewNative.Utf8ToString(SinewNative.sinew_last_error_message());
            Check.True(m.StartsWith("sinew_world_create: ") && m.Contains("sinew_world_desc_default"), m);
        }

        public static void TestUtf8ToStringOfNullIsEmpty()
        {
            Check.Equal("", SinewNative.Utf8ToString(null), "NULL");
            byte* s = stackalloc byte[4];
            s[0] = 0xC3; s[1] = 0xA9; s[2] = (byte)'!'; s[3] = 0;
            Check.Equal("\u00e9!", SinewNative.Utf8ToString(s), "UTF-8 decoding");
        }
    }
}

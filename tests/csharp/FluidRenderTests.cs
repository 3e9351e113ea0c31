// The fluid render outputs through the idiomatic layer: the anisotropy readback of a
// flat sheet into an array of SinewFluidEllipsoid and of a bigger instance struct (an
// ellipsoid and a colour), its settings' defaults, and bad input (a status and a
// message, nothing written).

using System;
using Sinew;
using Sinew.Native;

namespace SinewTests
{
    public static class FluidRenderTests
    {
        const int N = 12;
        const float S = 0.05f;

        /// <summary>An instance of a renderer's buffer: the ellipsoid, then a colour.</summary>
        public struct Instance
        {
            public SinewFluidEllipsoid Ellipsoid;
            public float R, G, B, A;
        }

        static float Dot(SinewVec3 a, SinewVec3 b) { return a.x * b.x + a.y * b.y + a.z * b.z; }

        static World Sheet(out Fluid f)
        {
            var w = NativeBodyTests.MakeWorld(0f, 8);
            var s = FluidSettings.Default;
            s.Spacing = S;
            s.Capacity = N * N;
            f = w.AddFluid(s);
            var at = new Vector3[N * N];
            for (int k = 0; k < at.Length; k++)
                at[k] = new Vector3((k % N) * S, 1f, (k / N) * S);
            f.Emit(at);
            w.Step(1f / 60f);
            return w;
        }

        /// <summary>Defaults from the library; a flat sheet reads flat (the shortest axis
        /// along its normal) into either element type, the colour between untouched.</summary>
        public static void TestAnisotropyOfASheet()
        {
            var a = AnisotropySettings.Default;
            Check.Near(0.9, a.Smoothing, 1e-7, "smoothing");
            Check.Near(4, a.MaxRatio, 0, "max ratio");
            Check.Equal(6, (int)a.MinNeighbours, "min neighbours");
            Fluid f;
            using (var w = Sheet(out f))
            {
                var e = new SinewFluidEllipsoid[N * N];
                Check.Equal(N * N, f.ReadAnisotropy(a, 1f, e), "count");
                var inst = new Instance[N * N];
                for (int k = 0; k < inst.Length; k++)
                    inst[k].A = 7f;
                Check.Equal(N * N, f.ReadAnisotropy(a, 1f, inst), "count into instances");
                int inner = 0;
                for (int k = 0; k < e.Length; k++)
                {
                    Check.Equal(7f, inst[k].A, "colour untouched");
                    Check.Equal(e[k].center.y, inst[k].Ellipsoid.center.y, "the same ellipsoid");
                    int x = k % N, z = k / N;
                    if (x < 3 || z < 3 || x > N - 4 || z > N - 4)
                        continue;
                    inner++;
                    float n = (float)Math.Sqrt(Dot(e[k].axis2, e[k].axis2));
                    float l = (float)Math.Sqrt(Dot(e[k].axis0, e[k].axis0));
                    Check.True(Math.Abs(e[k].axis2.y) > 0.999f * n, "shortest axis along the normal");
                    Check.True(3f * n < l, "flat");
                }
                Check.Equal((N - 6) * (N - 6), inner, "inner particles");
            }
        }

        /// <summary>Bad input: a short array, a small element, a bad setting.</summary>
        public static void TestAnisotropyBadInput()
        {
            Fluid f;
            using (var w = Sheet(out f))
            {
                var a = AnisotropySettings.Default;
                var e = new SinewFluidEllipsoid[N * N - 1];
                Check.Throws(SinewStatus.ErrorOutOfRange, () => f.ReadAnisotropy(a, 1f, e),
                    "sinew_fluid_read_anisotropy", "capacity");
                Check.Equal(0f, e[0].axis0.x, "nothing written");
                Check.Throws(SinewStatus.ErrorInvalidArgument, () => f.ReadAnisotropy(a, 1f, new Vector3[N * N]),
                    "Fluid.ReadAnisotropy");
                a.MaxRatio = 0.5f;
                Check.Throws(SinewStatus.ErrorInvalidArgument, () => f.ReadAnisotropy(a, 1f, new SinewFluidEllipsoid[N * N]),
                    "sinew_fluid_read_anisotropy", "max_ratio");
            }
        }
    }
}

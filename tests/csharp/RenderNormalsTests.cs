// Library-computed render normals and tangents through the idiomatic layer
// (RenderNormals.Compute, Body.ComputeRenderNormals): against a managed reference of what
// Unity's Mesh.RecalculateNormals computes (the area-weighted sum of the triangles'
// normals, normalised, per vertex), tangents along +U on a flat grid, a body's call equal
// to the mesh call over its interpolated positions, bad arguments refused; and a
// micro-benchmark (printed, not asserted) of the library call against that managed
// reference on Mono.

using System;
using System.Diagnostics;
using Sinew;
using Sinew.Native;

namespace SinewTests
{
    public static class RenderNormalsTests
    {
        struct V2
        {
            public float u, v;
        }

        struct V4
        {
            public float x, y, z, w;
        }

        static SinewVec3 Sub(SinewVec3 a, SinewVec3 b)
        {
            return new SinewVec3(a.x - b.x, a.y - b.y, a.z - b.z);
        }

        static SinewVec3 Cross(SinewVec3 a, SinewVec3 b)
        {
            return new SinewVec3(a.y * b.z - a.z * b.y, a.z * b.x - a.x * b.z, a.x * b.y - a.y * b.x);
        }

        static float Dot(SinewVec3 a, SinewVec3 b)
        {
            return a.x * b.x + a.y * b.y + a.z * b.z;
        }

        /// <summary>A wavy (cols+1) x (rows+1) grid along +X and +Z facing +Y, UVs 0..1.</summary>
        static void Grid(int cols, int rows, float wave, out SinewVec3[] p, out V2[] uv, out int[] tris)
        {
            p = new SinewVec3[(cols + 1) * (rows + 1)];
            uv = new V2[p.Length];
            for (int j = 0; j <= rows; j++)
                for (int i = 0; i <= cols; i++)
                {
                    float x = i * 0.1f, z = j * 0.1f;
                    p[j * (cols + 1) + i] = new SinewVec3(x, wave * (float)(Math.Sin(3 * x) * Math.Cos(2 * z)), z);
                    uv[j * (cols + 1) + i] = new V2 { u = i / (float)cols, v = j / (float)rows };
                }
            tris = new int[6 * cols * rows];
            int k = 0;
            for (int j = 0; j < rows; j++)
                for (int i = 0; i < cols; i++)
                {
                    int a = j * (cols + 1) + i, b = a + 1, c = a + cols + 1, d = c + 1;
                    tris[k++] = a; tris[k++] = c; tris[k++] = b;
                    tris[k++] = b; tris[k++] = c; tris[k++] = d;
                }
        }

        /// <summary>The managed reference: area-weighted face normals summed per vertex and
        /// normalised (RecalculateNormals' rule for vertices shared by their triangles).</summary>
        static void ReferenceNormals(SinewVec3[] p, int[] tris, SinewVec3[] n)
        {
            for (int i = 0; i < n.Length; i++)
                n[i] = new SinewVec3(0, 0, 0);
            for (int t = 0; t < tris.Length; t += 3)
            {
                int a = tris[t], b = tris[t + 1], c = tris[t + 2];
                var f = Cross(Sub(p[b], p[a]), Sub(p[c], p[a]));
                n[a] = new SinewVec3(n[a].x + f.x, n[a].y + f.y, n[a].z + f.z);
                n[b] = new SinewVec3(n[b].x + f.x, n[b].y + f.y, n[b].z + f.z);
                n[c] = new SinewVec3(n[c].x + f.x, n[c].y + f.y, n[c].z + f.z);
            }
            for (int i = 0; i < n.Length; i++)
            {
                float l = (float)Math.Sqrt(Dot(n[i], n[i]));
                n[i] = new SinewVec3(n[i].x / l, n[i].y / l, n[i].z / l);
            }
        }

        public static void TestNormalsMatchTheRecalculateNormalsReference()
        {
            SinewVec3[] p;
            V2[] uv;
            int[] tris;
            Grid(30, 20, 0.3f, out p, out uv, out tris);
            var expected = new SinewVec3[p.Length];
            ReferenceNormals(p, tris, expected);
            var n = new SinewVec3[p.Length];
            var t = new V4[p.Length];
            RenderNormals.Compute(p, tris, uv, n, t);
            double worst = 0;
            for (int i = 0; i < p.Length; i++)
            {
                worst = Math.Max(worst, 1 - Dot(n[i], expected[i]));
                var tv = new SinewVec3(t[i].x, t[i].y, t[i].z);
                Check.Near(0, Dot(tv, n[i]), 1e-5, "tangent " + i + " perpendicular to the normal");
                // +U runs along x: the surface's d/dx, (1, dh/dx, 0), normalised.
                float x = p[i].x, z = p[i].z;
                var du = new SinewVec3(1, (float)(0.9 * Math.Cos(3 * x) * Math.Cos(2 * z)), 0);
                Check.True(Dot(tv, du) / Math.Sqrt(Dot(du, du)) > 0.99, "tangent " + i + " along +U");
                Check.True(Math.Abs(t[i].w) == 1, "tangent " + i + " w is +-1");
                var b = Cross(n[i], tv);
                Check.True(b.z * t[i].w > 0.8f, "bitangent " + i + " along +V (+Z)");
            }
            Check.Near(0, worst, 1e-6, "1 - cos(angle) to the reference");
        }

        public static void TestFlatGridNormalsAreThePlaneNormal()
        {
            SinewVec3[] p;
            V2[] uv;
            int[] tris;
            Grid(4, 3, 0f, out p, out uv, out tris);
            var n = new SinewVec3[p.Length];
            RenderNormals.Compute<SinewVec3, V2, SinewVec3, V4>(p, tris, null, n, null);
            foreach (var v in n)
                Check.True(v.x == 0 && v.y == 1 && v.z == 0, "normal " + v.x + ", " + v.y + ", " + v.z);
        }

        public static void TestBodyCallIsTheMeshCallOverInterpolatedPositions()
        {
            var s = WorldSettings.Default;
            s.Threads = 1;
            using (var w = new World(s))
            {
                var grid = ClothGridSettings.Default;
                grid.SegmentsU = 8;
                grid.SegmentsV = 6;
                grid.PinCorners = 3;
                var cloth = w.AddClothGrid(ClothSettings.Default, grid);
                for (int i = 0; i < 10; i++)
                    w.Step(1f / 60f);
                int n = cloth.ParticleCount;
                int[] tris;
                SinewVec3[] unused;
                V2[] uv;
                Grid(8, 6, 0f, out unused, out uv, out tris);
                var pos = new SinewVec3[n];
                cloth.ReadInterpolatedPositions(0.5f, pos);
                var expected = new SinewVec3[n];
                var expectedT = new V4[n];
                RenderNormals.Compute(pos, tris, uv, expected, expectedT);
                var normals = new SinewVec3[n];
                var tangents = new V4[n];
                cloth.ComputeRenderNormals(0.5f, null, tris, uv, normals, tangents);
                for (int i = 0; i < n; i++)
                {
                    Check.True(normals[i].Equals(expected[i]), "normal " + i);
                    Check.True(tangents[i].Equals(expectedT[i]), "tangent " + i);
                }
                Check.Throws(SinewStatus.ErrorInvalidArgument,
                    () => cloth.ComputeRenderNormals<V2, SinewVec3, V4>(1.5f, null, tris, null, normals, null), "alpha");
                Check.Throws(SinewStatus.ErrorOutOfRange,
                    () => cloth.ComputeRenderNormals<V2, SinewVec3, V4>(1f, null, tris, null, new SinewVec3[n - 1], null));
            }
        }

        public static void TestBadArgumentsThrow()
        {
            var p = new SinewVec3[3];
            var n = new SinewVec3[3];
            Check.Throws(SinewStatus.ErrorOutOfRange,
                () => RenderNormals.Compute<SinewVec3, V2, SinewVec3, V4>(p, new[] { 0, 1, 3 }, null, n, null), "vertex 3");
            Check.Throws(SinewStatus.ErrorInvalidArgument,
                () => RenderNormals.Compute<SinewVec3, V2, SinewVec3, V4>(p, new[] { 0, 1 }, null, n, null), "multiple of 3");
            Check.Throws(SinewStatus.ErrorInvalidArgument,
                () => RenderNormals.Compute<SinewVec3, V4, SinewVec3, V4>(p, new[] { 0, 1, 2 }, new V4[3], n, null), "uvs");
            Check.Throws(SinewStatus.ErrorNullPointer,
                () => RenderNormals.Compute<SinewVec3, V2, SinewVec3, V4>(p, new[] { 0, 1, 2 }, null, null, null));
        }

        /// <summary>Printed, not asserted: the library call (normals and tangents) against
        /// the managed reference (normals only) on a 128 x 128 cloth mesh.</summary>
        public static void TestPrintCostAgainstManagedReference()
        {
            SinewVec3[] p;
            V2[] uv;
            int[] tris;
            Grid(127, 127, 0.3f, out p, out uv, out tris);
            var n = new SinewVec3[p.Length];
            var t = new V4[p.Length];
            const int Reps = 50;
            RenderNormals.Compute(p, tris, uv, n, t);
            ReferenceNormals(p, tris, n);
            var sw = Stopwatch.StartNew();
            for (int i = 0; i < Reps; i++)
                RenderNormals.Compute<SinewVec3, V2, SinewVec3, V4>(p, tris, null, n, null);
            double lib = sw.Elapsed.TotalMilliseconds / Reps;
            sw.Restart();
            for (int i = 0; i < Reps; i++)
                RenderNormals.Compute(p, tris, uv, n, t);
            double libT = sw.Elapsed.TotalMilliseconds / Reps;
            sw.Restart();
            for (int i = 0; i < Reps; i++)
                ReferenceNormals(p, tris, n);
            double managed = sw.Elapsed.TotalMilliseconds / Reps;
            Console.WriteLine("render normals, 16384 vertices / 32258 triangles: library normals " + lib.ToString("F3") +
                " ms, normals + tangents " + libT.ToString("F3") + " ms; managed C# normals " + managed.ToString("F3") + " ms");
        }
    }
}

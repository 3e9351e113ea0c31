// Sinew.Tube (the rope tube mesh Unity's SinewRope draws, the port of the C++
// sinew_tube.hpp): every ring vertex at Radius from its point along a unit normal
// perpendicular to the rope, the side triangles and caps facing out (cross(b - a, c - a)
// outward, as Unity's front faces), the library's render normals over the tube agreeing
// with the tube's own, and a rebuild of the same points giving the same mesh (the first ring's frame kept,
// within 1e-6 m).

using System;
using Sinew;
using Sinew.Native;

namespace SinewTests
{
    public static unsafe class TubeTests
    {
        static float Dot(SinewVec3 a, SinewVec3 b) { return a.x * b.x + a.y * b.y + a.z * b.z; }
        static SinewVec3 Sub(SinewVec3 a, SinewVec3 b) { return new SinewVec3(a.x - b.x, a.y - b.y, a.z - b.z); }

        static SinewVec3 Cross(SinewVec3 a, SinewVec3 b)
        {
            return new SinewVec3(a.y * b.z - a.z * b.y, a.z * b.x - a.x * b.z, a.x * b.y - a.y * b.x);
        }

        public static void TestTubeAroundABentRope()
        {
            const int N = 24;
            var pts = new SinewVec3[N];
            for (int i = 0; i < N; i++)
            {
                double a = 0.5 * Math.PI * i / (N - 1);
                pts[i] = new SinewVec3((float)Math.Cos(a), (float)Math.Sin(a), 0.1f * i);
            }
            var tube = new Tube { Radius = 0.05f, Sides = 10, Caps = true };
            int v = Tube.VertexCount(N, tube.Sides, true);
            var pos = new SinewVec3[v];
            var nrm = new SinewVec3[v];
            var tan = new float[4 * v];
            var uv = new float[2 * v];
            var idx = new int[Tube.IndexCount(N, tube.Sides, true)];
            fixed (SinewVec3* p = pts, o = pos, n = nrm)
            fixed (float* t = tan, u = uv)
            fixed (int* x = idx)
                tube.Build(p, N, o, n, t, u, x);
            int ring = tube.Sides + 1;
            for (int i = 0; i < N; i++)
                for (int j = 0; j < ring; j++)
                {
                    int k = i * ring + j;
                    var tk = new SinewVec3(tan[4 * k], tan[4 * k + 1], tan[4 * k + 2]);
                    Check.Near(1, Dot(nrm[k], nrm[k]), 1e-5, "normal " + k + " unit");
                    Check.Near(0, Dot(nrm[k], tk), 1e-5, "normal " + k + " perpendicular to the rope");
                    var d = Sub(pos[k], pts[i]);
                    Check.Near(0.05, Math.Sqrt(Dot(d, d)), 1e-5, "vertex " + k + " at the radius");
                }
            // Every triangle faces out: of the side, away from its points' axis; of a cap,
            // along the cap's normal.
            for (int q = 0; q < idx.Length; q += 3)
            {
                int a = idx[q], b = idx[q + 1], c = idx[q + 2];
                var f = Cross(Sub(pos[b], pos[a]), Sub(pos[c], pos[a]));
                var outward = nrm[a];
                if (a < N * ring)
                    outward = new SinewVec3(nrm[a].x + nrm[b].x + nrm[c].x, nrm[a].y + nrm[b].y + nrm[c].y,
                        nrm[a].z + nrm[b].z + nrm[c].z);
                Check.True(Dot(f, outward) > 0, "triangle " + q / 3 + " faces out");
            }
            // The library's normals of the side (seam and caps apart) agree with the tube's.
            var lib = new SinewVec3[v];
            RenderNormals.Compute(pos, v, idx, (N - 1) * tube.Sides * 6, (SinewVec3[])null, lib, (SinewVec3[])null);
            for (int i = 1; i < N - 1; i++)
                for (int j = 1; j < tube.Sides; j++)
                    Check.True(Dot(lib[i * ring + j], nrm[i * ring + j]) > 0.97f, "library normal of " + (i * ring + j));
            // Rebuilt from the same points: the first ring's frame is kept, no jump.
            var again = new SinewVec3[v];
            fixed (SinewVec3* p = pts, o = again, n = nrm)
            fixed (float* t = tan, u = uv)
                tube.Build(p, N, o, n, t, u, null);
            for (int k = 0; k < v; k++)
                Check.Near(0, Math.Sqrt(Dot(Sub(again[k], pos[k]), Sub(again[k], pos[k]))), 1e-6, "rebuild " + k);
        }
    }
}

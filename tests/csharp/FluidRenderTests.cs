// The fluid render outputs through the idiomatic layer: the anisotropy readback of a
// flat sheet into an array of SinewFluidEllipsoid and of a bigger instance struct (an
// ellipsoid and a colour), its settings' defaults, and bad input (a status and a
// message, nothing written); the surface mesh of a ball (closed, outward normals,
// into arrays and an interleaved vertex buffer) and its bad input.

using System;
using System.Collections.Generic;
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

        /// <summary>Diffuse particles: off by default; a thrown block spawns some into a
        /// reused array, within the capacity; a bad setting is refused.</summary>
        public static void TestDiffuseParticles()
        {
            using (var w = NativeBodyTests.MakeWorld(9.81f, 8))
            {
                w.AddCollider(ColliderSettings.Default);
                var s = FluidSettings.Default;
                s.Capacity = 512;
                var f = w.AddFluid(s);
                var at = new Vector3[512];
                var v = new Vector3[512];
                for (int k = 0; k < at.Length; k++)
                {
                    at[k] = new Vector3(0.3f + 0.05f * (k % 8), 0.1f + 0.05f * ((k / 8) % 8), 0.05f * (k / 64));
                    v[k] = new Vector3(6f, -3f, 0f);
                }
                f.Emit(at, v);
                Check.Equal(0, f.Diffuse.Capacity, "off by default");
                var d = DiffuseSettings.Default;
                d.Capacity = 300;
                f.SetDiffuse(d);
                Check.Equal(300, f.Diffuse.Capacity, "capacity set");
                var ps = new SinewDiffuseParticle[300];
                int most = 0;
                for (int i = 0; i < 30; i++)
                {
                    w.Step(1f / 60f);
                    int n = f.ReadDiffuse(ps);
                    most = Math.Max(most, n);
                    for (int k = 0; k < n; k++)
                        Check.True(ps[k].lifetime > 0f && ps[k].kind <= 2, "a live particle of a known kind");
                }
                Check.True(most > 0 && most <= 300, "a splash spawns diffuse particles");
                d.Drag = 2f;
                Check.Throws(SinewStatus.ErrorInvalidArgument, () => f.SetDiffuse(d), "sinew_fluid_set_diffuse", "drag");
            }
        }

        /// <summary>A vertex of an interleaved buffer.</summary>
        public struct Vertex
        {
            public Vector3 Position;
            public Vector3 Normal;
        }

        /// <summary>The surface mesh of a ball of particles: counts from the build, read
        /// into arrays and into an interleaved buffer (the same bits), closed (every directed
        /// edge once, its reverse once), normals outward; bad input refused.</summary>
        public static unsafe void TestSurfaceOfABall()
        {
            var w = NativeBodyTests.MakeWorld(0f, 8);
            using (w)
            {
                var s = FluidSettings.Default;
                s.Spacing = S;
                s.Capacity = 9 * 9 * 9;
                var f = w.AddFluid(s);
                var g = w.AddFluid(s);
                var at = new List<Vector3>();
                for (int z = -4; z <= 4; z++)
                    for (int y = -4; y <= 4; y++)
                        for (int x = -4; x <= 4; x++)
                            if (x * x + y * y + z * z <= 16)
                                at.Add(new Vector3(1f + x * S, 2f + y * S, 3f + z * S));
                f.Emit(at.ToArray());
                var d = SurfaceSettings.Default;
                Check.Near(0.5, d.Threshold, 0, "threshold");
                Check.Near(0, d.CellSize, 0, "cell size (auto)");
                SurfaceCounts c = f.BuildSurface(d, 1f);
                Check.True(c.Vertices > 100 && c.Indices % 3 == 0, "a mesh");
                var p = new Vector3[c.Vertices];
                var n = new Vector3[c.Vertices];
                var idx = new int[c.Indices];
                SurfaceCounts r = f.ReadSurface(p, n, idx);
                Check.Equal((int)c.Vertices, (int)r.Vertices, "vertices");
                Check.Equal((int)c.Indices, (int)r.Indices, "indices");
                var edges = new HashSet<long>();
                for (int k = 0; k < idx.Length; k += 3)
                    for (int e = 0; e < 3; e++)
                        Check.True(edges.Add((long)idx[k + e] << 32 | (uint)idx[k + (e + 1) % 3]), "each directed edge once");
                foreach (long e in edges)
                    Check.True(edges.Contains((e & 0xFFFFFFFFL) << 32 | (e >> 32)), "every edge has its reverse");
                int outward = 0;
                for (int k = 0; k < p.Length; k++)
                {
                    var o = new Vector3(p[k].x - 1f, p[k].y - 2f, p[k].z - 3f);
                    if (o.x * n[k].x + o.y * n[k].y + o.z * n[k].z > 0f)
                        outward++;
                }
                Check.Equal(p.Length, outward, "every normal outward");
                var v = new Vertex[c.Vertices];
                var u = new uint[c.Indices];
                fixed (Vertex* vp = v)
                fixed (uint* up = u)
                    f.ReadSurface(v.Length, &vp->Position, sizeof(Vertex), &vp->Normal, sizeof(Vertex), u.Length, up);
                Check.Equal(p[7].x, v[7].Position.x, "interleaved positions");
                Check.Equal(n[7].z, v[7].Normal.z, "interleaved normals");
                Check.Equal((uint)idx[idx.Length - 1], u[u.Length - 1], "packed indices");
                var shortArray = new Vector3[c.Vertices - 1];
                Check.Throws(SinewStatus.ErrorOutOfRange, () => f.ReadSurface(shortArray, null, null),
                    "sinew_fluid_read_surface", "vertices");
                Check.Equal(0f, shortArray[0].x, "nothing written");
                Check.Throws(SinewStatus.ErrorInvalidArgument, () => g.ReadSurface<Vector3>(null, null, idx),
                    "sinew_fluid_read_surface", "build it first");
                d.Threshold = 1f;
                Check.Throws(SinewStatus.ErrorInvalidArgument, () => f.BuildSurface(d, 1f),
                    "sinew_fluid_build_surface", "threshold");
                d = SurfaceSettings.Default;
                d.CellSize = 0.1f * S;
                Check.Throws(SinewStatus.ErrorOutOfRange, () => f.BuildSurface(d, 1f),
                    "sinew_fluid_build_surface", "cell_size");
                c = g.BuildSurface(SurfaceSettings.Default, 1f);
                Check.Equal(0, (int)c.Indices, "an empty fluid's mesh is empty");
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

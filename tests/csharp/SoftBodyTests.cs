// Soft bodies from a render mesh: the library's mesh tools through the C# wrapper
// (SoftBodyMeshes: Weld, Tetrahedralize, Embed; TetEmbedding.Apply) and SinewSoftBody's
// engine-neutral half (unity-sample/Runtime/SinewSoftBodyAuthoring.cs, compiled into
// these tests), so the three modes are built and edited here along the component's own
// code path. The render mesh is a UV sphere with seams, as a game engine's sphere has: a
// duplicated seam column and one vertex per pole triangle.

using System;
using Sinew;
using Sinew.Native;
using Sinew.Unity;

namespace SinewTests
{
    public static class SoftBodyTests
    {
        const float Dt = 1f / 60f;

        static World NewWorld()
        {
            var s = WorldSettings.Default;
            s.Substeps = 8;
            s.Threads = 1;
            return new World(s);
        }

        /// <summary>A UV sphere of radius r centred at (0, y, 0) with seams: (rings + 1) ×
        /// (segments + 1) vertices, the first and last column and each pole row duplicated.</summary>
        static void Sphere(float r, float y, int rings, int segments, out Vector3[] v, out int[] t)
        {
            v = new Vector3[(rings + 1) * (segments + 1)];
            for (int i = 0; i <= rings; i++)
                for (int j = 0; j <= segments; j++)
                {
                    double th = Math.PI * i / rings, ph = 2 * Math.PI * (j % segments) / segments;
                    // Exact poles and seam: identical positions, so the library welds them.
                    float s = i == 0 || i == rings ? 0f : (float)Math.Sin(th);
                    float c = i == 0 ? 1f : i == rings ? -1f : (float)Math.Cos(th);
                    v[i * (segments + 1) + j] = new Vector3(r * s * (float)Math.Cos(ph), y + r * c,
                        r * s * (float)Math.Sin(ph));
                }
            var tris = new System.Collections.Generic.List<int>();
            for (int i = 0; i < rings; i++)
                for (int j = 0; j < segments; j++)
                {
                    int a = i * (segments + 1) + j, b = a + 1, c = a + segments + 1, d = c + 1;
                    if (i != 0) tris.AddRange(new[] { a, b, c });
                    if (i != rings - 1) tris.AddRange(new[] { b, d, c });
                }
            t = tris.ToArray();
        }

        static float Dist(Vector3 a, Vector3 b)
        {
            float dx = a.x - b.x, dy = a.y - b.y, dz = a.z - b.z;
            return (float)Math.Sqrt(dx * dx + dy * dy + dz * dz);
        }

        public static void TestWeldTetrahedralizeEmbed()
        {
            Vector3[] v;
            int[] t;
            Sphere(0.5f, 0f, 12, 24, out v, out t);
            WeldedMesh w = SoftBodyMeshes.Weld(v, t);
            Check.Equal(2 + 11 * 24, w.Vertices.Length, "welded vertices: one per pole, no seam column");
            Check.Equal(2 * 24 * 11, w.Triangles.Length / 3, "welded triangles");
            Check.Equal(v.Length, w.Map.Length, "map");
            TetMesh m = SoftBodyMeshes.Tetrahedralize(v, t, 8);
            Check.True(m.TetCount > 100 && m.TetCount % 5 == 0, "tets: " + m.TetCount);
            TetEmbedding e = SoftBodyMeshes.Embed(m.Vertices, m.Tets, v);
            Check.Equal(v.Length, e.Count, "embedded points");
            var back = new Vector3[v.Length];
            e.Apply(m.Vertices, back);
            for (int i = 0; i < v.Length; i++)
                Check.Near(0, Dist(v[i], back[i]), 1e-4, "embedded vertex " + i);
            // Open mesh: refused, naming the reason.
            var open = new int[t.Length - 3];
            Array.Copy(t, open, open.Length);
            Check.Throws(SinewStatus.ErrorInvalidArgument, () => SoftBodyMeshes.Tetrahedralize(v, open, 8), "not closed");
            Check.Throws(SinewStatus.ErrorOutOfRange, () => SoftBodyMeshes.Tetrahedralize(v, t, 0), "resolution");
        }

        /// <summary>Each mode builds from the seamed sphere, falls onto the ground, and its
        /// render vertices follow the particles: after the fall the lowest render vertex
        /// rests near the ground and the mesh keeps its size (no vertex left behind).</summary>
        public static void TestEveryModeCarriesTheRenderMesh()
        {
            foreach (SoftBodyMode mode in new[] { SoftBodyMode.Pressure, SoftBodyMode.Tetrahedral, SoftBodyMode.ShapeMatching })
            {
                using (var world = NewWorld())
                {
                    world.AddCollider(ColliderSettings.Default);
                    Vector3[] v;
                    int[] t;
                    Sphere(0.4f, 1.0f, 10, 20, out v, out t);
                    var o = SoftBodyOptions.Default;
                    o.Mode = mode;
                    o.Resolution = 6;
                    BuiltSoftBody b = SinewSoftBodyAuthoring.Build(world, v, t, o);
                    Check.Equal(mode == SoftBodyMode.Pressure ? SinewBodyKind.PressureSoftBody : SinewBodyKind.TetSoftBody,
                        b.Body.Kind, mode + ": kind");
                    Check.Equal(mode == SoftBodyMode.ShapeMatching, b.ClusterCount > 0, mode + ": clusters");
                    float v0 = b.Body.Volume;
                    var r = new Vector3[v.Length];
                    b.ReadRenderVertices(r);
                    for (int i = 0; i < v.Length; i++)
                        Check.Near(0, Dist(v[i], r[i]), 1e-4, mode + ": render vertex " + i + " at rest");
                    for (int s = 0; s < 120; s++)
                        world.Step(Dt);
                    b.ReadRenderVertices(r);
                    float lo = float.MaxValue, hi = float.MinValue;
                    foreach (var p in r)
                    {
                        lo = Math.Min(lo, p.y);
                        hi = Math.Max(hi, p.y);
                    }
                    Check.True(lo > -0.05f && lo < 0.1f, mode + ": lowest render vertex " + lo);
                    Check.True(hi - lo > 0.5f && hi - lo < 1.0f, mode + ": height " + (hi - lo));
                    Check.Rel(v0, b.Body.Volume, 0.15, mode + ": volume");
                    b.Dispose();
                    Check.True(b.Body.IsRemoved, mode + ": removed");
                }
            }
        }

        /// <summary>Live edits reach the body: a pressure body's pressure inflates it, a
        /// shape body's stiffness and the damping are set in place; Mode and Resolution
        /// need a rebuild.</summary>
        public static void TestLiveEdits()
        {
            using (var world = NewWorld())
            {
                Vector3[] v;
                int[] t;
                Sphere(0.4f, 0f, 8, 16, out v, out t);
                var o = SoftBodyOptions.Default;
                o.Damping = 5f;
                BuiltSoftBody b = SinewSoftBodyAuthoring.Build(world, v, t, o);
                float v0 = b.Body.Volume;
                var applied = o;
                var wanted = o;
                wanted.Pressure = 1.5f;
                wanted.StretchCompliance = 1e-2f;
                wanted.Damping = 2f;
                SinewSoftBodyAuthoring.Edit(b, ref applied, wanted);
                Check.Equal(1.5f, applied.Pressure, "pressure applied");
                Check.Near(2f, b.Body.Damping, 1e-6, "damping");
                for (int s = 0; s < 120; s++)
                    world.Step(Dt);
                Check.True(b.Body.Volume > 1.3f * v0, "inflated: " + b.Body.Volume + " vs " + v0);
                Check.Equal("", SinewSoftBodyAuthoring.RebuildReason(applied, wanted), "nothing to rebuild");
                wanted.Mode = SoftBodyMode.Tetrahedral;
                Check.Equal("Mode", SinewSoftBodyAuthoring.RebuildReason(applied, wanted), "mode rebuilds");
                b.Dispose();

                o.Mode = SoftBodyMode.ShapeMatching;
                o.Resolution = 4;
                b = SinewSoftBodyAuthoring.Build(world, v, t, o);
                applied = o;
                wanted = o;
                wanted.ShapeStiffness = 1f;
                wanted.Resolution = 5;
                SinewSoftBodyAuthoring.Edit(b, ref applied, wanted);
                Check.Equal(1f, applied.ShapeStiffness, "stiffness applied");
                Check.Equal("Resolution", SinewSoftBodyAuthoring.RebuildReason(applied, wanted), "resolution rebuilds");
                b.Dispose();
                Check.True(world.IsConstraintRemoved(SinewFamily.ShapeCluster, b.FirstCluster), "clusters removed");
            }
        }
    }
}

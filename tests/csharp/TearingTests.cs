// Cloth tearing through the idiomatic C# layer: a cloth pulled from both sides tears
// in two along its weak seam (mesh connectivity from Cloth.MeshTriangles, no NaN, one
// vertex per split), the threshold is a stretch ratio, and bad input throws.

using System;
using System.Collections.Generic;
using Sinew;
using Sinew.Native;

namespace SinewTests
{
    public static unsafe class TearingTests
    {
        const float Dt = 1f / 60f;
        const int Nu = 16, Nv = 8;

        static SinewVec3 V(float x, float y, float z) { return new SinewVec3 { x = x, y = y, z = z }; }

        static World NewWorld()
        {
            var s = WorldSettings.Default;
            s.Gravity = V(0, 0, 0);
            s.Threads = 1;
            return new World(s);
        }

        static void Grid(out SinewVec3[] verts, out int[] tris)
        {
            verts = new SinewVec3[(Nu + 1) * (Nv + 1)];
            for (int j = 0; j <= Nv; j++)
                for (int i = 0; i <= Nu; i++)
                    verts[j * (Nu + 1) + i] = V(i / (float)Nu, 0, 0.5f * j / Nv);
            var t = new List<int>();
            for (int j = 0; j < Nv; j++)
                for (int i = 0; i < Nu; i++)
                {
                    int a = j * (Nu + 1) + i, b = a + 1, c = a + Nu + 1, d = c + 1;
                    t.AddRange(new[] { a, b, d, a, d, c });
                }
            tris = t.ToArray();
        }

        /// Connected components of a triangle list over n vertices: a label per vertex.
        static int[] Components(int[] tris, int n)
        {
            var parent = new int[n];
            for (int i = 0; i < n; i++) parent[i] = i;
            Func<int, int> root = null;
            root = i => { while (parent[i] != i) { parent[i] = parent[parent[i]]; i = parent[i]; } return i; };
            for (int k = 0; k < tris.Length; k += 3)
                for (int e = 0; e < 3; e++)
                {
                    int a = root(tris[k + e]), b = root(tris[k + (e + 1) % 3]);
                    parent[Math.Max(a, b)] = Math.Min(a, b);
                }
            var label = new int[n];
            for (int i = 0; i < n; i++) label[i] = root(i);
            return label;
        }

        /// A 1 m × 0.5 m cloth whose columns 0 and 16 are pinned and pulled apart at
        /// 0.25 m/s each; the edges between columns 8 and 9 are soft (1e-3 m/N): the
        /// cloth tears there into a left and a right piece.
        public static void TestPulledClothTearsInTwo()
        {
            using (var w = NewWorld())
            {
                SinewVec3[] verts;
                int[] tris;
                Grid(out verts, out tris);
                var pinned = new List<int>();
                for (int j = 0; j <= Nv; j++) { pinned.Add(j * (Nu + 1)); pinned.Add(j * (Nu + 1) + Nu); }
                var cloth = w.AddClothMesh(ClothSettings.Default, verts, tris, 1f, pinned.ToArray());
                // The library's links are the mesh's unique edges in first-use order.
                var seen = new HashSet<long>();
                int id = 0;
                for (int k = 0; k < tris.Length; k += 3)
                    foreach (var pair in new[] { new[] { 0, 1 }, new[] { 0, 2 }, new[] { 1, 2 } })
                    {
                        int a = Math.Min(tris[k + pair[0]], tris[k + pair[1]]);
                        int b = Math.Max(tris[k + pair[0]], tris[k + pair[1]]);
                        if (!seen.Add(((long)a << 32) | (uint)b)) continue;
                        if (a % (Nu + 1) == 8 && b % (Nu + 1) == 9 || a % (Nu + 1) == 9 && b % (Nu + 1) == 8)
                            w.SetConstraintCompliance(SinewFamily.BodyLink, id, 1, 1e-3f);
                        id++;
                    }
                Check.Equal(double.PositiveInfinity, (double)cloth.TearStatus.Threshold, "off by default");
                cloth.SetTearThreshold(1.3f, 0);
                Check.Equal(1.3f, cloth.TearStatus.Threshold, "threshold read back");
                Check.Equal(0L, cloth.TopologyVersion, "no split yet");
                Check.True(!cloth.UpdateTopology(), "nothing to update");
                bool twoPieces = false;
                for (int step = 1; step <= 180 && !twoPieces; step++)
                {
                    float t = step * Dt;
                    for (int j = 0; j <= Nv; j++)
                    {
                        cloth.MoveVertex(j * (Nu + 1), V(-0.25f * t, 0, 0.5f * j / Nv));
                        cloth.MoveVertex(j * (Nu + 1) + Nu, V(1 + 0.25f * t, 0, 0.5f * j / Nv));
                    }
                    w.Step(Dt);
                    if (!cloth.UpdateTopology()) continue;
                    int n = cloth.MeshVertexCount;
                    Check.Equal(verts.Length + (int)cloth.TopologyVersion, n, "one vertex per split");
                    var pos = new SinewVec3[n];
                    cloth.ReadVertices(pos);
                    foreach (var p in pos)
                        Check.True(!float.IsNaN(p.x + p.y + p.z) && !float.IsInfinity(p.x + p.y + p.z), "finite");
                    for (int v = verts.Length; v < n; v++)
                        Check.True(cloth.MeshVertexSource(v) < verts.Length, "source is a mesh vertex");
                    var label = Components(cloth.MeshTriangles, n);
                    var roots = new HashSet<int>(label);
                    if (roots.Count == 2)
                    {
                        twoPieces = true;
                        for (int j = 0; j <= Nv; j++)
                        {
                            Check.Equal(label[0], label[j * (Nu + 1)], "left column in one piece");
                            Check.Equal(label[Nu], label[j * (Nu + 1) + Nu], "right column in the other");
                        }
                        Check.True(label[0] != label[Nu], "the pieces are apart");
                    }
                    else
                        Check.Equal(1, roots.Count, "whole until it is in two");
                }
                Check.True(twoPieces, "torn in two within 3 s");
                var status = cloth.TearStatus;
                Check.True(status.Version > 0 && status.Refused == 0, "split without running out");
            }
        }

        /// All particles pinned, the grid stretched by 1.2 along u: one step tears it
        /// with a threshold of 1.19 and leaves it whole with 1.21.
        public static void TestThresholdIsAStretchRatio()
        {
            foreach (float threshold in new[] { 1.19f, 1.21f })
                using (var w = NewWorld())
                {
                    var g = ClothGridSettings.Default;
                    g.SegmentsU = 4;
                    g.SegmentsV = 4;
                    var body = w.AddClothGrid(ClothSettings.Default, g);
                    var pos = new SinewVec3[body.ParticleCount];
                    w.ReadPositions(body.FirstParticle, pos);
                    for (int i = 0; i < pos.Length; i++) pos[i].x *= 1.2f;
                    w.WritePositions(body.FirstParticle, pos);
                    w.SetInverseMasses(body.FirstParticle, new float[pos.Length]);
                    body.SetTearThreshold(threshold, 8);
                    w.Step(Dt);
                    Check.Equal(threshold < 1.2f, body.TopologyVersion > 0, "threshold " + threshold);
                    var topo = body.ReadTopology();
                    Check.Equal(pos.Length + (int)body.TopologyVersion, topo.VertexCount, "vertices");
                    Check.Equal(32, topo.TriangleCount, "triangles");
                    Check.Equal(8 - (int)body.TopologyVersion, body.TearStatus.ReserveLeft, "reserve");
                }
        }

        public static void TestBadTearInputThrows()
        {
            using (var w = NewWorld())
            {
                var cloth = w.AddClothGrid(ClothSettings.Default, ClothGridSettings.Default);
                var rope = w.AddRope(RopeSettings.Default);
                Check.Throws(SinewStatus.ErrorInvalidArgument, () => cloth.SetTearThreshold(float.NaN), "sinew_body_set_tear_threshold");
                Check.Throws(SinewStatus.ErrorInvalidArgument, () => cloth.SetTearThreshold(0.9f), "stretch ratio");
                Check.Throws(SinewStatus.ErrorInvalidArgument, () => rope.SetTearThreshold(1.5f), "not a cloth");
                Check.Throws(SinewStatus.ErrorInvalidArgument, () => { var unused = rope.TopologyVersion; }, "sinew_cloth_topology_version");
                Check.Throws(SinewStatus.ErrorInvalidArgument, () => cloth.SetTearThreshold(1.5f, -1), "negative");
            }
        }
    }
}

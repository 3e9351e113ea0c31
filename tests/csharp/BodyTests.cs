// Engine-neutral conveniences (Rope, Cloth) over the library's body builders, which the
// Unity components are thin shells over.

using System;
using System.Collections.Generic;
using Sinew;
using Sinew.Native;

namespace SinewTests
{
    public static unsafe class BodyTests
    {
        /// <summary>The library's default cloth with edge compliance <paramref name="compliance"/> (m/N).</summary>
        static ClothSettings Stretchy(float compliance)
        {
            ClothSettings s = ClothSettings.Default;
            s.StretchCompliance = compliance;
            return s;
        }

        const float G = 9.81f;
        const float Dt = 1f / 60f;

        static World NewWorld(int substeps)
        {
            var s = WorldSettings.Default;
            s.Substeps = substeps;
            s.Threads = 1;
            return new World(s);
        }

        static float Dist(Vector3 a, Vector3 b)
        {
            float dx = a.x - b.x, dy = a.y - b.y, dz = a.z - b.z;
            return (float)Math.Sqrt(dx * dx + dy * dy + dz * dz);
        }

        public static void TestRopeLayoutMassesAndLinks()
        {
            using (var w = NewWorld(8))
            {
                w.AddParticles(new[] { new Vector3(5, 5, 5) }); // an unrelated particle first
                var rope = w.AddRope(new SinewVec3(0, 2, 0), new SinewVec3(2, 2, 0), 4, 0.6f, 0f, true, false);
                Check.Equal(1, rope.FirstParticle, "first particle");
                Check.Equal(5, rope.ParticleCount, "particles");
                Check.Equal(4, rope.Segments, "segments");
                Check.Near(2.0, rope.RestLength, 1e-6, "rest length");
                Check.Equal(6, w.ParticleCount, "world particles");
                Check.Equal(1, w.BodyCount, "one body: the library built the rope");
                Check.Equal(0, w.DistanceConstraintCount, "no loose distance constraints");
                Check.Equal(SinewBodyKind.Rope, rope.Kind, "kind");
                var p = new Vector3[5];
                rope.ReadPositions(p);
                for (int i = 0; i < 5; i++)
                    Check.Near(0.5 * i, p[i].x, 1e-6, "particle " + i + " x");
                w.Step(Dt);
                rope.ReadPositions(p);
                Check.Equal(2f, p[0].y, "pinned start stays");
            }
        }

        /// <summary>A vertical rope of compliant links hanging from a pinned start settles
        /// where each link k (from the top) is stretched by α times the weight below it:
        /// ΔL_k = α (segments − k) (M / (segments + 1)) g, the library spreading the mass M
        /// evenly over the segments + 1 particles. Bend links are made negligible (compliance
        /// 1e3 m/N) and tethers off, so the links alone carry the load.</summary>
        public static void TestHangingRopeLinksStretchByComplianceTimesWeightBelow()
        {
            var ws = WorldSettings.Default;
            ws.Substeps = 20;
            ws.Threads = 1;
            ws.Damping = 4f; // 1/s: settles within the 10 s simulated
            using (var w = new World(ws))
            {
                const int n = 4;
                const float mass = 1f, alpha = 1e-3f; // 0.2 kg per particle, m/N
                var rs = RopeSettings.Default;
                rs.Start = new SinewVec3(0, 0, 0);
                rs.End = new SinewVec3(0, -2, 0);
                rs.Segments = n;
                rs.TotalMass = mass;
                rs.StretchCompliance = alpha;
                rs.BendCompliance = 1e3f;
                rs.Tethers = false;
                rs.PinStart = true;
                rs.PinEnd = false;
                var rope = w.AddRope(rs);
                for (int i = 0; i < 600; i++)
                    w.Step(Dt);
                var p = new Vector3[n + 1];
                rope.ReadPositions(p);
                var shown = new string[n];
                for (int k = 0; k < n; k++)
                {
                    double want = alpha * (n - k) * (mass / (n + 1)) * G;
                    double got = Dist(p[k], p[k + 1]) - 0.5;
                    shown[k] = (got * 1e3).ToString("F4") + " (" + (want * 1e3).ToString("F4") + ")";
                    Check.Rel(want, got, 0.02, "stretch of link " + k);
                }
                System.Console.WriteLine("     hanging rope: link stretch, mm (α × weight below): " + string.Join(", ", shown));
                // The library's link forces: the weight below each link.
                var t = new float[n];
                rope.ReadTensions(t);
                for (int k = 0; k < n; k++)
                    Check.Rel((n - k) * (mass / (n + 1)) * G, t[k], 0.02, "tension of link " + k);
                Check.Throws(SinewStatus.ErrorOutOfRange, () => rope.ReadTensions(new float[n - 1]), "sinew_body_read_forces");
                // Stiffer links from the next step on: the stretch shrinks in proportion.
                rope.SetCompliance(SinewBodyConstraints.Stretch, alpha / 4);
                for (int i = 0; i < 600; i++)
                    w.Step(Dt);
                rope.ReadPositions(p);
                Check.Rel(alpha / 4 * n * (mass / (n + 1)) * G, Dist(p[0], p[1]) - 0.5, 0.02, "top link after SetCompliance");
            }
        }

        /// <summary>Both ends pinned and moved: the pinned particles are exactly where
        /// MoveEnds put them, and a rigid rope 2 m long between ends 1.6 m apart sags.</summary>
        public static void TestRopeEndsFollowMoveEnds()
        {
            using (var w = NewWorld(10))
            {
                var rope = w.AddRope(new SinewVec3(0, 0, 0), new SinewVec3(2, 0, 0), 10, 1f, 0f, true, true);
                var p = new Vector3[11];
                for (int i = 0; i < 120; i++)
                {
                    float x = 0.2f * Math.Min(1f, i / 60f);
                    rope.MoveEnds(new SinewVec3(x, 0, 0), new SinewVec3(2 - x, 0, 0));
                    w.Step(Dt);
                }
                rope.ReadPositions(p);
                Check.Equal(0.2f, p[0].x, "start x");
                Check.Equal(1.8f, p[10].x, "end x");
                Check.Equal(0f, p[10].y, "end y");
                Check.True(p[5].y < -0.3f, "middle sags, y = " + p[5].y);
                for (int k = 0; k < 10; k++)
                    Check.Rel(0.2, Dist(p[k], p[k + 1]), 5e-3, "link " + k);
                // Unpinned ends are left alone.
                var free = w.AddRope(new SinewVec3(0, 5, 0), new SinewVec3(1, 5, 0), 2, 1f, 0f, false, false);
                free.MoveEnds(new SinewVec3(9, 9, 9), new SinewVec3(9, 9, 9));
                var q = new Vector3[3];
                free.ReadPositions(q);
                Check.True(q[0].x == 0 && q[2].x == 1, "free ends not moved");
            }
        }

        public static void TestRopeRejectsBadArgumentsAndChangesNothing()
        {
            using (var w = NewWorld(1))
            {
                var a = new SinewVec3(0, 0, 0);
                var b = new SinewVec3(1, 0, 0);
                Check.Throws(SinewStatus.ErrorInvalidArgument, () => w.AddRope(a, b, 0, 1f, 0f, true, false), "segments 0");
                Check.Throws(SinewStatus.ErrorInvalidArgument, () => w.AddRope(a, b, 3, 0f, 0f, true, false), "total_mass 0");
                Check.Throws(SinewStatus.ErrorInvalidArgument, () => w.AddRope(a, b, 3, 1f, -1f, true, false), "compliance");
                Check.Throws(SinewStatus.ErrorInvalidArgument, () => w.AddRope(a, b, 3, 1f, float.NaN, true, false), "compliance");
                Check.Throws(SinewStatus.ErrorInvalidArgument, () => w.AddRope(a, new SinewVec3(float.NaN, 0, 0), 3, 1f, 0f, true, false), "must be finite");
                Check.Equal(0, w.ParticleCount, "no particles added");
                var rope = w.AddRope(a, b, 3, 1f, 0f, true, false);
                Check.Throws(SinewStatus.ErrorOutOfRange, () => rope.ReadPositions(new Vector3[3]), "sinew_body_read_positions");
            }
        }

        /// <summary>A grid of (nx+1)×(ny+1) vertices, two triangles per quad; with
        /// <paramref name="seam"/> the middle column of vertices is duplicated (as a UV
        /// seam does), the right half using the copies.</summary>
        static void Grid(int nx, int ny, float spacing, bool seam, out Vector3[] vertices, out int[] triangles)
        {
            var verts = new List<Vector3>();
            var index = new int[nx + 1, ny + 1];
            for (int j = 0; j <= ny; j++)
                for (int i = 0; i <= nx; i++)
                {
                    index[i, j] = verts.Count;
                    verts.Add(new Vector3(i * spacing, 0, -j * spacing));
                }
            int mid = nx / 2;
            var copy = new int[ny + 1];
            for (int j = 0; j <= ny; j++)
            {
                copy[j] = seam ? verts.Count : index[mid, j];
                if (seam)
                    verts.Add(verts[index[mid, j]]);
            }
            var tris = new List<int>();
            for (int j = 0; j < ny; j++)
                for (int i = 0; i < nx; i++)
                {
                    Func<int, int, int> at = (ii, jj) => ii == mid && i >= mid ? copy[jj] : index[ii, jj];
                    int a = at(i, j), b = at(i + 1, j), c = at(i, j + 1), d = at(i + 1, j + 1);
                    tris.AddRange(new[] { a, c, b, b, c, d });
                }
            vertices = verts.ToArray();
            triangles = tris.ToArray();
        }

        public static void TestClothWeldsSeamsIntoOneLibraryBody()
        {
            using (var w = NewWorld(4))
            {
                Vector3[] v;
                int[] t;
                Grid(4, 3, 0.25f, true, out v, out t);
                var cloth = w.AddClothMesh(Stretchy(0f), v, t, 1f);
                Check.Equal(20 + 4, cloth.VertexCount, "vertices (20 + 4 seam copies)");
                Check.Equal(20, cloth.ParticleCount, "particles: seam welded");
                Check.Equal(2 * 4 * 3, cloth.TriangleCount, "triangles: two per quad");
                Check.Equal(SinewBodyKind.Cloth, cloth.Kind, "a library cloth body");
                Check.Equal(20, cloth.ParticleCount, "the body's particles are the welded vertices");
                Check.Equal(0, w.DistanceConstraintCount, "no loose distance constraints");
                Check.Equal(cloth.ParticleOfVertex(2), cloth.ParticleOfVertex(20), "seam copy shares the particle");
                Check.True(cloth.ParticleOfVertex(1) != cloth.ParticleOfVertex(2), "distinct vertices, distinct particles");
            }
        }

        /// <summary>A cloth pinned at two corners hangs: pinned corners stay, every edge
        /// keeps its length (rigid, 2%), seam copies read back equal to their twins, and
        /// reading vertices into a strided vertex buffer leaves other fields alone.</summary>
        public static void TestClothHangsFromPinnedCorners()
        {
            var s = WorldSettings.Default;
            s.Substeps = 16;
            s.Threads = 1;
            s.Damping = 3f; // 1/s: settles within the 4 s simulated
            using (var w = new World(s))
            {
                Vector3[] v;
                int[] t;
                Grid(4, 4, 0.25f, true, out v, out t);
                var cloth = w.AddClothMesh(Stretchy(0f), v, t, 0.5f);
                int c0 = cloth.NearestVertex(new SinewVec3(0, 0, 0));
                int c1 = cloth.NearestVertex(new SinewVec3(1.01f, 0, 0.01f));
                Check.Equal(0, c0, "corner 0");
                Check.Equal(4, c1, "corner 1");
                cloth.PinVertex(c0, true, 0f);
                cloth.PinVertex(c1, true, 0f);
                for (int i = 0; i < 240; i++)
                {
                    cloth.MoveVertex(c1, new SinewVec3(1, 0, 0));
                    w.Step(Dt);
                }
                var now = new Vector3[cloth.VertexCount];
                cloth.ReadVertices(now);
                Check.True(now[0].x == 0 && now[0].y == 0 && now[4].x == 1 && now[4].y == 0, "corners pinned");
                Check.True(now[22].y < -0.8f, "far edge hangs down (1 m deep cloth), y = " + now[22].y);
                for (int k = 0; k < 5; k++)
                {
                    int original = k * 5 + 2, seamCopy = 25 + k;
                    Check.True(now[original].x == now[seamCopy].x && now[original].y == now[seamCopy].y, "seam copy " + k);
                }
                for (int k = 0; k < t.Length; k += 3)
                    for (int e = 0; e < 3; e++)
                    {
                        int a = t[k + e], b = t[k + (e + 1) % 3];
                        float rest = Dist(v[a], v[b]);
                        Check.Rel(rest, Dist(now[a], now[b]), 0.02, "edge " + a + "-" + b);
                    }
                var verts = new Vertex[cloth.VertexCount];
                for (int i = 0; i < verts.Length; i++) verts[i].u = 3;
                cloth.ReadVertices(verts);
                Check.True(verts[22].position.y == now[22].y && verts[22].u == 3, "strided vertex read");
                float* buf = stackalloc float[cloth.VertexCount * 4];
                cloth.ReadVertices(buf, 16);
                Check.True(buf[22 * 4 + 1] == now[22].y && buf[27 * 4 + 1] == now[27].y, "welded strided pointer read");
                Check.Throws(SinewStatus.ErrorNullPointer, () => cloth.ReadVertices(null, 12), "Cloth.ReadVertices");
                Check.Throws(SinewStatus.ErrorInvalidArgument, () => { var b = stackalloc float[200]; cloth.ReadVertices(b, 8); }, "strideBytes 8");
                // Release a corner: it falls.
                cloth.PinVertex(c1, false, cloth.ParticleCount / 0.5f);
                w.Step(Dt);
                cloth.ReadVertices(now);
                Check.True(now[4].y < 0, "released corner falls");
            }
        }

        /// <summary>A mesh without duplicates reads back with one call straight into the
        /// destination (vertex i is particle i).</summary>
        public static void TestClothWithoutSeamsReadsStraightIntoMemory()
        {
            using (var w = NewWorld(2))
            {
                Vector3[] v;
                int[] t;
                Grid(2, 2, 0.5f, false, out v, out t);
                var cloth = w.AddClothMesh(Stretchy(1e-6f), v, t, 1f);
                Check.Equal(9, cloth.ParticleCount, "particles");
                Check.Equal(8, cloth.TriangleCount, "triangles");
                float* buf = stackalloc float[9 * 4];
                cloth.ReadVertices(buf, 16);
                for (int i = 0; i < 9; i++)
                    Check.True(buf[4 * i] == v[i].x && buf[4 * i + 2] == v[i].z, "vertex " + i);
            }
        }

        /// <summary>Pins chosen before the build reach the library: it tethers every free
        /// vertex to its nearest pinned ones (up to four: here both pins), and the settings
        /// (strain model, isometric bending) are the library's. Dispose removes the body, and
        /// the other body's motion does not change.</summary>
        public static void TestClothSettingsPinsAndRemoval()
        {
            using (var w = NewWorld(8))
            {
                Vector3[] v;
                int[] t;
                Grid(3, 3, 0.25f, true, out v, out t);
                int c0 = Cloth.NearestVertex(v, new SinewVec3(0, 0, 0));
                int c1 = Cloth.NearestVertex(v, new SinewVec3(0.75f, 0, 0));
                Check.Equal(0, c0, "corner 0");
                Check.Equal(3, c1, "corner 1");
                var s = ClothSettings.Default;
                s.Model = SinewClothModel.Strain;
                s.Bending = SinewBendingModel.Isometric;
                var cloth = w.AddClothMesh(s, v, t, 1f, new[] { c0, c1 });
                Check.Equal(16, cloth.ParticleCount, "seam welded");
                Check.Equal(2 * (16 - 2), w.FamilyConstraintCount(SinewFamily.Tether), "a tether from each pin to each free particle");
                Check.Equal(3 * cloth.TriangleCount, w.FamilyConstraintCount(SinewFamily.TriangleStrain),
                    "three strain components per triangle");
                Check.True(w.FamilyConstraintCount(SinewFamily.IsometricBending) > 0, "isometric bending");
                var rope = w.AddRope(new SinewVec3(2, 0, 0), new SinewVec3(3, 0, 0), 5, 1f, 0f, true, false);
                var p = new Vector3[cloth.VertexCount];
                w.Step(Dt);
                cloth.ReadVertices(p);
                Check.True(p[0].y == 0 && p[3].y == 0 && p[15].y < 0, "pinned corners stay, the rest falls");
                cloth.Dispose();
                Check.Equal(1, w.BodyCount, "cloth removed");
                cloth.Dispose(); // twice is fine
                Check.Throws(SinewStatus.ErrorInvalidHandle, () => cloth.SetCompliance(SinewBodyConstraints.Stretch, 0f));
                var before = new Vector3[rope.ParticleCount];
                rope.ReadPositions(before);
                w.Step(Dt);
                var after = new Vector3[rope.ParticleCount];
                rope.ReadPositions(after);
                Check.True(after[5].y < before[5].y, "the rope keeps falling after the cloth is removed");
                rope.Dispose();
                Check.Equal(0, w.BodyCount, "rope removed");
            }
        }

        public static void TestClothRejectsBadMeshes()
        {
            using (var w = NewWorld(1))
            {
                var v = new[] { new Vector3(0, 0, 0), new Vector3(1, 0, 0), new Vector3(0, 1, 0) };
                Check.Throws(SinewStatus.ErrorInvalidArgument, () => w.AddClothMesh(Stretchy(0f), v, new[] { 0, 1 }, 1f), "multiple of 3");
                Check.Throws(SinewStatus.ErrorOutOfRange, () => w.AddClothMesh(Stretchy(0f), v, new[] { 0, 1, 3 }, 1f), "vertex index 3");
                Check.Throws(SinewStatus.ErrorInvalidArgument, () => w.AddClothMesh(Stretchy(0f), v, new[] { 0, 0, 0 }, 1f), "no triangle of non-zero area");
                Check.Throws(SinewStatus.ErrorInvalidArgument, () => w.AddClothMesh(Stretchy(0f), v, new[] { 0, 1, 2 }, -1f), "massKg");
                Check.Throws(SinewStatus.ErrorInvalidArgument, () => w.AddClothMesh(Stretchy(2e10f), v, new[] { 0, 1, 2 }, 1f), "compliance");
                Check.Throws(SinewStatus.ErrorNullPointer, () => w.AddClothMesh<Vector3>(Stretchy(0f), null, new[] { 0, 1, 2 }, 1f), "vertices is null");
                Check.Equal(0, w.ParticleCount, "nothing added");
                var cloth = w.AddClothMesh(Stretchy(0f), v, new[] { 0, 1, 2 }, 1f);
                Check.Throws(SinewStatus.ErrorOutOfRange, () => cloth.ParticleOfVertex(3), "Cloth.ParticleOfVertex");
                Check.Throws(SinewStatus.ErrorOutOfRange, () => cloth.ReadVertices(new Vector3[2]), "Cloth.ReadVertices");
            }
        }
    }
}

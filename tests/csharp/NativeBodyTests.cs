// Bodies built by the library through the idiomatic layer (World.AddRope, AddClothGrid,
// AddClothMesh, AddTetBody, AddPressureBody, Body): physics against closed forms,
// positions read straight into Vector3-layout arrays, removal and disposal, bad input.

using System;
using System.Collections.Generic;
using Sinew;
using Sinew.Native;

namespace SinewTests
{
    public static unsafe class NativeBodyTests
    {
        const float G = 9.81f;
        const float Dt = 1f / 60f;

        internal static World MakeWorld(float gravity, int substeps, float damping = 0f, SinewSolver solver = SinewSolver.GaussSeidel)
        {
            var s = WorldSettings.Default;
            s.Gravity = new SinewVec3(0, -gravity, 0);
            s.Substeps = substeps;
            s.Damping = damping;
            s.Solver = solver;
            s.Threads = 1;
            return new World(s);
        }

        static float Dist(Vector3 a, Vector3 b)
        {
            float dx = a.x - b.x, dy = a.y - b.y, dz = a.z - b.z;
            return (float)Math.Sqrt(dx * dx + dy * dy + dz * dz);
        }

        static float PolylineLength(Vector3[] p)
        {
            float l = 0;
            for (int i = 1; i < p.Length; i++)
                l += Dist(p[i - 1], p[i]);
            return l;
        }

        public static void TestBodySettingsDefaultsComeFromTheLibrary()
        {
            var r = RopeSettings.Default;
            Check.Equal(20, r.Segments, "rope segments");
            Check.Equal(1f, r.TotalMass, "rope mass");
            Check.Equal(0.01f, r.Radius, "rope radius");
            Check.Equal(0f, r.StretchCompliance, "rope stretch");
            Check.Equal(0.01f, r.BendCompliance, "rope bend");
            Check.True(r.Tethers && r.PinStart && !r.PinEnd, "rope flags");
            Check.Equal(1f, r.End.x, "rope end");
            var c = ClothSettings.Default;
            Check.Equal(SinewClothModel.Edges, c.Model, "cloth model");
            Check.Equal(SinewBendingModel.Dihedral, c.Bending, "cloth bending");
            Check.Equal(1e-4f, c.ShearCompliance, "cloth shear");
            Check.Equal(1f, c.BendCompliance, "cloth bend");
            Check.Equal(1f, c.Warp.x, "cloth warp");
            Check.True(c.Tethers, "cloth tethers");
            var g = ClothGridSettings.Default;
            Check.Equal(20, g.SegmentsU, "grid u");
            Check.Equal(20, g.SegmentsV, "grid v");
            Check.Equal(1f, g.V.z, "grid V");
            Check.Equal(0, g.PinCorners, "grid pins");
            var t = TetBodySettings.Default;
            Check.Equal(SinewTetModel.EdgesAndVolume, t.Model, "tet model");
            Check.Equal(1e-4f, t.StretchCompliance, "tet stretch");
            Check.Equal(0f, t.VolumeCompliance, "tet volume");
            var p = PressureBodySettings.Default;
            Check.Equal(1f, p.Pressure, "pressure");
            Check.Equal(1e-4f, p.StretchCompliance, "pressure stretch");
        }

        public static void TestMaterialPresetsAreTheCedecValues()
        {
            Check.Equal(0.04e-9f, Materials.Concrete, "concrete");
            Check.Equal(0.16e-9f, Materials.Wood, "wood");
            Check.Equal(1.0e-8f, Materials.Leather, "leather");
            Check.Equal(0.2e-7f, Materials.Tendon, "tendon");
            Check.Equal(1.0e-6f, Materials.Rubber, "rubber");
            Check.Equal(0.2e-3f, Materials.Muscle, "muscle");
            Check.Equal(1.0e-3f, Materials.Fat, "fat");
            Check.Equal(SinewNative.SINEW_MATERIAL_RUBBER, Materials.Rubber, "same constant as the raw layer");
        }

        /// <summary>A 1 kg rope hanging from a host: inextensible (length 1 m), and the
        /// tension at its top — the force on the host — is its whole weight m·g. With the
        /// links made compliant (α = 1e-3 m/N) and bend links and tethers made inert, link k
        /// from the bottom carries the weight of k particles, so the rope stretches by
        /// α·g·m_p·Σk = α·g·(1/21)·210.</summary>
        public static void TestHangingRopeBodyTensionAndSetters()
        {
            using (var w = MakeWorld(G, 16))
            {
                var s = RopeSettings.Default;
                s.Start = new SinewVec3(0, 2, 0);
                s.End = new SinewVec3(1, 2, 0);
                s.Damping = 1f;
                s.PinStart = false;
                s.Tethers = false;
                s.Radius = 0.02f;
                Body rope = w.AddRope(s);
                Check.Equal(SinewBodyKind.Rope, rope.Kind, "kind");
                Check.Equal(0, rope.FirstParticle, "first particle");
                Check.Equal(21, rope.ParticleCount, "particles");
                Check.Equal(0.02f, rope.Radius, "radius");
                Check.Equal(1f, rope.Damping, "damping");
                Check.Equal(1, w.BodyCount, "body count");
                int host = w.AddAttachmentHost(new SinewVec3(0, 2, 0), SinewQuat.Identity);
                Check.Equal(0, w.AddAttachments(host, new[] { rope.FirstParticle }, null, 0f), "attachment id");
                for (int i = 0; i < 600; i++)
                    w.Step(Dt);
                var p = new Vector3[rope.ParticleCount];
                rope.ReadPositions(p);
                float length = PolylineLength(p);
                Console.WriteLine("     rope body: length " + length + " m, bottom " + p[20].x + ", " + p[20].y);
                Check.Near(1.0, length, 0.01, "inextensible rope length (m)");
                Check.Near(1.0, p[20].y, 0.02, "bottom end 1 m below the top");
                var f = new Vector3[1];
                w.ReadAttachmentForces(0, f);
                Console.WriteLine("     force on the host " + f[0].x + ", " + f[0].y + ", " + f[0].z + " N (m g = " + G + ")");
                Check.Rel(-G, f[0].y, 0.01, "top tension = the rope's weight (N)");

                rope.SetCompliance(SinewBodyConstraints.Stretch, 1e-3f);
                rope.SetCompliance(SinewBodyConstraints.Bend, 1e6f);
                for (int i = 0; i < 600; i++)
                    w.Step(Dt);
                rope.ReadPositions(p);
                float soft = PolylineLength(p);
                double expected = 1.0 + 1e-3 * G * (1.0 / 21.0) * 210.0;
                Console.WriteLine("     compliant links: length " + soft + " m (closed form " + expected + ")");
                Check.Near(expected, soft, 0.1 * (expected - 1.0), "stretch under its own weight");
                rope.Damping = 0.25f;
                Check.Equal(0.25f, rope.Damping, "damping setter");
                Check.Throws(SinewStatus.ErrorInvalidArgument, () => rope.Damping = -1f, "damping");
                Check.Equal(0.25f, rope.Damping, "refused damping changed nothing");
                Check.Throws(SinewStatus.ErrorInvalidArgument, () => rope.SetCompliance(SinewBodyConstraints.Bend, float.NaN));
                Check.Throws(SinewStatus.ErrorInvalidArgument, () => rope.SetPressure(1.2f));
                Check.Throws(SinewStatus.ErrorInvalidArgument, () => { float v = rope.Volume; });
            }
        }

        /// <summary>Maximum relative stretch of the grid's structural edges (spacing
        /// 1/segments m along u and v).</summary>
        static float MaxGridStretch(Vector3[] p, int n)
        {
            float worst = 0, rest = 1f / n;
            for (int j = 0; j <= n; j++)
                for (int i = 0; i <= n; i++)
                {
                    int k = j * (n + 1) + i;
                    if (i < n)
                        worst = Math.Max(worst, Dist(p[k], p[k + 1]) / rest - 1);
                    if (j < n)
                        worst = Math.Max(worst, Dist(p[k], p[k + n + 1]) / rest - 1);
                }
            return worst;
        }

        /// <summary>A 1 m, 20 × 20 cloth hanging from two corners (20 substeps): with tethers no edge
        /// stretches by 2% or more over 5 s; without them it stretches measurably more.</summary>
        public static void TestTetheredClothStaysWithinItsStretchBound()
        {
            var worst = new float[2];
            for (int run = 0; run < 2; run++)
            {
                using (var w = MakeWorld(G, 20))
                {
                    var c = ClothSettings.Default;
                    c.Tethers = run == 0;
                    var g = ClothGridSettings.Default;
                    g.Origin = new SinewVec3(0, 2, 0);
                    g.TotalMass = 0.2f;
                    g.PinCorners = ClothGridSettings.CornerOrigin | ClothGridSettings.CornerU;
                    Body cloth = w.AddClothGrid(c, g);
                    Check.Equal(SinewBodyKind.Cloth, cloth.Kind, "kind");
                    Check.Equal(441, cloth.ParticleCount, "21 × 21 particles");
                    var p = new Vector3[cloth.ParticleCount];
                    float lowest = 2f;
                    for (int i = 0; i < 300; i++)
                    {
                        w.Step(Dt);
                        cloth.ReadPositions(p);
                        worst[run] = Math.Max(worst[run], MaxGridStretch(p, 20));
                        lowest = Math.Min(lowest, p[440].y);
                    }
                    Check.Equal(1f, p[20].x, "pinned corner (u, 0) stays");
                    Check.True(lowest < 1.1f, "the free corner swings down to about 1 m below the pins (y = " + lowest + ")");
                }
            }
            Console.WriteLine("     cloth max edge stretch: " + worst[0] * 100 + "% with tethers, " + worst[1] * 100 + "% without");
            Check.True(worst[0] < 0.02f, "with tethers: " + worst[0]);
            Check.True(worst[1] > 1.5f * worst[0], "tethers made no difference: " + worst[0] + " vs " + worst[1]);
        }

        /// <summary>A cube of n³ cells (six tets each, Kuhn triangulation), size m wide.</summary>
        internal static void TetCube(int n, float size, out Vector3[] v, out int[] tets)
        {
            int c = n + 1;
            v = new Vector3[c * c * c];
            for (int k = 0; k < c; k++)
                for (int j = 0; j < c; j++)
                    for (int i = 0; i < c; i++)
                        v[i + c * (j + c * k)] = new Vector3(i * size / n, j * size / n, k * size / n);
            var list = new List<int>();
            int[][] fan = { new[] { 1, 3 }, new[] { 3, 2 }, new[] { 2, 6 }, new[] { 6, 4 }, new[] { 4, 5 }, new[] { 5, 1 } };
            for (int k = 0; k < n; k++)
                for (int j = 0; j < n; j++)
                    for (int i = 0; i < n; i++)
                    {
                        Func<int, int> corner = b => (i + (b & 1)) + c * ((j + ((b >> 1) & 1)) + c * (k + (b >> 2)));
                        foreach (var ab in fan)
                        {
                            int[] t = { corner(0), corner(ab[0]), corner(ab[1]), corner(7) };
                            if (SignedVolume(v[t[0]], v[t[1]], v[t[2]], v[t[3]]) < 0)
                            {
                                int s = t[1];
                                t[1] = t[2];
                                t[2] = s;
                            }
                            list.AddRange(t);
                        }
                    }
            tets = list.ToArray();
        }

        internal static float SignedVolume(Vector3 a, Vector3 b, Vector3 c, Vector3 d)
        {
            float bx = b.x - a.x, by = b.y - a.y, bz = b.z - a.z;
            float cx = c.x - a.x, cy = c.y - a.y, cz = c.z - a.z;
            float dx = d.x - a.x, dy = d.y - a.y, dz = d.z - a.z;
            return (bx * (cy * dz - cz * dy) - by * (cx * dz - cz * dx) + bz * (cx * dy - cy * dx)) / 6f;
        }

        /// <summary>A 0.5 m tet cube (volume 0.125 m³) squashed to 70% in zero gravity
        /// recovers at least 95% of its volume within 2 s, with both tet models.</summary>
        public static void TestSquashedSoftBodyRecoversItsVolume()
        {
            foreach (var model in new[] { SinewTetModel.EdgesAndVolume, SinewTetModel.Strain })
            {
                using (var w = MakeWorld(0f, 10))
                {
                    Vector3[] v;
                    int[] tets;
                    TetCube(3, 0.5f, out v, out tets);
                    var s = TetBodySettings.Default;
                    s.Model = model;
                    s.Damping = 3f;
                    Body b = w.AddTetBody(s, v, tets);
                    Check.Equal(SinewBodyKind.TetSoftBody, b.Kind, "kind");
                    Check.Equal(64, b.ParticleCount, "4³ vertices");
                    float v0 = b.Volume;
                    Check.Near(0.125, v0, 1e-5, "rest volume (m³)");
                    var p = new Vector3[b.ParticleCount];
                    b.ReadPositions(p);
                    for (int i = 0; i < p.Length; i++)
                        p[i].y *= 0.7f;
                    w.WritePositions(b.FirstParticle, p);
                    Check.Near(0.7, b.Volume / v0, 1e-3, "squashed to 70%");
                    for (int i = 0; i < 120; i++)
                        w.Step(Dt);
                    float end = b.Volume / v0;
                    Console.WriteLine("     " + model + ": volume " + end * 100 + "% of rest after 2 s");
                    Check.True(end >= 0.95f, model + ": recovered " + end);
                }
            }
        }

        /// <summary>The 8 corners of a unit cube (index x + 2y + 4z) and its 12 outward
        /// triangles.</summary>
        internal static void Cube(out Vector3[] v, out int[] t)
        {
            v = new Vector3[8];
            for (int i = 0; i < 8; i++)
                v[i] = new Vector3(i & 1, (i >> 1) & 1, i >> 2);
            t = new[] { 0, 2, 1, 1, 2, 3, 4, 5, 6, 5, 7, 6, 0, 1, 4, 1, 5, 4, 2, 6, 3, 3, 6, 7, 0, 4, 2, 2, 4, 6, 1, 3, 5, 3, 7, 5 };
        }

        /// <summary>A pressure cube (1 m³) squashed to half its height in zero gravity comes
        /// back to its rest volume.</summary>
        public static void TestPressureBodyKeepsItsVolume()
        {
            using (var w = MakeWorld(0f, 10, 5f))
            {
                Vector3[] v;
                int[] t;
                Cube(out v, out t);
                Body b = w.AddPressureBody(PressureBodySettings.Default, v, t);
                Check.Equal(SinewBodyKind.PressureSoftBody, b.Kind, "kind");
                Check.Near(1.0, b.Volume, 1e-5, "unit cube volume (m³)");
                var p = new Vector3[8];
                b.ReadPositions(p);
                for (int i = 0; i < 8; i++)
                    p[i].y *= 0.5f;
                w.WritePositions(b.FirstParticle, p);
                Check.Near(0.5, b.Volume, 1e-5, "squashed");
                for (int i = 0; i < 120; i++)
                    w.Step(Dt);
                Console.WriteLine("     pressure cube: volume " + b.Volume + " m³ after 2 s (rest 1)");
                Check.Near(1.0, b.Volume, 0.02, "volume recovered");
                b.SetPressure(1.2f);
                Check.Throws(SinewStatus.ErrorInvalidArgument, () => b.SetPressure(0f), "pressure");
                Check.Throws(SinewStatus.ErrorInvalidArgument, () => b.SetPressure(101f), "pressure");
            }
        }

        public static void TestRopePolylineAndClothMesh()
        {
            using (var w = MakeWorld(G, 8))
            {
                var pts = new[] { new Vector3(0, 1, 0), new Vector3(0.3f, 1, 0), new Vector3(0.3f, 0.6f, 0), new Vector3(0.3f, 0.6f, 0.2f) };
                Body rope = w.AddRopePolyline(RopeSettings.Default, pts);
                Check.Equal(4, rope.ParticleCount, "one particle per point");
                var p = new Vector3[4];
                rope.ReadPositions(p);
                for (int i = 0; i < 4; i++)
                    Check.Near(0, Dist(pts[i], p[i]), 1e-6, "polyline point " + i);
                // A quad of two triangles with its top edge pinned, from 32-byte vertices.
                var quad = new Vertex[4];
                quad[0].position = new Vector3(0, 1, 0);
                quad[1].position = new Vector3(1, 1, 0);
                quad[2].position = new Vector3(0, 0, 0);
                quad[3].position = new Vector3(1, 0, 0);
                Body cloth = w.AddClothMesh(ClothSettings.Default, quad, new[] { 0, 2, 1, 1, 2, 3 }, new[] { 0f, 0f, 2f, 2f });
                Check.Equal(SinewBodyKind.Cloth, cloth.Kind, "kind");
                Check.Equal(4, cloth.FirstParticle, "after the rope");
                Check.Equal(4, cloth.ParticleCount, "vertices");
                Check.Equal(2, w.BodyCount, "two bodies");
                for (int i = 0; i < 60; i++)
                    w.Step(Dt);
                // Straight into an interleaved vertex buffer: stride 32, normals and UVs kept.
                var verts = new Vertex[4];
                for (int i = 0; i < 4; i++)
                    verts[i].u = 7f;
                cloth.ReadPositions(verts);
                Check.Equal(1f, verts[1].position.x, "pinned vertex");
                Check.Near(1.0, Dist(verts[0].position, verts[2].position), 0.01, "edge 0-2 keeps 1 m");
                Check.Near(1.0, Dist(verts[1].position, verts[3].position), 0.01, "edge 1-3 keeps 1 m");
                Check.Equal(7f, verts[3].u, "UVs untouched");
                // The pointer overload: straight into unmanaged memory with a 16-byte stride.
                var buffer = new float[4 * 4];
                fixed (float* dst = buffer)
                {
                    cloth.ReadPositions(dst, 4, 16);
                    IntPtr at = (IntPtr)dst;
                    Check.Throws(SinewStatus.ErrorInvalidArgument, () => cloth.ReadPositions((void*)at, 4, 8), "stride");
                }
                Check.Equal(verts[3].position.y, buffer[13], "vertex 3's y at byte 52");
                Check.Equal(SinewBodyKind.Cloth, cloth.Kind, "Kind");
                Check.Equal(4, cloth.FirstParticle, "FirstParticle");
                Check.Equal(4, cloth.ParticleCount, "ParticleCount");
                Check.Equal("Cloth body, particles 4..8", cloth.ToString(), "ToString");
                Check.Equal(cloth.Handle.id, cloth.Handle.id, "Handle");
                Check.True(cloth.Handle.id != 0 && cloth.Handle.id != rope.Handle.id, "distinct handles");
            }
        }

        /// <summary>Removing a body makes its particles inert and its handle invalid; removal
        /// errors are exceptions; Dispose twice (and after the world) is fine.</summary>
        public static void TestRemovalAndDisposal()
        {
            var w = MakeWorld(G, 8);
            var s = RopeSettings.Default;
            s.Segments = 5;
            Body a = w.AddRope(s);
            s.Start = new SinewVec3(0, 0, 1);
            s.End = new SinewVec3(1, 0, 1);
            Body b = w.AddRope(s);
            Check.Equal(6, b.FirstParticle, "second rope after the first");
            for (int i = 0; i < 10; i++)
                w.Step(Dt);
            var before = new Vector3[6];
            a.ReadPositions(before);
            a.Remove();
            Check.True(a.IsRemoved, "IsRemoved");
            Check.Equal(1, w.BodyCount, "one body left");
            Check.Throws(SinewStatus.ErrorInvalidHandle, a.Remove, "handle");
            Check.Throws(SinewStatus.ErrorInvalidHandle, () => a.ReadPositions(before));
            Check.Throws(SinewStatus.ErrorInvalidHandle, () => { float r = a.Radius; });
            for (int i = 0; i < 30; i++)
                w.Step(Dt);
            var after = new Vector3[6];
            w.ReadPositions(0, after);
            for (int i = 0; i < 6; i++)
                Check.Equal(before[i].y, after[i].y, "removed rope's particle " + i + " stays put");
            a.Dispose();
            b.Dispose();
            b.Dispose();
            Check.Equal(0, w.BodyCount, "Dispose removed the second rope");
            Check.Throws(SinewStatus.ErrorInvalidHandle, () => b.SetCompliance(SinewBodyConstraints.Stretch, 0f));
            Body c = w.AddRope(RopeSettings.Default);
            w.Dispose();
            c.Dispose();
            c.Dispose();
            Check.ThrowsDisposed(() => { float r = c.Radius; }, "a body of a disposed world");
        }

        /// <summary>Bad input is refused with a status and a message and adds nothing.</summary>
        public static void TestBadBodyInputChangesNothing()
        {
            using (var w = MakeWorld(G, 8))
            {
                var s = RopeSettings.Default;
                s.Segments = 0;
                Check.Throws(SinewStatus.ErrorInvalidArgument, () => w.AddRope(s), "segments");
                s = RopeSettings.Default;
                s.TotalMass = float.NaN;
                Check.Throws(SinewStatus.ErrorInvalidArgument, () => w.AddRope(s));
                Vector3[] v;
                int[] t;
                Cube(out v, out t);
                t[5] = 8;
                Check.Throws(SinewStatus.ErrorOutOfRange, () => w.AddPressureBody(PressureBodySettings.Default, v, t));
                Check.Throws(SinewStatus.ErrorInvalidArgument, () => w.AddPressureBody(PressureBodySettings.Default, v, new[] { 0, 1 }),
                    "not a multiple of 3");
                Check.Throws(SinewStatus.ErrorNullPointer, () => w.AddTetBody<Vector3>(TetBodySettings.Default, null, new int[4]));
                Check.Throws(SinewStatus.ErrorInvalidArgument, () => w.AddTetBody(TetBodySettings.Default, v, new[] { 0, 1, 2, 4 }, new float[3]),
                    "inverseMasses");
                // An inverted tet (1, 2, 3 clockwise seen from 0) is refused by the library.
                Check.Throws(SinewStatus.ErrorInvalidArgument, () => w.AddTetBody(TetBodySettings.Default, v, new[] { 0, 2, 1, 4 }));
                Check.Throws(SinewStatus.ErrorInvalidArgument, () => w.AddClothMesh(ClothSettings.Default, v, new[] { 0, 1, 1 }, new float[8]));
                Check.Throws(SinewStatus.ErrorInvalidArgument, () => w.AddRopePolyline(RopeSettings.Default, new double[4]), "Double");
                Check.Equal(0, w.ParticleCount, "nothing added");
                Check.Equal(0, w.BodyCount, "no body");
                Body rope = w.AddRope(RopeSettings.Default);
                Check.Throws(SinewStatus.ErrorOutOfRange, () => rope.ReadPositions(new Vector3[20]));
                Check.Throws(SinewStatus.ErrorInvalidArgument, () => rope.ReadPositions(new double[40]), "Double");
                Check.Throws(SinewStatus.ErrorNullPointer, () => rope.ReadPositions<Vector3>(null));
                Check.Throws(SinewStatus.ErrorInvalidArgument, () => rope.SetCompliance((SinewBodyConstraints)77, 0f));
            }
        }
    }
}

// Constraint families through World.Add*: tethers, dihedral / isometric bending, tet
// volume, pressure, strain, unilateral area / volume, planar worlds, ring area and shape
// matching, each against a closed form; counts, force readback and bad input.

using System;
using Sinew;
using Sinew.Native;

namespace SinewTests
{
    public static unsafe class FamilyTests
    {
        const float G = 9.81f;
        const float Dt = 1f / 60f;

        static Vector3 Pos(World w, int i)
        {
            var p = new Vector3[1];
            w.ReadPositions(i, p);
            return p[0];
        }

        static float Len(Vector3 a) { return (float)Math.Sqrt(a.x * a.x + a.y * a.y + a.z * a.z); }
        static Vector3 Sub(Vector3 a, Vector3 b) { return new Vector3(a.x - b.x, a.y - b.y, a.z - b.z); }

        /// <summary>A tether is slack until taut: the 0.5 kg particle falls freely (the exact
        /// discrete free fall with damping) until it reaches the max length, then hangs at it
        /// with tension m·g.</summary>
        public static void TestTetherIsSlackThenHoldsTheWeight()
        {
            using (var w = NativeBodyTests.MakeWorld(G, 20, 2f))
            {
                w.AddParticles(new[] { new Vector3(0, 0, 0), new Vector3(0, -0.2f, 0) }, new[] { 0f, 2f });
                Check.Equal(0, w.AddTethers(new[] { 0, 1 }, new[] { 1f }, 0f), "first tether id");
                Check.Equal(1, w.FamilyConstraintCount(SinewFamily.Tether), "tether count");
                w.Step(0.1f);
                float h = 0.005f, f = (float)Math.Exp(-2.0 * h), v = 0, y = -0.2f;
                for (int k = 0; k < 20; k++)
                {
                    v -= G * h;
                    y += v * h;
                    v *= f;
                }
                Check.Near(y, Pos(w, 1).y, 1e-5, "free fall while slack (m)");
                var t = new float[1];
                w.ReadFamilyForces(SinewFamily.Tether, 0, t);
                Check.Equal(0f, t[0], "a slack tether does not pull");
                for (int i = 0; i < 300; i++)
                    w.Step(Dt);
                w.ReadFamilyForces(SinewFamily.Tether, 0, t);
                Console.WriteLine("     tether: hanging at " + Len(Pos(w, 1)) + " m, tension " + t[0] + " N (m g = " + 0.5f * G + ")");
                Check.Near(1.0, Len(Pos(w, 1)), 1e-3, "hangs at the max length (m)");
                Check.Rel(0.5 * G, t[0], 0.01, "tension = m g (N)");
                Check.Throws(SinewStatus.ErrorOutOfRange, () => w.ReadFamilyForces(SinewFamily.Tether, 0, new float[2]));
                Check.Throws(SinewStatus.ErrorInvalidArgument, () => w.AddTethers(new[] { 0, 1, 1 }, null, 0f), "multiple of 2");
                Check.Throws(SinewStatus.ErrorInvalidArgument, () => w.AddTethers(new[] { 0, 1 }, new[] { 1f, 2f }, 0f), "maxLengths");
                Check.Throws(SinewStatus.ErrorOutOfRange, () => w.AddTethers(new[] { 0, 5 }, null, 0f));
                Check.Equal(1, w.FamilyConstraintCount(SinewFamily.Tether), "refused calls added nothing");
            }
        }

        /// <summary>Hinge: edge (0, 1) pinned along x, wings 2 and 3 (0.1 kg) held 1 m from
        /// the edge by rigid links, wing 3 folded by <paramref name="fold"/> rad.</summary>
        static World Hinge(float fold)
        {
            var w = NativeBodyTests.MakeWorld(0f, 10, 1f);
            w.AddParticles(new[] { new Vector3(-0.5f, 0, 0), new Vector3(0.5f, 0, 0), new Vector3(0, 1, 0), new Vector3(0, -1, 0) },
                new[] { 0f, 0f, 10f, 10f });
            w.AddDistanceConstraints(new[] { 0, 2, 1, 2, 0, 3, 1, 3 }, null, 0f);
            w.WritePositions(3, new[] { new Vector3(0, -(float)Math.Cos(fold), (float)Math.Sin(fold)) });
            return w;
        }

        /// <summary>Angle (rad) between the wings' planes: 0 when flat.</summary>
        static double HingeAngle(World w)
        {
            Vector3 a = Pos(w, 2), b = Pos(w, 3);
            // Both wings hang off the x axis: compare their (y, z) directions, b flipped.
            return Math.Abs(Math.Atan2(a.y * -b.z - a.z * -b.y, a.y * -b.y + a.z * -b.z));
        }

        public static void TestFoldedHingesReturnFlat()
        {
            using (var w = Hinge(0.6f))
            {
                Check.Near(0.6, HingeAngle(w), 1e-5, "folded by 0.6 rad");
                Check.Equal(0, w.AddDihedralBending(new[] { 0, 1, 2, 3 }, new[] { 0f }, 0.01f), "dihedral id");
                for (int i = 0; i < 600; i++)
                    w.Step(Dt);
                Console.WriteLine("     dihedral hinge angle after 10 s: " + HingeAngle(w));
                Check.Near(0, HingeAngle(w), 0.02, "dihedral: flat (rad)");
                Check.Throws(SinewStatus.ErrorInvalidArgument, () => w.AddDihedralBending(new[] { 0, 1, 2, 3 }, new[] { 4f }, 0.01f), "rest");
                Check.Equal(1, w.FamilyConstraintCount(SinewFamily.DihedralBending), "count");
            }
            using (var w = Hinge(0f))
            {
                Check.Equal(0, w.AddIsometricBending(new[] { 0, 1, 2, 3 }, 0.01f), "isometric id");
                w.WritePositions(3, new[] { new Vector3(0, -(float)Math.Cos(0.6), (float)Math.Sin(0.6)) });
                for (int i = 0; i < 600; i++)
                    w.Step(Dt);
                Console.WriteLine("     isometric hinge angle after 10 s: " + HingeAngle(w));
                Check.Near(0, HingeAngle(w), 0.02, "isometric: flat (rad)");
                Check.Equal(1, w.FamilyConstraintCount(SinewFamily.IsometricBending), "count");
            }
        }

        /// <summary>A unit right tet squashed to half its volume recovers 1/6 m³.</summary>
        public static void TestTetVolumeAndTetStrainRecover()
        {
            var rest = new[] { new Vector3(0, 0, 0), new Vector3(1, 0, 0), new Vector3(0, 1, 0), new Vector3(0, 0, 1) };
            var squashed = new[] { new Vector3(0, 0, 0), new Vector3(1, 0, 0), new Vector3(0, 0.5f, 0), new Vector3(0, 0, 1) };
            for (int strain = 0; strain < 2; strain++)
            {
                using (var w = NativeBodyTests.MakeWorld(0f, 10))
                {
                    w.AddParticles(rest);
                    if (strain == 0)
                        Check.Equal(0, w.AddTetVolumes(new[] { 0, 1, 2, 3 }, null, 0f), "tet volume id");
                    else
                        Check.Equal(0, w.AddTetStrain(new[] { 0, 1, 2, 3 }, 0f, 0f, 0f, 0f), "tet strain id");
                    w.WritePositions(0, squashed);
                    for (int i = 0; i < 30; i++)
                        w.Step(Dt);
                    var p = new Vector3[4];
                    w.ReadPositions(0, p);
                    double vol = NativeBodyTests.SignedVolume(p[0], p[1], p[2], p[3]);
                    Console.WriteLine("     " + (strain == 0 ? "tet volume" : "tet strain") + ": " + vol + " m³ (rest 1/6)");
                    Check.Near(1.0 / 6.0, vol, 0.01 / 6.0, "recovered volume (m³)");
                }
            }
            using (var w = NativeBodyTests.MakeWorld(0f, 10))
            {
                w.AddParticles(rest);
                w.AddTetStrain(new[] { 0, 1, 2, 3 }, 0f, 0f, 0f, 0f);
                Check.Equal(6, w.FamilyConstraintCount(SinewFamily.TetStrain), "six strain components per tet");
                Check.Throws(SinewStatus.ErrorInvalidArgument, () => w.AddTetVolumes(new[] { 0, 2, 1, 3 }, null, 0f), "tet");
                Check.Throws(SinewStatus.ErrorInvalidArgument, () => w.AddTetVolumes(new[] { 0, 1, 2, 3 }, new float[2], 0f), "restVolumes");
                Check.Equal(0, w.FamilyConstraintCount(SinewFamily.TetVolume), "nothing added");
            }
        }

        /// <summary>A closed unit cube with overpressure 1.5 inflates to 1.5 m³.</summary>
        public static void TestPressureVolumeInflatesToTheOverpressure()
        {
            using (var w = NativeBodyTests.MakeWorld(0f, 10, 5f))
            {
                Vector3[] v;
                int[] t;
                NativeBodyTests.Cube(out v, out t);
                w.AddParticles(v);
                int id = w.AddPressureVolume(t, 1.5f, 0f);
                Check.Near(1.0, w.PressureVolume(id), 1e-6, "rest volume (m³)");
                for (int i = 0; i < 60; i++)
                    w.Step(Dt);
                Console.WriteLine("     pressure volume: " + w.PressureVolume(id) + " m³ (target 1.5)");
                Check.Near(1.5, w.PressureVolume(id), 0.015, "inflated volume (m³)");
                var pa = new float[1];
                w.ReadFamilyForces(SinewFamily.PressureVolume, id, pa);
                Check.Throws(SinewStatus.ErrorOutOfRange, () => w.PressureVolume(id + 1));
                Check.Throws(SinewStatus.ErrorInvalidArgument, () => w.AddPressureVolume(t, 0f, 0f), "pressure");
            }
        }

        /// <summary>A triangle stretched by 50% along one edge returns to its rest edge
        /// lengths under rigid strain constraints (zero gravity).</summary>
        public static void TestTriangleStrainRestoresTheRestShape()
        {
            using (var w = NativeBodyTests.MakeWorld(0f, 10, 2f))
            {
                w.AddParticles(new[] { new Vector3(0, 0, 0), new Vector3(1, 0, 0), new Vector3(0, 1, 0) });
                Check.Equal(0, w.AddTriangleStrain(new[] { 0, 1, 2 }, 0f, 0f, 0f), "strain id");
                Check.Equal(3, w.FamilyConstraintCount(SinewFamily.TriangleStrain), "three components per triangle");
                w.WritePositions(1, new[] { new Vector3(1.5f, 0, 0) });
                for (int i = 0; i < 120; i++)
                    w.Step(Dt);
                Vector3 a = Pos(w, 0), b = Pos(w, 1), c = Pos(w, 2);
                Console.WriteLine("     triangle strain: edges " + Len(Sub(b, a)) + ", " + Len(Sub(c, a)) + ", " + Len(Sub(c, b)));
                Check.Near(1.0, Len(Sub(b, a)), 0.01, "edge 0-1 (m)");
                Check.Near(1.0, Len(Sub(c, a)), 0.01, "edge 0-2 (m)");
                Check.Near(Math.Sqrt(2), Len(Sub(c, b)), 0.01, "edge 1-2 (m)");
                Check.Throws(SinewStatus.ErrorInvalidArgument, () => w.AddTriangleStrain(new[] { 0, 1, 1 }, 0f, 0f, 0f));
            }
        }

        /// <summary>Planar world: particles move onto z = 0.25 and stay there; a triangle
        /// pushed inside out is restored to a non-negative area; a ring of 16 particles with
        /// pressure 1.5 encloses 1.5 × its rest area.</summary>
        public static void TestPlanarUnilateralAreaAndRing()
        {
            using (var w = NativeBodyTests.MakeWorld(0f, 10, 2f))
            {
                w.AddParticles(new[] { new Vector3(0, 0, 1), new Vector3(1, 0, -1), new Vector3(0, 1, 0.5f) });
                w.SetPlanar(true, 0.25f);
                for (int i = 0; i < 3; i++)
                    Check.Equal(0.25f, Pos(w, i).z, "moved onto the plane");
                Check.Equal(0, w.AddUnilateralAreas(new[] { 0, 1, 2 }, null, 0f), "unilateral id");
                // Push vertex 2 through the opposite edge: signed area -0.25 m².
                w.WritePositions(2, new[] { new Vector3(0.5f, -0.5f, 0.25f) });
                w.Step(Dt);
                Vector3 a = Pos(w, 0), b = Pos(w, 1), c = Pos(w, 2);
                double area = 0.5 * ((b.x - a.x) * (c.y - a.y) - (b.y - a.y) * (c.x - a.x));
                Console.WriteLine("     unilateral area after one step: " + area + " m² (was -0.25)");
                Check.True(area >= -1e-4, "area restored to >= 0: " + area);
                Check.Equal(0.25f, c.z, "stays in the plane");
                w.SetPlanar(false, 0f);
            }
            using (var w = NativeBodyTests.MakeWorld(0f, 10, 5f))
            {
                w.SetPlanar(true, 0f);
                const int n = 16;
                var ring = new Vector3[n];
                var ids = new int[n];
                for (int i = 0; i < n; i++)
                {
                    double th = 2 * Math.PI * i / n;
                    ring[i] = new Vector3(0.5f * (float)Math.Cos(th), 0.5f * (float)Math.Sin(th), 0);
                    ids[i] = i;
                }
                w.AddParticles(ring);
                double a0 = 0.5 * n * 0.25 * Math.Sin(2 * Math.PI / n);
                int id = w.AddRingArea(ids, 1.5f, 0f);
                Check.Near(a0, w.RingArea(id), 1e-5, "polygon area (m²)");
                for (int i = 0; i < 60; i++)
                    w.Step(Dt);
                Console.WriteLine("     ring area: " + w.RingArea(id) + " m² (target " + 1.5 * a0 + ")");
                Check.Rel(1.5 * a0, w.RingArea(id), 0.01, "ring area at 1.5 × rest");
                Check.Throws(SinewStatus.ErrorInvalidArgument, () => w.AddRingArea(new[] { 0, 1 }, 1f, 0f));
                Check.Throws(SinewStatus.ErrorOutOfRange, () => w.RingArea(id + 1));
            }
        }

        /// <summary>Unilateral volumes act only when violated: an inverted tet is pushed back
        /// to a non-negative volume, a valid one is left alone.</summary>
        public static void TestUnilateralVolumeActsOnlyWhenViolated()
        {
            using (var w = NativeBodyTests.MakeWorld(0f, 10))
            {
                var rest = new[] { new Vector3(0, 0, 0), new Vector3(1, 0, 0), new Vector3(0, 1, 0), new Vector3(0, 0, 1) };
                w.AddParticles(rest);
                Check.Equal(0, w.AddUnilateralVolumes(new[] { 0, 1, 2, 3 }, null, 0f), "id");
                w.WritePositions(3, new[] { new Vector3(0, 0, 0.5f) });
                w.Step(Dt);
                var p = new Vector3[4];
                w.ReadPositions(0, p);
                Check.Equal(0.5f, p[3].z, "a valid tet is left alone");
                w.WritePositions(3, new[] { new Vector3(0.2f, 0.2f, -0.5f) });
                w.Step(Dt);
                w.ReadPositions(0, p);
                double v = NativeBodyTests.SignedVolume(p[0], p[1], p[2], p[3]);
                Console.WriteLine("     unilateral volume after one step: " + v + " m³ (was " + (-0.5 / 6) + ")");
                Check.True(v >= -1e-4, "volume restored to >= 0: " + v);
                Check.Equal(1, w.FamilyConstraintCount(SinewFamily.UnilateralVolume), "count");
            }
        }

        /// <summary>A rigid shape-matching cluster (stiffness 1) returns a squashed square to
        /// its rest shape; stiffness out of [0, 1] is refused.</summary>
        public static void TestShapeClusterRestoresItsShape()
        {
            using (var w = NativeBodyTests.MakeWorld(0f, 10))
            {
                var sq = new[] { new Vector3(0, 0, 0), new Vector3(1, 0, 0), new Vector3(1, 1, 0), new Vector3(0, 1, 0) };
                w.AddParticles(sq);
                int id = w.AddShapeCluster(new[] { 0, 1, 2, 3 }, 1f);
                w.WritePositions(0, new[] { new Vector3(0.2f, 0.3f, 0.1f) });
                for (int i = 0; i < 30; i++)
                    w.Step(Dt);
                var p = new Vector3[4];
                w.ReadPositions(0, p);
                Check.Near(1.0, Len(Sub(p[1], p[0])), 1e-3, "side 0-1 (m)");
                Check.Near(Math.Sqrt(2), Len(Sub(p[2], p[0])), 1e-3, "diagonal 0-2 (m)");
                Check.Near(Math.Sqrt(2), Len(Sub(p[3], p[1])), 1e-3, "diagonal 1-3 (m)");
                w.SetShapeClusterStiffness(id, 0.5f);
                Check.Throws(SinewStatus.ErrorInvalidArgument, () => w.SetShapeClusterStiffness(id, 2f));
                Check.Throws(SinewStatus.ErrorInvalidArgument, () => w.AddShapeCluster(new[] { 0 }, 1f));
                Check.Throws(SinewStatus.ErrorOutOfRange, () => w.SetShapeClusterStiffness(id + 1, 0.5f));
            }
        }
    }
}

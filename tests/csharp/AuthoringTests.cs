// The Unity components' options reach the library: SinewRope and SinewCloth copy their
// inspector fields into RopeOptions / ClothOptions and build and edit their bodies only
// through SinewAuthoring (unity-sample/Runtime/SinewAuthoring.cs, compiled into these
// tests), so building and editing through it here is the components' own code path.
// Each option is checked by what the library then does or reports: constraint counts,
// body info, resting heights on a plane (the collision radius), a rope resting on or
// falling through another (the collision filter), hanging stretches and tensions against
// their closed forms (compliance and mass edited in place).

using System;
using Sinew;
using Sinew.Native;
using Sinew.Unity;

namespace SinewTests
{
    public static class AuthoringTests
    {
        const float Dt = 1f / 60f;
        const float G = 9.81f;

        static World NewWorld(float damping)
        {
            var s = WorldSettings.Default;
            s.Substeps = 16;
            s.Threads = 1;
            s.Damping = damping;
            return new World(s);
        }

        static RopeOptions Rope(SinewVec3 start, SinewVec3 end, int segments)
        {
            return new RopeOptions
            {
                Start = start,
                End = end,
                Segments = segments,
                Tethers = false,
                PinStart = true,
                PinEnd = false,
                Radius = 0f,
                MassKg = 1f,
                StretchCompliance = 0f,
                BendCompliance = 0.01f,
                WinchSpeed = 0.5f,
                Collision = CollisionOptions.Default,
            };
        }

        static void Steps(World w, int n)
        {
            for (int i = 0; i < n; i++)
                w.Step(Dt);
        }

        static SinewVec3[] Positions(Body b)
        {
            var p = new SinewVec3[b.ParticleCount];
            b.ReadPositions(p);
            return p;
        }

        /// Segments, pins, tethers, radius and damping become the library's rope: 10 links,
        /// 9 bend links, a tether from the pinned start to every particle beyond its linked
        /// neighbour (9), no tethers when off; the body info reports the radius and damping.
        public static void TestRopeOptionsBuildTheLibrarysRope()
        {
            using (var w = NewWorld(0f))
            {
                var o = Rope(new SinewVec3(0, 1, 0), new SinewVec3(1, 1, 0), 10);
                o.Tethers = true;
                o.Radius = 0.02f;
                o.Damping = 0.3f;
                var rope = SinewAuthoring.BuildRope(w, o);
                var f = new float[64];
                Check.Equal(11, rope.ParticleCount, "particles");
                Check.Equal(10, rope.ReadForces(SinewBodyConstraints.Stretch, f), "links");
                Check.Equal(9, rope.ReadForces(SinewBodyConstraints.Bend, f), "bend links");
                Check.Equal(9, rope.ReadForces(SinewBodyConstraints.Tether, f), "tethers from the pinned start");
                Check.Near(0.02, rope.Radius, 1e-7, "radius");
                Check.Near(0.3, rope.Damping, 1e-7, "damping");
                o.Tethers = false;
                o.Start = new SinewVec3(0, 2, 0);
                o.End = new SinewVec3(1, 2, 0);
                var plain = SinewAuthoring.BuildRope(w, o);
                Check.Equal(0, plain.ReadForces(SinewBodyConstraints.Tether, f), "no tethers");
                Check.Equal(SinewAuthoring.AutoGroup(rope) + 11u, SinewAuthoring.AutoGroup(plain),
                            "each rope its own group");
            }
        }

        /// The rope's radius is every particle's collision radius: a free rope dropped on
        /// a ground plane comes to rest with every particle at height = radius.
        public static void TestRopeRadiusIsTheCollisionRadius()
        {
            using (var w = NewWorld(2f))
            {
                w.AddCollider(ColliderSettings.Default);
                var o = Rope(new SinewVec3(0, 0.3f, 0), new SinewVec3(1, 0.3f, 0), 10);
                o.PinStart = false;
                o.Radius = 0.05f;
                var rope = SinewAuthoring.BuildRope(w, o);
                Steps(w, 180);
                foreach (var p in Positions(rope))
                    Check.Near(0.05, p.y, 1e-3, "particle resting on the plane at the rope radius");
            }
        }

        /// The collision filter: a free rope dropped across a taut one rests on it, its
        /// middle particle touching the taut rope's particles (centres 2 radii apart, above
        /// them); with a mask that excludes the taut rope's layer (an edit in place) it
        /// falls through. Both ropes in one explicit group (no self collision) pass through
        /// each other too.
        public static void TestCollisionFilterDecidesWhatTheRopeHits()
        {
            const float R = 0.03f;
            var above = new float[3];
            var nearest = new float[3];
            for (int variant = 0; variant < 3; variant++)
            {
                using (var w = NewWorld(2f))
                {
                    var taut = Rope(new SinewVec3(-0.5f, 0, 0), new SinewVec3(0.5f, 0, 0), 16);
                    taut.PinEnd = true;
                    taut.Radius = R;
                    taut.Collision.Layers = 2;
                    if (variant == 2)
                        taut.Collision.Group = 5;
                    var under = SinewAuthoring.BuildRope(w, taut);
                    var free = Rope(new SinewVec3(0, 0.2f, -0.5f), new SinewVec3(0, 0.2f, 0.5f), 16);
                    free.PinStart = false;
                    free.Radius = R;
                    if (variant == 2)
                        free.Collision.Group = 5;
                    var rope = SinewAuthoring.BuildRope(w, free);
                    if (variant == 1)
                    {
                        var applied = free;
                        var wanted = free;
                        wanted.Collision.Mask = ~2;
                        SinewAuthoring.EditRope(rope, ref applied, wanted);
                        Check.Equal(~2, applied.Collision.Mask, "mask recorded as applied");
                    }
                    Steps(w, 40);
                    SinewVec3 mid = Positions(rope)[8];
                    SinewVec3[] q = Positions(under);
                    above[variant] = mid.y - q[8].y;
                    nearest[variant] = float.PositiveInfinity;
                    foreach (var p in q)
                        nearest[variant] = Math.Min(nearest[variant], (p - mid).Length);
                }
            }
            Check.True(above[0] > 0.04f, "resting on the taut rope (" + above[0] + " m above its middle)");
            Check.Near(2 * R, nearest[0], 3e-3, "touching: nearest centres 2 radii apart, m");
            Check.True(above[1] < -0.3f, "masked off: fell through (" + above[1] + ")");
            Check.True(above[2] < -0.3f, "one group: fell through (" + above[2] + ")");
        }

        /// Compliance and mass edited in place while it hangs: the top link of a 1 m rope of
        /// 10 links (11 particles, the pinned one included in the mass) carries the 10
        /// particles below it, T = m·(10/11)·g, and stretches by α·T.
        public static void TestStretchAndMassEditedInPlaceMatchTheClosedForms()
        {
            using (var w = NewWorld(4f))
            {
                var o = Rope(new SinewVec3(0, 0, 0), new SinewVec3(0, -1, 0), 10);
                o.BendCompliance = 100f; // bend links that carry no load worth counting
                var rope = SinewAuthoring.BuildRope(w, o);
                RopeOptions applied = o;
                RopeOptions wanted = o;
                wanted.StretchCompliance = 1e-3f;
                wanted.MassKg = 2f;
                SinewAuthoring.EditRope(rope, ref applied, wanted);
                Check.Equal(wanted.StretchCompliance, applied.StretchCompliance, "compliance applied");
                Check.Equal(wanted.MassKg, applied.MassKg, "mass applied");
                Steps(w, 300);
                double t = 2.0 * 10 / 11 * G;
                var tension = new float[10];
                rope.ReadTensions(tension);
                Check.Rel(t, tension[0], 0.01, "top link tension, N");
                var p = Positions(rope);
                double stretch = Math.Abs(p[1].y - p[0].y) - 0.1;
                Check.Rel(1e-3 * t, stretch, 0.02, "top link stretch α·T, m");
                // Damping reaches the body; drag on a rope of radius 0 is refused with the
                // library's message and stays unapplied; topology does not change in place.
                wanted.Damping = 0.7f;
                wanted.Drag = 1.2f;
                Check.Throws(SinewStatus.ErrorInvalidArgument,
                             () => SinewAuthoring.EditRope(rope, ref applied, wanted), "radius is 0");
                Check.Near(0.7, rope.Damping, 1e-7, "damping edited");
                Check.Near(0, applied.Drag, 0, "refused drag not recorded");
                wanted.Drag = 0f;
                Check.Equal("", SinewAuthoring.RopeRebuildReason(applied, wanted), "in-place edits need no rebuild");
                wanted.Segments = 12;
                Check.Equal("Segments", SinewAuthoring.RopeRebuildReason(applied, wanted), "segments rebuild");
                wanted.Segments = 10;
                wanted.Radius = 0.1f;
                Check.Equal("Radius", SinewAuthoring.RopeRebuildReason(applied, wanted), "radius rebuilds");
            }
        }

        /// The winch and the break force from the options: Length reels the rope in at
        /// WinchSpeed, and a break force below the hanging weight snaps it.
        public static void TestWinchAndBreakForceFromTheOptions()
        {
            using (var w = NewWorld(1f))
            {
                var o = Rope(new SinewVec3(0, 0, 0), new SinewVec3(0, -1, 0), 20);
                var rope = SinewAuthoring.BuildRope(w, o);
                RopeOptions applied = o;
                RopeOptions wanted = o;
                wanted.Length = 0.5f;
                wanted.WinchSpeed = 1f;
                SinewAuthoring.EditRope(rope, ref applied, wanted);
                Steps(w, 60); // 1 s at 1 m/s: more than the 0.5 m to reel
                float length, speed;
                int paying;
                rope.ReadWinch(out length, out speed, out paying);
                Check.Near(0.5, length, 1e-4, "winch reached Length, m");
                wanted.BreakForce = 1f; // the top link holds about 0.5·9.81 N
                SinewAuthoring.EditRope(rope, ref applied, wanted);
                Steps(w, 2);
                Check.True(w.BreakEventCount > 0, "a link broke under the weight");
            }
        }

        /// A 4 × 4 cell grid mesh (25 vertices) at height y, in the xz plane.
        static void Grid(float y, out SinewVec3[] v, out int[] tris)
        {
            const int N = 4;
            v = new SinewVec3[(N + 1) * (N + 1)];
            for (int j = 0; j <= N; j++)
                for (int i = 0; i <= N; i++)
                    v[j * (N + 1) + i] = new SinewVec3(i * 0.25f, y, j * 0.25f);
            tris = new int[N * N * 6];
            int k = 0;
            for (int j = 0; j < N; j++)
                for (int i = 0; i < N; i++)
                {
                    int a = j * (N + 1) + i, b = a + 1, c = a + N + 1, d = c + 1;
                    tris[k++] = a; tris[k++] = c; tris[k++] = b;
                    tris[k++] = b; tris[k++] = c; tris[k++] = d;
                }
        }

        static ClothOptions ClothDefaults()
        {
            return new ClothOptions
            {
                Model = SinewClothModel.Edges,
                Bending = SinewBendingModel.Distance,
                Tethers = true,
                Warp = new SinewVec3(1, 0, 0),
                MassKg = 0.5f,
                StretchCompliance = 1e-6f,
                ShearCompliance = 1e-4f,
                BendCompliance = 1e-3f,
                Collision = CollisionOptions.Default,
            };
        }

        /// Model, bending, tethers and pins become the library's cloth: 56 edges, one
        /// distance bend link per interior edge (40: every edge but the 16 boundary ones),
        /// a tether from each free vertex to each pinned one (23 × 2) or none.
        public static void TestClothOptionsBuildTheLibrarysCloth()
        {
            using (var w = NewWorld(0f))
            {
                SinewVec3[] v;
                int[] tris;
                Grid(1f, out v, out tris);
                var o = ClothDefaults();
                o.Damping = 0.25f;
                var cloth = SinewAuthoring.BuildCloth(w, v, tris, new[] { 0, 4 }, o);
                var f = new float[256];
                Check.Equal(25, cloth.ParticleCount, "particles");
                Check.Equal(56, cloth.ReadForces(SinewBodyConstraints.Stretch, f), "edges");
                Check.Equal(40, cloth.ReadForces(SinewBodyConstraints.Bend, f), "distance bend links");
                Check.Equal(46, cloth.ReadForces(SinewBodyConstraints.Tether, f), "tethers of the free vertices");
                Check.Near(0.25, cloth.Damping, 1e-7, "damping");
                o.Tethers = false;
                o.Bending = SinewBendingModel.Dihedral;
                Grid(3f, out v, out tris);
                var other = SinewAuthoring.BuildCloth(w, v, tris, new[] { 0, 4 }, o);
                Check.Equal(0, other.ReadForces(SinewBodyConstraints.Tether, f), "no tethers");
                Check.Equal(0, other.ReadForces(SinewBodyConstraints.Bend, f), "dihedral: no bend links");
                Check.Equal("Bending", SinewAuthoring.ClothRebuildReason(ClothDefaults(), o), "bending model rebuilds");
            }
        }

        /// Mass edited in place is the mass the cloth would have been built with: a cloth
        /// pinned at two corners, built with 1 kg and edited to 3 kg, hangs as one built
        /// with 3 kg (compliant edges: the sag depends on the weight), not as 1 kg.
        public static void TestClothMassEditedInPlaceEqualsBuiltMass()
        {
            var hang = new SinewVec3[3][];
            float[] built = { 1f, 3f, 1f };
            for (int k = 0; k < 3; k++)
            {
                using (var w = NewWorld(3f))
                {
                    SinewVec3[] v;
                    int[] tris;
                    Grid(0f, out v, out tris);
                    var o = ClothDefaults();
                    o.StretchCompliance = 1e-2f;
                    o.Tethers = false;
                    o.MassKg = built[k];
                    var cloth = SinewAuthoring.BuildCloth(w, v, tris, new[] { 0, 4 }, o);
                    if (k == 2)
                    {
                        ClothOptions applied = o, wanted = o;
                        wanted.MassKg = 3f;
                        SinewAuthoring.EditCloth(cloth, ref applied, wanted, 2);
                    }
                    Steps(w, 120);
                    hang[k] = Positions(cloth);
                }
            }
            int far = 24; // the corner opposite the pinned edge
            Check.True(hang[1][far].y < hang[0][far].y - 0.01f, "3 kg sags more than 1 kg");
            for (int i = 0; i < hang[1].Length; i++)
                Check.Near(hang[1][i].y, hang[2][i].y, 1e-4, "edited to 3 kg hangs as built with 3 kg, particle " + i);
        }

        /// The cloth's collision radius, set at build and edited in place: dropped flat on
        /// a plane it rests at height = radius; raised in place, it rises to the new one.
        public static void TestClothRadiusEditedInPlace()
        {
            using (var w = NewWorld(2f))
            {
                w.AddCollider(ColliderSettings.Default);
                SinewVec3[] v;
                int[] tris;
                Grid(0.2f, out v, out tris);
                var o = ClothDefaults();
                o.Collision.Radius = 0.02f;
                var cloth = SinewAuthoring.BuildCloth(w, v, tris, null, o);
                Steps(w, 120);
                foreach (var p in Positions(cloth))
                    Check.Near(0.02, p.y, 1e-3, "resting at the radius");
                ClothOptions applied = o;
                ClothOptions wanted = o;
                wanted.Collision.Radius = 0.05f;
                SinewAuthoring.EditCloth(cloth, ref applied, wanted, 0);
                Steps(w, 120);
                foreach (var p in Positions(cloth))
                    Check.Near(0.05, p.y, 1e-3, "resting at the edited radius");
            }
        }

        /// A radius edited after the cloth tore reaches the particles the splits took from
        /// the reserve too (they live outside the body's range): every piece rests on the
        /// plane at the new radius.
        public static void TestClothRadiusEditReachesTornVertices()
        {
            using (var w = NewWorld(2f))
            {
                w.AddCollider(ColliderSettings.Default);
                SinewVec3[] v;
                int[] tris;
                Grid(0.2f, out v, out tris);
                var o = ClothDefaults();
                o.Collision.Radius = 0.02f;
                var cloth = SinewAuthoring.BuildCloth(w, v, tris, null, o);
                var pos = Positions(cloth);
                for (int i = 0; i < pos.Length; i++)
                    pos[i].x *= 1.2f; // every edge along x at 1.2 × its rest length...
                w.WritePositions(cloth.FirstParticle, pos);
                w.SetInverseMasses(cloth.FirstParticle, new float[pos.Length]); // ...held there
                ClothOptions applied = o, wanted = o;
                wanted.TearThreshold = 1.19f;
                wanted.TearReserve = 8;
                SinewAuthoring.EditCloth(cloth, ref applied, wanted, 0);
                w.Step(Dt);
                Check.True(cloth.TopologyVersion > 0, "torn");
                wanted.Collision.Radius = 0.05f;
                SinewAuthoring.EditCloth(cloth, ref applied, wanted, 0);
                int[] particles = cloth.ReadTopology().VertexParticles;
                int spares = 0;
                foreach (int p in particles)
                {
                    w.SetInverseMasses(p, new[] { 1f });
                    if (p >= cloth.FirstParticle + cloth.ParticleCount)
                        spares++;
                }
                Check.True(spares > 0, "split vertices took spare particles");
                Steps(w, 150);
                var one = new SinewVec3[1];
                foreach (int p in particles)
                {
                    w.ReadPositions(p, one);
                    Check.Near(0.05, one[0].y, 1e-3, "particle " + p + " resting at the edited radius");
                }
            }
        }

        /// What SinewCloth and SinewSkinnedCloth draw: Cloth.ReadInterpolatedVertices gives
        /// every mesh vertex (1 - α)·previous + α·current of its particle, welded vertices
        /// (one particle for two mesh vertices here) and vertices tearing added included:
        /// α = 1 is ReadVertices after the step, α = 0 what it read before the step.
        public static void TestClothInterpolatedVerticesBetweenTwoSteps()
        {
            using (var w = NewWorld(0f))
            {
                SinewVec3[] grid;
                int[] tris;
                Grid(1f, out grid, out tris);
                // Vertex 25 duplicates vertex 6 (a UV seam): the library welds them.
                var v = new SinewVec3[26];
                Array.Copy(grid, v, 25);
                v[25] = grid[6];
                for (int k = 0; k < tris.Length; k += 6)
                    if (tris[k] == 6) tris[k] = 25;
                var cloth = SinewAuthoring.BuildCloth(w, v, tris, new[] { 0, 4 }, ClothDefaults());
                Check.Equal(25, cloth.ParticleCount, "welded");
                Steps(w, 5);
                var before = new SinewVec3[26];
                var after = new SinewVec3[26];
                var mid = new SinewVec3[26];
                cloth.ReadVertices(before);
                w.Step(Dt);
                cloth.ReadVertices(after);
                var check = new SinewVec3[26];
                cloth.ReadInterpolatedVertices(1f, check);
                for (int i = 0; i < 26; i++)
                    Check.True(check[i].x == after[i].x && check[i].y == after[i].y && check[i].z == after[i].z,
                               "alpha 1 = after the step, vertex " + i);
                cloth.ReadInterpolatedVertices(0f, check);
                for (int i = 0; i < 26; i++)
                    Check.True(check[i].x == before[i].x && check[i].y == before[i].y && check[i].z == before[i].z,
                               "alpha 0 = before the step, vertex " + i);
                cloth.ReadInterpolatedVertices(0.25f, mid);
                for (int i = 0; i < 26; i++)
                    Check.Near(0.75 * before[i].y + 0.25 * after[i].y, mid[i].y, 1e-6, "alpha 0.25, vertex " + i);
                Check.True(before[25].y == before[6].y && mid[25].y == mid[6].y, "the welded copy reads its particle");

                // Torn: stretch and hold the cloth so that it splits, then free it.
                var pos = Positions(cloth);
                for (int i = 0; i < pos.Length; i++)
                    pos[i].x *= 1.2f;
                w.WritePositions(cloth.FirstParticle, pos);
                w.SetInverseMasses(cloth.FirstParticle, new float[pos.Length]);
                cloth.SetTearThreshold(1.19f, 8);
                w.Step(Dt);
                Check.True(cloth.UpdateTopology(), "torn");
                int n = cloth.MeshVertexCount;
                Check.True(n > 26, "tearing added mesh vertices");
                foreach (int p in cloth.ReadTopology().VertexParticles)
                    w.SetInverseMasses(p, new[] { 1f }); // the spares split off included
                var b2 = new SinewVec3[n];
                var a2 = new SinewVec3[n];
                var m2 = new SinewVec3[n];
                cloth.ReadVertices(b2);
                w.Step(Dt);
                cloth.ReadVertices(a2);
                cloth.ReadInterpolatedVertices(0.5f, m2);
                Check.True((a2[n - 1] - b2[n - 1]).Length > 1e-4f, "a vertex tearing added moves in the step");
                for (int i = 0; i < n; i++)
                {
                    Check.Near(0.5 * b2[i].x + 0.5 * a2[i].x, m2[i].x, 1e-6, "torn mesh, alpha 0.5, x of vertex " + i);
                    Check.Near(0.5 * b2[i].y + 0.5 * a2[i].y, m2[i].y, 1e-6, "torn mesh, alpha 0.5, y of vertex " + i);
                }
            }
        }

        /// Edits the library refuses throw its readable message and stay unapplied: tearing
        /// a cloth with drag. Strain model: a weft compliance different from the warp's
        /// cannot be edited in place (the library edits both together) and asks for a rebuild.
        public static void TestClothEditsTheLibraryRefusesOrCannotApply()
        {
            using (var w = NewWorld(0f))
            {
                SinewVec3[] v;
                int[] tris;
                Grid(1f, out v, out tris);
                var o = ClothDefaults();
                o.Drag = 1f;
                var cloth = SinewAuthoring.BuildCloth(w, v, tris, new[] { 0 }, o);
                ClothOptions applied = o;
                ClothOptions wanted = o;
                wanted.TearThreshold = 1.5f;
                Check.Throws(SinewStatus.ErrorInvalidArgument,
                             () => SinewAuthoring.EditCloth(cloth, ref applied, wanted, 1), "aerodynamic");
                Check.Near(0, applied.TearThreshold, 0, "refused threshold not recorded");

                var s = ClothDefaults();
                s.Model = SinewClothModel.Strain;
                s.StretchCompliance = 1e-3f;
                s.WeftCompliance = 1e-3f;
                Grid(3f, out v, out tris);
                var strain = SinewAuthoring.BuildCloth(w, v, tris, new[] { 0 }, s);
                ClothOptions sa = s, sw = s;
                sw.WeftCompliance = 2e-3f;
                Check.True(SinewAuthoring.ClothRebuildReason(sa, sw).StartsWith("Weft"), "weft alone rebuilds");
                SinewAuthoring.EditCloth(strain, ref sa, sw, 1);
                Check.Near(1e-3, sa.WeftCompliance, 1e-9, "weft alone not applied in place");
                sw.StretchCompliance = 2e-3f;
                Check.Equal("", SinewAuthoring.ClothRebuildReason(sa, sw), "warp = weft edits in place");
                SinewAuthoring.EditCloth(strain, ref sa, sw, 1);
                Check.Near(2e-3, sa.StretchCompliance, 1e-9, "warp and weft applied together");
            }
        }
    }
}

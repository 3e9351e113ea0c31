// The engine-neutral half of the authoring components: what SinewRope and SinewCloth
// hand to the library. Each component copies its inspector fields into a RopeOptions /
// ClothOptions value; SinewAuthoring builds the body from it through the library's
// builders (Sinew.Rope over sinew_world_add_rope, Sinew.Cloth over
// sinew_world_add_cloth_mesh), sets the particles' collision radii and filters and the
// aerodynamic coefficients, and later pushes edited options into the live body with the
// library's in-place edits. Options that change the body's topology (segments, pins,
// tethers, models) cannot be edited in place: NeedsRebuild says so, and the components
// rebuild only when asked (SinewRope.Rebuild, SinewCloth.Rebuild). No UnityEngine type
// is used here, so tests/csharp compiles this file into the Mono tests and checks it
// against the library.

using System;
using Sinew.Native;

namespace Sinew.Unity
{
    /// <summary>Which particles a body's particles collide with (sinew_world_set_collision_filters)
    /// and their collision radius.</summary>
    public struct CollisionOptions
    {
        /// <summary>Collision radius of every particle (m, >= 0; 0 = points, which never touch
        /// each other).</summary>
        public float Radius;
        /// <summary>The body's particles collide with each other (only those further apart
        /// than twice the radius at rest should: keep links longer than 2 × Radius).</summary>
        public bool SelfCollision;
        /// <summary>Collision group (>= 0): particles of one non-zero group never collide with
        /// each other unless both self-collide. 0 = this body's own group
        /// (<see cref="SinewAuthoring.AutoGroup"/>).</summary>
        public int Group;
        /// <summary>Layer bits the particles are on (default 1).</summary>
        public int Layers;
        /// <summary>Layer bits they collide with (default -1 = all).</summary>
        public int Mask;

        /// <summary>Radius 0, no self-collision, the body's own group, layer 1, every layer.</summary>
        public static CollisionOptions Default
        {
            get { return new CollisionOptions { Radius = 0f, SelfCollision = false, Group = 0, Layers = 1, Mask = -1 }; }
        }

        /// <summary>Same filter and radius.</summary>
        public bool Same(CollisionOptions o)
        {
            return Radius == o.Radius && SelfCollision == o.SelfCollision && Group == o.Group &&
                   Layers == o.Layers && Mask == o.Mask;
        }
    }

    /// <summary>Everything SinewRope sets on its rope. Fields marked "rebuild" are read when
    /// the rope is built; the others are edited in place.</summary>
    public struct RopeOptions
    {
        // BEGIN GENERATED RopeDesc options
        /// <summary>Rebuild. First end, where the straight rope starts. Ignored by the polyline
        /// builder. Each component in [-1e9, 1e9] m.</summary>
        public SinewVec3 Start;
        /// <summary>Rebuild. Second end. Ignored by the polyline builder. Each component in
        /// [-1e9, 1e9] m.</summary>
        public SinewVec3 End;
        /// <summary>Rebuild. Segments between start and end (segments + 1 particles). Ignored
        /// by the polyline builder. In 1..16777216.</summary>
        public int Segments;
        /// <summary>In place. Total mass, spread evenly over the particles. In (0, 1e12]
        /// kg.</summary>
        public float MassKg;
        /// <summary>Rebuild. Radius for rendering and collision: each particle's collision
        /// radius against colliders and other particles (not the rope's own). 0 = a thin line
        /// for colliders and no part in particle contacts, whose neighbour search then costs
        /// nothing. In [0, 1e9] m.</summary>
        public float Radius;
        /// <summary>In place. Compliance of the links (0 = inextensible). In [0, 1e10]
        /// m/N.</summary>
        public float StretchCompliance;
        /// <summary>In place. Compliance of the (i, i+2) bend links. In [0, 1e10]
        /// m/N.</summary>
        public float BendCompliance;
        /// <summary>Rebuild. Tethers from each pinned end to every particle (Kim et al. 2012;
        /// max length = the arc length along the rope).</summary>
        public bool Tethers;
        /// <summary>Rebuild. Pin the first particle (inverse mass 0).</summary>
        public bool PinStart;
        /// <summary>Rebuild. Pin the last particle (inverse mass 0).</summary>
        public bool PinEnd;
        /// <summary>In place. Extra velocity damping of the rope's particles. In [0, 1000000]
        /// 1/s.</summary>
        public float Damping;
        // END GENERATED RopeDesc options
        /// <summary>In place. Tether compliance (m/N; 0 = inextensible tethers).</summary>
        public float TetherCompliance;
        /// <summary>In place. Aerodynamic drag coefficient per link (dimensionless, 0..10;
        /// 0 = none; needs Radius > 0).</summary>
        public float Drag;
        /// <summary>In place (needs PinStart). Rope length (m) a winch at the start reels to;
        /// 0 = the built length.</summary>
        public float Length;
        /// <summary>In place. Winch speed (m/s).</summary>
        public float WinchSpeed;
        /// <summary>In place. Break force of the links (N; 0 = unbreakable).</summary>
        public float BreakForce;
        /// <summary>In place. Self-collision, group, layers, mask (the radius is
        /// <see cref="Radius"/>).</summary>
        public CollisionOptions Collision;

        /// <summary>The library's rope settings these options build.</summary>
        public RopeSettings ToSettings()
        {
            RopeSettings s = RopeSettings.Default;
            // BEGIN GENERATED RopeDesc to settings
            s.Start = Start;
            s.End = End;
            s.Segments = Segments;
            s.TotalMass = MassKg;
            s.Radius = Radius;
            s.StretchCompliance = StretchCompliance;
            s.BendCompliance = BendCompliance;
            s.Tethers = Tethers;
            s.PinStart = PinStart;
            s.PinEnd = PinEnd;
            s.Damping = Damping;
            // END GENERATED RopeDesc to settings
            return s;
        }
    }

    /// <summary>Everything SinewCloth sets on its cloth. Fields marked "rebuild" are read
    /// when the cloth is built; the others are edited in place.</summary>
    public struct ClothOptions
    {
        // BEGIN GENERATED ClothDesc options
        /// <summary>Rebuild. Edge links on every edge, or strain-based triangles.</summary>
        public SinewClothModel Model;
        /// <summary>In place. Edges: compliance of the edges (m/N). Strain: of the warp stretch
        /// (1/(N·m)). In [0, 1e10].</summary>
        public float StretchCompliance;
        /// <summary>In place. Strain model only: compliance of the weft stretch (1/(N·m)). In
        /// [0, 1e10].</summary>
        public float WeftCompliance;
        /// <summary>In place. Edges: compliance of the grid diagonals (m/N; unused for meshes).
        /// Strain: of the shear components (1/(N·m)). In [0, 1e10].</summary>
        public float ShearCompliance;
        /// <summary>Rebuild. Strain model: the warp direction, finite and non-zero (projected
        /// onto each triangle; a grid uses its u edge).</summary>
        public SinewVec3 Warp;
        /// <summary>In place. Compliance of the bending constraints, in the units of the
        /// bending model (distance m/N, dihedral rad/(N·m), isometric 1/(N·m)). In [0,
        /// 1e10].</summary>
        public float BendCompliance;
        /// <summary>Rebuild. Bending model: none, distance links, dihedral angles or
        /// isometric.</summary>
        public SinewBendingModel Bending;
        /// <summary>Rebuild. Tether every free vertex to its nearest pinned vertices.</summary>
        public bool Tethers;
        /// <summary>In place. Extra velocity damping of the cloth's particles. In [0, 1000000]
        /// 1/s.</summary>
        public float Damping;
        // END GENERATED ClothDesc options
        /// <summary>In place. Total mass (kg) over all particles, pinned ones included.</summary>
        public float MassKg;
        /// <summary>In place. Tether compliance (m/N).</summary>
        public float TetherCompliance;
        /// <summary>In place. Aerodynamic drag / lift coefficients per triangle
        /// (dimensionless, 0..10; 0 = none). A cloth with either cannot tear.</summary>
        public float Drag, Lift;
        /// <summary>In place. Tear threshold: stretch ratio above 1 past which an edge tears;
        /// 0 = never. Edges model, no aerodynamics.</summary>
        public float TearThreshold;
        /// <summary>Read at the first non-zero threshold. Spare particles for tearing;
        /// 0 = a quarter of the cloth's particles.</summary>
        public int TearReserve;
        /// <summary>In place. Collision radius and filter of every particle.</summary>
        public CollisionOptions Collision;

        /// <summary>The library's cloth settings these options build.</summary>
        public ClothSettings ToSettings()
        {
            ClothSettings s = ClothSettings.Default;
            // BEGIN GENERATED ClothDesc to settings
            s.Model = Model;
            s.StretchCompliance = StretchCompliance;
            s.WeftCompliance = WeftCompliance;
            s.ShearCompliance = ShearCompliance;
            s.Warp = Warp;
            s.BendCompliance = BendCompliance;
            s.Bending = Bending;
            s.Tethers = Tethers;
            s.Damping = Damping;
            // END GENERATED ClothDesc to settings
            return s;
        }
    }

    /// <summary>Builds and edits the bodies of the authoring components.</summary>
    public static class SinewAuthoring
    {
        /// <summary>v clamped to [lo, hi], NaN to lo: what OnValidate does to a field.</summary>
        public static float Clamp(float v, float lo, float hi)
        {
            return !(v >= lo) ? lo : v > hi ? hi : v;
        }

        /// <summary>The smallest float above x (finite x): where a clamp starts for a
        /// range that excludes x itself (a setting declared "above 0").</summary>
        public static float Above(float x)
        {
            return Step(x, true);
        }

        /// <summary>The largest float below x (finite x): where a clamp ends for a range
        /// that excludes x itself (a setting declared "below 2").</summary>
        public static float Below(float x)
        {
            return Step(x, false);
        }

        static float Step(float x, bool up)
        {
            if (x == 0f)
                return up ? float.Epsilon : -float.Epsilon;
            int bits = System.BitConverter.ToInt32(System.BitConverter.GetBytes(x), 0);
            bits += (x > 0f) == up ? 1 : -1;
            return System.BitConverter.ToSingle(System.BitConverter.GetBytes(bits), 0);
        }

        /// <summary>v clamped to [lo, hi].</summary>
        public static int Clamp(int v, int lo, int hi)
        {
            return v < lo ? lo : v > hi ? hi : v;
        }

        /// <summary>The collision group a body gets when its options leave Group at 0: its
        /// first particle + 1, unique among the world's bodies (particle ranges never
        /// overlap, and a removed body keeps its inert particles).</summary>
        public static uint AutoGroup(Body body)
        {
            return (uint)body.FirstParticle + 1u;
        }

        /// <summary>Sets the collision radius and filter of every particle of the body.</summary>
        public static void ApplyCollision(Body body, CollisionOptions c)
        {
            var radii = new float[body.ParticleCount];
            for (int i = 0; i < radii.Length; i++)
                radii[i] = c.Radius;
            body.World.SetParticleRadii(body.FirstParticle, radii);
            ApplyFilter(body, c);
        }

        /// <summary>Sets the collision filter of every particle of the body (group, layers,
        /// mask, self-collision; not the radius: a rope's comes from the library, which
        /// builds its particles with the rope's radius).</summary>
        public static void ApplyFilter(Body body, CollisionOptions c)
        {
            var filters = new ParticleCollisionFilter[body.ParticleCount];
            ParticleCollisionFilter filter = Filter(body, c);
            for (int i = 0; i < filters.Length; i++)
                filters[i] = filter;
            body.World.SetCollisionFilters(body.FirstParticle, filters);
        }

        /// <summary>The collision filter of <paramref name="c"/> for the particles of
        /// <paramref name="body"/> (its group when <c>c.Group</c> is 0).</summary>
        static ParticleCollisionFilter Filter(Body body, CollisionOptions c)
        {
            return new ParticleCollisionFilter
            {
                Group = c.Group > 0 ? (uint)c.Group : AutoGroup(body),
                Layers = unchecked((uint)c.Layers),
                Mask = unchecked((uint)c.Mask),
                SelfCollision = c.SelfCollision,
            };
        }

        /// <summary><see cref="ApplyCollision"/> for a cloth, including the particles tearing
        /// split off (they live outside the body's range).</summary>
        public static void ApplyClothCollision(Cloth cloth, CollisionOptions c)
        {
            Body body = cloth;
            ApplyCollision(body, c);
            if (body.Kind != SinewBodyKind.Cloth || body.TopologyVersion == 0)
                return; // no split yet
            ClothTopology topology = body.ReadTopology();
            var radius = new[] { c.Radius };
            var filter = new[] { Filter(body, c) };
            int first = body.FirstParticle, end = body.FirstParticle + body.ParticleCount;
            foreach (int p in topology.VertexParticles)
            {
                if (p >= first && p < end)
                    continue;
                body.World.SetParticleRadii(p, radius);
                body.World.SetCollisionFilters(p, filter);
            }
        }

        // ------------------------------------------------------------------ rope

        /// <summary>Builds the rope: the library's rope (its particles collide with the
        /// rope's radius), then the collision filter, tether compliance, drag, a winch at
        /// the start (when pinned) and the break force.</summary>
        public static Rope BuildRope(World world, RopeOptions o)
        {
            Rope rope = world.AddRope(o.ToSettings());
            try
            {
                ApplyFilter(rope, o.Collision);
                if (o.TetherCompliance != 0f && o.Tethers)
                    rope.SetCompliance(SinewBodyConstraints.Tether, o.TetherCompliance);
                if (o.Drag != 0f)
                    rope.SetAerodynamics(o.Drag, 0f);
                if (o.PinStart)
                {
                    float built = rope.RestLength;
                    rope.AddWinch(SinewRopeEnd.Start, o.Length > 0f ? Math.Min(o.Length, built) : built);
                }
                if (o.BreakForce > 0f)
                    rope.SetBreakForce(o.BreakForce);
            }
            catch
            {
                rope.Dispose();
                throw;
            }
            return rope;
        }

        /// <summary>The fields whose change needs the rope built again (empty = none): the
        /// ends are not compared (the pinned ends follow their transforms).</summary>
        public static string RopeRebuildReason(RopeOptions built, RopeOptions wanted)
        {
            // BEGIN GENERATED RopeDesc rebuild reason
            if (built.Segments != wanted.Segments) return "Segments";
            if (built.Radius != wanted.Radius) return "Radius";
            if (built.Tethers != wanted.Tethers) return "Tethers";
            if (built.PinStart != wanted.PinStart) return "Pin Start";
            if (built.PinEnd != wanted.PinEnd) return "Pin End";
            // END GENERATED RopeDesc rebuild reason
            return "";
        }

        /// <summary>Pushes every in-place option that differs from <paramref name="applied"/>
        /// into the rope, recording each in <paramref name="applied"/> as it succeeds (an
        /// option the library refuses throws SinewException and stays unapplied).</summary>
        public static void EditRope(Rope rope, ref RopeOptions applied, RopeOptions wanted)
        {
            Body body = rope;
            if (wanted.StretchCompliance != applied.StretchCompliance)
            {
                rope.SetCompliance(SinewBodyConstraints.Stretch, wanted.StretchCompliance);
                applied.StretchCompliance = wanted.StretchCompliance;
            }
            if (wanted.BendCompliance != applied.BendCompliance)
            {
                rope.SetCompliance(SinewBodyConstraints.Bend, wanted.BendCompliance);
                applied.BendCompliance = wanted.BendCompliance;
            }
            if (wanted.TetherCompliance != applied.TetherCompliance)
            {
                if (applied.Tethers)
                    rope.SetCompliance(SinewBodyConstraints.Tether, wanted.TetherCompliance);
                applied.TetherCompliance = wanted.TetherCompliance;
            }
            if (wanted.Damping != applied.Damping)
            {
                body.Damping = wanted.Damping;
                applied.Damping = wanted.Damping;
            }
            if (wanted.MassKg != applied.MassKg)
            {
                int n = rope.ParticleCount;
                int pinned = (applied.PinStart ? 1 : 0) + (applied.PinEnd ? 1 : 0);
                if (n > pinned) // a rope pinned at every particle has no mass to set
                    body.SetMass(wanted.MassKg * (n - pinned) / n);
                applied.MassKg = wanted.MassKg;
            }
            if (wanted.Drag != applied.Drag)
            {
                body.SetAerodynamics(wanted.Drag, 0f);
                applied.Drag = wanted.Drag;
            }
            if (applied.PinStart && (wanted.Length != applied.Length || wanted.WinchSpeed != applied.WinchSpeed))
            {
                // The winch pays out at most the built length.
                if (wanted.WinchSpeed > 0f)
                    body.SetWinchTarget(wanted.Length > 0f ? Math.Min(wanted.Length, rope.RestLength) : rope.RestLength,
                                        wanted.WinchSpeed);
                else
                    body.SetWinchSpeed(0f);
                applied.Length = wanted.Length;
                applied.WinchSpeed = wanted.WinchSpeed;
            }
            if (wanted.BreakForce != applied.BreakForce)
            {
                body.SetBreakForce(wanted.BreakForce > 0f ? wanted.BreakForce : float.PositiveInfinity);
                applied.BreakForce = wanted.BreakForce;
            }
            if (!wanted.Collision.Same(applied.Collision))
            {
                // The radius is the rope's own (a rebuild field the library applies).
                ApplyFilter(body, wanted.Collision);
                applied.Collision = wanted.Collision;
            }
        }

        // ----------------------------------------------------------------- cloth

        /// <summary>Builds the cloth from world-space vertices and triangles with the given
        /// vertices pinned (may be null), then the collision radius and filter, tether
        /// compliance, aerodynamics and tearing.</summary>
        public static Cloth BuildCloth<T>(World world, T[] vertices, int[] triangles, int[] pinnedVertices,
                                          ClothOptions o) where T : struct
        {
            Cloth cloth = world.AddClothMesh(o.ToSettings(), vertices, triangles, o.MassKg, pinnedVertices);
            try
            {
                ApplyCollision(cloth, o.Collision);
                if (o.TetherCompliance != 0f && o.Tethers)
                    cloth.SetCompliance(SinewBodyConstraints.Tether, o.TetherCompliance);
                if (o.Drag != 0f || o.Lift != 0f)
                    cloth.SetAerodynamics(o.Drag, o.Lift);
                if (o.TearThreshold > 0f)
                    cloth.SetTearThreshold(o.TearThreshold, o.TearReserve);
            }
            catch
            {
                cloth.Dispose();
                throw;
            }
            return cloth;
        }

        /// <summary>The field whose change needs the cloth built again (empty = none).
        /// Pins are compared by the component.</summary>
        public static string ClothRebuildReason(ClothOptions built, ClothOptions wanted)
        {
            if (built.Model != wanted.Model) return "Model";
            if (built.Bending != wanted.Bending) return "Bending";
            if (built.Tethers != wanted.Tethers) return "Tethers";
            if (wanted.Model == SinewClothModel.Strain)
            {
                if (built.Warp.x != wanted.Warp.x || built.Warp.y != wanted.Warp.y || built.Warp.z != wanted.Warp.z)
                    return "Warp";
                bool stretchEdited = built.StretchCompliance != wanted.StretchCompliance ||
                                     built.WeftCompliance != wanted.WeftCompliance;
                if (stretchEdited && wanted.WeftCompliance != wanted.StretchCompliance)
                    return "Weft Compliance (edited in place only when equal to Stretch Compliance)";
            }
            if (built.TearThreshold > 0f && built.TearReserve != wanted.TearReserve)
                return "Tear Reserve";
            return "";
        }

        /// <summary>Pushes every in-place option that differs from <paramref name="applied"/>
        /// into the cloth (see <see cref="EditRope"/>). <paramref name="pinnedCount"/>: the
        /// distinct pinned vertices, for the mass of the free ones.</summary>
        public static void EditCloth(Cloth cloth, ref ClothOptions applied, ClothOptions wanted, int pinnedCount)
        {
            Body body = cloth;
            bool strain = applied.Model == SinewClothModel.Strain;
            if (wanted.StretchCompliance != applied.StretchCompliance ||
                (strain && wanted.WeftCompliance != applied.WeftCompliance))
            {
                // Strain model: the library's stretch group is warp and weft together.
                if (!strain || wanted.WeftCompliance == wanted.StretchCompliance)
                {
                    cloth.SetCompliance(SinewBodyConstraints.Stretch, wanted.StretchCompliance);
                    applied.StretchCompliance = wanted.StretchCompliance;
                    applied.WeftCompliance = wanted.WeftCompliance;
                }
            }
            if (wanted.ShearCompliance != applied.ShearCompliance)
            {
                cloth.SetCompliance(SinewBodyConstraints.Shear, wanted.ShearCompliance);
                applied.ShearCompliance = wanted.ShearCompliance;
            }
            if (wanted.BendCompliance != applied.BendCompliance)
            {
                cloth.SetCompliance(SinewBodyConstraints.Bend, wanted.BendCompliance);
                applied.BendCompliance = wanted.BendCompliance;
            }
            if (wanted.TetherCompliance != applied.TetherCompliance)
            {
                if (applied.Tethers && pinnedCount > 0)
                    cloth.SetCompliance(SinewBodyConstraints.Tether, wanted.TetherCompliance);
                applied.TetherCompliance = wanted.TetherCompliance;
            }
            if (wanted.Damping != applied.Damping)
            {
                body.Damping = wanted.Damping;
                applied.Damping = wanted.Damping;
            }
            if (wanted.MassKg != applied.MassKg)
            {
                int n = cloth.ParticleCount;
                if (n > pinnedCount)
                    body.SetMass(wanted.MassKg * (n - pinnedCount) / n);
                applied.MassKg = wanted.MassKg;
            }
            if (wanted.Drag != applied.Drag || wanted.Lift != applied.Lift)
            {
                body.SetAerodynamics(wanted.Drag, wanted.Lift);
                applied.Drag = wanted.Drag;
                applied.Lift = wanted.Lift;
            }
            if (wanted.TearThreshold != applied.TearThreshold)
            {
                if (applied.TearThreshold == 0f)
                    cloth.SetTearThreshold(wanted.TearThreshold, wanted.TearReserve);
                else
                    cloth.SetTearThreshold(wanted.TearThreshold);
                applied.TearThreshold = wanted.TearThreshold;
                applied.TearReserve = wanted.TearReserve;
            }
            if (!wanted.Collision.Same(applied.Collision))
            {
                ApplyClothCollision(cloth, wanted.Collision);
                applied.Collision = wanted.Collision;
            }
        }
    }
}

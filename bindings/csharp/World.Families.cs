// Sinew.World: constraint families beyond distance. Index arrays are flat int arrays of
// particle indices (two per tether, four per hinge or tet, three per triangle); each
// Add returns the id of the first new constraint (ids of a family are consecutive and
// never shift); compliances in the units each method names; forces are read back per
// family with ReadFamilyForces.

using Sinew.Native;

namespace Sinew
{
    public sealed partial class World
    {
        /// <summary>Adds tethers (long-range attachments, Kim et al. 2012): pairs (anchor,
        /// particle); each particle may be at most maxLengths[j] m from its anchor (null =
        /// the current distances). Unilateral: only a stretched tether acts. Compliance α in
        /// m/N (0 = rigid). Force readback: <see cref="SinewFamily.Tether"/>, N.</summary>
        public unsafe int AddTethers(int[] anchorParticlePairs, float[] maxLengths, float compliance)
        {
            return AddValued(addTethers, anchorParticlePairs, 2, maxLengths, compliance, "World.AddTethers",
                "anchorParticlePairs", "maxLengths");
        }

        /// <summary>Adds dihedral bending constraints (Müller et al. 2007): four indices per
        /// hinge, the shared edge (e0, e1), then the wing of each triangle (w0 of e0-e1-w0, w1
        /// of e1-e0-w1). Rest angles in rad in [-π, π] (null = the current angles; 0 = flat).
        /// Compliance in rad/(N·m).</summary>
        public unsafe int AddDihedralBending(int[] hinges, float[] restAngles, float compliance)
        {
            return AddValued(addDihedralBending, hinges, 4, restAngles, compliance, "World.AddDihedralBending",
                "hinges", "restAngles");
        }

        /// <summary>Adds isometric bending constraints (Bergou et al. 2006) over hinges laid out
        /// as in <see cref="AddDihedralBending"/>; the rest shape is the current one and should
        /// be (near) flat. Compliance in 1/(N·m).</summary>
        public unsafe int AddIsometricBending(int[] hinges, float compliance)
        {
            return AddElements(hinges, 4, null, "World.AddIsometricBending", "hinges", null,
                (p, r, n, id) => SinewNative.sinew_world_add_isometric_bending(Handle, p, n, compliance, id));
        }

        /// <summary>Adds tetrahedron volume constraints, C = V/V0 − 1: four indices per tet of
        /// positive volume (1, 2, 3 counter-clockwise seen from 0). Rest volumes in m³ (null =
        /// current). Compliance in 1/(N·m).</summary>
        public unsafe int AddTetVolumes(int[] tets, float[] restVolumes, float compliance)
        {
            return AddValued(addTetVolumeConstraints, tets, 4, restVolumes, compliance, "World.AddTetVolumes",
                "tets", "restVolumes");
        }

        /// <summary>Adds one closed-surface volume constraint over triangles (three indices
        /// each, closed, counter-clockwise seen from outside) keeping the enclosed volume at
        /// <paramref name="pressure"/> (overpressure factor, (0, 100]) × its current volume.
        /// Compliance in m⁵/N. Returns its id (<see cref="PressureVolume"/>).</summary>
        public unsafe int AddPressureVolume(int[] triangles, float pressure, float compliance)
        {
            return AddElements(triangles, 3, null, "World.AddPressureVolume", "triangles", null,
                (p, r, n, id) => SinewNative.sinew_world_add_pressure_volume(Handle, p, n, pressure, compliance, id));
        }

        /// <summary>The current enclosed volume (m³) of pressure constraint <paramref name="id"/>.</summary>
        public unsafe float PressureVolume(int id)
        {
            float v;
            return SinewException.Checked(SinewNative.sinew_world_pressure_volume(Handle, unchecked((uint)id), &v), v);
        }

        /// <summary>Adds strain-based triangle constraints (Müller et al. 2014), three per
        /// triangle: ids first + 3j + (0: stretch along the rest edge 0→1, 1: stretch across
        /// it, 2: shear); compliances in 1/(N·m).</summary>
        public unsafe int AddTriangleStrain(int[] triangles, float complianceXX, float complianceYY, float complianceShear)
        {
            return AddElements(triangles, 3, null, "World.AddTriangleStrain", "triangles", null,
                (p, r, n, id) => SinewNative.sinew_world_add_triangle_strain(Handle, p, n, complianceXX, complianceYY, complianceShear, id));
        }

        /// <summary>Adds strain-based tet constraints, six per tet: ids first + 6j + (0, 1, 2:
        /// stretch along the rest shape's x, y, z; 3, 4, 5: shear xy, xz, yz); compliances in
        /// 1/(N·m).</summary>
        public unsafe int AddTetStrain(int[] tets, float complianceXX, float complianceYY, float complianceZZ, float complianceShear)
        {
            return AddElements(tets, 4, null, "World.AddTetStrain", "tets", null,
                (p, r, n, id) => SinewNative.sinew_world_add_tet_strain(Handle, p, n, complianceXX, complianceYY, complianceZZ, complianceShear, id));
        }

        /// <summary>Adds unilateral area constraints (air mesh, 2D): each triangle's signed XY
        /// area stays >= minAreas[j] (m²; null = 0), acting only when violated. Compliance in
        /// m³/N.</summary>
        public unsafe int AddUnilateralAreas(int[] triangles, float[] minAreas, float compliance)
        {
            return AddValued(addUnilateralAreas, triangles, 3, minAreas, compliance, "World.AddUnilateralAreas",
                "triangles", "minAreas");
        }

        /// <summary>Adds unilateral volume constraints (air mesh, 3D): each tet's signed volume
        /// stays >= minVolumes[j] (m³; null = 0), acting only when violated. Compliance in
        /// m⁵/N.</summary>
        public unsafe int AddUnilateralVolumes(int[] tets, float[] minVolumes, float compliance)
        {
            return AddValued(addUnilateralVolumes, tets, 4, minVolumes, compliance, "World.AddUnilateralVolumes",
                "tets", "minVolumes");
        }

        /// <summary>Makes the world 2D (all motion in the plane z = <paramref name="z"/> (m);
        /// particles are moved onto it now and their z velocity is zeroed every substep) or 3D
        /// again.</summary>
        public void SetPlanar(bool enabled, float z)
        {
            SinewException.Check(SinewNative.sinew_world_set_planar(Handle, enabled ? 1u : 0u, z));
        }

        /// <summary>Adds a closed ring of at least 3 particles (counter-clockwise seen from +z)
        /// whose enclosed XY area is kept at <paramref name="pressure"/> ((0, 100]) × its current
        /// area; compliance in m³/N. Returns its id (<see cref="RingArea"/>).</summary>
        public unsafe int AddRingArea(int[] particles, float pressure, float compliance)
        {
            return AddElements(particles, 1, null, "World.AddRingArea", "particles", null,
                (p, r, n, id) => SinewNative.sinew_world_add_ring_area(Handle, p, n, pressure, compliance, id));
        }

        /// <summary>The current enclosed area (m²) of ring <paramref name="id"/>.</summary>
        public unsafe float RingArea(int id)
        {
            float a;
            return SinewException.Checked(SinewNative.sinew_world_ring_area(Handle, unchecked((uint)id), &a), a);
        }

        /// <summary>Adds a shape-matching cluster (Müller 2005) over at least 2 particles, rest
        /// shape = their current positions; <paramref name="stiffness"/> in [0, 1] per substep
        /// (iteration-count corrected). Plastic when the mean distance from the goals exceeds
        /// <paramref name="yieldDistance"/> (m; +∞ = elastic), the rest shape then creeping by
        /// <paramref name="creep"/> in [0, 1] per substep. Returns its id.</summary>
        public unsafe int AddShapeCluster(int[] particles, float stiffness, float yieldDistance = float.PositiveInfinity,
                                          float creep = 0f)
        {
            return AddElements(particles, 1, null, "World.AddShapeCluster", "particles", null,
                (p, r, n, id) => SinewNative.sinew_world_add_shape_cluster(Handle, p, n, stiffness, yieldDistance, creep, id));
        }

        /// <summary>Sets the stiffness (in [0, 1]) of shape-matching cluster <paramref name="id"/>.</summary>
        public void SetShapeClusterStiffness(int id, float stiffness)
        {
            SinewException.Check(SinewNative.sinew_world_set_shape_cluster_stiffness(Handle, unchecked((uint)id), stiffness));
        }

        /// <summary>Number of constraints of <paramref name="family"/> (ids never shift:
        /// constraints of removed bodies included).</summary>
        public unsafe int FamilyConstraintCount(SinewFamily family)
        {
            uint n;
            return (int)SinewException.Checked(SinewNative.sinew_world_family_constraint_count(Handle, (uint)family, &n), n);
        }

        /// <summary>Copies |λ|/h² of constraints first..first+destination.Length of
        /// <paramref name="family"/> in the last substep (units per <see cref="SinewFamily"/>:
        /// N for tethers, Pa for pressure, ...; 0 before the first step).</summary>
        public unsafe void ReadFamilyForces(SinewFamily family, int first, float[] destination)
        {
            Args.NotNull(destination, "World.ReadFamilyForces", "destination");
            using (var p = new Pin(destination))
                SinewException.Check(SinewNative.sinew_world_read_family_forces(Handle, (uint)family, unchecked((uint)first),
                    (uint)destination.Length, (float*)p.Ptr));
        }

        // The builders of one value per element and one compliance (see ValuedCall).
        static readonly unsafe ValuedCall addTethers = SinewNative.sinew_world_add_tethers;
        static readonly unsafe ValuedCall addDihedralBending = SinewNative.sinew_world_add_dihedral_bending;
        static readonly unsafe ValuedCall addTetVolumeConstraints = SinewNative.sinew_world_add_tet_volume_constraints;
        static readonly unsafe ValuedCall addUnilateralAreas = SinewNative.sinew_world_add_unilateral_areas;
        static readonly unsafe ValuedCall addUnilateralVolumes = SinewNative.sinew_world_add_unilateral_volumes;

        /// <summary>A family with one value per element (rest lengths, angles, volumes; null =
        /// the library's default) and one compliance.</summary>
        unsafe int AddValued(ValuedCall call, int[] indices, int per, float[] values, float compliance,
                             string function, string name, string valuesName)
        {
            return AddElements(indices, per, values, function, name, valuesName,
                (p, r, n, id) => call(Handle, p, r, n, compliance, id));
        }

        /// <summary>A family's builder with its parameters bound: flat indices, per-element
        /// values (null = the builder's default), the element count, the first new id.</summary>
        unsafe delegate int ElementsCall(uint* indices, float* values, uint count, uint* id);

        /// <summary>Checks a flat index array of <paramref name="per"/> indices per element and
        /// an optional per-element value array, pins both and calls the builder; returns the
        /// id it wrote.</summary>
        unsafe int AddElements(int[] indices, int per, float[] values, string function, string name,
                               string valuesName, ElementsCall call)
        {
            CheckElements(indices, per, function, name);
            int n = indices.Length / per;
            if (values != null && values.Length != n)
                throw SinewException.Argument(function, valuesName + " has " + values.Length + " elements for " + n +
                    " constraints");
            uint id;
            using (var p = new Pin(indices))
            using (var r = new Pin(values))
                return (int)SinewException.Checked(call((uint*)p.Ptr, (float*)r.Ptr, (uint)n, &id), id);
        }
    }
}

// Raw layer: constraint families beyond distance (src/ffi/families.rs): tethers,
// dihedral / isometric bending, tet volume, pressure, strain, unilateral area / volume,
// the 2D planar flag, ring area and shape matching. Index arrays are uint32 particle
// indices; ids of a family are consecutive per call; compliances in the units each
// function names.

using System.Runtime.InteropServices;

namespace Sinew.Native
{
    /// <summary>Values of the <c>family</c> argument (C: <c>SinewFamily</c>, crosses as uint32_t).</summary>
    public enum SinewFamily : uint
    {
        /// <summary>Tethers; force in N.</summary>
        Tether = 0,
        /// <summary>Dihedral bending; torque in N·m.</summary>
        DihedralBending = 1,
        /// <summary>Isometric bending; |λ|/h² in N·m.</summary>
        IsometricBending = 2,
        /// <summary>Tet volume; |λ|/h² in N·m.</summary>
        TetVolume = 3,
        /// <summary>Closed-surface volume; pressure in Pa.</summary>
        PressureVolume = 4,
        /// <summary>Triangle strain components; |λ|/h² in N·m.</summary>
        TriangleStrain = 5,
        /// <summary>Tet strain components; |λ|/h² in N·m.</summary>
        TetStrain = 6,
        /// <summary>Unilateral XY area; N/m.</summary>
        UnilateralArea = 7,
        /// <summary>Unilateral tet volume; Pa.</summary>
        UnilateralVolume = 8,
        /// <summary>Ring area (2D); N/m.</summary>
        RingArea = 9,
    }

    public static unsafe partial class SinewNative
    {
        /// <summary>Adds <c>count</c> tethers (long-range attachments, Kim et al. 2012):
        /// <c>particle_pairs</c> = (anchor0, particle0, anchor1, particle1, ...); each particle may
        /// be at most <c>max_lengths[j]</c> m from its anchor (NULL = the current distances).
        /// Unilateral: only a stretched tether acts. <c>compliance</c> α in m/N (0 = rigid).
        /// <c>*out_first</c> receives the id of the first new tether.</summary>
        [DllImport(Lib, CallingConvention = CallingConvention.Cdecl)]
        public static extern int sinew_world_add_tethers(SinewWorld world, uint* particle_pairs, float* max_lengths, uint count, float compliance, uint* out_first);

        /// <summary>Adds <c>count</c> dihedral bending constraints (Müller et al. 2007).
        /// <c>hinges</c> holds 4 indices per hinge: the shared edge (e0, e1), then the wing of each
        /// triangle (w0 of triangle e0-e1-w0, w1 of triangle e1-e0-w1). <c>rest_angles</c> in rad,
        /// in [-pi, pi] (NULL = the current angles; 0 = flat). <c>compliance</c> in
        /// rad/(N·m).</summary>
        [DllImport(Lib, CallingConvention = CallingConvention.Cdecl)]
        public static extern int sinew_world_add_dihedral_bending(SinewWorld world, uint* hinges, float* rest_angles, uint count, float compliance, uint* out_first);

        /// <summary>Adds <c>count</c> isometric bending constraints (Bergou et al. 2006) over
        /// hinges laid out as in sinew_world_add_dihedral_bending; the rest shape is the current
        /// one and should be (near) flat. <c>compliance</c> in 1/(N·m).</summary>
        [DllImport(Lib, CallingConvention = CallingConvention.Cdecl)]
        public static extern int sinew_world_add_isometric_bending(SinewWorld world, uint* hinges, uint count, float compliance, uint* out_first);

        /// <summary>Adds <c>count</c> tetrahedron volume constraints, C = V/V0 - 1. <c>tets</c>
        /// holds 4 indices per tet with positive volume (vertices 1, 2, 3 counter-clockwise seen
        /// from vertex 0); inverted or flat tets are refused. <c>rest_volumes</c> in m³ (NULL =
        /// current). <c>compliance</c> in 1/(N·m).</summary>
        [DllImport(Lib, CallingConvention = CallingConvention.Cdecl)]
        public static extern int sinew_world_add_tet_volume_constraints(SinewWorld world, uint* tets, float* rest_volumes, uint count, float compliance, uint* out_first);

        /// <summary>Adds one closed-surface volume constraint over <c>triangle_count</c> triangles
        /// (3 indices each, closed, wound counter-clockwise seen from outside): the enclosed volume
        /// is kept at <c>pressure</c> (overpressure factor, in (0, 100]) times its current volume.
        /// <c>compliance</c> in m⁵/N. <c>*out_id</c> receives its id.</summary>
        [DllImport(Lib, CallingConvention = CallingConvention.Cdecl)]
        public static extern int sinew_world_add_pressure_volume(SinewWorld world, uint* triangles, uint triangle_count, float pressure, float compliance, uint* out_id);

        /// <summary>Writes the number of constraints of <c>family</c> (a SinewFamily; removed ones
        /// included: ids never shift) to <c>*out_count</c>.</summary>
        [DllImport(Lib, CallingConvention = CallingConvention.Cdecl)]
        public static extern int sinew_world_family_constraint_count(SinewWorld world, uint family, uint* out_count);

        /// <summary>Writes |λ|/h² of constraints <c>first..first+count</c> of <c>family</c> in the
        /// last substep of the last step (units per SinewFamily; 0 before the first step) to
        /// <c>out</c>.</summary>
        [DllImport(Lib, CallingConvention = CallingConvention.Cdecl)]
        public static extern int sinew_world_read_family_forces(SinewWorld world, uint family, uint first, uint count, float* @out);

        /// <summary>Writes the current enclosed volume (m³) of pressure constraint <c>id</c> to
        /// <c>*out_volume</c>.</summary>
        [DllImport(Lib, CallingConvention = CallingConvention.Cdecl)]
        public static extern int sinew_world_pressure_volume(SinewWorld world, uint id, float* out_volume);

        /// <summary>Adds strain-based triangle constraints (Müller et al. 2014): 3 per triangle,
        /// ids <c>first + 3j + (0: stretch along the rest edge 0→1, 1: stretch across it, 2:
        /// shear)</c>; compliances in 1/(N·m) (C = stretch ratio − 1, or the cosine of the axes'
        /// angle).</summary>
        [DllImport(Lib, CallingConvention = CallingConvention.Cdecl)]
        public static extern int sinew_world_add_triangle_strain(SinewWorld world, uint* triangles, uint count, float compliance_xx, float compliance_yy, float compliance_shear, uint* out_first);

        /// <summary>Adds strain-based tet constraints: 6 per tet, ids <c>first + 6j + (0, 1, 2:
        /// stretch along the rest shape's world x, y, z; 3, 4, 5: shear xy, xz, yz)</c>;
        /// compliances in 1/(N·m). Tets must have positive volume.</summary>
        [DllImport(Lib, CallingConvention = CallingConvention.Cdecl)]
        public static extern int sinew_world_add_tet_strain(SinewWorld world, uint* tets, uint count, float compliance_xx, float compliance_yy, float compliance_zz, float compliance_shear, uint* out_first);

        /// <summary>Adds unilateral area constraints (air mesh, 2D worlds): each triangle's signed
        /// area in the XY plane stays &gt;= <c>min_areas[j]</c> (m²; NULL = 0); they act only when
        /// violated. Compliance in m³/N.</summary>
        [DllImport(Lib, CallingConvention = CallingConvention.Cdecl)]
        public static extern int sinew_world_add_unilateral_areas(SinewWorld world, uint* triangles, float* min_areas, uint count, float compliance, uint* out_first);

        /// <summary>Adds unilateral volume constraints (air mesh, 3D): each tet's signed volume
        /// stays at least <c>min_volumes[j]</c> (m³; NULL = 0); they act only when violated.
        /// Compliance in m⁵/N.</summary>
        [DllImport(Lib, CallingConvention = CallingConvention.Cdecl)]
        public static extern int sinew_world_add_unilateral_volumes(SinewWorld world, uint* tets, float* min_volumes, uint count, float compliance, uint* out_first);

        /// <summary>Makes the world 2D (<c>enabled</c> = 1: all motion in the plane z = <c>z</c>
        /// (m); particles are moved onto it now and their z velocity is zeroed every substep) or 3D
        /// again (0).</summary>
        [DllImport(Lib, CallingConvention = CallingConvention.Cdecl)]
        public static extern int sinew_world_set_planar(SinewWorld world, uint enabled, float z);

        /// <summary>Adds a closed ring of <c>count</c> &gt;= 3 particles (counter-clockwise seen
        /// from +z) whose enclosed XY area is kept at <c>pressure</c> (in (0, 100]) times its
        /// current area; compliance in m³/N. <c>*out_id</c> receives its id.</summary>
        [DllImport(Lib, CallingConvention = CallingConvention.Cdecl)]
        public static extern int sinew_world_add_ring_area(SinewWorld world, uint* particles, uint count, float pressure, float compliance, uint* out_id);

        /// <summary>Writes the current enclosed area (m²) of ring <c>id</c> to
        /// <c>*out_area</c>.</summary>
        [DllImport(Lib, CallingConvention = CallingConvention.Cdecl)]
        public static extern int sinew_world_ring_area(SinewWorld world, uint id, float* out_area);

        /// <summary>Adds a shape-matching cluster (Müller 2005) over <c>count</c> &gt;= 2
        /// particles, rest shape = their current positions. <c>stiffness</c> in [0, 1] per substep
        /// (PBD, iteration-count corrected); plastic when the mean distance from the goals exceeds
        /// <c>yield_distance</c> (m; INFINITY = elastic), the rest shape then creeping by
        /// <c>creep</c> in [0, 1] per substep. <c>*out_id</c> receives its id.</summary>
        [DllImport(Lib, CallingConvention = CallingConvention.Cdecl)]
        public static extern int sinew_world_add_shape_cluster(SinewWorld world, uint* particles, uint count, float stiffness, float yield_distance, float creep, uint* out_id);

        /// <summary>Sets the stiffness (in [0, 1]) of shape-matching cluster <c>id</c>.</summary>
        [DllImport(Lib, CallingConvention = CallingConvention.Cdecl)]
        public static extern int sinew_world_set_shape_cluster_stiffness(SinewWorld world, uint id, float stiffness);
    }
}

// Raw layer: bodies (src/ffi/bodies.rs): ropes, cloth (mesh or grid), tet and pressure
// soft bodies built from a desc, each a SinewBody handle valid in the world that made it.
//
// The sinew_*_desc_default() functions return structs larger than a handle by value and
// are deliberately not declared (see SinewNative.World.cs); the sinew_*_desc_init(out)
// twins fill the same defaults through a pointer. Always start a desc from them: a desc
// not made by them is refused (internal_cookie).

using System.Runtime.InteropServices;

namespace Sinew.Native
{
    /// <summary>Values of <c>SinewClothDesc.bending</c> (C: <c>SinewBendingModel</c>, uint32_t).</summary>
    public enum SinewBendingModel : uint
    {
        /// <summary>No bending constraints.</summary>
        BendingNone = 0,
        /// <summary>A link between the wings of each interior edge (m/N).</summary>
        BendingDistance = 1,
        /// <summary>Dihedral angle, rad/(N·m) (default).</summary>
        BendingDihedral = 2,
        /// <summary>Isometric (Bergou 2006), 1/(N·m); for cloth flat at rest.</summary>
        BendingIsometric = 3,
    }

    /// <summary>Values of the <c>which</c> argument of sinew_body_set_compliance
    /// (C: <c>SinewBodyConstraints</c>, uint32_t).</summary>
    public enum SinewBodyConstraints : uint
    {
        /// <summary>Edges: rope links, cloth and soft-body edges (m/N).</summary>
        BodyStretch = 0,
        /// <summary>Cloth grid diagonals (m/N).</summary>
        BodyShear = 1,
        /// <summary>Bending (units of the model).</summary>
        BodyBend = 2,
        /// <summary>Tethers (m/N).</summary>
        BodyTether = 3,
        /// <summary>Tet volumes (1/(N·m)) or the pressure surface (m⁵/N).</summary>
        BodyVolume = 4,
    }

    /// <summary>Values of <c>SinewTetBodyDesc.model</c> (C: <c>SinewTetModel</c>, uint32_t).</summary>
    public enum SinewTetModel : uint
    {
        /// <summary>A link on every tet edge plus a volume constraint per tet (default).</summary>
        TetEdgesAndVolume = 0,
        /// <summary>Strain-based: stretch x, y, z and shear per tet, plus volume.</summary>
        TetStrain = 1,
    }

    /// <summary>Values of <c>SinewBodyInfo.kind</c> (C: <c>SinewBodyKind</c>, uint32_t).</summary>
    public enum SinewBodyKind : uint
    {
        BodyRope = 0,
        BodyCloth = 1,
        BodyTetSoftBody = 2,
        BodyPressureSoftBody = 3,
    }

    /// <summary>Values of <c>SinewClothDesc.model</c> (C: <c>SinewClothModel</c>, uint32_t).</summary>
    public enum SinewClothModel : uint
    {
        /// <summary>A link on every edge; grid diagonals are shear links (default).</summary>
        ClothEdges = 0,
        /// <summary>Strain-based: warp stretch, weft stretch and shear per triangle.</summary>
        ClothStrain = 1,
    }

    /// <summary>How to build a rope. Start from <c>sinew_rope_desc_init</c>.</summary>
    [StructLayout(LayoutKind.Sequential)]
    public struct SinewRopeDesc
    {
        /// <summary>First end (m), default (0, 0, 0). Ignored by the polyline variant.</summary>
        public SinewVec3 start;
        /// <summary>Second end (m), default (1, 0, 0). Ignored by the polyline variant.</summary>
        public SinewVec3 end;
        /// <summary>Segments between start and end, default 20. Ignored by the polyline variant.</summary>
        public uint segments;
        /// <summary>Total mass (kg), spread evenly over the particles, default 1.</summary>
        public float total_mass;
        /// <summary>Radius (m) for rendering and collision, &gt;= 0, default 0.01.</summary>
        public float radius;
        /// <summary>Compliance of the links (m/N), default 0 (inextensible).</summary>
        public float stretch_compliance;
        /// <summary>Compliance of the (i, i+2) bend links (m/N), default 0.01.</summary>
        public float bend_compliance;
        /// <summary>1 = tethers from each pinned end to every particle (default), 0 = none.</summary>
        public uint tethers;
        /// <summary>1 = pin the first particle (default), 0 = free.</summary>
        public uint pin_start;
        /// <summary>1 = pin the last particle, 0 = free (default).</summary>
        public uint pin_end;
        /// <summary>Extra velocity damping of the rope (1/s), default 0.</summary>
        public float damping;
        /// <summary>Set by sinew_rope_desc_init; a desc not made by it is refused.</summary>
        public uint internal_cookie;
    }

    /// <summary>The material of a cloth (mesh or grid). Start from <c>sinew_cloth_desc_init</c>.</summary>
    [StructLayout(LayoutKind.Sequential)]
    public struct SinewClothDesc
    {
        /// <summary>A SinewClothModel, default ClothEdges.</summary>
        public uint model;
        /// <summary>Edges: compliance of the edges (m/N). Strain: of the warp stretch (1/(N·m)). Default 0.</summary>
        public float stretch_compliance;
        /// <summary>Strain model only: compliance of the weft stretch (1/(N·m)), default 0.</summary>
        public float weft_compliance;
        /// <summary>Edges: compliance of the grid diagonals (m/N; unused for meshes). Strain: of
        /// the shear components (1/(N·m)). Default 1e-4.</summary>
        public float shear_compliance;
        /// <summary>Strain model: the warp direction (a grid uses its u edge), default (1, 0, 0).</summary>
        public SinewVec3 warp;
        /// <summary>Compliance of the bending constraints (units of the model), default 1.</summary>
        public float bend_compliance;
        /// <summary>A SinewBendingModel, default BendingDihedral.</summary>
        public uint bending;
        /// <summary>1 = tether free vertices to the nearest pinned ones (default), 0 = none.</summary>
        public uint tethers;
        /// <summary>Extra velocity damping (1/s), default 0.</summary>
        public float damping;
        /// <summary>Set by sinew_cloth_desc_init; a desc not made by it is refused.</summary>
        public uint internal_cookie;
    }

    /// <summary>A rectangular cloth grid: vertex (i, j) at origin + u*i/segments_u +
    /// v*j/segments_v, index j*(segments_u+1) + i. Start from <c>sinew_cloth_grid_desc_init</c>.</summary>
    [StructLayout(LayoutKind.Sequential)]
    public struct SinewClothGridDesc
    {
        /// <summary>m, default (0, 0, 0).</summary>
        public SinewVec3 origin;
        /// <summary>Full width edge (m), default (1, 0, 0).</summary>
        public SinewVec3 u;
        /// <summary>Full height edge (m), default (0, 0, 1).</summary>
        public SinewVec3 v;
        /// <summary>Cells along u, 1..=4096, default 20.</summary>
        public uint segments_u;
        /// <summary>Cells along v, 1..=4096, default 20.</summary>
        public uint segments_v;
        /// <summary>Total mass (kg), default 1.</summary>
        public float total_mass;
        /// <summary>Pinned corners: 1 = (0,0), 2 = (u,0), 4 = (0,v), 8 = (u,v); default 0.</summary>
        public uint pin_corners;
        /// <summary>Set by sinew_cloth_grid_desc_init; a desc not made by it is refused.</summary>
        public uint internal_cookie;
    }

    /// <summary>A tetrahedral soft body. Start from <c>sinew_tet_body_desc_init</c>.</summary>
    [StructLayout(LayoutKind.Sequential)]
    public struct SinewTetBodyDesc
    {
        /// <summary>Total mass (kg), lumped by tet volume when no inverse masses are given; default 1.</summary>
        public float total_mass;
        /// <summary>A SinewTetModel, default TetEdgesAndVolume.</summary>
        public uint model;
        /// <summary>Edges model: compliance of the tet edges (m/N). Strain model: of the stretch
        /// components (1/(N·m)). Default 1e-4.</summary>
        public float stretch_compliance;
        /// <summary>Strain model only: compliance of the shear components (1/(N·m)), default 1e-4.</summary>
        public float shear_compliance;
        /// <summary>Compliance of the tet volumes (1/(N·m)), default 0.</summary>
        public float volume_compliance;
        /// <summary>Extra velocity damping (1/s), default 0.</summary>
        public float damping;
        /// <summary>Set by sinew_tet_body_desc_init; a desc not made by it is refused.</summary>
        public uint internal_cookie;
    }

    /// <summary>A closed-surface (pressure) soft body. Start from <c>sinew_pressure_body_desc_init</c>.</summary>
    [StructLayout(LayoutKind.Sequential)]
    public struct SinewPressureBodyDesc
    {
        /// <summary>Total mass (kg), lumped by triangle area when no inverse masses are given; default 1.</summary>
        public float total_mass;
        /// <summary>Compliance of the surface edges (m/N), default 1e-4.</summary>
        public float stretch_compliance;
        /// <summary>Overpressure factor: the body keeps pressure x its rest volume; (0, 100], default 1.</summary>
        public float pressure;
        /// <summary>Compliance of the volume constraint (m⁵/N), default 0.</summary>
        public float volume_compliance;
        /// <summary>Extra velocity damping (1/s), default 0.</summary>
        public float damping;
        /// <summary>Set by sinew_pressure_body_desc_init; a desc not made by it is refused.</summary>
        public uint internal_cookie;
    }

    /// <summary>A body handle, passed by value (8 bytes); valid in the world that made it.
    /// <c>id</c> 0 is the null handle.</summary>
    [StructLayout(LayoutKind.Sequential)]
    public struct SinewBody
    {
        public ulong id;
    }

    /// <summary>What sinew_body_info reports about a body.</summary>
    [StructLayout(LayoutKind.Sequential)]
    public struct SinewBodyInfo
    {
        /// <summary>A SinewBodyKind.</summary>
        public uint kind;
        /// <summary>Its particles are first_particle..first_particle+particle_count.</summary>
        public uint first_particle;
        public uint particle_count;
        /// <summary>Rope radius (m) from its desc; 0 for other bodies.</summary>
        public float radius;
        /// <summary>Extra velocity damping (1/s).</summary>
        public float damping;
    }

    public static unsafe partial class SinewNative
    {
        /// <summary>C: <c>SINEW_MATERIAL_CONCRETE</c>, compliance (m²/N, the inverse of Young's
        /// modulus) of concrete, from the XPBD slides of Nakagawa, "Position Based Dynamics Combo", CEDEC 2017.</summary>
        public const float SINEW_MATERIAL_CONCRETE = 0.04e-9f;
        /// <summary>C: <c>SINEW_MATERIAL_WOOD</c>, m²/N (Nakagawa, "Position Based Dynamics Combo", CEDEC 2017).</summary>
        public const float SINEW_MATERIAL_WOOD = 0.16e-9f;
        /// <summary>C: <c>SINEW_MATERIAL_LEATHER</c>, m²/N (Nakagawa, "Position Based Dynamics Combo", CEDEC 2017).</summary>
        public const float SINEW_MATERIAL_LEATHER = 1.0e-8f;
        /// <summary>C: <c>SINEW_MATERIAL_TENDON</c>, m²/N (Nakagawa, "Position Based Dynamics Combo", CEDEC 2017).</summary>
        public const float SINEW_MATERIAL_TENDON = 0.2e-7f;
        /// <summary>C: <c>SINEW_MATERIAL_RUBBER</c>, m²/N (Nakagawa, "Position Based Dynamics Combo", CEDEC 2017).</summary>
        public const float SINEW_MATERIAL_RUBBER = 1.0e-6f;
        /// <summary>C: <c>SINEW_MATERIAL_MUSCLE</c>, m²/N (Nakagawa, "Position Based Dynamics Combo", CEDEC 2017).</summary>
        public const float SINEW_MATERIAL_MUSCLE = 0.2e-3f;
        /// <summary>C: <c>SINEW_MATERIAL_FAT</c>, m²/N (Nakagawa, "Position Based Dynamics Combo", CEDEC 2017).</summary>
        public const float SINEW_MATERIAL_FAT = 1.0e-3f;

        /// <summary>Writes sinew_rope_desc_default() to <c>*out</c> (for bindings that avoid
        /// by-value structs).</summary>
        [DllImport(Lib, CallingConvention = CallingConvention.Cdecl)]
        public static extern int sinew_rope_desc_init(SinewRopeDesc* @out);

        /// <summary>Writes sinew_cloth_desc_default() to <c>*out</c>.</summary>
        [DllImport(Lib, CallingConvention = CallingConvention.Cdecl)]
        public static extern int sinew_cloth_desc_init(SinewClothDesc* @out);

        /// <summary>Writes sinew_cloth_grid_desc_default() to <c>*out</c>.</summary>
        [DllImport(Lib, CallingConvention = CallingConvention.Cdecl)]
        public static extern int sinew_cloth_grid_desc_init(SinewClothGridDesc* @out);

        /// <summary>Writes sinew_tet_body_desc_default() to <c>*out</c>.</summary>
        [DllImport(Lib, CallingConvention = CallingConvention.Cdecl)]
        public static extern int sinew_tet_body_desc_init(SinewTetBodyDesc* @out);

        /// <summary>Writes sinew_pressure_body_desc_default() to <c>*out</c>.</summary>
        [DllImport(Lib, CallingConvention = CallingConvention.Cdecl)]
        public static extern int sinew_pressure_body_desc_init(SinewPressureBodyDesc* @out);

        /// <summary>Adds a straight rope from desc-&gt;start to desc-&gt;end in desc-&gt;segments
        /// segments (segments + 1 particles, consecutive indices). <c>*out_body</c> receives its
        /// handle.</summary>
        [DllImport(Lib, CallingConvention = CallingConvention.Cdecl)]
        public static extern int sinew_world_add_rope(SinewWorld world, SinewRopeDesc* desc, SinewBody* out_body);

        /// <summary>Adds a rope through <c>point_count</c> &gt;= 2 points (m), one particle each;
        /// the start, end and segments of the desc are ignored.</summary>
        [DllImport(Lib, CallingConvention = CallingConvention.Cdecl)]
        public static extern int sinew_world_add_rope_polyline(SinewWorld world, SinewRopeDesc* desc, SinewVec3* points, uint point_count, SinewBody* out_body);

        /// <summary>Adds a cloth from a triangle mesh: <c>vertex_count</c> vertices (m) with
        /// <c>inverse_masses</c> (1/kg, 0 = pinned, one per vertex), <c>triangle_count</c>
        /// triangles (3 vertex indices each, 0-based within this mesh). The body's particles are
        /// the vertices in order. Malformed meshes (index out of range, a vertex repeated in a
        /// triangle, zero-area triangles, an edge shared by more than two triangles) are refused
        /// naming the element.</summary>
        [DllImport(Lib, CallingConvention = CallingConvention.Cdecl)]
        public static extern int sinew_world_add_cloth_mesh(SinewWorld world, SinewClothDesc* desc, SinewVec3* vertices, uint vertex_count, uint* triangles, uint triangle_count, float* inverse_masses, SinewBody* out_body);

        /// <summary>Adds a rectangular grid cloth ((segments_u+1) x (segments_v+1) particles, index
        /// j*(segments_u+1) + i; the diagonals are shear links).</summary>
        [DllImport(Lib, CallingConvention = CallingConvention.Cdecl)]
        public static extern int sinew_world_add_cloth_grid(SinewWorld world, SinewClothDesc* desc, SinewClothGridDesc* grid, SinewBody* out_body);

        /// <summary>Adds a soft body from a tetrahedral mesh: every tet edge a link, every tet a
        /// volume constraint. Tets (4 indices each) must have positive volume (vertices 1, 2, 3
        /// counter-clockwise seen from vertex 0): inverted or flat tets are refused naming the tet.
        /// <c>inverse_masses</c> NULL = desc-&gt;total_mass lumped by volume.</summary>
        [DllImport(Lib, CallingConvention = CallingConvention.Cdecl)]
        public static extern int sinew_world_add_tet_body(SinewWorld world, SinewTetBodyDesc* desc, SinewVec3* vertices, uint vertex_count, uint* tets, uint tet_count, float* inverse_masses, SinewBody* out_body);

        /// <summary>Adds a soft body from a closed surface (triangles wound counter-clockwise seen
        /// from outside): every edge a link plus one volume constraint keeping desc-&gt;pressure x
        /// the rest volume. A surface that is not closed, inconsistently wound or inside-out is
        /// refused naming the edge. <c>inverse_masses</c> NULL = desc-&gt;total_mass lumped by
        /// area.</summary>
        [DllImport(Lib, CallingConvention = CallingConvention.Cdecl)]
        public static extern int sinew_world_add_pressure_body(SinewWorld world, SinewPressureBodyDesc* desc, SinewVec3* vertices, uint vertex_count, uint* triangles, uint triangle_count, float* inverse_masses, SinewBody* out_body);

        /// <summary>Removes a body. Its particles keep their indices but become inert (inverse mass
        /// 0, they stay where they are); its constraints and the attachments on its particles stop
        /// acting. Other bodies' indices and motion are unchanged. The handle becomes invalid:
        /// removing it again gives SINEW_ERROR_INVALID_HANDLE.</summary>
        [DllImport(Lib, CallingConvention = CallingConvention.Cdecl)]
        public static extern int sinew_world_remove_body(SinewWorld world, SinewBody body);

        /// <summary>Writes the number of live bodies to <c>*out_count</c>.</summary>
        [DllImport(Lib, CallingConvention = CallingConvention.Cdecl)]
        public static extern int sinew_world_body_count(SinewWorld world, uint* out_count);

        /// <summary>Writes the body's particles (<c>first..first+count</c>, world particle indices)
        /// to <c>*out_first</c> and <c>*out_count</c>.</summary>
        [DllImport(Lib, CallingConvention = CallingConvention.Cdecl)]
        public static extern int sinew_body_particle_range(SinewWorld world, SinewBody body, uint* out_first, uint* out_count);

        /// <summary>Writes what the body is (kind, particles, rope radius, damping) to
        /// <c>*out_info</c>.</summary>
        [DllImport(Lib, CallingConvention = CallingConvention.Cdecl)]
        public static extern int sinew_body_info(SinewWorld world, SinewBody body, SinewBodyInfo* out_info);

        /// <summary>Copies the positions (m) of all the body's particles to <c>out</c>, one
        /// SinewVec3 every <c>stride_bytes</c> (&gt;= 12), e.g. straight into a vertex buffer;
        /// <c>capacity</c> is the number of elements <c>out</c> holds (at least the body's particle
        /// count).</summary>
        [DllImport(Lib, CallingConvention = CallingConvention.Cdecl)]
        public static extern int sinew_body_read_positions(SinewWorld world, SinewBody body, void* @out, uint capacity, uint stride_bytes);

        /// <summary>Sets the compliance of one of the body's constraint groups (<c>which</c> a
        /// SinewBodyConstraints; units per group) from the next step on.</summary>
        [DllImport(Lib, CallingConvention = CallingConvention.Cdecl)]
        public static extern int sinew_body_set_compliance(SinewWorld world, SinewBody body, uint which, float compliance);

        /// <summary>Sets the body's extra velocity damping (1/s, &gt;= 0) from the next step
        /// on.</summary>
        [DllImport(Lib, CallingConvention = CallingConvention.Cdecl)]
        public static extern int sinew_body_set_damping(SinewWorld world, SinewBody body, float damping);

        /// <summary>Sets the overpressure factor (in (0, 100]) of a pressure soft body.</summary>
        [DllImport(Lib, CallingConvention = CallingConvention.Cdecl)]
        public static extern int sinew_body_set_pressure(SinewWorld world, SinewBody body, float pressure);

        /// <summary>Writes the current volume (m³) of a soft body (the enclosed volume of a
        /// pressure body, the summed tet volume of a tet body) to <c>*out_volume</c>.</summary>
        [DllImport(Lib, CallingConvention = CallingConvention.Cdecl)]
        public static extern int sinew_body_volume(SinewWorld world, SinewBody body, float* out_volume);
    }
}

// Settings of the native body builders (the idiomatic forms of SinewRopeDesc,
// SinewClothDesc, SinewClothGridDesc, SinewTetBodyDesc, SinewPressureBodyDesc). Start
// from Default (read from the library, so the defaults never drift) and change what
// you need; the library validates every field when the body is added.

using Sinew.Native;

namespace Sinew
{
    /// <summary>A rope built by the library (<see cref="World.AddRope"/>).</summary>
    public struct RopeSettings : INativeSettings<SinewRopeDesc>
    {
        // BEGIN GENERATED RopeDesc fields
        /// <summary>First end, where the straight rope starts. Ignored by the polyline builder.
        /// Each component in [-SINEW_MAX_COORDINATE, SINEW_MAX_COORDINATE] m. Default (0, 0,
        /// 0).</summary>
        public SinewVec3 Start;
        /// <summary>Second end. Ignored by the polyline builder. Each component in
        /// [-SINEW_MAX_COORDINATE, SINEW_MAX_COORDINATE] m. Default (1, 0, 0).</summary>
        public SinewVec3 End;
        /// <summary>Segments between start and end (segments + 1 particles). Ignored by the
        /// polyline builder. In 1..SINEW_MAX_BODY_PARTICLES. Default 20.</summary>
        public int Segments;
        /// <summary>Total mass, spread evenly over the particles. In (0, SINEW_MAX_BODY_MASS]
        /// kg. Default 1.</summary>
        public float TotalMass;
        /// <summary>Radius for rendering and collision: each particle's collision radius
        /// against colliders and other particles (not the rope's own). 0 = a thin line for
        /// colliders and no part in particle contacts, whose neighbour search then costs
        /// nothing. In [0, SINEW_MAX_LENGTH] m. Default 0.01.</summary>
        public float Radius;
        /// <summary>Compliance of the links (0 = inextensible). In [0,
        /// SINEW_MAX_BODY_COMPLIANCE] m/N. Default 0.</summary>
        public float StretchCompliance;
        /// <summary>Compliance of the (i, i+2) bend links. In [0, SINEW_MAX_BODY_COMPLIANCE]
        /// m/N. Default 0.01.</summary>
        public float BendCompliance;
        /// <summary>Tethers from each pinned end to every particle (Kim et al. 2012; max length
        /// = the arc length along the rope). Default 1 (0 or 1).</summary>
        public bool Tethers;
        /// <summary>Pin the first particle (inverse mass 0). Default 1 (0 or 1).</summary>
        public bool PinStart;
        /// <summary>Pin the last particle (inverse mass 0). Default 0 (0 or 1).</summary>
        public bool PinEnd;
        /// <summary>Extra velocity damping of the rope's particles. In [0,
        /// SINEW_MAX_ACCELERATION] 1/s. Default 0.</summary>
        public float Damping;
        // END GENERATED RopeDesc fields

        /// <summary>The library's defaults.</summary>
        public static RopeSettings Default
        {
            get { return NativeSettings.Default<RopeSettings, SinewRopeDesc>(); }
        }

        /// <summary>The native desc: the defaults (with their cookie) overwritten by these
        /// settings.</summary>
        public SinewRopeDesc ToNative()
        {
            return NativeSettings.ToNative<RopeSettings, SinewRopeDesc>(this);
        }

        unsafe int INativeSettings<SinewRopeDesc>.InitNative(ref SinewRopeDesc d)
        {
            fixed (SinewRopeDesc* p = &d)
                return SinewNative.sinew_rope_desc_init(p);
        }

        void INativeSettings<SinewRopeDesc>.Exchange(ref SinewRopeDesc d, bool toNative)
        {
            // BEGIN GENERATED RopeDesc exchange
            NativeSettings.Copy(ref d.start, ref Start, toNative);
            NativeSettings.Copy(ref d.end, ref End, toNative);
            NativeSettings.Copy(ref d.segments, ref Segments, toNative);
            NativeSettings.Copy(ref d.total_mass, ref TotalMass, toNative);
            NativeSettings.Copy(ref d.radius, ref Radius, toNative);
            NativeSettings.Copy(ref d.stretch_compliance, ref StretchCompliance, toNative);
            NativeSettings.Copy(ref d.bend_compliance, ref BendCompliance, toNative);
            NativeSettings.Copy(ref d.tethers, ref Tethers, toNative);
            NativeSettings.Copy(ref d.pin_start, ref PinStart, toNative);
            NativeSettings.Copy(ref d.pin_end, ref PinEnd, toNative);
            NativeSettings.Copy(ref d.damping, ref Damping, toNative);
            // END GENERATED RopeDesc exchange
        }
    }

    /// <summary>The material of a cloth, mesh or grid (<see cref="World.AddClothGrid"/>,
    /// <see cref="World.AddClothMesh{T}"/>).</summary>
    public struct ClothSettings : INativeSettings<SinewClothDesc>
    {
        // BEGIN GENERATED ClothDesc fields
        /// <summary>Edge links on every edge, or strain-based triangles. Default 0 (a
        /// SinewClothModel).</summary>
        public SinewClothModel Model;
        /// <summary>Edges: compliance of the edges (m/N). Strain: of the warp stretch
        /// (1/(N·m)). In [0, SINEW_MAX_BODY_COMPLIANCE]. Default 0.</summary>
        public float StretchCompliance;
        /// <summary>Strain model only: compliance of the weft stretch (1/(N·m)). In [0,
        /// SINEW_MAX_BODY_COMPLIANCE]. Default 0.</summary>
        public float WeftCompliance;
        /// <summary>Edges: compliance of the grid diagonals (m/N; unused for meshes). Strain:
        /// of the shear components (1/(N·m)). In [0, SINEW_MAX_BODY_COMPLIANCE]. Default
        /// 1e-4.</summary>
        public float ShearCompliance;
        /// <summary>Strain model: the warp direction, finite and non-zero (projected onto each
        /// triangle; a grid uses its u edge). Default (1, 0, 0).</summary>
        public SinewVec3 Warp;
        /// <summary>Compliance of the bending constraints, in the units of the bending model
        /// (distance m/N, dihedral rad/(N·m), isometric 1/(N·m)). In [0,
        /// SINEW_MAX_BODY_COMPLIANCE]. Default 1.</summary>
        public float BendCompliance;
        /// <summary>Bending model: none, distance links, dihedral angles or isometric. Default
        /// 2 (a SinewBendingModel).</summary>
        public SinewBendingModel Bending;
        /// <summary>Tether every free vertex to its nearest pinned vertices. Default 1 (0 or
        /// 1).</summary>
        public bool Tethers;
        /// <summary>Extra velocity damping of the cloth's particles. In [0,
        /// SINEW_MAX_ACCELERATION] 1/s. Default 0.</summary>
        public float Damping;
        // END GENERATED ClothDesc fields

        /// <summary>The library's defaults.</summary>
        public static ClothSettings Default
        {
            get { return NativeSettings.Default<ClothSettings, SinewClothDesc>(); }
        }

        /// <summary>The native desc: the defaults (with their cookie) overwritten by these
        /// settings.</summary>
        public SinewClothDesc ToNative()
        {
            return NativeSettings.ToNative<ClothSettings, SinewClothDesc>(this);
        }

        unsafe int INativeSettings<SinewClothDesc>.InitNative(ref SinewClothDesc d)
        {
            fixed (SinewClothDesc* p = &d)
                return SinewNative.sinew_cloth_desc_init(p);
        }

        void INativeSettings<SinewClothDesc>.Exchange(ref SinewClothDesc d, bool toNative)
        {
            // BEGIN GENERATED ClothDesc exchange
            NativeSettings.CopyEnum(ref d.model, ref Model, toNative);
            NativeSettings.Copy(ref d.stretch_compliance, ref StretchCompliance, toNative);
            NativeSettings.Copy(ref d.weft_compliance, ref WeftCompliance, toNative);
            NativeSettings.Copy(ref d.shear_compliance, ref ShearCompliance, toNative);
            NativeSettings.Copy(ref d.warp, ref Warp, toNative);
            NativeSettings.Copy(ref d.bend_compliance, ref BendCompliance, toNative);
            NativeSettings.CopyEnum(ref d.bending, ref Bending, toNative);
            NativeSettings.Copy(ref d.tethers, ref Tethers, toNative);
            NativeSettings.Copy(ref d.damping, ref Damping, toNative);
            // END GENERATED ClothDesc exchange
        }
    }

    /// <summary>A rectangular cloth grid (<see cref="World.AddClothGrid"/>): vertex (i, j) at
    /// Origin + U·i/SegmentsU + V·j/SegmentsV, particle index j·(SegmentsU+1) + i.</summary>
    public struct ClothGridSettings : INativeSettings<SinewClothGridDesc>
    {
        // BEGIN GENERATED ClothGridDesc fields
        /// <summary>The corner of vertex (0, 0). Each component in [-SINEW_MAX_COORDINATE,
        /// SINEW_MAX_COORDINATE] m. Default (0, 0, 0).</summary>
        public SinewVec3 Origin;
        /// <summary>Full width edge. Each component in [-SINEW_MAX_COORDINATE,
        /// SINEW_MAX_COORDINATE] m. Default (1, 0, 0).</summary>
        public SinewVec3 U;
        /// <summary>Full height edge. Each component in [-SINEW_MAX_COORDINATE,
        /// SINEW_MAX_COORDINATE] m. Default (0, 0, 1).</summary>
        public SinewVec3 V;
        /// <summary>Cells along u. In 1..=SINEW_MAX_GRID_SEGMENTS. Default 20.</summary>
        public int SegmentsU;
        /// <summary>Cells along v. In 1..=SINEW_MAX_GRID_SEGMENTS. Default 20.</summary>
        public int SegmentsV;
        /// <summary>Total mass, spread evenly over the vertices. In (0, SINEW_MAX_BODY_MASS]
        /// kg. Default 1.</summary>
        public float TotalMass;
        /// <summary>Pinned corners, bits: 1 = (0, 0), 2 = (u, 0), 4 = (0, v), 8 = (u, v). In
        /// 0..=15. Default 0.</summary>
        public int PinCorners;
        // END GENERATED ClothGridDesc fields

        /// <summary>The corner at Origin.</summary>
        public const int CornerOrigin = 1;
        /// <summary>The corner at Origin + U.</summary>
        public const int CornerU = 2;
        /// <summary>The corner at Origin + V.</summary>
        public const int CornerV = 4;
        /// <summary>The corner at Origin + U + V.</summary>
        public const int CornerUV = 8;

        /// <summary>The library's defaults.</summary>
        public static ClothGridSettings Default
        {
            get { return NativeSettings.Default<ClothGridSettings, SinewClothGridDesc>(); }
        }

        /// <summary>The native desc: the defaults (with their cookie) overwritten by these
        /// settings.</summary>
        public SinewClothGridDesc ToNative()
        {
            return NativeSettings.ToNative<ClothGridSettings, SinewClothGridDesc>(this);
        }

        unsafe int INativeSettings<SinewClothGridDesc>.InitNative(ref SinewClothGridDesc d)
        {
            fixed (SinewClothGridDesc* p = &d)
                return SinewNative.sinew_cloth_grid_desc_init(p);
        }

        void INativeSettings<SinewClothGridDesc>.Exchange(ref SinewClothGridDesc d, bool toNative)
        {
            // BEGIN GENERATED ClothGridDesc exchange
            NativeSettings.Copy(ref d.origin, ref Origin, toNative);
            NativeSettings.Copy(ref d.u, ref U, toNative);
            NativeSettings.Copy(ref d.v, ref V, toNative);
            NativeSettings.Copy(ref d.segments_u, ref SegmentsU, toNative);
            NativeSettings.Copy(ref d.segments_v, ref SegmentsV, toNative);
            NativeSettings.Copy(ref d.total_mass, ref TotalMass, toNative);
            NativeSettings.Copy(ref d.pin_corners, ref PinCorners, toNative);
            // END GENERATED ClothGridDesc exchange
        }
    }

    /// <summary>A tetrahedral soft body (<see cref="World.AddTetBody{T}"/>).</summary>
    public struct TetBodySettings : INativeSettings<SinewTetBodyDesc>
    {
        // BEGIN GENERATED TetBodyDesc fields
        /// <summary>Total mass, lumped to the vertices by tet volume when no inverse masses are
        /// given (ignored when they are). In (0, SINEW_MAX_BODY_MASS] kg. Default 1.</summary>
        public float TotalMass;
        /// <summary>Edge links plus volume, or strain-based plus volume. Default 0 (a
        /// SinewTetModel).</summary>
        public SinewTetModel Model;
        /// <summary>Edges model: compliance of the tet edges (m/N). Strain model: of the
        /// stretch components (1/(N·m)). In [0, SINEW_MAX_BODY_COMPLIANCE]. Default
        /// 1e-4.</summary>
        public float StretchCompliance;
        /// <summary>Strain model only: compliance of the shear components (1/(N·m)). In [0,
        /// SINEW_MAX_BODY_COMPLIANCE]. Default 1e-4.</summary>
        public float ShearCompliance;
        /// <summary>Compliance of the tet volumes (0 = incompressible). In [0,
        /// SINEW_MAX_BODY_COMPLIANCE] 1/(N·m). Default 0.</summary>
        public float VolumeCompliance;
        /// <summary>Extra velocity damping of the body's particles. In [0,
        /// SINEW_MAX_ACCELERATION] 1/s. Default 0.</summary>
        public float Damping;
        // END GENERATED TetBodyDesc fields

        /// <summary>The library's defaults.</summary>
        public static TetBodySettings Default
        {
            get { return NativeSettings.Default<TetBodySettings, SinewTetBodyDesc>(); }
        }

        /// <summary>The native desc: the defaults (with their cookie) overwritten by these
        /// settings.</summary>
        public SinewTetBodyDesc ToNative()
        {
            return NativeSettings.ToNative<TetBodySettings, SinewTetBodyDesc>(this);
        }

        unsafe int INativeSettings<SinewTetBodyDesc>.InitNative(ref SinewTetBodyDesc d)
        {
            fixed (SinewTetBodyDesc* p = &d)
                return SinewNative.sinew_tet_body_desc_init(p);
        }

        void INativeSettings<SinewTetBodyDesc>.Exchange(ref SinewTetBodyDesc d, bool toNative)
        {
            // BEGIN GENERATED TetBodyDesc exchange
            NativeSettings.Copy(ref d.total_mass, ref TotalMass, toNative);
            NativeSettings.CopyEnum(ref d.model, ref Model, toNative);
            NativeSettings.Copy(ref d.stretch_compliance, ref StretchCompliance, toNative);
            NativeSettings.Copy(ref d.shear_compliance, ref ShearCompliance, toNative);
            NativeSettings.Copy(ref d.volume_compliance, ref VolumeCompliance, toNative);
            NativeSettings.Copy(ref d.damping, ref Damping, toNative);
            // END GENERATED TetBodyDesc exchange
        }
    }

    /// <summary>A closed-surface (pressure) soft body (<see cref="World.AddPressureBody{T}"/>).</summary>
    public struct PressureBodySettings : INativeSettings<SinewPressureBodyDesc>
    {
        // BEGIN GENERATED PressureBodyDesc fields
        /// <summary>Total mass, lumped to the vertices by triangle area when no inverse masses
        /// are given (ignored when they are). In (0, SINEW_MAX_BODY_MASS] kg. Default
        /// 1.</summary>
        public float TotalMass;
        /// <summary>Compliance of the surface edges. In [0, SINEW_MAX_BODY_COMPLIANCE] m/N.
        /// Default 1e-4.</summary>
        public float StretchCompliance;
        /// <summary>Overpressure factor k: the body keeps k × its rest volume. In (0,
        /// SINEW_MAX_PRESSURE]. Default 1.</summary>
        public float Pressure;
        /// <summary>Compliance of the volume constraint. In [0, SINEW_MAX_BODY_COMPLIANCE]
        /// m⁵/N. Default 0.</summary>
        public float VolumeCompliance;
        /// <summary>Extra velocity damping of the body's particles. In [0,
        /// SINEW_MAX_ACCELERATION] 1/s. Default 0.</summary>
        public float Damping;
        // END GENERATED PressureBodyDesc fields

        /// <summary>The library's defaults.</summary>
        public static PressureBodySettings Default
        {
            get { return NativeSettings.Default<PressureBodySettings, SinewPressureBodyDesc>(); }
        }

        /// <summary>The native desc: the defaults (with their cookie) overwritten by these
        /// settings.</summary>
        public SinewPressureBodyDesc ToNative()
        {
            return NativeSettings.ToNative<PressureBodySettings, SinewPressureBodyDesc>(this);
        }

        unsafe int INativeSettings<SinewPressureBodyDesc>.InitNative(ref SinewPressureBodyDesc d)
        {
            fixed (SinewPressureBodyDesc* p = &d)
                return SinewNative.sinew_pressure_body_desc_init(p);
        }

        void INativeSettings<SinewPressureBodyDesc>.Exchange(ref SinewPressureBodyDesc d, bool toNative)
        {
            // BEGIN GENERATED PressureBodyDesc exchange
            NativeSettings.Copy(ref d.total_mass, ref TotalMass, toNative);
            NativeSettings.Copy(ref d.stretch_compliance, ref StretchCompliance, toNative);
            NativeSettings.Copy(ref d.pressure, ref Pressure, toNative);
            NativeSettings.Copy(ref d.volume_compliance, ref VolumeCompliance, toNative);
            NativeSettings.Copy(ref d.damping, ref Damping, toNative);
            // END GENERATED PressureBodyDesc exchange
        }
    }
}

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
        /// <summary>First end (m), default (0, 0, 0). Ignored by AddRopePolyline.</summary>
        public SinewVec3 Start;
        /// <summary>Second end (m), default (1, 0, 0). Ignored by AddRopePolyline.</summary>
        public SinewVec3 End;
        /// <summary>Segments between Start and End, default 20 (Segments + 1 particles).
        /// Ignored by AddRopePolyline.</summary>
        public int Segments;
        /// <summary>Total mass (kg), spread evenly over the particles, default 1.</summary>
        public float TotalMass;
        /// <summary>Radius (m) for rendering and collision, >= 0, default 0.01.</summary>
        public float Radius;
        /// <summary>Compliance of the links (m/N), default 0 (inextensible).</summary>
        public float StretchCompliance;
        /// <summary>Compliance of the (i, i+2) bend links (m/N), default 0.01.</summary>
        public float BendCompliance;
        /// <summary>Tethers from each pinned end to every particle, default true.</summary>
        public bool Tethers;
        /// <summary>Pin the first particle, default true.</summary>
        public bool PinStart;
        /// <summary>Pin the last particle, default false.</summary>
        public bool PinEnd;
        /// <summary>Extra velocity damping of the rope (1/s), default 0.</summary>
        public float Damping;

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
        }
    }

    /// <summary>The material of a cloth, mesh or grid (<see cref="World.AddClothGrid"/>,
    /// <see cref="World.AddClothMesh{T}"/>).</summary>
    public struct ClothSettings : INativeSettings<SinewClothDesc>
    {
        /// <summary>Edge links (default) or strain-based triangles.</summary>
        public SinewClothModel Model;
        /// <summary>Edges: compliance of the edges (m/N). Strain: of the warp stretch
        /// (1/(N·m)). Default 0.</summary>
        public float StretchCompliance;
        /// <summary>Strain model only: compliance of the weft stretch (1/(N·m)), default 0.</summary>
        public float WeftCompliance;
        /// <summary>Edges: compliance of the grid diagonals (m/N; unused for meshes).
        /// Strain: of the shear components (1/(N·m)). Default 1e-4.</summary>
        public float ShearCompliance;
        /// <summary>Strain model: the warp direction (a grid uses its u edge), default (1, 0, 0).</summary>
        public SinewVec3 Warp;
        /// <summary>Compliance of the bending constraints (units of <see cref="Bending"/>), default 1.</summary>
        public float BendCompliance;
        /// <summary>Bending model, default dihedral (rad/(N·m)).</summary>
        public SinewBendingModel Bending;
        /// <summary>Tether free vertices to the nearest pinned ones, default true.</summary>
        public bool Tethers;
        /// <summary>Extra velocity damping (1/s), default 0.</summary>
        public float Damping;

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
            NativeSettings.CopyEnum(ref d.model, ref Model, toNative);
            NativeSettings.Copy(ref d.stretch_compliance, ref StretchCompliance, toNative);
            NativeSettings.Copy(ref d.weft_compliance, ref WeftCompliance, toNative);
            NativeSettings.Copy(ref d.shear_compliance, ref ShearCompliance, toNative);
            NativeSettings.Copy(ref d.warp, ref Warp, toNative);
            NativeSettings.Copy(ref d.bend_compliance, ref BendCompliance, toNative);
            NativeSettings.CopyEnum(ref d.bending, ref Bending, toNative);
            NativeSettings.Copy(ref d.tethers, ref Tethers, toNative);
            NativeSettings.Copy(ref d.damping, ref Damping, toNative);
        }
    }

    /// <summary>A rectangular cloth grid (<see cref="World.AddClothGrid"/>): vertex (i, j) at
    /// Origin + U·i/SegmentsU + V·j/SegmentsV, particle index j·(SegmentsU+1) + i.</summary>
    public struct ClothGridSettings : INativeSettings<SinewClothGridDesc>
    {
        /// <summary>m, default (0, 0, 0).</summary>
        public SinewVec3 Origin;
        /// <summary>Full width edge (m), default (1, 0, 0).</summary>
        public SinewVec3 U;
        /// <summary>Full height edge (m), default (0, 0, 1).</summary>
        public SinewVec3 V;
        /// <summary>Cells along U, 1..4096, default 20.</summary>
        public int SegmentsU;
        /// <summary>Cells along V, 1..4096, default 20.</summary>
        public int SegmentsV;
        /// <summary>Total mass (kg), default 1.</summary>
        public float TotalMass;
        /// <summary>Pinned corners, a sum of <see cref="CornerOrigin"/>, <see cref="CornerU"/>,
        /// <see cref="CornerV"/>, <see cref="CornerUV"/>; default 0.</summary>
        public int PinCorners;

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
            NativeSettings.Copy(ref d.origin, ref Origin, toNative);
            NativeSettings.Copy(ref d.u, ref U, toNative);
            NativeSettings.Copy(ref d.v, ref V, toNative);
            NativeSettings.Copy(ref d.segments_u, ref SegmentsU, toNative);
            NativeSettings.Copy(ref d.segments_v, ref SegmentsV, toNative);
            NativeSettings.Copy(ref d.total_mass, ref TotalMass, toNative);
            NativeSettings.Copy(ref d.pin_corners, ref PinCorners, toNative);
        }
    }

    /// <summary>A tetrahedral soft body (<see cref="World.AddTetBody{T}"/>).</summary>
    public struct TetBodySettings : INativeSettings<SinewTetBodyDesc>
    {
        /// <summary>Total mass (kg), lumped by tet volume when no inverse masses are given;
        /// default 1.</summary>
        public float TotalMass;
        /// <summary>Edge links plus volume (default) or strain-based plus volume.</summary>
        public SinewTetModel Model;
        /// <summary>Edges model: compliance of the tet edges (m/N). Strain model: of the
        /// stretch components (1/(N·m)). Default 1e-4.</summary>
        public float StretchCompliance;
        /// <summary>Strain model only: compliance of the shear components (1/(N·m)), default 1e-4.</summary>
        public float ShearCompliance;
        /// <summary>Compliance of the tet volumes (1/(N·m)), default 0.</summary>
        public float VolumeCompliance;
        /// <summary>Extra velocity damping (1/s), default 0.</summary>
        public float Damping;

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
            NativeSettings.Copy(ref d.total_mass, ref TotalMass, toNative);
            NativeSettings.CopyEnum(ref d.model, ref Model, toNative);
            NativeSettings.Copy(ref d.stretch_compliance, ref StretchCompliance, toNative);
            NativeSettings.Copy(ref d.shear_compliance, ref ShearCompliance, toNative);
            NativeSettings.Copy(ref d.volume_compliance, ref VolumeCompliance, toNative);
            NativeSettings.Copy(ref d.damping, ref Damping, toNative);
        }
    }

    /// <summary>A closed-surface (pressure) soft body (<see cref="World.AddPressureBody{T}"/>).</summary>
    public struct PressureBodySettings : INativeSettings<SinewPressureBodyDesc>
    {
        /// <summary>Total mass (kg), lumped by triangle area when no inverse masses are given;
        /// default 1.</summary>
        public float TotalMass;
        /// <summary>Compliance of the surface edges (m/N), default 1e-4.</summary>
        public float StretchCompliance;
        /// <summary>Overpressure factor: the body keeps Pressure × its rest volume; (0, 100],
        /// default 1.</summary>
        public float Pressure;
        /// <summary>Compliance of the volume constraint (m⁵/N), default 0.</summary>
        public float VolumeCompliance;
        /// <summary>Extra velocity damping (1/s), default 0.</summary>
        public float Damping;

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
            NativeSettings.Copy(ref d.total_mass, ref TotalMass, toNative);
            NativeSettings.Copy(ref d.stretch_compliance, ref StretchCompliance, toNative);
            NativeSettings.Copy(ref d.pressure, ref Pressure, toNative);
            NativeSettings.Copy(ref d.volume_compliance, ref VolumeCompliance, toNative);
            NativeSettings.Copy(ref d.damping, ref Damping, toNative);
        }
    }
}

// Settings of the native body builders (the idiomatic forms of SinewRopeDesc,
// SinewClothDesc, SinewClothGridDesc, SinewTetBodyDesc, SinewPressureBodyDesc). Start
// from Default (read from the library, so the defaults never drift) and change what
// you need; the library validates every field when the body is added.

using Sinew.Native;

namespace Sinew
{
    /// <summary>A rope built by the library (<see cref="World.AddRope"/>).</summary>
    public struct RopeSettings
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
        public static unsafe RopeSettings Default
        {
            get
            {
                SinewRopeDesc d = NativeDefaults();
                return new RopeSettings
                {
                    Start = d.start,
                    End = d.end,
                    Segments = (int)d.segments,
                    TotalMass = d.total_mass,
                    Radius = d.radius,
                    StretchCompliance = d.stretch_compliance,
                    BendCompliance = d.bend_compliance,
                    Tethers = d.tethers != 0,
                    PinStart = d.pin_start != 0,
                    PinEnd = d.pin_end != 0,
                    Damping = d.damping,
                };
            }
        }

        static unsafe SinewRopeDesc NativeDefaults()
        {
            Library.EnsureLoaded();
            SinewRopeDesc d;
            SinewException.Check(SinewNative.sinew_rope_desc_init(&d));
            return d;
        }

        /// <summary>The native desc: the defaults (with their cookie) overwritten by these
        /// settings.</summary>
        public SinewRopeDesc ToNative()
        {
            SinewRopeDesc d = NativeDefaults();
            d.start = Start;
            d.end = End;
            d.segments = unchecked((uint)Segments);
            d.total_mass = TotalMass;
            d.radius = Radius;
            d.stretch_compliance = StretchCompliance;
            d.bend_compliance = BendCompliance;
            d.tethers = Tethers ? 1u : 0u;
            d.pin_start = PinStart ? 1u : 0u;
            d.pin_end = PinEnd ? 1u : 0u;
            d.damping = Damping;
            return d;
        }
    }

    /// <summary>The material of a cloth, mesh or grid (<see cref="World.AddClothGrid"/>,
    /// <see cref="World.AddClothMesh{T}"/>).</summary>
    public struct ClothSettings
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
            get
            {
                SinewClothDesc d = NativeDefaults();
                return new ClothSettings
                {
                    Model = (SinewClothModel)d.model,
                    StretchCompliance = d.stretch_compliance,
                    WeftCompliance = d.weft_compliance,
                    ShearCompliance = d.shear_compliance,
                    Warp = d.warp,
                    BendCompliance = d.bend_compliance,
                    Bending = (SinewBendingModel)d.bending,
                    Tethers = d.tethers != 0,
                    Damping = d.damping,
                };
            }
        }

        static unsafe SinewClothDesc NativeDefaults()
        {
            Library.EnsureLoaded();
            SinewClothDesc d;
            SinewException.Check(SinewNative.sinew_cloth_desc_init(&d));
            return d;
        }

        /// <summary>The native desc: the defaults (with their cookie) overwritten by these
        /// settings.</summary>
        public SinewClothDesc ToNative()
        {
            SinewClothDesc d = NativeDefaults();
            d.model = (uint)Model;
            d.stretch_compliance = StretchCompliance;
            d.weft_compliance = WeftCompliance;
            d.shear_compliance = ShearCompliance;
            d.warp = Warp;
            d.bend_compliance = BendCompliance;
            d.bending = (uint)Bending;
            d.tethers = Tethers ? 1u : 0u;
            d.damping = Damping;
            return d;
        }
    }

    /// <summary>A rectangular cloth grid (<see cref="World.AddClothGrid"/>): vertex (i, j) at
    /// Origin + U·i/SegmentsU + V·j/SegmentsV, particle index j·(SegmentsU+1) + i.</summary>
    public struct ClothGridSettings
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
            get
            {
                SinewClothGridDesc d = NativeDefaults();
                return new ClothGridSettings
                {
                    Origin = d.origin,
                    U = d.u,
                    V = d.v,
                    SegmentsU = (int)d.segments_u,
                    SegmentsV = (int)d.segments_v,
                    TotalMass = d.total_mass,
                    PinCorners = (int)d.pin_corners,
                };
            }
        }

        static unsafe SinewClothGridDesc NativeDefaults()
        {
            Library.EnsureLoaded();
            SinewClothGridDesc d;
            SinewException.Check(SinewNative.sinew_cloth_grid_desc_init(&d));
            return d;
        }

        /// <summary>The native desc: the defaults (with their cookie) overwritten by these
        /// settings.</summary>
        public SinewClothGridDesc ToNative()
        {
            SinewClothGridDesc d = NativeDefaults();
            d.origin = Origin;
            d.u = U;
            d.v = V;
            d.segments_u = unchecked((uint)SegmentsU);
            d.segments_v = unchecked((uint)SegmentsV);
            d.total_mass = TotalMass;
            d.pin_corners = unchecked((uint)PinCorners);
            return d;
        }
    }

    /// <summary>A tetrahedral soft body (<see cref="World.AddTetBody{T}"/>).</summary>
    public struct TetBodySettings
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
            get
            {
                SinewTetBodyDesc d = NativeDefaults();
                return new TetBodySettings
                {
                    TotalMass = d.total_mass,
                    Model = (SinewTetModel)d.model,
                    StretchCompliance = d.stretch_compliance,
                    ShearCompliance = d.shear_compliance,
                    VolumeCompliance = d.volume_compliance,
                    Damping = d.damping,
                };
            }
        }

        static unsafe SinewTetBodyDesc NativeDefaults()
        {
            Library.EnsureLoaded();
            SinewTetBodyDesc d;
            SinewException.Check(SinewNative.sinew_tet_body_desc_init(&d));
            return d;
        }

        /// <summary>The native desc: the defaults (with their cookie) overwritten by these
        /// settings.</summary>
        public SinewTetBodyDesc ToNative()
        {
            SinewTetBodyDesc d = NativeDefaults();
            d.total_mass = TotalMass;
            d.model = (uint)Model;
            d.stretch_compliance = StretchCompliance;
            d.shear_compliance = ShearCompliance;
            d.volume_compliance = VolumeCompliance;
            d.damping = Damping;
            return d;
        }
    }

    /// <summary>A closed-surface (pressure) soft body (<see cref="World.AddPressureBody{T}"/>).</summary>
    public struct PressureBodySettings
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
            get
            {
                SinewPressureBodyDesc d = NativeDefaults();
                return new PressureBodySettings
                {
                    TotalMass = d.total_mass,
                    StretchCompliance = d.stretch_compliance,
                    Pressure = d.pressure,
                    VolumeCompliance = d.volume_compliance,
                    Damping = d.damping,
                };
            }
        }

        static unsafe SinewPressureBodyDesc NativeDefaults()
        {
            Library.EnsureLoaded();
            SinewPressureBodyDesc d;
            SinewException.Check(SinewNative.sinew_pressure_body_desc_init(&d));
            return d;
        }

        /// <summary>The native desc: the defaults (with their cookie) overwritten by these
        /// settings.</summary>
        public SinewPressureBodyDesc ToNative()
        {
            SinewPressureBodyDesc d = NativeDefaults();
            d.total_mass = TotalMass;
            d.stretch_compliance = StretchCompliance;
            d.pressure = Pressure;
            d.volume_compliance = VolumeCompliance;
            d.damping = Damping;
            return d;
        }
    }
}

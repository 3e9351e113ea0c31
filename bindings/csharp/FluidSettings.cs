// Settings of fluids, emitters and kill volumes (the idiomatic forms of SinewFluidDesc,
// SinewEmitterDesc and SinewKillVolumeDesc). Start from Default (read from the library,
// so the defaults never drift) and change what you need; the library checks every
// field when the fluid, emitter or volume is added or changed.

using Sinew.Native;

namespace Sinew
{
    /// <summary>A fluid (<see cref="World.AddFluid"/>; Position Based Fluids, Macklin and
    /// Müller 2013). Its particles are reserved up front (<see cref="Capacity"/>), so
    /// emitting never allocates and never shifts the index of any other body.</summary>
    public struct FluidSettings : INativeSettings<SinewFluidDesc>
    {
        // BEGIN GENERATED FluidDesc fields
        /// <summary>Rest density ρ₀ (per unit thickness in a planar world, in kg/m²); water is
        /// 1000. Bodies lighter than this float. In (0, SINEW_MAX_REST_DENSITY] kg/m³. Default
        /// 1000.</summary>
        public float RestDensity;
        /// <summary>Particle spacing s: the rest distance between particles. Sets the particle
        /// mass ρ₀·s³ (ρ₀·s² in a planar world) and volume s³ (s²). Fixed once the fluid is
        /// added. In [SINEW_MIN_FLUID_SPACING, SINEW_MAX_FLUID_SPACING] m. Default
        /// 0.05.</summary>
        public float Spacing;
        /// <summary>Smoothing radius h; a value other than 0 must also lie in [spacing,
        /// MAX_SMOOTHING_RATIO·spacing]. In [0, 40] m; 0 = 2·spacing. Default 0.</summary>
        public float SmoothingRadius;
        /// <summary>Particles reserved up front: emission never allocates; a full fluid refuses
        /// emission or recycles its oldest particle. Fixed once the fluid is added. In
        /// 1..=SINEW_MAX_FLUID_CAPACITY particles. Default 4096.</summary>
        public int Capacity;
        /// <summary>Constraint relaxation ε, the CFM term of the density constraint (whose
        /// gradient carries the particle volume, so ε has units of 1/m²); it softens the
        /// constraint. 0.04 / spacing² is 100 m⁻² at spacing 0.02 m. In [0,
        /// SINEW_MAX_FLUID_RELAXATION] m⁻²; 0 = 0.04 / spacing². Default 0.</summary>
        public float Relaxation;
        /// <summary>Artificial pressure s_corr = −k·(W(r)/W(Δq))ⁿ: k, dimensionless. Keeps
        /// particles from clumping at the surface. In [0, SINEW_MAX_FLUID_COEFFICIENT]. Default
        /// 0.1.</summary>
        public float ScorrK;
        /// <summary>Artificial pressure exponent n. In 1..=8. Default 4.</summary>
        public int ScorrN;
        /// <summary>Artificial pressure Δq, as a fraction of the smoothing radius h. In [0,
        /// 0.9]. Default 0.2.</summary>
        public float ScorrDq;
        /// <summary>XSPH viscosity c, dimensionless, applied once per substep (0.01 water;
        /// larger is thicker, like honey). In [0, 1]. Default 0.01.</summary>
        public float Viscosity;
        /// <summary>Vorticity confinement ε_vort, dimensionless (scaled by the particle volume
        /// and h internally; 0 = off): puts back the swirl that damping removes. In [0,
        /// SINEW_MAX_FLUID_COEFFICIENT]. Default 0.</summary>
        public float Vorticity;
        /// <summary>Cohesion / surface tension γ (Akinci et al. 2013), dimensionless (0 = off):
        /// 1 lets a neighbour at the kernel's peak accelerate a particle at spacing × 3600 s⁻²
        /// (a spacing per 60 Hz frame per frame), for any substep count. In [0,
        /// SINEW_MAX_FLUID_COEFFICIENT]. Default 0.</summary>
        public float Cohesion;
        /// <summary>Adhesion β to solid particles (Akinci et al. 2013), dimensionless (0 =
        /// off): scaled as cohesion, weighted by the solid's volume over the particle's; water
        /// that wets the bodies it touches. In [0, SINEW_MAX_FLUID_COEFFICIENT]. Default
        /// 0.</summary>
        public float Adhesion;
        /// <summary>Radius with which the fluid's particles meet colliders; a value of 0 or
        /// more must also be at most the spacing. 0 projects the particle centres onto collider
        /// surfaces. In [0, SINEW_MAX_FLUID_SPACING] m; negative = spacing / 2. Default
        /// -1.</summary>
        public float CollisionRadius;
        /// <summary>Lifetime of an emitted particle (0 = forever). In [0,
        /// SINEW_MAX_FLUID_LIFETIME] s. Default 0.</summary>
        public float Lifetime;
        /// <summary>When an emitter needs a slot and the fluid is full: true removes the oldest
        /// particle, false skips the emission (counted in the stats' `refused`). Default 0 (0
        /// or 1).</summary>
        public bool RecycleOldest;
        /// <summary>The solid particles (with a radius) whose collision layers meet this mask
        /// take part in the fluid's density (two-way coupling: buoyancy and drag); all bits set
        /// = every layer. Default 0xFFFFFFFF.</summary>
        public uint CouplingMask;
        /// <summary>The density solves per second of simulated time, at least: a substep of h
        /// seconds runs ⌈rate·h / iterations⌉ Jacobi solves per iteration (at most 16), so long
        /// substeps keep the stiffness of short ones (one solve carries the floor's push only
        /// about two rows up the water; a pool 12 rows deep at 1 substep of 1/60 s and one
        /// solve boiled over). 480 is one solve per substep at the world's default of 8
        /// substeps of 1/60 s. 0: one solve per iteration, whatever the substep (Macklin &amp;
        /// Müller's scheme as published). With several fluids the largest rate counts. In [0,
        /// SINEW_MAX_FLUID_SOLVE_RATE] Hz. Default 480.</summary>
        public float SolveRate;
        // END GENERATED FluidDesc fields

        /// <summary>The library's defaults (water).</summary>
        public static FluidSettings Default
        {
            get { return NativeSettings.Default<FluidSettings, SinewFluidDesc>(); }
        }

        /// <summary>The native desc: the defaults (with their cookie) overwritten by these
        /// settings.</summary>
        public SinewFluidDesc ToNative()
        {
            return NativeSettings.ToNative<FluidSettings, SinewFluidDesc>(this);
        }

        /// <summary>The settings a native desc holds (e.g. one the library wrote).</summary>
        public static FluidSettings FromNative(SinewFluidDesc native)
        {
            var s = default(FluidSettings);
            s.Exchange(ref native, false);
            return s;
        }

        unsafe int INativeSettings<SinewFluidDesc>.InitNative(ref SinewFluidDesc d)
        {
            fixed (SinewFluidDesc* p = &d)
                return SinewNative.sinew_fluid_desc_init(p);
        }

        void INativeSettings<SinewFluidDesc>.Exchange(ref SinewFluidDesc d, bool toNative)
        {
            Exchange(ref d, toNative);
        }

        void Exchange(ref SinewFluidDesc d, bool toNative)
        {
            // BEGIN GENERATED FluidDesc exchange
            NativeSettings.Copy(ref d.rest_density, ref RestDensity, toNative);
            NativeSettings.Copy(ref d.spacing, ref Spacing, toNative);
            NativeSettings.Copy(ref d.smoothing_radius, ref SmoothingRadius, toNative);
            NativeSettings.Copy(ref d.capacity, ref Capacity, toNative);
            NativeSettings.Copy(ref d.relaxation, ref Relaxation, toNative);
            NativeSettings.Copy(ref d.scorr_k, ref ScorrK, toNative);
            NativeSettings.Copy(ref d.scorr_n, ref ScorrN, toNative);
            NativeSettings.Copy(ref d.scorr_dq, ref ScorrDq, toNative);
            NativeSettings.Copy(ref d.viscosity, ref Viscosity, toNative);
            NativeSettings.Copy(ref d.vorticity, ref Vorticity, toNative);
            NativeSettings.Copy(ref d.cohesion, ref Cohesion, toNative);
            NativeSettings.Copy(ref d.adhesion, ref Adhesion, toNative);
            NativeSettings.Copy(ref d.collision_radius, ref CollisionRadius, toNative);
            NativeSettings.Copy(ref d.lifetime, ref Lifetime, toNative);
            NativeSettings.Copy(ref d.recycle_oldest, ref RecycleOldest, toNative);
            NativeSettings.Copy(ref d.coupling_mask, ref CouplingMask, toNative);
            NativeSettings.Copy(ref d.solve_rate, ref SolveRate, toNative);
            // END GENERATED FluidDesc exchange
        }
    }

    /// <summary>An emitter of a fluid (<see cref="Fluid.AddEmitter"/>): a hose, a tap, rain.
    /// Move or retune it every frame with <see cref="Emitter.Set"/>.</summary>
    public struct EmitterSettings : INativeSettings<SinewEmitterDesc>
    {
        // BEGIN GENERATED EmitterDesc fields
        /// <summary>Where the particles appear (a SinewEmitterShape in C): a round nozzle (a
        /// hose, a tap) or a box (rain, a spring). Its size is in the fields its variant reads.
        /// Default 0 (a SinewEmitterShape).</summary>
        public SinewEmitterShape Shape;
        /// <summary>Nozzle: The radius of the disc the particles leave, centred on the emitter
        /// and facing its local +z axis, on a lattice of the fluid's spacing (at most
        /// MAX_NOZZLE_SPACINGS spacings). In [0, SINEW_MAX_COORDINATE] m. Default
        /// 0.1.</summary>
        public float Radius;
        /// <summary>Box: The box's half extents, in the emitter's frame: particles appear at
        /// deterministic pseudo-random points inside. Each component in [0,
        /// SINEW_MAX_COORDINATE] m. Default (0.1, 0.1, 0.1).</summary>
        public SinewVec3 HalfExtents;
        /// <summary>Centre, in the world. Each component in [-SINEW_MAX_COORDINATE,
        /// SINEW_MAX_COORDINATE] m. Default (0, 0, 0).</summary>
        public SinewVec3 Position;
        /// <summary>Orientation (a quaternion of length in [0.5, 2], normalised on input); a
        /// nozzle faces the local +z. Default (0, 0, 0, 1) (x, y, z, w).</summary>
        public SinewQuat Rotation;
        /// <summary>Speed along the emitter's local +z given to each new particle. In [0,
        /// SINEW_MAX_EMIT_SPEED] m/s. Default 2.</summary>
        public float Speed;
        /// <summary>Particles per second; 0 pauses the emitter. A nozzle passes at most speed ×
        /// its lattice points / spacing per second (520/s for the default 10 cm nozzle at 2 m/s
        /// and 5 cm spacing); a higher rate is capped there. In [0, SINEW_MAX_EMIT_RATE]
        /// particles/s. Default 500.</summary>
        public float Rate;
        // END GENERATED EmitterDesc fields

        /// <summary>The library's defaults.</summary>
        public static EmitterSettings Default
        {
            get { return NativeSettings.Default<EmitterSettings, SinewEmitterDesc>(); }
        }

        /// <summary>The native desc.</summary>
        public SinewEmitterDesc ToNative()
        {
            return NativeSettings.ToNative<EmitterSettings, SinewEmitterDesc>(this);
        }

        unsafe int INativeSettings<SinewEmitterDesc>.InitNative(ref SinewEmitterDesc d)
        {
            fixed (SinewEmitterDesc* p = &d)
                return SinewNative.sinew_emitter_desc_init(p);
        }

        void INativeSettings<SinewEmitterDesc>.Exchange(ref SinewEmitterDesc d, bool toNative)
        {
            // BEGIN GENERATED EmitterDesc exchange
            NativeSettings.CopyEnum(ref d.shape, ref Shape, toNative);
            NativeSettings.Copy(ref d.radius, ref Radius, toNative);
            NativeSettings.Copy(ref d.half_extents, ref HalfExtents, toNative);
            NativeSettings.Copy(ref d.position, ref Position, toNative);
            NativeSettings.Copy(ref d.rotation, ref Rotation, toNative);
            NativeSettings.Copy(ref d.speed, ref Speed, toNative);
            NativeSettings.Copy(ref d.rate, ref Rate, toNative);
            // END GENERATED EmitterDesc exchange
        }
    }

    /// <summary>A volume whose fluid particles are removed at the end of each step
    /// (<see cref="Fluid.AddKillVolume"/>): a drain, the bottom of the level.</summary>
    public struct KillVolumeSettings : INativeSettings<SinewKillVolumeDesc>
    {
        // BEGIN GENERATED KillVolumeDesc fields
        /// <summary>The volume (a SinewKillVolumeShape in C): an oriented box, a ball, or the
        /// half-space below a plane. Its size is in the fields its variant reads. Default 0 (a
        /// SinewKillVolumeShape).</summary>
        public SinewKillVolumeShape Shape;
        /// <summary>The box's or ball's centre, or a point of the half-space's plane, in the
        /// world. Each component in [-SINEW_MAX_COORDINATE, SINEW_MAX_COORDINATE] m. Default
        /// (0, 0, 0).</summary>
        public SinewVec3 Center;
        /// <summary>Box: The box's orientation (a quaternion of length in [0.5, 2], normalised
        /// on input). Default (0, 0, 0, 1) (x, y, z, w).</summary>
        public SinewQuat Rotation;
        /// <summary>Box: The box's half extents, along its rotated axes. Each component in [0,
        /// SINEW_MAX_COORDINATE] m. Default (1, 1, 1).</summary>
        public SinewVec3 HalfExtents;
        /// <summary>Sphere: The ball's radius. In [0, SINEW_MAX_COORDINATE] m. Default
        /// 1.</summary>
        public float Radius;
        /// <summary>HalfSpace: The half-space's plane normal (length in [0.5, 2], normalised on
        /// input): the particles on the side it points away from are removed. Default (0, 1,
        /// 0).</summary>
        public SinewVec3 Normal;
        // END GENERATED KillVolumeDesc fields

        /// <summary>The library's defaults (a 2 m box at the origin).</summary>
        public static KillVolumeSettings Default
        {
            get { return NativeSettings.Default<KillVolumeSettings, SinewKillVolumeDesc>(); }
        }

        /// <summary>The native desc.</summary>
        public SinewKillVolumeDesc ToNative()
        {
            return NativeSettings.ToNative<KillVolumeSettings, SinewKillVolumeDesc>(this);
        }

        unsafe int INativeSettings<SinewKillVolumeDesc>.InitNative(ref SinewKillVolumeDesc d)
        {
            fixed (SinewKillVolumeDesc* p = &d)
                return SinewNative.sinew_kill_volume_desc_init(p);
        }

        void INativeSettings<SinewKillVolumeDesc>.Exchange(ref SinewKillVolumeDesc d, bool toNative)
        {
            // BEGIN GENERATED KillVolumeDesc exchange
            NativeSettings.CopyEnum(ref d.shape, ref Shape, toNative);
            NativeSettings.Copy(ref d.center, ref Center, toNative);
            NativeSettings.Copy(ref d.rotation, ref Rotation, toNative);
            NativeSettings.Copy(ref d.half_extents, ref HalfExtents, toNative);
            NativeSettings.Copy(ref d.radius, ref Radius, toNative);
            NativeSettings.Copy(ref d.normal, ref Normal, toNative);
            // END GENERATED KillVolumeDesc exchange
        }
    }

    /// <summary>How <see cref="Fluid.ReadAnisotropy{T}(AnisotropySettings, float, T[])"/>
    /// turns each particle's neighbourhood into an ellipsoid (Yu &amp; Turk 2013).</summary>
    public struct AnisotropySettings : INativeSettings<SinewAnisotropyDesc>
    {
        // BEGIN GENERATED AnisotropyDesc fields
        /// <summary>The radius of a particle inside the bulk (k_s = 1); 0 takes half the
        /// fluid's spacing. In [0, SINEW_MAX_FLUID_SPACING] m; 0 = spacing / 2. Default
        /// 0.</summary>
        public float Radius;
        /// <summary>Laplacian smoothing λ of the centres: 0 draws each ellipsoid at its
        /// particle, 1 at the weighted mean of its neighbourhood (Yu &amp; Turk use 0.9 to 1).
        /// In [0, 1]. Default 0.9.</summary>
        public float Smoothing;
        /// <summary>k_r: the largest ratio of the longest to the shortest axis. In [1,
        /// SINEW_MAX_ELLIPSOID_RATIO]. Default 4.</summary>
        public float MaxRatio;
        /// <summary>k_s: scales every axis (1 draws the bulk's particles at `radius`). In (0,
        /// SINEW_MAX_ELLIPSOID_SCALE]. Default 1.</summary>
        public float Scale;
        /// <summary>k_n: the radius of an isolated particle (fewer than `min_neighbours`), as a
        /// fraction of `radius`. In [0, SINEW_MAX_ELLIPSOID_SCALE]. Default 0.5.</summary>
        public float IsolatedScale;
        /// <summary>N_ε: neighbours (within the smoothing radius) below which a particle is
        /// drawn as a sphere. A particle in the bulk has about 33 at the default smoothing
        /// radius (2 spacings; 12 in a planar world), one on a flat surface about half. In
        /// 0..=1000 particles. Default 6.</summary>
        public int MinNeighbours;
        // END GENERATED AnisotropyDesc fields

        /// <summary>The library's defaults (smoothing 0.9, longest axis at most 4 times the
        /// shortest, the bulk at half the spacing).</summary>
        public static AnisotropySettings Default
        {
            get { return NativeSettings.Default<AnisotropySettings, SinewAnisotropyDesc>(); }
        }

        /// <summary>The native desc.</summary>
        public SinewAnisotropyDesc ToNative()
        {
            return NativeSettings.ToNative<AnisotropySettings, SinewAnisotropyDesc>(this);
        }

        unsafe int INativeSettings<SinewAnisotropyDesc>.InitNative(ref SinewAnisotropyDesc d)
        {
            fixed (SinewAnisotropyDesc* p = &d)
                return SinewNative.sinew_anisotropy_desc_init(p);
        }

        void INativeSettings<SinewAnisotropyDesc>.Exchange(ref SinewAnisotropyDesc d, bool toNative)
        {
            // BEGIN GENERATED AnisotropyDesc exchange
            NativeSettings.Copy(ref d.radius, ref Radius, toNative);
            NativeSettings.Copy(ref d.smoothing, ref Smoothing, toNative);
            NativeSettings.Copy(ref d.max_ratio, ref MaxRatio, toNative);
            NativeSettings.Copy(ref d.scale, ref Scale, toNative);
            NativeSettings.Copy(ref d.isolated_scale, ref IsolatedScale, toNative);
            NativeSettings.Copy(ref d.min_neighbours, ref MinNeighbours, toNative);
            // END GENERATED AnisotropyDesc exchange
        }
    }

    /// <summary>How <see cref="Fluid.BuildSurface(SurfaceSettings, float)"/> samples the
    /// fluid for its surface mesh: cell size, kernel radius, level.</summary>
    public struct SurfaceSettings : INativeSettings<SinewSurfaceDesc>
    {
        // BEGIN GENERATED SurfaceDesc fields
        /// <summary>Cell size c of the sampling grid; 0 takes the fluid's spacing. At the call
        /// it must lie in [radius / 8, radius]: a smaller cell costs (radius / c)³ node updates
        /// per particle. In [0, 40] m; 0 = spacing. Default 0.</summary>
        public float CellSize;
        /// <summary>Kernel radius R of the colour field; 0 takes twice the fluid's spacing. At
        /// the call it must lie in [spacing, 4 spacing]: larger is smoother and rounder. In [0,
        /// 40] m; 0 = 2 spacing. Default 0.</summary>
        public float Radius;
        /// <summary>The level of the surface, as a fraction of the field inside the fluid (1):
        /// lower is fatter. In (0, 1). Default 0.5.</summary>
        public float Threshold;
        // END GENERATED SurfaceDesc fields

        /// <summary>The library's defaults (cells of one spacing, a kernel of two, the
        /// surface at half the bulk's field).</summary>
        public static SurfaceSettings Default
        {
            get { return NativeSettings.Default<SurfaceSettings, SinewSurfaceDesc>(); }
        }

        /// <summary>The native desc.</summary>
        public SinewSurfaceDesc ToNative()
        {
            return NativeSettings.ToNative<SurfaceSettings, SinewSurfaceDesc>(this);
        }

        unsafe int INativeSettings<SinewSurfaceDesc>.InitNative(ref SinewSurfaceDesc d)
        {
            fixed (SinewSurfaceDesc* p = &d)
                return SinewNative.sinew_surface_desc_init(p);
        }

        void INativeSettings<SinewSurfaceDesc>.Exchange(ref SinewSurfaceDesc d, bool toNative)
        {
            // BEGIN GENERATED SurfaceDesc exchange
            NativeSettings.Copy(ref d.cell_size, ref CellSize, toNative);
            NativeSettings.Copy(ref d.radius, ref Radius, toNative);
            NativeSettings.Copy(ref d.threshold, ref Threshold, toNative);
            // END GENERATED SurfaceDesc exchange
        }
    }

    /// <summary>Diffuse particles of a fluid (<see cref="Fluid.SetDiffuse"/>): spray, foam and
    /// bubbles (Ihmsen et al. 2012). Off while Capacity is 0 (the default).</summary>
    public struct DiffuseSettings : INativeSettings<SinewDiffuseDesc>
    {
        // BEGIN GENERATED DiffuseDesc fields
        /// <summary>Diffuse particles reserved when set (0 = off): a full set refuses new ones.
        /// In 0..=SINEW_MAX_FLUID_CAPACITY particles. Default 0.</summary>
        public int Capacity;
        /// <summary>Seconds each diffuse particle lives. In (0, SINEW_MAX_FLUID_LIFETIME] s.
        /// Default 2.</summary>
        public float Lifetime;
        /// <summary>k_ta: particles per second a fluid particle spawns at full trapped air and
        /// full kinetic energy. In [0, SINEW_MAX_DIFFUSE_RATE] 1/s. Default 50.</summary>
        public float TrappedAirRate;
        /// <summary>k_wc: particles per second at a full wave crest and full kinetic energy. In
        /// [0, SINEW_MAX_DIFFUSE_RATE] 1/s. Default 50.</summary>
        public float WaveCrestRate;
        /// <summary>τ_min of the trapped-air potential: below it a particle traps no air. In
        /// [0, 10000] m/s. Default 5.</summary>
        public float TrappedAirMin;
        /// <summary>τ_max of the trapped-air potential: above it, full. In [0, 10000] m/s.
        /// Default 20.</summary>
        public float TrappedAirMax;
        /// <summary>τ_min of the wave-crest potential (a curvature sum, dimensionless). In [0,
        /// 10000]. Default 2.</summary>
        public float WaveCrestMin;
        /// <summary>τ_max of the wave-crest potential. In [0, 10000]. Default 8.</summary>
        public float WaveCrestMax;
        /// <summary>τ_min of the kinetic energy per kilogram ½ v²: slower water spawns nothing.
        /// In [0, SINEW_MAX_DIFFUSE_ENERGY] J/kg. Default 5.</summary>
        public float EnergyMin;
        /// <summary>τ_max of the kinetic energy per kilogram. In [0, SINEW_MAX_DIFFUSE_ENERGY]
        /// J/kg. Default 50.</summary>
        public float EnergyMax;
        /// <summary>Fewer fluid neighbours than this: spray. In 0..=1000 particles. Default
        /// 6.</summary>
        public int SprayNeighbours;
        /// <summary>More fluid neighbours than this: a bubble. In 0..=1000 particles. Default
        /// 20.</summary>
        public int BubbleNeighbours;
        /// <summary>k_b: a bubble's buoyancy, in units of gravity (upwards). In [0, 100].
        /// Default 2.</summary>
        public float Buoyancy;
        /// <summary>k_d: the fraction of the fluid's velocity a bubble takes per step. In [0,
        /// 1]. Default 0.5.</summary>
        public float Drag;
        /// <summary>Seed of the spawning hash (the same seed, the same particles). Default
        /// 0x00000001.</summary>
        public uint Seed;
        // END GENERATED DiffuseDesc fields

        /// <summary>The library's defaults (capacity 0: off).</summary>
        public static DiffuseSettings Default
        {
            get { return NativeSettings.Default<DiffuseSettings, SinewDiffuseDesc>(); }
        }

        /// <summary>The native desc.</summary>
        public SinewDiffuseDesc ToNative()
        {
            return NativeSettings.ToNative<DiffuseSettings, SinewDiffuseDesc>(this);
        }

        /// <summary>Settings from a native desc (e.g. sinew_fluid_get_diffuse's).</summary>
        public static DiffuseSettings FromNative(SinewDiffuseDesc native)
        {
            var s = default(DiffuseSettings);
            Read(ref s, ref native);
            return s;
        }

        static void Read<T>(ref T settings, ref SinewDiffuseDesc native) where T : struct, INativeSettings<SinewDiffuseDesc>
        {
            settings.Exchange(ref native, false);
        }

        unsafe int INativeSettings<SinewDiffuseDesc>.InitNative(ref SinewDiffuseDesc d)
        {
            fixed (SinewDiffuseDesc* p = &d)
                return SinewNative.sinew_diffuse_desc_init(p);
        }

        void INativeSettings<SinewDiffuseDesc>.Exchange(ref SinewDiffuseDesc d, bool toNative)
        {
            // BEGIN GENERATED DiffuseDesc exchange
            NativeSettings.Copy(ref d.capacity, ref Capacity, toNative);
            NativeSettings.Copy(ref d.lifetime, ref Lifetime, toNative);
            NativeSettings.Copy(ref d.trapped_air_rate, ref TrappedAirRate, toNative);
            NativeSettings.Copy(ref d.wave_crest_rate, ref WaveCrestRate, toNative);
            NativeSettings.Copy(ref d.trapped_air_min, ref TrappedAirMin, toNative);
            NativeSettings.Copy(ref d.trapped_air_max, ref TrappedAirMax, toNative);
            NativeSettings.Copy(ref d.wave_crest_min, ref WaveCrestMin, toNative);
            NativeSettings.Copy(ref d.wave_crest_max, ref WaveCrestMax, toNative);
            NativeSettings.Copy(ref d.energy_min, ref EnergyMin, toNative);
            NativeSettings.Copy(ref d.energy_max, ref EnergyMax, toNative);
            NativeSettings.Copy(ref d.spray_neighbours, ref SprayNeighbours, toNative);
            NativeSettings.Copy(ref d.bubble_neighbours, ref BubbleNeighbours, toNative);
            NativeSettings.Copy(ref d.buoyancy, ref Buoyancy, toNative);
            NativeSettings.Copy(ref d.drag, ref Drag, toNative);
            NativeSettings.Copy(ref d.seed, ref Seed, toNative);
            // END GENERATED DiffuseDesc exchange
        }
    }
}

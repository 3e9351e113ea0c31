// A granular material (the idiomatic form of SinewParticleMaterial): friction, rolling
// resistance and cohesion between particles.

using Sinew.Native;

namespace Sinew
{
    /// <summary>A granular material (<see cref="World.SetParticleMaterial"/>): static and
    /// dynamic friction, rolling resistance and cohesion between particles (sand, gravel,
    /// snow). Start from <see cref="Default"/> (frictionless and dry); a pair of particles
    /// takes the mean of its two materials.</summary>
    public struct ParticleMaterialSettings : INativeSettings<SinewParticleMaterial>
    {
        // BEGIN GENERATED ParticleMaterial fields
        /// <summary>Coulomb coefficient below which a contact between particles sticks (μ_s).
        /// In [0, SINEW_MAX_FRICTION]. Default 0.</summary>
        public float StaticFriction;
        /// <summary>Coulomb coefficient of sliding between particles (μ_k, at most μ_s). In [0,
        /// SINEW_MAX_FRICTION]. Default 0.</summary>
        public float DynamicFriction;
        /// <summary>Rolling resistance of round grains (μ_r, the lever arm of the normal force
        /// over the radius): caps both friction coefficients, so a grain rolls over its partner
        /// where rolling is cheaper than sliding. 0 = the grains do not roll. In [0,
        /// SINEW_MAX_FRICTION]; 0 = no rolling. Default 0.</summary>
        public float RollingFriction;
        /// <summary>Tensile strength of the bulk material (wet sand 0.1–1 kPa, snow 1–100 kPa):
        /// contacts within a band of 10% of the radii sum attract with F = σ D² ε/(1 − ε)
        /// (Rumpf 1962, ε = 0.4, D = r_i + r_j). 0 = dry. In [0, SINEW_MAX_COHESION] Pa.
        /// Default 0.</summary>
        public float Cohesion;
        // END GENERATED ParticleMaterial fields

        /// <summary>The library's defaults (read from the library, so they never drift).</summary>
        public static ParticleMaterialSettings Default
        {
            get { return NativeSettings.Default<ParticleMaterialSettings, SinewParticleMaterial>(); }
        }

        /// <summary>The native desc (defaults with their cookie, overwritten by these settings).</summary>
        public SinewParticleMaterial ToNative()
        {
            return NativeSettings.ToNative<ParticleMaterialSettings, SinewParticleMaterial>(this);
        }

        /// <summary>The settings of a native material the library wrote.</summary>
        public static ParticleMaterialSettings FromNative(SinewParticleMaterial native)
        {
            return NativeSettings.FromNative<ParticleMaterialSettings, SinewParticleMaterial>(native);
        }

        unsafe int INativeSettings<SinewParticleMaterial>.InitNative(ref SinewParticleMaterial d)
        {
            fixed (SinewParticleMaterial* p = &d)
                return SinewNative.sinew_particle_material_init(p);
        }

        void INativeSettings<SinewParticleMaterial>.Exchange(ref SinewParticleMaterial d, bool toNative)
        {
            // BEGIN GENERATED ParticleMaterial exchange
            NativeSettings.Copy(ref d.static_friction, ref StaticFriction, toNative);
            NativeSettings.Copy(ref d.dynamic_friction, ref DynamicFriction, toNative);
            NativeSettings.Copy(ref d.rolling_friction, ref RollingFriction, toNative);
            NativeSettings.Copy(ref d.cohesion, ref Cohesion, toNative);
            // END GENERATED ParticleMaterial exchange
        }
    }

    /// <summary>A grain emitter's grains (<see cref="World.AddGrainEmitter"/>): how many it
    /// may make (its budget of reserved particles), their radius, density and collision
    /// filter. Start from <see cref="Default"/>; the stream is an
    /// <see cref="EmitterSettings"/>, the friction a <see cref="ParticleMaterialSettings"/>.</summary>
    public struct GrainEmitterSettings : INativeSettings<SinewGrainEmitterDesc>
    {
        // BEGIN GENERATED GrainEmitterDesc fields
        /// <summary>Grains the emitter may make in all: world particles reserved when it is
        /// added (inert until emitted); it stops when they are used. In
        /// 1..=SINEW_MAX_GRAIN_BUDGET grains. Default 1000.</summary>
        public int Budget;
        /// <summary>Radius of every grain (its contact radius). In (0, SINEW_MAX_FLUID_SPACING]
        /// m. Default 0.02.</summary>
        public float GrainRadius;
        /// <summary>Density of the grain's material (quartz sand 2650): a grain weighs ρ 4/3 π
        /// r³. In (0, SINEW_MAX_REST_DENSITY] kg/m³. Default 2650.</summary>
        public float GrainDensity;
        /// <summary>Collision group of the grains (0 = none; see the collision filters).
        /// Default 0x00000000.</summary>
        public uint Group;
        /// <summary>Collision layers the grains are on (bits). Default 0x00000001.</summary>
        public uint Layers;
        /// <summary>Collision layers the grains collide with (bits). Default
        /// 0xFFFFFFFF.</summary>
        public uint Mask;
        /// <summary>Grains of one group collide with each other (only matters with a group).
        /// Default 0 (0 or 1).</summary>
        public bool SelfCollision;
        // END GENERATED GrainEmitterDesc fields

        /// <summary>The library's defaults (read from the library, so they never drift).</summary>
        public static GrainEmitterSettings Default
        {
            get { return NativeSettings.Default<GrainEmitterSettings, SinewGrainEmitterDesc>(); }
        }

        /// <summary>The native desc (defaults with their cookie, overwritten by these settings).</summary>
        public SinewGrainEmitterDesc ToNative()
        {
            return NativeSettings.ToNative<GrainEmitterSettings, SinewGrainEmitterDesc>(this);
        }

        unsafe int INativeSettings<SinewGrainEmitterDesc>.InitNative(ref SinewGrainEmitterDesc d)
        {
            fixed (SinewGrainEmitterDesc* p = &d)
                return SinewNative.sinew_grain_emitter_desc_init(p);
        }

        void INativeSettings<SinewGrainEmitterDesc>.Exchange(ref SinewGrainEmitterDesc d, bool toNative)
        {
            // BEGIN GENERATED GrainEmitterDesc exchange
            NativeSettings.Copy(ref d.budget, ref Budget, toNative);
            NativeSettings.Copy(ref d.grain_radius, ref GrainRadius, toNative);
            NativeSettings.Copy(ref d.grain_density, ref GrainDensity, toNative);
            NativeSettings.Copy(ref d.group, ref Group, toNative);
            NativeSettings.Copy(ref d.layers, ref Layers, toNative);
            NativeSettings.Copy(ref d.mask, ref Mask, toNative);
            NativeSettings.Copy(ref d.self_collision, ref SelfCollision, toNative);
            // END GENERATED GrainEmitterDesc exchange
        }
    }
}

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
}

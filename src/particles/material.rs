//! Granular materials: friction, rolling and cohesion between particles (sand, gravel,
//! snow, grain, coins), which the particle–particle contacts (`crate::collision::contacts`,
//! the pair rule in `crate::kernels::contact::rub`) apply.
//!
//! * **Material** ([`ParticleMaterial`], per particle, set on a range by
//!   `World::set_particle_material`): static and dynamic Coulomb coefficients, a
//!   rolling resistance for round grains and a tensile strength (cohesion, Pa). Every
//!   particle starts frictionless and without cohesion; a world where no particle in
//!   the contact search has a material other than that runs the frictionless contact
//!   sum unchanged (the same bits).
//! * **Friction** (Macklin et al. 2014, "Unified Particle Physics for Real-Time
//!   Applications", section 6.1), at the position level in every projection of a
//!   pair that overlaps by `d = r_i + r_j − |x_i − x_j| > 0`: with `Δx` the relative
//!   displacement of the two particles since the start of the substep (the hot
//!   displacements `d_i − d_j`, normal corrections included) and `Δx_t` its part
//!   tangent to the contact normal n, the pair removes all of `Δx_t` when
//!   `|Δx_t| < μ_s d` (static: the contact sticks) and the fraction
//!   `min(μ_k d / |Δx_t|, 1)` of it otherwise (kinetic). Particle i takes the share
//!   `s_i = w_i / (w_i + w_j)` of the removal (the contact's normal share, unyielding
//!   factors included), j the rest in the opposite direction, so the pair's
//!   momentum is unchanged, and the removal never exceeds the relative tangential
//!   displacement, so friction only takes kinetic energy away. The correction joins
//!   the normal one in the particle's average over its active contacts.
//! * **Combine rule**: a pair's coefficients (static, dynamic, tensile strength) are
//!   the arithmetic means of the two particles' values, the default combine mode of
//!   PhysX (`PxCombineMode::eAVERAGE`) and of Obi's collision materials, so a
//!   frictionless particle against a grain of friction μ gets μ/2 (not 0, as the
//!   geometric mean would give: a grain sliding on ice still feels its own roughness).
//! * **Rolling** (an approximation: particles carry no spin). A contact's friction acts
//!   on the relative translation of the two particles, which is how grains behave
//!   whose rolling is fully resisted (angular sand). A round grain (glass beads,
//!   pellets, coins on edge) rolls over its partner instead of sliding where rolling
//!   is cheaper: a rolling resistance `μ_r` (the rolling-resistance coefficient, the
//!   lever arm of the normal force over the radius: the resisting torque is
//!   `μ_r r N`) caps the particle's sliding coefficients, `μ_s' = min(μ_s, μ_r)` and
//!   `μ_k' = min(μ_k, μ_r)`, before the pair's mean. So a round grain on a slope
//!   rolls down above `atan μ_r` as a ball does, and round grains pile lower. The
//!   value 0 (the default) means the grains do not roll (no cap).
//! * **Cohesion** (wet sand, snow): the tensile strength σ (Pa) of the bulk material
//!   becomes a force per contact by Rumpf's relation (H. Rumpf, 1962, "The strength
//!   of granules and agglomerates"), `σ = (1 − ε)/ε · F / D²` for spheres of diameter
//!   D at porosity ε (with the coordination number k ≈ π/ε), taken at the porosity of
//!   a random packing [`COHESION_POROSITY`]: `F = σ D² ε/(1 − ε)`, with `D = r_i + r_j`.
//!   A pair that does not overlap but is closer than the band
//!   `(1 + COHESION_BAND)(r_i + r_j)` is pulled together by F: per projection the gap
//!   g closes by `min(g, (w_i + w_j) F h² / iterations)` (the displacement F gives the
//!   pair over a substep of h seconds, spread over the iterations), shared like the
//!   normal correction; beyond the band the bond is broken. So a grain hangs below
//!   another while `m g < F`.

use crate::limits::{MAX_COHESION, MAX_FRICTION};

/// Porosity ε of a random packing of spheres (Rumpf's relation for cohesion: see the
/// module doc).
pub const COHESION_POROSITY: f32 = 0.4;

/// Width of the cohesion band beyond contact, as a fraction of `r_i + r_j` (m/m).
pub const COHESION_BAND: f32 = 0.1;

crate::settings! {
    /// A granular material: friction, rolling resistance and cohesion between particles
    /// (see `World::set_particle_material`). The default is frictionless and without
    /// cohesion (plain particle contacts). Pairs combine by the arithmetic mean.
    pub struct ParticleMaterial => SinewParticleMaterial, ParticleMaterialSettings,
        cookie 0x5E1E_0501, path "crate::particles::material::ParticleMaterial",
        check ParticleMaterial::check_relations {
        /// Coulomb coefficient below which a contact between particles sticks (μ_s).
        static_friction: f32 = 0.0 => unit "", min >= 0.0, max <= MAX_FRICTION;
        /// Coulomb coefficient of sliding between particles (μ_k, at most μ_s).
        dynamic_friction: f32 = 0.0 => unit "", min >= 0.0, max <= MAX_FRICTION;
        /// Rolling resistance of round grains (μ_r, the lever arm of the normal force
        /// over the radius): caps both friction coefficients, so a grain rolls over its
        /// partner where rolling is cheaper than sliding. 0 = the grains do not roll.
        rolling_friction: f32 = 0.0 => unit "", min >= 0.0, max <= MAX_FRICTION,
            auto zero "no rolling";
        /// Tensile strength of the bulk material (wet sand 0.1–1 kPa, snow 1–100 kPa):
        /// contacts within a band of 10% of the radii sum attract with
        /// F = σ D² ε/(1 − ε) (Rumpf 1962, ε = 0.4, D = r_i + r_j). 0 = dry.
        cohesion: f32 = 0.0 => unit "Pa", min >= 0.0, max <= MAX_COHESION;
    }
}

impl ParticleMaterial {
    /// Dynamic friction above static friction is refused (a sliding contact would
    /// resist more than a sticking one).
    fn check_relations(&self) -> crate::error::Result<()> {
        if self.dynamic_friction > self.static_friction {
            return Err(crate::error::Error::invalid(format!(
                "dynamic_friction {} exceeds static_friction {}: must be at most it",
                self.dynamic_friction, self.static_friction
            )));
        }
        Ok(())
    }

    /// Whether the material changes the contacts (friction or cohesion).
    #[inline]
    pub(crate) fn is_plain(&self) -> bool {
        self.static_friction == 0.0 && self.dynamic_friction == 0.0 && self.cohesion == 0.0
    }

    /// The per-particle values the contact sum reads (rolling folded in).
    #[inline]
    pub(crate) fn grain(&self) -> Grain {
        let cap = if self.rolling_friction > 0.0 {
            self.rolling_friction
        } else {
            f32::INFINITY
        };
        Grain {
            static_friction: self.static_friction.min(cap),
            dynamic_friction: self.dynamic_friction.min(cap),
            cohesion: self.cohesion,
        }
    }
}

/// A particle's friction and cohesion as the contact sum reads them: the sliding
/// coefficients capped by the rolling resistance, the tensile strength (Pa).
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub(crate) struct Grain {
    pub static_friction: f32,
    pub dynamic_friction: f32,
    pub cohesion: f32,
}

/// The attraction (N) of a pair of tensile strength `sigma` (Pa, the pair's mean)
/// whose radii sum to `rs` (m): Rumpf's `F = σ D² ε/(1 − ε)` with D = rs.
#[inline(always)]
pub(crate) fn cohesion_force(sigma: f32, rs: f32) -> f32 {
    sigma * (rs * rs) * (COHESION_POROSITY / (1.0 - COHESION_POROSITY))
}

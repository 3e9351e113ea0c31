//! Diffuse particles: spray, foam and bubbles (Ihmsen et al. 2012, "Unified spray,
//! foam and bubble simulation for particle-based fluids"), one-way: the fluid moves
//! them, they never move the fluid.
//!
//! At the end of each step (before retirement), over a fluid particle i's neighbours j
//! within h (its slot's list of the last substep), with `W(r) = 1 − r / h`:
//!
//! ```text
//! n_i   = normalise(Σ_j (x_i − x_j) W)                          outward normal
//! I_ta  = Σ_j |v_ij| (1 − v̂_ij · x̂_ij) W                         trapped air (m/s)
//! I_wc  = Σ_j (1 − n_i · n_j) W over j with x̂_ji · n_i < 0,      wave crest
//!         when v̂_i · n_i ≥ 0.6 (0 otherwise)
//! I_k   = ½ |v_i|²                                             kinetic energy (J/kg)
//! n_d   = Φ(I_k) (k_ta Φ(I_ta) + k_wc Φ(I_wc)) Δt,  Φ(I) = (min(I, τ_max) − min(I, τ_min)) / (τ_max − τ_min)
//! ```
//!
//! i spawns `floor(n_d + u)` particles (u uniform in [0, 1) from a hash of the seed,
//! the step count and i: no global generator), each at a point of the cylinder of
//! radius s / 2 around i along v_i and of length |v_i| Δt, with the velocity v_i (Ihmsen
//! et al. add the radial offset to it as well). A diffuse particle with fewer than `spray_neighbours` fluid
//! particles within h is spray (ballistic: gravity only), with more than
//! `bubble_neighbours` a bubble (`v += Δt (−k_b g) + k_d (ṽ − v)`, ṽ the kernel-weighted
//! fluid velocity around it), else foam (moves with ṽ); it lives `lifetime` seconds
//! (every kind ages; Ihmsen et al. age foam only and let spray and bubbles turn into
//! foam). New particles are refused (counted) when `capacity` is reached.

use crate::error::{try_reserve, Result};
use crate::limits::{MAX_DIFFUSE_ENERGY, MAX_DIFFUSE_RATE, MAX_FLUID_CAPACITY, MAX_FLUID_LIFETIME};
use crate::math::{Vec3, Vec3A, Vec4};
use crate::solver::parallel::{Blocks, Executor};

use super::{grow, Gathered, GridView, CHUNK};
use crate::fluid::FluidId;

crate::settings! {
    /// Diffuse particles of a fluid (Ihmsen et al. 2012): spray, foam and bubbles
    /// spawned where air is trapped and at wave crests of fast water, with their own
    /// capacity and lifetime. Off while `capacity` is 0 (the default).
    pub struct DiffuseDesc => SinewDiffuseDesc, DiffuseSettings, cookie 0x5E1E_0405,
        path "crate::fluid::DiffuseDesc", check DiffuseDesc::check_relations {
        /// Diffuse particles reserved when set (0 = off): a full set refuses new ones.
        capacity: u32 = 0 => unit "particles", max <= MAX_FLUID_CAPACITY;
        /// Seconds each diffuse particle lives.
        lifetime: f32 = 2.0 => unit "s", min > 0.0, max <= MAX_FLUID_LIFETIME;
        /// k_ta: particles per second a fluid particle spawns at full trapped air and
        /// full kinetic energy.
        trapped_air_rate: f32 = 50.0 => unit "1/s", min >= 0.0, max <= MAX_DIFFUSE_RATE;
        /// k_wc: particles per second at a full wave crest and full kinetic energy.
        wave_crest_rate: f32 = 50.0 => unit "1/s", min >= 0.0, max <= MAX_DIFFUSE_RATE;
        /// τ_min of the trapped-air potential: below it a particle traps no air.
        trapped_air_min: f32 = 5.0 => unit "m/s", min >= 0.0, max <= 10000.0;
        /// τ_max of the trapped-air potential: above it, full.
        trapped_air_max: f32 = 20.0 => unit "m/s", min >= 0.0, max <= 10000.0;
        /// τ_min of the wave-crest potential (a curvature sum, dimensionless).
        wave_crest_min: f32 = 2.0 => unit "", min >= 0.0, max <= 10000.0;
        /// τ_max of the wave-crest potential.
        wave_crest_max: f32 = 8.0 => unit "", min >= 0.0, max <= 10000.0;
        /// τ_min of the kinetic energy per kilogram ½ v²: slower water spawns nothing.
        energy_min: f32 = 5.0 => unit "J/kg", min >= 0.0, max <= MAX_DIFFUSE_ENERGY;
        /// τ_max of the kinetic energy per kilogram.
        energy_max: f32 = 50.0 => unit "J/kg", min >= 0.0, max <= MAX_DIFFUSE_ENERGY;
        /// Fewer fluid neighbours than this: spray.
        spray_neighbours: u32 = 6 => unit "particles", max <= 1000;
        /// More fluid neighbours than this: a bubble.
        bubble_neighbours: u32 = 20 => unit "particles", max <= 1000;
        /// k_b: a bubble's buoyancy, in units of gravity (upwards).
        buoyancy: f32 = 2.0 => unit "", min >= 0.0, max <= 100.0;
        /// k_d: the fraction of the fluid's velocity a bubble takes per step.
        drag: f32 = 0.5 => unit "", min >= 0.0, max <= 1.0;
        /// Seed of the spawning hash (the same seed, the same particles).
        seed: u32 = 1 => unit "";
    }
}

/// A diffuse particle's kind (by its fluid neighbours).
#[repr(u32)]
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum DiffuseKind {
    /// Few neighbours: in the air, ballistic.
    #[default]
    Spray = 0,
    /// At the surface: carried by the fluid.
    Foam = 1,
    /// Inside the fluid: rises.
    Bubble = 2,
}

/// One diffuse particle as the readback sees it.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct DiffuseParticle {
    /// m
    pub position: Vec3,
    /// m/s
    pub velocity: Vec3,
    /// Seconds left to live.
    pub lifetime: f32,
    pub kind: DiffuseKind,
}

/// Counters of a fluid's diffuse particles.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct DiffuseStats {
    /// Live diffuse particles.
    pub count: u32,
    /// Spawned since the settings were set.
    pub spawned: u64,
    /// Refused because the set was full.
    pub refused: u64,
}

impl DiffuseDesc {
    /// The ranges relative to another field: τ_min ≤ τ_max, spray ≤ bubble neighbours.
    pub(crate) fn check_relations(&self) -> Result<()> {
        let pairs = [
            ("trapped_air", self.trapped_air_min, self.trapped_air_max),
            ("wave_crest", self.wave_crest_min, self.wave_crest_max),
            ("energy", self.energy_min, self.energy_max),
        ];
        for (name, lo, hi) in pairs {
            if lo > hi {
                return Err(crate::Error::invalid(format!(
                    "{name}_min {lo} must be at most {name}_max {hi}"
                )));
            }
        }
        if self.spray_neighbours > self.bubble_neighbours {
            return Err(crate::Error::invalid(format!(
                "spray_neighbours {} must be at most bubble_neighbours {}",
                self.spray_neighbours, self.bubble_neighbours
            )));
        }
        Ok(())
    }
}

/// The clamped potential Φ(I) in [0, 1].
fn phi(i: f32, lo: f32, hi: f32) -> f32 {
    if hi > lo {
        (i.min(hi) - i.min(lo)) / (hi - lo)
    } else {
        f32::from(i >= hi)
    }
}

/// Whether a particle of energy potential `e` and uniform number `u` spawns nothing
/// whatever its other potentials: ⌊n_d + u⌋ = 0 for every n_d = e (k_ta Φ_ta + k_wc
/// Φ_wc) Δt with Φ in [0, 1] and `max_rate` = k_ta + k_wc (the same operations with
/// each Φ at 1; rounding is monotonic, so this is never below n_d as computed).
#[inline]
fn spawns_none(e: f32, max_rate: f32, dt: f32, u: f32) -> bool {
    e * max_rate * dt + u < 1.0
}

/// A uniform number in [0, 1) from a 64-bit key (SplitMix64's finaliser).
fn uniform(key: u64) -> f32 {
    let mut z = key.wrapping_add(0x9E37_79B9_7F4A_7C15);
    z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
    z ^= z >> 31;
    (z >> 40) as f32 / (1u64 << 24) as f32
}

/// The diffuse particles of one fluid.
pub(crate) struct Diffuse {
    pub fluid: FluidId,
    pub desc: DiffuseDesc,
    pub particles: Vec<DiffuseParticle>,
    pub stats: DiffuseStats,
    /// Steps run (a key of the spawning hash).
    steps: u64,
    /// Per live fluid particle: the number it spawns this step.
    spawn: Vec<u32>,
    /// Per slot of the grid: the outward normal (w = 1 when defined, 0 when not, −1
    /// while not made: slow water's, made only where a wave crest reads it).
    normal: Vec<Vec4>,
}

/// What a step of the diffuse particles needs from the world.
pub(crate) struct StepInput<'a> {
    pub grid: &'a GridView<'a>,
    pub live: std::ops::Range<usize>,
    pub spacing: f32,
    pub h: f32,
    pub gravity: Vec3,
    pub dt: f32,
    pub planar: Option<f32>,
    pub exec: &'a Executor,
}

impl Diffuse {
    /// New diffuse particles for `fluid`, room reserved for `desc.capacity` of them and
    /// the scratch of a fluid of `fluid_capacity` particles in a world of `slots`.
    pub fn new(
        fluid: FluidId,
        desc: DiffuseDesc,
        fluid_capacity: usize,
        slots: usize,
    ) -> Result<Diffuse> {
        let mut d = Diffuse {
            fluid,
            desc,
            particles: Vec::new(),
            stats: DiffuseStats::default(),
            steps: 0,
            spawn: Vec::new(),
            normal: Vec::new(),
        };
        try_reserve(
            &mut d.particles,
            desc.capacity as usize,
            "diffuse particles",
        )?;
        grow(&mut d.spawn, fluid_capacity, 0)?;
        grow(&mut d.normal, slots, Vec4::ZERO)?;
        Ok(d)
    }

    /// One step: the live diffuse particles move and age (the dead removed, in order),
    /// then the fluid's particles spawn new ones. `g` holds the fluid's positions and
    /// velocities in slot order.
    pub fn step(&mut self, g: &Gathered, s: &StepInput<'_>) -> Result<()> {
        self.steps += 1;
        let m = s.grid.slots();
        grow(&mut self.normal, m, Vec4::ZERO)?;
        grow(&mut self.spawn, s.live.len(), 0)?;
        let (pos, vel) = (&g.pos[..m], &g.vel[..m]);
        self.advect(pos, vel, s);
        self.stats.count = self.particles.len() as u32;
        if m == 0 {
            return Ok(());
        }
        self.potentials(pos, vel, s);
        self.emit(pos, vel, s);
        Ok(())
    }

    /// Moves, classifies and ages the live diffuse particles; removes the dead.
    fn advect(&mut self, pos: &[Vec4], vel: &[Vec4], s: &StepInput<'_>) {
        let d = self.desc;
        let (h2, inv_h, dt) = (s.h * s.h, 1.0 / s.h, s.dt);
        let n = self.particles.len();
        let threads = if n >= 4 * CHUNK { s.exec.threads() } else { 1 };
        let grid = s.grid;
        s.exec.for_items(
            threads,
            Blocks::new(&mut self.particles[..n], CHUNK),
            |_, ps| {
                for p in ps.iter_mut() {
                    let x = Vec3A::from(p.position) - grid.origin;
                    let (mut count, mut sw, mut sv) = (0u32, 0.0f32, Vec3::ZERO);
                    if grid.slots() > 0 {
                        grid.for_candidates(x, |j| {
                            let q = pos[j];
                            if q.w == 0.0 {
                                return;
                            }
                            let r2 = (Vec3A::from_vec4(q) - x).length_squared();
                            if r2 < h2 {
                                let w = 1.0 - r2.sqrt() * inv_h;
                                count += 1;
                                sw += w;
                                sv += vel[j].truncate() * w;
                            }
                        });
                    }
                    let fluid_v = if sw > 0.0 { sv / sw } else { p.velocity };
                    p.kind = if count < d.spray_neighbours {
                        DiffuseKind::Spray
                    } else if count > d.bubble_neighbours {
                        DiffuseKind::Bubble
                    } else {
                        DiffuseKind::Foam
                    };
                    p.velocity = match p.kind {
                        DiffuseKind::Spray => p.velocity + s.gravity * dt,
                        DiffuseKind::Foam => fluid_v,
                        DiffuseKind::Bubble => {
                            p.velocity - s.gravity * (d.buoyancy * dt)
                                + (fluid_v - p.velocity) * d.drag
                        }
                    };
                    if let Some(z) = s.planar {
                        p.velocity.z = 0.0;
                        p.position.z = z;
                    }
                    p.position += p.velocity * dt;
                    p.lifetime -= dt;
                    if !(p.position.is_finite() && p.velocity.is_finite()) {
                        p.lifetime = 0.0;
                    }
                }
            },
        );
        self.particles.retain(|p| p.lifetime > 0.0);
    }

    /// The normals of the fluid's slots that may spawn (the others' when a wave crest
    /// reads them), then each live fluid particle's spawn count.
    ///
    /// A particle spawns ⌊n_d + u⌋ with u its uniform number of the step, and n_d is at
    /// most Φ(I_k) (k_ta + k_wc) Δt (each Φ ≤ 1): where that bound plus u stays under
    /// 1 it spawns none, and its potentials are not summed. The bound's operations
    /// are n_d's with each Φ replaced by 1, and rounding is monotonic, so the bound is
    /// never below n_d as computed: the counts are the same bits as with every sum
    /// taken. At the defaults (k_ta + k_wc = 100 per second, steps of 1/60 s) a
    /// particle is summed only when u ≥ 1 − 1.67 Φ(I_k): one in ten at Φ(I_k) = 0.06
    /// (3.9 m/s).
    fn potentials(&mut self, pos: &[Vec4], vel: &[Vec4], s: &StepInput<'_>) {
        let grid = s.grid;
        let m = grid.slots();
        let (h2, inv_h) = (s.h * s.h, 1.0 / s.h);
        let d = self.desc;
        let (seed, step) = (u64::from(d.seed), self.steps);
        let max_rate = d.trapped_air_rate + d.wave_crest_rate;
        // The energy potential of particle `i` at velocity `v` and its uniform number
        // when it may spawn this step (None when it cannot).
        let may_spawn = |i: usize, v: Vec3| -> Option<(f32, f32)> {
            let e = phi(0.5 * v.length_squared(), d.energy_min, d.energy_max);
            if e == 0.0 {
                return None;
            }
            let u = uniform(seed ^ (step << 32) ^ ((i as u64) << 1) ^ 0x5EED);
            (!spawns_none(e, max_rate, s.dt, u)).then_some((e, u))
        };
        let threads = if m >= 4 * CHUNK { s.exec.threads() } else { 1 };
        s.exec.for_items(
            threads,
            Blocks::new(&mut self.normal[..m], CHUNK),
            |c, ns| {
                for (k, out) in ns.iter_mut().enumerate() {
                    let k = c * CHUNK + k;
                    // Water that cannot spawn this step (slow water, most of the
                    // fast): its normal is only read at a crest beside it, and made
                    // there.
                    let i = grid.particle[k] as usize;
                    *out = if pos[k].w != 0.0 && may_spawn(i, vel[k].truncate()).is_some() {
                        normal_of(grid, pos, k, h2, inv_h, s.h)
                    } else {
                        UNMADE
                    };
                }
            },
        );
        let normal = &self.normal[..m];
        let (first, count) = (s.live.start, s.live.len());
        let threads = if count >= 4 * CHUNK {
            s.exec.threads()
        } else {
            1
        };
        s.exec.for_items(
            threads,
            Blocks::new(&mut self.spawn[..count], CHUNK),
            |c, out| {
                for (k, n_out) in out.iter_mut().enumerate() {
                    let local = c * CHUNK + k;
                    let i = first + local;
                    *n_out = 0;
                    let Some(slot) = grid.slot(i) else {
                        continue;
                    };
                    let (p, v) = (pos[slot], vel[slot].truncate());
                    if p.w == 0.0 {
                        continue;
                    }
                    let Some((e, u)) = may_spawn(i, v) else {
                        continue;
                    };
                    let x = Vec3A::from_vec4(p);
                    let ni = Vec3A::from_vec4(normal[slot]);
                    let v_dir = v.normalize_or_zero();
                    let crest = normal[slot].w != 0.0 && Vec3::from(ni).dot(v_dir) >= 0.6;
                    let (mut ta, mut wc) = (0.0f32, 0.0f32);
                    for &j in grid.list(slot) {
                        let j = j as usize;
                        let q = pos[j];
                        let dx = x - Vec3A::from_vec4(q);
                        let r2 = dx.length_squared();
                        if q.w == 0.0 || r2 >= h2 || r2 == 0.0 {
                            continue;
                        }
                        let r = r2.sqrt();
                        let w = 1.0 - r * inv_h;
                        let dir = Vec3::from(dx / r);
                        let vij = v - vel[j].truncate();
                        let speed = vij.length();
                        if speed > 0.0 {
                            ta += speed * (1.0 - (vij / speed).dot(dir)) * w;
                        }
                        if crest && (-dir).dot(Vec3::from(ni)) < 0.0 {
                            let nj = match normal[j] {
                                n if n.w == UNMADE.w => normal_of(grid, pos, j, h2, inv_h, s.h),
                                n => n,
                            };
                            if nj.w != 0.0 {
                                wc += (1.0 - ni.dot(Vec3A::from_vec4(nj))) * w;
                            }
                        }
                    }
                    let rate = d.trapped_air_rate * phi(ta, d.trapped_air_min, d.trapped_air_max)
                        + d.wave_crest_rate * phi(wc, d.wave_crest_min, d.wave_crest_max);
                    let nd = e * rate * s.dt;
                    let spawned = (nd + u).floor();
                    *n_out = if spawned.is_finite() {
                        spawned.clamp(0.0, 1024.0) as u32
                    } else {
                        0
                    };
                }
            },
        );
    }

    /// Adds the spawned particles, in particle order, while there is room: each at a
    /// point of the cylinder of radius s / 2 around its fluid particle along the
    /// particle's velocity (angle, radius and height from the hash), with the
    /// particle's velocity.
    fn emit(&mut self, pos: &[Vec4], vel: &[Vec4], s: &StepInput<'_>) {
        let grid = s.grid;
        let (seed, step) = (u64::from(self.desc.seed), self.steps);
        let cap = self.desc.capacity as usize;
        let radius = 0.5 * s.spacing;
        for local in 0..s.live.len() {
            let n = self.spawn[local];
            if n == 0 {
                continue;
            }
            let i = s.live.start + local;
            let Some(slot) = grid.slot(i) else {
                continue;
            };
            let x = Vec3::from(Vec3A::from_vec4(pos[slot]) + grid.origin);
            let v = vel[slot].truncate();
            let dir = v.normalize_or_zero();
            let (e1, e2) = if dir == Vec3::ZERO {
                (Vec3::X, Vec3::Y)
            } else {
                let e1 = dir.any_orthonormal_vector();
                (e1, dir.cross(e1))
            };
            for q in 0..n {
                if self.particles.len() >= cap {
                    self.stats.refused += u64::from(n - q);
                    break;
                }
                let key = seed ^ (step << 32) ^ ((i as u64) << 12) ^ (u64::from(q) << 2);
                let angle = uniform(key) * std::f32::consts::TAU;
                let r = radius * uniform(key ^ 1).sqrt();
                let mut radial = (e1 * angle.cos() + e2 * angle.sin()) * r;
                if s.planar.is_some() {
                    radial.z = 0.0;
                }
                self.particles.push(DiffuseParticle {
                    position: x + radial + v * (uniform(key ^ 2) * s.dt),
                    velocity: v,
                    lifetime: self.desc.lifetime,
                    kind: DiffuseKind::Spray,
                });
                self.stats.spawned += 1;
            }
        }
        self.stats.count = self.particles.len() as u32;
    }
}

/// A slot's entry in `Diffuse::normal` before its normal is made (w = 1: defined,
/// w = 0: undefined, no neighbours to point away from).
const UNMADE: Vec4 = Vec4::new(0.0, 0.0, 0.0, -1.0);

/// The outward normal of slot `k` (w = 1), zero where it is undefined (w = 0): the
/// normalised Σ_j (x_k − x_j) W over the fluid's slots in its list within h.
fn normal_of(grid: &GridView<'_>, pos: &[Vec4], k: usize, h2: f32, inv_h: f32, h: f32) -> Vec4 {
    let p = pos[k];
    if p.w == 0.0 {
        return Vec4::ZERO;
    }
    let x = Vec3A::from_vec4(p);
    let mut sum = Vec3A::ZERO;
    for &j in grid.list(k) {
        let q = pos[j as usize];
        let d = x - Vec3A::from_vec4(q);
        let r2 = d.length_squared();
        if q.w != 0.0 && r2 < h2 {
            sum += d * (1.0 - r2.sqrt() * inv_h);
        }
    }
    let l = sum.length();
    if l > 1.0e-6 * h {
        (sum / l).extend(1.0)
    } else {
        Vec4::ZERO
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Wherever the bound says a particle spawns nothing, the count computed with its
    /// potentials is 0, over energies, rates, steps and potentials drawn at random
    /// (the potentials' own formula, at and between their ends, so exactly 1 too);
    /// and the bound is not vacuous: it spares some particles, and others spawn.
    #[test]
    fn the_spawn_bound_never_spares_a_particle_that_spawns() {
        let mut key = 7u64;
        let mut next = || {
            key += 1;
            uniform(key.wrapping_mul(0x9E37_79B9))
        };
        let (mut spared, mut spawned) = (0, 0);
        for _ in 0..200_000 {
            let (lo, hi) = (20.0 * next(), 20.0 + 40.0 * next());
            let e = phi(60.0 * next(), lo, hi);
            let (k_ta, k_wc) = (200.0 * next(), 200.0 * next());
            let dt = [1.0 / 30.0, 1.0 / 60.0, 1.0 / 240.0][(3.0 * next()) as usize];
            let [p_ta, p_wc] = [0; 2].map(|_| phi(30.0 * next(), 5.0, 20.0));
            let u = next();
            let n = (e * (k_ta * p_ta + k_wc * p_wc) * dt + u).floor();
            if spawns_none(e, k_ta + k_wc, dt, u) {
                assert_eq!(
                    n, 0.0,
                    "e {e}, rates {k_ta} {k_wc}, potentials {p_ta} {p_wc}, dt {dt}, u {u}"
                );
                spared += 1;
            } else if n > 0.0 {
                spawned += 1;
            }
        }
        assert!(
            spared > 10_000 && spawned > 10_000,
            "{spared} spared, {spawned} spawned"
        );
    }
}

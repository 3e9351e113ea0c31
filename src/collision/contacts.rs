//! Particle–particle contacts: a Jacobi projection of the unilateral contact
//! constraints over the complete neighbour lists of [`super::neighbours`].
//!
//! * **Neighbours**: built at the start of each step and updated inside it whenever a
//!   particle leaves its skin (partially: a re-anchored, roaming particle reads its
//!   own new list, the others skip its old entries and read their side pairs), so
//!   every pair that overlaps at a projection is listed (no cap on the neighbour
//!   count); see the module doc of `neighbours.rs`.
//! * **Project** (each iteration, in cell order): `C = |x_i − x_j| − (r_i + r_j) ≥ 0`.
//!   The overlap test is on squared distances; the square root is taken only for
//!   pairs that overlap. Particle i gathers `s_i · max(−C, 0) · n` over its
//!   neighbours, `n = (x_i − x_j)/|x_i − x_j|`, with its share `s_i = w_i / (w_i + w_j)`
//!   (mass weighting) scaled by the pair's mass-splitting factor
//!   `(w_i + w_j) / (n_i w_i + n_j w_j)` (Tonge et al. 2012; n: the particles'
//!   active contacts in this projection, counted by a first pass over the same
//!   lists), and moves by that sum. A particle of n contacts thus takes part in each
//!   with n times its inverse mass: where counts are equal this is the average over
//!   the contacts of the UE 4.26 Niagara Advanced PBD sample (Epic Games, 2020), and
//!   the two sides of every pair move by `w_i λ` and `w_j λ` with one λ, so the pass
//!   conserves momentum (averaging each side over its own count does not, and a
//!   collider under a pile then carried a third more than its weight). The normal
//!   push is over-relaxed, `min(ω f, 1)` of it for the splitting factor f
//!   (`kernels::contact::OVER_RELAXATION`, ω = 1.5, Macklin et al. 2014 §4.2):
//!   splitting gives a particle with more contacts than its partner less of each
//!   overlap than the average did, and ω restores the convergence.
//!   Unyielding (the same sample): when only j is unyielding,
//!   `s_i = lerp(s_i, 1, u_j)`; when only i is, `s_i = lerp(s_i, 0, u_i)` (so u = 1
//!   pushes others without being pushed). Every particle reads the positions gathered
//!   at the start of the projection and writes only its own correction (fast
//!   partners of a slow particle are added in a short serial pass, in a fixed order),
//!   so the result does not depend on the thread count.
//! * **Granular materials** (`crate::particles::material`): when some particle in the
//!   search has friction or cohesion, the pass runs the granular pair rule
//!   (`kernels::contact::rub`: the push above plus position-level Coulomb friction on
//!   the relative displacement over the substep, bounded by μ times the relaxed
//!   push, and cohesion within a band past contact; both with the split share) over the same lists in the same order; otherwise the frictionless sum
//!   above, unchanged.

use super::neighbours::{NeighbourStats, Neighbours};
use crate::error::{try_reserve, Result};
use crate::kernels::contact::{push, rub, sum, sum_rough, Cloud, Rough};
use crate::kernels::simd::Kernel;
use crate::math::{Vec3, Vec4};
use crate::particles::material::{Grain, COHESION_BAND};
use crate::particles::Particles;
use crate::solver::parallel::{Executor, Rows};

/// Buffers of the particle–particle pass, reused from step to step.
#[derive(Default)]
pub(crate) struct ParticleContacts {
    pub search: Neighbours,
    /// Per slot: the summed correction (xyz) and the number of active contacts (w).
    delta: Vec<Vec4>,
    /// Per slot: its mass-splitting count (active contacts in the current
    /// projection, from the counting pass), and ones (what the counting pass reads).
    split: Vec<f32>,
    ones: Vec<f32>,
    /// The contact sum's implementation (AVX where the CPU has it: `Kernel::default`).
    kernel: Kernel,
    /// Per slot: its particle's granular material (`crate::particles::material`), gathered after
    /// each build of the lists (the slot order changes there only).
    grains: Vec<Grain>,
    /// The build the materials were gathered for (`Neighbours::builds`); None before
    /// the first.
    gathered: Option<u64>,
    /// Whether some slot has friction or cohesion (the granular sum runs), and whether
    /// some slot is cohesive (pairs reach past contact).
    rough: bool,
    cohesive: bool,
    /// Solver iterations per substep (cohesion spreads its pull over them).
    iterations: u32,
}

/// What the projection sums per slot: the frictionless contacts or the granular ones.
trait Pairs: Sync {
    /// Adds the corrections of slot k (movable) from `list` (see `kernels::contact`).
    fn sum(&self, k: usize, list: &[u32], skip_roaming: bool, acc: &mut Vec3, active: &mut u32);
    /// The correction of slot k from slot j.
    fn pair(&self, k: usize, j: usize) -> Option<Vec3>;
}

/// Frictionless contacts.
struct Smooth<'a> {
    s: &'a Neighbours,
    cloud: Cloud<'a>,
    kernel: Kernel,
    plain: bool,
}

impl Pairs for Smooth<'_> {
    #[inline(always)]
    fn sum(&self, k: usize, list: &[u32], skip_roaming: bool, acc: &mut Vec3, active: &mut u32) {
        let s = self.s;
        let roaming = |j: usize| s.is_roaming(j);
        sum(
            self.kernel,
            &self.cloud,
            k,
            list,
            skip_roaming,
            roaming,
            self.plain,
            acc,
            active,
        );
    }

    #[inline(always)]
    fn pair(&self, k: usize, j: usize) -> Option<Vec3> {
        let s = self.s;
        push(&self.cloud, k, j, s.hot[k], s.unyielding[k], s.radius[k])
    }
}

/// Contacts with friction and cohesion (`crate::particles::material`).
struct Granular<'a> {
    s: &'a Neighbours,
    cloud: Cloud<'a>,
    rough: Rough<'a>,
    kernel: Kernel,
    plain: bool,
}

impl Pairs for Granular<'_> {
    #[inline(always)]
    fn sum(&self, k: usize, list: &[u32], skip_roaming: bool, acc: &mut Vec3, active: &mut u32) {
        let s = self.s;
        let roaming = |j: usize| s.is_roaming(j);
        sum_rough(
            self.kernel,
            &self.cloud,
            &self.rough,
            k,
            list,
            skip_roaming,
            roaming,
            self.plain,
            acc,
            active,
        );
    }

    #[inline(always)]
    fn pair(&self, k: usize, j: usize) -> Option<Vec3> {
        let s = self.s;
        rub(
            &self.cloud,
            &self.rough,
            k,
            j,
            s.hot[k],
            s.unyielding[k],
            s.radius[k],
        )
    }
}

impl ParticleContacts {
    /// Builds the neighbour lists for a step whose substeps last `h` seconds with
    /// `iterations` projections each. Allocates only when the particle count grew
    /// since the last step.
    pub(crate) fn begin_step(
        &mut self,
        particles: &Particles,
        h: f32,
        iterations: u32,
        exec: &Executor,
    ) -> Result<()> {
        let n = particles.len();
        if self.delta.len() < n {
            let grow = n - self.delta.len();
            try_reserve(&mut self.delta, grow, "contact corrections")?;
            self.delta.resize(n, Vec4::ZERO);
        }
        for a in [&mut self.split, &mut self.ones] {
            if a.len() < n {
                let grow = n - a.len();
                try_reserve(a, grow, "contact splitting counts")?;
                a.resize(n, 1.0);
            }
        }
        if self.grains.len() < n {
            let grow = n - self.grains.len();
            try_reserve(&mut self.grains, grow, "contact materials")?;
            self.grains.resize(n, Grain::default());
        }
        self.iterations = iterations.max(1);
        self.search.begin_step(particles, h, exec)?;
        self.gather(particles);
        Ok(())
    }

    /// Gathers the particles' materials into slot order when the lists were built
    /// since the last gather.
    fn gather(&mut self, particles: &Particles) {
        let build = self.search.builds();
        if self.gathered == Some(build) {
            return;
        }
        self.gathered = Some(build);
        let m = self.search.len();
        let order = self.search.slot_order().order();
        let (mut rough, mut cohesive) = (false, false);
        for (g, &i) in self.grains[..m].iter_mut().zip(order) {
            let material = &particles.material[i as usize];
            *g = material.grain();
            rough |= !material.is_plain();
            cohesive |= material.cohesion > 0.0;
        }
        self.rough = rough;
        self.cohesive = cohesive;
    }

    pub(crate) fn stats(&self) -> NeighbourStats {
        let mut s = self.search.stats();
        s.bytes += (self.delta.capacity() * std::mem::size_of::<Vec4>()
            + (self.split.capacity() + self.ones.capacity()) * std::mem::size_of::<f32>()
            + self.grains.capacity() * std::mem::size_of::<Grain>()) as u64;
        s
    }

    /// One Jacobi projection of all particle–particle contacts: a pass that counts
    /// each slot's active contacts (splitting counts of 1), then the mass-split sum.
    pub(crate) fn project(&mut self, particles: &mut Particles, h: f32, exec: &Executor) {
        self.search.refresh(particles, h, exec);
        if !self.search.active {
            return;
        }
        self.gather(particles);
        let m = self.search.len();
        self.pass(Pass::Count, h, exec);
        for (n, d) in self.split[..m].iter_mut().zip(&self.delta[..m]) {
            *n = d.w;
        }
        self.pass(Pass::Split, h, exec);
        // Each slot's correction to its particle (slots and particles are one to one:
        // `SlotOrder`).
        let s = &self.search;
        let delta = &self.delta[..m];
        s.slot_order()
            .scatter_light(exec, &mut particles.hot, |k, hot| {
                let d = delta[k];
                if d.w > 0.0 {
                    *hot += d.truncate().extend(0.0);
                }
            });
    }

    /// One sum over every slot's contacts into `delta`, with splitting counts of 1
    /// (`Pass::Count`: only the counts in w are used) or the counted ones.
    fn pass(&mut self, pass: Pass, h: f32, exec: &Executor) {
        let s = &self.search;
        let m = s.len();
        let split = match pass {
            Pass::Count => &self.ones[..m],
            Pass::Split => &self.split[..m],
        };
        let cloud = Cloud::new(&s.base, &s.hot, &s.radius, &s.unyielding, split);
        let delta = &mut self.delta[..m];
        if self.rough {
            let rough = Rough {
                grains: &self.grains[..m],
                h2: h * h / self.iterations as f32,
                scale: if self.cohesive {
                    1.0 + COHESION_BAND
                } else {
                    1.0
                },
            };
            let pairs = Granular {
                s,
                cloud,
                rough,
                kernel: self.kernel,
                plain: s.plain(),
            };
            gather_corrections(s, &pairs, delta, exec);
        } else {
            let pairs = Smooth {
                s,
                cloud,
                kernel: self.kernel,
                plain: s.plain(),
            };
            gather_corrections(s, &pairs, delta, exec);
        }
    }
}

/// The two passes of a projection (see [`ParticleContacts::project`]).
#[derive(Clone, Copy)]
enum Pass {
    Count,
    Split,
}

/// Each slot's summed correction and count of active contacts into `delta`: its list
/// (after a partial update, a roaming slot reads its own list and any other skips the
/// roaming entries of its list and adds its side pairs), then the fast partners of
/// slow slots in a short serial pass, in the fixed order of the pairs.
fn gather_corrections<P: Pairs>(s: &Neighbours, pairs: &P, delta: &mut [Vec4], exec: &Executor) {
    if !s.has_roaming() {
        exec.for_chunks(Rows::new(&mut *delta), |range, delta| {
            for (k, delta) in range.zip(delta) {
                let mut acc = Vec3::ZERO;
                let mut active = 0u32;
                if s.hot[k].w != 0.0 {
                    pairs.sum(k, s.list(k), false, &mut acc, &mut active);
                }
                *delta = acc.extend(active as f32);
            }
        });
    } else {
        let side = s.side_pairs();
        exec.for_chunks(Rows::new(&mut *delta), |range, delta| {
            let mut at = side.partition_point(|q| (q[0] as usize) < range.start);
            for (k, delta) in range.zip(delta) {
                let mut acc = Vec3::ZERO;
                let mut active = 0u32;
                if s.hot[k].w != 0.0 {
                    if let Some(list) = s.roam_list(k) {
                        pairs.sum(k, list, false, &mut acc, &mut active);
                    } else {
                        pairs.sum(k, s.list(k), true, &mut acc, &mut active);
                        while at < side.len() && side[at][0] as usize == k {
                            let j = side[at][1] as usize;
                            if let Some(d) = pairs.pair(k, j) {
                                acc += d;
                                active += 1;
                            }
                            at += 1;
                        }
                    }
                }
                *delta = acc.extend(active as f32);
            }
        });
    }
    for &[k, j] in &s.fast_pairs {
        let (k, j) = (k as usize, j as usize);
        if let Some(d) = pairs.pair(k, j) {
            delta[k] += d.extend(1.0);
        }
    }
}

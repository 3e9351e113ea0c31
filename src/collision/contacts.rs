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
//!   at the start of the projection and adds only its own correction to its
//!   particle, in the pass that sums it (fast partners of a slow particle after its
//!   list, in a fixed order), so the result does not depend on the thread count. The
//!   counting pass runs the distance test alone (`kernels::contact::count`); its
//!   counts of the fast pairs are added serially.
//! * **Granular materials** (`crate::particles::material`): when some particle in the
//!   search has friction or cohesion, the pass runs the granular pair rule
//!   (`kernels::contact::rub`: the push above plus position-level Coulomb friction on
//!   the relative displacement over the substep, bounded by μ times the relaxed
//!   push, and cohesion within a band past contact; both with the split share) over the same lists in the same order; otherwise the frictionless sum
//!   above, unchanged.

use super::neighbours::{NeighbourStats, Neighbours};
use crate::error::{try_reserve, Result};
use crate::kernels::contact::{count, counts, push, rub, sum, sum_rough, Cloud, Rough};
use crate::kernels::simd::Kernel;
use crate::math::{Vec3, Vec4};
use crate::particles::material::{Grain, COHESION_BAND};
use crate::particles::Particles;
use crate::solver::parallel::{Executor, Rows};

/// Buffers of the particle–particle pass, reused from step to step.
#[derive(Default)]
pub(crate) struct ParticleContacts {
    pub search: Neighbours,
    /// Per slot: its mass-splitting count (active contacts in the current
    /// projection, from the counting pass), and ones (the splitting counts of the
    /// counting pass's cloud, which reads none of them).
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
        s.bytes += ((self.split.capacity() + self.ones.capacity()) * std::mem::size_of::<f32>()
            + self.grains.capacity() * std::mem::size_of::<Grain>()) as u64;
        s
    }

    /// One Jacobi projection of all particle–particle contacts: a pass that counts
    /// each slot's active contacts (the distance test alone, [`count`]), then the
    /// mass-split sum, each slot's correction added to its particle in the same pass.
    pub(crate) fn project(&mut self, particles: &mut Particles, h: f32, exec: &Executor) {
        self.search.refresh(particles, h, exec);
        if !self.search.active {
            return;
        }
        self.gather(particles);
        self.count(h, exec);
        self.push(particles, h, exec);
    }

    /// The materials of the first `m` slots for the passes (None when the
    /// frictionless sum runs).
    fn rough(&self, m: usize, h: f32) -> Option<Rough<'_>> {
        self.rough.then(|| Rough {
            grains: &self.grains[..m],
            h2: h * h / self.iterations as f32,
            scale: if self.cohesive {
                1.0 + COHESION_BAND
            } else {
                1.0
            },
        })
    }

    /// Each slot's mass-splitting count into `split`: its active contacts in this
    /// projection (those of its list, its side pairs after a partial update, its fast
    /// partners; 0 for a pinned slot, whose list is not summed, plus its fast
    /// partners), the `active` count of the sum.
    fn count(&mut self, h: f32, exec: &Executor) {
        let m = self.search.len();
        let mut split = std::mem::take(&mut self.split);
        let s = &self.search;
        let cloud = Cloud::new(&s.base, &s.hot, &s.radius, &s.unyielding, &self.ones[..m]);
        // Only cohesive pairs reach past contact: otherwise the test is the push's.
        let rough = self.rough(m, h).filter(|_| self.cohesive);
        let g = rough.as_ref();
        let (kernel, plain) = (self.kernel, s.plain());
        let roaming = |j: usize| s.is_roaming(j);
        let split_m = &mut split[..m];
        let skip = s.has_roaming();
        exec.for_chunks(Rows::new(&mut *split_m), |range, split| {
            let mut side = s.side_cursor(range.start);
            for (k, n) in range.zip(split) {
                let mut active = 0u32;
                if s.hot[k].w != 0.0 {
                    if let Some(list) = s.roam_list(k) {
                        active = count(kernel, &cloud, g, k, list, false, roaming, plain);
                    } else {
                        active = count(kernel, &cloud, g, k, s.list(k), skip, roaming, plain);
                        for p in side.of(k) {
                            active += counts(&cloud, g, k, p[1] as usize) as u32;
                        }
                    }
                }
                *n = active as f32;
            }
        });
        for &[k, j] in &s.fast_pairs {
            if counts(&cloud, g, k as usize, j as usize) {
                split_m[k as usize] += 1.0;
            }
        }
        self.split = split;
    }

    /// The mass-split sum of every slot's contacts with the counts of `split`, added
    /// to its particle's displacement (slots and particles are one to one:
    /// `SlotOrder`) when it has an active contact.
    fn push(&mut self, particles: &mut Particles, h: f32, exec: &Executor) {
        let s = &self.search;
        let m = s.len();
        let cloud = Cloud::new(&s.base, &s.hot, &s.radius, &s.unyielding, &self.split[..m]);
        let (kernel, plain) = (self.kernel, s.plain());
        match self.rough(m, h) {
            Some(rough) => {
                let pairs = Granular {
                    s,
                    cloud,
                    rough,
                    kernel,
                    plain,
                };
                apply_corrections(s, &pairs, &mut particles.hot, exec);
            }
            None => {
                let pairs = Smooth {
                    s,
                    cloud,
                    kernel,
                    plain,
                };
                apply_corrections(s, &pairs, &mut particles.hot, exec);
            }
        }
    }
}

/// Each slot's summed correction, added to its particle's displacement in `hot` when
/// some contact of the slot is active: its list (after a partial update, a roaming
/// slot reads its own list and any other skips the roaming entries of its list and
/// adds its side pairs), then its fast partners in the fixed order of the pairs. The
/// slots are independent (each reads the gathered positions and writes its own
/// particle), so the result does not depend on the thread count.
fn apply_corrections<P: Pairs>(s: &Neighbours, pairs: &P, hot: &mut [Vec4], exec: &Executor) {
    let skip = s.has_roaming();
    let cursors =
        |range: &std::ops::Range<usize>| (s.side_cursor(range.start), s.fast_cursor(range.start));
    s.slot_order()
        .scatter(exec, hot, cursors, |(side, fast), k, hot| {
            let mut acc = Vec3::ZERO;
            let mut active = 0u32;
            let add = |j: usize, acc: &mut Vec3, active: &mut u32| {
                if let Some(d) = pairs.pair(k, j) {
                    *acc += d;
                    *active += 1;
                }
            };
            if s.hot[k].w != 0.0 {
                if let Some(list) = s.roam_list(k) {
                    pairs.sum(k, list, false, &mut acc, &mut active);
                } else {
                    pairs.sum(k, s.list(k), skip, &mut acc, &mut active);
                    for p in side.of(k) {
                        add(p[1] as usize, &mut acc, &mut active);
                    }
                }
            }
            for p in fast.of(k) {
                add(p[1] as usize, &mut acc, &mut active);
            }
            if active > 0 {
                *hot += acc.extend(0.0);
            }
        });
}

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
//!   counting pass runs the distance test alone (`kernels::contact::count`) and keeps
//!   the entries of each list that count; the sum then reads only those (the same
//!   terms in the same order, without testing again the listed pairs that do not
//!   touch). Its counts of the fast pairs are added serially.
//! * **Granular materials** (`crate::particles::material`): when some particle in the
//!   search has friction or cohesion, the pass runs the granular pair rule
//!   (`kernels::contact::rub`: the push above plus position-level Coulomb friction on
//!   the relative displacement over the substep, bounded by μ times the relaxed
//!   push, and cohesion within a band past contact; both with the split share) over the same lists in the same order; otherwise the frictionless sum
//!   above, unchanged.

use super::neighbours::{NeighbourStats, Neighbours};
use crate::error::{try_reserve, Result};
use crate::kernels::contact::{count, counts, push, rub, sum, sum_rough, Cloud, Rough};
use crate::kernels::simd::{with_avx, Kernel};
use crate::math::{Vec3, Vec4};
use crate::particles::material::{Grain, COHESION_BAND};
use crate::particles::Particles;
use crate::solver::parallel::{Blocks, Executor, Rows};

/// Slots per item of the counting pass and the sum (and per buffer of the counting
/// pass's kept entries). Half the executor's `CHUNK`: the two passes are most of a
/// projection, and with 10,000 particles 1024-slot items left a thread idle for up
/// to a tenth of each while the other finished the last item. Any size gives the
/// same bits (each slot's count and sum read only the gathered positions).
const PART: usize = 512;

/// Buffers of the particle–particle pass, reused from step to step.
#[derive(Default)]
pub(crate) struct ParticleContacts {
    pub search: Neighbours,
    /// Per slot: its mass-splitting count (active contacts in the current
    /// projection, from the counting pass), and ones (the splitting counts of the
    /// counting pass's cloud, which reads none of them).
    split: Vec<f32>,
    ones: Vec<f32>,
    /// The slots that count in each slot's contacts at the current projection (the
    /// counting pass's kept entries of its list, `kernels::contact::count`), per chunk
    /// of slots, and the end of each slot's in its chunk's buffer: the sum reads
    /// these instead of the lists. `touching` says whether the counting pass filled
    /// them (it leaves them when a buffer cannot grow; the sum then reads the lists).
    touch: Vec<Vec<u32>>,
    touch_end: Vec<u32>,
    touching: bool,
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
        if self.touch_end.len() < n {
            let grow = n - self.touch_end.len();
            try_reserve(&mut self.touch_end, grow, "contact lists")?;
            self.touch_end.resize(n, 0);
        }
        let chunks = n.div_ceil(PART);
        if self.touch.len() < chunks {
            let grow = chunks - self.touch.len();
            try_reserve(&mut self.touch, grow, "contact lists")?;
            self.touch.resize_with(chunks, Vec::new);
        }
        for (c, buf) in self.touch[..chunks].iter_mut().enumerate() {
            // Room for eight contacts per slot (a pass that needs more grows it).
            let want = 8 * PART.min(n - c * PART);
            let grow = want.saturating_sub(buf.capacity());
            try_reserve(buf, grow, "contact lists")?;
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
        let touch: usize = self.touch.iter().map(Vec::capacity).sum::<usize>()
            + self.touch.capacity() * std::mem::size_of::<Vec<u32>>() / 4
            + self.touch_end.capacity();
        s.bytes += (touch * std::mem::size_of::<u32>()) as u64;
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
    /// partners), the `active` count of the sum; and the entries of its list that
    /// count into `touch` (per chunk of slots, in parallel).
    fn count(&mut self, h: f32, exec: &Executor) {
        let m = self.search.len();
        let chunks = m.div_ceil(PART);
        let mut split = std::mem::take(&mut self.split);
        let mut touch = std::mem::take(&mut self.touch);
        let mut touch_end = std::mem::take(&mut self.touch_end);
        let s = &self.search;
        let cloud = Cloud::new(&s.base, &s.hot, &s.radius, &s.unyielding, &self.ones[..m]);
        // Only cohesive pairs reach past contact: otherwise the test is the push's.
        let rough = self.rough(m, h).filter(|_| self.cohesive);
        let g = rough.as_ref();
        let (kernel, plain) = (self.kernel, s.plain());
        let roaming = |j: usize| s.is_roaming(j);
        let skip = s.has_roaming();
        let full = std::sync::atomic::AtomicBool::new(true);
        {
            let parts = (
                Blocks::new(&mut split[..m], PART),
                Blocks::new(&mut touch_end[..m], PART),
                Rows::new(&mut touch[..chunks]),
            );
            let full = &full;
            exec.for_each_item(parts, m, |c, (split, ends, buf)| {
                // The chunk's loop and the counting kernel compiled as one function
                // with the kernel's CPU feature (no call per slot).
                with_avx(
                    kernel,
                    #[inline(always)]
                    || {
                        let buf = &mut buf[0];
                        buf.clear();
                        let first = c * PART;
                        let mut side = s.side_cursor(first);
                        // Whether the chunk's entries still fit (else only counted).
                        let mut keep = true;
                        for (i, n) in split.iter_mut().enumerate() {
                            let k = first + i;
                            let mut active = 0u32;
                            if s.hot[k].w != 0.0 {
                                let (list, skip) = match s.roam_list(k) {
                                    Some(list) => (list, false),
                                    None => (s.list(k), skip),
                                };
                                let room = list.len();
                                if keep && buf.capacity() - buf.len() < room {
                                    let grow = buf.capacity().max(room);
                                    keep = buf.try_reserve(grow).is_ok();
                                }
                                let out = keep.then_some(&mut *buf);
                                active =
                                    count(kernel, &cloud, g, k, list, skip, roaming, plain, out);
                                if !s.is_roaming(k) {
                                    for p in side.of(k) {
                                        active += counts(&cloud, g, k, p[1] as usize) as u32;
                                    }
                                }
                            }
                            ends[i] = buf.len() as u32;
                            *n = active as f32;
                        }
                        if !keep {
                            full.store(false, std::sync::atomic::Ordering::Relaxed);
                        }
                    },
                )
            });
        }
        let split_m = &mut split[..m];
        for &[k, j] in &s.fast_pairs {
            if counts(&cloud, g, k as usize, j as usize) {
                split_m[k as usize] += 1.0;
            }
        }
        self.touching = full.into_inner();
        self.split = split;
        self.touch = touch;
        self.touch_end = touch_end;
    }

    /// The entries of slot k's list that count in its contacts at this projection
    /// (see [`Self::count`]).
    #[inline(always)]
    fn kept_of<'a>(touch: &'a [Vec<u32>], touch_end: &[u32], k: usize) -> &'a [u32] {
        let start = if k % PART == 0 {
            0
        } else {
            touch_end[k - 1] as usize
        };
        &touch[k / PART][start..touch_end[k] as usize]
    }

    /// The mass-split sum of every slot's contacts with the counts of `split`, added
    /// to its particle's displacement (slots and particles are one to one:
    /// `SlotOrder`) when it has an active contact.
    fn push(&mut self, particles: &mut Particles, h: f32, exec: &Executor) {
        let s = &self.search;
        let m = s.len();
        let cloud = Cloud::new(&s.base, &s.hot, &s.radius, &s.unyielding, &self.split[..m]);
        let (kernel, plain) = (self.kernel, s.plain());
        let touch = self
            .touching
            .then_some((&self.touch[..], &self.touch_end[..m]));
        match self.rough(m, h) {
            Some(rough) => {
                let pairs = Granular {
                    s,
                    cloud,
                    rough,
                    kernel,
                    plain,
                };
                apply_corrections(kernel, s, &pairs, touch, &mut particles.hot, exec);
            }
            None => {
                let pairs = Smooth {
                    s,
                    cloud,
                    kernel,
                    plain,
                };
                apply_corrections(kernel, s, &pairs, touch, &mut particles.hot, exec);
            }
        }
    }
}

/// Each slot's summed correction, added to its particle's displacement in `hot` when
/// some contact of the slot is active: its list (after a partial update, a roaming
/// slot reads its own list and any other skips the roaming entries of its list and
/// adds its side pairs), then its fast partners in the fixed order of the pairs. With
/// `touch` (the counting pass's entries, [`ParticleContacts::count`]), the entries of
/// the list that count instead of the list: the same corrections in the same order.
/// The slots are independent (each reads the gathered positions and writes its own
/// particle), so the result does not depend on the thread count.
fn apply_corrections<P: Pairs>(
    kernel: Kernel,
    s: &Neighbours,
    pairs: &P,
    touch: Option<(&[Vec<u32>], &[u32])>,
    hot: &mut [Vec4],
    exec: &Executor,
) {
    let skip = s.has_roaming();
    s.slot_order()
        .scatter_ranges(exec, PART, hot, |range, places| {
            // The range's loop and the contact sum compiled as one function with the
            // kernel's CPU feature (the sum inlined: no call per slot).
            with_avx(
                kernel,
                #[inline(always)]
                || {
                    let (mut side, mut fast) =
                        (s.side_cursor(range.start), s.fast_cursor(range.start));
                    for k in range {
                        let mut acc = Vec3::ZERO;
                        let mut active = 0u32;
                        let add = |j: usize, acc: &mut Vec3, active: &mut u32| {
                            if let Some(d) = pairs.pair(k, j) {
                                *acc += d;
                                *active += 1;
                            }
                        };
                        if s.hot[k].w != 0.0 {
                            if let Some((touch, ends)) = touch {
                                let list = ParticleContacts::kept_of(touch, ends, k);
                                pairs.sum(k, list, false, &mut acc, &mut active);
                                if !s.is_roaming(k) {
                                    for p in side.of(k) {
                                        add(p[1] as usize, &mut acc, &mut active);
                                    }
                                }
                            } else if let Some(list) = s.roam_list(k) {
                                pairs.sum(k, list, false, &mut acc, &mut active);
                            } else {
                                pairs.sum(k, s.list(k), skip, &mut acc, &mut active);
                                for p in side.of(k) {
                                    add(p[1] as usize, &mut acc, &mut active);
                                }
                            }
                            // Its fast partners too, only when it can move: a slot
                            // whose inverse mass is 0 in this substep (pinned, or
                            // asleep or paused: masked after the lists were built)
                            // takes no share, and with a partner masked as well the
                            // share w_k / (w_k + w_j) would be 0 / 0.
                            for p in fast.of(k) {
                                add(p[1] as usize, &mut acc, &mut active);
                            }
                        }
                        if active > 0 {
                            *places.at(k) += acc.extend(0.0);
                        }
                    }
                },
            )
        });
}

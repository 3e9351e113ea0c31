//! One iteration of the density constraints (see the module doc of `fluid::solver`):
//! positions, then λ and ρ̂ of every slot, then the corrections, as three stages of
//! one parallel pass (`Executor::staged`: each array written in one stage, the
//! particles through the checked slot-to-particle map); the passes of a world of one
//! fluid run the eight-lane loops of `kernels::fluid_pass` ([`UniformPass`]), any mix
//! of fluids and solids the general ones.

use std::ops::Range;

use super::{
    list_of, prefetch_particle, relax_for, scorr_scale, wall_gradient_push, wall_terms,
    DensitySolver, Layering, Params, PREFETCH, SLOT_CHUNK, SOLID, SURFACE_SCORR,
};
use crate::collision::colliders::Colliders;
use crate::fluid::{Fluid, SETTLE_OVERLAP};
use crate::kernels::fluid::{self as kernels, Consts, Density};
use crate::kernels::fluid_pass::{self, SlotLists};
use crate::kernels::simd::Kernel;
use crate::math::{Vec3, Vec3A, Vec4};
use crate::particles::Particles;
use crate::solver::disjoint::{StageItem, StagePlaces, StageSlots};
use crate::solver::parallel::Executor;

/// The arrays of one iteration's pass, each with the stage that writes it (the
/// others read it whole): stage 0 the positions, stage 1 λ, ρ̂ and the one-fluid
/// records and tie flags, stage 2 the particles (and
/// the solids' forces) through the slot-to-particle map.
struct Parts<'a> {
    pos: StageSlots<'a, Vec4>,
    inv_mass: StageSlots<'a, f32>,
    lambda: StageSlots<'a, f32>,
    ratio: StageSlots<'a, f32>,
    rec: StageSlots<'a, Vec4>,
    ties: StageSlots<'a, u8>,
    hot: StagePlaces<'a, Vec4>,
    force: StagePlaces<'a, Vec3>,
}

impl DensitySolver {
    /// One iteration (of `iterations` per substep) of the density constraints of every
    /// live fluid particle (`first`: the first iteration of the substep, which builds
    /// the neighbour grid and the walls near each particle from `colliders`). While a
    /// collider moves, a fluid particle's correction is at most its smoothing radius
    /// over `iterations` ([`limit_correction`]). `h` is the substep (s), which with
    /// `iterations` scales the artificial pressure ([`super::scorr_scale`]).
    #[allow(clippy::too_many_arguments)]
    pub fn project(
        &mut self,
        fluids: &mut [Option<Fluid>],
        particles: &mut Particles,
        first: bool,
        h: f32,
        iterations: u32,
        colliders: &Colliders,
        exec: &Executor,
    ) {
        if !self.active {
            return;
        }
        if first {
            let scale = scorr_scale(h, iterations, self.solve_rate);
            let solves = solves_per_iteration(self.solve_rate, h, iterations);
            for p in &mut self.params {
                p.scorr = p.scorr_full * scale;
                p.relax = relax_for(p.omega, iterations, solves);
            }
            self.build(fluids, particles, colliders, exec);
        }
        let m = self.src.len();
        if m == 0 {
            return;
        }
        let passes = solves_per_iteration(self.solve_rate, h, iterations);
        let sum_pushes = passes > 1 && colliders.any_dynamic();
        if sum_pushes {
            self.pushes[..m].fill(0.0);
        }
        for pass in 0..passes {
            let gathered = first && pass == 0;
            self.solve(particles, gathered, iterations * passes, colliders, exec);
            if self.step_started {
                self.step_started = false;
                self.record_first_ratios(fluids);
            }
            if sum_pushes {
                // The walls' pushes of the whole iteration (`wall_pushes`).
                let lambda = if self.uniform {
                    &self.rec[..m]
                } else {
                    &[][..]
                };
                for k in 0..m {
                    let l = lambda.get(k).map_or(self.lambda[k], |r| r.w);
                    self.pushes[k] += l;
                }
            }
        }
        self.summed_pushes = sum_pushes;
    }

    /// Each fluid particle's ρ/ρ₀ of the step's first solve into its fluid
    /// (`Fluid::first_ratio`), and whether a particle in its first step (age 0) read
    /// an overlap there (`Fluid::overlap`: over-dense by more than
    /// [`SETTLE_OVERLAP`] with no wall within reach, where a long substep's fall onto
    /// the floor reads over-dense too): `FluidSet::settle_first_steps`.
    fn record_first_ratios(&self, fluids: &mut [Option<Fluid>]) {
        let m = self.src.len();
        let particle = &self.particle.order()[..m];
        for (k, (&cl, &i)) in self.class[..m].iter().zip(particle).enumerate() {
            if cl == SOLID {
                continue;
            }
            if let Some(Some(f)) = fluids.get_mut(cl as usize) {
                let local = i.wrapping_sub(f.first) as usize;
                if local < f.count as usize {
                    let r = self.ratio[k];
                    f.first_ratio[local] = r;
                    if r > 1.0 + SETTLE_OVERLAP
                        && f.age[local] == 0.0
                        && list_of(&self.wall_end, &self.walls, k).is_empty()
                    {
                        f.overlap = true;
                    }
                }
            }
        }
    }

    /// One Jacobi solve of the density constraints: positions (unless `gathered`:
    /// the build's, nothing moved since), every λ and ρ̂, every correction.
    /// `solves`: the solves of the substep (the correction limit's share).
    fn solve(
        &mut self,
        particles: &mut Particles,
        gathered: bool,
        solves: u32,
        colliders: &Colliders,
        exec: &Executor,
    ) {
        let m = self.src.len();
        let iterations = solves;
        let first = gathered;
        let threads = Self::threads(exec, m);
        let chunks = m.div_ceil(SLOT_CHUNK);
        let uniform = self.uniform;
        let this = &mut *self;
        let (kernel, uniform_class) = (this.kernel, this.uniform_class);
        let consts = this.params[uniform_class].consts();
        // No limit among colliders at rest (an infinite one changes no bit).
        let per_iteration = if colliders.moving() {
            1.0 / iterations.max(1) as f32
        } else {
            f32::INFINITY
        };
        let (params, class) = (&this.params, &this.class[..m]);
        let particle = &this.particle.order()[..m];
        let (list_end, lists) = (&this.list_end[..m], &this.lists[..chunks]);
        let (wall_end, walls) = (&this.wall_end[..m], &this.walls);
        let origin = this.origin;
        let layering = this.layering;
        let base = &particles.base[..];
        let parts = Parts {
            pos: StageSlots::new(&mut this.pos[..m], 0, SLOT_CHUNK),
            inv_mass: StageSlots::new(&mut this.inv_mass[..m], 0, SLOT_CHUNK),
            lambda: StageSlots::new(&mut this.lambda[..m], 1, SLOT_CHUNK),
            ratio: StageSlots::new(&mut this.ratio[..m], 1, SLOT_CHUNK),
            rec: StageSlots::new(&mut this.rec[..m], 1, SLOT_CHUNK),
            ties: StageSlots::new(&mut this.ties[..m], 1, SLOT_CHUNK),
            hot: this.particle.places(&mut particles.hot, 2, SLOT_CHUNK),
            force: this.particle.places(&mut this.force, 2, SLOT_CHUNK),
        };
        let pass = UniformPass {
            kernel,
            consts,
            prm: &params[uniform_class],
            limit: params[uniform_class].h * per_iteration,
            list_end,
            lists,
            wall_end,
            walls,
            particle,
            base,
        };
        exec.staged(threads, 3, chunks, parts, |item, p| {
            let c = item.index();
            let slots = c * SLOT_CHUNK..((c + 1) * SLOT_CHUNK).min(m);
            match item.stage() {
                // Positions of this iteration (the build gathered the first ones).
                0 => {
                    if !first {
                        let hot = item.read(&p.hot);
                        // One length for both (one bounds check per slot).
                        let base = &base[..hot.len()];
                        let (pos, inv_mass) = item.write((&p.pos, &p.inv_mass));
                        let end = slots.end;
                        for (j, k) in slots.enumerate() {
                            prefetch_particle(hot.as_ptr(), base, particle, k + PREFETCH, end);
                            let i = particle[k] as usize;
                            let h = hot[i];
                            let x = (base[i] - origin) + Vec3A::from_vec4(h);
                            pos[j] = x.extend(pos[j].w);
                            inv_mass[j] = h.w;
                        }
                    }
                }
                1 => {
                    if uniform {
                        pass.density(item, p, c, slots);
                        return;
                    }
                    let (pos, inv_mass) = (item.read(&p.pos), item.read(&p.inv_mass));
                    let (lambda, ratio) = item.write((&p.lambda, &p.ratio));
                    for (j, k) in slots.enumerate() {
                        let cl = class[k];
                        if cl == SOLID {
                            lambda[j] = 0.0;
                            continue;
                        }
                        let list = list_of(list_end, lists, k);
                        let prm = &params[cl as usize];
                        let near = list_of(wall_end, walls, k);
                        let (l, rho) = lambda_general(pos, inv_mass, prm, k, list, near);
                        lambda[j] = l;
                        ratio[j] = rho;
                    }
                }
                _ => {
                    if uniform {
                        pass.correction(item, p, c, slots);
                        return;
                    }
                    let (pos, inv_mass) = (item.read(&p.pos), item.read(&p.inv_mass));
                    let (lambda, ratio) = (item.read(&p.lambda), item.read(&p.ratio));
                    let (mut hot, mut force) = item.write((&p.hot, &p.force));
                    let end = slots.end;
                    for k in slots {
                        prefetch_particle(hot.as_ptr(), base, particle, k + PREFETCH, end);
                        let list = list_of(list_end, lists, k);
                        let near = list_of(wall_end, walls, k);
                        let v = (pos, inv_mass, lambda, ratio);
                        let mut dx = delta_general(v, params, class, layering, k, list, near);
                        if class[k] != SOLID {
                            let limit = params[class[k] as usize].h * per_iteration;
                            dx = limit_correction(dx, limit);
                        }
                        let h = hot.at(k);
                        let w = h.w;
                        *h = (Vec3A::from_vec4(*h) + dx).extend(w);
                        if class[k] == SOLID && w > 0.0 {
                            let f = force.at(k);
                            *f += Vec3::from(dx) / w;
                        }
                    }
                }
            }
        });
    }
}

/// The Jacobi solves of the density constraints per iteration of a substep of `h`
/// seconds with `iterations` iterations: ⌈rate·h / iterations⌉ for the fluids'
/// `solve_rate` (Hz), at least 1, at most [`MAX_SOLVES`].
///
/// One Jacobi solve carries the floor's push about two rows up the water, so the
/// compression a pool needs to hold its weight grows as g h² per solve: at one
/// substep of 1/60 s and one solve a still pool six rows deep boiled over (particles
/// 7 spacings up, 10 from their start), twelve rows threw particles 70 spacings up.
/// At the default rate (480 Hz) a long substep solves as often per second as the
/// world's default (8 substeps of 1/60 s, one iteration), for less than the
/// default's cost (one grid build per substep); at 8 substeps and more, one solve,
/// the bits as before.
pub(crate) fn solves_per_iteration(rate: f32, h: f32, iterations: u32) -> u32 {
    // A substep of exactly 1/480 s at 480 Hz (1/60 / 8 in f32) is one solve, not two.
    let n = (rate * h / iterations.max(1) as f32 * (1.0 - 1.0e-4)).ceil();
    if n.is_finite() && n > 1.0 {
        n.min(MAX_SOLVES as f32) as u32
    } else {
        1
    }
}

/// The most Jacobi solves per iteration ([`solves_per_iteration`]).
const MAX_SOLVES: u32 = 16;

/// The density and correction passes of a world of one fluid, a chunk of slots per
/// call, through the chunk loops of `kernels::fluid_pass` (AVX: the kernel and the
/// per-slot code below compiled together with the feature, so no call per slot and
/// no result through memory).
struct UniformPass<'a> {
    kernel: Kernel,
    consts: Consts,
    prm: &'a Params,
    /// The longest correction of one iteration (m; [`limit_correction`]).
    limit: f32,
    list_end: &'a [u32],
    lists: &'a [SlotLists],
    wall_end: &'a [u32],
    walls: &'a [Vec<Vec4>],
    particle: &'a [u32],
    base: &'a [Vec3A],
}

impl UniformPass<'_> {
    /// Stage 1: λ, ρ̂ and the tie flags of the slots of chunk `c` (the records
    /// `(x, y, z, λ)` of the correction stage).
    #[inline(always)]
    fn density(&self, item: &StageItem, p: &Parts<'_>, c: usize, slots: Range<usize>) {
        let pos = item.read(&p.pos);
        let (rec, ratio, ties) = item.write((&p.rec, &p.ratio, &p.ties));
        let first = slots.start;
        fluid_pass::density_chunk(
            self.kernel,
            &self.consts,
            kernels::records(pos),
            &self.lists[c],
            &self.list_end[slots],
            first,
            // Inlined into the chunk loop (compiled with its CPU feature; no call per
            // slot).
            #[inline(always)]
            |k, d| {
                let near = list_of(self.wall_end, self.walls, k);
                let (l, rho) = lambda_uniform(self.prm, &d, pos[k], near);
                let j = k - first;
                rec[j] = pos[k].truncate().extend(l);
                ratio[j] = rho;
                ties[j] = d.tie as u8;
            },
        );
    }

    /// Stage 2: each slot's Δx of chunk `c`, added to its particle.
    #[inline(always)]
    fn correction(&self, item: &StageItem, p: &Parts<'_>, c: usize, slots: Range<usize>) {
        let rec = item.read(&p.rec);
        let ties = item.read(&p.ties);
        let mut hot = item.write(&p.hot);
        let end = slots.end;
        fluid_pass::correction_chunk(
            self.kernel,
            &self.consts,
            kernels::records(rec),
            &self.lists[c],
            &self.list_end[slots.clone()],
            slots.start,
            &ties[slots],
            #[inline(always)]
            |k, d| {
                prefetch_particle(hot.as_ptr(), self.base, self.particle, k + PREFETCH, end);
                let mut dx = Vec3A::from_array(d) * self.prm.volume;
                let near = list_of(self.wall_end, self.walls, k);
                if !near.is_empty() {
                    let pk = rec[k];
                    let (_, g) = wall_terms(self.prm, near, Vec3A::from_vec4(pk));
                    dx += g * pk.w;
                }
                let dx = limit_correction(dx, self.limit);
                let h = hot.at(k);
                *h = (Vec3A::from_vec4(*h) + dx).extend(h.w);
            },
        );
    }
}

/// λ and ρ̂ of fluid slot k at `x` (w: its volume) when every slot is of one fluid,
/// from its density sums `d` (`kernels::fluid::density`) and the walls `near` it.
#[inline(always)]
fn lambda_uniform(p: &Params, d: &Density, x: Vec4, near: &[Vec4]) -> (f32, f32) {
    let vol = p.volume;
    let q0 = (p.h2 * p.h2) * p.h2;
    let mut rho = (q0 + d.q3) * (p.density * vol);
    let mut g = d.grad.map(|x| x * vol);
    if !near.is_empty() {
        let (wr, wg) = wall_terms(p, near, Vec3A::new(x.x, x.y, x.z));
        rho += wr;
        g = [g[0] + wg.x, g[1] + wg.y, g[2] + wg.z];
    }
    let sum2 = d.grad2 * (vol * vol) + ((g[0] * g[0] + g[1] * g[1]) + g[2] * g[2]);
    let c = (rho - 1.0).max(0.0);
    (-c * p.relax / (sum2 + p.epsilon), rho)
}

/// λ and ρ̂ of fluid slot k (any mix of fluids and solids), from every slot's
/// position and inverse mass.
#[inline(always)]
fn lambda_general(
    pos: &[Vec4],
    inv_mass: &[f32],
    p: &Params,
    k: usize,
    list: &[u32],
    near: &[Vec4],
) -> (f32, f32) {
    // One length for both (one bounds check per neighbour).
    let inv_mass = &inv_mass[..pos.len()];
    let pk4 = pos[k];
    let pk = Vec3A::from_vec4(pk4);
    let q0 = p.h2;
    let mut rho = pk4.w * q0 * q0 * q0;
    let mut grad = Vec3A::ZERO;
    let mut sum2 = 0.0f32;
    for &j in list {
        let j = j as usize;
        let pj = pos[j];
        let d = pk - Vec3A::from_vec4(pj);
        let r2 = d.length_squared();
        if r2 < p.h2 {
            let q = p.h2 - r2;
            rho += pj.w * q * q * q;
            let g = p.gradient(d, r2, k, j) * pj.w;
            grad += g;
            sum2 += g.length_squared() * (p.mass * inv_mass[j]);
        }
    }
    let mut rho = rho * p.density;
    if !near.is_empty() {
        let (wr, wg) = wall_terms(p, near, pk);
        rho += wr;
        grad += wg;
    }
    let sum2 = sum2 + grad.length_squared();
    let c = (rho - 1.0).max(0.0);
    (-c * p.relax / (sum2 + p.epsilon), rho)
}

/// A fluid particle's correction `dx` of one iteration, shortened to `limit` (m): its
/// smoothing radius h over the iterations of a substep while a collider moves
/// (infinite otherwise), so that the density correction moves a particle at most h
/// over a substep, twice the margin by which the collider detection widens a fluid
/// particle's reach (`FluidSet::collider_margins`). A particle without a collider
/// contact when the substep starts cannot be pushed into the collider (or through a
/// thin one) before the next detection. A fluid squeezed by a wall moving 3 cm per
/// substep corrected a particle by 5 spacings in one substep without it. Colliders at
/// rest keep the unlimited correction, and their trajectories: a dam break's wave
/// front reaches the limit where it hits the far wall. A non-finite `dx` stays as it
/// is.
#[inline(always)]
fn limit_correction(dx: Vec3A, limit: f32) -> Vec3A {
    let l2 = dx.length_squared();
    if l2 > limit * limit {
        dx * (limit / l2.sqrt())
    } else {
        dx
    }
}

/// Δx of slot k (fluid or solid; any mix), from every slot's position, inverse mass
/// and λ (`v`).
#[inline(always)]
fn delta_general(
    v: (&[Vec4], &[f32], &[f32], &[f32]),
    params: &[Params],
    class: &[u32],
    layering: Layering,
    k: usize,
    list: &[u32],
    near: &[Vec4],
) -> Vec3A {
    // One length for every array (one bounds check per neighbour).
    let n = class.len();
    let (pos, inv_mass, lambda, ratio) = (&v.0[..n], &v.1[..n], &v.2[..n], &v.3[..n]);
    let pk4 = pos[k];
    let pk = Vec3A::from_vec4(pk4);
    let (vk, wk) = (pk4.w, inv_mass[k]);
    let ck = class[k];
    let lk = lambda[k];
    let mut dx = Vec3A::ZERO;
    let layered = layering.layered;
    // Layered worlds: the pressure gradient around a fluid k near a wall, in the
    // pressure units m λ (`super::wall_gradient_push`).
    let mirror = layered && ck != SOLID && !near.is_empty();
    let pk_m = if mirror {
        params[ck as usize].mass * lk
    } else {
        0.0
    };
    let mut grad_p = Vec3A::ZERO;
    for &j in list {
        let j = j as usize;
        let pj = pos[j];
        let d = pk - Vec3A::from_vec4(pj);
        let r2 = d.length_squared();
        let cj = class[j];
        if ck != SOLID {
            let prm = &params[ck as usize];
            if r2 < prm.h2 {
                // Constraint k on itself (against a solid, with the solid's
                // mirrored pressure: twice).
                let mut s = lk * pj.w;
                if cj == SOLID {
                    s += s;
                } else {
                    if layered {
                        // At the free surface only (`super::SURFACE_SCORR`).
                        let under = 1.0 - ratio[k].min(ratio[j]);
                        let f = (under * SURFACE_SCORR).clamp(0.0, 1.0);
                        s += prm.scorr(r2) * (pj.w * f);
                    } else {
                        s += prm.scorr(r2) * pj.w;
                    }
                    if cj == ck {
                        // Constraint j on k, same kernel.
                        s += lambda[j] * prm.mass * wk * vk;
                    }
                }
                let gw = prm.gradient(d, r2, k, j);
                dx += gw * s;
                if mirror && cj != SOLID {
                    let pj_m = params[cj as usize].mass * lambda[j];
                    grad_p += gw * ((pj_m - pk_m) * pj.w);
                }
            }
            if cj == SOLID || cj == ck {
                continue;
            }
        }
        // Constraint j (fluid of another kernel, or any fluid for a solid k).
        if cj != SOLID {
            let pj_prm = &params[cj as usize];
            if r2 < pj_prm.h2 {
                let mut s = lambda[j] * pj_prm.mass * wk * vk;
                if ck == SOLID {
                    // The solid's mirrored pressure.
                    s += s;
                }
                dx += pj_prm.gradient(d, r2, k, j) * s;
            }
        }
    }
    if ck != SOLID && !near.is_empty() {
        // Constraint k's own gradient from the walls (which do not move).
        let (_, g) = wall_terms(&params[ck as usize], near, pk);
        if mirror {
            // Layered worlds: the fluid behind the wall mirrored, its pressure the
            // particle's (twice the own term, as for a solid) continued along the
            // wall by the gradient around it.
            let prm = &params[ck as usize];
            dx += g * (lk + lk) + wall_gradient_push(prm, near, pk, grad_p, prm.mass);
        } else {
            dx += g * lk;
        }
    }
    dx
}

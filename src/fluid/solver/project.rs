//! One iteration of the density constraints (see the module doc of `fluid::solver`):
//! positions, then λ and ρ̂ of every slot, then the corrections, as three stages of
//! one parallel pass; the passes of a world of one fluid run the eight-lane loops of
//! `kernels::fluid` ([`UniformPass`]), any mix of fluids and solids the general ones.

use std::ops::Range;

use super::{
    list_of, pair_start, prefetch_particle, wall_terms, DensitySolver, Params, Views, PREFETCH,
    SLOT_CHUNK, SOLID,
};
use crate::collision::colliders::Colliders;
use crate::fluid::Fluid;
use crate::kernels::fluid::{self as kernels, Consts};
use crate::kernels::simd::Kernel;
use crate::math::{Vec3, Vec3A, Vec4};
use crate::particles::Particles;
use crate::solver::parallel::{DisjointSlice, Executor};

impl DensitySolver {
    /// One iteration (of `iterations` per substep) of the density constraints of every
    /// live fluid particle (`first`: the first iteration of the substep, which builds
    /// the neighbour grid and the walls near each particle from `colliders`). While a
    /// collider moves, a fluid particle's correction is at most its smoothing radius
    /// over `iterations` ([`limit_correction`]).
    #[allow(clippy::too_many_arguments)]
    pub fn project(
        &mut self,
        fluids: &mut [Option<Fluid>],
        particles: &mut Particles,
        first: bool,
        iterations: u32,
        colliders: &Colliders,
        exec: &Executor,
    ) {
        if !self.active {
            return;
        }
        if first {
            self.build(fluids, particles, colliders, exec);
        }
        let m = self.src.len();
        if m == 0 {
            return;
        }
        let threads = Self::threads(exec, m);
        let chunks = m.div_ceil(SLOT_CHUNK);
        let uniform = self.uniform;
        let this = &mut *self;
        let views = Views {
            pos: DisjointSlice::new(&mut this.pos[..m]),
            inv_mass: DisjointSlice::new(&mut this.inv_mass[..m]),
            lambda: DisjointSlice::new(&mut this.lambda[..m]),
            ratio: DisjointSlice::new(&mut this.ratio[..m]),
        };
        let force = DisjointSlice::new(&mut this.force[..]);
        let rec = DisjointSlice::new(&mut this.rec[..m]);
        let (kernel, uniform_class) = (this.kernel, this.uniform_class);
        let consts = this.params[uniform_class].consts();
        // No limit among colliders at rest (an infinite one changes no bit).
        let per_iteration = if colliders.moving() {
            1.0 / iterations.max(1) as f32
        } else {
            f32::INFINITY
        };
        let (params, class, particle) = (&this.params, &this.class[..m], &this.particle[..m]);
        let (list_end, lists) = (&this.list_end[..m], &this.lists);
        let (wall_end, walls) = (&this.wall_end[..m], &this.walls);
        let factors = DisjointSlice::new(&mut this.factors[..]);
        let ties = DisjointSlice::new(&mut this.ties[..m]);
        let origin = this.origin;
        let (hot, base) = (DisjointSlice::new(&mut particles.hot), &particles.base[..]);
        let pass = UniformPass {
            kernel,
            consts,
            prm: &params[uniform_class],
            limit: params[uniform_class].h * per_iteration,
            list_end,
            lists,
            wall_end,
            walls,
            factors: &factors,
            ties: &ties,
            pos: &views.pos,
            ratio: &views.ratio,
            rec: &rec,
            particle,
            base,
        };
        let plan = [chunks, chunks, chunks];
        exec.stages(threads, &plan[..], |stage, c| {
            let slots = c * SLOT_CHUNK..((c + 1) * SLOT_CHUNK).min(m);
            match stage {
                // Positions of this iteration (the build gathered the first ones).
                0 => {
                    if !first {
                        let end = slots.end;
                        for k in slots {
                            prefetch_particle(hot.as_ptr(), base, particle, k + PREFETCH, end);
                            let p = particle[k] as usize;
                            // SAFETY: slot k is this item's; particle p is read only
                            // (hot is written in stage 2, after this stage).
                            unsafe {
                                let h = hot.get(p);
                                let x = (base[p] - origin) + Vec3A::from_vec4(h);
                                let v = views.pos.get(k).w;
                                views.pos.set(k, x.extend(v));
                                views.inv_mass.set(k, h.w);
                            }
                        }
                    }
                }
                1 => {
                    if uniform {
                        // SAFETY: stage 1 reads every slot's position (written in
                        // stage 0) and writes its own slots' records, ρ̂, ties and
                        // pair buffers (chunk c's).
                        unsafe { pass.density(c, slots) };
                        return;
                    }
                    for k in slots {
                        let list = list_of(list_end, lists, k);
                        let cl = class[k];
                        if cl == SOLID {
                            // SAFETY: slot k is this item's.
                            unsafe { views.lambda.set(k, 0.0) };
                            continue;
                        }
                        let prm = &params[cl as usize];
                        let near = list_of(wall_end, walls, k);
                        // SAFETY: stage 1 reads positions (written in stage 0) and
                        // writes its own slots' λ and ρ̂.
                        let (l, rho) =
                            unsafe { lambda_general(&views, params, class, prm, k, list, near) };
                        // SAFETY: slot k is this item's.
                        unsafe {
                            views.lambda.set(k, l);
                            views.ratio.set(k, rho);
                        }
                    }
                }
                _ => {
                    if uniform {
                        // SAFETY: stage 2 reads every slot's λ and position (written
                        // in the stages before) and writes its own slots' particles.
                        unsafe { pass.correction(c, slots, &hot) };
                        return;
                    }
                    let end = slots.end;
                    for k in slots {
                        prefetch_particle(hot.as_ptr(), base, particle, k + PREFETCH, end);
                        let list = list_of(list_end, lists, k);
                        // SAFETY: stage 2 reads every slot's λ and position (written
                        // in the stages before) and writes its own particle.
                        unsafe {
                            let near = list_of(wall_end, walls, k);
                            let mut dx = delta_general(&views, params, class, k, list, near);
                            if class[k] != SOLID {
                                let limit = params[class[k] as usize].h * per_iteration;
                                dx = limit_correction(dx, limit);
                            }
                            let p = particle[k] as usize;
                            let h = hot.get(p);
                            hot.set(p, (Vec3A::from_vec4(h) + dx).extend(h.w));
                            if class[k] == SOLID && h.w > 0.0 {
                                force.set(p, force.get(p) + Vec3::from(dx) / h.w);
                            }
                        }
                    }
                }
            }
        });
    }
}

/// The density and correction passes of a world of one fluid, a chunk of slots per
/// call, with the SIMD kernel inlined into the slot loop (AVX: compiled with the
/// feature, so no call per slot and no result through memory).
struct UniformPass<'a, 'p> {
    kernel: Kernel,
    consts: Consts,
    prm: &'a Params,
    /// The longest correction of one iteration (m; [`limit_correction`]).
    limit: f32,
    list_end: &'a [u32],
    lists: &'a [Vec<u32>],
    wall_end: &'a [u32],
    walls: &'a [Vec<Vec4>],
    factors: &'a DisjointSlice<'p, Vec<f32>>,
    ties: &'a DisjointSlice<'p, u8>,
    pos: &'a DisjointSlice<'p, Vec4>,
    ratio: &'a DisjointSlice<'p, f32>,
    rec: &'a DisjointSlice<'p, Vec4>,
    particle: &'a [u32],
    base: &'a [Vec3A],
}

impl UniformPass<'_, '_> {
    /// λ, ρ̂, the tie flags and the pair buffers of the slots of chunk `c`.
    ///
    /// # Safety
    /// Stage 1 of `project`: every slot's position is written, the chunk's slots and
    /// buffer are this caller's.
    unsafe fn density(&self, c: usize, slots: Range<usize>) {
        match self.kernel {
            #[cfg(target_arch = "x86_64")]
            // SAFETY: Kernel::Avx is only chosen where the CPU has AVX; per the contract.
            Kernel::Avx => unsafe { self.density_avx(c, slots) },
            // SAFETY: per the contract.
            _ => unsafe { self.density_with(Kernel::Scalar, c, slots) },
        }
    }

    #[cfg(target_arch = "x86_64")]
    #[target_feature(enable = "avx")]
    unsafe fn density_avx(&self, c: usize, slots: Range<usize>) {
        // SAFETY: per the contract of `density`.
        unsafe { self.density_with(Kernel::Avx, c, slots) }
    }

    #[inline(always)]
    unsafe fn density_with(&self, kernel: Kernel, c: usize, slots: Range<usize>) {
        // SAFETY: per the contract of `density`.
        unsafe {
            let pos = kernels::records(self.pos.as_slice());
            let buf = self.factors.get_mut(c);
            for k in slots {
                let list = list_of(self.list_end, self.lists, k);
                let f = &mut buf[pair_start(self.list_end, k)..];
                let near = list_of(self.wall_end, self.walls, k);
                let (l, rho, tie) =
                    lambda_uniform(kernel, &self.consts, self.prm, pos, k, list, near, f);
                self.rec.set(k, self.pos.get(k).truncate().extend(l));
                self.ratio.set(k, rho);
                self.ties.set(k, tie as u8);
            }
        }
    }

    /// Each slot's Δx of chunk `c`, added to its particle in `hot`.
    ///
    /// # Safety
    /// Stage 2 of `project`: every slot's record is written; the chunk's particles
    /// are this caller's.
    unsafe fn correction(&self, c: usize, slots: Range<usize>, hot: &DisjointSlice<'_, Vec4>) {
        match self.kernel {
            #[cfg(target_arch = "x86_64")]
            // SAFETY: as in `density`.
            Kernel::Avx => unsafe { self.correction_avx(c, slots, hot) },
            // SAFETY: per the contract.
            _ => unsafe { self.correction_with(Kernel::Scalar, c, slots, hot) },
        }
    }

    #[cfg(target_arch = "x86_64")]
    #[target_feature(enable = "avx")]
    unsafe fn correction_avx(&self, c: usize, slots: Range<usize>, hot: &DisjointSlice<'_, Vec4>) {
        // SAFETY: per the contract of `correction`.
        unsafe { self.correction_with(Kernel::Avx, c, slots, hot) }
    }

    #[inline(always)]
    unsafe fn correction_with(
        &self,
        kernel: Kernel,
        c: usize,
        slots: Range<usize>,
        hot: &DisjointSlice<'_, Vec4>,
    ) {
        // SAFETY: per the contract of `correction`; the lists hold slots of the grid
        // (below m, the length of `rec`).
        unsafe {
            let rec = kernels::records(self.rec.as_slice());
            let buf = &self.factors.get_mut(c)[..];
            let end = slots.end;
            for k in slots {
                prefetch_particle(hot.as_ptr(), self.base, self.particle, k + PREFETCH, end);
                let list = list_of(self.list_end, self.lists, k);
                let f = &buf[pair_start(self.list_end, k)..];
                let tie = self.ties.get(k) != 0;
                let d = kernels::correction(kernel, &self.consts, rec, k, list, f, tie);
                let mut dx = Vec3A::from_array(d) * self.prm.volume;
                let near = list_of(self.wall_end, self.walls, k);
                if !near.is_empty() {
                    let pk = self.rec.get(k);
                    let (_, g) = wall_terms(self.prm, near, Vec3A::from_vec4(pk));
                    dx += g * pk.w;
                }
                let dx = limit_correction(dx, self.limit);
                let p = self.particle[k] as usize;
                let h = hot.get(p);
                hot.set(p, (Vec3A::from_vec4(h) + dx).extend(h.w));
            }
        }
    }
}

/// λ and ρ̂ of fluid slot k when every slot is of one fluid (`kernels::density`).
///
/// `factors` has room for `kernels::pair_room(list.len())` floats. Also returns
/// whether the list holds a coincident pair.
#[allow(clippy::too_many_arguments)]
fn lambda_uniform(
    kernel: Kernel,
    c: &Consts,
    p: &Params,
    pos: &[[f32; 4]],
    k: usize,
    list: &[u32],
    near: &[Vec4],
    factors: &mut [f32],
) -> (f32, f32, bool) {
    // SAFETY: the lists hold slots of the grid (below m, the length of `pos`): the
    // build writes only slots it scanned.
    let d = unsafe { kernels::density(kernel, c, pos, k, list, factors) };
    let vol = p.volume;
    let q0 = (p.h2 * p.h2) * p.h2;
    let mut rho = (q0 + d.q3) * (p.poly6 * vol);
    let mut g = d.grad.map(|x| x * vol);
    if !near.is_empty() {
        let [x, y, z, _] = pos[k];
        let (wr, wg) = wall_terms(p, near, Vec3A::new(x, y, z));
        rho += wr;
        g = [g[0] + wg.x, g[1] + wg.y, g[2] + wg.z];
    }
    let sum2 = d.grad2 * (vol * vol) + ((g[0] * g[0] + g[1] * g[1]) + g[2] * g[2]);
    let c = (rho - 1.0).max(0.0);
    (-c / (sum2 + p.epsilon), rho, d.tie)
}

/// λ and ρ̂ of fluid slot k (any mix of fluids and solids).
///
/// # Safety
/// As [`lambda_uniform`].
#[inline(always)]
unsafe fn lambda_general(
    v: &Views<'_>,
    params: &[Params],
    class: &[u32],
    p: &Params,
    k: usize,
    list: &[u32],
    near: &[Vec4],
) -> (f32, f32) {
    let _ = params;
    let _ = class;
    // SAFETY: per the contract.
    unsafe {
        let pk4 = v.pos.get(k);
        let pk = Vec3A::from_vec4(pk4);
        let q0 = p.h2;
        let mut rho = pk4.w * q0 * q0 * q0;
        let mut grad = Vec3A::ZERO;
        let mut sum2 = 0.0f32;
        for &j in list {
            let j = j as usize;
            let pj = v.pos.get(j);
            let d = pk - Vec3A::from_vec4(pj);
            let r2 = d.length_squared();
            if r2 < p.h2 {
                let q = p.h2 - r2;
                rho += pj.w * q * q * q;
                let g = p.gradient(d, r2, k, j) * pj.w;
                grad += g;
                sum2 += g.length_squared() * (p.mass * v.inv_mass.get(j));
            }
        }
        let mut rho = rho * p.poly6;
        if !near.is_empty() {
            let (wr, wg) = wall_terms(p, near, pk);
            rho += wr;
            grad += wg;
        }
        let sum2 = sum2 + grad.length_squared();
        let c = (rho - 1.0).max(0.0);
        (-c / (sum2 + p.epsilon), rho)
    }
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

/// Δx of slot k (fluid or solid; any mix).
///
/// # Safety
/// As [`lambda_general`], with every λ written.
#[inline(always)]
unsafe fn delta_general(
    v: &Views<'_>,
    params: &[Params],
    class: &[u32],
    k: usize,
    list: &[u32],
    near: &[Vec4],
) -> Vec3A {
    // SAFETY: per the contract.
    unsafe {
        let pk4 = v.pos.get(k);
        let pk = Vec3A::from_vec4(pk4);
        let (vk, wk) = (pk4.w, v.inv_mass.get(k));
        let ck = class[k];
        let lk = v.lambda.get(k);
        let mut dx = Vec3A::ZERO;
        for &j in list {
            let j = j as usize;
            let pj = v.pos.get(j);
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
                        s += prm.scorr(r2) * pj.w;
                        if cj == ck {
                            // Constraint j on k, same kernel.
                            s += v.lambda.get(j) * prm.mass * wk * vk;
                        }
                    }
                    dx += prm.gradient(d, r2, k, j) * s;
                }
                if cj == SOLID || cj == ck {
                    continue;
                }
            }
            // Constraint j (fluid of another kernel, or any fluid for a solid k).
            if cj != SOLID {
                let pj_prm = &params[cj as usize];
                if r2 < pj_prm.h2 {
                    let mut s = v.lambda.get(j) * pj_prm.mass * wk * vk;
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
            dx += g * lk;
        }
        dx
    }
}

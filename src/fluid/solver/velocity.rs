//! The velocity passes at the end of a substep (see the module doc of
//! `fluid::solver`): XSPH viscosity, vorticity confinement, cohesion and adhesion.

use super::{
    adhesion_kernel, cohesion_kernel, list_of, DensitySolver, Params, PULL_RATE2, SLOT_CHUNK, SOLID,
};
use crate::fluid::Fluid;
use crate::kernels::fluid as kernels;
use crate::math::{Vec3, Vec3A};
use crate::particles::Particles;
use crate::solver::parallel::{DisjointSlice, Executor};

impl DensitySolver {
    /// End of a substep of length `h` (s), after the velocity update: XSPH viscosity,
    /// vorticity confinement, cohesion and adhesion (see the module doc).
    pub fn end_substep(
        &mut self,
        fluids: &[Option<Fluid>],
        particles: &mut Particles,
        h: f32,
        exec: &Executor,
    ) {
        let _ = fluids;
        if !self.active {
            return;
        }
        let m = self.src.len();
        if m == 0 {
            return;
        }
        let fluid_slots = m - self.solids.len();
        let any = |f: fn(&Params) -> f32| {
            self.params
                .iter()
                .take(fluids.len())
                .enumerate()
                .any(|(k, p)| fluids[k].as_ref().is_some_and(|f| f.count > 0) && f(p) > 0.0)
        };
        let (viscous, vortical) = (any(|p| p.viscosity), any(|p| p.vorticity));
        let (cohesive, adhesive) = (any(|p| p.cohesion), any(|p| p.adhesion));
        if !(viscous || vortical || cohesive || adhesive) || fluid_slots == 0 {
            return;
        }
        let threads = Self::threads(exec, m);
        let chunks = m.div_ceil(SLOT_CHUNK);
        let this = &mut *self;
        let origin = this.origin;
        let (params, class, particle) = (&this.params, &this.class[..m], &this.particle[..m]);
        let (list_end, lists) = (&this.list_end[..m], &this.lists);
        let ratio = &this.ratio[..m];
        let pos = DisjointSlice::new(&mut this.pos[..m]);
        let vel = DisjointSlice::new(&mut this.vel[..m]);
        let omega = DisjointSlice::new(&mut this.omega[..m]);
        let velocity = DisjointSlice::new(&mut particles.velocity[..]);
        let (hot, base) = (&particles.hot[..], &particles.base[..]);
        // One fluid with viscosity only (the usual case): the eight-lane loop.
        let plain = this.uniform && !(vortical || cohesive || adhesive);
        let (kernel, uc) = (this.kernel, this.uniform_class);
        let plan = [chunks, chunks, chunks];
        exec.stages(threads, &plan[..], |stage, c| {
            let slots = c * SLOT_CHUNK..((c + 1) * SLOT_CHUNK).min(m);
            if plain && stage == 2 {
                let prm = &params[uc];
                let f = prm.viscosity * (prm.poly6 * prm.volume);
                for k in slots {
                    let list = list_of(list_end, lists, k);
                    // SAFETY: reads the slots stage 0 wrote, writes its own particle's
                    // velocity; the lists hold slots of the grid (below m).
                    unsafe {
                        let s = kernels::viscosity(
                            kernel,
                            prm.h2,
                            kernels::records(pos.as_slice()),
                            kernels::records(vel.as_slice()),
                            k,
                            list,
                        );
                        let p = particle[k] as usize;
                        velocity.set(p, velocity.get(p) + Vec3::from_array(s) * f);
                    }
                }
                return;
            }
            match stage {
                0 => {
                    for k in slots {
                        let p = particle[k] as usize;
                        // SAFETY: slot k is this item's; velocities are written in
                        // stage 2 only.
                        unsafe {
                            let x = (base[p] - origin) + Vec3A::from_vec4(hot[p]);
                            pos.set(k, x.extend(pos.get(k).w));
                            vel.set(k, velocity.get(p).extend(0.0));
                        }
                    }
                }
                1 => {
                    if !vortical {
                        return;
                    }
                    for k in slots {
                        if class[k] == SOLID {
                            continue;
                        }
                        let prm = &params[class[k] as usize];
                        // SAFETY: reads stage 0's slots, writes its own ω.
                        unsafe {
                            let (pk, vk) = (pos.get(k), vel.get(k).truncate());
                            let mut w = Vec3::ZERO;
                            for &j in list_of(list_end, lists, k) {
                                let j = j as usize;
                                if class[j] == SOLID {
                                    continue;
                                }
                                let pj = pos.get(j);
                                let d: Vec3 = (pk - pj).truncate();
                                let g = prm.grad_factor(d.length_squared()) * pj.w;
                                // ω = ∇ × v: Σ V_j (v_i − v_j) × ∇_i W_ij, which is
                                // Macklin & Müller's Σ v_ij × ∇_j W_ij (their eq. 15).
                                w += (vk - vel.get(j).truncate()).cross(d * g);
                            }
                            omega.set(k, w.extend(0.0));
                        }
                    }
                }
                _ => {
                    for k in slots {
                        if class[k] == SOLID {
                            continue;
                        }
                        let prm = &params[class[k] as usize];
                        // SAFETY: reads the stages before, writes its own particle's
                        // velocity.
                        unsafe {
                            let (pk, vk) = (pos.get(k), vel.get(k).truncate());
                            let wk = omega.get(k).truncate();
                            let mut dv = Vec3::ZERO;
                            let mut eta = Vec3::ZERO;
                            let mut pull = Vec3::ZERO;
                            for &j in list_of(list_end, lists, k) {
                                let j = j as usize;
                                let pj = pos.get(j);
                                let d: Vec3 = (pk - pj).truncate();
                                let r2 = d.length_squared();
                                if r2 >= prm.h2 {
                                    continue;
                                }
                                if class[j] == SOLID {
                                    if prm.adhesion > 0.0 {
                                        let r = r2.sqrt();
                                        let a = adhesion_kernel(r, prm.h);
                                        if r > 0.0 {
                                            pull -= d * (prm.adhesion * a * (pj.w / pk.w) / r);
                                        }
                                    }
                                    continue;
                                }
                                let q = prm.h2 - r2;
                                let wgt = prm.poly6 * q * q * q * pj.w;
                                dv += (vel.get(j).truncate() - vk) * wgt;
                                if vortical {
                                    let g = prm.grad_factor(r2) * pj.w;
                                    let wj = omega.get(j).truncate();
                                    eta += d * (g * (wj.length() - wk.length()));
                                }
                                if prm.cohesion > 0.0 {
                                    let r = r2.sqrt();
                                    let kij = 2.0 / (ratio[k] + ratio[j]).max(1.0e-6);
                                    let cr = cohesion_kernel(r, prm.h);
                                    if r > 0.0 {
                                        pull -= d * (kij * prm.cohesion * cr / r);
                                    }
                                }
                            }
                            let p = particle[k] as usize;
                            let mut v = velocity.get(p) + dv * prm.viscosity;
                            if vortical {
                                let l = eta.length();
                                if l > 0.0 {
                                    let nrm = eta / l;
                                    v += nrm.cross(wk) * (prm.vorticity * wk.length() * h);
                                }
                            }
                            if prm.cohesion > 0.0 || prm.adhesion > 0.0 {
                                // γ = 1: a neighbour at the kernel's peak accelerates
                                // the particle at s / T² (T = 1/60 s), whatever h.
                                v += pull * (prm.spacing * h * PULL_RATE2);
                            }
                            velocity.set(p, v);
                        }
                    }
                }
            }
        });
    }
}

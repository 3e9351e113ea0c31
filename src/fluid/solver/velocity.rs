//! The velocity passes at the end of a substep (see the module doc of
//! `fluid::solver`): XSPH viscosity, vorticity confinement, cohesion and adhesion.

use super::{
    adhesion_kernel, cohesion_kernel, list_of, DensitySolver, Params, DRIFT_RATIO,
    INTERFACE_TENSION, LAYER_DRIFT, PULL_RATE2, SLOT_CHUNK, SOLID, WALL_FILL_MAX,
};
use crate::fluid::Fluid;
use crate::kernels::fluid as kernels;
use crate::kernels::fluid_pass;
use crate::math::{Vec3, Vec3A, Vec4};
use crate::particles::Particles;
use crate::solver::disjoint::{StagePlaces, StageSlots};
use crate::solver::parallel::Executor;

/// The arrays of the pass, each with the stage that writes it (the others read it
/// whole): stage 0 the slots' positions and velocities, stage 1 their vorticity,
/// stage 2 the particles' velocities through the slot-to-particle map.
struct Parts<'a> {
    pos: StageSlots<'a, Vec4>,
    vel: StageSlots<'a, Vec4>,
    omega: StageSlots<'a, Vec4>,
    velocity: StagePlaces<'a, Vec3>,
}

impl DensitySolver {
    /// End of a substep of length `h` (s), after the velocity update: XSPH viscosity,
    /// vorticity confinement, cohesion and adhesion (see the module doc).
    pub fn end_substep(
        &mut self,
        fluids: &[Option<Fluid>],
        particles: &mut Particles,
        h: f32,
        gravity: Vec3,
        exec: &Executor,
    ) {
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
        let layered = self.layering.layered;
        if !(viscous || vortical || cohesive || adhesive || layered) || fluid_slots == 0 {
            return;
        }
        let threads = Self::threads(exec, m);
        let chunks = m.div_ceil(SLOT_CHUNK);
        let this = &mut *self;
        let origin = this.origin;
        let (params, class) = (&this.params, &this.class[..m]);
        let particle = &this.particle.order()[..m];
        let (list_end, lists) = (&this.list_end[..m], &this.lists[..chunks]);
        let ratio = &this.ratio[..m];
        let (wall_end, walls) = (&this.wall_end[..m], &this.walls);
        let hot = &particles.hot[..];
        let base = &particles.base[..];
        let parts = Parts {
            pos: StageSlots::new(&mut this.pos[..m], 0, SLOT_CHUNK),
            vel: StageSlots::new(&mut this.vel[..m], 0, SLOT_CHUNK),
            omega: StageSlots::new(&mut this.omega[..m], 1, SLOT_CHUNK),
            velocity: this.particle.places(&mut particles.velocity, 2, SLOT_CHUNK),
        };
        // One fluid with viscosity only (the usual case): the eight-lane loop.
        let plain = this.uniform && !(vortical || cohesive || adhesive);
        let (kernel, uc) = (this.kernel, this.uniform_class);
        exec.staged(threads, 3, chunks, parts, |item, p| {
            let c = item.index();
            let slots = c * SLOT_CHUNK..((c + 1) * SLOT_CHUNK).min(m);
            let stage = item.stage();
            if plain && stage == 2 {
                let prm = &params[uc];
                let f = prm.viscosity * (prm.poly6 * prm.volume);
                let (pos, vel) = (item.read(&p.pos), item.read(&p.vel));
                let mut velocity = item.write(&p.velocity);
                fluid_pass::viscosity_chunk(
                    kernel,
                    prm.h2,
                    kernels::records(pos),
                    kernels::records(vel),
                    &lists[c],
                    &list_end[slots.clone()],
                    slots.start,
                    #[inline(always)]
                    |k, s| {
                        let v = velocity.at(k);
                        *v += Vec3::from_array(s) * f;
                    },
                );
                return;
            }
            match stage {
                0 => {
                    let velocity = item.read(&p.velocity);
                    // One length for the three (one bounds check per slot).
                    let (hot, base) = (&hot[..velocity.len()], &base[..velocity.len()]);
                    let (pos, vel) = item.write((&p.pos, &p.vel));
                    for (j, k) in slots.enumerate() {
                        let i = particle[k] as usize;
                        let x = (base[i] - origin) + Vec3A::from_vec4(hot[i]);
                        pos[j] = x.extend(pos[j].w);
                        vel[j] = velocity[i].extend(0.0);
                    }
                }
                1 => {
                    if !vortical {
                        return;
                    }
                    let (pos, vel) = (&item.read(&p.pos)[..m], &item.read(&p.vel)[..m]);
                    let (omega, class) = (item.write(&p.omega), &class[..m]);
                    for (j, k) in slots.enumerate() {
                        if class[k] == SOLID {
                            continue;
                        }
                        let prm = &params[class[k] as usize];
                        let (pk, vk) = (pos[k], vel[k].truncate());
                        let mut w = Vec3::ZERO;
                        for &i in list_of(list_end, lists, k) {
                            let i = i as usize;
                            if class[i] == SOLID {
                                continue;
                            }
                            let pi = pos[i];
                            let d: Vec3 = (pk - pi).truncate();
                            let g = prm.grad_factor(d.length_squared()) * pi.w;
                            // ω = ∇ × v: Σ V_j (v_i − v_j) × ∇_i W_ij, which is
                            // Macklin & Müller's Σ v_ij × ∇_j W_ij (their eq. 15).
                            w += (vk - vel[i].truncate()).cross(d * g);
                        }
                        omega[j] = w.extend(0.0);
                    }
                }
                _ => {
                    // One length for every array (one bounds check per neighbour).
                    let (pos, vel) = (&item.read(&p.pos)[..m], &item.read(&p.vel)[..m]);
                    let (omega, class, ratio) =
                        (&item.read(&p.omega)[..m], &class[..m], &ratio[..m]);
                    let mut velocity = item.write(&p.velocity);
                    for k in slots {
                        if class[k] == SOLID {
                            continue;
                        }
                        let prm = &params[class[k] as usize];
                        let (pk, vk) = (pos[k], vel[k].truncate());
                        let wk = omega[k].truncate();
                        let mut dv = Vec3::ZERO;
                        let mut eta = Vec3::ZERO;
                        let mut pull = Vec3::ZERO;
                        // Layered worlds: the unlike neighbours' tension and drift
                        // (`super::INTERFACE_TENSION`, `super::LAYER_DRIFT`).
                        let mut apart = Vec3::ZERO;
                        let mut lift = 0.0f32;
                        let mut total = 0.0f32;
                        for &j in list_of(list_end, lists, k) {
                            let j = j as usize;
                            let pj = pos[j];
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
                            total += wgt;
                            dv += (vel[j].truncate() - vk) * wgt;
                            if layered && class[j] != class[k] {
                                let other = &params[class[j] as usize];
                                let (rho_j, rho_k) =
                                    (other.mass / other.volume, prm.mass / prm.volume);
                                lift += wgt * ((rho_j - rho_k) / rho_k).min(DRIFT_RATIO);
                                let r = r2.sqrt();
                                if r > 0.0 {
                                    apart += d * (cohesion_kernel(r, prm.h) / r);
                                }
                            }
                            if vortical {
                                let g = prm.grad_factor(r2) * pj.w;
                                let wj = omega[j].truncate();
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
                        let out = velocity.at(k);
                        let mut v = *out + dv * prm.viscosity;
                        if layered {
                            // The drift: the unlike fluid's buoyancy, (ρ_j − ρ_k)/ρ_k
                            // per unit of Σ V_j W; beside a wall, per unit of the
                            // fluid there (`super::WALL_FILL_MAX`).
                            let fill = if list_of(wall_end, walls, k).is_empty() || total <= 0.0 {
                                1.0
                            } else {
                                (1.0 / total).clamp(1.0, WALL_FILL_MAX)
                            };
                            v -= gravity * (LAYER_DRIFT * lift * fill * h);
                            // The tension, less what pushes into a wall: the fluid
                            // the wall stands in for is the particle's own mirrored,
                            // with the unlike neighbours mirrored too, whose pushes
                            // cancel the part normal to the wall (a light particle
                            // in a corner under a heavy fluid was pressed into it).
                            for w in list_of(wall_end, walls, k) {
                                let n = Vec3::new(w.x, w.y, w.z);
                                let into = n.dot(apart);
                                if into < 0.0 {
                                    apart -= n * into;
                                }
                            }
                            v += apart * (INTERFACE_TENSION * prm.spacing * h * PULL_RATE2);
                        }
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
                        *out = v;
                    }
                }
            }
        });
    }
}

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
//!   (mass weighting), and moves by the average over its active contacts (the
//!   relaxation of the UE 4.26 Niagara Advanced PBD sample (Epic Games, 2020)).
//!   Unyielding (the same sample): when only j is unyielding,
//!   `s_i = lerp(s_i, 1, u_j)`; when only i is, `s_i = lerp(s_i, 0, u_i)` (so u = 1
//!   pushes others without being pushed). Every particle reads the positions gathered
//!   at the start of the projection and writes only its own correction (fast
//!   partners of a slow particle are added in a short serial pass, in a fixed order),
//!   so the result does not depend on the thread count.

use super::neighbours::{NeighbourStats, Neighbours};
use crate::error::{try_reserve, Result};
use crate::kernels::contact::{push, sum, Cloud};
use crate::kernels::simd::Kernel;
use crate::math::{Vec3, Vec4};
use crate::particles::Particles;
use crate::solver::parallel::{Executor, Rows};

/// Buffers of the particle–particle pass, reused from step to step.
#[derive(Default)]
pub(crate) struct ParticleContacts {
    pub search: Neighbours,
    /// Per slot: the summed correction (xyz) and the number of active contacts (w).
    delta: Vec<Vec4>,
    /// The contact sum's implementation (AVX where the CPU has it: `Kernel::default`).
    kernel: Kernel,
}

impl ParticleContacts {
    /// Builds the neighbour lists for a step whose substeps last `h` seconds. Allocates
    /// only when the particle count grew since the last step.
    pub(crate) fn begin_step(
        &mut self,
        particles: &Particles,
        h: f32,
        exec: &Executor,
    ) -> Result<()> {
        let n = particles.len();
        if self.delta.len() < n {
            let grow = n - self.delta.len();
            try_reserve(&mut self.delta, grow, "contact corrections")?;
            self.delta.resize(n, Vec4::ZERO);
        }
        self.search.begin_step(particles, h, exec)
    }

    pub(crate) fn stats(&self) -> NeighbourStats {
        let mut s = self.search.stats();
        s.bytes += (self.delta.capacity() * std::mem::size_of::<Vec4>()) as u64;
        s
    }

    /// One Jacobi projection of all particle–particle contacts.
    pub(crate) fn project(&mut self, particles: &mut Particles, h: f32, exec: &Executor) {
        self.search.refresh(particles, h, exec);
        if !self.search.active {
            return;
        }
        let s = &self.search;
        let m = s.len();
        let kernel = self.kernel;
        let plain = s.plain();
        let cloud = Cloud::new(&s.base, &s.hot, &s.radius, &s.unyielding);
        let roaming = |j: usize| s.is_roaming(j);
        if !s.has_roaming() {
            exec.for_chunks(Rows::new(&mut self.delta[..m]), |range, delta| {
                for (k, delta) in range.zip(delta) {
                    let pk = s.hot[k];
                    let mut acc = Vec3::ZERO;
                    let mut active = 0u32;
                    if pk.w != 0.0 {
                        sum(
                            kernel,
                            &cloud,
                            k,
                            s.list(k),
                            false,
                            roaming,
                            plain,
                            &mut acc,
                            &mut active,
                        );
                    }
                    *delta = acc.extend(active as f32);
                }
            });
        } else {
            // After a partial update: a roaming slot reads its own list; any other
            // skips the roaming entries of its list and adds its side pairs.
            let side = s.side_pairs();
            exec.for_chunks(Rows::new(&mut self.delta[..m]), |range, delta| {
                let mut at = side.partition_point(|q| (q[0] as usize) < range.start);
                for (k, delta) in range.zip(delta) {
                    let pk = s.hot[k];
                    let mut acc = Vec3::ZERO;
                    let mut active = 0u32;
                    if pk.w != 0.0 {
                        let (uk, rk) = (s.unyielding[k], s.radius[k]);
                        if let Some(list) = s.roam_list(k) {
                            sum(
                                kernel,
                                &cloud,
                                k,
                                list,
                                false,
                                roaming,
                                plain,
                                &mut acc,
                                &mut active,
                            );
                        } else {
                            sum(
                                kernel,
                                &cloud,
                                k,
                                s.list(k),
                                true,
                                roaming,
                                plain,
                                &mut acc,
                                &mut active,
                            );
                            while at < side.len() && side[at][0] as usize == k {
                                let j = side[at][1] as usize;
                                if let Some(d) = push(&cloud, k, j, pk, uk, rk) {
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
        // The fast partners of slow particles, in the fixed order of the pairs.
        for &[k, j] in &s.fast_pairs {
            let (k, j) = (k as usize, j as usize);
            let pk = s.hot[k];
            if let Some(d) = push(&cloud, k, j, pk, s.unyielding[k], s.radius[k]) {
                self.delta[k] += d.extend(1.0);
            }
        }
        // Each slot's correction to its particle (slots and particles are one to one:
        // `SlotOrder`).
        let delta = &self.delta[..m];
        s.slot_order()
            .scatter_light(exec, &mut particles.hot, |k, hot| {
                let d = delta[k];
                if d.w > 0.0 {
                    let c = d.truncate() / d.w;
                    *hot += c.extend(0.0);
                }
            });
    }
}

//! The integrator: a stage of its own. It predicts at the start of each substep
//! (symplectic Euler on the base + offset split of `crate::particles`) and updates the
//! velocities at its end (`v = (x − x_prev) / h`, the world's damping, then each
//! body's), and it keeps the world's finiteness check.
//!
//! **Fusion.** When no other stage changes a particle between the velocity update of
//! one substep and the predict of the next ([`Stage::moves_particles_between_substeps`]
//! of every stage is false), the pipeline asks for the two as one pass over the
//! particles ([`Integrator::plan`]); the last velocity update then checks every
//! position and velocity as it writes them, so the recovery pass only scans when that
//! check found something. When, in addition, nothing reads the particles between that
//! pass and the first projection of the next substep (no speed limit, which clamps the
//! predicted velocities), the pass waits for that projection and the pipeline hands it
//! to the first constraint sweep ([`Integrator::take_pending`],
//! the constraint stage's fused sweep), which runs it block by block. Each particle sees
//! the same operations in the same order on every path.

use std::ops::Range;
use std::sync::atomic::{AtomicBool, Ordering};

use super::{run_pass, BetweenSubsteps, Stage, StepContext};
use crate::kernels::predict::{
    predict as predict_rows, predict_one, record, update_velocities as update_velocities_rows,
    Boundary,
};
use crate::math::{Vec3, Vec3A};
use crate::particles::Particles;
use crate::solver::parallel::{Executor, Rows, CHUNK};

/// What the step found out about finiteness.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub(crate) enum Finite {
    /// The last velocity update checked every particle and nothing ran after it that
    /// could change a particle: every position and velocity is finite.
    Checked,
    /// Not (or not conclusively) checked: the caller runs `recovery::check`.
    Unknown,
}

/// How the velocity update of one substep and the predict of the next run in this
/// step (chosen by [`Integrator::plan`]).
#[derive(Clone, Copy, PartialEq, Eq, Debug, Default)]
enum Fusion {
    /// Each a pass of its own (something happens between them).
    #[default]
    Apart,
    /// One pass, at the end of the substep.
    Fused,
    /// One pass, handed to the first projection of the next substep.
    IntoSweep,
}

/// The integrator's state: the per-body damping (persistent) and this step's plan.
#[derive(Default)]
pub(crate) struct Integrator {
    /// Extra velocity damping (1/s) of particle ranges (bodies).
    pub damped: Vec<(Range<u32>, f32)>,
    fusion: Fusion,
    /// A fused update-and-predict pass waits for the next projection.
    pending: bool,
    finite: Option<Finite>,
    /// Per chunk of the particle passes (`parallel::CHUNK` particles from 0): whether
    /// none of its particles runs in this step (`world::activity`: asleep or paused),
    /// so that the predict and the velocity update skip it. Empty when every particle
    /// may run.
    pub frozen_chunks: Vec<bool>,
}

impl Integrator {
    /// Chooses this step's path: `idle`, no stage (this one included: body damping)
    /// changes particles between substeps (the pass may fuse); `deferrable`, nothing reads them between the fused pass and
    /// the first projection of the next substep (the pass may wait for it).
    pub(crate) fn plan(&mut self, idle: bool, deferrable: bool, cx: &StepContext<'_>) {
        self.fusion = match (idle, deferrable && cx.iterations > 0) {
            (false, _) => Fusion::Apart,
            (true, false) => Fusion::Fused,
            (true, true) => Fusion::IntoSweep,
        };
        self.pending = false;
        self.finite = Some(Finite::Unknown);
    }

    /// Whether the velocity update and the next predict run as one pass.
    pub(crate) fn fused(&self) -> bool {
        self.fusion != Fusion::Apart
    }

    /// The fused update-and-predict pass if it waits for this projection (once: the
    /// caller runs it, inside a sweep or on its own with [`run_pass`]).
    pub(crate) fn take_pending(&mut self) -> bool {
        std::mem::take(&mut self.pending)
    }

    /// Whether the fused pass may wait for the next projection (and so may also run
    /// at the end of the last projection of a substep, when nothing comes between).
    pub(crate) fn deferred(&self) -> bool {
        self.fusion == Fusion::IntoSweep
    }

    /// The fused pass of this substep ran already (inside the gather of its last
    /// Jacobi iteration): its `end_substep` leaves nothing pending.
    pub(crate) fn pass_ran(&mut self) {
        self.pending = false;
    }

    /// What the step found out about finiteness (after the last `end_substep`).
    pub(crate) fn finite(&self) -> Finite {
        self.finite.unwrap_or(Finite::Unknown)
    }
}

impl Stage for Integrator {
    /// Predict (the first substep also records every start-of-step position for the
    /// recovery pass), unless the fused pass of the last substep predicted already.
    fn begin_substep(&mut self, particles: &mut Particles, cx: &StepContext<'_>) {
        let skip = &self.frozen_chunks;
        if cx.substep == 0 {
            predict::<true>(particles, cx.gravity, cx.h, cx.exec, skip);
        } else if self.fusion == Fusion::Apart {
            predict::<false>(particles, cx.gravity, cx.h, cx.exec, skip);
        }
    }

    /// The velocity update and the per-body damping, or the fused pass (now, or
    /// pending for the next projection).
    fn end_substep(&mut self, particles: &mut Particles, cx: &StepContext<'_>) {
        if self.fused() && !cx.last_substep() {
            if self.fusion == Fusion::IntoSweep {
                self.pending = true;
            } else {
                run_pass(particles, cx.exec, &update_and_predict_pass(cx));
            }
            return;
        }
        let check = self.fused();
        let skip = &self.frozen_chunks;
        let all_finite =
            update_velocities(particles, cx.h, cx.damping_factor, check, cx.exec, skip);
        if check && all_finite {
            self.finite = Some(Finite::Checked);
        }
        for (range, damping) in &self.damped {
            let f = (-damping * cx.h).exp();
            for v in &mut particles.velocity[range.start as usize..range.end as usize] {
                *v *= f;
            }
        }
    }

    fn moves_particles_between_substeps(&self) -> bool {
        !self.damped.is_empty()
    }
}

/// The 2D plane: all motion in the plane z = `z` (m), enforced at the end of every
/// substep (positions onto the plane, z velocities zero).
#[derive(Default)]
pub(crate) struct Plane {
    pub z: Option<f32>,
}

/// Keeps every particle in the plane z = `z`: zero z velocity, z position reset.
pub(crate) fn flatten(particles: &mut Particles, z: f32) {
    for i in 0..particles.len() {
        particles.velocity[i].z = 0.0;
        let d = z - particles.base[i].z;
        if particles.base[i].z + d == z {
            particles.hot[i].z = d;
        } else {
            // The difference rounded (a base far from the plane): the particle goes
            // onto the plane exactly, not a rounding past it (at the coordinate limit,
            // past the limit).
            particles.base[i].z = z;
            particles.hot[i].z = 0.0;
        }
    }
}

impl Stage for Plane {
    fn end_substep(&mut self, particles: &mut Particles, _cx: &StepContext<'_>) {
        if let Some(z) = self.z {
            flatten(particles, z);
        }
    }

    fn moves_particles_between_substeps(&self) -> bool {
        self.z.is_some()
    }
}

/// [`update_velocities`] of one substep and [`predict`] of the next in one pass over
/// the particles (the same operations per particle, in the same order), as a particle
/// pass over any range ([`run_pass`], or inside the next substep's first sweep).
pub(crate) fn update_and_predict_pass(cx: &StepContext<'_>) -> BetweenSubsteps {
    BetweenSubsteps {
        boundary: Boundary {
            h: cx.h,
            inv_h: 1.0 / cx.h,
            damping: cx.damping_factor,
            dv: Vec3A::from(cx.gravity * cx.h),
        },
    }
}

/// Rebases, then predicts with symplectic Euler (pinned particles stay put):
///
/// * `(base, d) = two_sum(base, d)`: what fits of the displacement moves into the base
///   position, exactly (`base + d` is the same real number, `d` is at most half an ulp
///   of `base`);
/// * `v' = v + h g`, `d += h v'`;
/// * the velocity slot keeps `u = v' − d / h` for [`update_velocities`].
///
/// `SAVE` (the first substep): first records each particle's position in
/// `Particles::step_start` (the start-of-step state `recovery::check` restores).
/// A chunk that `skip` marks (no particle of it runs in the step) only records.
fn predict<const SAVE: bool>(
    particles: &mut Particles,
    gravity: Vec3,
    h: f32,
    exec: &Executor,
    skip: &[bool],
) {
    let n = particles.len();
    let parts = (
        Rows::new(&mut particles.hot),
        Rows::new(&mut particles.base),
        Rows::new(&mut particles.velocity),
        Rows::new(&mut particles.step_start[..n]),
    );
    let s = Boundary {
        h,
        inv_h: 1.0 / h,
        damping: 1.0,
        dv: Vec3A::from(gravity * h),
    };
    exec.for_chunks_light(parts, |r, (hot, base, vel, start)| {
        for_pieces(skip, &r, |piece, frozen| {
            let (hot, base) = (&mut hot[piece.clone()], &mut base[piece.clone()]);
            let (vel, start) = (&mut vel[piece.clone()], &mut start[piece]);
            match (SAVE, frozen) {
                (true, true) => record(hot, base, vel, start),
                (false, true) => {}
                (true, false) => predict_rows(hot, base, vel, Some(start), &s),
                (false, false) => predict_rows(hot, base, vel, None, &s),
            }
        })
    });
}

/// Calls `f(piece, frozen)` on the pieces of the particles `r` of a pass (ranges into
/// its rows, in order, covering them): the whole of `r` when `skip` is empty, else one
/// piece per chunk of [`CHUNK`] particles, `frozen` when `skip` marks that chunk.
#[inline]
fn for_pieces(skip: &[bool], r: &Range<usize>, mut f: impl FnMut(Range<usize>, bool)) {
    if skip.is_empty() {
        return f(0..r.len(), false);
    }
    let mut i = r.start;
    while i < r.end {
        let end = ((i / CHUNK + 1) * CHUNK).min(r.end);
        f(
            i - r.start..end - r.start,
            skip.get(i / CHUNK).copied().unwrap_or(false),
        );
        i = end;
    }
}

/// [`predict`] over the particles `range` alone, on the calling thread, with a
/// substep of `h` seconds (a body at a reduced rate, `world::activity`: the same
/// operations per particle as [`predict`], without the start-of-step record).
pub(crate) fn predict_range(particles: &mut Particles, range: Range<u32>, gravity: Vec3, h: f32) {
    let (dv, inv_h) = (Vec3A::from(gravity * h), 1.0 / h);
    for i in range.start as usize..range.end as usize {
        let p = particles.hot[i];
        if p.w == 0.0 {
            continue;
        }
        let (b, d, v) = predict_one(particles.base[i], p, particles.velocity[i], dv, h, inv_h);
        particles.base[i] = b;
        particles.hot[i] = d;
        particles.velocity[i] = v;
    }
}

/// [`update_velocities`] over the particles `range` alone, on the calling thread, for
/// a substep of `h` seconds and the damping factor of that substep (no finiteness
/// check: the recovery pass scans).
pub(crate) fn update_velocities_range(
    particles: &mut Particles,
    range: Range<u32>,
    h: f32,
    damping_factor: f32,
) {
    let inv_h = 1.0 / h;
    for i in range.start as usize..range.end as usize {
        let p = particles.hot[i];
        if p.w != 0.0 {
            let v = Vec3A::from(particles.velocity[i]) + Vec3A::from_vec4(p) * inv_h;
            particles.velocity[i] = (v * damping_factor).into();
        }
    }
}

/// v = (x_new − x_prev) / h = u + d / h (see [`predict`]), then damping. With `check`,
/// also returns whether every particle's position and velocity is finite, the position
/// within the coordinate limit (`particles::in_range`; otherwise true).
fn update_velocities(
    particles: &mut Particles,
    h: f32,
    damping_factor: f32,
    check: bool,
    exec: &Executor,
    skip: &[bool],
) -> bool {
    let s = Boundary {
        h,
        inv_h: 1.0 / h,
        damping: damping_factor,
        dv: Vec3A::ZERO,
    };
    let bad = AtomicBool::new(false);
    let parts = (
        Rows::new(&mut particles.hot),
        Rows::new(&mut particles.base),
        Rows::new(&mut particles.velocity),
    );
    exec.for_chunks_light(parts, |r, (hot, base, vel)| {
        let mut all_finite = true;
        // A frozen particle keeps its velocity and position: nothing to update or
        // check (the last step it ran checked them).
        for_pieces(skip, &r, |piece, frozen| {
            if frozen {
                return;
            }
            let (hot, base) = (&mut hot[piece.clone()], &mut base[piece.clone()]);
            let vel = &mut vel[piece];
            all_finite &= if check {
                update_velocities_rows::<true>(hot, base, vel, &s)
            } else {
                update_velocities_rows::<false>(hot, base, vel, &s)
            };
        });
        if !all_finite {
            bad.store(true, Ordering::Relaxed);
        }
    });
    !bad.into_inner()
}

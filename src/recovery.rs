//! The step's last line of defence against non-finite values.
//!
//! Accepted input is bounded (crate::limits) and every constraint guards its degenerate
//! geometry, but an extreme state (a tangled cloth with rigid constraints, particles
//! 1e5 m apart) can still ask one substep for corrections that overflow `f32`. The step
//! therefore keeps the positions it started from, checks every particle once at the
//! end, and when a position or velocity is NaN or infinite puts the particles of the
//! body it belongs to (a lone particle: itself) back at their start-of-step positions
//! with zero velocity, and reports `ErrorKind::NonFinite` naming the bodies. Particles
//! of other bodies keep their new state, so one exploding body does not stop a scene.
//!
//! Cost per step: none of its own in the common case. The step's first predict writes
//! the start positions into `Particles::step_start` (grown with the particles, so no
//! allocation) while it reads each particle anyway, and when nothing runs after the
//! last velocity update that could change a particle (no per-body damping, 2D plane or
//! collider restitution), that update checks finiteness as it writes each velocity
//! (`world::step`); otherwise [`check`] reads every position and velocity once more.
//! Finite results are never touched, so ordinary scenes are bit-identical.

use std::sync::atomic::{AtomicBool, Ordering};

use crate::bodies::Bodies;
use crate::error::{Error, ErrorKind, Result};
use crate::math::Vec3;
use crate::particles::Particles;
use crate::solver::parallel::Executor;

/// Bodies named in the message, at most.
const NAMED: usize = 4;

/// Checks every particle; restores the bodies (or lone particles) that hold a
/// non-finite position or velocity to their start-of-step positions
/// (`Particles::step_start`, written by the step's first predict), at rest, and
/// reports them.
pub(crate) fn check(particles: &mut Particles, bodies: &Bodies, exec: &Executor) -> Result<()> {
    let n = particles.len();
    let bad = AtomicBool::new(false);
    {
        let p = &*particles;
        exec.for_ranges_light(n, |range| {
            if range.clone().any(|i| !finite(p, i)) {
                bad.store(true, Ordering::Relaxed);
            }
        });
    }
    if !bad.into_inner() {
        return Ok(());
    }
    let mut named = Vec::new();
    let (mut bodies_hit, mut lone) = (0usize, 0usize);
    let mut i = 0usize;
    while i < n {
        if finite(particles, i) {
            i += 1;
            continue;
        }
        let range = match bodies.containing(i as u32) {
            Some((id, r)) => {
                bodies_hit += 1;
                if named.len() < NAMED {
                    named.push(format!(
                        "body {:#x} (particles {}..{}, first bad {i})",
                        id.0, r.start, r.end
                    ));
                }
                r.start as usize..r.end as usize
            }
            None => {
                lone += 1;
                if named.len() < NAMED {
                    named.push(format!("particle {i} (in no body)"));
                }
                i..i + 1
            }
        };
        for k in range.clone() {
            particles.set_position(k, particles.step_start[k]);
            particles.velocity[k] = Vec3::ZERO;
        }
        i = range.end.max(i + 1);
    }
    let more = (bodies_hit + lone).saturating_sub(named.len());
    let tail = if more > 0 {
        format!(" and {more} more")
    } else {
        String::new()
    };
    Err(Error::new(
        ErrorKind::NonFinite,
        format!(
            "the step met a non-finite value in {}{tail}; their particles were put back \
                 at their positions before this step, at rest (every other particle advanced)",
            named.join(", ")
        ),
    ))
}

#[inline]
fn finite(p: &Particles, i: usize) -> bool {
    p.position(i).is_finite() && p.velocity[i].is_finite()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::{RopeDesc, World, WorldDesc};

    /// What the step's first predict records: every particle's current position.
    fn save(particles: &mut Particles) {
        for i in 0..particles.len() {
            particles.step_start[i] = particles.position(i);
        }
    }

    /// Two ropes and a lone particle; a NaN appears in rope 1 and an infinity in the
    /// lone particle during a "step": both come back to their saved positions at rest,
    /// rope 0 keeps its new state, the message names rope 1 and the particle.
    #[test]
    fn non_finite_bodies_go_back_to_their_start_of_step_state() {
        let mut w = World::new(WorldDesc {
            threads: 1,
            ..WorldDesc::default()
        })
        .unwrap();
        let rope = |x: f32| RopeDesc {
            start: Vec3::new(x, 1.0, 0.0),
            end: Vec3::new(x + 1.0, 1.0, 0.0),
            segments: 4,
            ..RopeDesc::default()
        };
        let _r0 = w.add_rope(&rope(0.0)).unwrap();
        let r1 = w.add_rope(&rope(5.0)).unwrap();
        let lone = w.add_particles(&[Vec3::new(9.0, 0.0, 0.0)], None).unwrap() as usize;
        save(&mut w.particles);
        let start: Vec<Vec3> = (0..w.particles.len())
            .map(|i| w.particles.position(i))
            .collect();
        // The "step": everything moves; then rope 1 and the lone particle blow up.
        for (i, &x) in start.iter().enumerate() {
            w.particles.set_position(i, x + Vec3::Y * 0.5);
            w.particles.velocity[i] = Vec3::new(0.0, 3.0, 0.0);
        }
        w.particles.hot[7].x = f32::NAN;
        w.particles.velocity[lone] = Vec3::new(f32::INFINITY, 0.0, 0.0);
        let e = check(&mut w.particles, &w.bodies, &w.exec).unwrap_err();
        assert_eq!(e.kind, ErrorKind::NonFinite);
        assert!(e.message.contains(&format!("body {:#x}", r1.0)), "{e}");
        assert!(
            e.message.contains(&format!("particle {lone} (in no body)")),
            "{e}"
        );
        for (i, &x) in start.iter().enumerate() {
            let (p, v) = (w.particles.position(i), w.particles.velocity[i]);
            if (5..10).contains(&i) || i == lone {
                assert_eq!((p, v), (x, Vec3::ZERO), "particle {i} restored");
            } else {
                assert_eq!((p, v), (x + Vec3::Y * 0.5, Vec3::new(0.0, 3.0, 0.0)));
            }
        }
        // Nothing non-finite: Ok, nothing touched.
        check(&mut w.particles, &w.bodies, &w.exec).unwrap();
    }
}

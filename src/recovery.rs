//! The step's last line of defence against non-finite values.
//!
//! Accepted input is bounded (crate::limits) and every constraint guards its degenerate
//! geometry, but an extreme state (a tangled cloth with rigid constraints, particles
//! 1e5 m apart) can still ask one substep for corrections that overflow `f32`. The step
//! therefore keeps the positions it started from, checks every particle once at the
//! end, and when a position or velocity is NaN or infinite, or a position component
//! lies past ±`MAX_COORDINATE` (the accepted coordinate range: past it, the volumes and
//! areas formed from positions overflow; `particles::in_range`), puts the particles of the
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
use crate::limits::MAX_COORDINATE;
use crate::math::Vec3;
use crate::particles::{in_range, Particles};
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
            "the step met a non-finite value or a position past ±{MAX_COORDINATE} m in \
                 {}{tail}; their particles were put back at their positions before this \
                 step, at rest (every other particle advanced)",
            named.join(", ")
        ),
    ))
}

#[inline]
fn finite(p: &Particles, i: usize) -> bool {
    in_range(p.position(i), p.velocity[i])
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

    /// Found by the API fuzzer: steps carried a tet body to 1e20 m (every position
    /// finite) and `body_volume` then read NaN. A step that carries a particle past
    /// ±MAX_COORDINATE recovers its body as from a non-finite value: a tet body and a
    /// lone particle flung outward at the largest accepted speed from near the largest
    /// accepted position stay within the limit (put back at rest, the step reporting
    /// NonFinite), and the volume reads a number; a tet body elsewhere advances.
    #[test]
    fn a_step_past_the_coordinate_limit_recovers_the_body() {
        use crate::limits::MAX_COORDINATE;
        use crate::TetBodyDesc;
        let mut w = World::new(WorldDesc {
            threads: 1,
            gravity: Vec3::ZERO,
            ..WorldDesc::default()
        })
        .unwrap();
        // Edges of 1024 m: at 1e9 m the spacing of f32 is 64 m.
        let e = 1024.0;
        let tet = |x: f32| {
            [
                Vec3::new(x, 0.0, 0.0),
                Vec3::new(x + e, 0.0, 0.0),
                Vec3::new(x, e, 0.0),
                Vec3::new(x, 0.0, e),
            ]
        };
        let volume = e * e * e / 6.0;
        let desc = TetBodyDesc::default();
        let x0 = 0.999e9f32;
        let far = w
            .add_tet_body(&desc, &tet(x0), &[[0, 1, 2, 3]], None)
            .unwrap();
        let near = w
            .add_tet_body(&desc, &tet(0.0), &[[0, 1, 2, 3]], None)
            .unwrap();
        let lone = w.add_particles(&[Vec3::new(0.0, -x0, 0.0)], None).unwrap();
        let fling = |w: &mut World| {
            w.write_velocities(0, &[Vec3::new(MAX_COORDINATE, 0.0, 0.0); 4])
                .unwrap();
            w.write_velocities(4, &[Vec3::X; 4]).unwrap();
            w.write_velocities(lone, &[Vec3::new(0.0, -MAX_COORDINATE, 0.0)])
                .unwrap();
        };
        for _ in 0..3 {
            fling(&mut w);
            let e = w.step(1.0 / 60.0).unwrap_err();
            assert_eq!(e.kind, ErrorKind::NonFinite, "{e}");
            assert!(e.message.contains(&format!("{:#x}", far.0)), "{e}");
            assert!(e.message.contains(&format!("particle {lone}")), "{e}");
            for i in 0..w.particles.len() {
                let (x, v) = (w.particles.position(i), w.particles.velocity[i]);
                assert!(in_range(x, v), "particle {i} at {x}");
            }
            assert_eq!(w.particles.position(0), Vec3::new(x0, 0.0, 0.0));
            assert_eq!(w.particles.velocity[0], Vec3::ZERO);
            assert!(w.particles.position(4).x > 0.0, "the near body advanced");
            assert!((w.body_volume(far).unwrap() - volume).abs() < 1e-3 * volume);
            assert!(w.body_volume(near).unwrap().is_finite());
        }
        assert!(!in_range(Vec3::new(f32::NAN, 0.0, 0.0), Vec3::ZERO));
        assert!(!in_range(Vec3::ZERO, Vec3::new(0.0, f32::INFINITY, 0.0)));
        assert!(!in_range(Vec3::new(0.0, 0.0, -1.0001e9), Vec3::ZERO));
        assert!(in_range(Vec3::splat(MAX_COORDINATE), Vec3::splat(1e30)));
    }

    /// Found by the API fuzzer on valid input: a force read +inf or NaN while every
    /// position was finite. |λ|/h² passes what f32 holds for a particle of 1e12 kg (the
    /// smallest inverse mass) pulled 9e8 m in the shortest substep (1e-6 s / 1024):
    /// about 1e39 N. Every force readback saturates at f32::MAX instead, and a break
    /// event carries that finite force.
    #[test]
    fn forces_past_f32_read_as_the_largest_force() {
        use crate::constraints::FamilyKind;
        use crate::limits::{MAX_SUBSTEPS, MIN_DT, MIN_INVERSE_MASS};
        let mut w = World::new(WorldDesc {
            threads: 1,
            gravity: Vec3::ZERO,
            substeps: MAX_SUBSTEPS,
            ..WorldDesc::default()
        })
        .unwrap();
        w.add_particles(
            &[Vec3::ZERO, Vec3::new(9.0e8, 0.0, 0.0)],
            Some(&[0.0, MIN_INVERSE_MASS]),
        )
        .unwrap();
        w.add_distance_constraints(&[[0, 1]], Some(&[0.0]), 0.0)
            .unwrap();
        let host = w
            .add_attachment_host(crate::transform::Transform {
                position: Vec3::ZERO,
                rotation: glam::Quat::IDENTITY,
            })
            .unwrap();
        w.add_attachments(host, &[1], None, 0.0).unwrap();
        w.set_constraint_break_force(FamilyKind::Distance, 0, 1, 1e38)
            .unwrap();
        let _ = w.step(MIN_DT);
        let mut f = [0.0f32];
        w.read_family_forces(FamilyKind::Distance, 0, &mut f)
            .unwrap();
        assert!(f[0].is_finite() && f[0] >= 0.0, "{}", f[0]);
        let mut events = [crate::BreakReport::default(); 4];
        let (n, _) = w.take_break_events(&mut events);
        assert!(n <= 1);
        assert!(
            events[..n].iter().all(|e| e.force.is_finite()),
            "{events:?}"
        );
        let mut a = [Vec3::ZERO];
        w.read_attachment_forces(0, &mut a).unwrap();
        assert!(a[0].is_finite(), "{}", a[0]);
        w.read_family_forces(FamilyKind::Attachment, 0, &mut f)
            .unwrap();
        assert!(f[0].is_finite() && f[0] >= 0.0, "{}", f[0]);
        assert_eq!(crate::limits::saturate_force(f32::INFINITY), f32::MAX);
        assert_eq!(crate::limits::saturate_force(f32::NAN), f32::MAX);
        assert_eq!(crate::limits::saturate_force(2.5), 2.5);
    }
}

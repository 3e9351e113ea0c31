//! Fixed step with an accumulator and interpolated positions (src/world/interpolation.rs):
//! the lerp between two known states, the step counts and alphas of a frame sequence,
//! the cap that drops time, frame-rate independence bit for bit, teleports, the state
//! before the first step, snapshots, and the C entry points.

use sinew::ffi::bodies::SinewBody;
use sinew::ffi::interpolation::{
    sinew_body_read_interpolated_positions, sinew_world_advance,
    sinew_world_read_interpolated_positions,
};
use sinew::ffi::world::{sinew_world_create, sinew_world_desc_default, SinewVec3, SinewWorld};
use sinew::ffi::SinewStatus;
use sinew::{RopeDesc, Vec3, World, WorldDesc};

/// A power of two, so that multiples and halves of it are exact in `f32` and `f64`.
const FIXED: f32 = 1.0 / 64.0;

fn world(substeps: u32) -> World {
    World::new(WorldDesc {
        substeps,
        threads: 1,
        ..WorldDesc::default()
    })
    .unwrap()
}

fn positions(w: &World) -> Vec<Vec3> {
    let mut out = vec![Vec3::ZERO; w.particle_count() as usize];
    w.read_positions(0, w.particle_count(), |k, p| out[k] = p)
        .unwrap();
    out
}

fn interpolated(w: &World, alpha: f32) -> Vec<Vec3> {
    let mut out = vec![Vec3::ZERO; w.particle_count() as usize];
    w.read_interpolated_positions(0, w.particle_count(), alpha, |k, p| out[k] = p)
        .unwrap();
    out
}

/// Positions and velocities as bits, for exact comparison.
fn state_bits(w: &World) -> Vec<u32> {
    let n = w.particle_count();
    let mut out = Vec::new();
    w.read_positions(0, n, |_, p| out.extend(p.to_array().map(f32::to_bits)))
        .unwrap();
    w.read_velocities(0, n, |_, v| out.extend(v.to_array().map(f32::to_bits)))
        .unwrap();
    out
}

/// A rope pinned at one end, swinging down: every particle moves every step.
fn rope_world() -> World {
    let mut w = world(8);
    w.add_rope(&RopeDesc {
        start: Vec3::new(0.0, 2.0, 0.0),
        end: Vec3::new(1.5, 2.0, 0.3),
        segments: 16,
        ..RopeDesc::default()
    })
    .unwrap();
    w
}

/// Free fall from rest with symplectic Euler in substeps of h: after N substeps the
/// drop is g·h²·N(N+1)/2. Between the states after steps 2 and 3 (one substep per
/// step), the interpolated height is the lerp of the two closed-form heights, and
/// alpha 0 and 1 give the two states bit for bit.
#[test]
fn interpolated_positions_are_the_lerp_of_the_last_two_states() {
    let mut w = world(1);
    let x0 = [Vec3::new(0.0, 10.0, 0.0), Vec3::new(3.0, -1.0, 2.0)];
    w.add_particles(&x0, None).unwrap();
    let g = 9.81f64;
    let h = FIXED as f64;
    let drop = |n: f64| g * h * h * n * (n + 1.0) / 2.0;
    w.step(FIXED).unwrap();
    w.step(FIXED).unwrap();
    let before = positions(&w);
    w.step(FIXED).unwrap();
    let after = positions(&w);
    assert_eq!(interpolated(&w, 0.0), before, "alpha 0: the previous state");
    assert_eq!(interpolated(&w, 1.0), after, "alpha 1: the current state");
    for alpha in [0.25f32, 0.5, 0.8] {
        let got = interpolated(&w, alpha);
        for (i, p) in got.iter().enumerate() {
            // The library's expression, bit for bit.
            assert_eq!(*p, before[i] * (1.0 - alpha) + after[i] * alpha);
            // The closed form: x and z never move, y between the two heights.
            let a = alpha as f64;
            let y = x0[i].y as f64 - ((1.0 - a) * drop(2.0) + a * drop(3.0));
            assert!(
                (p.y as f64 - y).abs() < 2e-6,
                "alpha {alpha}: {} vs {y}",
                p.y
            );
            assert_eq!((p.x, p.z), (x0[i].x, x0[i].z));
        }
    }
}

/// frame_dt = 2.5 fixed steps: 2 steps and alpha 0.5, then 3 steps (0.5 + 2.5) and
/// alpha 0, then 2 steps and alpha 0.5 again; a zero frame runs nothing and keeps
/// alpha; the accumulator holds exactly the leftover.
#[test]
fn advance_runs_whole_steps_and_keeps_the_fraction() {
    let mut w = rope_world();
    let frame = 2.5 * FIXED;
    let mut got = Vec::new();
    for _ in 0..4 {
        let a = w.advance(frame, FIXED, 8).unwrap();
        got.push((a.steps, a.alpha));
    }
    assert_eq!(got, [(2, 0.5), (3, 0.0), (2, 0.5), (3, 0.0)]);
    let a = w.advance(0.25 * FIXED, FIXED, 8).unwrap();
    assert_eq!((a.steps, a.alpha), (0, 0.25));
    let a = w.advance(0.0, FIXED, 8).unwrap();
    assert_eq!((a.steps, a.alpha), (0, 0.25));
    assert_eq!(w.accumulated_time(), 0.25 * FIXED as f64);
    // Exactly one step due: alpha 0, the render state is the one before that step
    // at weight 0 and the current one at weight 1.
    let before = positions(&w);
    let a = w.advance(0.75 * FIXED, FIXED, 8).unwrap();
    assert_eq!((a.steps, a.alpha), (1, 0.0));
    assert_eq!(interpolated(&w, 0.0), before);
    assert_eq!(interpolated(&w, 1.0), positions(&w));
}

/// A 10.25-step frame with max_steps 4 runs 4 steps; the 6 whole steps beyond the cap
/// are dropped, the quarter step is kept (alpha 0.25), so the next 0.5-step frame
/// runs nothing and gives alpha 0.75.
#[test]
fn max_steps_caps_the_steps_and_drops_the_rest() {
    let mut w = rope_world();
    let mut reference = rope_world();
    let a = w.advance(10.25 * FIXED, FIXED, 4).unwrap();
    assert_eq!((a.steps, a.alpha), (4, 0.25));
    assert_eq!(w.accumulated_time(), 0.25 * FIXED as f64);
    for _ in 0..4 {
        reference.step(FIXED).unwrap();
    }
    assert_eq!(state_bits(&w), state_bits(&reference));
    let a = w.advance(0.5 * FIXED, FIXED, 4).unwrap();
    assert_eq!((a.steps, a.alpha), (0, 0.75));
    // max_steps 1: one step per call at most, whatever the frame.
    let a = w.advance(3.0, FIXED, 1).unwrap();
    assert_eq!(a.steps, 1);
    assert!((0.0..1.0).contains(&a.alpha));
    assert!(w.accumulated_time() < FIXED as f64);
}

/// A world advanced by a jittery sequence of frame times ends bit-identical to one
/// stepped with sinew_world_step(fixed) as many times as the advances ran.
#[test]
fn jittery_frames_give_the_same_bits_as_fixed_steps() {
    let mut jittery = rope_world();
    let mut fixed = rope_world();
    // A deterministic jitter: 7 ms to 40 ms frames (an LCG), one hitch of 0.3 s.
    let mut seed = 0x2545_f491u32;
    let mut total = 0u32;
    for frame in 0..120 {
        seed = seed.wrapping_mul(1_664_525).wrapping_add(1_013_904_223);
        let mut dt = 0.007 + 0.033 * (seed >> 8) as f32 / (1u32 << 24) as f32;
        if frame == 60 {
            dt = 0.3;
        }
        let a = jittery.advance(dt, FIXED, 8).unwrap();
        assert!((0.0..1.0).contains(&a.alpha));
        for _ in 0..a.steps {
            fixed.step(FIXED).unwrap();
        }
        total += a.steps;
        assert_eq!(state_bits(&jittery), state_bits(&fixed), "frame {frame}");
    }
    assert!(total > 150, "{total} steps");
    assert_eq!(interpolated(&jittery, 0.3), interpolated(&fixed, 0.3));
}

/// Before the first step the previous state is the current one; a position write is
/// a teleport (previous = current, no streak from the old place); so is a body
/// teleported onto its skin.
#[test]
fn before_the_first_step_and_after_a_write_there_is_no_streak() {
    let mut w = rope_world();
    let start = positions(&w);
    for alpha in [0.0, 0.5, 1.0] {
        assert_eq!(interpolated(&w, alpha), start);
    }
    w.advance(3.5 * FIXED, FIXED, 8).unwrap();
    let moved = positions(&w);
    assert_ne!(interpolated(&w, 0.5), moved, "a swinging rope moves");
    let far: Vec<Vec3> = moved
        .iter()
        .map(|p| *p + Vec3::new(10.0, 0.0, 0.0))
        .collect();
    w.write_positions(0, &far).unwrap();
    for alpha in [0.0, 0.5, 1.0] {
        assert_eq!(interpolated(&w, alpha), far, "alpha {alpha}");
    }
    // The next step interpolates from the written place.
    w.step(FIXED).unwrap();
    let got = interpolated(&w, 0.0);
    assert_eq!(got, far);
}

/// A snapshot keeps the accumulator and the previous state: a restored world gives
/// the same interpolated positions and advances exactly like the saved one.
#[test]
fn a_restored_world_interpolates_and_advances_like_the_saved_one() {
    let mut w = rope_world();
    w.advance(5.5 * FIXED, FIXED, 8).unwrap();
    let snap = w.snapshot();
    let mut copy = World::from_snapshot(&snap, 1).unwrap();
    let mut restored = rope_world();
    restored.advance(0.7, FIXED, 3).unwrap();
    restored.restore_snapshot(&snap).unwrap();
    for other in [&copy, &restored] {
        assert_eq!(other.accumulated_time(), w.accumulated_time());
        assert_eq!(interpolated(other, 0.4), interpolated(&w, 0.4));
    }
    for frame in [0.3 * FIXED, 2.2 * FIXED, 0.9 * FIXED] {
        let a = w.advance(frame, FIXED, 8).unwrap();
        assert_eq!(copy.advance(frame, FIXED, 8).unwrap(), a);
        assert_eq!(restored.advance(frame, FIXED, 8).unwrap(), a);
        assert_eq!(state_bits(&copy), state_bits(&w));
        assert_eq!(state_bits(&restored), state_bits(&w));
        assert_eq!(interpolated(&copy, a.alpha), interpolated(&w, a.alpha));
    }
}

/// The C entry points: sinew_world_advance writes the steps and alpha, the world and
/// body reads write the lerp into a strided buffer (a vertex with a 4-byte colour).
#[test]
fn the_c_calls_advance_and_write_interpolated_vertices() {
    #[repr(C)]
    #[derive(Clone, Copy, Default, Debug, PartialEq)]
    struct Vertex {
        position: SinewVec3,
        colour: u32,
    }
    let mut d = sinew_world_desc_default();
    d.threads = 1;
    let mut w = SinewWorld::default();
    let mut rope = SinewBody::default();
    // SAFETY: every pointer is valid for the count passed.
    unsafe {
        assert_eq!(sinew_world_create(&d, &mut w), SinewStatus::SINEW_OK);
        let mut rd = sinew::ffi::bodies::sinew_rope_desc_default();
        rd.segments = 4;
        assert_eq!(
            sinew::ffi::bodies::sinew_world_add_rope(w, &rd, &mut rope),
            SinewStatus::SINEW_OK
        );
        let (mut steps, mut alpha) = (0u32, 0.0f32);
        let st = sinew_world_advance(w, 2.5 * FIXED, FIXED, 4, &mut steps, &mut alpha);
        assert_eq!(st, SinewStatus::SINEW_OK);
        assert_eq!((steps, alpha), (2, 0.5));
        let mut prev = [SinewVec3::default(); 5];
        let mut cur = [SinewVec3::default(); 5];
        sinew_world_read_interpolated_positions(w, 0, 5, 0.0, prev.as_mut_ptr().cast(), 12);
        sinew_world_read_interpolated_positions(w, 0, 5, 1.0, cur.as_mut_ptr().cast(), 12);
        let mut verts = [Vertex {
            colour: 0xDEAD_BEEF,
            ..Vertex::default()
        }; 6];
        let st = sinew_body_read_interpolated_positions(
            w,
            rope,
            alpha,
            verts.as_mut_ptr().cast(),
            6,
            std::mem::size_of::<Vertex>() as u32,
        );
        assert_eq!(st, SinewStatus::SINEW_OK);
        for k in 0..5 {
            let (p, c) = (Vec3::from(prev[k]), Vec3::from(cur[k]));
            // Particle 0 is the pinned start; the others fall.
            assert_eq!(p == c, k == 0, "particle {k}");
            assert_eq!(Vec3::from(verts[k].position), p * 0.5 + c * 0.5);
            assert_eq!(
                verts[k].colour, 0xDEAD_BEEF,
                "the rest of the vertex is kept"
            );
        }
        assert_eq!(verts[5].position, SinewVec3::default(), "past the body");
        sinew::ffi::world::sinew_world_destroy(w);
    }
}

//! Diffuse particles (Ihmsen et al. 2012; src/fluid/render/diffuse.rs): they appear
//! where water splashes and never in a still pool, live their lifetime, stay within
//! their capacity, and do not depend on the thread count.

use crate::fluid_box::closed_box;
use sinew::{
    DiffuseDesc, DiffuseKind, DiffuseParticle, FluidDesc, FluidId, Vec3, World, WorldDesc,
};

const S: f32 = 0.05;
const DT: f32 = 1.0 / 60.0;

fn diffuse(capacity: u32) -> DiffuseDesc {
    DiffuseDesc {
        capacity,
        lifetime: 0.5,
        ..DiffuseDesc::default()
    }
}

/// A block of `nx × ny × nz` particles at `corner` moving at `v` in a closed box.
fn scene(threads: u32, (nx, ny, nz): (u32, u32, u32), corner: Vec3, v: Vec3) -> (World, FluidId) {
    let mut w = World::new(WorldDesc {
        threads,
        ..WorldDesc::default()
    })
    .unwrap();
    closed_box(&mut w, 1.2, 1.2, Some(0.4));
    let f = w
        .add_fluid(&FluidDesc {
            spacing: S,
            capacity: nx * ny * nz,
            ..FluidDesc::default()
        })
        .unwrap();
    let at: Vec<Vec3> = (0..nx * ny * nz)
        .map(|k| {
            let (x, y, z) = (k % nx, (k / nx) % ny, k / (nx * ny));
            corner + Vec3::new(x as f32 + 0.5, y as f32 + 0.5, z as f32 + 0.5) * S
        })
        .collect();
    let vs = vec![v; at.len()];
    w.emit_fluid(f, &at, Some(&vs)).unwrap();
    (w, f)
}

fn read(w: &World, f: FluidId) -> Vec<DiffuseParticle> {
    let mut out = Vec::new();
    let n = w.read_fluid_diffuse(f, |_, p| out.push(*p)).unwrap();
    assert_eq!(n as usize, out.len());
    for p in &out {
        assert!(
            p.position.is_finite() && p.velocity.is_finite() && p.lifetime > 0.0,
            "{p:?}"
        );
    }
    out
}

#[test]
fn a_still_pool_makes_no_diffuse_particles() {
    // A pool resting on the floor of the box.
    let (mut w, f) = scene(1, (20, 6, 7), Vec3::ZERO, Vec3::ZERO);
    w.set_fluid_diffuse(f, &diffuse(1000)).unwrap();
    for _ in 0..30 {
        w.step(DT).unwrap();
        assert!(read(&w, f).is_empty());
    }
    assert_eq!(w.fluid_diffuse_stats(f).unwrap().spawned, 0);
}

#[test]
fn a_splash_makes_spray_foam_and_bubbles_that_die_at_their_lifetime() {
    // A block thrown at 6 m/s against the wall of the box.
    let (mut w, f) = scene(
        1,
        (8, 8, 7),
        Vec3::new(0.3, 0.2, 0.0),
        Vec3::new(6.0, -3.0, 0.0),
    );
    let d = diffuse(400);
    w.set_fluid_diffuse(f, &d).unwrap();
    let mut max = 0;
    let mut kinds = [false; 3];
    let mut first_spawn = None;
    for step in 0..40 {
        w.step(DT).unwrap();
        let ps = read(&w, f);
        max = max.max(ps.len());
        for p in &ps {
            kinds[p.kind as usize] = true;
            assert!(p.lifetime <= d.lifetime + 1e-6);
        }
        let stats = w.fluid_diffuse_stats(f).unwrap();
        assert_eq!(stats.count as usize, ps.len());
        if stats.spawned > 0 && first_spawn.is_none() {
            first_spawn = Some(step);
        }
    }
    let stats = w.fluid_diffuse_stats(f).unwrap();
    assert!(stats.spawned > 20, "{stats:?}");
    assert!(max <= 400);
    assert!(
        kinds[DiffuseKind::Spray as usize] || kinds[DiffuseKind::Foam as usize],
        "{kinds:?}"
    );
    // The lifetime: stop spawning, and every particle is gone after 0.5 s.
    w.set_fluid_diffuse(
        f,
        &DiffuseDesc {
            trapped_air_rate: 0.0,
            wave_crest_rate: 0.0,
            ..d
        },
    )
    .unwrap();
    let before = read(&w, f).len();
    for _ in 0..31 {
        w.step(DT).unwrap();
    }
    assert!(before > 0 || max > 0);
    assert!(read(&w, f).is_empty());
    // Capacity 0 removes them.
    w.set_fluid_diffuse(f, &DiffuseDesc::default()).unwrap();
    assert_eq!(w.fluid_diffuse(f).unwrap().capacity, 0);
}

#[test]
fn a_full_set_refuses_and_bad_settings_are_refused() {
    let (mut w, f) = scene(
        1,
        (8, 8, 7),
        Vec3::new(0.3, 0.2, 0.0),
        Vec3::new(6.0, -3.0, 0.0),
    );
    w.set_fluid_diffuse(f, &diffuse(5)).unwrap();
    for _ in 0..20 {
        w.step(DT).unwrap();
        assert!(read(&w, f).len() <= 5);
    }
    assert!(w.fluid_diffuse_stats(f).unwrap().refused > 0);
    for bad in [
        DiffuseDesc {
            lifetime: 0.0,
            ..diffuse(5)
        },
        DiffuseDesc {
            trapped_air_min: 30.0,
            ..diffuse(5)
        },
        DiffuseDesc {
            drag: f32::NAN,
            ..diffuse(5)
        },
        DiffuseDesc {
            spray_neighbours: 30,
            ..diffuse(5)
        },
    ] {
        assert!(w.set_fluid_diffuse(f, &bad).is_err(), "{bad:?}");
    }
    assert_eq!(w.fluid_diffuse(f).unwrap().capacity, 5);
}

fn splash(threads: u32) -> Vec<DiffuseParticle> {
    let (mut w, f) = scene(
        threads,
        (12, 12, 7),
        Vec3::new(0.2, 0.1, 0.0),
        Vec3::new(6.0, -2.0, 0.0),
    );
    w.set_fluid_diffuse(f, &diffuse(3000)).unwrap();
    for _ in 0..30 {
        w.step(DT).unwrap();
    }
    read(&w, f)
}

#[test]
fn diffuse_particles_are_the_same_on_one_and_two_threads() {
    let one = splash(1);
    let two = splash(2);
    assert!(!one.is_empty());
    assert_eq!(one, two);
}

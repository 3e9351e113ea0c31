//! Wind and aerodynamics against closed forms: a flat square of cloth and a horizontal
//! rope falling to their terminal speeds, a flag whose angle grows with the wind (and
//! its rigid-plate equilibrium), the wind field and its zones, and bit-identical
//! results for 1, 2 and 4 threads.
//!
//! `cargo test --test physics wind:: -- --nocapture` prints the measured values.

use sinew::{
    BendingModel, BodyId, ClothDesc, ClothGridDesc, ErrorKind, Quat, RopeDesc, Vec3, WindDesc,
    WindZoneDesc, WindZoneShape, World, WorldDesc,
};

const G: f32 = 9.81;
const RHO: f32 = 1.225;

fn world(substeps: u32, iterations: u32, threads: u32) -> World {
    World::new(WorldDesc {
        substeps,
        iterations,
        threads,
        ..WorldDesc::default()
    })
    .unwrap()
}

fn mean_velocity(w: &World, b: BodyId) -> Vec3 {
    let (first, count) = w.body_particle_range(b).unwrap();
    let mut sum = Vec3::ZERO;
    w.read_velocities(first, count, |_, v| sum += v).unwrap();
    sum / count as f32
}

fn positions(w: &World, b: BodyId) -> Vec<Vec3> {
    let (first, count) = w.body_particle_range(b).unwrap();
    let mut out = vec![Vec3::ZERO; count as usize];
    w.read_positions(first, count, |k, p| out[k] = p).unwrap();
    out
}

/// A stiff, flat 1 m × 1 m cloth of mass `m` in the xz plane.
fn flat_cloth(w: &mut World, m: f32) -> BodyId {
    let desc = ClothDesc {
        bend_compliance: 0.0,
        shear_compliance: 0.0,
        bending: BendingModel::Dihedral,
        ..ClothDesc::default()
    };
    let grid = ClothGridDesc {
        origin: Vec3::new(-0.5, 10.0, -0.5),
        segments_u: 4,
        segments_v: 4,
        total_mass: m,
        ..ClothGridDesc::default()
    };
    w.add_cloth_grid(&desc, &grid).unwrap()
}

/// A square of cloth falling flat reaches v_t = √(2 m g / (ρ C_d A)) within 5%
/// (measured within 1%), for two masses and two drag coefficients.
#[test]
fn flat_cloth_falls_at_its_terminal_speed() {
    for (m, cd) in [(0.1f32, 1.0f32), (0.3, 1.2), (0.05, 0.5)] {
        let mut w = world(16, 4, 1);
        let c = flat_cloth(&mut w, m);
        w.set_body_aerodynamics(c, cd, 0.0).unwrap();
        for _ in 0..120 {
            w.step(1.0 / 60.0).unwrap();
        }
        let v = -mean_velocity(&w, c).y;
        let expected = (2.0 * m * G / (RHO * cd * 1.0)).sqrt();
        let p = positions(&w, c);
        let spread = p.iter().map(|x| x.y).fold(f32::MIN, f32::max)
            - p.iter().map(|x| x.y).fold(f32::MAX, f32::min);
        println!(
            "m {m} kg, C_d {cd}: terminal {v:.4} m/s, closed form {expected:.4} m/s ({:+.2}%), flatness {spread:.4} m",
            100.0 * (v / expected - 1.0)
        );
        assert!((v / expected - 1.0).abs() < 0.05, "{v} vs {expected}");
    }
}

/// Without aerodynamics the same cloth is in free fall: g t after 2 s.
#[test]
fn without_coefficients_the_cloth_falls_freely() {
    let mut w = world(16, 4, 1);
    let c = flat_cloth(&mut w, 0.1);
    w.set_wind(&WindDesc {
        velocity: Vec3::new(5.0, 0.0, 0.0),
        ..WindDesc::default()
    })
    .unwrap();
    w.set_body_aerodynamics(c, 1.0, 0.5).unwrap();
    w.set_body_aerodynamics(c, 0.0, 0.0).unwrap();
    for _ in 0..120 {
        w.step(1.0 / 60.0).unwrap();
    }
    let v = mean_velocity(&w, c);
    assert!((v.y + G * 2.0).abs() < 1e-3 && v.x.abs() < 1e-6, "{v}");
}

/// A horizontal rope (no pins) falling across its length reaches
/// v_t = √(m g / (ρ C_d r L)) (cylinder cross-flow drag on the diameter 2r).
#[test]
fn rope_falls_at_its_terminal_speed() {
    let (m, r, l, cd) = (0.02f32, 0.01f32, 2.0f32, 1.1f32);
    let mut w = world(16, 2, 1);
    let rope = w
        .add_rope(&RopeDesc {
            start: Vec3::new(0.0, 50.0, 0.0),
            end: Vec3::new(l, 50.0, 0.0),
            segments: 20,
            total_mass: m,
            radius: r,
            pin_start: false,
            tethers: false,
            ..RopeDesc::default()
        })
        .unwrap();
    // The end particles carry one link's share of drag, the others two: halve the
    // ends' masses so that the drag per unit mass is uniform and the rope falls flat.
    let (first, count) = w.body_particle_range(rope).unwrap();
    let per = m / count as f32;
    w.set_inverse_masses(first, &[2.0 / per]).unwrap();
    w.set_inverse_masses(first + count - 1, &[2.0 / per])
        .unwrap();
    let m = per * (count - 1) as f32;
    w.set_body_aerodynamics(rope, cd, 0.0).unwrap();
    for _ in 0..180 {
        w.step(1.0 / 60.0).unwrap();
    }
    let v = -mean_velocity(&w, rope).y;
    let expected = (m * G / (RHO * cd * r * l)).sqrt();
    println!(
        "rope: terminal {v:.4} m/s, closed form {expected:.4} m/s ({:+.2}%)",
        100.0 * (v / expected - 1.0)
    );
    assert!((v / expected - 1.0).abs() < 0.05, "{v} vs {expected}");
    assert_eq!(
        w.set_body_aerodynamics(rope, 1.0, 0.5).unwrap_err().kind,
        ErrorKind::InvalidArgument
    );
}

/// A 1 m × 1 m flag hanging from its top edge (pinned) in a horizontal wind `speed`;
/// returns the angle (degrees from vertical) of the line from the top edge to the
/// bottom edge's midpoint after 4 s.
fn flag_angle(speed: f32, threads: u32, gusty: bool) -> (f32, Vec<Vec3>) {
    let mut w = world(16, 4, threads);
    let desc = ClothDesc {
        bend_compliance: 1e-3,
        ..ClothDesc::default()
    };
    let n = 8u32;
    let grid = ClothGridDesc {
        origin: Vec3::new(0.0, 2.0, -0.5),
        u: Vec3::new(0.0, 0.0, 1.0),
        v: Vec3::new(0.0, -1.0, 0.0),
        segments_u: n,
        segments_v: n,
        total_mass: 0.2,
        ..ClothGridDesc::default()
    };
    let c = w.add_cloth_grid(&desc, &grid).unwrap();
    let (first, _) = w.body_particle_range(c).unwrap();
    w.set_inverse_masses(first, &vec![0.0; n as usize + 1])
        .unwrap();
    w.set_body_aerodynamics(c, 1.2, 0.0).unwrap();
    w.set_wind(&WindDesc {
        velocity: Vec3::new(speed, 0.0, 0.0),
        turbulence: if gusty { 1.5 } else { 0.0 },
        ..WindDesc::default()
    })
    .unwrap();
    if gusty {
        w.add_wind_zone(&WindZoneDesc {
            shape: WindZoneShape::Sphere,
            position: Vec3::new(0.3, 1.5, 0.0),
            radius: 0.6,
            direction: Vec3::new(0.0, 0.3, 1.0),
            strength: 4.0,
            turbulence: 2.0,
            falloff: 0.5,
            ..WindZoneDesc::default()
        })
        .unwrap();
    }
    for _ in 0..240 {
        w.step(1.0 / 60.0).unwrap();
    }
    let p = positions(&w, c);
    let bottom = (n * (n + 1)) as usize;
    let mut mid = Vec3::ZERO;
    for k in 0..=n as usize {
        mid += p[bottom + k];
    }
    mid /= (n + 1) as f32;
    let drop = 2.0 - mid.y;
    (mid.x.atan2(drop).to_degrees(), p)
}

/// The flag's angle grows with the wind speed, and sits near the rigid hinged plate's
/// equilibrium sin θ / cos² θ = ½ ρ C_d A U² / (m g) (moments about the hinge of the
/// drag ½ ρ C_d A cos θ U², which faces the flow with the projected area A cos θ, and of
/// gravity): a flat flag under uniform load is that plate (measured within 0.01°;
/// asserted within 2°).
#[test]
fn flag_angle_grows_with_wind_speed() {
    let mut last = -1.0;
    for speed in [2.0f32, 4.0, 6.0, 9.0] {
        let (angle, p) = flag_angle(speed, 1, false);
        assert!(p.iter().all(|x| x.is_finite()));
        let k = 0.5 * RHO * 1.2 * speed * speed / (0.2 * G);
        // Solve sin θ = k cos² θ: k s² + s − k = 0.
        let s = (-1.0 + (1.0 + 4.0 * k * k).sqrt()) / (2.0 * k);
        let plate = s.asin().to_degrees();
        println!("wind {speed} m/s: flag at {angle:.2}°, rigid plate {plate:.2}°");
        assert!(angle > last + 2.0, "{angle} after {last}");
        assert!((angle - plate).abs() < 2.0, "{angle} vs {plate}");
        last = angle;
    }
}

/// Turbulence, a zone and the flag: bit-identical for 1, 2 and 4 threads.
#[test]
fn wind_is_bit_identical_across_thread_counts() {
    let (_, one) = flag_angle(5.0, 1, true);
    for threads in [2, 4] {
        let (_, other) = flag_angle(5.0, threads, true);
        let same = one
            .iter()
            .zip(&other)
            .all(|(a, b)| a.to_array().map(f32::to_bits) == b.to_array().map(f32::to_bits));
        assert!(same, "{threads} threads differ");
    }
    // And the gusts did something.
    let (_, calm) = flag_angle(5.0, 1, false);
    assert_ne!(one, calm);
}

/// The wind field: uniform wind, zones added, moved and removed between frames, the
/// radial zone, turbulence bounded by its amplitude, time advancing with the steps.
#[test]
fn wind_field_follows_its_settings() {
    let mut w = world(4, 1, 1);
    w.set_wind(&WindDesc {
        velocity: Vec3::new(1.0, 0.0, 2.0),
        ..WindDesc::default()
    })
    .unwrap();
    assert_eq!(w.wind_at(Vec3::ZERO).unwrap(), Vec3::new(1.0, 0.0, 2.0));
    let zone = WindZoneDesc {
        position: Vec3::new(10.0, 0.0, 0.0),
        rotation: Quat::IDENTITY,
        half_extents: Vec3::new(1.0, 2.0, 3.0),
        direction: Vec3::new(0.0, 2.0, 0.0),
        strength: 3.0,
        ..WindZoneDesc::default()
    };
    let z = w.add_wind_zone(&zone).unwrap();
    assert_eq!(z, 0);
    assert_eq!(
        w.wind_at(Vec3::new(10.5, 1.9, -2.9)).unwrap(),
        Vec3::new(1.0, 3.0, 2.0)
    );
    assert_eq!(
        w.wind_at(Vec3::new(11.1, 0.0, 0.0)).unwrap(),
        Vec3::new(1.0, 0.0, 2.0)
    );
    // Moved next frame.
    w.set_wind_zone(
        z,
        &WindZoneDesc {
            position: Vec3::new(11.0, 0.0, 0.0),
            ..zone
        },
    )
    .unwrap();
    assert_eq!(
        w.wind_at(Vec3::new(11.9, 0.0, 0.0)).unwrap(),
        Vec3::new(1.0, 3.0, 2.0)
    );
    // A radial sphere: outward from its centre.
    let blast = w
        .add_wind_zone(&WindZoneDesc {
            shape: WindZoneShape::Sphere,
            position: Vec3::new(0.0, 5.0, 0.0),
            radius: 2.0,
            direction: Vec3::ZERO,
            strength: 7.0,
            ..WindZoneDesc::default()
        })
        .unwrap();
    assert_eq!(blast, 1);
    let u = w.wind_at(Vec3::new(0.0, 6.0, 0.0)).unwrap();
    assert_eq!(u, Vec3::new(1.0, 7.0, 2.0));
    w.remove_wind_zone(z).unwrap();
    assert_eq!(
        w.remove_wind_zone(z).unwrap_err().kind,
        ErrorKind::InvalidArgument
    );
    assert_eq!(
        w.remove_wind_zone(9).unwrap_err().kind,
        ErrorKind::OutOfRange
    );
    assert_eq!(
        w.wind_at(Vec3::new(11.9, 0.0, 0.0)).unwrap(),
        Vec3::new(1.0, 0.0, 2.0)
    );
    // Turbulence: bounded by its amplitude, varies with position and time.
    w.set_wind(&WindDesc {
        turbulence: 0.5,
        ..WindDesc::default()
    })
    .unwrap();
    let a = w.wind_at(Vec3::new(3.0, 0.0, 0.0)).unwrap();
    let b = w.wind_at(Vec3::new(4.0, 0.0, 0.0)).unwrap();
    assert!(a.abs().max_element() <= 0.5 && a != b, "{a} {b}");
    assert_eq!(w.time(), 0.0);
    w.step(0.25).unwrap();
    assert_eq!(w.time(), 0.25);
    assert_ne!(w.wind_at(Vec3::new(3.0, 0.0, 0.0)).unwrap(), a);
    // Bad settings change nothing.
    let before = w.wind();
    for bad in [
        WindDesc {
            air_density: -1.0,
            ..before
        },
        WindDesc {
            velocity: Vec3::new(f32::NAN, 0.0, 0.0),
            ..before
        },
        WindDesc {
            turbulence_scale: 0.0,
            ..before
        },
    ] {
        assert_eq!(
            w.set_wind(&bad).unwrap_err().kind,
            ErrorKind::InvalidArgument
        );
    }
    assert_eq!(w.wind(), before);
}

/// Extreme but accepted settings (the heaviest air, the strongest wind, the largest
/// coefficients, light particles) give finite velocities: the capped explicit step.
#[test]
fn extreme_settings_stay_finite() {
    let mut w = world(1, 1, 1);
    let c = flat_cloth(&mut w, 1e-6);
    w.set_body_aerodynamics(c, 10.0, 10.0).unwrap();
    w.set_wind(&WindDesc {
        velocity: Vec3::new(1e4, -1e4, 1e4),
        air_density: 1e4,
        turbulence: 1e4,
        turbulence_scale: 1e-3,
        turbulence_frequency: 1e3,
    })
    .unwrap();
    for _ in 0..50 {
        w.step(0.1).unwrap();
        let p = positions(&w, c);
        assert!(p.iter().all(|x| x.is_finite()));
        let v = mean_velocity(&w, c);
        assert!(v.is_finite() && v.length() < 1e6, "{v}");
    }
}

//! Vorticity confinement, cohesion and adhesion of Position Based Fluids
//! (src/fluid/solver.rs, `DensitySolver::end_substep`): physics through the
//! public API, in zero gravity, with the artificial pressure and the viscosity off
//! unless a test says otherwise (so that nothing but the force under test acts).
//!
//! * Vorticity confinement (Fedkiw, Stam and Jensen 2001, "Visual Simulation of
//!   Smoke"; Macklin and Müller 2013, "Position Based Fluids", §5): a loose disc
//!   spinning rigidly keeps its angular momentum exactly without it and gains some with
//!   it, in either sense of rotation; with XSPH viscosity it keeps more than without.
//!   A fluid at rest or translating uniformly (ω = 0) is left exactly as it is.
//! * Cohesion (Akinci, Akinci and Teschner 2013, "Versatile Surface Tension and
//!   Adhesion for SPH Fluids"): two particles get the closed form
//!   Δv = γ K C(r) s h_step / T² per substep (T = 1/60 s, K = 2 / (ρ̂_i + ρ̂_j): the
//!   same acceleration for any number of substeps), attractive beyond
//!   about h/4 and repulsive closer, equal and opposite; a square blob becomes a disc
//!   and a loose cloud contracts, their centroid where it was; without cohesion they
//!   do not.
//! * Adhesion (same article): a fluid particle next to a solid particle gets the closed
//!   form Δv = β A(r) (V_solid / V_fluid) s h_step / T² towards it, nothing within h/2 or
//!   beyond h, and the solid is not pulled (one-way, as documented).

use sinew::{FluidDesc, FluidId, FluidParticle, Vec3, World, WorldDesc};

const DT: f32 = 1.0 / 60.0;
const S: f32 = 0.05;

/// A world without gravity, one thread; `planar` puts it on z = 0.
fn zero_g(substeps: u32, iterations: u32, planar: bool) -> World {
    let mut w = World::new(WorldDesc {
        gravity: Vec3::ZERO,
        substeps,
        iterations,
        threads: 1,
        ..WorldDesc::default()
    })
    .unwrap();
    if planar {
        w.set_planar(Some(0.0)).unwrap();
    }
    w
}

/// A fluid of spacing `S` with no artificial pressure and no viscosity unless `desc`
/// says otherwise.
fn fluid(w: &mut World, capacity: usize, desc: FluidDesc) -> FluidId {
    w.add_fluid(&FluidDesc {
        spacing: S,
        capacity: capacity as u32,
        ..desc
    })
    .unwrap()
}

fn quiet() -> FluidDesc {
    FluidDesc {
        scorr_k: 0.0,
        viscosity: 0.0,
        ..FluidDesc::default()
    }
}

/// The points of a square lattice of pitch `pitch` within `radius` of the origin (z = 0).
fn disc(radius: f32, pitch: f32) -> Vec<Vec3> {
    let n = (radius / pitch).ceil() as i32;
    let mut p = Vec::new();
    for y in -n..=n {
        for x in -n..=n {
            let q = Vec3::new(x as f32, y as f32, 0.0) * pitch;
            if q.length() <= radius {
                p.push(q);
            }
        }
    }
    p
}

fn particles(w: &World, f: FluidId) -> Vec<FluidParticle> {
    let mut out = Vec::new();
    w.read_fluid_particles(f, 1.0, |_, p| out.push(*p)).unwrap();
    out
}

fn centroid(ps: &[FluidParticle]) -> Vec3 {
    ps.iter().map(|p| p.position).sum::<Vec3>() / ps.len() as f32
}

/// Angular momentum about the centroid per unit particle mass (z, m²/s) and the
/// second moment Σ |x − c|² (m²).
fn spin_and_moment(ps: &[FluidParticle]) -> (f32, f32) {
    let c = centroid(ps);
    ps.iter().fold((0.0, 0.0), |(l, i), p| {
        let r = p.position - c;
        (l + r.cross(p.velocity).z, i + r.length_squared())
    })
}

/// A loose disc (lattice pitch 1.2 spacings: under rest density, so the density
/// constraint never acts) spinning rigidly at `omega` rad/s about z, run for `steps`.
/// Returns the angular momentum at the start and at the end.
fn spinning_disc(vorticity: f32, viscosity: f32, omega: f32, steps: u32) -> (f32, f32) {
    let mut w = zero_g(4, 2, true);
    let ps = disc(0.3, 1.2 * S);
    let vs: Vec<Vec3> = ps
        .iter()
        .map(|p| Vec3::new(-p.y, p.x, 0.0) * omega)
        .collect();
    let f = fluid(
        &mut w,
        ps.len(),
        FluidDesc {
            vorticity,
            viscosity,
            ..quiet()
        },
    );
    w.emit_fluid(f, &ps, Some(&vs)).unwrap();
    let l0 = spin_and_moment(&particles(&w, f)).0;
    for _ in 0..steps {
        w.step(DT).unwrap();
    }
    let end = particles(&w, f);
    assert!(end
        .iter()
        .all(|p| p.position.is_finite() && p.velocity.is_finite()));
    (l0, spin_and_moment(&end).0)
}

/// Akinci et al.'s cohesion kernel, normalised to 1 at its peak r = h/2.
fn cohesion_kernel(r: f32, h: f32) -> f32 {
    if r >= h {
        return 0.0;
    }
    let t = (h - r).powi(3) * r.powi(3);
    let peak = h.powi(6) / 64.0;
    if 2.0 * r > h {
        t / peak
    } else {
        (2.0 * t - peak) / peak
    }
}

/// Akinci et al.'s adhesion kernel, normalised to 1 at its peak r = 3h/4.
fn adhesion_kernel(r: f32, h: f32) -> f32 {
    if 2.0 * r <= h || r > h {
        return 0.0;
    }
    ((-4.0 * r * r / h + 6.0 * r - 2.0 * h) / (0.25 * h)).powf(0.25)
}

/// The poly6 kernel W(r) (2D or 3D normalisation).
fn poly6(r: f32, h: f32, planar: bool) -> f32 {
    let pi = std::f32::consts::PI;
    let q = (h * h - r * r).max(0.0);
    if planar {
        4.0 / (pi * h.powi(8)) * q * q * q
    } else {
        315.0 / (64.0 * pi * h.powi(9)) * q * q * q
    }
}

/// Σ V W over a cubic (square, planar) lattice of spacing `s` around one of its
/// points: the density ratio the solver divides its sums by, so that the fluid's
/// lattice at rest reads 1.
fn lattice_sum(h: f32, s: f32, planar: bool) -> f32 {
    let n = (h / s).ceil() as i32;
    let zs = if planar { 0..=0 } else { -n..=n };
    let volume = if planar { s * s } else { s * s * s };
    let mut sum = 0.0f64;
    for i in -n..=n {
        for j in -n..=n {
            for k in zs.clone() {
                let r = ((i * i + j * j + k * k) as f32).sqrt() * s;
                sum += (volume * poly6(r, h, planar)) as f64;
            }
        }
    }
    sum as f32
}

/// Two fluid particles `r` apart along x, one step of one substep: the two particles
/// after it.
fn cohesive_pair(r: f32, cohesion: f32, planar: bool) -> [FluidParticle; 2] {
    let mut w = zero_g(1, 1, planar);
    let f = fluid(
        &mut w,
        2,
        FluidDesc {
            cohesion,
            ..quiet()
        },
    );
    let c = Vec3::new(0.3, -0.2, 0.0);
    let pair = [c - Vec3::X * (0.5 * r), c + Vec3::X * (0.5 * r)];
    w.emit_fluid(f, &pair, None).unwrap();
    w.step(DT).unwrap();
    let ps = particles(&w, f);
    assert_eq!(
        ps[0].position, pair[0],
        "velocities change, positions not yet"
    );
    assert_eq!(ps[1].position, pair[1]);
    [ps[0], ps[1]]
}

/// A fluid particle and a plain solid particle of radius `radius` (free, 2 kg) `r`
/// apart along y, one step of one substep: the fluid particle, and the solid's
/// displacement and velocity.
fn adhesive_pair(r: f32, radius: f32, adhesion: f32, planar: bool) -> (FluidParticle, Vec3, Vec3) {
    let mut w = zero_g(1, 1, planar);
    let c = Vec3::new(-0.1, 0.4, 0.0);
    let solid = w.add_particles(&[c + Vec3::Y * r], Some(&[0.5])).unwrap();
    w.set_particle_radii(solid, &[radius]).unwrap();
    let f = fluid(
        &mut w,
        1,
        FluidDesc {
            adhesion,
            ..quiet()
        },
    );
    w.emit_fluid(f, &[c], None).unwrap();
    w.step(DT).unwrap();
    let (mut x, mut v) = (Vec3::NAN, Vec3::NAN);
    w.read_positions(solid, 1, |_, p| x = p).unwrap();
    w.read_velocities(solid, 1, |_, p| v = p).unwrap();
    let p = particles(&w, f)[0];
    assert_eq!(p.position, c, "velocities change, positions not yet");
    (p, x - (c + Vec3::Y * r), v)
}

/// The largest distance from the centroid (m) and the four-fold moment
/// Σ r² cos 4θ / Σ r² (about 0 for a disc, −0.3 for an axis-aligned square lattice).
fn shape(ps: &[FluidParticle]) -> (f32, f32) {
    let c = centroid(ps);
    let (mut rmax, mut m4, mut m0) = (0.0f32, 0.0f32, 0.0f32);
    for p in ps {
        let d = p.position - c;
        rmax = rmax.max(d.length());
        let r2 = d.length_squared();
        m4 += r2 * (4.0 * d.y.atan2(d.x)).cos();
        m0 += r2;
    }
    (rmax, m4 / m0)
}

/// Macklin and Müller's confinement force ε (N × ω), N = ∇|ω| / |∇|ω||, pushes the
/// rim of a rigidly spinning disc (where |ω| falls off, so N points inwards) along its
/// spin: ω = ∇×v = 2Ω ẑ, and −r̂ × ẑ = θ̂.
/// With ω of the wrong sign (`(v_j − v_i) × ∇_i W_ij`, which is −∇×v) the force
/// brakes the spin instead (L/L0 0.948 here instead of about 1.044).
#[test]
fn vorticity_confinement_adds_spin_in_the_sense_of_rotation() {
    for omega in [1.0f32, -1.0] {
        let (l0, free) = spinning_disc(0.0, 0.0, omega, 30);
        // Free particles (under rest density, no viscosity): nothing acts.
        assert!(
            (free / l0 - 1.0).abs() < 1.0e-4,
            "Ω {omega}: L/L0 {} without confinement",
            free / l0
        );
        let (_, confined) = spinning_disc(1.0, 0.0, omega, 30);
        let gain = confined / l0;
        assert!(
            gain > 1.015 && gain < 1.1,
            "Ω {omega}: L/L0 {gain} with confinement (a gain of a few % expected; < 1 \
             means it brakes the spin: ω has the wrong sign)"
        );
        let (_, viscous) = spinning_disc(0.0, 0.1, omega, 30);
        let (_, both) = spinning_disc(1.0, 0.1, omega, 30);
        assert!(
            viscous / l0 < 0.95,
            "XSPH viscosity brakes the rim: {}",
            viscous / l0
        );
        assert!(
            both / viscous > 1.02,
            "Ω {omega}: with viscosity, confinement keeps {} of the spin kept without",
            both / viscous
        );
    }
}

#[test]
fn vorticity_leaves_a_fluid_without_rotation_alone() {
    // Pitch 1.2 spacings: under rest density, so that all velocities stay equal. (At
    // rest density the density constraint moves a free blob outwards, and the SPH
    // estimate of ω of that radial flow is not 0 at the free surface.)
    let block: Vec<Vec3> = disc(0.2, 1.2 * S);
    for v0 in [Vec3::ZERO, Vec3::new(0.7, -0.3, 0.0)] {
        let run = |vorticity: f32| {
            let mut w = zero_g(4, 2, true);
            let f = fluid(
                &mut w,
                block.len(),
                FluidDesc {
                    vorticity,
                    ..quiet()
                },
            );
            w.emit_fluid(f, &block, Some(&vec![v0; block.len()]))
                .unwrap();
            for _ in 0..30 {
                w.step(DT).unwrap();
            }
            particles(&w, f)
        };
        let (plain, confined) = (run(0.0), run(2.0));
        let mut dv = 0.0f32;
        let mut dx = 0.0f32;
        for (a, b) in plain.iter().zip(&confined) {
            dx = dx.max((a.position - b.position).length());
            dv = dv.max((b.velocity - a.velocity).length());
        }
        // Every velocity is the same, so ω = 0 exactly: bit-identical.
        assert_eq!(dx, 0.0, "v0 {v0}");
        assert_eq!(dv, 0.0, "v0 {v0}");
        if v0 != Vec3::ZERO {
            let mean = confined.iter().map(|p| p.velocity).sum::<Vec3>() / confined.len() as f32;
            assert!((mean - v0).length() < 1.0e-5, "mean velocity {mean}");
        }
    }
}

#[test]
fn cohesion_between_two_particles_is_akincis_kernel() {
    let h = 2.0 * S;
    let gamma = 0.01;
    for planar in [true, false] {
        let volume = if planar { S * S } else { S * S * S };
        // r/h: repulsive (C < 0 below about 0.22), the peak, attractive, the tail,
        // beyond reach.
        for q in [0.15f32, 0.5, 0.75, 0.95, 1.05] {
            let r = q * h;
            let [a, b] = cohesive_pair(r, gamma, planar);
            let rho =
                volume * (poly6(0.0, h, planar) + poly6(r, h, planar)) / lattice_sum(h, S, planar);
            assert!(
                (a.density_ratio / rho - 1.0).abs() < 1.0e-5,
                "ρ̂ {} against {rho}",
                a.density_ratio
            );
            // K = 2 / (ρ̂_a + ρ̂_b) = 1 / ρ̂; a at −x is pulled along +x.
            let want = gamma * cohesion_kernel(r, h) * S / DT / rho;
            assert!(
                (a.velocity.x - want).abs() <= 1.0e-4 * want.abs() + 1.0e-9,
                "planar {planar}, r = {q} h: v {} against {want} m/s",
                a.velocity
            );
            assert_eq!(b.velocity, -a.velocity, "equal and opposite");
            assert_eq!(a.velocity.y, 0.0);
            assert_eq!(a.velocity.z, 0.0);
            if q < 0.2 {
                assert!(a.velocity.x < 0.0, "pushed apart at r = {q} h");
            } else if q < 1.0 {
                assert!(a.velocity.x > 0.0, "pulled together at r = {q} h");
            } else {
                assert_eq!(a.velocity.x, 0.0);
            }
        }
        let [a, _] = cohesive_pair(0.75 * h, 0.0, planar);
        assert_eq!(a.velocity, Vec3::ZERO);
    }
}

#[test]
fn cohesion_rounds_a_square_blob_about_its_centroid() {
    let mut square = Vec::new();
    for y in 0..10 {
        for x in 0..10 {
            square.push(
                Vec3::new(x as f32 - 4.5, y as f32 - 4.5, 0.0) * S + Vec3::new(0.2, 0.1, 0.0),
            );
        }
    }
    // The disc of the same area.
    let disc_radius = 10.0 * S / std::f32::consts::PI.sqrt();
    let run = |cohesion: f32| {
        let mut w = zero_g(4, 2, true);
        // The default artificial pressure and viscosity, as a game would have them.
        let f = fluid(
            &mut w,
            square.len(),
            FluidDesc {
                cohesion,
                ..FluidDesc::default()
            },
        );
        w.emit_fluid(f, &square, None).unwrap();
        let start = particles(&w, f);
        for _ in 0..120 {
            w.step(DT).unwrap();
        }
        let end = particles(&w, f);
        assert!(end
            .iter()
            .all(|p| p.position.is_finite() && p.velocity.is_finite()));
        (
            shape(&start),
            shape(&end),
            (centroid(&end) - centroid(&start)).length(),
            end,
        )
    };
    let ((r0, m0), (r1, m1), drift, end) = run(0.16);
    assert!(
        (r0 / disc_radius - 1.128).abs() < 0.01,
        "a corner at {r0} m"
    );
    assert!(m0 < -0.25, "square moment {m0}");
    assert!(
        (r1 / disc_radius - 1.0).abs() < 0.05,
        "farthest particle at {r1} m, the disc's radius {disc_radius} m"
    );
    assert!(m1.abs() < 0.5 * m0.abs(), "four-fold moment {m0} -> {m1}");
    assert!(drift < 1.0e-5, "the centroid moved {drift} m");
    let max = end.iter().map(|p| p.density_ratio).fold(0.0, f32::max);
    assert!(
        max < 1.03,
        "held at rest density by the density constraint: max ρ/ρ₀ {max}"
    );
    // Without cohesion nothing holds the blob together: it spreads.
    let (_, (r1, _), drift, _) = run(0.0);
    assert!(
        r1 > 1.5 * r0,
        "without cohesion the farthest particle is at {r1} m"
    );
    assert!(drift < 1.0e-5, "the centroid moved {drift} m");
}

#[test]
fn cohesion_gathers_a_loose_cloud() {
    // Pitch 1.5 spacings: well under rest density, so only cohesion acts.
    let cloud = disc(0.3, 1.5 * S);
    let run = |cohesion: f32| {
        let mut w = zero_g(4, 2, true);
        let f = fluid(
            &mut w,
            cloud.len(),
            FluidDesc {
                cohesion,
                ..quiet()
            },
        );
        w.emit_fluid(f, &cloud, None).unwrap();
        for _ in 0..30 {
            w.step(DT).unwrap();
        }
        particles(&w, f)
    };
    let i0 = spin_and_moment(&run(0.0)).1;
    let still = run(0.0);
    for (p, &x) in still.iter().zip(&cloud) {
        assert_eq!(p.position, x, "without cohesion nothing moves");
    }
    let gathered = run(0.016);
    let (l, i1) = spin_and_moment(&gathered);
    assert!(i1 / i0 < 0.8, "second moment {i0} -> {i1} m²");
    let c = centroid(&gathered);
    assert!(c.length() < 1.0e-6, "the centroid moved to {c}");
    assert!(
        l.abs() < 1.0e-5,
        "no spin from pairwise central forces: {l}"
    );
}

#[test]
fn adhesion_pulls_fluid_towards_a_solid_one_way() {
    let h = 2.0 * S;
    let beta = 0.01;
    let radius = 0.4 * S;
    for planar in [true, false] {
        // The solid's volume (its diameter to the power of the dimension) over the
        // fluid particle's.
        let ratio = (2.0 * radius / S).powi(if planar { 2 } else { 3 });
        for q in [0.4f32, 0.6, 0.75, 0.95, 1.05] {
            let r = q * h;
            let (p, moved, v) = adhesive_pair(r, radius, beta, planar);
            let want = beta * adhesion_kernel(r, h) * ratio * S / DT;
            assert!(
                (p.velocity.y - want).abs() <= 1.0e-4 * want + 1.0e-9,
                "planar {planar}, r = {q} h: v {} against {want} m/s",
                p.velocity
            );
            assert_eq!((p.velocity.x, p.velocity.z), (0.0, 0.0));
            if (0.5..1.0).contains(&q) {
                assert!(p.velocity.y > 0.0, "pulled towards the solid at r = {q} h");
            } else {
                assert_eq!(p.velocity.y, 0.0, "r = {q} h is out of A's reach");
            }
            // One-way: the solid (free, 2 kg) is not pulled.
            assert_eq!(moved, Vec3::ZERO);
            assert_eq!(v, Vec3::ZERO);
        }
        let (p, _, _) = adhesive_pair(0.75 * h, radius, 0.0, planar);
        assert_eq!(p.velocity, Vec3::ZERO);
    }
}

/// The same pair, one 60 Hz frame of 1 and of 4 substeps: cohesion is an
/// acceleration, so the velocity it gives over the frame does not depend on how the
/// frame is cut (within the few percent the pair moves in between).
#[test]
fn cohesion_does_not_depend_on_the_substep_count() {
    let h = 2.0 * S;
    let pair_velocity = |substeps: u32| {
        let mut w = zero_g(substeps, 1, false);
        let f = fluid(
            &mut w,
            2,
            FluidDesc {
                cohesion: 0.05,
                ..quiet()
            },
        );
        let pair = [Vec3::ZERO, Vec3::X * (0.6 * h)];
        w.emit_fluid(f, &pair, None).unwrap();
        w.step(DT).unwrap();
        particles(&w, f)[0].velocity.x
    };
    let (one, four) = (pair_velocity(1), pair_velocity(4));
    assert!(one > 0.0, "the pair attracts: {one} m/s");
    assert!(
        (four / one - 1.0).abs() < 0.05,
        "1 substep: {one} m/s, 4 substeps: {four} m/s"
    );
}

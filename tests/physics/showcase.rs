//! The showcase (examples/showcase.rs) still does what its pictures show: every scene
//! is run with the same physics as the demo and its summary numbers (max stretch, min
//! height, energy, rope lengths) are checked against closed forms; the pictures are
//! rendered and checked in `showcase_pictures.rs`. The rasteriser and encoder unit
//! tests (modules of tests/physics/main.rs) run in this binary too.

use crate::{raster::Camera, run, run::Render, scenes};
use scenes::*;
use sinew::Vec3;

const SMALL: Render = Render {
    width: 96,
    height: 60,
    supersample: 1,
    fps: 5.0,
};

fn run_scene(mut scene: Scene) -> run::Summary {
    let (summary, frames) = run::run(&mut scene, Some(&SMALL));
    println!("{summary}");
    // One frame every 1/fps s, both ends included.
    assert_eq!(
        frames.rgb.len() as f32,
        (scene.seconds * SMALL.fps + 1e-3).floor() + 1.0,
        "{}",
        scene.name
    );
    let total_cs: u32 = frames.delays_cs.iter().map(|&d| d as u32).sum();
    assert_eq!(total_cs as f32, 100.0 * frames.rgb.len() as f32 / SMALL.fps);
    assert!(frames
        .rgb
        .iter()
        .all(|f| f.len() == (SMALL.width * SMALL.height * 3) as usize));
    summary
}

/// The largest stretch of a scene with distance constraints.
fn stretch(s: &run::Summary) -> f32 {
    s.max_stretch
        .unwrap_or_else(|| panic!("{}: no distance constraints", s.name))
}

/// Energy never rises by more than `rel` of the energy at the moment the scene runs
/// free (nothing driven any more), neither in total nor from one step to the next.
fn assert_energy_does_not_grow(s: &run::Summary, rel: f64) {
    let e = s.energy_free.abs().max(1e-9);
    assert!(
        s.energy_max_free <= s.energy_free + rel * e,
        "{}: energy grew from {} to {} J",
        s.name,
        s.energy_free,
        s.energy_max_free
    );
    let rise = s
        .energy_max_rise
        .expect("the scene runs free for more than one state");
    assert!(
        rise <= rel * e,
        "{}: energy rose by {rise} J in one step",
        s.name
    );
    assert!(s.energy_end < s.energy_free, "{}: no dissipation", s.name);
}

/// A rigid 1 m rope released horizontal: at the bottom of its swing the tip is one
/// rope length below the anchor, never further (rigid links stretch < 2.5% even in
/// the whip), and the energy (damping 0.4/s) only falls.
#[test]
fn hanging_rope_swings_down_to_its_length_and_loses_energy() {
    let s = run_scene(hanging_rope());
    let length = ROPE_LINKS as f32 * ROPE_LINK_LENGTH;
    assert!(stretch(&s) < 0.025, "max stretch {}", stretch(&s));
    // The lowest point of the swing is the tip hanging straight down.
    let lowest = HANGING_ANCHOR.y - length;
    assert!(
        s.min_height >= lowest - 0.005,
        "min height {} vs {lowest}",
        s.min_height
    );
    assert!(
        s.min_height <= lowest + 0.02,
        "min height {} vs {lowest}",
        s.min_height
    );
    let (_, rest, len, tip) = s.ropes[0];
    assert!((rest - length).abs() < 1e-5);
    assert!((len - length).abs() < 0.005 * length, "final length {len}");
    assert!(tip.distance(HANGING_ANCHOR) <= length * 1.005);
    assert_energy_does_not_grow(&s, 1e-3);
    // Starting at rest, horizontal: E0 = m g y summed over the 20 free particles.
    let e0 = 20.0 * ROPE_PARTICLE_MASS as f64 * G as f64 * HANGING_ANCHOR.y as f64;
    assert!(
        (s.energy_start - e0).abs() < 1e-4 * e0,
        "{} vs {e0}",
        s.energy_start
    );
}

/// While grabbed, the tip (hard-attached to the moving hand) is exactly where the hand
/// put it, every step; the rest of the rope follows within its length; at the release
/// the tip moves with the hand's speed ω r (ω = 120° / 0.7 s, r = 0.85 m); after it the
/// energy (bend springs included) never grows.
#[test]
fn rope_swing_tip_follows_the_hand_then_flies_freely() {
    let mut scene = rope_swing();
    let dt = 1.0 / SIM_HZ;
    let tip = ROPE_LINKS;
    let mut from = None;
    let mut checked = 0;
    let mut worst: f32 = 0.0;
    let steps = (GRAB_END * SIM_HZ) as u32 - 1;
    for k in 0..steps {
        let t = k as f32 * dt;
        if (t + 0.5 * dt) >= GRAB_START && from.is_none() {
            from = Some(scene.sim.positions()[tip as usize]);
        }
        (scene.drive.as_mut().unwrap())(&mut scene.sim, t);
        scene.sim.world.step(dt).unwrap();
        let p = scene.sim.positions();
        let length = ROPE_LINKS as f32 * ROPE_LINK_LENGTH;
        assert!(p[tip as usize].distance(SWING_ANCHOR) <= length * 1.05);
        if let Some(f) = from {
            let hand = grab_hand(t + dt, f);
            worst = worst.max(p[tip as usize].distance(hand));
            assert_eq!(scene.sim.held, vec![tip]);
            checked += 1;
        }
    }
    println!("tip within {worst} m of the hand");
    assert!(worst < 1e-5, "tip {worst} m from the hand");
    assert!(checked as f32 >= (GRAB_END - GRAB_START) * SIM_HZ - 2.0);
    // On the arc the tip moves at ω r along it (over the last substep's chord: the
    // same within 0.1%).
    let omega = (GRAB_ARC_DEG.1 - GRAB_ARC_DEG.0).to_radians() / (GRAB_END - GRAB_ARC_START);
    let mut v = Vec3::ZERO;
    scene
        .sim
        .world
        .read_velocities(tip, 1, |_, x| v = x)
        .unwrap();
    let want = omega * GRAB_RADIUS;
    println!(
        "tip speed at the release {} m/s, hand {want} m/s",
        v.length()
    );
    assert!(
        (v.length() - want).abs() < 1e-3 * want,
        "tip speed {} m/s, hand {want} m/s",
        v.length()
    );
    // The hand ends on the arc, GRAB_RADIUS from the anchor.
    let end = grab_hand(GRAB_END, Vec3::ZERO);
    assert!((end.distance(SWING_ANCHOR) - GRAB_RADIUS).abs() < 1e-5);

    let s = run_scene(rope_swing());
    assert_energy_does_not_grow(&s, 2e-3);
    let (_, _, len, tip_end) = s.ropes[0];
    assert!((len - 1.0).abs() < 0.01, "final length {len}");
    assert!(tip_end.distance(SWING_ANCHOR) <= 1.005);
    // The hand moves the tip smoothly over the substeps (an attachment, not a
    // position written once a frame): rigid links stretch under 2.5%, as in the
    // hanging rope (0.7% measured; the written tip stretched them by 3.8%).
    assert!(stretch(&s) < 0.025, "max stretch {}", stretch(&s));
}

/// The cloth held by two corners: it ends up hanging (lowest point at least 0.7 m
/// below the corners, the cloth is 0.8 m deep), no particle ever falls further from
/// the corners than the cloth's own extent allows, the pins never move, rigid
/// stretch constraints stretch < 5%, and once the wind stops the energy only falls.
#[test]
fn cloth_hangs_from_its_corners_without_stretching() {
    let s = run_scene(cloth());
    assert!(stretch(&s) < 0.05, "max stretch {}", stretch(&s));
    assert!(
        s.min_height < CLOTH_HEIGHT - 0.7,
        "min height {}",
        s.min_height
    );
    // Farthest any particle can be from its nearer pin along the grid (octile
    // distance over stretch and shear links), times the worst stretch.
    let pins = [cloth_rest(0, 0), cloth_rest(CLOTH_NX - 1, 0)];
    let mut reach: f32 = 0.0;
    for j in 0..CLOTH_NY {
        for i in 0..CLOTH_NX {
            let p = cloth_rest(i, j);
            let d = pins
                .iter()
                .map(|q| {
                    let (dx, dz) = ((p.x - q.x).abs(), (p.z - q.z).abs());
                    dx.max(dz) + (std::f32::consts::SQRT_2 - 1.0) * dx.min(dz)
                })
                .fold(f32::INFINITY, f32::min);
            reach = reach.max(d);
        }
    }
    let bound = CLOTH_HEIGHT - reach * (1.0 + stretch(&s));
    assert!(
        s.min_height >= bound,
        "min height {} below {bound}",
        s.min_height
    );
    assert_energy_does_not_grow(&s, 2e-3);

    // The wind blows along +z: with it the hanging cloth is pushed downwind of where
    // it hangs without it; the pins never move.
    let mean_z = |with_wind: bool| {
        let mut scene = cloth();
        let dt = 1.0 / SIM_HZ;
        let steps = ((WIND_START + WIND_END) * 0.5 * SIM_HZ) as u32;
        for k in 0..steps {
            if with_wind {
                (scene.drive.as_mut().unwrap())(&mut scene.sim, k as f32 * dt);
            }
            scene.sim.world.step(dt).unwrap();
        }
        let p = scene.sim.positions();
        assert_eq!(p[0], cloth_rest(0, 0));
        assert_eq!(p[(CLOTH_NX - 1) as usize], cloth_rest(CLOTH_NX - 1, 0));
        p.iter().map(|p| p.z).sum::<f32>() / p.len() as f32
    };
    let (calm, windy) = (mean_z(false), mean_z(true));
    assert!(
        windy > calm + 0.05,
        "mean z {windy} m with wind, {calm} m without"
    );
}

/// Quadratic drag along the normal: ½ρC_d = 0.6 kg/m³ on 25 cm² at 3 m/s head-on is
/// 0.6 × 0.0025 × 9 = 0.0135 N; wind along the surface pushes nothing; moving with
/// the wind cancels it.
#[test]
fn wind_drag_is_quadratic_along_the_normal() {
    let f = wind_force(Vec3::new(0.0, 0.0, 3.0), Vec3::ZERO, Vec3::Z, 0.0025);
    assert!((f - Vec3::new(0.0, 0.0, 0.0135)).length() < 1e-7, "{f}");
    let back = wind_force(Vec3::new(0.0, 0.0, 3.0), Vec3::ZERO, -Vec3::Z, 0.0025);
    assert!(
        (back - f).length() < 1e-7,
        "the side facing away is pushed the same way"
    );
    assert_eq!(
        wind_force(Vec3::X * 3.0, Vec3::ZERO, Vec3::Z, 0.0025),
        Vec3::ZERO
    );
    assert_eq!(wind_force(Vec3::Z, Vec3::Z, Vec3::Z, 0.0025), Vec3::ZERO);
    assert_eq!(wind(WIND_START - 0.01, Vec3::ZERO), Vec3::ZERO);
    assert_eq!(wind(WIND_END, Vec3::ZERO), Vec3::ZERO);
}

/// Three ropes with the compliance of leather, muscle and fat: each settles longer
/// by the closed form Σ α·T_k (T_k = the weight below link k), within 8% + 2 mm (the
/// rest is the residual bounce and the one-iteration solver's own give, which the
/// near-rigid leather rope shows alone).
#[test]
fn material_ropes_stretch_by_compliance_times_tension() {
    let s = run_scene(materials());
    assert_eq!(s.ropes.len(), MATERIALS.len());
    let mut last = -1.0;
    for ((label, rest, len, _), &(name, alpha, _)) in s.ropes.iter().zip(&MATERIALS) {
        assert_eq!(*label, name);
        let want = hanging_extension(alpha);
        let got = len - rest;
        println!("{name}: extension {got:.5} m, closed form {want:.5} m");
        assert!(
            (got - want).abs() <= 0.08 * want + 0.002,
            "{name}: extension {got} m, closed form {want} m"
        );
        assert!(got > last, "softer material must stretch more");
        last = got;
    }
    // Fat: 1e-3 m/N × 9.81 m/s² × (20 × 0.5 kg + 0.02 kg × 190) = 0.1354 m.
    assert!((hanging_extension(1.0e-3) - 0.13538).abs() < 1e-4);
    // Gravity + kinetic energy never exceeds the start (the springs store the rest).
    assert!(s.energy_max_free <= s.energy_start * (1.0 + 1e-6), "{s}");
}

/// A metric a scene recorded (panics naming it when it was never recorded).
fn metric(s: &run::Summary, name: &str) -> f64 {
    let v = s
        .metrics
        .iter()
        .find(|m| m.name == name)
        .unwrap_or_else(|| panic!("{}: no metric {name:?}", s.name))
        .value;
    assert!(v.is_finite(), "{}: {name} = {v}", s.name);
    v
}

/// Two tet cubes (edges + volume, strain + volume) in zero gravity, squashed to 70%
/// of their height at 0 s and of their width at 2 s: a linear squash scales the
/// volume by exactly 0.7; each time the cube is back above 95% of its rest volume
/// within 2 s (issue 4's criterion) and stays there; by 2 s and at the end its shape
/// is the rest shape up to a rigid motion within 2.5 cm (0.5 m cube); with no gravity
/// and no contacts nothing moves its centre of mass.
#[test]
fn squashed_soft_cubes_recover_their_volume_and_shape() {
    let s = run_scene(soft_bodies());
    for names in &CUBE_METRICS {
        let m = |i: usize| metric(&s, names[i]);
        assert!((m(0) - 0.7).abs() < 1e-3, "{}: {}", names[0], m(0));
        // The second squash scales the volume at that moment (≈ V0) by 0.7.
        assert!((m(3) - 0.7 * m(2)).abs() < 2e-3, "{}: {}", names[3], m(3));
        for (recovery, ratio) in [(1, 2), (4, 5)] {
            assert!(m(recovery) <= 2.0, "{}: {} s", names[recovery], m(recovery));
            assert!(
                (0.95..=1.05).contains(&m(ratio)),
                "{}: {}",
                names[ratio],
                m(ratio)
            );
        }
        assert!(m(6) < 1e-4, "{}: {} m", names[6], m(6));
        for i in [7, 8] {
            assert!(m(i) < 0.025, "{}: {} m", names[i], m(i));
        }
    }
}

/// The drawn surface of a tet mesh is closed and wound outward: by the divergence
/// theorem its triangles enclose the cube's volume, size³; likewise the icosphere's
/// triangles enclose a positive volume just under 4/3 π r³ (a polyhedron inscribed
/// in the sphere).
#[test]
fn soft_body_surfaces_are_closed_and_wound_outward() {
    let enclosed = |v: &[Vec3], tris: &[[u32; 3]]| -> f32 {
        tris.iter()
            .map(|t| {
                let [a, b, c] = t.map(|k| v[k as usize]);
                a.dot(b.cross(c)) / 6.0
            })
            .sum()
    };
    let (v, tets) = tet_cube(CUBE_CELLS, CUBE_SIZE, Vec3::new(0.3, 1.0, -0.2));
    assert_eq!(tets.len() as u32, 6 * CUBE_CELLS.pow(3));
    let surface = tet_surface(&v, &tets);
    assert_eq!(surface.len() as u32, 6 * 2 * CUBE_CELLS * CUBE_CELLS);
    let vol = enclosed(&v, &surface);
    assert!((vol - CUBE_SIZE.powi(3)).abs() < 1e-5, "{vol}");
    let (v, tris) = icosphere(2, 0.2, Vec3::new(0.0, 1.0, 0.0));
    assert_eq!((v.len(), tris.len()), (162, 320));
    let ball = 4.0 / 3.0 * std::f32::consts::PI * 0.2f32.powi(3);
    let vol = enclosed(&v, &tris);
    assert!(vol < ball && vol > 0.9 * ball, "{vol} vs {ball}");
}

/// Two 1 m cloths hanging from two corners, tethers on the left only: over the whole
/// run the largest edge stretch stays below 2% with tethers and is measurably larger
/// (over 1.5×) without them; with damping the energy never grows.
#[test]
fn tethers_keep_hanging_cloth_within_2_percent() {
    let s = run_scene(cloth_tethers());
    let with = metric(&s, TETHER_CLOTHS[0].2);
    let without = metric(&s, TETHER_CLOTHS[1].2);
    println!(
        "max edge stretch: {:.3}% with tethers, {:.3}% without",
        100.0 * with,
        100.0 * without
    );
    assert!(with < 0.02, "with tethers {with}");
    assert!(without > 1.5 * with, "with {with}, without {without}");
    assert!((stretch(&s) as f64 - without.max(with)).abs() < 1e-6);
    // Both cloths fell from y = 2 m and hang about 1 m below their pins.
    assert!(s.min_height < TETHER_CLOTH_HEIGHT - 0.9 * TETHER_CLOTH_SIZE);
    assert_energy_does_not_grow(&s, 2e-3);
}

/// The hard attachment holds the rope's top exactly on the host (moving or not); at
/// rest the host feels the weight of everything below it, (0.1 + 0.2) kg × g =
/// 2.943 N, straight down (mean over the last second before it moves, within 2%);
/// circling, it also pulls the swinging load inwards, so the force exceeds the
/// weight. The pressure balloon keeps its volume within 5% throughout.
#[test]
fn host_attachment_carries_the_weight_and_the_balloon_keeps_its_volume() {
    let s = run_scene(balloon_on_a_host());
    let weight = metric(&s, "weight below the host (N)");
    let want = ((BALLOON_ROPE_MASS + BALLOON_MASS) * G) as f64;
    assert!((weight - want).abs() < 1e-5, "{weight} vs {want}");
    let fy = metric(&s, "mean force on the host at rest, y (N)");
    let fh = metric(&s, "mean force on the host at rest, horizontal (N)");
    println!("host force at rest: {fy:.4} N down, {fh:.4} N sideways; weight {weight:.4} N");
    assert!((fy + weight).abs() < 0.02 * weight, "{fy} vs -{weight}");
    assert!(fh < 0.02 * weight, "{fh}");
    assert!(metric(&s, "force on the host circling, max (N)") > weight);
    assert!(metric(&s, "rope top: max distance from the host (m)") < 1e-3);
    assert!(metric(&s, "balloon: max |V/V0 - 1|") < 0.05);
    // The host circle: starts still, eases onto radius HOST_RADIUS.
    assert_eq!(host_at(0.0), HOST_START);
    assert_eq!(host_at(HOST_CIRCLE_START), HOST_START);
    let r = host_at(HOST_CIRCLE_START + HOST_RAMP + 0.3).distance(HOST_START);
    assert!((r - HOST_RADIUS).abs() < 1e-5, "{r}");
}

/// A 0.95 m cloth (28 × 28 particles, radius r = 1.6 cm, self-collision on) dropped
/// onto a sphere collider (R = 0.3 m) on a ground plane: at every recorded state no
/// particle is inside the sphere inflated by its radius (|x − c| ≥ R + r − 1 mm) or
/// below the ground (y ≥ r − 1 mm); at the end no two particles are closer than 90%
/// of 2r (no self-intersection), the highest particle rests on the sphere's top
/// (2R + r up) and the cloth is at rest: its kinetic energy is below 1e-5 of the potential energy the drop
/// released. The sphere is drawn (bluish grey) where the camera projects its bottom.
#[test]
fn cloth_drapes_over_the_sphere_without_entering_it_or_itself() {
    let s = run_scene(cloth_on_sphere());
    let inside = metric(&s, DRAPE_INSIDE);
    assert!(
        inside >= -1e-3,
        "a particle is {inside} m inside the sphere"
    );
    let floor = metric(&s, DRAPE_FLOOR);
    assert!(floor >= -1e-3, "a particle is {floor} m below the ground");
    let closest = metric(&s, DRAPE_CLOSEST);
    assert!(closest >= 0.9, "closest pair {closest} x 2r");
    // The cloth rests on the sphere's top: its highest particle is 2R + r up, and the
    // particle over the top touches the sphere (inflated by r). (The highest particle
    // may be a fold standing as high a little aside: 0.7 mm above, 16 mm off the
    // sphere, after the family-by-family colouring.)
    let (top, gap) = (metric(&s, DRAPE_TOP), metric(&s, DRAPE_TOP_GAP));
    let want = (DRAPE_SPHERE_CENTRE.y + DRAPE_SPHERE_R + DRAPE_RADIUS) as f64;
    assert!(
        (top - want).abs() < 5e-3,
        "highest particle at {top} m, want {want} m"
    );
    assert!(
        gap.abs() < 1e-3,
        "the particle over the top is {gap} m off the sphere"
    );
    let (ke, pe) = (metric(&s, DRAPE_KE_END), metric(&s, DRAPE_DROP_PE));
    // The drop: 7.84 kg of cloth from 0.9 m onto a sphere whose top is at 0.6 m.
    let m = (DRAPE_N * DRAPE_N) as f64 * DRAPE_MASS as f64;
    assert!(pe > m * G as f64 * 0.25 && pe < m * G as f64 * DRAPE_HEIGHT as f64);
    assert!(ke < 1e-5 * pe, "kinetic {ke} J vs {pe} J released");
    // With no restitution and damping nothing ever gains energy.
    assert!(s.energy_max_free <= s.energy_start * (1.0 + 1e-6), "{s}");

    let mut scene = cloth_on_sphere();
    let r = Render {
        width: 240,
        height: 150,
        supersample: 1,
        fps: 30.0,
    };
    let rgb = run::render_frame(&mut scene, &r, &[]);
    let cam = Camera::look_at(scene.eye, scene.target, scene.fov_deg, r.width, r.height);
    // The point of the sphere's equator nearest the camera.
    let towards = (scene.eye - DRAPE_SPHERE_CENTRE) * Vec3::new(1.0, 0.0, 1.0);
    let front = DRAPE_SPHERE_CENTRE + DRAPE_SPHERE_R * towards.normalize();
    let (x, y, _) = cam.project(front).unwrap();
    let k = 3 * (y as usize * r.width as usize + x as usize);
    let px = &rgb[k..k + 3];
    // Drawn in the sphere's colour (0x7a8fa8) shaded: blue/red as in 168/122.
    let ratio = px[2] as f32 / px[0] as f32;
    assert!(
        (ratio - 168.0 / 122.0).abs() < 0.06 && px[0] > 60,
        "sphere pixel ({x}, {y}) is {px:?}"
    );
    // Without the sphere shape the pixel shows something else (the floor).
    let mut bare = cloth_on_sphere();
    bare.sim
        .shapes
        .retain(|s| !matches!(s, scenes::Shape::Sphere { .. }));
    let without = run::render_frame(&mut bare, &r, &[]);
    assert_ne!(&without[k..k + 3], px, "the sphere is not drawn");
}

/// A tet cube (edges + volume, 1 kg) and a pressure ball (0.5 kg) dropped on a
/// ground plane with friction and restitution 0.5: nothing goes more than 1 cm below
/// the ground (the stiff volumes push a corner 3 mm in during one substep of the
/// impact); the volumes stay within 5% of rest throughout and at the end; the ball
/// bounces up by more than e²/2 of its fall and less than the fall itself (energy);
/// both end at rest (kinetic energy below 1e-4 of the potential energy released) and
/// the energy never exceeds the start (the bodies' elastic energy is not counted, so
/// it may rise from step to step as they spring back).
#[test]
fn dropped_soft_bodies_bounce_settle_and_keep_their_volume() {
    let s = run_scene(soft_body_drop());
    assert!(s.min_height >= -0.01, "min height {}", s.min_height);
    for names in &DROP_METRICS {
        let m = |i: usize| metric(&s, names[i]);
        assert!((m(0) - 1.0).abs() < 0.05, "{}: {}", names[0], m(0));
        assert!(m(1) < 0.05, "{}: {}", names[1], m(1));
        assert!(m(6) >= -0.01, "{}: {}", names[6], m(6));
        assert!(m(3) > 0.0, "{}: {}", names[3], m(3));
        assert!(m(2) < 1e-4 * m(3), "{}: {} J", names[2], m(2));
    }
    let ball = DROP_METRICS[1];
    let m = |i: usize| metric(&s, ball[i]);
    let fall = (DROP_BALL_CENTRE.y - DROP_BALL_RADIUS) as f64;
    let rise = m(4) - DROP_BALL_RADIUS as f64;
    let e2 = (DROP_RESTITUTION * DROP_RESTITUTION) as f64;
    println!(
        "ball rebound {rise:.3} m after a {fall:.3} m fall (e^2 h = {:.3} m)",
        e2 * fall
    );
    assert!(rise > 0.5 * e2 * fall && rise < fall, "rebound {rise} m");
    // The ball, 0.5 kg, released 1.1 m above where it rests (within its squash).
    let released = m(3);
    let want = (DROP_BALL_MASS * G) as f64 * fall;
    assert!(
        (released - want).abs() < 0.05 * want,
        "{released} J vs {want} J"
    );
    assert!(s.energy_max_free <= s.energy_start * (1.0 + 1e-6), "{s}");
}

/// A ray from the camera through the hanging rope's tip picks the tip (index 20) at
/// its distance from the eye; the grab (α = 1e-4 m/N) holds it within α × 2 M g
/// (M = 1 kg of rope, 2 mm) of the target once the drag is over, and not exactly on
/// it (the grab is compliant); after `release_particle` no grab is left, the rope's
/// links stay within 2.5% of rest and its energy never grows.
#[test]
fn pick_ray_finds_the_tip_and_the_grab_drags_it() {
    let s = run_scene(pick_and_drag());
    let m = |i: usize| metric(&s, PICK_METRICS[i]);
    assert_eq!(m(0), ROPE_LINKS as f64, "picked particle");
    assert!(
        (m(1) - m(2)).abs() < PICK_RADIUS as f64,
        "ray {} vs {}",
        m(1),
        m(2)
    );
    let rope_weight = (ROPE_LINKS as f32 * ROPE_PARTICLE_MASS * G) as f64;
    let bound = GRAB_COMPLIANCE as f64 * 2.0 * rope_weight;
    assert!(
        m(3) < bound && m(3) > 1e-5,
        "grab miss {} m, bound {bound} m",
        m(3)
    );
    assert_eq!(m(4), 0.0);
    assert!(stretch(&s) < 0.025, "max stretch {}", stretch(&s));
    assert_energy_does_not_grow(&s, 1e-3);
    // The eased drag path starts where the tip was picked and ends at DRAG_TO.
    let from = Vec3::new(0.1, 0.7, 0.0);
    assert_eq!(drag_target(PICK_AT, from), from);
    assert!(drag_target(DRAG_END, from).distance(DRAG_TO) < 1e-6);
}

/// 2000 particles (r = 3 cm) poured from a circling spout into an open 1 m box of
/// four wall planes on the ground: over the whole run no particle's surface is past a
/// wall or the ground by more than 1 mm; at the end no two overlap by more than 5% of
/// their radius sum; once the pour is over the energy only falls (no restitution).
#[test]
fn poured_particles_stay_in_the_box_without_overlapping() {
    let s = run_scene(pour());
    assert_eq!(metric(&s, POUR_COUNT), POUR_PARTICLES as f64);
    let past = metric(&s, POUR_OUTSIDE);
    assert!(past <= 1e-3, "a particle went {past} m past the box");
    let overlap = metric(&s, POUR_OVERLAP);
    println!(
        "largest overlap at the end: {:.2}% of the radius sum",
        100.0 * overlap
    );
    assert!(overlap <= 0.05, "overlap {overlap}");
    assert_energy_does_not_grow(&s, 1e-3);
    // Loose particles only: the summary has no stretch, the count is an integer and
    // the empty world at the start has energy 0, not -0.
    assert_eq!(s.max_stretch, None);
    let text = s.to_string();
    assert!(text.contains("particles poured: 2000\n"), "{text}");
    assert!(text.contains("energy 0.0000 J at start"), "{text}");
    for wrong in ["stretch", "inf", "NaN", "-0.0"] {
        assert!(!text.contains(wrong), "{wrong:?} in {text}");
    }
    // The overlap measure: 1.9 r apart is 5% of 2r, touching or apart is 0.
    let r = 0.1;
    let pts = [Vec3::ZERO, Vec3::X * 1.9 * r, Vec3::X * 5.0 * r];
    assert!((max_overlap(&pts, r) - 0.05).abs() < 1e-5);
    assert_eq!(max_overlap(&pts[1..], r), 0.0);
    // The spout circles at POUR_SPOUT_RADIUS about POUR_SPOUT.
    let d = pour_spout(0.3).distance(POUR_SPOUT);
    assert!((d - POUR_SPOUT_RADIUS).abs() < 1e-5, "{d}");
}

/// The cape on a character that walks, turns 180° in 0.4 s and stops in a gust: the
/// cape stretches little during the turn (the skinning plus inertia 0.3 carry it;
/// measured 1.0%), and the gust lifts its hem well away from the skinned pose (measured
/// 0.16 m); every position stays finite.
#[test]
fn cape_follows_the_character_and_flies_in_the_gust() {
    let s = run_scene(cape());
    let stretch = metric(&s, CAPE_METRICS[0]);
    let lift = metric(&s, CAPE_METRICS[1]);
    assert!(stretch < 0.03, "stretch {stretch}");
    assert!(lift > 0.05, "hem lift {lift}");
}

/// The torn cloth: the bars pull the seam past the tear threshold and the cloth ends
/// in two pieces (connected components of the topology it reads back; measured 16
/// splits); splitting keeps the mass (each copy takes half of its vertex's) and
/// nothing flies off.
#[test]
fn torn_cloth_ends_in_two_pieces() {
    let s = run_scene(torn_cloth());
    let splits = metric(&s, TORN_METRICS[0]);
    let pieces = metric(&s, TORN_METRICS[1]);
    let mass = metric(&s, TORN_METRICS[2]);
    let speed = metric(&s, TORN_METRICS[3]);
    // 0.5 kg over 25 x 15 particles, 30 of them held by the posts.
    let movable = 0.5 * (25.0 * 15.0 - 30.0) / (25.0 * 15.0);
    assert_eq!(pieces, 2.0, "{splits} splits");
    assert!(
        splits >= TORN_NY as f64,
        "{splits} splits for a seam of {} rows",
        TORN_NY + 1
    );
    assert!(
        (mass - movable).abs() < 1e-4 * movable,
        "mass {mass} kg, built {movable} kg"
    );
    // The seam's recoil (measured 5.4 m/s); a flung sliver would be far faster.
    assert!(speed < 10.0, "max speed {speed} m/s");
}

/// The winch length (m) the crane's schedule reaches at time `t` (s) until it slows
/// down near the target (t <= 10 s): the speed rises linearly over `CRANE_RAMP` from
/// `CRANE_REEL_AT`, then stays.
fn crane_length(t: f32) -> f32 {
    let s = (t - CRANE_REEL_AT).max(0.0);
    let reeled = if s < CRANE_RAMP {
        0.5 * CRANE_SPEED * s * s / CRANE_RAMP
    } else {
        0.5 * CRANE_SPEED * CRANE_RAMP + CRANE_SPEED * (s - CRANE_RAMP)
    };
    (CRANE_ROPE_LENGTH - reeled).max(CRANE_TARGET)
}

/// The crane reels its 100 kg load in from 5 m to 1 m: at full speed the load rises
/// at the winch's 0.5 m/s (±5%) and the drum link carries the weight hanging from it
/// (±5%); the load's height follows the winch's schedule (drum height − length,
/// within 1% of the length); the rope stretches less than 1%; it stops at 1 m.
#[test]
fn crane_lifts_its_load_at_the_winch_speed() {
    let s = run_scene(crane());
    let speed = metric(&s, CRANE_LOAD_SPEED);
    assert!((speed - 0.5).abs() < 0.05 * 0.5, "load speed {speed}");
    let tension = metric(&s, CRANE_TENSION);
    assert!((tension - 1.0).abs() < 0.05, "tension / m g = {tension}");
    let stretch = metric(&s, CRANE_STRETCH);
    assert!(stretch < 0.01, "stretch {stretch}");
    for (name, t) in CRANE_HEIGHTS.iter().zip([4.0f32, 7.0, 10.0]) {
        let length = crane_length(t);
        let expected = (CRANE_DRUM.y - length) as f64;
        let y = metric(&s, name);
        assert!(
            (y - expected).abs() < 0.01 * length as f64,
            "{name}: {y} vs {expected}"
        );
    }
    // The schedule: 0.25 m over the 1 s ramp, then 0.5 m/s.
    assert!((crane_length(CRANE_REEL_AT + 1.0) - 4.75).abs() < 1e-6);
    assert!((crane_length(CRANE_REEL_AT + 3.0) - 3.75).abs() < 1e-6);
    assert!((metric(&s, CRANE_LENGTH) - 1.0).abs() < 1e-4);
    let hang = metric(&s, CRANE_HANG);
    assert!((hang - 1.0).abs() < 0.01, "drum to load {hang}");
}

/// The bucket's rope (break force 50 N) snaps at its top link with the scoop that
/// brings the weight within one scoop's weight (4.9 N) of 50 N (W_6 = 48.0 N; a scoop
/// added suddenly is a step load, which the rope may overshoot by up to its weight),
/// never before the weight could reach it; the break event reports a force just
/// above 50 N at the top link's middle, within half a second of the scoop; the bucket
/// falls to the floor.
#[test]
fn bucket_rope_snaps_when_the_weight_passes_its_break_force() {
    let s = run_scene(bucket_snap());
    let n = metric(&s, BUCKET_SCOOPS) as u32;
    let scoop = BUCKET_SCOOP * G;
    println!(
        "snapped with {n} scoops: W = {} N, before the last scoop {} N",
        bucket_weight(n),
        bucket_weight(n - 1)
    );
    assert!(
        (bucket_weight(n) - BUCKET_BREAK_FORCE).abs() <= scoop
            && bucket_weight(n - 1) < BUCKET_BREAK_FORCE,
        "snapped at {n} scoops"
    );
    assert!((metric(&s, BUCKET_WEIGHT) - bucket_weight(n) as f64).abs() < 1e-4);
    let force = metric(&s, BUCKET_FORCE);
    assert!(
        force > BUCKET_BREAK_FORCE as f64 && force < (BUCKET_BREAK_FORCE + scoop) as f64,
        "event force {force}"
    );
    assert_eq!(
        metric(&s, BUCKET_LINK),
        0.0,
        "the top link carries the most"
    );
    let y = metric(&s, BUCKET_EVENT_Y);
    assert!(
        (y - (BUCKET_ANCHOR.y - 0.05) as f64).abs() < 0.01,
        "event at height {y}"
    );
    let t = metric(&s, BUCKET_TIME);
    let added = n as f64 * BUCKET_EVERY as f64;
    assert!(
        t >= added && t < added + BUCKET_EVERY as f64,
        "snapped at {t} s"
    );
    let stretch = metric(&s, BUCKET_STRETCH);
    assert!(stretch < 0.01, "rope stretch before the snap {stretch}");
    let floor = metric(&s, BUCKET_FLOOR);
    assert!((floor - 0.02).abs() < 0.005, "bucket bottom at {floor} m");
    // The weight: 9 movable rope particles of 0.01 kg, the 1.8 kg bucket, the sand.
    assert!((bucket_weight(6) - 47.9709).abs() < 1e-3);
}

/// Soft rings in water (2D, after Matsuoka 2025): the three light rings float, each
/// with its centre where Archimedes puts a circle of the ring's outer radius (R plus
/// its particles' radius) and its density (mass over that circle's area) above the
/// surface beside it, within a quarter of R; the heavy ring lies on the floor; the
/// ring pushed under went more than a radius below the surface and bobbed back up;
/// no water left the tank and it stays near its rest density.
#[test]
fn light_rings_float_the_heavy_one_sinks_and_the_pushed_one_bobs_up() {
    use sinew::scenes::{RINGS_PARTICLE_RADIUS, RINGS_RADIUS};
    let s = run_scene(floating_rings());
    let h: Vec<f64> = RINGS_HEIGHTS.iter().map(|n| metric(&s, n)).collect();
    let (r, outer) = (RINGS_RADIUS, RINGS_RADIUS + RINGS_PARTICLE_RADIUS);
    for k in 0..3 {
        let expected = metric(&s, RINGS_ARCHIMEDES[k]);
        println!(
            "{}: {:.4} (Archimedes {expected:.4})",
            RINGS_HEIGHTS[k], h[k]
        );
        assert!(
            (h[k] - expected).abs() < 0.25 * r as f64,
            "ring {k}: {} vs {expected}",
            h[k]
        );
    }
    assert!(
        h[0] > h[1] && h[1] > h[2],
        "light rings ride by density: {h:?}"
    );
    let surface = metric(&s, RINGS_SURFACE);
    let heavy = h[3] + surface;
    assert!(
        heavy < 1.3 * outer as f64,
        "heavy ring centre {heavy} m above the floor"
    );
    let low = metric(&s, RINGS_PUSHED_LOW);
    assert!(
        low < surface - r as f64,
        "the pushed ring only went down to {low} m"
    );
    let outside = metric(&s, RINGS_OUTSIDE);
    assert!(outside < 1e-3, "water {outside} m past the tank");
    let (mean, max) = (
        metric(&s, RINGS_MEAN_DENSITY),
        metric(&s, RINGS_MAX_DENSITY),
    );
    assert!(
        (mean - 1.0).abs() < 0.05 && max < 1.25,
        "rho/rho0 mean {mean}, max {max}"
    );
    // The closed form: half density rides at the centre, a quarter 0.404 R above.
    assert!(floating_circle_height(0.5, 1.0).abs() < 1e-5);
    assert!((floating_circle_height(0.25, 1.0) - 0.4040).abs() < 1e-3);
    assert!((floating_circle_height(0.75, 1.0) + 0.4040).abs() < 1e-3);
}

/// The dam break: the water never leaves the tank; it carries the light ball (faster
/// than 1 m/s) and lifts it off the floor, swings the cloth's hem downstream by more
/// than 10 cm; the ball keeps its volume within 2%.
#[test]
fn dam_break_carries_the_ball_and_swings_the_cloth() {
    let s = run_scene(dam_break());
    let outside = metric(&s, DAM_OUTSIDE);
    assert!(outside < 1e-3, "water {outside} m past the tank");
    let speed = metric(&s, DAM_BALL_SPEED);
    assert!(speed > 1.0, "ball speed {speed}");
    let rise = metric(&s, DAM_BALL_RISE);
    assert!(
        rise > DAM_BALL_CENTRE.y as f64 + 0.05,
        "ball rose to {rise}"
    );
    let swing = metric(&s, DAM_CLOTH_SWING);
    assert!(swing > 0.1, "cloth hem swing {swing}");
    let v = metric(&s, DAM_BALL_VOLUME);
    assert!((v - 1.0).abs() < 0.02, "ball volume ratio {v}");
}

/// The hose: all 3600 particles are emitted (720/s for 5 s) and none leaves the box;
/// the water's height (twice its mean particle height) is within 15% of its volume
/// over the floor area (count × s³ / area; it still sloshes at the end), and the ball
/// of half the water's density floats with its centre within a radius of the surface.
#[test]
fn hose_fills_the_box_and_floats_the_ball() {
    let s = run_scene(hose());
    assert_eq!(metric(&s, HOSE_COUNT), HOSE_CAPACITY as f64);
    let outside = metric(&s, HOSE_OUTSIDE);
    assert!(outside < 1e-3, "water {outside} m past the box");
    let level = metric(&s, HOSE_LEVEL);
    let fill = metric(&s, HOSE_FILL);
    println!("water level {level:.4} m, volume / floor area {fill:.4} m");
    assert!(
        (level - fill).abs() < 0.15 * fill,
        "level {level} m, volume / area {fill} m"
    );
    let ball = metric(&s, HOSE_BALL_HEIGHT);
    assert!(
        (ball - level).abs() < HOSE_BALL_RADIUS as f64,
        "ball at {ball} m, water at {level} m"
    );
}

//! Plain particle edits on a fluid's particles (src/world/fluids.rs,
//! `World::check_not_fluid`): radii, inverse masses, collision filters, unyielding
//! factors and grabs by particle index are refused on any particle a live fluid
//! reserves (live or not yet emitted), with a message naming the particles and the
//! fluid setting to change instead, and change nothing; the same edits on the
//! particles around the fluid still work. A fluid sets its particles' mass
//! (ρ₀·s³), radius (its `collision_radius`) and filter itself, and moves its last live
//! particle into the slot of one it removes, so an edit by index would break its
//! invariants or land on another particle later (a grab would jump to it).

use sinew::{CollisionFilter, ErrorKind, FluidDesc, RopeDesc, Vec3, World, WorldDesc};

const DT: f32 = 1.0 / 60.0;

/// A rope (particles 0..5), a fluid of capacity 16 holding 8 (particles 5..21, live
/// 5..13), one free particle after it (21); stepped once.
fn world() -> World {
    let mut w = World::new(WorldDesc {
        threads: 1,
        ..WorldDesc::default()
    })
    .unwrap();
    w.add_rope(&RopeDesc {
        start: Vec3::new(-1.0, 2.0, 0.0),
        end: Vec3::new(-0.5, 2.0, 0.0),
        segments: 4,
        ..RopeDesc::default()
    })
    .unwrap();
    let f = w
        .add_fluid(&FluidDesc {
            capacity: 16,
            ..FluidDesc::default()
        })
        .unwrap();
    assert_eq!(w.fluid_particle_range(f).unwrap(), (5, 16));
    let block: Vec<Vec3> = (0..8)
        .map(|k| Vec3::new((k & 1) as f32, 1.0 + ((k >> 1) & 1) as f32, (k >> 2) as f32) * 0.05)
        .collect();
    w.emit_fluid(f, &block, None).unwrap();
    assert_eq!(
        w.add_particles(&[Vec3::new(1.0, 3.0, 0.0)], None).unwrap(),
        21
    );
    w.step(DT).unwrap();
    w
}

type Edit = fn(&mut World, u32, usize) -> sinew::Result<()>;

fn edits() -> Vec<(&'static str, Edit)> {
    vec![
        // Not the rope's own radius (0.01, which its builder gives its particles).
        ("radii", |w, first, n| {
            w.set_particle_radii(first, &vec![0.02; n])
        }),
        ("inverse masses", |w, first, n| {
            w.set_inverse_masses(first, &vec![2.0; n])
        }),
        ("collision filters", |w, first, n| {
            let f = CollisionFilter {
                layers: 2,
                mask: 2,
                ..CollisionFilter::default()
            };
            w.set_collision_filters(first, &vec![f; n])
        }),
        ("unyielding", |w, first, n| {
            w.set_unyielding(first, &vec![0.5; n])
        }),
        ("grab", |w, first, _| {
            w.grab_particle(first, Vec3::new(0.0, 3.0, 0.0), 0.0)
        }),
    ]
}

#[test]
fn edits_on_fluid_particles_are_refused_and_change_nothing() {
    // (first, count, the fluid particles the message names)
    let ranges = [
        (5u32, 1usize, "particle 5 belongs"),
        (7, 4, "particles 7..11 belong"),
        // Reserved but not emitted yet: the next emission fills them.
        (15, 3, "particles 15..18 belong"),
        // Straddling the rope and the fluid, and the fluid and the free particle.
        (3, 4, "particles 5..7 belong"),
        (20, 2, "particle 20 belongs"),
        (0, 22, "particles 5..21 belong"),
    ];
    for (name, edit) in edits() {
        for &(first, n, names) in &ranges {
            if name == "grab" && n > 1 && first != 20 {
                continue;
            }
            let (first, n) = if name == "grab" && first == 20 {
                (20, 1)
            } else {
                (first, n)
            };
            let mut w = world();
            let before = w.snapshot();
            let e = edit(&mut w, first, n).expect_err(name);
            assert_eq!(e.kind, ErrorKind::InvalidArgument, "{name}: {e}");
            assert!(
                e.message.contains(names) && e.message.contains("(its particles 5..21)"),
                "{name} {first}+{n}: {e}"
            );
            assert!(
                w.snapshot() == before,
                "{name} {first}+{n} changed the world"
            );
            assert_eq!(w.grab_count(), 0);
        }
    }
}

#[test]
fn edits_around_a_fluid_still_work() {
    for (name, edit) in edits() {
        let mut w = world();
        for (first, n) in [(0u32, 5usize), (21, 1)] {
            let (first, n) = if name == "grab" {
                (first + n as u32 - 1, 1)
            } else {
                (first, n)
            };
            let before = w.snapshot();
            edit(&mut w, first, n).unwrap_or_else(|e| panic!("{name} {first}+{n}: {e}"));
            assert!(w.snapshot() != before, "{name} {first}+{n} changed nothing");
        }
        w.step(DT).unwrap();
    }
}

/// Why grabs are refused: removing a fluid particle moves the last live one into its
/// slot, so the index a grab would hold names another particle afterwards.
#[test]
fn removing_a_fluid_particle_moves_the_last_into_its_slot() {
    let mut w = World::new(WorldDesc {
        gravity: Vec3::ZERO,
        threads: 1,
        ..WorldDesc::default()
    })
    .unwrap();
    let f = w
        .add_fluid(&FluidDesc {
            capacity: 4,
            ..FluidDesc::default()
        })
        .unwrap();
    let far = [
        Vec3::new(0.0, 0.0, 0.0),
        Vec3::new(1.0, 0.0, 0.0),
        Vec3::new(2.0, 0.0, 0.0),
    ];
    w.emit_fluid(f, &far, None).unwrap();
    let e = w.grab_particle(0, Vec3::ZERO, 0.0).unwrap_err();
    assert!(e.message.contains("a grab would jump"), "{e}");
    w.add_kill_volume(f, &sinew::KillVolumeDesc::sphere(Vec3::ZERO, 0.5))
        .unwrap();
    w.step(DT).unwrap();
    let mut p = Vec3::NAN;
    w.read_positions(0, 1, |_, x| p = x).unwrap();
    assert_eq!(p, far[2], "slot 0 now holds the particle that was last");
}

type Constrain = fn(&mut World, &[u32]) -> sinew::Result<u32>;

/// Constraints by particle index: (name, the call on particles `p`, how many indices
/// it takes).
fn constraints() -> Vec<(&'static str, Constrain, usize)> {
    vec![
        (
            "distance",
            |w, p| w.add_distance_constraints(&[[p[0], p[1]]], None, 0.0),
            2,
        ),
        (
            "pbd distance",
            |w, p| w.add_pbd_distance_constraints(&[[p[0], p[1]]], None, 1.0),
            2,
        ),
        (
            "tether",
            |w, p| w.add_tethers(&[[p[0], p[1]]], None, 0.0),
            2,
        ),
        (
            "attachment",
            |w, p| {
                let host = w.add_attachment_host(sinew::Transform {
                    position: Vec3::ZERO,
                    rotation: sinew::Quat::IDENTITY,
                })?;
                w.add_attachments(host, p, None, 0.0)
            },
            3,
        ),
        (
            "shape cluster",
            |w, p| w.add_shape_cluster(p, 1.0, f32::INFINITY, 0.0),
            3,
        ),
    ]
}

/// A constraint naming a fluid particle (live or not yet emitted) is refused and
/// changes nothing; on the rope's particles and the free one it is accepted.
#[test]
fn constraints_on_fluid_particles_are_refused() {
    for (name, add, k) in constraints() {
        // Rope particles 0..5 and the free particle 21, then one fluid particle last.
        let solid: Vec<u32> = [1u32, 2, 3, 21].into_iter().take(k).collect();
        for fluid_particle in [5u32, 9, 18] {
            let mut p = solid.clone();
            p[k - 1] = fluid_particle;
            let mut w = world();
            let before = w.snapshot();
            let e = add(&mut w, &p).expect_err(name);
            assert_eq!(e.kind, ErrorKind::InvalidArgument, "{name}: {e}");
            assert!(
                e.message
                    .contains(&format!("particle {fluid_particle} belongs to a fluid"))
                    && e.message.contains("would hold another particle"),
                "{name} {p:?}: {e}"
            );
            if name != "attachment" {
                assert!(w.snapshot() == before, "{name} {p:?} changed the world");
            }
        }
        let mut w = world();
        add(&mut w, &solid).unwrap_or_else(|e| panic!("{name} {solid:?}: {e}"));
        w.step(DT).unwrap();
    }
}

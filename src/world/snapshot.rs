//! Snapshots of a world (the format: `crate::snapshot`): the size query, save into a
//! caller's buffer, restore into this world or a new one, and the state hash.
//!
//! What is saved: the settings (all but the thread count, which is this machine's
//! choice, not simulation state), the substep length of the last step (force
//! readback), every particle array, every constraint set of the registry with its λ,
//! the 2D plane and the damped ranges, the bodies with their id table, the colliders
//! with their id table, transforms and mesh, the contact readback, the grabs and the
//! speed limit, the break thresholds, events and winches, the wind with its zones and
//! aerodynamic surfaces, the skinned bodies, and the fixed-step accumulator (the
//! positions before the last step, which interpolated reads use, are a particle array). Scratch buffers (contacts, the collision grid, Jacobi corrections) and
//! the Gauss-Seidel schedules are rebuilt by the same code that built them, so the
//! restored world steps bit for bit like the saved one.

use super::World;
use crate::aero::Aero;
use crate::bodies::Bodies;
use crate::collision::Collision;
use crate::constraints::{ConstraintEdit, ConstraintSets, FLUID_SLOT, SET_COUNT};
use crate::error::{Error, Result};
use crate::fluid::FluidSet;
use crate::particles::Particles;
use crate::pipeline::integrate::{Integrator, Plane};
use crate::skinning::Skinning;
use crate::slots::WorldIds;
use crate::snapshot::codec::{self, Count, Fill, Reader, Writer};
use crate::snapshot::xxh64::Xxh64;
use crate::snapshot::{self as format, LoadContext, HEADER_BYTES};
use crate::solver::parallel::Executor;
use crate::solver::Solver;
use crate::topology::{self, Topology};
use crate::world::WorldDesc;

/// The simulation state of a world, parsed and checked, before it replaces anything.
struct Parsed {
    desc: WorldDesc,
    last_h: f32,
    particles: Particles,
    sets: ConstraintSets,
    integrator: Integrator,
    plane: Plane,
    fluids: FluidSet,
    topology: Topology,
    bodies: Bodies,
    collision: Collision,
    aero: Aero,
    skinning: Skinning,
    accumulator: f64,
}

impl Parsed {
    /// Gives every table the ids (world serial) `ids`: the saved serial when the
    /// state is read, the target world's on a restore. Body ids held by the
    /// aerodynamic surfaces and skinned bodies, and collider ids in the contact
    /// readback, take it too.
    fn give_ids(&mut self, ids: WorldIds) {
        self.bodies.set_ids(ids);
        self.fluids.set_ids(ids);
        self.collision.colliders.set_ids(ids);
        self.aero.reserial(ids);
        self.skinning.reserial(ids);
    }
}

/// What ties the loaded parts together, checked as the API keeps it: each
/// aerodynamic surface and skinned body covers exactly its body's particles (the
/// readbacks subtract the body's first particle from the indices they hand out), at
/// most one of each per body, a rope's surface has links and others triangles; each
/// torn cloth is the whole of a live cloth body, one per body, with its reserve outside
/// every body; each breakable rope and winch is a rope body's; the lost break events
/// are a counter ([`codec::MAX_COUNTER`]).
fn check_links(
    bodies: &Bodies,
    sets: &ConstraintSets,
    topology: &Topology,
    aero: &Aero,
    skinning: &Skinning,
) -> Result<()> {
    use crate::bodies::BodyKind;
    let body = |id, what: &str| {
        bodies
            .get(id)
            .map_err(|_| codec::corrupt(format!("{what} names no body")))
    };
    for (k, s) in aero.surfaces.iter().enumerate() {
        let what = format!("aerodynamic surface {k}");
        let b = body(s.body, &what)?;
        let rope = matches!(s.elements, crate::aero::Elements::Links(_));
        codec::ensure(
            b.particles == s.particles && rope == (b.kind == BodyKind::Rope),
            || format!("{what} does not match its {:?} body", b.kind),
        )?;
        codec::ensure(!aero.surfaces[..k].iter().any(|o| o.body == s.body), || {
            format!("{what} is a second surface of its body")
        })?;
    }
    for (k, s) in skinning.bodies.iter().enumerate() {
        let what = format!("skinned body {k}");
        codec::ensure(body(s.body, &what)?.particles == s.particles, || {
            format!("{what} does not cover its body's particles")
        })?;
        codec::ensure(
            !skinning.bodies[..k].iter().any(|o| o.body == s.body),
            || format!("{what} is skinned twice"),
        )?;
    }
    for (k, c) in sets.torn.cloths.iter().enumerate() {
        let what = format!("torn cloth {k}");
        let owner = bodies
            .containing(c.body.start)
            .filter(|(_, range)| *range == c.body)
            .and_then(|(id, _)| bodies.get(id).ok())
            .filter(|b| b.kind == BodyKind::Cloth);
        codec::ensure(owner.is_some(), || {
            format!("{what} is not the whole of a cloth body")
        })?;
        codec::ensure(
            !sets.torn.cloths[..k].iter().any(|o| o.body == c.body),
            || format!("{what} tears a cloth torn already"),
        )?;
        codec::ensure(
            c.reserve.is_empty()
                || (bodies.containing(c.reserve.start).is_none()
                    && bodies.containing(c.reserve.end - 1).is_none()),
            || format!("{what} has its reserve inside a body"),
        )?;
    }
    // Each breakable rope and winch names a rope body's particles and constraints,
    // as the API's `rope_cut` makes them (the cuts and winches index the rope's links
    // and tethers from its first particle). Removing a rope body drops its winch; a
    // breakable rope stays listed with every link removed, its particles in no body.
    for (rope, what) in topology.ropes() {
        let owner = bodies
            .containing(rope.particles.start)
            .and_then(|(id, _)| bodies.get(id).ok());
        let matches = owner.is_some_and(|b| {
            let p = &b.parts;
            b.kind == BodyKind::Rope
                && b.particles == rope.particles
                && p.stretch == rope.stretch
                && p.bend_link == rope.bend
                && p.tether == rope.tether
        });
        let removed = what == topology::BREAKABLE
            && owner.is_none()
            && bodies.containing(rope.particles.end - 1).is_none()
            && rope
                .stretch
                .clone()
                .all(|l| ConstraintEdit::is_removed(&sets.link, l as usize));
        codec::ensure(matches || removed, || {
            format!("{what} ({:?}) is not a rope body's", rope.particles)
        })?;
    }
    codec::check_counters(&[topology.breaking.lost], "the lost break events")
}

impl World {
    /// The body of a snapshot: every field of the world in order. The destructuring
    /// names every field, so adding one to `World` fails to compile until it is saved
    /// here (or deliberately skipped, like the executor).
    fn write_body(&self, w: &mut Writer<'_>) {
        let World {
            desc,
            particles,
            sets,
            integrator,
            plane,
            fluids,
            topology,
            bodies,
            collision,
            exec: _,
            last_h,
            aero,
            skinning,
            accumulator,
        } = self;
        let WorldDesc {
            gravity,
            substeps,
            iterations,
            solver,
            jacobi_relaxation,
            damping,
            threads: _,
        } = *desc;
        w.put(gravity);
        w.put((substeps, iterations));
        w.put(solver as u32);
        w.put((jacobi_relaxation, damping));
        w.put(*last_h);
        w.put(*accumulator);
        particles.save(w);
        // The registry's sets with the fluids at their old place among them, then
        // the 2D plane, the damped ranges and the topology (the order of format 5).
        sets.save(w, 0..FLUID_SLOT);
        fluids.save(w);
        sets.save(w, FLUID_SLOT..SET_COUNT);
        w.put_option(plane.z);
        w.put_len(integrator.damped.len());
        for (range, damping) in &integrator.damped {
            w.put((range.start, range.end));
            w.put(*damping);
        }
        topology.save(w);
        bodies.save(w);
        collision.save(w);
        aero.save(w);
        skinning.save(w);
    }

    fn read_body(body: &[u8], threads: u32) -> Result<Parsed> {
        let mut r = Reader::new(body);
        let gravity = r.get()?;
        let (substeps, iterations) = r.get()?;
        let solver = match r.get::<u32>()? {
            0 => Solver::GaussSeidel,
            1 => Solver::Jacobi,
            s => return Err(codec::corrupt(format!("solver {s}"))),
        };
        let (jacobi_relaxation, damping) = r.get()?;
        let desc = WorldDesc {
            gravity,
            substeps,
            iterations,
            solver,
            jacobi_relaxation,
            damping,
            threads,
        };
        desc.validate().map_err(|e| codec::corrupt(e.message))?;
        let last_h: f32 = r.get()?;
        codec::check_finite([last_h], "last substep")?;
        let accumulator: f64 = r.get()?;
        codec::ensure(accumulator.is_finite() && accumulator >= 0.0, || {
            format!("accumulated time {accumulator}")
        })?;
        let particles = Particles::load(&mut r)?;
        let cx = LoadContext {
            hot: &particles.hot,
            jacobi: solver == Solver::Jacobi,
        };
        let mut sets = ConstraintSets::default();
        let mut fluids = FluidSet::default();
        sets.load(&mut r, &cx, 0..FLUID_SLOT)?;
        fluids.load(&mut r, &cx)?;
        sets.load(&mut r, &cx, FLUID_SLOT..SET_COUNT)?;
        sets.check_loaded()?;
        let plane = Plane { z: r.get_option()? };
        let n = r.get_count(12, "damped ranges")?;
        let mut damped = crate::error::try_with_capacity(n, "damped ranges")?;
        for _ in 0..n {
            let (start, end) = r.get::<(u32, u32)>()?;
            codec::ensure(start <= end && end as usize <= cx.hot.len(), || {
                format!("damped range {start}..{end} of {} particles", cx.hot.len())
            })?;
            let damping = r.get::<f32>()?;
            crate::bodies::check_damping(damping)
                .map_err(|e| codec::corrupt(format!("damped range {start}..{end}: {e}")))?;
            damped.push((start..end, damping));
        }
        let mut integrator = Integrator::default();
        integrator.damped = damped;
        let topology = Topology::load(&mut r, &sets, cx.hot.len())?;
        let bodies = Bodies::load(&mut r, particles.len(), &sets)?;
        let collision = Collision::load(&mut r, particles.len())?;
        let live = |id: u64| {
            let id = bodies.id_with_serial(id);
            bodies.get(id).is_ok().then_some(id)
        };
        let aero = Aero::load(&mut r, particles.len(), &live)?;
        let skinning = Skinning::load(&mut r, particles.len(), &live)?;
        codec::ensure(r.remaining() == 0, || {
            format!("{} bytes follow the world", r.remaining())
        })?;
        check_links(&bodies, &sets, &topology, &aero, &skinning)?;
        let mut parsed = Parsed {
            desc,
            last_h,
            particles,
            sets,
            integrator,
            plane,
            fluids,
            topology,
            bodies,
            collision,
            aero,
            skinning,
            accumulator,
        };
        parsed.give_ids(parsed.bodies.ids());
        Ok(parsed)
    }

    /// Bytes [`World::save_snapshot`] writes now (header included).
    pub fn snapshot_size(&self) -> usize {
        let mut count = Count::default();
        self.write_body(&mut Writer::new(&mut count));
        HEADER_BYTES + count.0
    }

    /// Saves the whole simulation state into `out` (at least
    /// [`World::snapshot_size`] bytes); returns the bytes written. Nothing is
    /// allocated. Fails with OUT_OF_RANGE, writing nothing, when `out` is too small.
    pub fn save_snapshot(&self, out: &mut [u8]) -> Result<usize> {
        let size = self.snapshot_size();
        if out.len() < size {
            return Err(Error::out_of_range(format!(
                "the snapshot takes {size} bytes but the buffer holds {}",
                out.len()
            )));
        }
        let (header, rest) = out[..size].split_at_mut(HEADER_BYTES);
        let mut fill = Fill {
            buf: rest,
            pos: 0,
            hash: Xxh64::new(0),
        };
        self.write_body(&mut Writer::new(&mut fill));
        debug_assert_eq!(fill.pos, size - HEADER_BYTES);
        format::write_header(header, size - HEADER_BYTES, fill.hash.digest());
        Ok(size)
    }

    /// The snapshot in a new vector.
    pub fn snapshot(&self) -> Vec<u8> {
        let mut v = vec![0u8; self.snapshot_size()];
        let n = self.save_snapshot(&mut v).expect("sized by snapshot_size");
        v.truncate(n);
        v
    }

    /// Replaces this world's simulation state by a snapshot's; keeps this world's
    /// thread count and its world serial (the part of every id that tells worlds
    /// apart). Ids of every kind (bodies, colliders, fluids, emitters, kill volumes)
    /// name a slot and a generation, and keep that meaning: afterwards an id names
    /// what the snapshot holds in its slot with its generation, or is refused. The ids
    /// this world had when it saved the snapshot are valid again; restoring another
    /// world's snapshot makes this world's ids name that world's objects in the same
    /// slots. A truncated, corrupt, forged, foreign or newer buffer is refused with
    /// INVALID_ARGUMENT and a message, and the world is unchanged.
    pub fn restore_snapshot(&mut self, bytes: &[u8]) -> Result<()> {
        let body = format::check(bytes)?;
        let mut p = Self::read_body(body, self.desc.threads)?;
        p.give_ids(self.bodies.ids());
        self.desc = p.desc;
        self.last_h = p.last_h;
        self.particles = p.particles;
        self.sets = p.sets;
        self.integrator = p.integrator;
        self.plane = p.plane;
        self.fluids = p.fluids;
        self.topology = p.topology;
        self.bodies = p.bodies;
        self.collision = p.collision;
        self.aero = p.aero;
        self.skinning = p.skinning;
        self.accumulator = p.accumulator;
        Ok(())
    }

    /// A new world from a snapshot, with `threads` worker threads (0 = all cores; the
    /// results do not depend on it). It takes the saving world's serial: its ids of
    /// every kind are the saved ones.
    pub fn from_snapshot(bytes: &[u8], threads: u32) -> Result<World> {
        let body = format::check(bytes)?;
        WorldDesc {
            threads,
            ..WorldDesc::default()
        }
        .validate()?;
        let p = Self::read_body(body, threads)?;
        let exec = Executor::new(threads)?;
        Ok(World {
            desc: p.desc,
            particles: p.particles,
            sets: p.sets,
            integrator: p.integrator,
            plane: p.plane,
            fluids: p.fluids,
            topology: p.topology,
            bodies: p.bodies,
            collision: p.collision,
            exec,
            last_h: p.last_h,
            aero: p.aero,
            skinning: p.skinning,
            accumulator: p.accumulator,
        })
    }

    /// A 64-bit hash of the simulation state: the XXH64 of the snapshot body, streamed
    /// (nothing is allocated), without the world serial that body ids carry (it
    /// differs between processes). Equal states hash equal whatever the thread count or
    /// kernel; for lockstep desync checks.
    pub fn state_hash(&self) -> u64 {
        let mut h = Xxh64::new(0);
        self.write_body(&mut Writer::hashing(&mut h));
        h.digest()
    }
}

#[cfg(test)]
mod tests {
    use crate::kernels::distance::tests::FORCE_PORTABLE;
    use crate::scenes::{self, FRAME_DT};
    use crate::solver::Solver;
    use crate::world::WorldDesc;
    use std::sync::atomic::Ordering;

    /// Issue 28: a body whose cloth triangles point below its own particle range
    /// (a forged snapshot with a valid checksum, made here by editing a world before
    /// saving it) was accepted, and the topology readback then handed the host the
    /// index 4294967288. Such a surface, a torn cloth that is not a cloth body, and a
    /// lost-events counter past any reachable value are refused.
    #[test]
    fn surfaces_torn_cloths_and_counters_are_checked_against_their_bodies() {
        use crate::aero::Elements;
        use crate::{ClothDesc, ClothGridDesc, RopeDesc, World};
        let mut w = World::new(WorldDesc::default()).unwrap();
        w.add_rope(&RopeDesc::default()).unwrap();
        let cloth = w
            .add_cloth_grid(&ClothDesc::default(), &ClothGridDesc::default())
            .unwrap();
        let good = w.snapshot();
        World::from_snapshot(&good, 1).unwrap();
        let refused = |w: &World, needle: &str| {
            let e = World::from_snapshot(&w.snapshot(), 1).err().unwrap();
            assert!(e.message.contains(needle), "{needle:?}: {}", e.message);
        };
        let range = w.body(cloth).unwrap().particles.clone();
        let s = w
            .aero
            .surfaces
            .iter_mut()
            .find(|s| s.body == cloth)
            .unwrap();
        s.particles = range.start - 8..range.end - 8;
        if let Elements::Triangles(t) = &mut s.elements {
            t.iter_mut().flatten().for_each(|p| *p -= 8);
        }
        refused(&w, "does not match");
        w.restore_snapshot(&good).unwrap();
        let mut tris = vec![[0; 3]; w.cloth_topology_counts(cloth).unwrap().1 as usize];
        let mut verts = vec![0; range.len()];
        w.read_cloth_topology(cloth, &mut tris, &mut verts).unwrap();
        assert!(tris.iter().flatten().all(|&v| (v as usize) < range.len()));
        // The readback's own check: nothing written, an error.
        if let Some(Elements::Triangles(t)) = w
            .aero
            .surfaces
            .iter_mut()
            .find(|s| s.body == cloth)
            .map(|s| &mut s.elements)
        {
            t[0][1] = range.start - 8;
        }
        let mut out = vec![[7; 3]; tris.len()];
        assert!(w.read_cloth_topology(cloth, &mut out, &mut verts).is_err());
        assert!(out.iter().flatten().all(|&v| v == 7));
        w.restore_snapshot(&good).unwrap();
        w.topology.breaking.lost = u64::MAX;
        refused(&w, "lost break events");
        w.topology.breaking.lost = 3;
        World::from_snapshot(&w.snapshot(), 1).unwrap();
    }

    /// Issue 28 items 2 and 11: a forged snapshot whose contact readback, break events,
    /// inverse masses, positions, body dampings, break thresholds, breakable ropes or
    /// winches break what the API keeps is refused with a message naming what is wrong; the world's own save of
    /// the same state loads (a removed breakable rope included).
    #[test]
    fn forged_contacts_events_masses_ropes_and_winches_are_refused() {
        use crate::constraints::FamilyKind;
        use crate::topology::breaking::BreakEvent;
        use crate::topology::winch::RopeEnd;
        use crate::{ColliderDesc, RopeDesc, World};
        let mut w = World::new(WorldDesc::default()).unwrap();
        w.add_collider(&ColliderDesc::default()).unwrap();
        let lone = w
            .add_particles(&[crate::math::Vec3::new(0.0, 0.05, 0.0)], None)
            .unwrap();
        w.set_particle_radii(lone, &[0.1]).unwrap();
        let rope = w
            .add_rope(&RopeDesc {
                start: crate::math::Vec3::new(0.0, 3.0, 0.0),
                end: crate::math::Vec3::new(0.0, 2.0, 0.0),
                segments: 10,
                ..RopeDesc::default()
            })
            .unwrap();
        w.set_body_break_force(rope, 1e6).unwrap();
        w.add_winch(rope, RopeEnd::Start, 0.8).unwrap();
        for _ in 0..3 {
            w.step(FRAME_DT).unwrap();
        }
        assert!(!w.contacts().is_empty());
        w.topology.breaking.events.push(BreakEvent {
            family: FamilyKind::BodyLink,
            id: 0,
            force: 2e6,
            position: crate::math::Vec3::ZERO,
            particle: 1,
        });
        let good = w.snapshot();
        World::from_snapshot(&good, 1).unwrap();
        let refused = |w: &World, needle: &str| {
            let e = World::from_snapshot(&w.snapshot(), 1).err().unwrap();
            assert!(e.message.contains(needle), "{needle:?}: {}", e.message);
        };
        type Forge = fn(&mut World);
        let forged: [(&str, Forge); 24] = [
            ("impulse", |w| {
                w.collision.colliders.reports_mut()[0].impulse = f32::NAN
            }),
            ("impulse", |w| {
                w.collision.colliders.reports_mut()[0].impulse = -1.0
            }),
            ("impulse", |w| {
                w.collision.colliders.reports_mut()[0].impulse = f32::INFINITY
            }),
            ("normal", |w| {
                w.collision.colliders.reports_mut()[0].normal.y = f32::NAN
            }),
            ("normal", |w| {
                w.collision.colliders.reports_mut()[0].normal *= 2.0
            }),
            ("collider", |w| {
                w.collision.colliders.reports_mut()[0].collider.0 = 1 << 32 | 9
            }),
            ("collider", |w| {
                w.collision.colliders.reports_mut()[0].collider.0 = 1
            }),
            ("particle", |w| {
                w.collision.colliders.reports_mut()[0].particle = 1 << 20
            }),
            ("force", |w| {
                w.topology.breaking.events[0].force = f32::INFINITY
            }),
            ("constraint", |w| w.topology.breaking.events[0].id = 1 << 20),
            ("inverse mass", |w| w.particles.hot[0].w = 1e-40),
            ("past", |w| w.particles.step_start[0].x = 1e20),
            ("past", |w| w.particles.base[0].x = -2e9),
            ("damping", |w| {
                let id = w.bodies.containing(1).unwrap().0;
                w.bodies.get_mut(id).unwrap().damping = f32::NAN;
            }),
            ("damped range", |w| {
                w.integrator.damped.push((1..12, f32::NAN))
            }),
            ("break force", |w| {
                w.topology.breaking.thresholds[13][0] = 0.0
            }),
            ("listed twice", |w| {
                let r = w.topology.breaking.ropes[0].clone();
                w.topology.breaking.ropes.push(r);
                w.topology.breaking.parted.push(false);
            }),
            ("rope body", |w| {
                w.topology.breaking.ropes[0].tether.end -= 1
            }),
            ("cursor", |w| w.topology.winches[0].cursor = 10),
            ("winch", |w| w.topology.winches[0].paying = 1.0),
            ("winch", |w| w.topology.winches[0].inverse_mass = 1e-40),
            ("second winch", |w| {
                let c = w.topology.winches[0].clone();
                w.topology.winches.push(c);
            }),
            ("rope body", |w| w.topology.winches[0].rope.bend.start += 1),
            ("wind clock", |w| w.aero.time = -1.0),
        ];
        for (needle, forge) in forged {
            w.restore_snapshot(&good).unwrap();
            forge(&mut w);
            refused(&w, needle);
        }
        // The contact readback as a step writes it loads; so does a removed
        // breakable rope (its links removed, its particles in no body).
        w.restore_snapshot(&good).unwrap();
        w.remove_body(rope).unwrap();
        assert_eq!(w.topology.breaking.ropes.len(), 1);
        World::from_snapshot(&w.snapshot(), 1).unwrap();
    }

    /// The state hash after 30 frames of a cloth on 1, 2 and 16 threads, with the SIMD
    /// and with the portable distance kernel: one value.
    #[test]
    fn the_state_hash_is_the_same_on_every_thread_count_and_kernel() {
        for solver in [Solver::GaussSeidel, Solver::Jacobi] {
            let mut hashes = Vec::new();
            for portable in [false, true] {
                for threads in [1, 2, 16] {
                    FORCE_PORTABLE.store(portable, Ordering::Relaxed);
                    let desc = WorldDesc {
                        threads,
                        solver,
                        ..scenes::default_desc()
                    };
                    let mut s = scenes::cloth(48, desc).unwrap();
                    for _ in 0..30 {
                        s.world.step(FRAME_DT).unwrap();
                    }
                    hashes.push(s.world.state_hash());
                }
            }
            FORCE_PORTABLE.store(false, Ordering::Relaxed);
            assert!(
                hashes.iter().all(|&h| h == hashes[0]),
                "{solver:?}: {hashes:x?}"
            );
        }
    }
}

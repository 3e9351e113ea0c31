//! The safe Rust API of collisions on [`World`]: colliders, per-particle collision
//! properties, contact readback, picking and grabbing. Every call validates all of its
//! input before it changes anything.

use glam::Quat;

use super::fluids::{FLUID_FILTERS, FLUID_GRABS, FLUID_RADII, FLUID_UNYIELDING};
use super::World;
use crate::bodies::BodyId;
use crate::collision::colliders::events::{ContactEventKind, RawContactEvent};
use crate::collision::colliders::{
    ColliderDynamics, ColliderId, ColliderMotion, ContactReport, ContactWrench,
};
use crate::collision::interaction;
use crate::collision::neighbours::NeighbourStats;
use crate::collision::shape::ColliderDesc;
use crate::error::{Error, Result};
use crate::math::Vec3;
use crate::particles::{CollisionFilter, MAX_COORDINATE};

/// One contact event: a collider and a body (or a particle in no body) that began,
/// kept or ended touching in the last step ([`World::set_contact_events`]).
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct ContactEvent {
    pub kind: ContactEventKind,
    pub collider: ColliderId,
    /// The body the particles belong to (when the step raised the event); None for a
    /// particle in no body, which is a pair of its own.
    pub body: Option<BodyId>,
    /// The pair's first particle (lowest index) among those touching the collider in
    /// the step (for an end event: in the last step it touched).
    pub particle: u32,
    /// That particle's contact point (world, m) and the collider's outward normal there.
    pub point: Vec3,
    pub normal: Vec3,
    /// The normal impulse (N·s, >= 0) and friction impulse (N·s, world) the collider
    /// gave all the pair's particles over the step; 0 for an end event.
    pub impulse: f32,
    pub friction: Vec3,
}

impl From<RawContactEvent> for ContactEvent {
    fn from(e: RawContactEvent) -> Self {
        ContactEvent {
            kind: e.kind,
            collider: e.collider,
            body: (e.body != 0).then_some(BodyId(e.body)),
            particle: e.particle,
            point: e.point,
            normal: e.normal,
            impulse: e.impulse,
            friction: e.friction,
        }
    }
}

impl World {
    /// Adds a collider; returns its id (generation-checked, never 0).
    ///
    /// ```
    /// use sinew::{ColliderDesc, Shape, Vec3, World, WorldDesc};
    /// let mut world = World::new(WorldDesc::default())?;
    /// world.add_collider(&ColliderDesc {
    ///     shape: Shape::Plane, // the ground y = 0 (normal +y)
    ///     ..ColliderDesc::default()
    /// })?;
    /// world.add_particles(&[Vec3::new(0.0, 1.0, 0.0)], None)?;
    /// for _ in 0..120 {
    ///     world.step(1.0 / 60.0)?;
    /// }
    /// assert!(world.particles().position(0).y.abs() < 1e-3); // resting on the ground
    /// # Ok::<(), sinew::Error>(())
    /// ```
    pub fn add_collider(&mut self, desc: &ColliderDesc) -> Result<ColliderId> {
        let id = self.collision_parts().1.colliders.add(*desc)?;
        self.wake_near_collider(id);
        Ok(id)
    }

    /// Adds a static triangle-mesh collider: `vertices` (m) in the collider's local
    /// frame, `triangles` as vertex index triples; `desc` gives the transform and
    /// material (its shape is ignored). A BVH is built once here. Zero-area triangles
    /// are dropped; a bad index or vertex is refused.
    pub fn add_mesh_collider(
        &mut self,
        desc: &ColliderDesc,
        vertices: &[Vec3],
        triangles: &[[u32; 3]],
    ) -> Result<ColliderId> {
        let id = self
            .collision_parts()
            .1
            .colliders
            .add_mesh(*desc, vertices, triangles)?;
        self.wake_near_collider(id);
        Ok(id)
    }

    /// Adds a static heightfield collider (a terrain): `field`'s grid of heights, with
    /// holes, in the collider's local frame (sample (i, j) at `(i · cell_x, height,
    /// j · cell_z)`, so the grid's corner is at `desc.position` and `desc.rotation`
    /// turns it); `desc` gives the transform and material (its shape is ignored). The
    /// grid becomes the triangles of a mesh collider (two per solid cell, with a BVH
    /// built once here), swept like every collider with the same friction and
    /// restitution; [`World::collider`] reports its shape as [`crate::Shape::Mesh`].
    pub fn add_heightfield_collider(
        &mut self,
        desc: &ColliderDesc,
        field: &crate::collision::heightfield::Heightfield<'_>,
    ) -> Result<ColliderId> {
        desc.validate()?;
        let (vertices, triangles) = field.triangles()?;
        self.add_mesh_collider(desc, &vertices, &triangles)
    }

    /// Adds a signed distance field collider: `grid`'s distances (m, negative inside
    /// the solid) at nodes `origin + cell_size · (i, j, k)` in the collider's local
    /// frame (`desc.position` and `desc.rotation` place it; `desc` gives the material,
    /// its shape is ignored), sampled trilinearly with the gradient as normal, swept
    /// like every collider with the same friction and restitution (see
    /// `collision::colliders::sdf`). [`crate::SdfGrid::from_mesh`] builds one from a
    /// closed triangle mesh. The collider keeps the grid (4 bytes a node); a bad grid
    /// is refused and nothing changes. [`World::collider`] reports its shape as
    /// [`crate::Shape::Sdf`].
    pub fn add_sdf_collider(
        &mut self,
        desc: &ColliderDesc,
        grid: crate::SdfGrid,
    ) -> Result<ColliderId> {
        let id = self.collision_parts().1.colliders.add_sdf(*desc, grid)?;
        self.wake_near_collider(id);
        Ok(id)
    }

    /// Removes a collider; its id (and every copy of it) becomes invalid.
    pub fn remove_collider(&mut self, id: ColliderId) -> Result<()> {
        self.wake_near_collider(id);
        self.collision_parts().1.colliders.remove(id)
    }

    /// The description of a collider, with its current transform.
    pub fn collider(&self, id: ColliderId) -> Result<ColliderDesc> {
        self.collision().colliders.get(id).copied()
    }

    /// Number of colliders.
    pub fn collider_count(&self) -> u32 {
        self.collision().colliders.len() as u32
    }

    /// Moves a collider to `position` (m) / `rotation` (unit quaternion). Over the next
    /// step it sweeps there from where it was (kinematic: particles it hits are pushed
    /// and dragged along by friction), unless `teleport`.
    pub fn set_collider_transform(
        &mut self,
        id: ColliderId,
        position: Vec3,
        rotation: Quat,
        teleport: bool,
    ) -> Result<()> {
        let was = self.collision().colliders.get(id)?;
        let moves = was.position != position || was.rotation != rotation;
        if moves {
            self.wake_near_collider(id);
        }
        self.collision_parts()
            .1
            .colliders
            .set_transform(id, position, rotation, teleport)?;
        if moves {
            self.wake_near_collider(id);
        }
        Ok(())
    }

    /// Sets the friction coefficients (>= 0) and restitution ([0, 1]) of a collider.
    pub fn set_collider_material(
        &mut self,
        id: ColliderId,
        static_friction: f32,
        dynamic_friction: f32,
        restitution: f32,
    ) -> Result<()> {
        self.collision_parts().1.colliders.set_material(
            id,
            static_friction,
            dynamic_friction,
            restitution,
        )?;
        self.wake_near_collider(id);
        Ok(())
    }

    /// The particle–collider contacts of the last step, in particle order: at most
    /// [`crate::MAX_COLLIDER_CONTACTS`] per particle, impulses summed over the step
    /// (normal impulse >= 0, friction impulse, contact point: [`ContactReport`]). Only
    /// the colliders with `report_contacts` on are listed.
    pub fn contacts(&self) -> &[ContactReport] {
        self.collision().colliders.reports()
    }

    /// The force (N) and torque (N·m) the particles exerted on collider `id` over the
    /// last step, the means over the step of its reported contacts' impulses (zero for
    /// a collider with `report_contacts` off, and before the first step). The torque is
    /// about `about` (world, m), or about the collider's position at the end of the
    /// step when None. A collider under a resting load carries its weight: the force
    /// is `−m g` summed over what it holds.
    pub fn collider_contact_wrench(
        &self,
        id: ColliderId,
        about: Option<Vec3>,
    ) -> Result<ContactWrench> {
        if let Some(a) = about {
            crate::limits::check_coordinates("wrench point", a)?;
        }
        self.collision().colliders.wrench(id, about)
    }

    /// Makes collider `id` dynamic: the host body behind it (mass, inertia tensor in
    /// the collider's frame, centre of mass, velocities; [`ColliderDynamics`]). Call it
    /// every frame before the step with the body's current velocities (and its pose
    /// with [`World::set_collider_transform`]): within the step Sinew moves a proxy of
    /// the body with the impulses the particles exchange with it (contacts, friction,
    /// pins, fluid pressure), and after it [`World::collider_motion`] and
    /// [`World::collider_contact_wrench`] say what they did, for the host to apply to
    /// its body. A dynamic collider starts every step at its transform (a move is a
    /// teleport) and ends it at the proxy's pose. Gravity acts on the proxy only when
    /// `gravity` is set (a host engine integrates it itself).
    pub fn set_collider_dynamics(&mut self, id: ColliderId, d: &ColliderDynamics) -> Result<()> {
        self.collision_parts().1.colliders.set_dynamics(id, *d)
    }

    /// Makes collider `id` kinematic again (its transform set by the host alone).
    pub fn clear_collider_dynamics(&mut self, id: ColliderId) -> Result<()> {
        self.collision_parts().1.colliders.clear_dynamics(id)
    }

    /// The host body of a dynamic collider as last set (None for a kinematic one).
    pub fn collider_dynamics(&self, id: ColliderId) -> Result<Option<ColliderDynamics>> {
        self.collision().colliders.dynamics(id)
    }

    /// What the proxy of dynamic collider `id` did over the last step: its end
    /// velocities and the change the particles made (gravity and the gyroscopic turn
    /// left out); an InvalidArgument error for a kinematic collider.
    pub fn collider_motion(&self, id: ColliderId) -> Result<ColliderMotion> {
        self.collision().colliders.motion(id)
    }

    /// Pins `particles` to the points `offsets` (m, the collider's frame) of collider
    /// `id` with compliance `compliance` (m/N, 0 = rigid, at most
    /// [`MAX_COMPLIANCE`](crate::limits::MAX_COMPLIANCE)): each particle follows its
    /// point; a dynamic collider's proxy takes the reaction (its mass in the
    /// constraint). Returns the index of the first pin (pins are numbered in the order
    /// they are made; removing the collider or the particle's body removes its pins).
    pub fn pin_to_collider(
        &mut self,
        id: ColliderId,
        particles: &[u32],
        offsets: &[Vec3],
        compliance: f32,
    ) -> Result<u32> {
        let n = self.particles.len();
        self.collision_parts()
            .1
            .colliders
            .pin(id, particles, offsets, compliance, n)
    }

    /// Removes pins `first..first + count` (they stop acting).
    pub fn remove_pins(&mut self, first: u32, count: u32) -> Result<()> {
        self.collision_parts().1.colliders.unpin(first, count)
    }

    /// Number of pins made (removed ones included).
    pub fn pin_count(&self) -> u32 {
        self.collision().colliders.pin_count() as u32
    }

    /// The force (N, world) each pin of `first..first + out.len()` exerted on its
    /// particle in the last substep; its collider received the opposite. Finite: past
    /// `f32::MAX` N it reads as `f32::MAX` along the pin's direction.
    pub fn read_pin_forces(&self, first: u32, out: &mut [Vec3]) -> Result<()> {
        self.collision().colliders.pin_forces(first, out)
    }

    /// Turns the contact events on or off (off by default). While on, every step
    /// compares the (collider, body) pairs of its reported contacts with the last
    /// step's and queues a begin, persist or end event for each
    /// ([`crate::ContactEvent`]; a particle in no body is a pair of its own), to take
    /// with [`World::take_contact_events`]. Turning them on reserves the queue
    /// ([`crate::MAX_CONTACT_EVENTS`] events); off forgets the pairs and the waiting
    /// events. Events are not part of a snapshot.
    pub fn set_contact_events(&mut self, on: bool) -> Result<()> {
        self.collision_parts().1.colliders.events.set_enabled(on)
    }

    /// Whether contact events are on.
    pub fn contact_events(&self) -> bool {
        self.collision().colliders.events.enabled()
    }

    /// Number of contact events waiting (at most [`crate::MAX_CONTACT_EVENTS`]).
    pub fn contact_event_count(&self) -> usize {
        self.collision().colliders.events.len()
    }

    /// Moves the oldest contact events (up to `out.len()`) into `out`, oldest first,
    /// and returns how many it wrote and how many were lost to a full queue since the
    /// last call (the count is cleared). No allocation.
    pub fn take_contact_events(&mut self, out: &mut [ContactEvent]) -> (usize, u64) {
        let (events, lost) = self.take_contact_events_with(out.len());
        let mut n = 0;
        for (o, e) in out.iter_mut().zip(events) {
            *o = e;
            n += 1;
        }
        (n, lost)
    }

    /// The oldest `max` contact events (at most), drained from the queue, and the lost
    /// count (cleared).
    pub(crate) fn take_contact_events_with(
        &mut self,
        max: usize,
    ) -> (impl Iterator<Item = ContactEvent> + '_, u64) {
        let (events, lost) = self.collision_parts().1.colliders.events.take(max);
        (events.map(ContactEvent::from), lost)
    }

    /// Raises the last step's contact events (after every step; nothing while they
    /// are off).
    pub(crate) fn update_contact_events(&mut self) -> Result<()> {
        let colliders = &mut self.collision.colliders;
        let (reports, events) = colliders.reports_and_events();
        let bodies = self.bodies.ranges().map(|(id, range)| (id.0, range));
        events.update(reports, reports.capacity(), bodies)
    }

    /// Sets the collision radii (m, finite, >= 0; 0 = a point that collides with
    /// colliders only) of particles `first..`. A fluid's particles are refused
    /// (InvalidArgument): their radius is the fluid's `collision_radius`.
    pub fn set_particle_radii(&mut self, first: u32, radii: &[f32]) -> Result<()> {
        let range = self.particle_range(first, radii.len())?;
        self.check_not_fluid(range.clone(), FLUID_RADII)?;
        let (particles, _) = self.collision_parts();
        for (k, &r) in radii.iter().enumerate() {
            crate::limits::check_length(&format!("radius {k}"), r, false)?;
        }
        particles.radius[range.clone()].copy_from_slice(radii);
        self.wake_range(range);
        if radii.iter().any(|&r| r > 0.0) {
            self.reserve_fluid_room(false);
        }
        Ok(())
    }

    /// Sets the collision filters (group, layers, mask, self-collision) of particles
    /// `first..`. A fluid's particles are refused (InvalidArgument): they meet solids
    /// through the density constraint only, and the fluid's `coupling_mask` chooses which.
    pub fn set_collision_filters(&mut self, first: u32, filters: &[CollisionFilter]) -> Result<()> {
        let range = self.particle_range(first, filters.len())?;
        self.check_not_fluid(range.clone(), FLUID_FILTERS)?;
        let (particles, _) = self.collision_parts();
        particles.filter[range.clone()].copy_from_slice(filters);
        self.wake_range(range);
        self.reserve_fluid_room(false);
        Ok(())
    }

    /// Sets the unyielding factors (in [0, 1]; the UE 4.26 Niagara Advanced PBD sample (Epic Games, 2020)) of particles `first..`.
    /// A fluid's particles, which take no part in particle contacts, are refused
    /// (InvalidArgument).
    pub fn set_unyielding(&mut self, first: u32, factors: &[f32]) -> Result<()> {
        let range = self.particle_range(first, factors.len())?;
        self.check_not_fluid(range.clone(), FLUID_UNYIELDING)?;
        let (particles, _) = self.collision_parts();
        for (k, &u) in factors.iter().enumerate() {
            if !(u.is_finite() && (0.0..=1.0).contains(&u)) {
                return Err(Error::invalid(format!(
                    "unyielding factor {k} is {u}: must be in [0, 1]"
                )));
            }
        }
        particles.unyielding[range.clone()].copy_from_slice(factors);
        self.wake_range(range);
        Ok(())
    }

    /// The particle nearest along the ray `origin + t·direction` (t >= 0) among those
    /// within `radius` (+ their own radius) of it: `Some((index, t))` with t in m, or
    /// None when the ray misses every particle.
    pub fn pick_particle(
        &self,
        origin: Vec3,
        direction: Vec3,
        radius: f32,
    ) -> Result<Option<(u32, f32)>> {
        interaction::pick(self.particles(), origin, direction, radius)
    }

    /// Attaches `particle` to `target` (m) with `compliance` (m/N, 0 = rigid) until
    /// [`World::release_particle`]. Pinned particles and a fluid's are refused
    /// (InvalidArgument): a fluid moves its last live particle into the slot of one it
    /// removes, so the grab would jump to another particle.
    pub fn grab_particle(&mut self, particle: u32, target: Vec3, compliance: f32) -> Result<()> {
        let p = particle as usize;
        self.check_not_fluid(p..p + 1, FLUID_GRABS)?;
        let (particles, collision) = self.collision_parts();
        collision
            .grabs
            .grab(particles, particle, target, compliance)?;
        self.wake_particles([particle]);
        Ok(())
    }

    /// Moves the target (m) of the grab on `particle`.
    pub fn move_grab(&mut self, particle: u32, target: Vec3) -> Result<()> {
        self.collision_parts()
            .1
            .grabs
            .move_target(particle, target)?;
        self.wake_particles([particle]);
        Ok(())
    }

    /// Releases the grab on `particle`.
    pub fn release_particle(&mut self, particle: u32) -> Result<()> {
        self.collision_parts().1.grabs.release(particle)?;
        self.wake_particles([particle]);
        Ok(())
    }

    /// Limits the speed of every particle to `max_speed` (m/s; 0 = unlimited, the
    /// default) at each substep, so that fast particles cannot skip a thin layer of
    /// cloth or each other (particle contacts are found at every substep's
    /// positions: keep `max_speed · dt / substeps` below the radius).
    pub fn set_max_speed(&mut self, max_speed: f32) -> Result<()> {
        if !(max_speed.is_finite() && (0.0..=MAX_COORDINATE).contains(&max_speed)) {
            return Err(Error::invalid(format!(
                "max_speed {max_speed} must be finite and in [0, {MAX_COORDINATE}] m/s (0 = unlimited)"
            )));
        }
        self.collision_parts().1.max_speed = max_speed;
        Ok(())
    }

    /// The speed limit (m/s; 0 = unlimited).
    pub fn max_speed(&self) -> f32 {
        self.collision().max_speed
    }

    /// Counters of the particle neighbour search: particles with a radius, listed
    /// pairs, the longest list, fast particles and builds so far (the lists are
    /// complete, with no cap on the neighbour count).
    pub fn neighbour_stats(&self) -> NeighbourStats {
        self.collision().particles.stats()
    }

    /// Number of grabbed particles.
    pub fn grab_count(&self) -> u32 {
        self.collision().grabs.len() as u32
    }
}

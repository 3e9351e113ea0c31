//! Host-owned colliders (kinematic shapes with a transform updated every frame): ids,
//! descs and transforms in generation-checked slots (`crate::slots::SlotMap`; the
//! last removed slot is reused first), and their snapshot. The particle–collider
//! contact passes (detect, project, restitution, the readback) are in
//! `colliders/passes.rs`.

use glam::Quat;

use super::mesh::TriMesh;
use super::shape::{check_transform, ColliderDesc, Shape};
use crate::error::{try_reserve, try_with_capacity, Error, Result};
use crate::math::Vec3;
use crate::slots::{LastFreed, SlotMap, WorldIds, ID_WITHOUT_SERIAL, MAX_SLOTS};
use crate::snapshot::codec::{self, Reader, Writer};
use sdf::{SdfField, SdfGrid};

pub(crate) mod dynamics;
pub(crate) mod events;
mod passes;
pub mod sdf;
mod velocity;
use passes::{Contact, DynamicPart, StepContact};

pub use dynamics::{ColliderDynamics, ColliderMotion};

pub use crate::limits::MAX_COLLIDER_CONTACTS;

/// A collider's id: `(world serial << 44) | (generation << 24) | (slot + 1)` (20, 20
/// and 24 bits, the layout of every id a world issues: [`crate::slots::WorldIds`]); 0
/// is never issued.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct ColliderId(pub u64);

/// One entry of the per-step contact readback: what one collider did to one particle
/// over the step (its contacts of every substep merged).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct ContactReport {
    pub particle: u32,
    pub collider: ColliderId,
    /// Unit normal pointing out of the collider (world), from the step's last contact.
    pub normal: Vec3,
    /// Normal impulse the collider gave the particle over the whole step (N·s, >= 0
    /// always: a collider only pushes).
    pub impulse: f32,
    /// Friction impulse the collider gave the particle over the whole step (N·s, world;
    /// tangent to the contact: `m Σ Δx_f / h` over the substeps, with `Δx_f` the
    /// position-level friction correction). While the particle slides without bouncing
    /// its length is the dynamic coefficient times `impulse`; while it sticks, at most
    /// the static one times it. The particle pushes the collider with
    /// `−(impulse · normal + friction)`.
    pub friction: Vec3,
    /// The contact point (world, m) of the step's last substep with this contact: the
    /// particle's centre projected onto the contact plane (on the collider's surface).
    pub point: Vec3,
}

/// The force and torque the particles exerted on a collider over the last step,
/// from its reported contacts (`ColliderDesc::report_contacts`): the sum of
/// `−(impulse · normal + friction)` over its contacts, divided by the step's length.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct ContactWrench {
    /// Mean force over the step (N, world).
    pub force: Vec3,
    /// Mean torque over the step about the point asked for (N·m, world).
    pub torque: Vec3,
}

#[derive(Clone, Debug)]
pub(crate) struct Collider {
    pub desc: ColliderDesc,
    /// The triangles of a [`Shape::Mesh`] collider.
    mesh: Option<Box<TriMesh>>,
    /// The grid of a [`Shape::Sdf`] collider.
    sdf: Option<Box<SdfField>>,
    prev_position: Vec3,
    prev_rotation: Quat,
    // Transform of the current substep and the surface motion over the step.
    pos: Vec3,
    rot: Quat,
    inv_rot: Quat,
    /// The transform of the previous substep (where the collider started this one):
    /// a particle's path is swept in the collider's frame from there to `pos`/`rot`
    /// (`passes.rs`). `moved` is false when it equals the current one.
    prev_pos: Vec3,
    prev_inv_rot: Quat,
    moved: bool,
    /// How far (m) a point of the shape moved over this substep, at most: the
    /// translation plus the bound times the rotation angle; 0 unless `moved`.
    motion: f32,
    /// m/s
    lin_vel: Vec3,
    /// rad/s
    ang_vel: Vec3,
    /// The cull of the current substep: the world normal of a plane (`rot · +Y`, unit),
    /// and the radius (m) of a ball around the local origin that holds the shape
    /// (infinite for planes).
    normal: Vec3,
    bound: f32,
    /// The last step's reported contacts summed ([`Colliders::sum_reports`]): the
    /// impulse the particles gave this collider (N·s) and its moment about
    /// `contact_centre` (N·m·s), the collider's position when they were summed.
    contact_impulse: Vec3,
    contact_moment: Vec3,
    contact_centre: Vec3,
    /// The host body's proxy of a dynamic collider (`dynamics.rs`); None for a
    /// kinematic one.
    proxy: Option<Box<dynamics::Proxy>>,
}

impl Collider {
    fn new(desc: ColliderDesc, mesh: Option<Box<TriMesh>>, sdf: Option<Box<SdfField>>) -> Self {
        let bound = bound_radius(&desc.shape, mesh.as_deref(), sdf.as_deref());
        Collider {
            desc,
            mesh,
            sdf,
            prev_position: desc.position,
            prev_rotation: desc.rotation,
            pos: desc.position,
            rot: desc.rotation,
            inv_rot: desc.rotation.inverse(),
            prev_pos: desc.position,
            prev_inv_rot: desc.rotation.inverse(),
            moved: false,
            motion: 0.0,
            lin_vel: Vec3::ZERO,
            ang_vel: Vec3::ZERO,
            normal: Vec3::Y,
            bound,
            contact_impulse: Vec3::ZERO,
            contact_moment: Vec3::ZERO,
            contact_centre: desc.position,
            proxy: None,
        }
    }
}

/// Radius of a ball around the local origin holding the shape (m); infinite for a
/// plane (planes have their own test, `plane_cull`).
fn bound_radius(shape: &Shape, mesh: Option<&TriMesh>, sdf: Option<&SdfField>) -> f32 {
    if let Some(mesh) = mesh {
        return mesh.bound_radius();
    }
    if let Some(sdf) = sdf {
        return sdf.bound_radius();
    }
    match *shape {
        Shape::Sphere { radius } => radius,
        Shape::Capsule {
            radius,
            half_height,
        } => radius + half_height,
        Shape::Box { half_extents } => half_extents.length(),
        Shape::Plane | Shape::Mesh | Shape::Sdf => f32::INFINITY,
    }
}

/// The colliders of a world and the buffers of their contacts.
#[derive(Default)]
pub(crate) struct Colliders {
    /// The world's ids (its serial).
    ids: WorldIds,
    /// The colliders by slot (the free-list stack: the last removed slot is reused
    /// first).
    slots: SlotMap<Collider, LastFreed>,
    // Per particle: MAX_COLLIDER_CONTACTS slots each.
    contacts: Vec<Contact>,
    /// The dynamic colliders' part of each contact, parallel to `contacts` (read only
    /// where the contact's `dynamic` is set): the planes and static shapes of most
    /// worlds keep their records at 64 bytes.
    dynamic_parts: Vec<DynamicPart>,
    contact_count: Vec<u8>,
    /// Per particle: the index of its first contact in `contacts` (valid where its
    /// count is not 0).
    contact_start: Vec<u32>,
    step_contacts: Vec<StepContact>,
    step_count: Vec<u8>,
    reports: Vec<ContactReport>,
    /// The length of the last step (s; 0 before the first): the wrench's divisor.
    step_dt: f32,
    /// Begin / persist / end events of the reported contacts (`events.rs`).
    pub(crate) events: events::ContactEvents,
    /// Per particle, when `widened`: the detection radius ([`Self::set_reach`]).
    reach: Vec<f32>,
    widened: bool,
    /// Whether a collider moved in the current substep (set by `detect`).
    moving: bool,
    /// Per group of 32 slots (bit k: slot 32 g + k): the live planes, and the live
    /// colliders of every other shape.
    plane_bits: Vec<u32>,
    shape_bits: Vec<u32>,
    /// Per group: the planes' position and normal in the current substep.
    plane_params: Vec<[crate::kernels::plane_cull::Plane; 32]>,
    /// The plane test's implementation (AVX where the CPU has it).
    cull_kernel: crate::kernels::simd::Kernel,
    /// The world's gravity of this step (m/s²), for the proxies that take it.
    gravity: Vec3,
    /// Whether a collider is dynamic (set by `begin_step`).
    any_dynamic: bool,
    /// Particles pinned to points of colliders (`dynamics.rs`).
    pins: Vec<dynamics::Pin>,
}

impl Colliders {
    /// Number of live colliders.
    pub(crate) fn len(&self) -> usize {
        self.slots.len()
    }

    /// Gives the colliders the world's ids (a new world, a load, a restore), the
    /// contact readback's ids included.
    pub(crate) fn set_ids(&mut self, ids: WorldIds) {
        self.ids = ids;
        for c in &mut self.reports {
            c.collider = ColliderId(ids.complete(c.collider.0));
        }
        for p in &mut self.pins {
            p.collider = ColliderId(ids.complete(p.collider.0));
        }
    }

    fn slot_of(&self, id: ColliderId) -> Result<usize> {
        Ok(self.ids.key_in(&self.slots, id.0, "collider")?.slot as usize)
    }

    /// The id of the live collider in `slot`.
    fn id_of(&self, slot: usize) -> ColliderId {
        ColliderId(self.ids.id(self.slots.key_of(slot).expect("a live slot")))
    }

    pub(crate) fn add(&mut self, desc: ColliderDesc) -> Result<ColliderId> {
        if desc.shape == Shape::Mesh {
            return Err(Error::invalid(
                "a triangle mesh collider is added with its vertices and triangles (add_mesh_collider)",
            ));
        }
        if desc.shape == Shape::Sdf {
            return Err(Error::invalid(
                "a distance field collider is added with its grid (add_sdf_collider)",
            ));
        }
        self.insert(desc, None, None)
    }

    /// Adds a signed distance field collider (its grid in the collider's local frame).
    pub(crate) fn add_sdf(&mut self, desc: ColliderDesc, grid: SdfGrid) -> Result<ColliderId> {
        let desc = ColliderDesc {
            shape: Shape::Sdf,
            ..desc
        };
        desc.validate()?;
        let field = Box::new(SdfField::new(grid)?);
        self.insert(desc, None, Some(field))
    }

    /// Adds a static triangle mesh collider (vertices in its local frame, m).
    pub(crate) fn add_mesh(
        &mut self,
        desc: ColliderDesc,
        vertices: &[Vec3],
        triangles: &[[u32; 3]],
    ) -> Result<ColliderId> {
        let desc = ColliderDesc {
            shape: Shape::Mesh,
            ..desc
        };
        desc.validate()?;
        let mesh = Box::new(TriMesh::new(vertices, triangles)?);
        self.insert(desc, Some(mesh), None)
    }

    fn insert(
        &mut self,
        desc: ColliderDesc,
        mesh: Option<Box<TriMesh>>,
        sdf: Option<Box<SdfField>>,
    ) -> Result<ColliderId> {
        desc.validate()?;
        let mut desc = desc;
        desc.rotation = desc.rotation.normalize();
        let groups = (self.slots.slot_count() + 1).div_ceil(32);
        if self.plane_bits.len() < groups {
            try_reserve(&mut self.plane_bits, 1, "colliders")?;
            try_reserve(&mut self.shape_bits, 1, "colliders")?;
            try_reserve(&mut self.plane_params, 1, "colliders")?;
            self.plane_bits.resize(groups, 0);
            self.shape_bits.resize(groups, 0);
            self.plane_params
                .resize(groups, [(Vec3::ZERO, Vec3::Y); 32]);
        }
        let full = || Error::out_of_memory(format!("a world holds at most {MAX_SLOTS} colliders"));
        self.slots.reserve(MAX_SLOTS, full, "colliders")?;
        let key = self.slots.insert(Collider::new(desc, mesh, sdf));
        self.mark(key.slot as usize);
        Ok(ColliderId(self.ids.id(key)))
    }

    pub(crate) fn remove(&mut self, id: ColliderId) -> Result<()> {
        let slot = self.slot_of(id)?;
        self.slots.vacate(slot);
        self.mark(slot);
        for p in &mut self.pins {
            if p.collider == id {
                p.compliance = -1.0;
                p.force = Vec3::ZERO;
            }
        }
        Ok(())
    }

    /// Sets slot's bits in `plane_bits` / `shape_bits` from what it holds (the groups
    /// exist: `insert` and `load` grow them).
    fn mark(&mut self, slot: usize) {
        let (g, bit) = (slot / 32, 1u32 << (slot % 32));
        self.plane_bits[g] &= !bit;
        self.shape_bits[g] &= !bit;
        match &self.slots.items()[slot] {
            Some(c) if c.desc.shape == Shape::Plane => self.plane_bits[g] |= bit,
            Some(_) => self.shape_bits[g] |= bit,
            None => {}
        }
    }

    /// The collider's position (m) and the radius (m) of a ball about it that holds
    /// its shape (infinite for a plane): what sleeping islands it may touch.
    pub(crate) fn ball(&self, id: ColliderId) -> Result<(Vec3, f32)> {
        let slot = self.slot_of(id)?;
        let c = self.slots.items()[slot].as_ref().expect("checked");
        Ok((c.desc.position, c.bound))
    }

    pub(crate) fn get(&self, id: ColliderId) -> Result<&ColliderDesc> {
        let slot = self.slot_of(id)?;
        Ok(&self.slots.items()[slot].as_ref().expect("checked").desc)
    }

    /// Moves the collider: over the next step it travels from where it is now to
    /// `position`/`rotation` (kinematic), or jumps there when `teleport`.
    pub(crate) fn set_transform(
        &mut self,
        id: ColliderId,
        position: Vec3,
        rotation: Quat,
        teleport: bool,
    ) -> Result<()> {
        let slot = self.slot_of(id)?;
        let rotation = check_transform(position, rotation)?;
        let c = self.slots.items_mut()[slot].as_mut().expect("checked");
        c.desc.position = position;
        c.desc.rotation = rotation;
        if teleport {
            c.prev_position = position;
            c.prev_rotation = rotation;
        }
        Ok(())
    }

    /// Sets the material of a collider (validated like a new desc).
    pub(crate) fn set_material(
        &mut self,
        id: ColliderId,
        static_friction: f32,
        dynamic_friction: f32,
        restitution: f32,
    ) -> Result<()> {
        let slot = self.slot_of(id)?;
        let c = self.slots.items_mut()[slot].as_mut().expect("checked");
        let desc = ColliderDesc {
            static_friction,
            dynamic_friction,
            restitution,
            ..c.desc
        };
        desc.validate()?;
        c.desc = desc;
        Ok(())
    }

    /// The contacts of the last step.
    pub(crate) fn reports(&self) -> &[ContactReport] {
        &self.reports
    }

    /// The force and torque the particles exerted on collider `id` over the last step
    /// (its reported contacts; zero when none or before the first step), the torque
    /// about `about` (world, m) or, when None, about the collider's position at the end
    /// of that step.
    pub(crate) fn wrench(&self, id: ColliderId, about: Option<Vec3>) -> Result<ContactWrench> {
        let slot = self.slot_of(id)?;
        let c = self.slots.items()[slot].as_ref().expect("checked");
        if self.step_dt <= 0.0 {
            return Ok(ContactWrench::default());
        }
        let inv_dt = 1.0 / self.step_dt;
        if let Some(p) = &c.proxy {
            // A dynamic collider: the proxy's momentum change (every contact, pin and
            // fluid push, reported or not), its angular impulse about the centre of
            // mass moved to the point asked for.
            let a = about.unwrap_or(c.desc.position);
            let moment = saturating_sum(p.angular_impulse, saturating_cross(p.com - a, p.impulse));
            return Ok(ContactWrench {
                force: saturating_scale(p.impulse, inv_dt),
                torque: saturating_scale(moment, inv_dt),
            });
        }
        // Moment about `about`: Σ (p − a) × J = Σ (p − c) × J + (c − a) × Σ J.
        let moment = match about {
            Some(a) => saturating_sum(
                c.contact_moment,
                saturating_cross(c.contact_centre - a, c.contact_impulse),
            ),
            None => c.contact_moment,
        };
        Ok(ContactWrench {
            force: saturating_scale(c.contact_impulse, inv_dt),
            torque: saturating_scale(moment, inv_dt),
        })
    }

    /// Sums the readback's impulses per collider (particle order, so the same bits on
    /// any thread count): each collider's `contact_impulse` and its moment about the
    /// collider's current position. No allocation.
    fn sum_reports(&mut self) {
        for c in self.slots.iter_mut() {
            c.contact_impulse = Vec3::ZERO;
            c.contact_moment = Vec3::ZERO;
            c.contact_centre = c.desc.position;
        }
        let items = self.slots.items_mut();
        for r in &self.reports {
            let slot = crate::slots::key_bits(r.collider.0).slot as usize;
            let Some(c) = items[slot].as_mut() else {
                continue;
            };
            let j = -(r.normal * r.impulse + r.friction);
            c.contact_impulse = saturating_sum(c.contact_impulse, j);
            c.contact_moment = saturating_sum(
                c.contact_moment,
                saturating_cross(r.point - c.contact_centre, j),
            );
        }
    }

    /// The last step's contacts and the event state that reads them.
    pub(crate) fn reports_and_events(
        &mut self,
    ) -> (&Vec<ContactReport>, &mut events::ContactEvents) {
        (&self.reports, &mut self.events)
    }

    /// The contacts of the last step, to forge a snapshot in the loader's tests.
    #[cfg(test)]
    pub(crate) fn reports_mut(&mut self) -> &mut Vec<ContactReport> {
        &mut self.reports
    }
}

impl Collider {
    /// Snapshot: the desc (its record generated from the declaration), the mesh, the
    /// transforms of the last and the coming step and the surface velocities.
    fn save(&self, w: &mut Writer<'_>) {
        self.desc.save_settings(w);
        w.put(self.mesh.is_some());
        if let Some(m) = &self.mesh {
            m.save(w);
        }
        w.put(self.sdf.is_some());
        if let Some(f) = &self.sdf {
            f.save(w);
        }
        w.put((self.prev_position, self.prev_rotation));
        w.put((self.pos, self.rot, self.inv_rot, 0u8));
        w.put((self.lin_vel, self.ang_vel));
        w.put((self.contact_impulse, self.contact_moment));
        w.put(self.contact_centre);
        w.put(self.proxy.is_some());
        if let Some(p) = &self.proxy {
            p.save(w);
        }
    }

    /// Loads the collider of `slot` (named in the messages).
    fn load(r: &mut Reader<'_>, slot: usize) -> Result<Collider> {
        let desc = ColliderDesc::load_settings(r)?;
        let mesh = if r.get::<bool>()? {
            Some(Box::new(TriMesh::load(r)?))
        } else {
            None
        };
        codec::ensure(mesh.is_some() == (desc.shape == Shape::Mesh), || {
            "a mesh collider without its mesh".into()
        })?;
        let sdf = if r.get::<bool>()? {
            Some(Box::new(SdfField::load(r)?))
        } else {
            None
        };
        codec::ensure(sdf.is_some() == (desc.shape == Shape::Sdf), || {
            "a distance field collider without its grid".into()
        })?;
        let (prev_position, prev_rotation) = r.get::<(Vec3, Quat)>()?;
        let (pos, rot, inv_rot, _) = r.get::<(Vec3, Quat, Quat, u8)>()?;
        let (lin_vel, ang_vel) = r.get::<(Vec3, Vec3)>()?;
        let (contact_impulse, contact_moment) = r.get::<(Vec3, Vec3)>()?;
        let contact_centre = r.get::<Vec3>()?;
        let proxy = if r.get::<bool>()? {
            Some(Box::new(dynamics::Proxy::load(r)?))
        } else {
            None
        };
        codec::check_finite(
            [
                prev_position,
                pos,
                lin_vel,
                ang_vel,
                contact_impulse,
                contact_moment,
                contact_centre,
            ]
            .iter()
            .flat_map(|v| v.to_array())
            .chain(
                [prev_rotation, rot, inv_rot]
                    .iter()
                    .flat_map(|q| q.to_array()),
            ),
            &format!("collider slot {slot}: transform value"),
        )?;
        // Poses as the API and the step leave them (a dynamic collider flung past the
        // range is put back at the end of its step): a forged previous position of
        // -1.8e38 m made the next step's velocity infinite.
        let poses = [
            ("previous pose", prev_position, prev_rotation),
            ("pose", pos, rot),
            ("inverse pose", pos, inv_rot),
        ];
        for (what, p, q) in poses {
            codec::ensure(crate::limits::loadable_pose(p, q), || {
                format!(
                    "collider slot {slot} has the {what} ({p}, {q}): a position within twice \
                     the coordinate range and a unit rotation are needed"
                )
            })?;
        }
        // The cull is derived from the transform (recomputed every substep).
        let bound = bound_radius(&desc.shape, mesh.as_deref(), sdf.as_deref());
        Ok(Collider {
            desc,
            mesh,
            sdf,
            prev_position,
            prev_rotation,
            pos,
            rot,
            inv_rot,
            // Set with the current transform before every detection.
            prev_pos: pos,
            prev_inv_rot: inv_rot,
            moved: false,
            motion: 0.0,
            lin_vel,
            ang_vel,
            normal: rot * Vec3::Y,
            bound,
            contact_impulse,
            contact_moment,
            contact_centre,
            proxy,
        })
    }
}

impl Colliders {
    /// Snapshot: the slots with their generations and free list, each collider (its
    /// transforms of the last and the coming step), and the last step's contact
    /// readback (collider ids without the world serial). The contact buffers are
    /// scratch, regrown by the next step.
    pub(crate) fn save(&self, w: &mut Writer<'_>) {
        self.slots.save_split(w, |w, c| c.save(w));
        w.put_len(self.reports.len());
        for c in &self.reports {
            w.put((
                c.particle,
                c.collider.0 & ID_WITHOUT_SERIAL,
                c.normal,
                c.impulse,
            ));
            w.put((c.friction, c.point));
        }
        w.put(self.step_dt);
        self.save_pins(w);
    }

    /// Snapshot: the colliders [`Self::save`] wrote, and the contact readback checked
    /// as a step writes it ([`valid_report`]); the world's ids are given by
    /// [`Self::set_ids`] once the bodies, which save the serial, are loaded.
    pub(crate) fn load(r: &mut Reader<'_>, particles: usize) -> Result<Colliders> {
        let slots: SlotMap<Collider, LastFreed> =
            SlotMap::load_split(r, MAX_SLOTS, "collider", |r, slot, _| {
                Collider::load(r, slot)
            })?;
        let n = r.get_count(52, "contact reports")?;
        let mut reports: Vec<ContactReport> = try_with_capacity(n, "contact reports")?;
        for k in 0..n {
            let (particle, collider, normal, impulse) = r.get::<(u32, u64, Vec3, f32)>()?;
            let (friction, point) = r.get::<(Vec3, Vec3)>()?;
            let report = ContactReport {
                particle,
                collider: ColliderId(collider),
                normal,
                impulse,
                friction,
                point,
            };
            codec::ensure(
                valid_report(&report, reports.last(), particles, slots.slot_count()),
                || {
                    format!(
                        "contact report {k} (particle {particle} of {particles}, collider \
                         {collider:#x} of {} slots, normal {normal}, impulse {impulse} N·s) \
                         is not one a step writes (particle order, a unit normal, an \
                         impulse >= 0, a finite friction impulse and point)",
                        slots.slot_count()
                    )
                },
            )?;
            // Each collider once per particle (a step merges a particle's contacts
            // with one collider), so a particle's run of reports is bounded too.
            let run = reports.iter().rev().take_while(|c| c.particle == particle);
            for c in run {
                codec::ensure(c.collider != report.collider, || {
                    format!("contact report {k} repeats particle {particle}'s collider")
                })?;
            }
            reports.push(report);
        }
        let step_dt: f32 = r.get()?;
        // 0 before the first step, else a step's length as `World::step` accepts it
        // (a tiny one made the wrench's 1 / dt infinite, and 0 · inf NaN).
        codec::ensure(
            step_dt == 0.0 || (crate::limits::MIN_DT..=crate::limits::MAX_DT).contains(&step_dt),
            || format!("the last step's length {step_dt} s"),
        )?;
        let pins = Colliders::load_pins(r, particles)?;
        for (k, p) in pins.iter().enumerate() {
            // A live pin names a live collider (removing one removes its pins).
            let key = crate::slots::key_bits(p.collider.0);
            let live = slots
                .key_of(key.slot as usize)
                .is_some_and(|live| live.generation & 0xF_FFFF == key.generation);
            codec::ensure(p.compliance < 0.0 || live, || {
                format!("pin {k} names a collider the snapshot does not hold")
            })?;
        }
        let groups = slots.slot_count().div_ceil(32);
        let mut colliders = Colliders {
            slots,
            reports,
            step_dt,
            pins,
            plane_bits: try_with_capacity(groups, "colliders")?,
            shape_bits: try_with_capacity(groups, "colliders")?,
            plane_params: try_with_capacity(groups, "colliders")?,
            ..Default::default()
        };
        colliders.plane_bits.resize(groups, 0);
        colliders.shape_bits.resize(groups, 0);
        colliders
            .plane_params
            .resize(groups, [(Vec3::ZERO, Vec3::Y); 32]);
        for slot in 0..colliders.slots.slot_count() {
            colliders.mark(slot);
        }
        Ok(colliders)
    }
}

/// Largest deviation from 1 of the length of a loaded contact normal: a step writes
/// unit normals (rotated or normalised in `f32`, a few ulps off), a forged snapshot
/// anything.
pub(crate) const NORMAL_TOLERANCE: f32 = 1e-3;

/// Whether a contact report is one a step writes (the snapshot loader's check, and
/// the step's own before it reports): its particle below `particles` and not before the
/// previous report's (`prev`: the readback is in particle order), its collider a slot
/// of the `slots` the world has (with a generation, never 0 for a live collider), its
/// normal a unit vector within [`NORMAL_TOLERANCE`], its impulse finite and >= 0 (a
/// collider only pushes), its friction impulse and point finite. No allocation.
/// f64 → f32, past f32's range reading as its largest value (a wrench of impulses near
/// the readback's limits overflows f32 in a product or a sum; it reads as the largest
/// value, never as inf or NaN).
fn saturate(x: f64) -> f32 {
    x.clamp(-(f32::MAX as f64), f32::MAX as f64) as f32
}

/// a × b of finite vectors, computed in f64 and saturated: finite, where an f32 cross
/// product can give inf − inf = NaN.
fn saturating_cross(a: Vec3, b: Vec3) -> Vec3 {
    let (ax, ay, az) = (a.x as f64, a.y as f64, a.z as f64);
    let (bx, by, bz) = (b.x as f64, b.y as f64, b.z as f64);
    Vec3::new(
        saturate(ay * bz - az * by),
        saturate(az * bx - ax * bz),
        saturate(ax * by - ay * bx),
    )
}

/// a + b of finite vectors, saturated.
fn saturating_sum(a: Vec3, b: Vec3) -> Vec3 {
    Vec3::new(
        saturate(a.x as f64 + b.x as f64),
        saturate(a.y as f64 + b.y as f64),
        saturate(a.z as f64 + b.z as f64),
    )
}

/// a · k of a finite vector by a finite factor, saturated.
fn saturating_scale(a: Vec3, k: f32) -> Vec3 {
    let k = k as f64;
    Vec3::new(
        saturate(a.x as f64 * k),
        saturate(a.y as f64 * k),
        saturate(a.z as f64 * k),
    )
}

pub(crate) fn valid_report(
    c: &ContactReport,
    prev: Option<&ContactReport>,
    particles: usize,
    slots: usize,
) -> bool {
    let key = crate::slots::key_bits(c.collider.0);
    (c.particle as usize) < particles
        && prev.is_none_or(|p| p.particle <= c.particle)
        && (key.slot as usize) < slots
        && key.generation != 0
        && c.normal.is_finite()
        && (c.normal.length() - 1.0).abs() <= NORMAL_TOLERANCE
        && c.impulse.is_finite()
        && c.impulse >= 0.0
        && c.friction.is_finite()
        && c.point.is_finite()
}

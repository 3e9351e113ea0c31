//! Bodies: the particles and constraints one builder made (rope, cloth, tet soft body,
//! pressure soft body), addressed by a generation-checked [`BodyId`].
//!
//! **Removal scheme.** Particle indices never shift: removing a body makes its
//! particles inert (inverse mass 0, velocity 0; they stay where they are and keep their
//! indices, which are never reused), and its constraints, tethers, bending, volume and
//! pressure constraints and any attachment on its particles stop acting (they keep
//! their ids and report zero force). Other bodies, and constraints the host added
//! itself, are untouched, so their motion is bit-identical to a world where the body
//! was never added (as long as nothing of theirs was connected to it). The body's
//! handle becomes invalid; removing it again is an error.

pub mod cloth;
pub mod families;
pub mod rope;
pub mod soft;

use std::ops::Range;
use std::sync::atomic::{AtomicU64, Ordering};

use crate::constraints::bending::IsometricRest;
use crate::constraints::nary::{check_compliance, Family, NarySet, NewConstraint};
use crate::constraints::volume::NewSurface;
use crate::error::{try_reserve, Error, Result};
use crate::math::{Vec3, Vec4};
use crate::solver::Solver;
use crate::world::{check_inverse_mass, check_vec3, World};

/// Largest compliance accepted by body parameters (any family's units).
pub const MAX_BODY_COMPLIANCE: f32 = crate::limits::MAX_COMPLIANCE;
/// Largest number of particles one builder makes.
pub const MAX_BODY_PARTICLES: usize = 1 << 24;

/// A body's id: `(world serial << 44) | (generation << 24) | (slot + 1)` (20, 20 and
/// 24 bits); 0 is never issued. The world serial makes a body id of one world invalid
/// in another (until 2^20 worlds have been created in between).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct BodyId(pub u64);

const SLOT_BITS: u32 = 24;
const GENERATION_BITS: u32 = 20;
const GENERATION_MASK: u32 = (1 << GENERATION_BITS) - 1;
/// Largest number of body slots in one world.
pub const MAX_BODIES: usize = (1 << SLOT_BITS) - 2;

/// What made a body.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum BodyKind {
    Rope,
    Cloth,
    TetSoftBody,
    PressureSoftBody,
}

/// Which of a body's constraint groups a parameter setter addresses.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum BodyConstraints {
    /// Edges (rope links, cloth and soft-body edges), m/N; the stretch components
    /// (warp and weft, x/y/z) of strain-based cloth and tet bodies, 1/(N·m).
    Stretch,
    /// Cloth grid diagonals, m/N; the shear components of strain-based cloth and tet
    /// bodies, 1/(N·m).
    Shear,
    /// Bending: rope i–i+2 links and cloth distance bending (m/N), dihedral
    /// (rad/(N·m)) or isometric (1/(N·m)).
    Bend,
    /// Tethers, m/N.
    Tether,
    /// Tet volumes (1/(N·m)) or the pressure surface (m⁵/N).
    Volume,
}

/// Ids of a body's constraints in each set.
#[derive(Clone, Debug, Default)]
pub struct BodyParts {
    pub stretch: Range<u32>,
    pub shear: Range<u32>,
    pub bend_link: Range<u32>,
    pub tether: Range<u32>,
    pub dihedral: Range<u32>,
    pub isometric: Range<u32>,
    pub tet_volume: Range<u32>,
    /// Strain model: 6 per tet (3 stretch, then 3 shear).
    pub tet_strain: Range<u32>,
    /// Strain cloth: 3 per triangle (warp, weft, shear).
    pub triangle_strain: Range<u32>,
    pub pressure: Option<u32>,
}

/// One body.
#[derive(Clone, Debug)]
pub struct Body {
    pub kind: BodyKind,
    /// Its particles (indices in the world).
    pub particles: Range<u32>,
    pub parts: BodyParts,
    /// Extra velocity damping, 1/s.
    pub damping: f32,
    /// Rope radius (m); 0 for other bodies.
    pub radius: f32,
}

struct Slot {
    generation: u32,
    body: Option<Body>,
}

/// The bodies of one world.
pub struct Bodies {
    serial: u64,
    slots: Vec<Slot>,
    free: Vec<u32>,
}

impl Default for Bodies {
    fn default() -> Self {
        static NEXT_SERIAL: AtomicU64 = AtomicU64::new(1);
        Bodies {
            serial: NEXT_SERIAL.fetch_add(1, Ordering::Relaxed) & 0xFFFFF,
            slots: Vec::new(),
            free: Vec::new(),
        }
    }
}

impl Bodies {
    fn encode(&self, slot: usize, generation: u32) -> BodyId {
        BodyId(
            (self.serial << (SLOT_BITS + GENERATION_BITS))
                | ((generation as u64) << SLOT_BITS)
                | (slot as u64 + 1),
        )
    }

    /// The slot index of `id` when it names a live body of this world.
    fn slot_of(&self, id: BodyId) -> Result<usize> {
        let low = (id.0 & ((1 << SLOT_BITS) - 1)) as usize;
        let slot = low.wrapping_sub(1);
        match self.slots.get(slot) {
            Some(s) if s.body.is_some() && self.encode(slot, s.generation) == id => Ok(slot),
            _ => Err(Error::new(
                crate::error::ErrorKind::InvalidHandle,
                if id.0 == 0 {
                    "the body handle is null (0)".to_string()
                } else {
                    format!(
                        "the body handle {:#x} is removed or was never created in this world",
                        id.0
                    )
                },
            )),
        }
    }

    /// The body behind `id`, or an INVALID_HANDLE error.
    pub fn get(&self, id: BodyId) -> Result<&Body> {
        let slot = self.slot_of(id)?;
        Ok(self.slots[slot].body.as_ref().expect("checked"))
    }

    fn get_mut(&mut self, id: BodyId) -> Result<&mut Body> {
        let slot = self.slot_of(id)?;
        Ok(self.slots[slot].body.as_mut().expect("checked"))
    }

    /// Number of live bodies.
    pub fn len(&self) -> usize {
        self.slots.len() - self.free.len()
    }

    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    fn reserve(&mut self) -> Result<()> {
        if self.free.is_empty() {
            if self.slots.len() >= MAX_BODIES {
                return Err(Error::out_of_range(format!(
                    "a world holds at most {MAX_BODIES} bodies"
                )));
            }
            try_reserve(&mut self.slots, 1, "bodies")?;
            try_reserve(&mut self.free, self.slots.len() + 1, "free body slots")?;
        }
        Ok(())
    }

    /// Stores `body` (room reserved by [`Self::reserve`]).
    fn insert(&mut self, body: Body) -> BodyId {
        let index = match self.free.pop() {
            Some(i) => i as usize,
            None => {
                self.slots.push(Slot {
                    generation: 1,
                    body: None,
                });
                self.slots.len() - 1
            }
        };
        self.slots[index].body = Some(body);
        self.encode(index, self.slots[index].generation)
    }

    /// The live body whose particles include `particle`, with its id (a linear scan,
    /// for the rare recovery path of the step).
    pub(crate) fn containing(&self, particle: u32) -> Option<(BodyId, Range<u32>)> {
        self.slots.iter().enumerate().find_map(|(i, s)| {
            let b = s.body.as_ref()?;
            b.particles
                .contains(&particle)
                .then(|| (self.encode(i, s.generation), b.particles.clone()))
        })
    }

    fn remove(&mut self, id: BodyId) -> Result<Body> {
        let index = self.slot_of(id)?;
        let slot = &mut self.slots[index];
        let body = slot.body.take().expect("checked");
        // Generation 0 is skipped so that no id of a live body has generation 0.
        slot.generation = match (slot.generation + 1) & GENERATION_MASK {
            0 => 1,
            g => g,
        };
        self.free.push(index as u32);
        Ok(body)
    }
}

/// What a builder produces, with particle indices already global (the body's first
/// particle is `first`), before anything is committed.
#[derive(Default)]
pub(crate) struct BodyBuild {
    pub first: u32,
    pub positions: Vec<Vec3>,
    pub inverse_masses: Vec<f32>,
    pub stretch: Vec<NewConstraint<f32, 2>>,
    pub shear: Vec<NewConstraint<f32, 2>>,
    pub bend_link: Vec<NewConstraint<f32, 2>>,
    pub tether: Vec<NewConstraint<f32, 2>>,
    pub dihedral: Vec<NewConstraint<f32, 4>>,
    pub isometric: Vec<NewConstraint<IsometricRest, 4>>,
    pub tet_volume: Vec<NewConstraint<f32, 4>>,
    pub tet_strain: Vec<NewConstraint<crate::constraints::strain::StrainRest<3>, 4>>,
    pub triangle_strain: Vec<NewConstraint<crate::constraints::strain::StrainRest<2>, 3>>,
    /// Surface, overpressure factor, compliance (m⁵/N).
    pub pressure: Option<(NewSurface, f32, f32)>,
    pub damping: f32,
    pub radius: f32,
}

/// Appends `new` to `set` when non-empty: the new set and the id range of the new
/// constraints.
fn appended<F: Family<K>, const K: usize>(
    set: &NarySet<F, K>,
    new: &[NewConstraint<F::Rest, K>],
    hot: &[Vec4],
    jacobi: bool,
) -> Result<(Option<NarySet<F, K>>, Range<u32>)> {
    let first = set.len() as u32;
    if new.is_empty() {
        return Ok((None, first..first));
    }
    let s = set.with_appended(new, hot, jacobi)?;
    Ok((Some(s), first..first + new.len() as u32))
}

/// Checks a damping value (1/s).
pub(crate) fn check_damping(damping: f32) -> Result<()> {
    if !(damping.is_finite() && (0.0..=crate::world::MAX_ACCELERATION).contains(&damping)) {
        return Err(Error::invalid(format!(
            "damping {damping} must be finite and in [0, {}] (1/s)",
            crate::world::MAX_ACCELERATION
        )));
    }
    Ok(())
}

/// Checks a body compliance parameter.
pub(crate) fn check_body_compliance(what: &str, c: f32) -> Result<()> {
    check_compliance(what, c, MAX_BODY_COMPLIANCE, "units of the constraint")
}

/// Checks a total mass (kg).
pub(crate) fn check_total_mass(m: f32) -> Result<()> {
    if !(m.is_finite() && m > 0.0 && m <= 1.0e12) {
        return Err(Error::invalid(format!(
            "total_mass {m} must be finite and in (0, 1e12] kg"
        )));
    }
    Ok(())
}

impl World {
    /// The first index a new body's particles will get; fails when `count` more
    /// particles do not fit.
    pub(crate) fn next_body_first(&self, count: usize) -> Result<u32> {
        if count > MAX_BODY_PARTICLES {
            return Err(Error::out_of_range(format!(
                "a body of {count} particles exceeds the limit of {MAX_BODY_PARTICLES}"
            )));
        }
        self.check_particle_room(count)?;
        Ok(self.particles.len() as u32)
    }

    /// Adds everything a builder made, all or nothing.
    pub(crate) fn commit_body(&mut self, kind: BodyKind, b: BodyBuild) -> Result<BodyId> {
        let count = b.positions.len();
        debug_assert_eq!(b.first as usize, self.particles.len());
        debug_assert_eq!(count, b.inverse_masses.len());
        for (i, &p) in b.positions.iter().enumerate() {
            check_vec3("vertex", i, p)?;
        }
        for (i, &w) in b.inverse_masses.iter().enumerate() {
            check_inverse_mass(i, w)?;
        }
        let jacobi = self.desc.solver == Solver::Jacobi;
        let mut hot =
            crate::error::try_with_capacity::<Vec4>(self.particles.len() + count, "particle data")?;
        hot.extend_from_slice(&self.particles.hot);
        hot.extend(b.inverse_masses.iter().map(|&w| Vec3::ZERO.extend(w)));
        let sets = &self.sets;
        // Stretch, shear and bend links share the link set: append in one go.
        let mut links = Vec::new();
        try_reserve(
            &mut links,
            b.stretch.len() + b.shear.len() + b.bend_link.len(),
            "links",
        )?;
        links.extend_from_slice(&b.stretch);
        links.extend_from_slice(&b.shear);
        links.extend_from_slice(&b.bend_link);
        let (link, link_ids) = appended(&sets.link, &links, &hot, jacobi)?;
        let (tether, tether_ids) = appended(&sets.tether, &b.tether, &hot, jacobi)?;
        let (dihedral, dihedral_ids) = appended(&sets.dihedral, &b.dihedral, &hot, jacobi)?;
        let (isometric, isometric_ids) = appended(&sets.isometric, &b.isometric, &hot, jacobi)?;
        let (tet, tet_ids) = appended(&sets.tet_volume, &b.tet_volume, &hot, jacobi)?;
        let (strain, strain_ids) = appended(&sets.tet_strain, &b.tet_strain, &hot, jacobi)?;
        let (tri, tri_ids) = appended(&sets.triangle_strain, &b.triangle_strain, &hot, jacobi)?;
        drop(hot);
        self.bodies.reserve()?;
        self.particles.reserve(count)?;
        try_reserve(&mut self.sets.damped, 1, "body damping")?;
        // Last fallible step: the pressure surface.
        let pressure = match b.pressure {
            Some((surface, k, alpha)) => Some(self.sets.pressure.push(surface, k, alpha)?),
            None => None,
        };
        // Nothing below can fail.
        for (&p, &w) in b.positions.iter().zip(&b.inverse_masses) {
            self.particles.push(p, w);
        }
        let s = link_ids.start;
        let (n1, n2) = (b.stretch.len() as u32, b.shear.len() as u32);
        let parts = BodyParts {
            stretch: s..s + n1,
            shear: s + n1..s + n1 + n2,
            bend_link: s + n1 + n2..link_ids.end,
            tether: tether_ids,
            dihedral: dihedral_ids,
            isometric: isometric_ids,
            tet_volume: tet_ids,
            tet_strain: strain_ids,
            triangle_strain: tri_ids,
            pressure,
        };
        if let Some(x) = link {
            self.sets.link = x;
        }
        if let Some(x) = tether {
            self.sets.tether = x;
        }
        if let Some(x) = dihedral {
            self.sets.dihedral = x;
        }
        if let Some(x) = isometric {
            self.sets.isometric = x;
        }
        if let Some(x) = tet {
            self.sets.tet_volume = x;
        }
        if let Some(x) = strain {
            self.sets.tet_strain = x;
        }
        if let Some(x) = tri {
            self.sets.triangle_strain = x;
        }
        let particles = b.first..b.first + count as u32;
        if b.damping > 0.0 {
            self.sets.damped.push((particles.clone(), b.damping));
        }
        Ok(self.bodies.insert(Body {
            kind,
            particles,
            parts,
            damping: b.damping,
            radius: b.radius,
        }))
    }

    /// Read access to the constraint families (other than distance).
    pub fn constraint_sets(&self) -> &crate::constraints::ConstraintSets {
        &self.sets
    }

    /// The body behind `id`.
    pub fn body(&self, id: BodyId) -> Result<&Body> {
        self.bodies.get(id)
    }

    /// Number of live bodies.
    pub fn body_count(&self) -> u32 {
        self.bodies.len() as u32
    }

    /// The body's particles: (first index, count).
    pub fn body_particle_range(&self, id: BodyId) -> Result<(u32, u32)> {
        let b = self.bodies.get(id)?;
        Ok((b.particles.start, b.particles.end - b.particles.start))
    }

    /// Removes a body (see the module doc for what happens to its particles).
    pub fn remove_body(&mut self, id: BodyId) -> Result<()> {
        let body = self.bodies.remove(id)?;
        let p = &body.parts;
        for range in [&p.stretch, &p.shear, &p.bend_link] {
            self.sets.link.remove(range.clone());
        }
        self.sets.tether.remove(p.tether.clone());
        self.sets.dihedral.remove(p.dihedral.clone());
        self.sets.isometric.remove(p.isometric.clone());
        self.sets.tet_volume.remove(p.tet_volume.clone());
        self.sets.tet_strain.remove(p.tet_strain.clone());
        self.sets.triangle_strain.remove(p.triangle_strain.clone());
        if let Some(s) = p.pressure {
            self.sets.pressure.remove(s as usize);
        }
        self.sets
            .attachments
            .remove_on_particles(body.particles.clone());
        self.sets.damped.retain(|(r, _)| *r != body.particles);
        for i in body.particles.clone() {
            self.particles.set_inverse_mass(i as usize, 0.0);
            self.particles.set_velocity(i as usize, Vec3::ZERO);
        }
        self.sets.update_jacobi_weights(&self.particles);
        Ok(())
    }

    /// Sets the compliance of one of the body's constraint groups (units as
    /// [`BodyConstraints`]); takes effect on the next step.
    pub fn set_body_compliance(
        &mut self,
        id: BodyId,
        which: BodyConstraints,
        compliance: f32,
    ) -> Result<()> {
        check_body_compliance("body", compliance)?;
        let parts = self.bodies.get(id)?.parts.clone();
        let s = &mut self.sets;
        match which {
            BodyConstraints::Stretch => {
                s.link.set_compliance(parts.stretch, compliance);
                let first = parts.tet_strain.start;
                s.tet_strain
                    .set_compliance_where(parts.tet_strain, compliance, |id| (id - first) % 6 < 3);
                let first = parts.triangle_strain.start;
                s.triangle_strain
                    .set_compliance_where(parts.triangle_strain, compliance, |id| {
                        (id - first) % 3 < 2
                    });
            }
            BodyConstraints::Shear => {
                s.link.set_compliance(parts.shear, compliance);
                let first = parts.tet_strain.start;
                s.tet_strain
                    .set_compliance_where(parts.tet_strain, compliance, |id| (id - first) % 6 >= 3);
                let first = parts.triangle_strain.start;
                s.triangle_strain
                    .set_compliance_where(parts.triangle_strain, compliance, |id| {
                        (id - first) % 3 == 2
                    });
            }
            BodyConstraints::Bend => {
                s.link.set_compliance(parts.bend_link, compliance);
                s.dihedral.set_compliance(parts.dihedral, compliance);
                s.isometric.set_compliance(parts.isometric, compliance);
            }
            BodyConstraints::Tether => s.tether.set_compliance(parts.tether, compliance),
            BodyConstraints::Volume => {
                s.tet_volume.set_compliance(parts.tet_volume, compliance);
                if let Some(p) = parts.pressure {
                    s.pressure.set_compliance(p as usize, compliance);
                }
            }
        }
        Ok(())
    }

    /// Sets the body's extra velocity damping (1/s); takes effect on the next step.
    pub fn set_body_damping(&mut self, id: BodyId, damping: f32) -> Result<()> {
        check_damping(damping)?;
        let body = self.bodies.get_mut(id)?;
        body.damping = damping;
        let range = body.particles.clone();
        self.sets.damped.retain(|(r, _)| *r != range);
        if damping > 0.0 {
            try_reserve(&mut self.sets.damped, 1, "body damping")?;
            self.sets.damped.push((range, damping));
        }
        Ok(())
    }

    /// Sets the overpressure factor k (target volume k·V0) of a pressure soft body.
    pub fn set_body_pressure(&mut self, id: BodyId, pressure: f32) -> Result<()> {
        soft::check_pressure(pressure)?;
        let body = self.bodies.get(id)?;
        let Some(p) = body.parts.pressure else {
            return Err(Error::invalid(
                "the body has no pressure surface (only pressure soft bodies have one)",
            ));
        };
        self.sets.pressure.set_pressure(p as usize, pressure);
        Ok(())
    }
}

/// Unique undirected edges (sorted pairs, in first-use order) of K-particle elements.
pub(crate) fn unique_edges<const K: usize>(elements: &[[u32; K]]) -> Vec<[u32; 2]> {
    let mut seen = std::collections::HashSet::new();
    let mut out = Vec::new();
    for e in elements {
        for a in 0..K {
            for b in a + 1..K {
                let (p, q) = (e[a].min(e[b]), e[a].max(e[b]));
                if seen.insert((p, q)) {
                    out.push([p, q]);
                }
            }
        }
    }
    out
}

/// Length links over `edges` (global indices) with rest = current distance in
/// `positions` (indexed from `first`).
pub(crate) fn links(
    edges: &[[u32; 2]],
    positions: &[Vec3],
    first: u32,
    compliance: f32,
) -> Vec<NewConstraint<f32, 2>> {
    edges
        .iter()
        .map(|&[a, b]| NewConstraint {
            particles: [a + first, b + first],
            rest: positions[a as usize].distance(positions[b as usize]),
            compliance,
        })
        .collect()
}

/// Largest number of attachments (and of constraints per family).
pub(crate) fn nary_limit() -> usize {
    crate::constraints::nary::MAX_FAMILY_CONSTRAINTS as usize
}

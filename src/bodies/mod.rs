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
//!
//! The builders here know nothing of the world: each returns a [`BodyBuild`] that
//! `World` commits all-or-nothing (`world/bodies.rs`; ARCHITECTURE.md, "Layers").

pub mod cloth;
pub mod rope;
pub mod sdf_from_mesh;
pub mod soft;
pub mod tetrahedralize;

use std::ops::Range;

use crate::constraints::bending::IsometricRest;
use crate::constraints::nary::{check_compliance, Family, NarySet, NewConstraint};
use crate::constraints::volume::NewSurface;
use crate::constraints::{ConstraintEdit, ConstraintSets};
use crate::error::{Error, Result};
use crate::math::{Vec3, Vec4};
use crate::particles::check_room;
use crate::slots::{Key, LastFreed, SlotMap, WorldIds};
use crate::snapshot::codec::{self, Reader, Writer};

use crate::limits::{MAX_BODY_COMPLIANCE, MAX_BODY_PARTICLES};

/// A body's id: `(world serial << 44) | (generation << 24) | (slot + 1)` (20, 20 and
/// 24 bits), the layout of every id a world issues ([`crate::slots::WorldIds`]); 0 is
/// never issued. The world serial makes a body id of one world invalid in another
/// (until 2^20 worlds have been created in between).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct BodyId(pub u64);

/// Largest number of body slots in one world.
pub const MAX_BODIES: usize = crate::slots::MAX_SLOTS;

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

impl BodyParts {
    /// Each id range with the set that holds it (stretch, shear and bend links are
    /// consecutive ids of the link set).
    pub(crate) fn in_sets<'a>(
        &self,
        s: &'a mut ConstraintSets,
    ) -> [(&'a mut dyn ConstraintEdit, Range<u32>); 8] {
        debug_assert!(
            self.stretch.end == self.shear.start && self.shear.end == self.bend_link.start
        );
        [
            (&mut s.link, self.stretch.start..self.bend_link.end),
            (&mut s.tether, self.tether.clone()),
            (&mut s.dihedral, self.dihedral.clone()),
            (&mut s.isometric, self.isometric.clone()),
            (&mut s.tet_volume, self.tet_volume.clone()),
            (&mut s.tet_strain, self.tet_strain.clone()),
            (&mut s.triangle_strain, self.triangle_strain.clone()),
            (&mut s.pressure, self.pressure.map_or(0..0, |p| p..p + 1)),
        ]
    }
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
    /// Scale of the rest lengths relative to the built ones (1 until
    /// [`crate::World::set_body_rest_scale`] changes it).
    pub rest_scale: f32,
}

/// The bodies of one world: the most recently freed slot is reused first; generations
/// are 20 bits (of the id) and skip 0.
#[derive(Default)]
pub struct Bodies {
    ids: WorldIds,
    slots: SlotMap<Body, LastFreed>,
}

impl Bodies {
    fn encode(&self, key: Key) -> BodyId {
        BodyId(self.ids.id(key))
    }

    /// The slot key of `id` when it names a live body of this world.
    fn key_of(&self, id: BodyId) -> Result<Key> {
        self.ids.key_in(&self.slots, id.0, "body")
    }

    /// The body behind `id`, or an INVALID_HANDLE error.
    pub fn get(&self, id: BodyId) -> Result<&Body> {
        let key = self.key_of(id)?;
        Ok(self.slots.get(key).expect("checked"))
    }

    pub(crate) fn get_mut(&mut self, id: BodyId) -> Result<&mut Body> {
        let key = self.key_of(id)?;
        Ok(self.slots.get_mut(key).expect("checked"))
    }

    /// Number of live bodies.
    pub(crate) fn len(&self) -> usize {
        self.slots.len()
    }

    pub(crate) fn reserve(&mut self) -> Result<()> {
        let full = || Error::out_of_range(format!("a world holds at most {MAX_BODIES} bodies"));
        self.slots.reserve(MAX_BODIES, full, "bodies")
    }

    /// Stores `body` (room reserved by [`Self::reserve`]).
    pub(crate) fn insert(&mut self, body: Body) -> BodyId {
        let key = self.slots.insert(body);
        self.encode(key)
    }

    /// The live bodies' ids and particle ranges, in slot order.
    pub(crate) fn ranges(&self) -> impl Iterator<Item = (BodyId, Range<u32>)> + '_ {
        self.slots
            .iter_keyed()
            .map(|(key, b)| (self.encode(key), b.particles.clone()))
    }

    /// The live body whose particles include `particle`, with its id (a linear scan,
    /// for the rare recovery path of the step).
    pub(crate) fn containing(&self, particle: u32) -> Option<(BodyId, Range<u32>)> {
        self.slots.iter_keyed().find_map(|(key, b)| {
            b.particles
                .contains(&particle)
                .then(|| (self.encode(key), b.particles.clone()))
        })
    }

    pub(crate) fn remove(&mut self, id: BodyId) -> Result<Body> {
        let key = self.key_of(id)?;
        Ok(self.slots.remove(key).expect("checked"))
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
    /// Collision radius (m) every particle of the body gets; 0 leaves them points with
    /// the default filter. When above 0 the particles also get a collision group of
    /// their own (the body's first particle + 1, unique among bodies: particle ranges
    /// never overlap), so that neighbours closer than two radii never push each other.
    pub particle_radius: f32,
    /// Cloth triangles (global indices), kept for aerodynamics (src/aero.rs).
    pub triangles: Vec<[u32; 3]>,
}

/// Appends `new` to `set` when non-empty: the new set and the id range of the new
/// constraints.
pub(crate) fn appended<F: Family<K>, const K: usize>(
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
    if !(damping.is_finite() && (0.0..=crate::particles::MAX_ACCELERATION).contains(&damping)) {
        return Err(Error::invalid(format!(
            "damping {damping} must be finite and in [0, {}] (1/s)",
            crate::particles::MAX_ACCELERATION
        )));
    }
    Ok(())
}

/// Checks a body compliance parameter.
pub(crate) fn check_body_compliance(what: &str, c: f32) -> Result<()> {
    check_compliance(what, c, MAX_BODY_COMPLIANCE, "units of the constraint")
}

/// The first index a new body of `count` particles gets in a world of
/// `particle_count` particles; fails when they do not fit.
pub(crate) fn first_index(particle_count: usize, count: usize) -> Result<u32> {
    if count > MAX_BODY_PARTICLES as usize {
        return Err(Error::out_of_range(format!(
            "a body of {count} particles exceeds the limit of {MAX_BODY_PARTICLES}"
        )));
    }
    check_room(particle_count, count)?;
    Ok(particle_count as u32)
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

fn kind_code(k: BodyKind) -> u32 {
    match k {
        BodyKind::Rope => 0,
        BodyKind::Cloth => 1,
        BodyKind::TetSoftBody => 2,
        BodyKind::PressureSoftBody => 3,
    }
}

impl BodyParts {
    /// The id ranges in a fixed order, with the set (name, count) each indexes.
    fn ranges(&self) -> [&Range<u32>; 9] {
        [
            &self.stretch,
            &self.shear,
            &self.bend_link,
            &self.tether,
            &self.dihedral,
            &self.isometric,
            &self.tet_volume,
            &self.tet_strain,
            &self.triangle_strain,
        ]
    }
}

impl Bodies {
    /// Snapshot: the world serial (part of every id the world issues), the slots with
    /// their generations and the free list, so ids stay valid and a world made from
    /// the snapshot hands out the same ids.
    pub(crate) fn save(&self, w: &mut Writer<'_>) {
        w.put_name(self.ids.serial());
        self.slots.save_interleaved(w, |w, b| {
            w.put(kind_code(b.kind));
            w.put((b.particles.start, b.particles.end));
            for r in b.parts.ranges() {
                w.put((r.start, r.end));
            }
            w.put_option(b.parts.pressure);
            w.put((b.damping, b.radius));
            w.put(b.rest_scale);
        });
    }

    /// The ids of the world (its serial), shared with its other tables.
    pub(crate) fn ids(&self) -> WorldIds {
        self.ids
    }

    /// Gives the bodies the world's ids (a new world, a restore).
    pub(crate) fn set_ids(&mut self, ids: WorldIds) {
        self.ids = ids;
    }

    /// The id of this world with the generation and slot bits of `id` (a snapshot
    /// stores ids without the world serial).
    pub(crate) fn id_with_serial(&self, id: u64) -> BodyId {
        BodyId(self.ids.complete(id))
    }

    /// Snapshot: the bodies [`Self::save`] wrote; every range is checked against the
    /// particles and the constraint sets already loaded.
    pub(crate) fn load(
        r: &mut Reader<'_>,
        particles: usize,
        sets: &ConstraintSets,
    ) -> Result<Bodies> {
        let ids = WorldIds::with_serial(r.get::<u64>()?);
        let counts = [
            sets.link.len(),
            sets.link.len(),
            sets.link.len(),
            sets.tether.len(),
            sets.dihedral.len(),
            sets.isometric.len(),
            sets.tet_volume.len(),
            sets.tet_strain.len(),
            sets.triangle_strain.len(),
        ];
        let body = |r: &mut Reader<'_>, k: usize, _generation: u32| -> Result<Body> {
            let kind = match r.get::<u32>()? {
                0 => BodyKind::Rope,
                1 => BodyKind::Cloth,
                2 => BodyKind::TetSoftBody,
                3 => BodyKind::PressureSoftBody,
                t => return Err(codec::corrupt(format!("body kind {t}"))),
            };
            let range = |r: &mut Reader<'_>, max: usize| -> Result<Range<u32>> {
                let (a, b) = r.get::<(u32, u32)>()?;
                codec::ensure(a <= b && b as usize <= max, || {
                    format!("body {k} has the range {a}..{b} of {max}")
                })?;
                Ok(a..b)
            };
            let particles = range(r, particles)?;
            let mut parts = BodyParts::default();
            {
                let [stretch, shear, bend_link, tether, dihedral, isometric, tet_volume, tet_strain, triangle_strain] =
                    counts.map(|c| range(r, c));
                parts.stretch = stretch?;
                parts.shear = shear?;
                parts.bend_link = bend_link?;
                parts.tether = tether?;
                parts.dihedral = dihedral?;
                parts.isometric = isometric?;
                parts.tet_volume = tet_volume?;
                parts.tet_strain = tet_strain?;
                parts.triangle_strain = triangle_strain?;
            }
            parts.pressure = r.get_option()?;
            codec::ensure(
                parts
                    .pressure
                    .is_none_or(|p| (p as usize) < sets.pressure.len())
                    && parts.stretch.end == parts.shear.start
                    && parts.shear.end == parts.bend_link.start,
                || format!("body {k} names constraints that do not exist"),
            )?;
            // A rope body as the builders make it: its winch, cuts and break force
            // take it for one (a forged rope of no particles and 6 links was loaded,
            // and the breakable rope made from it was refused by the next load; the
            // API fuzzer found it).
            codec::ensure(
                kind != BodyKind::Rope || rope::has_rope_shape(&particles, &parts.stretch),
                || {
                    format!(
                        "body {k} is a rope of particles {particles:?} with links {:?}",
                        parts.stretch
                    )
                },
            )?;
            let (damping, radius) = r.get::<(f32, f32)>()?;
            let rest_scale = r.get::<f32>()?;
            codec::ensure(
                rest_scale > 0.0 && rest_scale <= crate::MAX_REST_SCALE,
                || format!("body {k} has the rest scale {rest_scale}"),
            )?;
            // As the builders and set_body_damping take them.
            check_damping(damping).map_err(|e| codec::corrupt(format!("body {k}: {e}")))?;
            codec::ensure((0.0..=crate::limits::MAX_LENGTH).contains(&radius), || {
                format!("body {k} has the radius {radius} m")
            })?;
            Ok(Body {
                kind,
                particles,
                parts,
                damping,
                radius,
                rest_scale,
            })
        };
        let slots = SlotMap::load_interleaved(r, MAX_BODIES, "body slots", "body", body)?;
        Ok(Bodies { ids, slots })
    }
}

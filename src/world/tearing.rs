//! The world's API of cloth tearing: turn it on per cloth with a threshold (a stretch
//! ratio) and a reserve of spare particles, and the topology readback a host rebuilds
//! its render mesh from. The split itself runs at the end of each step in the
//! topology stage (`crate::topology::tearing`, which also builds a cloth's torn set
//! when tearing is turned on; the method is described in
//! [`crate::constraints::tearing`]).

use std::ops::Range;

use super::World;
use crate::bodies::{BodyConstraints, BodyId, BodyKind};
use crate::constraints::tearing::{EdgeKind, TornCloth, MAX_TEAR_RESERVE};
use crate::error::{try_reserve, Error, Result};
use crate::math::Vec3;
use crate::topology::tearing;

/// The reserve of spare particles a cloth of `n` particles gets when the caller asks
/// for the default (0): a quarter of its particles, at least 16.
pub fn default_tear_reserve(n: usize) -> u32 {
    (n.div_ceil(4).max(16)).min(MAX_TEAR_RESERVE as usize) as u32
}

/// A cloth's tearing state, as the host reads it.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct TearStatus {
    /// The stretch ratio past which an edge tears (+inf: tearing is off).
    pub threshold: f32,
    /// Spare particles left (each split takes one).
    pub reserve_left: u32,
    /// Splits refused because the reserve ran out (of particles or of room for copied
    /// edges): the cloth stays whole there.
    pub refused: u64,
    /// The topology version: the number of splits so far.
    pub version: u64,
}

fn check_threshold(threshold: f32) -> Result<f32> {
    if threshold == 0.0 || threshold == f32::INFINITY {
        return Ok(f32::INFINITY);
    }
    if !(threshold.is_finite() && threshold > 1.0) {
        return Err(Error::invalid(format!(
            "tear threshold {threshold} must be a stretch ratio above 1 (length / rest \
             length), or 0 or +inf for no tearing"
        )));
    }
    Ok(threshold)
}

impl World {
    /// Turns tearing of cloth `id` on (or changes its threshold): from the next step
    /// on, an edge longer than `threshold` × its rest length (a stretch ratio above 1,
    /// dimensionless; 0 or +inf turn tearing off) splits the cloth at one of its
    /// vertices. `reserve` spare particles are added to the world the first time (0 =
    /// [`default_tear_reserve`]; later calls must pass 0 or the same count): each split
    /// takes one, and once they are gone the cloth stops tearing (see
    /// [`World::cloth_tear_status`]).
    ///
    /// The cloth's edges and bending move into the torn-cloth set (projected serially
    /// after the other sets, under either solver); its tethers go at the first tear.
    /// Only distance-model cloths tear (not strain cloths), and not while skinned or
    /// with aerodynamic coefficients.
    pub fn set_cloth_tear_threshold(
        &mut self,
        id: BodyId,
        threshold: f32,
        reserve: u32,
    ) -> Result<()> {
        let body = self.bodies.get(id)?;
        if body.kind != BodyKind::Cloth {
            return Err(Error::invalid(format!(
                "the body is a {:?}, not a cloth: only cloth tears",
                body.kind
            )));
        }
        let threshold = check_threshold(threshold)?;
        if reserve > MAX_TEAR_RESERVE {
            return Err(Error::invalid(format!(
                "reserve {reserve} must be at most {MAX_TEAR_RESERVE} particles (0: the default)"
            )));
        }
        let range = body.particles.clone();
        if let Some(c) = self.sets.torn.find_mut(&range) {
            if reserve != 0 && reserve as usize != c.reserve.len() {
                return Err(Error::invalid(format!(
                    "reserve {reserve}: the cloth's reserve is {} particles, fixed when \
                     tearing was first turned on (pass 0 to keep it)",
                    c.reserve.len()
                )));
            }
            c.threshold = threshold;
            return Ok(());
        }
        if threshold == f32::INFINITY {
            return Ok(());
        }
        let parts = body.parts.clone();
        if !parts.triangle_strain.is_empty() {
            return Err(Error::invalid(
                "a strain-model cloth cannot tear (build it with the edges model)",
            ));
        }
        if self.skinning.bodies.iter().any(|s| s.body == id) {
            return Err(Error::invalid("a skinned cloth cannot tear"));
        }
        let triangles = match self.aero.surfaces.iter().find(|s| s.body == id) {
            Some(s) if s.drag > 0.0 || s.lift > 0.0 => {
                return Err(Error::invalid(
                    "a cloth with aerodynamic coefficients cannot tear (set them to 0 first)",
                ))
            }
            Some(crate::aero::Surface {
                elements: crate::aero::Elements::Triangles(t),
                ..
            }) => t,
            _ => return Err(Error::invalid("the cloth has no recorded triangles")),
        };
        let reserve = if reserve == 0 {
            default_tear_reserve(range.len())
        } else {
            reserve
        };
        crate::particles::check_room(self.particles.len(), reserve as usize)?;
        let first_spare = self.particles.len() as u32;
        let cloth = tearing::build(
            &parts,
            range,
            triangles,
            &self.sets,
            threshold,
            first_spare..first_spare + reserve,
        )?;
        try_reserve(&mut self.sets.torn.cloths, 1, "torn cloths")?;
        self.particles.reserve(reserve as usize)?;
        // Nothing fails from here on.
        tearing::start(cloth, &parts, &mut self.sets, &mut self.particles);
        self.reserve_fluid_room(false);
        self.wake_body_of(id);
        Ok(())
    }

    /// The tearing state of cloth `id` (threshold +inf and no reserve while tearing was
    /// never turned on).
    pub fn cloth_tear_status(&self, id: BodyId) -> Result<TearStatus> {
        let range = self.cloth_range(id)?;
        Ok(match self.sets.torn.find(&range) {
            Some(c) => TearStatus {
                threshold: c.threshold,
                reserve_left: c.reserve.len() as u32 - c.used,
                refused: c.refused,
                version: c.version,
            },
            None => TearStatus {
                threshold: f32::INFINITY,
                ..TearStatus::default()
            },
        })
    }

    /// The topology version of cloth `id`: 0 until its first split, then the number
    /// of splits. A host re-reads [`World::read_cloth_topology`] when it changes.
    pub fn cloth_topology_version(&self, id: BodyId) -> Result<u64> {
        Ok(self.cloth_tear_status(id)?.version)
    }

    /// The number of render vertices and triangles of cloth `id`: its particles and
    /// the spares its splits took, and its triangles (their count never changes).
    pub fn cloth_topology_counts(&self, id: BodyId) -> Result<(u32, u32)> {
        let range = self.cloth_range(id)?;
        Ok(match self.sets.torn.find(&range) {
            Some(c) => (c.vertex_count(), c.triangles.len() as u32),
            None => (range.len() as u32, self.cloth_triangles(id)?.len() as u32),
        })
    }

    /// Writes cloth `id`'s triangles as render-vertex indices (`triangles`, at least
    /// the triangle count long) and the particle of each render vertex
    /// (`vertex_particles`, at least the vertex count long; see
    /// [`World::cloth_topology_counts`]). Vertex i < the cloth's particle count is its
    /// particle i; the others are the spares in the order the splits took them, so a
    /// host keeps its vertices and appends the new ones. Fails, writing nothing, when
    /// either buffer is too short.
    pub fn read_cloth_topology(
        &self,
        id: BodyId,
        triangles: &mut [[u32; 3]],
        vertex_particles: &mut [u32],
    ) -> Result<()> {
        self.read_cloth_topology_with_sources(id, triangles, vertex_particles, None)
    }

    /// [`World::read_cloth_topology`], also writing for each render vertex the vertex of
    /// the built cloth it descends from (itself for those, the split vertex's for a
    /// spare) to `sources` (at least the vertex count long): the vertex whose UV,
    /// colour and skin a host gives the new one.
    pub fn read_cloth_topology_with_sources(
        &self,
        id: BodyId,
        triangles: &mut [[u32; 3]],
        vertex_particles: &mut [u32],
        sources: Option<&mut [u32]>,
    ) -> Result<()> {
        let (nv, nt) = self.cloth_topology_counts(id)?;
        let short_sources = sources.as_ref().is_some_and(|s| s.len() < nv as usize);
        if triangles.len() < nt as usize || vertex_particles.len() < nv as usize || short_sources {
            return Err(Error::out_of_range(format!(
                "the cloth has {nt} triangles and {nv} vertices; the buffers hold {} and {}",
                triangles.len(),
                vertex_particles.len()
            )));
        }
        let range = self.cloth_range(id)?;
        // Every index handed to the host is below the vertex count (a host indexes its
        // vertex buffer with them): the loader and the splits keep it so; checked
        // again here, before anything is written, because a wrong index would be an
        // out-of-bounds write in the host.
        let inside = |t: &[u32; 3], c: Option<&TornCloth>| {
            t.iter().all(|&p| match c {
                Some(c) => {
                    c.body.contains(&p) || (p >= c.reserve.start && p - c.reserve.start < c.used)
                }
                None => range.contains(&p),
            })
        };
        let torn = self.sets.torn.find(&range);
        let consistent = match torn {
            Some(c) => c.triangles.iter().all(|t| inside(t, Some(c))),
            None => self.cloth_triangles(id)?.iter().all(|t| inside(t, None)),
        };
        if !consistent {
            return Err(Error::out_of_range(
                "the cloth's triangles name particles outside it (nothing was written)",
            ));
        }
        match torn {
            Some(c) => {
                for (o, t) in triangles.iter_mut().zip(&c.triangles) {
                    *o = t.map(|p| c.vertex_of(p));
                }
                for (v, o) in vertex_particles.iter_mut().take(nv as usize).enumerate() {
                    *o = c.particle_of(v as u32);
                }
                if let Some(s) = sources {
                    for (v, o) in s.iter_mut().take(nv as usize).enumerate() {
                        *o = c.source_of(v as u32);
                    }
                }
            }
            None => {
                for (o, t) in triangles.iter_mut().zip(self.cloth_triangles(id)?) {
                    *o = t.map(|p| p - range.start);
                }
                for (v, o) in vertex_particles.iter_mut().take(nv as usize).enumerate() {
                    *o = range.start + v as u32;
                }
                if let Some(s) = sources {
                    for (v, o) in s.iter_mut().take(nv as usize).enumerate() {
                        *o = v as u32;
                    }
                }
            }
        }
        Ok(())
    }

    /// The particles of cloth `id` (an error for other bodies).
    fn cloth_range(&self, id: BodyId) -> Result<Range<u32>> {
        let body = self.bodies.get(id)?;
        if body.kind != BodyKind::Cloth {
            return Err(Error::invalid(format!(
                "the body is a {:?}, not a cloth",
                body.kind
            )));
        }
        Ok(body.particles.clone())
    }

    /// The triangles cloth `id` was built with (global particle indices).
    fn cloth_triangles(&self, id: BodyId) -> Result<&[[u32; 3]]> {
        match self.aero.surfaces.iter().find(|s| s.body == id) {
            Some(crate::aero::Surface {
                elements: crate::aero::Elements::Triangles(t),
                ..
            }) => Ok(t),
            _ => Err(Error::invalid("the cloth has no recorded triangles")),
        }
    }

    /// Force readback by body: |λ|/h² (N) of a torn cloth's edges that came from the
    /// body links `ids`, into `out` (in id order; 0 for a link removed before tearing
    /// was turned on). False when the body's cloth is not torn.
    pub(crate) fn read_torn_forces(
        &self,
        body: &Range<u32>,
        ids: Range<u32>,
        out: &mut [f32],
    ) -> bool {
        let Some(c) = self.sets.torn.find(body) else {
            return false;
        };
        out[..ids.len()].fill(0.0);
        for e in c.edges.iter().filter(|e| ids.contains(&e.id)) {
            out[(e.id - ids.start) as usize] =
                crate::constraints::set::force_of_lambda(e.lambda, self.last_h);
        }
        true
    }

    /// Body removal: the spares of a torn cloth become inert and its set goes.
    pub(crate) fn remove_torn_cloth(&mut self, body: &Range<u32>) {
        if let Some(k) = self.sets.torn.cloths.iter().position(|c| c.body == *body) {
            let c = self.sets.torn.cloths.remove(k);
            for i in c.reserve {
                self.particles.set_inverse_mass(i as usize, 0.0);
                self.particles.set_velocity(i as usize, Vec3::ZERO);
            }
        }
    }

    /// Body compliance edits reach a torn cloth's edges and hinges.
    pub(crate) fn set_torn_compliance(
        &mut self,
        body: &Range<u32>,
        which: BodyConstraints,
        compliance: f32,
    ) {
        if let Some(c) = self.sets.torn.find_mut(body) {
            let kinds: &[EdgeKind] = match which {
                BodyConstraints::Stretch => &[EdgeKind::Stretch],
                BodyConstraints::Shear => &[EdgeKind::Shear],
                BodyConstraints::Bend => &[EdgeKind::Bend],
                _ => &[],
            };
            for e in c
                .edges
                .iter_mut()
                .filter(|e| e.live() && kinds.contains(&e.kind))
            {
                e.compliance = compliance;
            }
            if which == BodyConstraints::Bend {
                c.dihedral
                    .iter_mut()
                    .filter(|h| h.live())
                    .for_each(|h| h.compliance = compliance);
                c.isometric
                    .iter_mut()
                    .filter(|h| h.live())
                    .for_each(|h| h.compliance = compliance);
            }
        }
    }

    /// Rest-scale edits: checks (`apply` false) or scales (true) a torn cloth's edges.
    pub(crate) fn scale_torn_rest(
        &mut self,
        body: &Range<u32>,
        ratio: f32,
        apply: bool,
    ) -> Result<()> {
        if let Some(c) = self.sets.torn.find_mut(body) {
            for e in c.edges.iter_mut().filter(|e| e.live()) {
                if apply {
                    e.rest *= ratio;
                } else {
                    crate::limits::check_length("scaled rest length", e.rest * ratio, false)?;
                }
            }
        }
        Ok(())
    }
}

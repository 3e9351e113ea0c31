//! The world's API of bodies: the builders (rope, cloth, tet and pressure soft
//! bodies; their maths and checks live in `bodies/`), all-or-nothing commit, removal
//! and per-body settings. See [`crate::bodies`] for the removal scheme.

use std::ops::Range;

use super::World;
use crate::bodies::cloth::{self, ClothDesc, ClothGridDesc};
use crate::bodies::rope::{self, RopeDesc};
use crate::bodies::soft::{self, PressureBodyDesc, TetBodyDesc};
use crate::bodies::{
    appended, check_body_compliance, check_damping, Body, BodyBuild, BodyConstraints, BodyId,
    BodyKind, BodyParts,
};
use crate::constraints::distance::NewDistance;
use crate::constraints::ConstraintSets;
use crate::error::{try_reserve, Error, Result};
use crate::math::{Vec3, Vec4};
use crate::particles::{check_inverse_mass, check_vec3, CollisionFilter};
use crate::solver::Solver;

impl World {
    /// Adds a straight rope from `desc.start` to `desc.end` in `desc.segments` segments.
    /// Every particle collides with radius `desc.radius`; when it is above 0 they also
    /// get the collision group first particle + 1 (layer 1, every mask, no
    /// self-collision), so neighbours closer than two radii never push each other.
    ///
    /// ```
    /// use sinew::{RopeDesc, Vec3, World, WorldDesc};
    /// let mut world = World::new(WorldDesc::default())?;
    /// let rope = world.add_rope(&RopeDesc {
    ///     start: Vec3::new(0.0, 2.0, 0.0),
    ///     end: Vec3::new(1.0, 2.0, 0.0),
    ///     segments: 10,
    ///     ..RopeDesc::default()
    /// })?;
    /// assert_eq!(world.body_particle_range(rope)?, (0, 11));
    /// let mut lowest = f32::INFINITY;
    /// for _ in 0..60 {
    ///     world.step(1.0 / 60.0)?;
    ///     lowest = lowest.min(world.particles().position(10).y);
    /// }
    /// // The free end swung down to about 1 m below the pinned start, which stayed.
    /// assert!((lowest - 1.0).abs() < 0.05, "{lowest}");
    /// assert_eq!(world.particles().position(0), Vec3::new(0.0, 2.0, 0.0));
    /// # Ok::<(), sinew::Error>(())
    /// ```
    pub fn add_rope(&mut self, desc: &RopeDesc) -> Result<BodyId> {
        let points = rope::straight_points(desc)?;
        self.add_rope_polyline(desc, &points)
    }

    /// Adds a rope through `points` (one particle each, at least 2; start, end and
    /// segments of `desc` are ignored).
    pub fn add_rope_polyline(&mut self, desc: &RopeDesc, points: &[Vec3]) -> Result<BodyId> {
        let b = rope::polyline(self.particles.len(), desc, points)?;
        self.commit_body(BodyKind::Rope, b)
    }

    /// Adds a cloth from a triangle mesh (local vertex indices), with per-vertex
    /// inverse masses (1/kg; 0 = pinned).
    pub fn add_cloth_mesh(
        &mut self,
        desc: &ClothDesc,
        vertices: &[Vec3],
        triangles: &[[u32; 3]],
        inverse_masses: &[f32],
    ) -> Result<BodyId> {
        let n = self.particles.len();
        let b = cloth::mesh(n, desc, vertices, triangles, inverse_masses)?;
        self.commit_body(BodyKind::Cloth, b)
    }

    /// Adds a rectangular grid cloth.
    ///
    /// ```
    /// use sinew::{ClothDesc, ClothGridDesc, Vec3, World, WorldDesc};
    /// let mut world = World::new(WorldDesc::default())?;
    /// let grid = ClothGridDesc {
    ///     segments_u: 8,
    ///     segments_v: 8,
    ///     pin_corners: 1 | 2, // the two corners of the first row
    ///     ..ClothGridDesc::default()
    /// };
    /// let cloth = world.add_cloth_grid(&ClothDesc::default(), &grid)?;
    /// assert_eq!(world.body_particle_range(cloth)?, (0, 81));
    /// world.step(1.0 / 60.0)?;
    /// # Ok::<(), sinew::Error>(())
    /// ```
    pub fn add_cloth_grid(&mut self, desc: &ClothDesc, grid: &ClothGridDesc) -> Result<BodyId> {
        let b = cloth::grid(self.particles.len(), desc, grid)?;
        self.commit_body(BodyKind::Cloth, b)
    }

    /// Adds a soft body from a tetrahedral mesh: every tet edge a link, every tet a
    /// volume constraint. Tets `[a, b, c, d]` must have positive volume (b, c, d
    /// counter-clockwise seen from a). `inverse_masses` None: `desc.total_mass` lumped
    /// by volume.
    pub fn add_tet_body(
        &mut self,
        desc: &TetBodyDesc,
        vertices: &[Vec3],
        tets: &[[u32; 4]],
        inverse_masses: Option<&[f32]>,
    ) -> Result<BodyId> {
        let n = self.particles.len();
        let b = soft::tet_body(n, desc, vertices, tets, inverse_masses)?;
        self.commit_body(BodyKind::TetSoftBody, b)
    }

    /// Adds a soft body from a closed surface (triangles wound counter-clockwise seen
    /// from outside): every edge a link, plus one volume constraint keeping
    /// `desc.pressure` × the rest volume. `inverse_masses` None: `desc.total_mass`
    /// lumped by triangle area.
    pub fn add_pressure_body(
        &mut self,
        desc: &PressureBodyDesc,
        vertices: &[Vec3],
        triangles: &[[u32; 3]],
        inverse_masses: Option<&[f32]>,
    ) -> Result<BodyId> {
        let n = self.particles.len();
        let b = soft::pressure_body(n, desc, vertices, triangles, inverse_masses)?;
        self.commit_body(BodyKind::PressureSoftBody, b)
    }

    /// Current enclosed volume (m³) of a pressure soft body, or the summed tet volume
    /// of a tet soft body.
    pub fn body_volume(&self, id: BodyId) -> Result<f32> {
        let body = self.body(id)?;
        if let Some(p) = body.parts.pressure {
            return self.pressure_volume(p);
        }
        if body.parts.tet_volume.is_empty() {
            return Err(Error::invalid("the body has no volume (not a soft body)"));
        }
        let mut v = 0.0f64;
        for id in body.parts.tet_volume.clone() {
            let t = self.sets.tet_volume.particles_of(id as usize);
            let x0 = self.particles.position(t[0] as usize);
            let r: [Vec3; 4] = t.map(|p| self.particles.position(p as usize) - x0);
            v += crate::constraints::volume::tet_volume(&r) as f64;
        }
        Ok(v as f32)
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
        let all_links = b.stretch.iter().chain(&b.shear).chain(&b.bend_link);
        links.extend(all_links.map(|&c| NewDistance::from(c)));
        let link_first = sets.link.len() as u32;
        let link_ids = link_first..link_first + links.len() as u32;
        let link = if links.is_empty() {
            None
        } else {
            Some(sets.link.with_appended(&links, &hot, jacobi)?)
        };
        let (tether, tether_ids) = appended(&sets.tether, &b.tether, &hot, jacobi)?;
        let (dihedral, dihedral_ids) = appended(&sets.dihedral, &b.dihedral, &hot, jacobi)?;
        let (isometric, isometric_ids) = appended(&sets.isometric, &b.isometric, &hot, jacobi)?;
        let (tet, tet_ids) = appended(&sets.tet_volume, &b.tet_volume, &hot, jacobi)?;
        let (strain, strain_ids) = appended(&sets.tet_strain, &b.tet_strain, &hot, jacobi)?;
        let (tri, tri_ids) = appended(&sets.triangle_strain, &b.triangle_strain, &hot, jacobi)?;
        drop(hot);
        self.bodies.reserve()?;
        self.particles.reserve(count)?;
        try_reserve(&mut self.integrator.damped, 1, "body damping")?;
        let surface = !b.triangles.is_empty();
        if surface {
            self.aero.reserve_surface()?;
        }
        // Last fallible step: the pressure surface.
        let pressure = match b.pressure {
            Some((surface, k, alpha)) => Some(self.sets.pressure.push(surface, k, alpha)?),
            None => None,
        };
        // Nothing below can fail.
        for (&p, &w) in b.positions.iter().zip(&b.inverse_masses) {
            self.particles.push(p, w);
        }
        if b.particle_radius > 0.0 {
            let range = b.first as usize..b.first as usize + count;
            self.particles.radius[range.clone()].fill(b.particle_radius);
            let filter = CollisionFilter {
                group: b.first + 1,
                ..CollisionFilter::default()
            };
            self.particles.filter[range].fill(filter);
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
            self.integrator.damped.push((particles.clone(), b.damping));
        }
        let id = self.bodies.insert(Body {
            kind,
            particles: particles.clone(),
            parts,
            damping: b.damping,
            radius: b.radius,
            rest_scale: 1.0,
        });
        if surface {
            let triangles = crate::aero::Elements::Triangles(b.triangles);
            self.aero.push_surface(id, particles, triangles);
        }
        self.reserve_fluid_room(false);
        Ok(id)
    }

    /// Read access to the constraint sets.
    pub fn constraint_sets(&self) -> &ConstraintSets {
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

    /// Removes a body: its particles keep their indices but become inert (inverse mass
    /// 0, at rest), its constraints and the attachments on its particles stop acting,
    /// and its fluid coupling is switched off (the particles no longer meet any fluid);
    /// other bodies are untouched. The id becomes invalid.
    ///
    /// ```
    /// use sinew::{ErrorKind, RopeDesc, World, WorldDesc};
    /// let mut world = World::new(WorldDesc::default())?;
    /// let rope = world.add_rope(&RopeDesc::default())?;
    /// world.remove_body(rope)?;
    /// assert_eq!(world.body_count(), 0);
    /// assert_eq!(world.remove_body(rope).unwrap_err().kind, ErrorKind::InvalidHandle);
    /// # Ok::<(), sinew::Error>(())
    /// ```
    pub fn remove_body(&mut self, id: BodyId) -> Result<()> {
        // The removed body's particles stay in the world, pinned and with their radii:
        // coupled to a fluid they would act as an invisible wall. Switched off first
        // (the only step that can fail), so that a failure changes nothing.
        let range = self.bodies.get(id)?.particles.clone();
        self.fluids.solver.set_coupling(range.clone(), false)?;
        let body = self.bodies.remove(id)?;
        self.wake_range(range.start as usize..range.end as usize);
        for (set, ids) in body.parts.in_sets(&mut self.sets) {
            set.remove(ids);
        }
        self.sets
            .attachments
            .remove_on_particles(body.particles.clone());
        self.collision
            .colliders
            .unpin_particles(body.particles.clone());
        self.integrator.damped.retain(|(r, _)| *r != body.particles);
        self.activity.remove_body(id, &body.particles);
        self.aero.remove_body(id);
        self.skinning.remove_body(id);
        self.remove_torn_cloth(&body.particles);
        self.topology
            .winches
            .retain(|w| w.rope.particles != body.particles);
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
        let body = self.bodies.get(id)?;
        let (parts, particles) = (body.parts.clone(), body.particles.clone());
        self.set_torn_compliance(&particles, which, compliance);
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
        self.wake_body_of(id);
        Ok(())
    }

    /// Number of constraints in the body's length-constraint group `which`
    /// ([`BodyConstraints::Stretch`], `Shear`, `Bend` or `Tether`): the length of what
    /// [`World::read_body_forces`] writes.
    pub fn body_force_count(&self, id: BodyId, which: BodyConstraints) -> Result<usize> {
        Ok(self.length_group(id, which)?.0.len())
    }

    /// Writes |λ|/h² (N) of the body's length constraints of group `which` in the last
    /// substep of the last step (0 before the first step), in the order the builder made
    /// them, to the start of `out`: `Stretch` the links and edges (a rope's from start
    /// to end: its tension, the link's own force plus that of every tether spanning
    /// it, so the weight below a link reads the same with tethers on or off), `Shear`
    /// the grid diagonals, `Bend` a rope's (i, i+2) links or a cloth's
    /// distance bending, `Tether` the tethers. Angle, strain and volume constraints are
    /// not length constraints; `Volume` is refused. Fails, writing nothing, when `out`
    /// is shorter than [`World::body_force_count`].
    pub fn read_body_forces(
        &self,
        id: BodyId,
        which: BodyConstraints,
        out: &mut [f32],
    ) -> Result<()> {
        let (range, tether) = self.length_group(id, which)?;
        let n = range.len();
        if out.len() < n {
            return Err(Error::out_of_range(format!(
                "the group has {n} constraints, out holds {}",
                out.len()
            )));
        }
        let particles = self.bodies.get(id)?.particles.clone();
        if !tether && self.read_torn_forces(&particles, range.clone(), out) {
            return Ok(());
        }
        let body = self.bodies.get(id)?;
        if which == BodyConstraints::Stretch && body.kind == BodyKind::Rope {
            // A rope's tension: its links' and its tethers' share of the load, the
            // measure breaking uses too.
            let rope = self.rope_cut(id)?;
            for (o, link) in out.iter_mut().zip(0..n as u32) {
                *o = rope.tension(&self.sets, link, self.last_h);
            }
            return Ok(());
        }
        for (o, id) in out.iter_mut().zip(range) {
            *o = if tether {
                self.sets.tether.force(id as usize, self.last_h)
            } else {
                self.sets.link.force(id as usize, self.last_h)
            };
        }
        Ok(())
    }

    /// The ids of a body's length-constraint group, and whether they are tethers (else
    /// links).
    fn length_group(&self, id: BodyId, which: BodyConstraints) -> Result<(Range<u32>, bool)> {
        let parts = &self.bodies.get(id)?.parts;
        Ok(match which {
            BodyConstraints::Stretch => (parts.stretch.clone(), false),
            BodyConstraints::Shear => (parts.shear.clone(), false),
            BodyConstraints::Bend => (parts.bend_link.clone(), false),
            BodyConstraints::Tether => (parts.tether.clone(), true),
            BodyConstraints::Volume => {
                return Err(Error::invalid(
                    "the volume group holds no length constraints: its forces are not readable per body",
                ))
            }
        })
    }

    /// Sets the body's extra velocity damping (1/s); takes effect on the next step.
    pub fn set_body_damping(&mut self, id: BodyId, damping: f32) -> Result<()> {
        check_damping(damping)?;
        let body = self.bodies.get_mut(id)?;
        body.damping = damping;
        let range = body.particles.clone();
        self.integrator.damped.retain(|(r, _)| *r != range);
        if damping > 0.0 {
            try_reserve(&mut self.integrator.damped, 1, "body damping")?;
            self.integrator.damped.push((range, damping));
        }
        self.wake_body_of(id);
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
        self.wake_body_of(id);
        Ok(())
    }
}

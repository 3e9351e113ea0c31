//! The world's API of the constraint families (the maths and validation live beside
//! each family in `constraints/`): bulk adds over existing particles (index arrays,
//! like distance constraints), force readback, attachments.

use super::World;
use crate::constraints::attachment::NewAttachment;
use crate::constraints::bending::{dihedral_angle_and_gradient, IsometricRest};
use crate::constraints::nary::{check_compliance, check_elements, Family, NarySet, NewConstraint};
use crate::constraints::strain::{tet_coefficients, triangle_coefficients, StrainRest};
use crate::constraints::volume::{tet_volumes, validate_surface};
use crate::constraints::ConstraintSets;
use crate::error::{check_nonzero, check_range, try_with_capacity, Error, Result};
use crate::math::Vec3;
use crate::particles::rel;
use crate::solver::Solver;
use crate::transform::Transform;

use crate::limits::MAX_FAMILY_COMPLIANCE;

pub use crate::constraints::FamilyKind;

/// Fails unless `rest` (when given) has `count` entries.
fn check_len(rest: Option<&[f32]>, count: usize, what: &str) -> Result<()> {
    if let Some(r) = rest {
        if r.len() != count {
            return Err(Error::invalid(format!(
                "{} {what} for {count} constraints",
                r.len()
            )));
        }
    }
    Ok(())
}

impl World {
    fn jacobi(&self) -> bool {
        self.desc.solver == Solver::Jacobi
    }

    /// Checks a batch of `elements` for the family set `set` before any row is built:
    /// `rest` (when given, named `rest_what`) has one entry per element, the set has room
    /// for `per_element` constraints per element, and every index names a particle.
    fn check_batch<F: Family<K>, const K: usize>(
        &self,
        set: &NarySet<F, K>,
        elements: &[[u32; K]],
        per_element: usize,
        element: &str,
        rest: Option<(Option<&[f32]>, &str)>,
    ) -> Result<()> {
        if let Some((rest, rest_what)) = rest {
            check_len(rest, elements.len(), rest_what)?;
        }
        set.check_room(per_element * elements.len())?;
        check_elements(elements, self.particles.len(), element)?;
        self.check_no_fluid_indices(elements.iter().flatten().copied(), element, K)
    }

    /// Appends `rows` to the family set `set` picks (all or nothing) and returns the id
    /// of the first new constraint.
    fn append<F: Family<K>, const K: usize>(
        &mut self,
        set: impl FnOnce(&mut ConstraintSets) -> &mut NarySet<F, K>,
        rows: &[NewConstraint<F::Rest, K>],
    ) -> Result<u32> {
        let jacobi = self.jacobi();
        let set = set(&mut self.sets);
        let first = set.len() as u32;
        *set = set.with_appended(rows, &self.particles.hot, jacobi)?;
        Ok(first)
    }

    /// Adds tethers (Kim et al. 2012): `pairs[j] = [anchor, particle]`; particle may be
    /// at most `max_lengths[j]` (m; None = the current distance) from the anchor.
    /// Compliance α in m/N. Returns the first new tether id.
    pub fn add_tethers(
        &mut self,
        pairs: &[[u32; 2]],
        max_lengths: Option<&[f32]>,
        compliance: f32,
    ) -> Result<u32> {
        check_nonzero(pairs.len(), "tether")?;
        check_compliance("tether", compliance, MAX_FAMILY_COMPLIANCE, "m/N")?;
        self.check_batch(
            &self.sets.tether,
            pairs,
            1,
            "tether",
            Some((max_lengths, "max lengths")),
        )?;
        let mut rows = try_with_capacity(pairs.len(), "tethers")?;
        for (j, &pair) in pairs.iter().enumerate() {
            let rest = match max_lengths {
                Some(l) => {
                    let l = l[j];
                    crate::limits::check_length(&format!("tether {j}: max length"), l, false)?;
                    l
                }
                None => rel(&self.particles, &pair)[1].length(),
            };
            rows.push(NewConstraint {
                particles: pair,
                rest,
                compliance,
            });
        }
        self.append(|s| &mut s.tether, &rows)
    }

    /// Adds dihedral bending constraints over hinges `[e0, e1, w0, w1]` (shared edge
    /// e0–e1, wings w0, w1), rest angles θ0 in rad (None = the current angles),
    /// compliance in rad/(N·m). Returns the first new id.
    pub fn add_dihedral_bending(
        &mut self,
        hinges: &[[u32; 4]],
        rest_angles: Option<&[f32]>,
        compliance: f32,
    ) -> Result<u32> {
        check_nonzero(hinges.len(), "hinge")?;
        check_compliance(
            "dihedral bending",
            compliance,
            MAX_FAMILY_COMPLIANCE,
            "rad/(N·m)",
        )?;
        self.check_batch(
            &self.sets.dihedral,
            hinges,
            1,
            "hinge",
            Some((rest_angles, "rest angles")),
        )?;
        let mut rows = try_with_capacity(hinges.len(), "dihedral bending")?;
        for (j, h) in hinges.iter().enumerate() {
            let current =
                dihedral_angle_and_gradient(&rel(&self.particles, h)).ok_or_else(|| {
                    Error::invalid(format!(
                        "hinge {j} {h:?}: a triangle has zero area (no dihedral angle)"
                    ))
                })?;
            let rest = match rest_angles {
                Some(a) => {
                    let a = a[j];
                    if !(a.is_finite() && a.abs() <= std::f32::consts::PI) {
                        return Err(Error::invalid(format!(
                            "hinge {j}: rest angle {a} must be finite and in [-pi, pi] (rad)"
                        )));
                    }
                    a
                }
                None => current.0,
            };
            rows.push(NewConstraint {
                particles: *h,
                rest,
                compliance,
            });
        }
        self.append(|s| &mut s.dihedral, &rows)
    }

    /// Adds isometric bending constraints (Bergou et al. 2006) over hinges
    /// `[e0, e1, w0, w1]`, rest shape = the current (near-flat) positions, compliance in
    /// 1/(N·m). Returns the first new id.
    pub fn add_isometric_bending(&mut self, hinges: &[[u32; 4]], compliance: f32) -> Result<u32> {
        check_nonzero(hinges.len(), "hinge")?;
        check_compliance(
            "isometric bending",
            compliance,
            MAX_FAMILY_COMPLIANCE,
            "1/(N·m)",
        )?;
        self.check_batch(&self.sets.isometric, hinges, 1, "hinge", None)?;
        let mut rows = try_with_capacity(hinges.len(), "isometric bending")?;
        for (j, h) in hinges.iter().enumerate() {
            let x: [Vec3; 4] = h.map(|p| self.particles.position(p as usize));
            let rest = IsometricRest::new(&x).ok_or_else(|| {
                Error::invalid(format!("hinge {j} {h:?}: a triangle has zero area"))
            })?;
            rows.push(NewConstraint {
                particles: *h,
                rest,
                compliance,
            });
        }
        self.append(|s| &mut s.isometric, &rows)
    }

    /// Adds tetrahedron volume constraints; `rest_volumes` in m³ (None = the current
    /// volumes; tets must not be inverted or flat), compliance in 1/(N·m).
    pub fn add_tet_volumes(
        &mut self,
        tets: &[[u32; 4]],
        rest_volumes: Option<&[f32]>,
        compliance: f32,
    ) -> Result<u32> {
        check_nonzero(tets.len(), "tet")?;
        check_compliance("tet volume", compliance, MAX_FAMILY_COMPLIANCE, "1/(N·m)")?;
        self.check_batch(
            &self.sets.tet_volume,
            tets,
            1,
            "tet",
            Some((rest_volumes, "rest volumes")),
        )?;
        let current = tet_volumes(&self.particles, tets)?;
        let mut rows = try_with_capacity(tets.len(), "tet volumes")?;
        for (j, t) in tets.iter().enumerate() {
            let rest = match rest_volumes {
                Some(v) => {
                    let v = v[j];
                    crate::limits::check_volume(&format!("tet {j}: rest volume"), v)?;
                    v
                }
                None => current[j],
            };
            rows.push(NewConstraint {
                particles: *t,
                rest,
                compliance,
            });
        }
        self.append(|s| &mut s.tet_volume, &rows)
    }

    /// Adds one closed-surface volume constraint over `triangles` (closed, wound
    /// counter-clockwise seen from outside): the enclosed volume is kept at
    /// `pressure` × its current volume (overpressure factor, > 0), compliance m⁵/N.
    /// Returns its id.
    pub fn add_pressure_volume(
        &mut self,
        triangles: &[[u32; 3]],
        pressure: f32,
        compliance: f32,
    ) -> Result<u32> {
        check_nonzero(triangles.len(), "triangle")?;
        crate::bodies::soft::check_pressure(pressure)?;
        check_compliance("pressure volume", compliance, MAX_FAMILY_COMPLIANCE, "m⁵/N")?;
        let surface = validate_surface(&self.particles, triangles)?;
        self.check_no_fluid_indices(triangles.iter().flatten().copied(), "triangle", 3)?;
        self.sets.pressure.push(surface, pressure, compliance)
    }

    /// Number of constraints of a family (removed ones included).
    /// For grabs ([`FamilyKind::Grab`]) the ids are particle indices: the particle count.
    pub fn family_constraint_count(&self, family: FamilyKind) -> u32 {
        if family == FamilyKind::Grab {
            return self.particles.len() as u32;
        }
        self.sets.family(family).count() as u32
    }

    /// Writes |λ|/h² of constraints `first..first+out.len()` of a family in the last
    /// substep (units per [`FamilyKind`]; 0 before the first step).
    ///
    /// ```
    /// use sinew::{FamilyKind, Vec3, World, WorldDesc};
    /// let mut world = World::new(WorldDesc::default())?;
    /// // A 1 kg particle hanging 0.5 m below a pinned anchor on a rigid tether.
    /// world.add_particles(&[Vec3::ZERO, Vec3::new(0.0, -0.5, 0.0)], Some(&[0.0, 1.0]))?;
    /// world.add_tethers(&[[0, 1]], None, 0.0)?;
    /// for _ in 0..30 {
    ///     world.step(1.0 / 60.0)?;
    /// }
    /// let mut force = [0.0];
    /// world.read_family_forces(FamilyKind::Tether, 0, &mut force)?;
    /// assert!((force[0] - 9.81).abs() < 0.05, "{} N", force[0]); // m g
    /// # Ok::<(), sinew::Error>(())
    /// ```
    pub fn read_family_forces(
        &self,
        family: FamilyKind,
        first: u32,
        out: &mut [f32],
    ) -> Result<()> {
        let n = self.family_constraint_count(family) as usize;
        let range = check_range(first, out.len(), n, "constraints of the family")?;
        if family == FamilyKind::Grab {
            for (o, id) in out.iter_mut().zip(range) {
                *o = self.grab_force(id as u32);
            }
            return Ok(());
        }
        let set = self.sets.family(family);
        for (o, id) in out.iter_mut().zip(range) {
            *o = set.force(id, self.last_h);
        }
        Ok(())
    }

    /// Current enclosed volume (m³) of pressure constraint `id`.
    pub fn pressure_volume(&self, id: u32) -> Result<f32> {
        check_range(id, 1, self.sets.pressure.len(), "pressure constraints")?;
        Ok(self.sets.pressure.volume(&self.particles, id as usize))
    }

    /// Adds an attachment host with its initial transform; returns its index.
    pub fn add_attachment_host(&mut self, transform: Transform) -> Result<u32> {
        let t = Transform::checked(transform.position, transform.rotation)?;
        self.sets.attachments.add_host(t)
    }

    /// Number of attachment hosts.
    pub fn attachment_host_count(&self) -> u32 {
        self.sets.attachments.host_count() as u32
    }

    /// Sets the transform a host reaches at the end of the next step (its particles
    /// follow the interpolation across the substeps).
    pub fn set_attachment_host_transform(&mut self, host: u32, transform: Transform) -> Result<()> {
        check_range(
            host,
            1,
            self.sets.attachments.host_count(),
            "attachment hosts",
        )?;
        let t = Transform::checked(transform.position, transform.rotation)?;
        self.wake_host(host, t);
        self.sets.attachments.set_host_transform(host as usize, t);
        Ok(())
    }

    /// Attaches `particles` to `host` at `local_offsets` (m, in the host frame; None =
    /// where each particle is now), compliance α in m/N (0 = hard pin). Returns the
    /// first new attachment id.
    pub fn add_attachments(
        &mut self,
        host: u32,
        particles: &[u32],
        local_offsets: Option<&[Vec3]>,
        compliance: f32,
    ) -> Result<u32> {
        check_nonzero(particles.len(), "particle")?;
        check_range(
            host,
            1,
            self.sets.attachments.host_count(),
            "attachment hosts",
        )?;
        check_compliance("attachment", compliance, MAX_FAMILY_COMPLIANCE, "m/N")?;
        if let Some(o) = local_offsets {
            if o.len() != particles.len() {
                return Err(Error::invalid(format!(
                    "{} local offsets for {} particles",
                    o.len(),
                    particles.len()
                )));
            }
        }
        if self.sets.attachments.len() + particles.len() > crate::bodies::nary_limit() {
            return Err(Error::out_of_range(format!(
                "adding {} attachments would exceed the limit of {}",
                particles.len(),
                crate::bodies::nary_limit()
            )));
        }
        let t = self.sets.attachments.host_transform(host as usize);
        let n = self.particles.len();
        let mut rows = try_with_capacity(particles.len(), "attachments")?;
        for (j, &p) in particles.iter().enumerate() {
            if p as usize >= n {
                return Err(Error::out_of_range(format!(
                    "attachment {j}: particle {p} is out of range (the world has {n} particles)"
                )));
            }
            let offset = match local_offsets {
                Some(o) => {
                    crate::particles::check_vec3("local offset", j, o[j])?;
                    o[j]
                }
                None => t.inverse_apply(self.particles.position(p as usize)),
            };
            rows.push(NewAttachment {
                particle: p,
                host,
                offset,
                compliance,
            });
        }
        self.check_no_fluid_indices(particles.iter().copied(), "attachment", 1)?;
        let first = self.sets.attachments.push_all(&rows)?;
        self.wake_particles(particles.iter().copied());
        Ok(first)
    }

    /// Sets the compliance (m/N) of attachments `first..first+count` (removed ones stay
    /// removed); takes effect on the next step.
    pub fn set_attachment_compliance(
        &mut self,
        first: u32,
        count: u32,
        compliance: f32,
    ) -> Result<()> {
        let range = check_range(
            first,
            count as usize,
            self.sets.attachments.len(),
            "attachments",
        )?;
        check_compliance("attachment", compliance, MAX_FAMILY_COMPLIANCE, "m/N")?;
        for id in range {
            self.sets.attachments.set_compliance(id, compliance);
        }
        self.wake_attachments(first..first + count);
        Ok(())
    }

    /// Number of attachments (removed ones included).
    pub fn attachment_count(&self) -> u32 {
        self.sets.attachments.len() as u32
    }

    /// Writes the force (N) each attachment `first..` exerted on its host in the last
    /// substep (apply it to the host's rigid body at the attachment point).
    pub fn read_attachment_forces(&self, first: u32, out: &mut [Vec3]) -> Result<()> {
        let range = check_range(first, out.len(), self.sets.attachments.len(), "attachments")?;
        for (o, id) in out.iter_mut().zip(range) {
            *o = self.sets.attachments.host_force(id, self.last_h);
        }
        Ok(())
    }
}

impl World {
    /// Adds strain-based triangle constraints (Müller et al. 2014): three per triangle,
    /// ids `first + 3j + (0: stretch along the rest edge 0→1, 1: stretch across it,
    /// 2: shear)`, with compliances in 1/(N·m). Returns the first id.
    pub fn add_triangle_strain(
        &mut self,
        triangles: &[[u32; 3]],
        compliance_xx: f32,
        compliance_yy: f32,
        compliance_shear: f32,
    ) -> Result<u32> {
        check_nonzero(triangles.len(), "triangle")?;
        for (what, c) in [
            ("xx", compliance_xx),
            ("yy", compliance_yy),
            ("shear", compliance_shear),
        ] {
            check_compliance(what, c, MAX_FAMILY_COMPLIANCE, "1/(N·m)")?;
        }
        self.check_batch(&self.sets.triangle_strain, triangles, 3, "triangle", None)?;
        crate::constraints::volume::check_triangle_areas(&self.particles, triangles)?;
        let mut rows = try_with_capacity(3 * triangles.len(), "triangle strain")?;
        for (j, t) in triangles.iter().enumerate() {
            let r = rel(&self.particles, t);
            let coef = triangle_coefficients(r[1], r[2])
                .ok_or_else(|| Error::invalid(format!("triangle {j} {t:?} has zero area")))?;
            for (axes, compliance) in [
                ((0, 0), compliance_xx),
                ((1, 1), compliance_yy),
                ((0, 1), compliance_shear),
            ] {
                rows.push(NewConstraint {
                    particles: *t,
                    rest: StrainRest { coef, axes },
                    compliance,
                });
            }
        }
        self.append(|s| &mut s.triangle_strain, &rows)
    }

    /// Adds strain-based tet constraints: six per tet, ids `first + 6j + (0, 1, 2:
    /// stretch along world x, y, z of the rest shape; 3, 4, 5: shear xy, xz, yz)`;
    /// `compliance_stretch` per axis and `compliance_shear` in 1/(N·m). Tets must have
    /// positive volume.
    pub fn add_tet_strain(
        &mut self,
        tets: &[[u32; 4]],
        compliance_stretch: [f32; 3],
        compliance_shear: f32,
    ) -> Result<u32> {
        check_nonzero(tets.len(), "tet")?;
        for (what, c) in [
            ("xx", compliance_stretch[0]),
            ("yy", compliance_stretch[1]),
            ("zz", compliance_stretch[2]),
            ("shear", compliance_shear),
        ] {
            check_compliance(what, c, MAX_FAMILY_COMPLIANCE, "1/(N·m)")?;
        }
        self.check_batch(&self.sets.tet_strain, tets, 6, "tet", None)?;
        tet_volumes(&self.particles, tets)?;
        let mut rows = try_with_capacity(6 * tets.len(), "tet strain")?;
        for (j, t) in tets.iter().enumerate() {
            let r = rel(&self.particles, t);
            let coef = tet_coefficients(r[1], r[2], r[3])
                .ok_or_else(|| Error::invalid(format!("tet {j} {t:?} is degenerate")))?;
            let c = compliance_stretch;
            for (axes, compliance) in [
                ((0, 0), c[0]),
                ((1, 1), c[1]),
                ((2, 2), c[2]),
                ((0, 1), compliance_shear),
                ((0, 2), compliance_shear),
                ((1, 2), compliance_shear),
            ] {
                rows.push(NewConstraint {
                    particles: *t,
                    rest: StrainRest { coef, axes },
                    compliance,
                });
            }
        }
        self.append(|s| &mut s.tet_strain, &rows)
    }

    /// Adds unilateral area constraints (air mesh, 2D): each triangle's signed area in
    /// the XY plane stays >= `min_areas[j]` (m²; None = 0); compliance in m³/N.
    pub fn add_unilateral_areas(
        &mut self,
        triangles: &[[u32; 3]],
        min_areas: Option<&[f32]>,
        compliance: f32,
    ) -> Result<u32> {
        check_nonzero(triangles.len(), "triangle")?;
        check_compliance("unilateral area", compliance, MAX_FAMILY_COMPLIANCE, "m³/N")?;
        self.check_batch(
            &self.sets.unilateral_area,
            triangles,
            1,
            "triangle",
            Some((min_areas, "minimum areas")),
        )?;
        let rows = minimum_rows(triangles, min_areas, compliance, "minimum area", "m²")?;
        self.append(|s| &mut s.unilateral_area, &rows)
    }

    /// Adds unilateral volume constraints (air mesh, 3D): each tet's signed volume
    /// stays >= `min_volumes[j]` (m³; None = 0); compliance in m⁵/N.
    pub fn add_unilateral_volumes(
        &mut self,
        tets: &[[u32; 4]],
        min_volumes: Option<&[f32]>,
        compliance: f32,
    ) -> Result<u32> {
        check_nonzero(tets.len(), "tet")?;
        check_compliance(
            "unilateral volume",
            compliance,
            MAX_FAMILY_COMPLIANCE,
            "m⁵/N",
        )?;
        self.check_batch(
            &self.sets.unilateral_volume,
            tets,
            1,
            "tet",
            Some((min_volumes, "minimum volumes")),
        )?;
        let rows = minimum_rows(tets, min_volumes, compliance, "minimum volume", "m³")?;
        self.append(|s| &mut s.unilateral_volume, &rows)
    }

    /// Makes the world 2D (`Some(z)`: every particle moves only in the plane z, its
    /// z velocity is zeroed at the end of every substep; existing particles are moved
    /// onto the plane now) or 3D again (`None`).
    pub fn set_planar(&mut self, plane: Option<f32>) -> Result<()> {
        if let Some(z) = plane {
            if !z.is_finite() || z.abs() > crate::particles::MAX_COORDINATE {
                return Err(Error::invalid(format!(
                    "plane z {z} must be finite and within ±{} m",
                    crate::particles::MAX_COORDINATE
                )));
            }
            crate::pipeline::integrate::flatten(&mut self.particles, z);
        }
        self.plane.z = plane;
        // Fluid particles weigh ρ₀·s² per unit thickness in 2D, ρ₀·s³ in 3D.
        self.fluids.set_planar(&mut self.particles, plane.is_some());
        // The fluids' constants for the new kernels (ω's search among them), here
        // rather than in the next step.
        self.reserve_fluid_room(false);
        self.wake_all();
        Ok(())
    }

    /// The 2D plane (z, m) of a planar world, None for a 3D world.
    pub fn planar(&self) -> Option<f32> {
        self.plane.z
    }

    /// Adds a closed ring (particles counter-clockwise seen from +z) whose enclosed XY
    /// area is kept at `pressure` × its current area (the 2D soft bodies of Matsuoka, "Soft bodies and fluids with Position Based Dynamics" (2025));
    /// compliance in m³/N. Returns its id.
    pub fn add_ring_area(&mut self, ring: &[u32], pressure: f32, compliance: f32) -> Result<u32> {
        crate::bodies::soft::check_pressure(pressure)?;
        check_compliance("ring area", compliance, MAX_FAMILY_COMPLIANCE, "m³/N")?;
        if ring.len() > crate::limits::MAX_BODY_PARTICLES as usize {
            return Err(Error::out_of_range(format!(
                "a ring of {} particles is too long",
                ring.len()
            )));
        }
        self.check_no_fluid_indices(ring.iter().copied(), "ring particle", 1)?;
        self.sets
            .rings
            .add(&self.particles, ring, pressure, compliance)
    }

    /// Current enclosed area (m²) of ring `id`.
    pub fn ring_area(&self, id: u32) -> Result<f32> {
        check_range(id, 1, self.sets.rings.len(), "rings")?;
        Ok(self.sets.rings.area(&self.particles, id as usize))
    }

    /// Adds a shape-matching cluster (Müller 2005) over `members` with rest shape =
    /// their current positions; `stiffness` in [0, 1] per substep (iteration-count
    /// corrected); plastic when the mean goal distance exceeds `yield_distance` (m;
    /// +inf = elastic), creeping by `creep` in [0, 1] per substep. Returns its id.
    pub fn add_shape_cluster(
        &mut self,
        members: &[u32],
        stiffness: f32,
        yield_distance: f32,
        creep: f32,
    ) -> Result<u32> {
        if members.len() > crate::limits::MAX_BODY_PARTICLES as usize {
            return Err(Error::out_of_range(format!(
                "a cluster of {} particles is too large",
                members.len()
            )));
        }
        self.check_no_fluid_indices(members.iter().copied(), "member", 1)?;
        let n = self.desc.iterations;
        self.sets.shapes.add(
            &self.particles,
            members,
            stiffness,
            n,
            yield_distance,
            creep,
        )
    }

    /// Sets the stiffness (in [0, 1]) of shape-matching cluster `id`.
    pub fn set_shape_cluster_stiffness(&mut self, id: u32, stiffness: f32) -> Result<()> {
        check_range(id, 1, self.sets.shapes.len(), "shape clusters")?;
        if !(stiffness.is_finite() && (0.0..=1.0).contains(&stiffness)) {
            return Err(Error::invalid(format!(
                "stiffness {stiffness} must be in [0, 1]"
            )));
        }
        let n = self.desc.iterations;
        self.sets.shapes.set_stiffness(id as usize, stiffness, n);
        self.wake_constraints(crate::FamilyKind::ShapeCluster, id..id + 1);
        Ok(())
    }

    /// Number of shape-matching clusters.
    pub fn shape_cluster_count(&self) -> u32 {
        self.sets.shapes.len() as u32
    }
}

/// Rows with a minimum (area or volume) per element, None = 0.
fn minimum_rows<const K: usize>(
    elements: &[[u32; K]],
    minimum: Option<&[f32]>,
    compliance: f32,
    what: &str,
    unit: &str,
) -> Result<Vec<NewConstraint<f32, K>>> {
    let mut rows = try_with_capacity(elements.len(), what)?;
    for (j, e) in elements.iter().enumerate() {
        let m = minimum.map_or(0.0, |m| m[j]);
        let max = if K == 3 {
            crate::limits::MAX_AREA
        } else {
            crate::limits::MAX_VOLUME
        };
        crate::limits::check_measure(&format!("element {j}: {what}"), m, max, unit, false)?;
        rows.push(NewConstraint {
            particles: *e,
            rest: m,
            compliance,
        });
    }
    Ok(rows)
}

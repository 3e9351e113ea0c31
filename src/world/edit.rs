//! In-place edits of constraints, through the one [`ConstraintEdit`] shape every family
//! has: remove by id range, set the rest value (length, angle, area, volume) per id,
//! set the compliance or PBD stiffness of a range. Every edit checks the whole request
//! (range, removed ids, every value) before it changes anything, and takes effect at
//! the next step. Ids never shift: a removed constraint keeps its id and stops acting.
//!
//! Edits never rebuild a set (no colouring, no allocation), so they are cheap enough
//! to run every frame; the step itself is unchanged.
//!
//! Bodies are edited as a whole: [`World::set_body_rest_scale`] scales a rope's or
//! cloth's rest lengths, [`World::set_body_mass`] its mass; other bodies are untouched.
//!
//! [`ConstraintEdit`]: crate::constraints::ConstraintEdit

use std::ops::Range;

use super::World;
use crate::bodies::{BodyId, BodyKind};
use crate::constraints::{ConstraintEdit, FamilyKind};
use crate::error::{check_range, Error, Result};
use crate::limits::MAX_REST_SCALE;

/// Checks that `first..first+count` names live constraints of `set` (of family `kind`)
/// and returns the range.
fn live_range(
    set: &dyn ConstraintEdit,
    kind: FamilyKind,
    first: u32,
    count: usize,
) -> Result<Range<u32>> {
    let what = format!("{} constraints", kind.name());
    let range = check_range(first, count, set.count(), &what)?;
    for id in range.clone() {
        if set.is_removed(id) {
            return Err(Error::invalid(format!(
                "{} constraint {id} was removed (removed ids stay removed)",
                kind.name()
            )));
        }
    }
    Ok(range.start as u32..range.end as u32)
}

fn check_stiffness(stiffness: f32) -> Result<()> {
    if !(stiffness.is_finite() && (0.0..=1.0).contains(&stiffness)) {
        return Err(Error::invalid(format!(
            "stiffness {stiffness} must be in [0, 1]"
        )));
    }
    Ok(())
}

impl World {
    /// Removes `count` constraints of `family` from id `first` on: they keep their ids,
    /// stop acting from the next step and report zero force. Fails, changing nothing,
    /// when the range is out of bounds or holds a removed id. Removing grabs
    /// ([`FamilyKind::Grab`], ids = particle indices) releases them; a particle that is
    /// not grabbed counts as a removed id.
    ///
    /// ```
    /// use sinew::{FamilyKind, Vec3, World, WorldDesc};
    /// let mut world = World::new(WorldDesc::default())?;
    /// world.add_particles(&[Vec3::ZERO, Vec3::new(0.0, -1.0, 0.0)], Some(&[0.0, 1.0]))?;
    /// world.add_distance_constraints(&[[0, 1]], None, 0.0)?;
    /// world.remove_constraints(FamilyKind::Distance, 0, 1)?;
    /// assert!(world.is_constraint_removed(FamilyKind::Distance, 0)?);
    /// world.step(0.5)?; // the particle now falls freely
    /// assert!(world.particles().position(1).y < -1.5);
    /// # Ok::<(), sinew::Error>(())
    /// ```
    pub fn remove_constraints(&mut self, family: FamilyKind, first: u32, count: u32) -> Result<()> {
        if family == FamilyKind::Grab {
            self.remove_grabs(first, count)?;
            self.wake_range(first as usize..first as usize + count as usize);
            return Ok(());
        }
        let ids = live_range(self.sets.family(family), family, first, count as usize)?;
        // Before the removal: removed constraints tie no particles together.
        self.wake_constraints(family, ids.clone());
        self.sets.family_mut(family).remove(ids);
        Ok(())
    }

    /// Whether constraint `id` of `family` was removed.
    pub fn is_constraint_removed(&self, family: FamilyKind, id: u32) -> Result<bool> {
        if family == FamilyKind::Grab {
            return self.is_grab_removed(id);
        }
        let set = self.sets.family(family);
        let what = format!("{} constraints", family.name());
        check_range(id, 1, set.count(), &what)?;
        Ok(set.is_removed(id as usize))
    }

    /// What the rest value of `family` is, with its unit (e.g. "rest length (m)"),
    /// None for families without a scalar rest value (isometric bending, strains,
    /// shape clusters, attachments).
    pub fn rest_value_unit(&self, family: FamilyKind) -> Option<&'static str> {
        if family == FamilyKind::Grab {
            return Some("rest length (m)");
        }
        self.sets.family(family).rest_unit()
    }

    /// Sets the rest values of constraints `first..first+values.len()` of `family`
    /// (the distance's rest length and the tether's max length in m, the dihedral
    /// rest angle in rad, the tet rest volume in m³, the pressure surface's rest
    /// volume V0 in m³ and the ring's rest area A0 in m² (targets k·V0, k·A0), the
    /// unilateral minimum area in m² or volume in m³).
    pub fn set_constraint_rest(
        &mut self,
        family: FamilyKind,
        first: u32,
        values: &[f32],
    ) -> Result<()> {
        if family == FamilyKind::Grab {
            self.set_grab_rest(first, values)?;
            self.wake_range(first as usize..first as usize + values.len());
            return Ok(());
        }
        let set = self.sets.family(family);
        let ids = live_range(set, family, first, values.len())?;
        let Some(unit) = set.rest_unit() else {
            return Err(Error::invalid(format!(
                "the {} family has no scalar rest value",
                family.name()
            )));
        };
        for (id, &v) in ids.clone().zip(values) {
            set.check_rest(
                id as usize,
                v,
                &format!("{} constraint {id}: {unit}", family.name()),
            )?;
        }
        let set = self.sets.family_mut(family);
        for (id, &v) in ids.clone().zip(values) {
            set.edit_rest(id as usize, v);
        }
        self.wake_constraints(family, ids);
        Ok(())
    }

    /// Writes the rest values of constraints `first..first+out.len()` of `family`
    /// (units as [`World::set_constraint_rest`]); a removed constraint reads NaN.
    pub fn read_constraint_rest(
        &self,
        family: FamilyKind,
        first: u32,
        out: &mut [f32],
    ) -> Result<()> {
        if family == FamilyKind::Grab {
            return self.read_grab_rest(first, out);
        }
        let set = self.sets.family(family);
        let what = format!("{} constraints", family.name());
        let range = check_range(first, out.len(), set.count(), &what)?;
        if set.rest_unit().is_none() {
            return Err(Error::invalid(format!(
                "the {} family has no scalar rest value",
                family.name()
            )));
        }
        for (o, id) in out.iter_mut().zip(range) {
            *o = if set.is_removed(id) {
                f32::NAN
            } else {
                set.rest_value(id).unwrap_or(f32::NAN)
            };
        }
        Ok(())
    }

    /// Sets the compliance of constraints `first..first+count` of `family` (in the
    /// family's unit, [`FamilyKind`]; 0 = rigid). A PBD distance constraint becomes an
    /// XPBD one. Shape clusters take a stiffness instead
    /// ([`World::set_constraint_stiffness`]).
    pub fn set_constraint_compliance(
        &mut self,
        family: FamilyKind,
        first: u32,
        count: u32,
        compliance: f32,
    ) -> Result<()> {
        if family == FamilyKind::Grab {
            self.set_grab_compliance(first, count, compliance)?;
            self.wake_range(first as usize..first as usize + count as usize);
            return Ok(());
        }
        let set = self.sets.family(family);
        let ids = live_range(set, family, first, count as usize)?;
        let Some(unit) = set.compliance_unit() else {
            return Err(Error::invalid(format!(
                "the {} family has a stiffness, not a compliance",
                family.name()
            )));
        };
        crate::limits::check_compliance(
            family.name(),
            compliance,
            crate::limits::MAX_COMPLIANCE,
            unit,
        )?;
        for id in ids.clone() {
            set.check_compliance_of(id as usize)?;
        }
        let set = self.sets.family_mut(family);
        for id in ids.clone() {
            set.edit_compliance(id as usize, compliance);
        }
        self.wake_constraints(family, ids);
        Ok(())
    }

    /// Sets the PBD stiffness k in [0, 1] (the fraction of the error removed per
    /// substep, whatever the iteration count) of constraints `first..first+count` of
    /// `family`: distance constraints (an XPBD one becomes a PBD one) and shape
    /// clusters. The other families take a compliance.
    pub fn set_constraint_stiffness(
        &mut self,
        family: FamilyKind,
        first: u32,
        count: u32,
        stiffness: f32,
    ) -> Result<()> {
        if family == FamilyKind::Grab {
            self.live_grabs(first, count as usize)?;
            check_stiffness(stiffness)?;
            return Err(Error::invalid(
                "the grab family has a compliance, not a stiffness (grabs are XPBD)",
            ));
        }
        let set = self.sets.family(family);
        let ids = live_range(set, family, first, count as usize)?;
        check_stiffness(stiffness)?;
        for id in ids.clone() {
            set.check_stiffness_of(id as usize).map_err(|_| {
                Error::invalid(format!(
                    "the {} family has a compliance, not a stiffness",
                    family.name()
                ))
            })?;
        }
        let n = self.desc.iterations;
        let set = self.sets.family_mut(family);
        for id in ids.clone() {
            set.edit_stiffness(id as usize, stiffness, n);
        }
        self.wake_constraints(family, ids);
        Ok(())
    }

    /// Scales the rest lengths of a rope or a distance-model cloth (links, bend links,
    /// tethers) to `scale` times the lengths it was built with (scale in (0, 1000]);
    /// a rope of 10 links of 0.1 m with scale 0.5 pulls itself to 0.5 m. Removed
    /// constraints stay removed; other bodies are untouched. Takes effect at the next
    /// step.
    pub fn set_body_rest_scale(&mut self, id: BodyId, scale: f32) -> Result<()> {
        if !(scale.is_finite() && scale > 0.0 && scale <= MAX_REST_SCALE) {
            return Err(Error::invalid(format!(
                "rest scale {scale} must be finite and in (0, {MAX_REST_SCALE}]"
            )));
        }
        let body = self.bodies.get(id)?;
        let parts = body.parts.clone();
        if !matches!(body.kind, BodyKind::Rope | BodyKind::Cloth)
            || !parts.triangle_strain.is_empty()
            || !parts.isometric.is_empty()
        {
            return Err(Error::invalid(
                "only ropes and distance-model cloths have rest lengths to scale                  (strain, isometric and soft bodies keep their rest shape)",
            ));
        }
        let ratio = scale / body.rest_scale;
        let particles = body.particles.clone();
        self.scale_torn_rest(&particles, ratio, false)?;
        let links = parts.stretch.start..parts.bend_link.end;
        let groups: [(&mut dyn ConstraintEdit, Range<u32>); 2] = [
            (&mut self.sets.link, links),
            (&mut self.sets.tether, parts.tether),
        ];
        // Check every new length first: all or nothing.
        for (set, ids) in &groups {
            for i in ids.clone() {
                let i = i as usize;
                if let (false, Some(r)) = (set.is_removed(i), set.rest_value(i)) {
                    crate::limits::check_length("scaled rest length", r * ratio, false)?;
                }
            }
        }
        for (set, ids) in groups {
            for i in ids {
                let i = i as usize;
                if let (false, Some(r)) = (set.is_removed(i), set.rest_value(i)) {
                    set.edit_rest(i, r * ratio);
                }
            }
        }
        self.scale_torn_rest(&particles, ratio, true)?;
        self.bodies.get_mut(id)?.rest_scale = scale;
        self.wake_body_of(id);
        Ok(())
    }

    /// Sets the total mass (kg) of a body's movable particles, keeping their mass
    /// ratios (pinned particles stay pinned); takes effect at the next step.
    pub fn set_body_mass(&mut self, id: BodyId, mass: f32) -> Result<()> {
        if !(mass.is_finite() && mass > 0.0) {
            return Err(Error::invalid(format!(
                "mass {mass} must be finite and positive (kg)"
            )));
        }
        let range = self.bodies.get(id)?.particles.clone();
        // A torn cloth's particles include the spares its splits took.
        let spares = self
            .sets
            .torn
            .find(&range)
            .map_or(0..0, |c| c.reserve.start..c.reserve.start + c.used);
        let all = || range.clone().chain(spares.clone());
        let hot = &self.particles.hot;
        let total: f64 = all()
            .map(|i| hot[i as usize])
            .filter(|h| h.w > 0.0)
            .map(|h| 1.0 / h.w as f64)
            .sum();
        if total == 0.0 {
            return Err(Error::invalid(
                "the body has no movable particle (every particle is pinned)",
            ));
        }
        let ratio = total / mass as f64;
        for i in all() {
            let h = hot[i as usize];
            if h.w > 0.0 {
                let w = (h.w as f64 * ratio) as f32;
                let (lo, hi) = (
                    crate::limits::MIN_INVERSE_MASS,
                    crate::limits::MAX_INVERSE_MASS,
                );
                if !(lo..=hi).contains(&w) {
                    return Err(Error::invalid(format!(
                        "mass {mass} kg gives particle {i} an inverse mass of {w} 1/kg, outside [{lo}, {hi}]"
                    )));
                }
            }
        }
        for i in all() {
            let w = self.particles.hot[i as usize].w;
            if w > 0.0 {
                self.particles
                    .set_inverse_mass(i as usize, (w as f64 * ratio) as f32);
            }
        }
        self.wake_body_of(id);
        Ok(())
    }
}

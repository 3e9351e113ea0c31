//! Grabs through the generic in-place edits ([`FamilyKind::Grab`]): the id of a grab
//! is the index of the particle it holds, so the ids run over every particle and an id
//! whose particle is not grabbed reads as removed. Removing releases (as
//! [`World::release_particle`]), the rest length is 0 (the target moves with
//! [`World::move_grab`]), the compliance is in m/N, and grabs take neither a PBD
//! stiffness nor a break force. Every call checks the whole range before it changes
//! anything, as for the other families.
//!
//! [`FamilyKind::Grab`]: crate::constraints::FamilyKind::Grab

use std::ops::Range;

use super::World;
use crate::collision::interaction::MAX_GRAB_COMPLIANCE;
use crate::error::{check_range, Error, Result};

const WHAT: &str = "grabs (ids are particle indices)";

impl World {
    /// `first..first+count` as grab ids (particle indices), each of them grabbed.
    pub(super) fn live_grabs(&self, first: u32, count: usize) -> Result<Range<u32>> {
        let r = check_range(first, count, self.particles.len(), WHAT)?;
        let ids = r.start as u32..r.end as u32;
        self.collision().grabs.check_grabbed(ids.clone())?;
        Ok(ids)
    }

    pub(super) fn remove_grabs(&mut self, first: u32, count: u32) -> Result<()> {
        let ids = self.live_grabs(first, count as usize)?;
        let grabs = &mut self.collision_parts().1.grabs;
        for p in ids {
            grabs.release(p)?;
        }
        Ok(())
    }

    pub(super) fn is_grab_removed(&self, id: u32) -> Result<bool> {
        check_range(id, 1, self.particles.len(), WHAT)?;
        Ok(!self.collision().grabs.is_grabbed(id))
    }

    pub(super) fn set_grab_rest(&mut self, first: u32, values: &[f32]) -> Result<()> {
        let ids = self.live_grabs(first, values.len())?;
        for (id, &v) in ids.zip(values) {
            if v != 0.0 {
                return Err(Error::invalid(format!(
                    "grab {id}: rest length (m) {v}: a grab's rest length is 0 (move its \
                     target with sinew_world_move_grab)"
                )));
            }
        }
        Ok(())
    }

    pub(super) fn read_grab_rest(&self, first: u32, out: &mut [f32]) -> Result<()> {
        let range = check_range(first, out.len(), self.particles.len(), WHAT)?;
        let grabs = &self.collision().grabs;
        for (o, id) in out.iter_mut().zip(range) {
            *o = if grabs.is_grabbed(id as u32) {
                0.0
            } else {
                f32::NAN
            };
        }
        Ok(())
    }

    pub(super) fn set_grab_compliance(
        &mut self,
        first: u32,
        count: u32,
        compliance: f32,
    ) -> Result<()> {
        let ids = self.live_grabs(first, count as usize)?;
        if !(compliance.is_finite() && (0.0..=MAX_GRAB_COMPLIANCE).contains(&compliance)) {
            return Err(Error::invalid(format!(
                "grab compliance {compliance} must be finite and in [0, \
                 {MAX_GRAB_COMPLIANCE}] m/N"
            )));
        }
        self.collision_parts()
            .1
            .grabs
            .set_compliance(ids, compliance);
        Ok(())
    }

    pub(super) fn grab_force(&self, id: u32) -> f32 {
        self.collision().grabs.force(id, self.last_h)
    }
}

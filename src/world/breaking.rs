//! The world's API of breaking and cutting: break forces per constraint or per rope,
//! the polled break events, and cutting a rope by link or along a segment (a sword
//! swipe). The per-substep check and the cuts live in [`crate::topology::breaking`].

use super::World;
use crate::bodies::{BodyId, BodyKind};
use crate::constraints::FamilyKind;
use crate::error::{check_range, try_reserve, Error, Result};
use crate::math::Vec3;
use crate::topology::breaking::RopeCut;

/// A broken constraint, as the host reads it.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct BreakReport {
    /// The body the constraint belonged to (None for constraints the host added, or a
    /// body removed since).
    pub body: Option<BodyId>,
    pub family: FamilyKind,
    pub id: u32,
    /// The force that broke it, in the family's units (N for lengths).
    pub force: f32,
    /// Where it broke (m): the mean position of its particles.
    pub position: Vec3,
}

impl Default for BreakReport {
    fn default() -> Self {
        BreakReport {
            body: None,
            family: FamilyKind::Tether,
            id: 0,
            force: 0.0,
            position: Vec3::ZERO,
        }
    }
}

/// Checks a break force: positive, not NaN; +inf means "never breaks".
fn check_break_force(force: f32) -> Result<()> {
    if force.is_nan() || force <= 0.0 {
        return Err(Error::invalid(format!(
            "break force {force} must be positive (+inf: never breaks)"
        )));
    }
    Ok(())
}

impl World {
    /// Sets the break force (family units, N for lengths; +inf = never breaks) of
    /// constraints `first..first+count` of `family`: from the next step on, a
    /// constraint whose force exceeds it in a substep is removed and reported by
    /// [`World::take_break_events`].
    pub fn set_constraint_break_force(
        &mut self,
        family: FamilyKind,
        first: u32,
        count: u32,
        force: f32,
    ) -> Result<()> {
        if family == FamilyKind::Grab {
            check_range(first, count as usize, self.particles.len(), "grabs")?;
            check_break_force(force)?;
            return Err(Error::invalid(
                "grabs take no break force (release one with sinew_world_release_particle)",
            ));
        }
        let set = self.sets.family(family);
        let what = format!("{} constraints", family.name());
        let range = check_range(first, count as usize, set.count(), &what)?;
        check_break_force(force)?;
        if family == FamilyKind::ShapeCluster {
            return Err(Error::invalid(
                "shape clusters report no force, so they cannot break",
            ));
        }
        let ids = range.start as u32..range.end as u32;
        self.topology.breaking.reserve(family, &ids)?;
        self.topology.breaking.set(family, ids, force);
        self.wake_constraints(family, first..first + count);
        Ok(())
    }

    /// Sets the break force (N; +inf = never breaks) of a rope's links: from the next
    /// step on, a link whose tension exceeds it in a substep breaks, and the rope falls
    /// apart there (the bend links and tethers across the break go too; see
    /// [`World::cut_rope`]). The tension is what [`World::read_body_forces`] reports
    /// for the rope's links: the link's own force plus that of every tether spanning
    /// it, so a rope breaks under the same load with tethers on or off. The rope parts
    /// at one link per connected piece, the most overloaded (largest tension / break
    /// force), and at most once per step, so a suddenly loaded rope whose every link
    /// overshoots at once parts at one link and the load falls.
    pub fn set_body_break_force(&mut self, id: BodyId, force: f32) -> Result<()> {
        check_break_force(force)?;
        let cut = self.rope_cut(id)?;
        let b = &mut self.topology.breaking;
        if !b.ropes.contains(&cut) {
            try_reserve(&mut b.ropes, 1, "breakable ropes")?;
            try_reserve(&mut b.parted, 1, "breakable ropes")?;
        }
        b.reserve(FamilyKind::BodyLink, &cut.stretch)?;
        if !b.ropes.contains(&cut) {
            b.ropes.push(cut.clone());
            b.parted.push(false);
        }
        b.set(FamilyKind::BodyLink, cut.stretch, force);
        self.wake_body_of(id);
        Ok(())
    }

    /// The break force of constraint `id` of `family` (+inf when none was set).
    pub fn constraint_break_force(&self, family: FamilyKind, id: u32) -> Result<f32> {
        let what = format!("{} constraints", family.name());
        if family == FamilyKind::Grab {
            check_range(id, 1, self.particles.len(), &what)?;
            return Ok(f32::INFINITY);
        }
        check_range(id, 1, self.sets.family(family).count(), &what)?;
        Ok(self.topology.breaking.threshold(family, id))
    }

    /// Number of break events waiting (at most [`crate::MAX_BREAK_EVENTS`]).
    pub fn break_event_count(&self) -> usize {
        self.topology.breaking.events.len()
    }

    /// Moves the oldest break events (up to `out.len()`) into `out`, oldest first, and
    /// returns how many it wrote and how many events were lost to a full queue since
    /// the last call (the queue holds [`crate::MAX_BREAK_EVENTS`]; the count is cleared).
    pub fn take_break_events(&mut self, out: &mut [BreakReport]) -> (usize, u64) {
        let n = out.len().min(self.topology.breaking.events.len());
        for (o, e) in out.iter_mut().zip(self.topology.breaking.events.drain(..n)) {
            *o = BreakReport {
                body: self.bodies.containing(e.particle).map(|(b, _)| b),
                family: e.family,
                id: e.id,
                force: e.force,
                position: e.position,
            };
        }
        let lost = std::mem::take(&mut self.topology.breaking.lost);
        (n, lost)
    }

    /// Cuts a rope at its link `link` (0 = the link at its start): that link, the bend
    /// links over it and the tethers across it are removed, so the two pieces fall
    /// apart. Cutting where it was already cut does nothing more.
    pub fn cut_rope(&mut self, id: BodyId, link: u32) -> Result<()> {
        let cut = self.rope_cut(id)?;
        let links = cut.stretch.len();
        if link as usize >= links {
            return Err(Error::out_of_range(format!(
                "link {link} is out of range (the rope has {links} links)"
            )));
        }
        cut.cut(&mut self.sets, link);
        self.wake_body_of(id);
        Ok(())
    }

    /// Cuts a rope at the live link nearest to the segment `a`–`b` (a sword swipe,
    /// m) and returns that link's index.
    pub fn cut_rope_along(&mut self, id: BodyId, a: Vec3, b: Vec3) -> Result<u32> {
        crate::particles::check_vec3("segment start", 0, a)?;
        crate::particles::check_vec3("segment end", 0, b)?;
        let cut = self.rope_cut(id)?;
        let Some(link) = cut.nearest_live_link(&self.sets, &self.particles, a, b) else {
            return Err(Error::invalid("the rope has no link left to cut"));
        };
        cut.cut(&mut self.sets, link);
        self.wake_body_of(id);
        Ok(link)
    }

    /// The constraint ids of rope `id` (an error for other bodies).
    pub(crate) fn rope_cut(&self, id: BodyId) -> Result<RopeCut> {
        let body = self.bodies.get(id)?;
        if body.kind != BodyKind::Rope {
            return Err(Error::invalid(format!(
                "the body is a {:?}, not a rope: only ropes are cut or break per body",
                body.kind
            )));
        }
        let p = &body.parts;
        Ok(RopeCut {
            particles: body.particles.clone(),
            stretch: p.stretch.clone(),
            bend: p.bend_link.clone(),
            tether: p.tether.clone(),
        })
    }
}

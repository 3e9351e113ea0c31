//! The world's API of skinned targets and inertia control (maths in
//! `crate::skinning`): per-particle weights, the targets the host writes every frame,
//! the reference transform (root) and teleports.

use super::World;
use crate::bodies::BodyId;
use crate::error::{Error, Result};
use crate::math::Vec3;
use crate::skinning::{SkinRoot, SkinWeights, SkinnedBody};
use crate::transform::Transform;

fn check_fraction(what: &str, f: f32) -> Result<()> {
    if !(f.is_finite() && (0.0..=1.0).contains(&f)) {
        return Err(Error::invalid(format!("{what} {f} must be in [0, 1]")));
    }
    Ok(())
}

impl World {
    /// Sets the skinning weights of every particle of the body (`weights.len()` = its
    /// particle count); the body follows its targets once they are written
    /// ([`World::set_skin_targets`]). Calling it again replaces the weights.
    pub fn set_skin_weights(&mut self, id: BodyId, weights: &[SkinWeights]) -> Result<()> {
        let particles = self.bodies.get(id)?.particles.clone();
        if self.sets.torn.find(&particles).is_some() {
            return Err(Error::invalid("a tearable cloth cannot be skinned"));
        }
        if weights.len() != particles.len() {
            return Err(Error::invalid(format!(
                "{} weights for a body of {} particles",
                weights.len(),
                particles.len()
            )));
        }
        for (i, w) in weights.iter().enumerate() {
            w.check(i)?;
        }
        self.skinning.set_weights(id, particles, weights)?;
        self.wake_body_of(id);
        Ok(())
    }

    /// The body's skinning weights (None before [`World::set_skin_weights`]).
    pub fn skin_weights(&self, id: BodyId) -> Result<Option<&[SkinWeights]>> {
        self.bodies.get(id)?;
        Ok(self.skinning.get(id).map(|b| b.weights.as_slice()))
    }

    fn skinned(&mut self, id: BodyId) -> Result<&mut SkinnedBody> {
        self.bodies.get(id)?;
        self.skinning.get_mut(id).ok_or_else(|| {
            Error::invalid("the body has no skinning weights (call set_skin_weights first)")
        })
    }

    /// Writes the targets this frame's step reaches: `position(k)` (m) and, when given,
    /// `normal(k)` (normalised; zero = no backstop) for k in 0..count, the body's
    /// particle count. Each getter is called twice per element (check, then write).
    pub fn set_skin_targets_with(
        &mut self,
        id: BodyId,
        count: usize,
        position: impl Fn(usize) -> Vec3,
        normal: Option<&dyn Fn(usize) -> Vec3>,
    ) -> Result<()> {
        let b = self.skinned(id)?;
        if count != b.next.len() {
            return Err(Error::invalid(format!(
                "{count} targets for a body of {} particles",
                b.next.len()
            )));
        }
        let max = crate::limits::MAX_COORDINATE;
        for k in 0..count {
            let p = position(k);
            // The message (a formatted name) only on failure: a frame allocates nothing.
            if !(p.is_finite() && p.abs().max_element() <= max) {
                crate::particles::check_vec3("target position", k, p)?;
            }
            if let Some(n) = normal {
                let n = n(k);
                if !n.is_finite() || n.abs().max_element() > 1e6 {
                    return Err(Error::invalid(format!(
                        "target normal {k} {n} must be finite with components within ±1e6"
                    )));
                }
            }
        }
        b.write_targets(position, normal);
        self.wake_body_of(id);
        Ok(())
    }

    /// [`World::set_skin_targets_with`] from slices.
    pub fn set_skin_targets(
        &mut self,
        id: BodyId,
        positions: &[Vec3],
        normals: Option<&[Vec3]>,
    ) -> Result<()> {
        if let Some(n) = normals {
            if n.len() != positions.len() {
                return Err(Error::invalid(format!(
                    "{} normals for {} positions",
                    n.len(),
                    positions.len()
                )));
            }
        }
        let normal = normals.map(|n| move |k: usize| n[k]);
        let normal_ref = normal.as_ref().map(|f| f as &dyn Fn(usize) -> Vec3);
        self.set_skin_targets_with(id, positions.len(), |k| positions[k], normal_ref)
    }

    /// Sets the reference transform (the character's root) the next step reaches, and
    /// the fractions (0..1) of its linear and angular acceleration passed on to the
    /// body (1 = full inertia, world-space simulation; 0 = carried by the root).
    pub fn set_skin_root(
        &mut self,
        id: BodyId,
        root: Transform,
        linear_inertia: f32,
        angular_inertia: f32,
    ) -> Result<()> {
        let root = Transform::checked(root.position, root.rotation)?;
        check_fraction("linear_inertia", linear_inertia)?;
        check_fraction("angular_inertia", angular_inertia)?;
        let b = self.skinned(id)?;
        b.root = Some(match b.root {
            Some(r) => SkinRoot {
                next: root,
                linear_inertia,
                angular_inertia,
                ..r
            },
            None => SkinRoot {
                previous: root,
                next: root,
                linear_inertia,
                angular_inertia,
            },
        });
        self.wake_body_of(id);
        Ok(())
    }

    /// Teleports the body onto its skinned pose: every movable particle to its latest
    /// target, at rest; the previous frame (targets and root) is forgotten, so the next
    /// step neither interpolates across the jump nor feels it as an acceleration.
    pub fn teleport_to_skin(&mut self, id: BodyId) -> Result<()> {
        let b = self.skinning.get(id);
        self.bodies.get(id)?;
        match b {
            Some(b) if b.has_targets => {}
            _ => return Err(Error::invalid(
                "the body has no skinned targets to teleport to (set weights and targets first)",
            )),
        }
        let b = self.skinning.get_mut(id).expect("checked");
        b.teleport(&mut self.particles);
        self.wake_body_of(id);
        Ok(())
    }
}

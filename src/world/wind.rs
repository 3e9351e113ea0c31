//! The world's API of wind and aerodynamics (maths in `crate::aero`): the air and its
//! uniform wind, wind zones, and each body's drag and lift coefficients. Every setter
//! may be called every frame; it takes effect on the next step.

use super::World;
use crate::aero::{Aero, Elements, WindDesc, WindZoneDesc, MAX_AERO_COEFFICIENT, MAX_WIND_ZONES};
use crate::bodies::{BodyId, BodyKind};
use crate::error::{try_reserve, Error, Result};
use crate::math::Vec3;

fn check_coefficient(what: &str, c: f32) -> Result<()> {
    if !(c.is_finite() && (0.0..=MAX_AERO_COEFFICIENT).contains(&c)) {
        return Err(Error::invalid(format!(
            "{what} coefficient {c} must be finite and in [0, {MAX_AERO_COEFFICIENT}]"
        )));
    }
    Ok(())
}

impl World {
    /// Sets the air density, the uniform wind and its turbulence.
    pub fn set_wind(&mut self, desc: &WindDesc) -> Result<()> {
        desc.validate()?;
        self.aero.wind = *desc;
        Ok(())
    }

    /// The current air and wind settings.
    pub fn wind(&self) -> WindDesc {
        self.aero.wind
    }

    /// Adds a wind zone; returns its id (0, 1, ...; ids are never reused).
    pub fn add_wind_zone(&mut self, desc: &WindZoneDesc) -> Result<u32> {
        let d = desc.validated()?;
        let id = self.aero.zones.len();
        if id >= MAX_WIND_ZONES as usize {
            return Err(Error::out_of_range(format!(
                "a world holds at most {MAX_WIND_ZONES} wind zones (ids are never reused)"
            )));
        }
        try_reserve(&mut self.aero.zones, 1, "wind zones")?;
        self.aero.zones.push(Some(d));
        Ok(id as u32)
    }

    fn zone_slot(&mut self, zone: u32) -> Result<&mut Option<WindZoneDesc>> {
        let added = self.aero.zones.len();
        match self.aero.zones.get_mut(zone as usize) {
            Some(z @ Some(_)) => Ok(z),
            Some(None) => Err(Error::invalid(format!("wind zone {zone} was removed"))),
            None => Err(Error::out_of_range(format!(
                "wind zone {zone} does not exist ({added} zones were added)"
            ))),
        }
    }

    /// Replaces the settings of wind zone `zone` (move it, gust it, ...).
    pub fn set_wind_zone(&mut self, zone: u32, desc: &WindZoneDesc) -> Result<()> {
        let d = desc.validated()?;
        *self.zone_slot(zone)? = Some(d);
        Ok(())
    }

    /// Removes wind zone `zone`; its id is not reused.
    pub fn remove_wind_zone(&mut self, zone: u32) -> Result<()> {
        *self.zone_slot(zone)? = None;
        Ok(())
    }

    /// The air velocity (m/s) at `position` (m) at the world's current time: the uniform
    /// wind, its turbulence and every zone.
    pub fn wind_at(&self, position: Vec3) -> Result<Vec3> {
        crate::particles::check_vec3("position", 0, position)?;
        Ok(self
            .aero
            .wind_at(position.as_dvec3(), self.aero.time)
            .as_vec3())
    }

    /// Simulated time (s) since the world was created (the turbulence's clock).
    pub fn time(&self) -> f64 {
        self.aero.time
    }

    /// Sets a cloth's or rope's drag and lift coefficients (dimensionless, in [0, 10];
    /// both 0, the default, = no aerodynamics). Cloth: per triangle, drag and lift;
    /// rope: per link, drag on the cylinder of the rope's radius, across the link and
    /// (skin friction, `C_f = C_d / 80`) along it (lift is not used and must be 0). See
    /// `crate::aero` for the forces.
    pub fn set_body_aerodynamics(&mut self, id: BodyId, drag: f32, lift: f32) -> Result<()> {
        check_coefficient("drag", drag)?;
        check_coefficient("lift", lift)?;
        let body = self.bodies.get(id)?;
        match body.kind {
            BodyKind::Cloth => {
                if (drag > 0.0 || lift > 0.0) && self.sets.torn.find(&body.particles).is_some() {
                    return Err(Error::invalid(
                        "a cloth whose tearing is on has no aerodynamics",
                    ));
                }
            }
            BodyKind::Rope => {
                if lift != 0.0 {
                    return Err(Error::invalid(format!(
                        "lift {lift}: a rope has no lift (per-link drag only); pass 0"
                    )));
                }
                if body.radius <= 0.0 && drag > 0.0 {
                    return Err(Error::invalid(
                        "the rope's radius is 0: its links have no cross-section for drag",
                    ));
                }
                if self.aero.surface_mut(id).is_none() {
                    let (particles, radius) = (body.particles.clone(), body.radius);
                    self.aero.reserve_surface()?;
                    self.aero
                        .push_surface(id, particles, Elements::Links(radius));
                }
            }
            _ => {
                return Err(Error::invalid(
                    "only cloth and ropes have aerodynamics (this body is a soft body)",
                ))
            }
        }
        let s = self.aero.surface_mut(id).ok_or_else(|| {
            Error::new(
                crate::error::ErrorKind::InvalidArgument,
                "the cloth has no recorded triangles",
            )
        })?;
        Aero::set_coefficients(s, drag, lift)?;
        self.wake_body_of(id);
        Ok(())
    }

    /// The body's drag and lift coefficients ((0, 0) when it has none).
    pub fn body_aerodynamics(&self, id: BodyId) -> Result<(f32, f32)> {
        self.bodies.get(id)?;
        Ok(self
            .aero
            .surfaces
            .iter()
            .find(|s| s.body == id)
            .map_or((0.0, 0.0), |s| (s.drag, s.lift)))
    }
}

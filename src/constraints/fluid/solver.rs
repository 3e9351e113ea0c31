//! The density solver of Position Based Fluids (Macklin & Müller 2013) with two-way
//! solid coupling (Macklin et al. 2014, section 7).

use super::Fluid;
use crate::constraints::Iteration;
use crate::particles::Particles;
use crate::snapshot::codec::{Reader, Writer};
use crate::snapshot::LoadContext;

/// Neighbour grid, λ and corrections of every fluid of a world.
#[derive(Default)]
pub(crate) struct DensitySolver {}

impl DensitySolver {
    /// One iteration of the density constraints of every live fluid particle.
    pub fn project(
        &mut self,
        _fluids: &mut [Option<Fluid>],
        _particles: &mut Particles,
        _it: &Iteration<'_>,
    ) {
    }

    /// Snapshot: the solver state a readback or the next step uses.
    pub fn save(&self, _w: &mut Writer<'_>) {}

    /// Snapshot: reads what [`Self::save`] wrote.
    pub fn load(&mut self, _r: &mut Reader<'_>, _cx: &LoadContext<'_>) -> crate::error::Result<()> {
        Ok(())
    }
}

//! The render outputs of fluids through [`World`] (src/fluid/render/): per-particle
//! ellipsoids (Yu & Turk 2013) computed on request from the last substep's neighbour
//! grid.

use super::interpolation::{check_alpha, lerp};
use super::World;
use crate::error::Result;
use crate::fluid::render::anisotropy::Kernel;
use crate::fluid::{AnisotropyDesc, FluidEllipsoid, FluidId, FluidSet};

impl World {
    /// Calls `sink(k, ellipsoid)` for the k-th live particle of `fluid`, in the order
    /// of [`World::read_fluid_particles`]: its ellipsoid from its neighbours within the
    /// smoothing radius (`desc`; the maths in src/fluid/render/anisotropy.rs). Computed
    /// now, from the neighbour grid of the last step's last substep and the particles
    /// where they are: it costs nothing in a step. The centre moves with the
    /// particle's interpolated position (`alpha` in [0, 1] as in
    /// [`World::read_interpolated_positions`]). Particles emitted since the last step
    /// see no neighbours until the next. Returns the number of particles.
    pub fn read_fluid_anisotropy(
        &mut self,
        fluid: FluidId,
        desc: &AnisotropyDesc,
        alpha: f32,
        mut sink: impl FnMut(usize, &FluidEllipsoid),
    ) -> Result<u32> {
        desc.validate()?;
        check_alpha(alpha)?;
        let slot = self.fluids.fluid_slot(fluid)?;
        let FluidSet {
            fluids,
            solver,
            render,
            ..
        } = &mut self.fluids;
        let Some(f) = fluids.items()[slot].as_ref() else {
            return Ok(0);
        };
        let kernel = Kernel::new(desc, f.desc.spacing, f.desc.h(), self.plane.z.is_some());
        let grid = solver.grid();
        let p = &self.particles;
        let live = f.live();
        let first = live.start;
        let out = render.ellipsoids(&grid, p, slot as u32, live, &kernel, &self.exec)?;
        for (k, e) in out.iter().enumerate() {
            let i = first + k;
            let shift = lerp(p.step_start[i], p.position(i), alpha) - p.position(i);
            let e = FluidEllipsoid {
                center: e.center + shift,
                axes: e.axes,
            };
            sink(k, &e);
        }
        Ok(f.count)
    }
}

//! The render outputs of fluids through [`World`] (src/fluid/render/): per-particle
//! ellipsoids (Yu & Turk 2013) computed on request from the last substep's neighbour
//! grid, diffuse particles (Ihmsen et al. 2012) with their settings and readback, and
//! a surface mesh built on request (marching tetrahedra over a narrow band).

use super::interpolation::{check_alpha, lerp};
use super::World;
use crate::error::Result;
use crate::fluid::render::anisotropy::Kernel;
use crate::fluid::render::surface::Params;
use crate::fluid::{
    AnisotropyDesc, DiffuseDesc, DiffuseParticle, DiffuseStats, FluidEllipsoid, FluidId, FluidSet,
    FluidSurface, SurfaceCounts, SurfaceDesc,
};

/// How many particles ahead the ellipsoid readback asks for the next ones' slots
/// ([`crate::fluid::render::Ellipsoids::prefetch`]).
const AHEAD: usize = 32;

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
        // One parallel region, as a step runs (`Executor::region`): its passes fork
        // from a worker and the workers stay awake between them.
        let exec = &self.exec;
        let out =
            exec.region(|| render.ellipsoids(&grid, p, slot as u32, live.clone(), &kernel, exec))?;
        let end = live.end;
        for (k, i) in live.enumerate() {
            if i + AHEAD < end {
                out.prefetch(i + AHEAD);
            }
            let mut e = out.get(i);
            // At alpha 1 the centre stays (no centre is −0: the shift would be +0),
            // and the ellipsoid is passed on as it was read, in whole registers (a copy
            // with its centre rewritten compiled to loads that straddled the centre's
            // stores: a stall on every particle).
            if alpha != 1.0 {
                e.center += lerp(p.step_start[i], p.position(i), alpha) - p.position(i);
            }
            sink(k, &e);
        }
        Ok(f.count)
    }
}

impl World {
    /// Sets the diffuse particles of `fluid` (spray, foam and bubbles, Ihmsen et al.
    /// 2012; src/fluid/render/diffuse.rs): room for `desc.capacity` of them is
    /// reserved now (0 removes them), and every later step moves, ages and spawns them
    /// after the fluid's own passes. A new capacity or seed starts them afresh. They
    /// are render state: snapshots do not hold them.
    pub fn set_fluid_diffuse(&mut self, fluid: FluidId, desc: &DiffuseDesc) -> Result<()> {
        desc.validate()?;
        let capacity = self.fluids.fluid(fluid)?.capacity() as usize;
        let slots = self.particles.len();
        let FluidSet { fluids, render, .. } = &mut self.fluids;
        let alive = |id: FluidId| fluids.slot_of(crate::slots::key_bits(id.0)).is_some();
        render.set_diffuse(fluid, desc, capacity, slots, alive)
    }

    /// The diffuse settings of `fluid` (capacity 0 when it has none).
    pub fn fluid_diffuse(&self, fluid: FluidId) -> Result<DiffuseDesc> {
        self.fluids.fluid(fluid)?;
        Ok(self
            .fluids
            .render
            .diffuse_of(fluid)
            .map_or(DiffuseDesc::default(), |d| d.desc))
    }

    /// Counters of the diffuse particles of `fluid` (zeros when it has none).
    pub fn fluid_diffuse_stats(&self, fluid: FluidId) -> Result<DiffuseStats> {
        self.fluids.fluid(fluid)?;
        Ok(self
            .fluids
            .render
            .diffuse_of(fluid)
            .map_or(DiffuseStats::default(), |d| d.stats))
    }

    /// Calls `sink(k, particle)` for each live diffuse particle of `fluid`, as the
    /// last step left them (positions at its end: they are not interpolated). Returns
    /// their number.
    pub fn read_fluid_diffuse(
        &self,
        fluid: FluidId,
        mut sink: impl FnMut(usize, &DiffuseParticle),
    ) -> Result<u32> {
        self.fluids.fluid(fluid)?;
        let Some(d) = self.fluids.render.diffuse_of(fluid) else {
            return Ok(0);
        };
        for (k, p) in d.particles.iter().enumerate() {
            sink(k, p);
        }
        Ok(d.particles.len() as u32)
    }
}

impl World {
    /// Builds the surface mesh of `fluid` (src/fluid/render/surface.rs: marching
    /// tetrahedra over a narrow band of a smooth colour field of its live particles,
    /// shaped by `desc`), replacing the world's last one, and returns its counts; read
    /// it with [`World::fluid_surface`]. Computed now, from the particles at the
    /// positions interpolated by `alpha` in [0, 1] (as
    /// [`World::read_interpolated_positions`]): it costs nothing in a step. Buffers
    /// grow on the first build and when the mesh grows; later builds do not allocate.
    /// An empty fluid has an empty mesh.
    pub fn build_fluid_surface(
        &mut self,
        fluid: FluidId,
        desc: &SurfaceDesc,
        alpha: f32,
    ) -> Result<SurfaceCounts> {
        desc.validate()?;
        check_alpha(alpha)?;
        let f = self.fluids.fluid(fluid)?;
        let params = Params::new(desc, f.desc.spacing, self.plane.z.is_some())?;
        let live = f.live();
        let p = &self.particles;
        let first = live.start;
        let position = |k: usize| {
            let i = first + k;
            lerp(p.step_start[i], p.position(i), alpha)
        };
        let surface = &mut self.fluids.render.surface;
        // One parallel region, as a step runs (`Executor::region`): the build's four
        // parallel passes fork from a worker and the workers stay awake between them
        // and through its serial parts, instead of being woken once per pass.
        let exec = &self.exec;
        let counts = exec.region(|| surface.build(live.len(), position, &params, exec))?;
        surface.fluid = Some(fluid);
        Ok(counts)
    }

    /// The mesh of the last [`World::build_fluid_surface`] of `fluid`: vertex
    /// positions (m), unit outward normals, and indices, three per triangle wound
    /// counter-clockwise seen from outside. Refused when the last build was of another
    /// fluid (or there was none).
    pub fn fluid_surface(&self, fluid: FluidId) -> Result<FluidSurface<'_>> {
        self.fluids.fluid(fluid)?;
        let s = &self.fluids.render.surface;
        if s.fluid != Some(fluid) {
            return Err(crate::Error::invalid(
                "no surface of this fluid was built since the last build of another: build it first",
            ));
        }
        Ok(FluidSurface {
            positions: &s.positions,
            normals: &s.normals,
            indices: &s.indices,
        })
    }
}

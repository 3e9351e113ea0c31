//! What a renderer draws besides the particles: per-particle ellipsoids (Yu & Turk
//! 2013, [`anisotropy`]) and diffuse particles, spray, foam and bubbles (Ihmsen et al.
//! 2012, [`diffuse`]). Both read the fluid's own neighbour grid of the last substep
//! (`DensitySolver::grid`, built by `solver/build.rs`): no search of their own. A
//! query at a position visits the slots of the 3 × 3 × 3 cells of size h around it,
//! reading each slot's particle where it is now (gathered into slot order once per
//! call, [`Gathered`]), so particles that moved since the build, or were moved between
//! slots by a removal, are found where they are.

pub(crate) mod anisotropy;
pub(crate) mod diffuse;
mod eigen;
pub(crate) mod surface;

pub use anisotropy::{AnisotropyDesc, FluidEllipsoid};
pub use diffuse::{DiffuseDesc, DiffuseKind, DiffuseParticle, DiffuseStats};
pub use surface::{FluidSurface, SurfaceCounts, SurfaceDesc};

use super::grid::{cell_of, Layout, Row};
use crate::error::{try_reserve, Result};
use crate::kernels::fluid_pass::{spread_chunk, SlotLists};
use crate::math::{Vec3, Vec3A, Vec4};
use crate::particles::Particles;
use crate::solver::parallel::{Blocks, Executor};

/// Particles per item of the render passes (fixed: results never depend on it).
const CHUNK: usize = 512;

/// The render outputs' buffers, grown on the first request (and when the fluid grew),
/// never in a step that does not ask for them.
#[derive(Default)]
pub(crate) struct RenderState {
    gathered: Gathered,
    /// The ellipsoids in the grid's slot order.
    by_slot: Vec<FluidEllipsoid>,
    /// The diffuse particles of the fluids that have them (by fluid id; an entry whose
    /// fluid was removed is dropped by the next [`Self::set_diffuse`]).
    pub diffuse: Vec<diffuse::Diffuse>,
    /// The surface mesh of the last build and its buffers.
    pub surface: surface::Surface,
}

impl RenderState {
    /// Sets (or, with capacity 0, removes) the diffuse particles of `fluid`: a new
    /// capacity or seed starts them afresh, other settings apply from the next step.
    /// Reserves every buffer of their step (`slots`: the world's particles, which
    /// bound the grid's slots).
    pub(crate) fn set_diffuse(
        &mut self,
        fluid: super::FluidId,
        desc: &DiffuseDesc,
        fluid_capacity: usize,
        slots: usize,
        alive: impl Fn(super::FluidId) -> bool,
    ) -> Result<()> {
        self.diffuse.retain(|d| alive(d.fluid));
        let at = self.diffuse.iter().position(|d| d.fluid == fluid);
        if desc.capacity == 0 {
            if let Some(at) = at {
                self.diffuse.remove(at);
            }
            return Ok(());
        }
        grow(&mut self.gathered.pos, slots, Vec4::ZERO)?;
        grow(&mut self.gathered.vel, slots, Vec4::ZERO)?;
        match at {
            Some(at)
                if self.diffuse[at].desc.capacity == desc.capacity
                    && self.diffuse[at].desc.seed == desc.seed =>
            {
                self.diffuse[at].desc = *desc;
            }
            _ => {
                let d = diffuse::Diffuse::new(fluid, *desc, fluid_capacity, slots)?;
                match at {
                    Some(at) => self.diffuse[at] = d,
                    None => {
                        try_reserve(&mut self.diffuse, 1, "diffuse particles")?;
                        self.diffuse.push(d);
                    }
                }
            }
        }
        Ok(())
    }

    /// The diffuse particles of `fluid`, if it has them.
    pub(crate) fn diffuse_of(&self, fluid: super::FluidId) -> Option<&diffuse::Diffuse> {
        self.diffuse.iter().find(|d| d.fluid == fluid)
    }

    /// One step of every fluid's diffuse particles (the fluid stage's end_step, before
    /// retirement, while every live fluid particle holds its slot of the grid).
    pub(crate) fn step_diffuse(
        &mut self,
        fluids: &crate::slots::SlotMap<super::Fluid, crate::slots::LowestFirst>,
        grid: &GridView<'_>,
        particles: &Particles,
        cx: &crate::pipeline::StepContext<'_>,
    ) -> Result<()> {
        let RenderState {
            gathered, diffuse, ..
        } = self;
        for d in diffuse.iter_mut() {
            let Some(slot) = fluids.slot_of(crate::slots::key_bits(d.fluid.0)) else {
                continue;
            };
            let Some(f) = fluids.items()[slot].as_ref() else {
                continue;
            };
            let live = f.live();
            gathered.gather(grid, particles, (slot as u32, live.clone()), true, cx.exec)?;
            let input = diffuse::StepInput {
                grid,
                live,
                spacing: f.desc.spacing,
                h: f.desc.h(),
                gravity: cx.gravity,
                dt: cx.dt,
                planar: cx.planar,
                exec: cx.exec,
            };
            d.step(gathered, &input)?;
        }
        Ok(())
    }

    /// The ellipsoid of every live particle `live` (world indices, in order) of the
    /// fluid of slot `class`, from the last substep's `grid` and the particles where
    /// they are now: each particle's sums run over its candidates in the grid's fixed
    /// order, so the result does not depend on the thread count. Computed in the grid's
    /// slot order (neighbours near in memory) and read back by particle
    /// ([`Ellipsoids::get`]; a particle the grid does not hold, emitted since, is
    /// computed there).
    pub(crate) fn ellipsoids<'a>(
        &'a mut self,
        grid: &'a GridView<'a>,
        particles: &'a Particles,
        class: u32,
        live: std::ops::Range<usize>,
        kernel: &'a anisotropy::Kernel,
        exec: &Executor,
    ) -> Result<Ellipsoids<'a>> {
        let m = grid.slots();
        grow(&mut self.by_slot, m, FluidEllipsoid::default())?;
        self.gathered
            .gather(grid, particles, (class, live.clone()), false, exec)?;
        let pos = &self.gathered.pos[..m];
        let threads = |n: usize| if n >= 4 * CHUNK { exec.threads() } else { 1 };
        // By the grid's chunks of slots, whose lists the sums run over.
        let chunk = grid.chunk;
        let by_slot = Blocks::new(&mut self.by_slot[..m], chunk);
        let (h2, inv_h) = kernel.reach();
        let simd = crate::kernels::simd::Kernel::detect();
        exec.for_items(threads(m), by_slot, |c, out| {
            let first = c * chunk;
            let ends = &grid.list_end[first..first + out.len()];
            let records = crate::kernels::fluid::records(pos);
            // The particles waiting for their ellipsoids, `BATCH` at a time.
            let mut batch = Batch::default();
            spread_chunk(
                simd,
                h2,
                inv_h,
                records,
                &grid.lists[c],
                ends,
                first,
                |k, s| {
                    // Only the fluid's live particles (w = 1) are read back.
                    if pos[k].w != 0.0 {
                        let x = Vec3A::from_vec4(pos[k]);
                        let s = kernel.slot_sums(s);
                        batch.push(k - first, x, &s, (kernel, simd, grid, out));
                    }
                },
            );
            batch.flush((kernel, simd, grid, out));
        });
        Ok(Ellipsoids {
            by_slot: &self.by_slot[..m],
            pos,
            grid,
            particles,
            kernel,
        })
    }
}

/// Up to [`anisotropy::BATCH`] particles whose ellipsoids go to `out[at[l]]`, their
/// centres and spheres found together (eight lanes to an AVX register where the CPU
/// has AVX), and up to as many of them whose covariances wait for the eigen solve
/// (most of the bulk is drawn as spheres, so the solve runs only on lanes that need
/// it: each lane's operations are its own, so the bits do not depend on the others).
#[derive(Default)]
struct Batch {
    at: [usize; anisotropy::BATCH],
    lanes: anisotropy::Lanes<{ anisotropy::BATCH }>,
    len: usize,
    /// The queue of the eigen solve ([`anisotropy::Prepared`]): where each ellipsoid
    /// goes, its centre (m, absolute), its covariance (units of h², the six entries
    /// of a symmetric 3 × 3, a row of lanes each) and how many lanes are queued.
    solve_at: [usize; anisotropy::BATCH],
    center: [Vec3; anisotropy::BATCH],
    m: eigen::Sym<{ anisotropy::BATCH }>,
    solving: usize,
}

/// What a [`Batch`] writes with: the readback's constants, the SIMD kernel, the grid
/// (its origin) and the chunk's ellipsoids.
type Shaper<'a, 'g> = (
    &'a anisotropy::Kernel,
    crate::kernels::simd::Kernel,
    &'a GridView<'g>,
    &'a mut [FluidEllipsoid],
);

impl Batch {
    /// Adds the particle at `x` (relative to the grid's origin) with the sums `s`; a
    /// full batch is prepared, its spheres written and its other lanes queued for the
    /// eigen solve.
    #[inline(always)]
    fn push(&mut self, at: usize, x: Vec3A, s: &anisotropy::Sums, to: Shaper<'_, '_>) {
        self.at[self.len] = at;
        self.lanes.set(self.len, x, s);
        self.len += 1;
        if self.len == anisotropy::BATCH {
            self.prepare(to);
        }
    }

    /// Prepares what it holds (the lanes past `len` hold copies of the first and are
    /// dropped): writes the spheres, queues the others for the solve (solving a full
    /// queue).
    #[inline(always)]
    fn prepare(&mut self, (kernel, simd, grid, out): Shaper<'_, '_>) {
        if self.len == 0 {
            return;
        }
        for l in self.len..anisotropy::BATCH {
            self.lanes.copy_lane(0, l);
        }
        let p = kernel.prepare_batch(simd, grid.origin, &self.lanes);
        for l in 0..self.len {
            let c = Vec3::new(p.center[0][l], p.center[1][l], p.center[2][l]);
            if p.solve[l] {
                let q = self.solving;
                self.solve_at[q] = self.at[l];
                self.center[q] = c;
                for e in 0..6 {
                    self.m[e][q] = p.m[e][l];
                }
                self.solving += 1;
                if self.solving == anisotropy::BATCH {
                    self.solve((kernel, simd, grid, &mut *out));
                }
            } else {
                out[self.at[l]] = anisotropy::Kernel::sphere(c, p.radius[l]);
            }
        }
        self.len = 0;
    }

    /// Solves the queued covariances and writes their ellipsoids (the lanes past
    /// `solving` hold copies of the first and are dropped).
    #[inline(always)]
    fn solve(&mut self, (kernel, simd, _, out): Shaper<'_, '_>) {
        if self.solving == 0 {
            return;
        }
        for l in self.solving..anisotropy::BATCH {
            self.center[l] = self.center[0];
            for e in 0..6 {
                self.m[e][l] = self.m[e][0];
            }
        }
        let shapes = kernel.solve_batch(simd, &self.center, &self.m);
        for (&at, e) in self.solve_at[..self.solving].iter().zip(shapes) {
            out[at] = e;
        }
        self.solving = 0;
    }

    /// Writes everything it holds.
    #[inline(always)]
    fn flush(&mut self, (kernel, simd, grid, out): Shaper<'_, '_>) {
        self.prepare((kernel, simd, grid, &mut *out));
        self.solve((kernel, simd, grid, out));
    }
}

/// The ellipsoids of one readback ([`RenderState::ellipsoids`]).
pub(crate) struct Ellipsoids<'a> {
    by_slot: &'a [FluidEllipsoid],
    pos: &'a [Vec4],
    grid: &'a GridView<'a>,
    particles: &'a Particles,
    kernel: &'a anisotropy::Kernel,
}

impl Ellipsoids<'_> {
    /// Asks the CPU to fetch what [`Self::get`] of particle `i` reads by slot (its
    /// ellipsoid, its slot's particle and record): the slots of consecutive particles
    /// are scattered, so a reader that asks a few particles ahead overlaps the cache
    /// misses. A hint only: reads nothing the result depends on.
    #[inline]
    pub fn prefetch(&self, i: usize) {
        if let Some(&k) = self.grid.slot_of.get(i) {
            let k = k as usize;
            if k < self.by_slot.len() {
                let e = &self.by_slot[k];
                crate::kernels::fluid::prefetch(e);
                // An ellipsoid (48 bytes) may straddle two cache lines.
                crate::kernels::fluid::prefetch(&e.axes[2]);
                crate::kernels::fluid::prefetch(&self.pos[k]);
                crate::kernels::fluid::prefetch(&self.grid.particle[k]);
            }
        }
    }

    /// The ellipsoid of the live particle `i` (world index): its slot's, or (a
    /// particle the grid does not hold) computed now.
    #[inline]
    pub fn get(&self, i: usize) -> FluidEllipsoid {
        let grid = self.grid;
        match grid.slot(i) {
            Some(s) if self.pos[s].w != 0.0 => self.by_slot[s],
            slot => {
                let x = (self.particles.base[i] - grid.origin)
                    + Vec3A::from_vec4(self.particles.hot[i]);
                self.kernel.ellipsoid(grid, self.pos, (slot, i as u32), x)
            }
        }
    }
}

/// The last substep's neighbour grid (`DensitySolver::grid`).
pub(crate) struct GridView<'a> {
    pub layout: Layout,
    pub rows: &'a [Row],
    /// First slot of each bucket (one more entry at the end).
    pub starts: &'a [u32],
    /// Per slot: its cell at the build, its world particle, its class (the fluid's
    /// slot in `FluidSet::fluids`, or `u32::MAX` for a coupled solid).
    pub cell: &'a [[i32; 3]],
    pub particle: &'a [u32],
    pub class: &'a [u32],
    /// Per world particle, its slot (valid where `particle[slot_of[i]] == i`).
    pub slot_of: &'a [u32],
    /// The end of each slot's list in its chunk's buffer (chunks of `chunk` slots), and
    /// the buffers: the slots within reach at the build (not the slot itself).
    pub list_end: &'a [u32],
    pub lists: &'a [SlotLists],
    pub chunk: usize,
    /// 1 / cell size (1/m).
    pub inv_cell: f32,
    /// Positions of the grid are relative to this point (m).
    pub origin: Vec3A,
}

impl GridView<'_> {
    /// Slots of the grid.
    pub fn slots(&self) -> usize {
        self.particle.len()
    }

    /// The slot of world particle `i`, when the grid holds it.
    #[inline]
    pub fn slot(&self, i: usize) -> Option<usize> {
        let k = *self.slot_of.get(i)? as usize;
        (k < self.particle.len() && self.particle[k] as usize == i).then_some(k)
    }

    /// The slots within reach of slot `k` at the build.
    #[inline]
    pub fn list(&self, k: usize) -> &[u32] {
        let start = if k % self.chunk == 0 {
            0
        } else {
            self.list_end[k - 1] as usize
        };
        &self.lists[k / self.chunk].as_ref()[start..self.list_end[k] as usize]
    }

    /// Calls `f(slot)` for every slot filed in the 27 cells around `x` (relative to
    /// the origin), in a fixed order.
    #[inline]
    pub fn for_candidates(&self, x: Vec3A, mut f: impl FnMut(usize)) {
        let c = cell_of(x.to_array(), self.inv_cell);
        let hashed = self.layout.is_hashed();
        self.layout.for_runs(self.rows, c, |row, b0, b1| {
            let (s0, s1) = (self.starts[b0] as usize, self.starts[b1] as usize);
            for j in s0..s1 {
                if hashed && !self.layout.in_run(c, row, self.cell[j]) {
                    continue;
                }
                f(j);
            }
        });
    }
}

/// One fluid's particles gathered into the grid's slot order as they are now:
/// position relative to the grid's origin with w = 1 for a live particle of the
/// fluid (0 for a solid, another fluid's particle or a slot whose particle has been
/// removed since), and velocity.
#[derive(Default)]
pub(crate) struct Gathered {
    pub pos: Vec<Vec4>,
    pub vel: Vec<Vec4>,
}

impl Gathered {
    /// Gathers the particles `live` (world indices) of the fluid of slot `class`
    /// (velocities only with `velocities`). Grows its buffers only when the grid grew.
    pub fn gather(
        &mut self,
        grid: &GridView<'_>,
        particles: &Particles,
        (class, live): (u32, std::ops::Range<usize>),
        velocities: bool,
        exec: &Executor,
    ) -> Result<()> {
        let m = grid.slots();
        grow(&mut self.pos, m, Vec4::ZERO)?;
        grow(&mut self.vel, m, Vec4::ZERO)?;
        let threads = if m >= 4 * CHUNK { exec.threads() } else { 1 };
        let parts = (
            Blocks::new(&mut self.pos[..m], CHUNK),
            Blocks::new(&mut self.vel[..m], CHUNK),
        );
        let n = particles.len();
        exec.for_items(threads, parts, |c, (pos, vel)| {
            for (j, p) in pos.iter_mut().enumerate() {
                let k = c * CHUNK + j;
                let i = grid.particle[k] as usize;
                if grid.class[k] != class || !live.contains(&i) || i >= n {
                    *p = Vec4::ZERO;
                    continue;
                }
                let x = (particles.base[i] - grid.origin) + Vec3A::from_vec4(particles.hot[i]);
                *p = x.extend(1.0);
                if velocities {
                    vel[j] = particles.velocity[i].extend(0.0);
                }
            }
        });
        Ok(())
    }
}

/// Grows `v` to at least `n` elements of `fill` (only when the grid grew).
pub(crate) fn grow<T: Clone>(v: &mut Vec<T>, n: usize, fill: T) -> Result<()> {
    if v.len() < n {
        let more = n - v.len();
        try_reserve(v, more, "fluid render outputs")?;
        v.resize(n, fill);
    }
    Ok(())
}

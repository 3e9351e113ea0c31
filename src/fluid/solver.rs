//! The density solver of Position Based Fluids (Macklin & Müller 2013) with two-way
//! solid coupling (Macklin et al. 2014, "Unified Particle Physics for Real-Time
//! Applications", section 7).
//!
//! **The constraint** (number-density form, one per live fluid particle i):
//!
//! ```text
//! C_i = max(Σ_j V_j W(x_i − x_j, h_i) − 1, 0)
//! ```
//!
//! over the fluid particles of every fluid and the coupled solid particles within
//! h_i, i itself included, where V_j is the rest volume of j: s³ of its fluid (s² in a
//! planar world) or (2 r_j)³ ((2 r_j)² planar) for a solid of radius r_j. For one
//! fluid this is ρ_i/ρ₀ − 1 with ρ_i = Σ m W (m = ρ₀ V). W is the poly6 kernel,
//! ∇W the spiky gradient (2D normalisations in a planar world: poly6 4/(π h⁸),
//! spiky gradient −30/(π h⁵)). One-sided: an under-dense particle (the free surface)
//! is not pulled in.
//!
//! Gradients: `∇_k C_i = −V_k ∇W(x_i − x_k)` (k ≠ i), `∇_i C_i = Σ_j V_j ∇W(x_i − x_j)`.
//! Corrections are mass-weighted relative to the constraint's owner (Macklin et al.
//! 2014 §7): `w̃_k = m_i / m_k` (1 within one fluid, 0 for a pinned particle, which
//! acts as an immovable wall), so that
//!
//! ```text
//! λ_i  = −C_i / (Σ_k w̃_k |∇_k C_i|² + ε)
//! Δx_k = Σ_i w̃_k λ_i ∇_k C_i
//! ```
//!
//! A solid lighter than the fluid it displaces is pushed up more than the fluid
//! around it is pushed down: buoyancy with no force term of its own. A solid owns no
//! constraint, so between a fluid particle i and a solid k the pair's terms count
//! twice (the solid's pressure mirrored from the fluid's, `λ_k := λ_i`, as the
//! boundary handling of Akinci et al. 2012, "Versatile Rigid-Fluid Coupling for
//! Incompressible SPH"): a fluid particle's own term from a fluid neighbour j is
//! `(λ_i + λ_j)`, and without the mirror a body would get half the push of the fluid
//! it replaces and float too deep (twice as deep at 0.25 ρ₀). Momentum is conserved
//! pair by pair (`m_i Δx_i = −m_k Δx_k`). Between two
//! fluid particles the artificial pressure `s_corr = −k s² (W(r)/W(Δq))ⁿ` (in λ's
//! units, m²) is added to `λ_k + λ_j`, against clumping (as Macklin & Müller 2013).
//! Jacobi within an iteration: every λ from the same positions, then every Δx.
//!
//! **Walls** ([`super::walls`]): each collider contact of a fluid particle i adds the
//! density ρ_wall of the half-space behind it (fluid at rest density) to C_i and its
//! gradient `−A n` to ∇_i C_i (so to the denominator of λ_i); the wall does not move,
//! and i's correction gets `λ_i ∇ρ_wall`. The contacts are copied per slot when the
//! grid is built, as planes `n · x = c` in the slot frame.
//!
//! **Where** (ARCHITECTURE.md, "The step"): the registry entry `fluids`, after the
//! other constraint families, every iteration. The first iteration of a substep (the
//! positions are predicted by then) builds the neighbour grid ([`super::grid`]): the
//! live fluid particles and the coupled solids, sorted by cell, their positions
//! gathered into that slot order, and per slot a compact list of the slots within
//! reach (kept for the substep, as Macklin & Müller do). Each iteration gathers the
//! positions again (colliders moved them), computes every λ, then every Δx and adds it
//! to the particle. Passes run in fixed chunks of slots on any number of threads: each
//! slot's sums run over its list in a fixed order, so the bits never depend on the
//! thread count.
//!
//! **End of substep** (after the velocity update, [`DensitySolver::end_substep`]):
//! XSPH viscosity `v_i += c Σ_j V_j (v_j − v_i) W_ij` over fluid neighbours, and
//! vorticity confinement when `vorticity > 0`: `ω_i = Σ_j V_j (v_i − v_j) × ∇_i W_ij`
//! (the curl ∇ × v; Macklin & Müller 2013 eq. 15 writes it with ∇_j W = −∇_i W),
//! `N = ∇|ω| / |∇|ω||`, the acceleration `ε s |ω_i| (N × ω_i)` (m/s²: the desc's
//! dimensionless ε scaled by the spacing s and |ω|) for the substep h. Cohesion and adhesion follow
//! Akinci et al. 2013, "Versatile Surface Tension and Adhesion for SPH Fluids": the
//! cohesion kernel C(r) between fluid particles (scaled by `K_ij = 2 / (ρ̂_i + ρ̂_j)`,
//! which strengthens it at the under-dense surface; their curvature term, which needs
//! surface normals and one more pass, is left out), the adhesion kernel A(r) towards
//! coupled solids (one-way: the solid is not pulled), both normalised to 1 at their
//! peak, with the dimensionless γ and β scaled to an acceleration: γ = 1 lets one
//! neighbour at the kernel's peak accelerate a particle at s / T² with T = 1/60 s
//! (a spacing per 60 Hz frame per frame; β weighted by the solid's volume over the
//! particle's), the same for any number of substeps.
//!
//! **Body forces**: each coupled solid accumulates `m_k Σ Δx_k` over the iterations
//! of a substep; [`DensitySolver::force_on`] sums a body's and divides by h².

use std::ops::Range;

use super::grid::{cell_of, row_limit, Layout, Row};
use super::kernels::{self, Consts};
use super::walls::WallKernel;
use super::Fluid;
use crate::collision::colliders::Colliders;
use crate::collision::MAX_COLLIDER_CONTACTS;
use crate::error::{try_reserve, Result};
use crate::math::{Vec3, Vec3A, Vec4};
use crate::particles::Particles;
use crate::simd::Kernel;
use crate::snapshot::codec::{self, Reader, Writer};
use crate::snapshot::LoadContext;
use crate::solver::parallel::{DisjointSlice, Executor, REGION_MIN_WORK};

/// Slots per item of a parallel pass (fixed: results never depend on it, only the
/// load balance does).
const SLOT_CHUNK: usize = 512;

/// What one fluid particle costs per iteration, in constraint projections (a density
/// estimate and a correction over some 30 neighbours each): the step runs as a
/// parallel region from [`REGION_MIN_WORK`] of it (`world::step::runs_in_parallel`).
pub(crate) const WORK_PER_PARTICLE: usize = 16;

/// Neighbour entries reserved per slot (lists grow beyond it only when a fluid is
/// compressed far past its rest density).
const LIST_RESERVE: usize = 48;

/// The direction in which coincident particles separate (in the XY plane, so that
/// planar worlds keep it).
const TIE: Vec3A = Vec3A::new(0.6, 0.8, 0.0);

/// 1 / T² (1/s²), T = 1/60 s: cohesion and adhesion of strength 1 accelerate a
/// particle at one spacing / T² per neighbour at the kernel's peak.
const PULL_RATE2: f32 = 3600.0;

/// The class of a solid slot (fluid slots hold their fluid's slot index).
const SOLID: u32 = u32::MAX;

/// Kernel constants and settings of one fluid for the current step.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub(crate) struct Params {
    /// Smoothing radius (m) and its square.
    h: f32,
    h2: f32,
    /// poly6 normalisation: W(r) = poly6 (h² − r²)³.
    poly6: f32,
    /// Spiky gradient factor (negative): ∇W(d) = grad (h − r)² d / r.
    grad: f32,
    /// Particle spacing (m).
    spacing: f32,
    /// Particle rest volume (m³, m² planar) and mass (kg).
    volume: f32,
    mass: f32,
    /// Relaxation ε (m⁻²).
    epsilon: f32,
    /// −k s² (m²), n, 1 / W(Δq).
    scorr: f32,
    scorr_n: u32,
    inv_w_dq: f32,
    viscosity: f32,
    /// ε_v = vorticity · s (m).
    vorticity: f32,
    cohesion: f32,
    adhesion: f32,
    coupling_mask: u32,
    /// The density and gradient the colliders lend (`super::walls`).
    wall: WallKernel,
}

impl Params {
    fn new(f: &Fluid, planar: bool) -> Params {
        let d = &f.desc;
        let h = d.h();
        let h2 = h * h;
        let s = d.spacing;
        let pi = std::f32::consts::PI;
        let (poly6, grad, volume) = if planar {
            (4.0 / (pi * h.powi(8)), -30.0 / (pi * h.powi(5)), s * s)
        } else {
            (
                315.0 / (64.0 * pi * h.powi(9)),
                -45.0 / (pi * h.powi(6)),
                s * s * s,
            )
        };
        let dq = d.scorr_dq * h;
        let q = h2 - dq * dq;
        let w_dq = poly6 * q * q * q;
        let mass = d.rest_density * volume;
        Params {
            h,
            h2,
            poly6,
            grad,
            spacing: s,
            volume,
            mass,
            epsilon: d.epsilon(),
            scorr: -d.scorr_k * s * s,
            scorr_n: d.scorr_n,
            inv_w_dq: 1.0 / w_dq,
            viscosity: d.viscosity,
            vorticity: d.vorticity * s,
            cohesion: d.cohesion,
            adhesion: d.adhesion,
            coupling_mask: d.coupling_mask,
            wall: WallKernel::new(h, planar),
        }
    }

    /// The constants of the one-fluid loops (`kernels`).
    fn consts(&self) -> Consts {
        Consts {
            h: self.h,
            h2: self.h2,
            grad: self.grad,
            tie: self.grad * self.h2,
            scorr: self.scorr,
            scorr_x: self.poly6 * self.inv_w_dq,
            scorr_n: self.scorr_n,
        }
    }

    /// s_corr (m²) of a fluid pair at squared distance `r2` < h².
    #[inline(always)]
    fn scorr(&self, r2: f32) -> f32 {
        let q = self.h2 - r2;
        let x = self.poly6 * q * q * q * self.inv_w_dq;
        let mut p = x;
        for _ in 1..self.scorr_n {
            p *= x;
        }
        self.scorr * p
    }

    /// ∇W(d) of slot k's pair with slot j at d = x_k − x_j (|d|² = r2), 0 beyond h.
    /// Coincident particles (d = 0, e.g. pressed into a corner of two collider planes)
    /// take the kernel's limit along a fixed direction, opposite for the two (by slot
    /// order), so that the density constraint separates them instead of leaving them
    /// stuck together for good.
    #[inline(always)]
    fn gradient(&self, d: Vec3A, r2: f32, k: usize, j: usize) -> Vec3A {
        let r = r2.sqrt();
        if r > 0.0 {
            if r < self.h {
                let t = self.h - r;
                d * (self.grad * t * t / r)
            } else {
                Vec3A::ZERO
            }
        } else {
            let u = if k > j { TIE } else { -TIE };
            u * (self.grad * self.h2)
        }
    }

    /// The spiky gradient factor g(r) with ∇W(d) = g d (0 at r = 0, where d has no
    /// direction, and beyond h).
    #[inline(always)]
    fn grad_factor(&self, r2: f32) -> f32 {
        let r = r2.sqrt();
        if r > 0.0 && r < self.h {
            let t = self.h - r;
            self.grad * t * t / r
        } else {
            0.0
        }
    }
}

/// Neighbour grid, λ and corrections of every fluid of a world.
#[derive(Default)]
pub(crate) struct DensitySolver {
    /// Whether a fluid has live particles this step ([`Self::prepare`]).
    active: bool,
    /// Whether the world is planar this step (2D kernels and volumes).
    planar: bool,
    /// Per fluid slot, the step's constants.
    params: Vec<Params>,
    /// Whether every slot of this step is of one fluid (no solids): the fast passes.
    uniform: bool,
    /// Coupled solid particles of this step (ascending), and the bodies whose coupling
    /// is off (particle ranges, ascending by start).
    solids: Vec<u32>,
    uncoupled: Vec<Range<u32>>,
    /// Per world particle: m Σ Δx (kg·m) of the last substep (coupled solids only).
    force: Vec<Vec3>,
    /// Whether `force` may hold non-zero entries.
    force_dirty: bool,
    /// Per input particle (fluids in slot order, then solids): world index, class,
    /// cell.
    src: Vec<u32>,
    src_class: Vec<u32>,
    src_cell: Vec<[i32; 3]>,
    src_bucket: Vec<u32>,
    /// Per chunk of inputs: the box of their cells (lowest, highest).
    chunk_box: Vec<([i32; 3], [i32; 3])>,
    /// Grid of the substep, and the rows of its rows layout.
    layout: Layout,
    rows: Vec<Row>,
    inv_cell: f32,
    /// Position origin (m) of the substep: positions are stored relative to it.
    origin: Vec3A,
    bucket_start: Vec<u32>,
    /// Per slot (cell order): input index, world particle, position relative to the
    /// origin with the rest volume in w, class, inverse mass, cell, λ, ρ̂ and the
    /// solids' collision layers.
    order: Vec<u32>,
    particle: Vec<u32>,
    pos: Vec<Vec4>,
    class: Vec<u32>,
    inv_mass: Vec<f32>,
    cell: Vec<[i32; 3]>,
    layers: Vec<u32>,
    lambda: Vec<f32>,
    ratio: Vec<f32>,
    /// One fluid, no solids: `(x, y, z, λ)` per slot (the correction pass's records),
    /// and the positions one array per coordinate, padded by 8 (the build's scans).
    rec: Vec<Vec4>,
    xs: Vec<f32>,
    ys: Vec<f32>,
    zs: Vec<f32>,
    /// The fluid slot of the uniform case, and the SIMD choice of its loops.
    uniform_class: usize,
    kernel: Kernel,
    /// End of slot k's list in its chunk's buffer (the start is the previous slot's
    /// end, or 0 at the chunk's first slot).
    list_end: Vec<u32>,
    lists: Vec<Vec<u32>>,
    /// One fluid: each listed pair's gradient factor and s_corr from the density pass
    /// of the iteration, for its correction pass (`kernels`' pair layout; slot k's at
    /// [`pair_start`]), and whether slot k's list holds a coincident pair.
    factors: Vec<Vec<f32>>,
    ties: Vec<u8>,
    /// Per fluid slot, the collider surfaces near it this substep (`super::walls`):
    /// `(n, c)` with the slot's distance `n · x − c` (m, x relative to the origin),
    /// at most `MAX_COLLIDER_CONTACTS` per slot, ending at `wall_end` as the lists do.
    wall_end: Vec<u32>,
    walls: Vec<Vec<Vec4>>,
    /// End-of-substep scratch: velocities and vorticity / normals per slot.
    vel: Vec<Vec4>,
    omega: Vec<Vec4>,
}

/// Mutable views of the slot arrays for one pass.
struct Views<'a> {
    pos: DisjointSlice<'a, Vec4>,
    inv_mass: DisjointSlice<'a, f32>,
    lambda: DisjointSlice<'a, f32>,
    ratio: DisjointSlice<'a, f32>,
}

impl DensitySolver {
    /// Whether the fluid passes run this step.
    pub fn is_active(&self) -> bool {
        self.active
    }

    /// Work of one iteration in constraint projections (for the parallel region).
    pub fn work(&self, fluids: &[Option<Fluid>]) -> usize {
        let live: usize = fluids.iter().flatten().map(|f| f.count as usize).sum();
        live * WORK_PER_PARTICLE
    }

    /// Turns the coupling of the particles `range` (a body) on or off.
    pub fn set_coupling(&mut self, range: Range<u32>, enabled: bool) -> Result<()> {
        if enabled {
            self.uncoupled.retain(|r| *r != range);
            return Ok(());
        }
        if self.uncoupled.contains(&range) {
            return Ok(());
        }
        try_reserve(&mut self.uncoupled, 1, "fluid coupling switches")?;
        let at = self.uncoupled.partition_point(|r| r.start < range.start);
        self.uncoupled.insert(at, range);
        Ok(())
    }

    /// Σ m Δx / h² (N) over the particles `range` from the last substep of length `h`.
    pub fn force_on(&self, range: Range<u32>, h: f32) -> Vec3 {
        if h <= 0.0 {
            return Vec3::ZERO;
        }
        let end = (range.end as usize).min(self.force.len());
        let start = (range.start as usize).min(end);
        let sum: Vec3 = self.force[start..end].iter().copied().sum();
        sum / (h * h)
    }

    /// Start of a step (outside the step's timed passes, before anything moves):
    /// the constants of every fluid, the coupled solids, and room for every buffer of
    /// the step (grown only when the world grew, so the step does not allocate).
    pub fn prepare(
        &mut self,
        fluids: &[Option<Fluid>],
        particles: &Particles,
        planar: Option<f32>,
    ) -> Result<()> {
        self.active = fluids.iter().flatten().any(|f| f.count > 0);
        self.planar = planar.is_some();
        if !self.active && self.force_dirty {
            self.force.iter_mut().for_each(|f| *f = Vec3::ZERO);
            self.force_dirty = false;
        }
        // Sized for every fluid's capacity even while none has live particles, so
        // that an emitter's first particles do not allocate inside `step`.
        if fluids.iter().flatten().next().is_none() {
            return Ok(());
        }
        let what = "fluid solver";
        let n = particles.len();
        resize_to(&mut self.params, fluids.len(), Params::default())?;
        resize_to(&mut self.force, n, Vec3::ZERO)?;
        reserve_to(&mut self.solids, n)?;
        let mut union = 0u32;
        let mut capacity = 0usize;
        let mut classes = 0;
        for (k, f) in fluids.iter().enumerate() {
            if let Some(f) = f {
                self.params[k] = Params::new(f, planar.is_some());
                union |= f.desc.coupling_mask;
                capacity += f.desc.capacity as usize;
                classes += usize::from(f.count > 0);
            }
        }
        // Coupled solids: a radius, a layer some fluid couples with, not a fluid's own
        // particle, not switched off.
        self.solids.clear();
        if union != 0 {
            let mut fluid_ranges = fluids
                .iter()
                .flatten()
                .map(|f| f.first..f.first + f.desc.capacity);
            let mut next_fluid = fluid_ranges.next();
            let mut u = 0usize;
            for i in 0..n as u32 {
                while next_fluid.as_ref().is_some_and(|r| r.end <= i) {
                    next_fluid = fluid_ranges.next();
                }
                if next_fluid.as_ref().is_some_and(|r| r.contains(&i)) {
                    continue;
                }
                let iu = i as usize;
                if particles.radius[iu] <= 0.0 || particles.filter[iu].layers & union == 0 {
                    continue;
                }
                while u < self.uncoupled.len() && self.uncoupled[u].end <= i {
                    u += 1;
                }
                if u < self.uncoupled.len() && self.uncoupled[u].contains(&i) {
                    continue;
                }
                self.solids.push(i);
            }
        }
        // The walk above needs the fluids' ranges ascending with their slots (as
        // they are unless a slot was reused); otherwise a plain test per solid.
        if !ascending(fluids) {
            let inside = |i: u32| {
                fluids
                    .iter()
                    .flatten()
                    .any(|f| (f.first..f.first + f.desc.capacity).contains(&i))
            };
            self.solids.retain(|&i| !inside(i));
        }
        self.uniform = classes == 1 && self.solids.is_empty();
        self.uniform_class = fluids
            .iter()
            .position(|f| f.as_ref().is_some_and(|f| f.count > 0))
            .unwrap_or(0);
        self.kernel = Kernel::detect();
        let m = capacity + self.solids.len();
        reserve_to(&mut self.src, m)?;
        reserve_to(&mut self.src_class, m)?;
        resize_to(&mut self.src_cell, m, [0; 3])?;
        resize_to(&mut self.src_bucket, m, 0)?;
        resize_to(
            &mut self.chunk_box,
            m.div_ceil(SLOT_CHUNK),
            ([0; 3], [0; 3]),
        )?;
        for v in [
            &mut self.order,
            &mut self.particle,
            &mut self.class,
            &mut self.layers,
            &mut self.list_end,
            &mut self.wall_end,
        ] {
            resize_to(v, m, 0)?;
        }
        for v in [&mut self.inv_mass, &mut self.lambda, &mut self.ratio] {
            resize_to(v, m, 0.0)?;
        }
        resize_to(&mut self.ties, m, 0)?;
        resize_to(&mut self.pos, m, Vec4::ZERO)?;
        resize_to(&mut self.rec, m, Vec4::ZERO)?;
        for v in [&mut self.xs, &mut self.ys, &mut self.zs] {
            resize_to(v, m + 8, 0.0)?;
        }
        resize_to(&mut self.omega, m, Vec4::ZERO)?;
        resize_to(&mut self.vel, m, Vec4::ZERO)?;
        resize_to(&mut self.cell, m, [0; 3])?;
        // The grid table: at most DENSE_PER_PARTICLE buckets per particle + 1024, or
        // the hashed table (2 per particle, a power of two); room for the larger.
        let table = (8 * m + 1024 + 1).max((2 * m).next_power_of_two().max(64) + 1);
        resize_to(&mut self.bucket_start, table, 0)?;
        resize_to(&mut self.rows, row_limit(m), Row::default())?;
        let chunks = m.div_ceil(SLOT_CHUNK);
        if self.lists.len() < chunks {
            let grow = chunks - self.lists.len();
            try_reserve(&mut self.lists, grow, what)?;
            self.lists.resize_with(chunks, Vec::new);
        }
        if self.factors.len() < chunks {
            let grow = chunks - self.factors.len();
            try_reserve(&mut self.factors, grow, what)?;
            self.factors.resize_with(chunks, Vec::new);
        }
        if self.walls.len() < chunks {
            let grow = chunks - self.walls.len();
            try_reserve(&mut self.walls, grow, what)?;
            self.walls.resize_with(chunks, Vec::new);
        }
        for c in 0..chunks {
            let want = LIST_RESERVE * SLOT_CHUNK.min(m - c * SLOT_CHUNK);
            reserve_to(&mut self.lists[c], want)?;
            reserve_to(&mut self.factors[c], 2 * want + 16 * SLOT_CHUNK)?;
            let slots = SLOT_CHUNK.min(m - c * SLOT_CHUNK);
            reserve_to(&mut self.walls[c], MAX_COLLIDER_CONTACTS * slots)?;
        }
        Ok(())
    }

    /// Threads of the solver's passes over `m` slots.
    fn threads(exec: &Executor, m: usize) -> usize {
        if m * WORK_PER_PARTICLE >= REGION_MIN_WORK {
            exec.threads()
        } else {
            1
        }
    }

    /// One iteration of the density constraints of every live fluid particle (`first`:
    /// the first iteration of the substep, which builds the neighbour grid and the
    /// walls near each particle from `colliders`).
    pub fn project(
        &mut self,
        fluids: &mut [Option<Fluid>],
        particles: &mut Particles,
        first: bool,
        colliders: &Colliders,
        exec: &Executor,
    ) {
        if !self.active {
            return;
        }
        if first {
            self.build(fluids, particles, colliders, exec);
        }
        let m = self.src.len();
        if m == 0 {
            return;
        }
        let threads = Self::threads(exec, m);
        let chunks = m.div_ceil(SLOT_CHUNK);
        let uniform = self.uniform;
        let this = &mut *self;
        let views = Views {
            pos: DisjointSlice::new(&mut this.pos[..m]),
            inv_mass: DisjointSlice::new(&mut this.inv_mass[..m]),
            lambda: DisjointSlice::new(&mut this.lambda[..m]),
            ratio: DisjointSlice::new(&mut this.ratio[..m]),
        };
        let force = DisjointSlice::new(&mut this.force[..]);
        let rec = DisjointSlice::new(&mut this.rec[..m]);
        let (kernel, uniform_class) = (this.kernel, this.uniform_class);
        let consts = this.params[uniform_class].consts();
        let (params, class, particle) = (&this.params, &this.class[..m], &this.particle[..m]);
        let (list_end, lists) = (&this.list_end[..m], &this.lists);
        let (wall_end, walls) = (&this.wall_end[..m], &this.walls);
        let factors = ChunkPtr(this.factors.as_mut_ptr());
        let ties = DisjointSlice::new(&mut this.ties[..m]);
        let origin = this.origin;
        let (hot, base) = (DisjointSlice::new(&mut particles.hot), &particles.base[..]);
        let pass = UniformPass {
            kernel,
            consts,
            prm: &params[uniform_class],
            list_end,
            lists,
            wall_end,
            walls,
            factors: &factors,
            ties: &ties,
            pos: &views.pos,
            ratio: &views.ratio,
            rec: &rec,
            particle,
            base,
        };
        let plan = [chunks, chunks, chunks];
        exec.stages(threads, &plan[..], |stage, c| {
            let slots = c * SLOT_CHUNK..((c + 1) * SLOT_CHUNK).min(m);
            match stage {
                // Positions of this iteration (the build gathered the first ones).
                0 => {
                    if !first {
                        let end = slots.end;
                        for k in slots {
                            prefetch_particle(hot.as_ptr(), base, particle, k + PREFETCH, end);
                            let p = particle[k] as usize;
                            // SAFETY: slot k is this item's; particle p is read only
                            // (hot is written in stage 2, after this stage).
                            unsafe {
                                let h = hot.get(p);
                                let x = (base[p] - origin) + Vec3A::from_vec4(h);
                                let v = views.pos.get(k).w;
                                views.pos.set(k, x.extend(v));
                                views.inv_mass.set(k, h.w);
                            }
                        }
                    }
                }
                1 => {
                    if uniform {
                        // SAFETY: stage 1 reads every slot's position (written in
                        // stage 0) and writes its own slots' records, ρ̂, ties and
                        // pair buffers (chunk c's).
                        unsafe { pass.density(c, slots) };
                        return;
                    }
                    for k in slots {
                        let list = list_of(list_end, lists, k);
                        let cl = class[k];
                        if cl == SOLID {
                            // SAFETY: slot k is this item's.
                            unsafe { views.lambda.set(k, 0.0) };
                            continue;
                        }
                        let prm = &params[cl as usize];
                        let near = list_of(wall_end, walls, k);
                        // SAFETY: stage 1 reads positions (written in stage 0) and
                        // writes its own slots' λ and ρ̂.
                        let (l, rho) =
                            unsafe { lambda_general(&views, params, class, prm, k, list, near) };
                        // SAFETY: slot k is this item's.
                        unsafe {
                            views.lambda.set(k, l);
                            views.ratio.set(k, rho);
                        }
                    }
                }
                _ => {
                    if uniform {
                        // SAFETY: stage 2 reads every slot's λ and position (written
                        // in the stages before) and writes its own slots' particles.
                        unsafe { pass.correction(c, slots, &hot) };
                        return;
                    }
                    let end = slots.end;
                    for k in slots {
                        prefetch_particle(hot.as_ptr(), base, particle, k + PREFETCH, end);
                        let list = list_of(list_end, lists, k);
                        // SAFETY: stage 2 reads every slot's λ and position (written
                        // in the stages before) and writes its own particle.
                        unsafe {
                            let near = list_of(wall_end, walls, k);
                            let dx = delta_general(&views, params, class, k, list, near);
                            let p = particle[k] as usize;
                            let h = hot.get(p);
                            hot.set(p, (Vec3A::from_vec4(h) + dx).extend(h.w));
                            if class[k] == SOLID && h.w > 0.0 {
                                force.set(p, force.get(p) + Vec3::from(dx) / h.w);
                            }
                        }
                    }
                }
            }
        });
    }

    /// The grid and the neighbour lists of a substep, from the predicted positions.
    fn build(
        &mut self,
        fluids: &[Option<Fluid>],
        particles: &Particles,
        colliders: &Colliders,
        exec: &Executor,
    ) {
        // The input: live fluid particles (fluids in slot order), then the solids.
        self.src.clear();
        self.src_class.clear();
        for (k, f) in fluids.iter().enumerate() {
            if let Some(f) = f {
                self.src.extend(f.first..f.first + f.count);
                self.src_class
                    .extend(std::iter::repeat_n(k as u32, f.count as usize));
            }
        }
        for &i in &self.solids {
            self.src.push(i);
            self.src_class.push(SOLID);
        }
        // Their solid forces start again.
        for &i in &self.solids {
            self.force[i as usize] = Vec3::ZERO;
        }
        self.force_dirty = !self.solids.is_empty();
        let m = self.src.len();
        if m == 0 {
            self.layout = Layout::Empty;
            return;
        }
        // The largest h of the fluids with live particles (the classes of the input).
        let h_max = fluids
            .iter()
            .enumerate()
            .filter(|(_, f)| f.as_ref().is_some_and(|f| f.count > 0))
            .fold(0.0f32, |a, (c, _)| a.max(self.params[c].h));
        self.inv_cell = 1.0 / h_max;
        let p0 = self.src[0] as usize;
        self.origin = particles.base[p0];
        let origin = self.origin;
        let position = |i: usize| -> Vec3 {
            ((particles.base[i] - origin) + Vec3A::from_vec4(particles.hot[i])).into()
        };
        // Cells and their box (parallel per chunk; min and max do not depend on the
        // order), then the buckets.
        let threads = Self::threads(exec, m);
        let chunks = m.div_ceil(SLOT_CHUNK);
        let inv_cell = self.inv_cell;
        {
            let src = &self.src[..m];
            let cells = DisjointSlice::new(&mut self.src_cell[..m]);
            let boxes = DisjointSlice::new(&mut self.chunk_box[..chunks]);
            exec.stages(threads, &[chunks][..], |_, c| {
                let (mut lo, mut hi) = ([i32::MAX; 3], [i32::MIN; 3]);
                let first = c * SLOT_CHUNK;
                let end = (first + SLOT_CHUNK).min(m);
                for (a, &i) in src[first..end].iter().enumerate() {
                    let a = first + a;
                    let cell = cell_of(position(i as usize).to_array(), inv_cell);
                    for d in 0..3 {
                        lo[d] = lo[d].min(cell[d]);
                        hi[d] = hi[d].max(cell[d]);
                    }
                    // SAFETY: input a and chunk c are this item's.
                    unsafe { cells.set(a, cell) };
                }
                // SAFETY: as above.
                unsafe { boxes.set(c, (lo, hi)) };
            });
        }
        let (mut lo, mut hi) = ([i32::MAX; 3], [i32::MIN; 3]);
        for (l, h) in &self.chunk_box[..chunks] {
            for d in 0..3 {
                lo[d] = lo[d].min(l[d]);
                hi[d] = hi[d].max(h[d]);
            }
        }
        let (layout, table) = Layout::choose(m, lo, hi, &self.src_cell[..m], &mut self.rows);
        self.layout = layout;
        {
            let (cells, rows) = (&self.src_cell[..m], &self.rows[..]);
            let buckets = DisjointSlice::new(&mut self.src_bucket[..m]);
            exec.stages(threads, &[chunks][..], |_, c| {
                let first = c * SLOT_CHUNK;
                let end = (first + SLOT_CHUNK).min(m);
                for (a, &cell) in cells[first..end].iter().enumerate() {
                    // SAFETY: input first + a is this item's.
                    unsafe { buckets.set(first + a, layout.bucket(rows, cell)) };
                }
            });
        }
        // Counting sort by bucket (stable).
        // The counts, their running sums (the end of each bucket), then the inputs
        // placed from the last, each just below its bucket's end, which moves down:
        // every entry ends at the start of its bucket.
        let starts = &mut self.bucket_start[..table + 1];
        starts.fill(0);
        for &b in &self.src_bucket[..m] {
            starts[b as usize] += 1;
        }
        let mut sum = 0;
        for s in &mut starts[..table] {
            sum += *s;
            *s = sum;
        }
        for (a, &b) in self.src_bucket[..m].iter().enumerate().rev() {
            let b = b as usize;
            starts[b] -= 1;
            self.order[starts[b] as usize] = a as u32;
        }
        starts[table] = m as u32;
        // Gather into slot order, then the lists (parallel, per chunk of slots).
        let this = &mut *self;
        let (src, src_class, order) = (&this.src[..m], &this.src_class[..m], &this.order[..m]);
        let params = &this.params;
        let particle = DisjointSlice::new(&mut this.particle[..m]);
        let pos = DisjointSlice::new(&mut this.pos[..m]);
        let class = DisjointSlice::new(&mut this.class[..m]);
        let inv_mass = DisjointSlice::new(&mut this.inv_mass[..m]);
        let cell = DisjointSlice::new(&mut this.cell[..m]);
        let layers = DisjointSlice::new(&mut this.layers[..m]);
        let xs = DisjointSlice::new(&mut this.xs[..m + 8]);
        let ys = DisjointSlice::new(&mut this.ys[..m + 8]);
        let zs = DisjointSlice::new(&mut this.zs[..m + 8]);
        let kernel = this.kernel;
        let scan_kernel = kernels::ScanKernel::of(kernel);
        let list_end = DisjointSlice::new(&mut this.list_end[..m]);
        let lists = ChunkPtr(this.lists[..chunks].as_mut_ptr());
        let factors = ChunkPtr(this.factors[..chunks].as_mut_ptr());
        let wall_end = DisjointSlice::new(&mut this.wall_end[..m]);
        let walls = ChunkPtr(this.walls[..chunks].as_mut_ptr());
        let starts = &this.bucket_start[..table + 1];
        let rows = &this.rows[..];
        let planar = this.planar;
        let uniform = this.uniform;
        let plan = [chunks, chunks];
        exec.stages(threads, &plan[..], |stage, c| {
            let slots = c * SLOT_CHUNK..((c + 1) * SLOT_CHUNK).min(m);
            if stage == 0 {
                // SAFETY: chunk c's buffer is this item's alone.
                let wbuf = unsafe { walls.chunk(c) };
                wbuf.clear();
                let end = slots.end;
                for k in slots {
                    // The inputs run in world order, the slots in cell order: a miss
                    // per slot without the prefetch.
                    if k + PREFETCH < end {
                        let ahead = order[k + PREFETCH] as usize;
                        prefetch_particle(particles.hot.as_ptr(), &particles.base, src, ahead, m);
                    }
                    let a = order[k] as usize;
                    let i = src[a] as usize;
                    let cl = src_class[a];
                    let v = if cl == SOLID {
                        // A solid's rest volume: a cube of its diameter.
                        let d = 2.0 * particles.radius[i];
                        if planar {
                            d * d
                        } else {
                            d * d * d
                        }
                    } else {
                        params[cl as usize].volume
                    };
                    let h = particles.hot[i];
                    let x = (particles.base[i] - origin) + Vec3A::from_vec4(h);
                    // SAFETY: slot k is this item's.
                    unsafe {
                        xs.set(k, x.x);
                        ys.set(k, x.y);
                        zs.set(k, x.z);
                        particle.set(k, i as u32);
                        pos.set(k, x.extend(v));
                        class.set(k, cl);
                        inv_mass.set(k, h.w);
                        // The input's cell again (the same arithmetic on the same
                        // position) rather than one more random read.
                        cell.set(k, cell_of(x.to_array(), inv_cell));
                        if !uniform {
                            // Read by the general lists only (a solid's coupling).
                            layers.set(k, particles.filter[i].layers);
                        }
                    }
                    if cl != SOLID {
                        // The surfaces near it, in the slot frame: the distance of x is
                        // n·(x − (base − origin)) − (offset − r).
                        let b = particles.base[i] - origin;
                        let r = particles.radius[i];
                        for (n, offset) in colliders.surfaces(i) {
                            let n = Vec3A::from(n);
                            wbuf.push(n.extend(n.dot(b) + (offset - r)));
                        }
                    }
                    // SAFETY: slot k is this item's.
                    unsafe { wall_end.set(k, wbuf.len() as u32) };
                }
                return;
            }
            // SAFETY: chunk c's buffer is this item's alone.
            let buf = unsafe { lists.chunk(c) };
            buf.clear();
            // The slot ranges of the 9 runs around the last slot's cell: the slots of
            // one cell are consecutive (dense and rows layouts), so they share them.
            let mut runs = [[0u32; 2]; 9];
            let (mut runs_len, mut runs_cell) = (0, None);
            for k in slots {
                // SAFETY: stage 1 reads what stage 0 wrote, and writes its own slots.
                unsafe {
                    let pk = pos.get(k);
                    let ck = cell.get(k);
                    let clk = class.get(k);
                    let hashed = layout.is_hashed();
                    if uniform {
                        let h2 = params[clk as usize].h2;
                        let p = [pk.x, pk.y, pk.z];
                        let (xs, ys, zs) = (coords(&xs), coords(&ys), coords(&zs));
                        if !hashed {
                            // The slot ranges of the 9 runs, scanned in one call.
                            if runs_cell != Some(ck) {
                                let mut n = 0;
                                layout.for_runs(rows, ck, |_, b0, b1| {
                                    runs[n] = [starts[b0], starts[b1]];
                                    n += 1;
                                });
                                (runs_len, runs_cell) = (n, Some(ck));
                            }
                            let runs = &runs[..runs_len];
                            kernels::scan_runs(scan_kernel, p, h2, xs, ys, zs, k, runs, buf);
                            list_end.set(k, buf.len() as u32);
                            continue;
                        }
                        layout.for_runs(rows, ck, |row, b0, b1| {
                            let run = [starts[b0], starts[b1]];
                            let from = buf.len();
                            kernels::scan_runs(scan_kernel, p, h2, xs, ys, zs, k, &[run], buf);
                            if hashed {
                                // A bucket also holds cells of other rows: each hit
                                // counts in the run of its own row only.
                                let mut keep = from;
                                for t in from..buf.len() {
                                    let j = buf[t];
                                    if layout.in_run(ck, row, cell.get(j as usize)) {
                                        buf[keep] = j;
                                        keep += 1;
                                    }
                                }
                                buf.truncate(keep);
                            }
                        });
                    } else {
                        let lk = layers.get(k);
                        layout.for_runs(rows, ck, |row, b0, b1| {
                            let (s0, s1) = (starts[b0] as usize, starts[b1] as usize);
                            for j in s0..s1 {
                                if j == k || (hashed && !layout.in_run(ck, row, cell.get(j))) {
                                    continue;
                                }
                                let clj = class.get(j);
                                let reach2 = match (clk == SOLID, clj == SOLID) {
                                    (true, true) => continue,
                                    (true, false) => {
                                        let pj = &params[clj as usize];
                                        if pj.coupling_mask & lk == 0 {
                                            continue;
                                        }
                                        pj.h2
                                    }
                                    (false, true) => {
                                        let pk = &params[clk as usize];
                                        if pk.coupling_mask & layers.get(j) == 0 {
                                            continue;
                                        }
                                        pk.h2
                                    }
                                    (false, false) => {
                                        params[clk as usize].h2.max(params[clj as usize].h2)
                                    }
                                };
                                let d = pk - pos.get(j);
                                let r2 = d.x * d.x + d.y * d.y + d.z * d.z;
                                if r2 < reach2 {
                                    buf.push(j as u32);
                                }
                            }
                        });
                    }
                    list_end.set(k, buf.len() as u32);
                }
            }
            if uniform {
                // Room for the pair buffers of the chunk's lists, whole blocks of 8
                // each ([`pair_start`]).
                // SAFETY: chunk c's buffer is this item's alone.
                // Only grown: the density pass writes every pair's entries before the
                // correction pass reads them, so the old values need no clearing.
                let f = unsafe { factors.chunk(c) };
                let room = 2 * buf.len() + 16 * SLOT_CHUNK;
                if f.len() < room {
                    f.resize(room, 0.0);
                }
            }
        });
    }

    /// End of a substep of length `h` (s), after the velocity update: XSPH viscosity,
    /// vorticity confinement, cohesion and adhesion (see the module doc).
    pub fn end_substep(
        &mut self,
        fluids: &[Option<Fluid>],
        particles: &mut Particles,
        h: f32,
        exec: &Executor,
    ) {
        let _ = fluids;
        if !self.active {
            return;
        }
        let m = self.src.len();
        if m == 0 {
            return;
        }
        let fluid_slots = m - self.solids.len();
        let any = |f: fn(&Params) -> f32| {
            self.params
                .iter()
                .take(fluids.len())
                .enumerate()
                .any(|(k, p)| fluids[k].as_ref().is_some_and(|f| f.count > 0) && f(p) > 0.0)
        };
        let (viscous, vortical) = (any(|p| p.viscosity), any(|p| p.vorticity));
        let (cohesive, adhesive) = (any(|p| p.cohesion), any(|p| p.adhesion));
        if !(viscous || vortical || cohesive || adhesive) || fluid_slots == 0 {
            return;
        }
        let threads = Self::threads(exec, m);
        let chunks = m.div_ceil(SLOT_CHUNK);
        let this = &mut *self;
        let origin = this.origin;
        let (params, class, particle) = (&this.params, &this.class[..m], &this.particle[..m]);
        let (list_end, lists) = (&this.list_end[..m], &this.lists);
        let ratio = &this.ratio[..m];
        let pos = DisjointSlice::new(&mut this.pos[..m]);
        let vel = DisjointSlice::new(&mut this.vel[..m]);
        let omega = DisjointSlice::new(&mut this.omega[..m]);
        let velocity = DisjointSlice::new(&mut particles.velocity[..]);
        let (hot, base) = (&particles.hot[..], &particles.base[..]);
        // One fluid with viscosity only (the usual case): the eight-lane loop.
        let plain = this.uniform && !(vortical || cohesive || adhesive);
        let (kernel, uc) = (this.kernel, this.uniform_class);
        let plan = [chunks, chunks, chunks];
        exec.stages(threads, &plan[..], |stage, c| {
            let slots = c * SLOT_CHUNK..((c + 1) * SLOT_CHUNK).min(m);
            if plain && stage == 2 {
                let prm = &params[uc];
                let f = prm.viscosity * (prm.poly6 * prm.volume);
                for k in slots {
                    let list = list_of(list_end, lists, k);
                    // SAFETY: reads the slots stage 0 wrote, writes its own particle's
                    // velocity.
                    unsafe {
                        let s = kernels::viscosity(
                            kernel,
                            prm.h2,
                            pos_records(&pos),
                            pos_records(&vel),
                            k,
                            list,
                        );
                        let p = particle[k] as usize;
                        velocity.set(p, velocity.get(p) + Vec3::from_array(s) * f);
                    }
                }
                return;
            }
            match stage {
                0 => {
                    for k in slots {
                        let p = particle[k] as usize;
                        // SAFETY: slot k is this item's; velocities are written in
                        // stage 2 only.
                        unsafe {
                            let x = (base[p] - origin) + Vec3A::from_vec4(hot[p]);
                            pos.set(k, x.extend(pos.get(k).w));
                            vel.set(k, velocity.get(p).extend(0.0));
                        }
                    }
                }
                1 => {
                    if !vortical {
                        return;
                    }
                    for k in slots {
                        if class[k] == SOLID {
                            continue;
                        }
                        let prm = &params[class[k] as usize];
                        // SAFETY: reads stage 0's slots, writes its own ω.
                        unsafe {
                            let (pk, vk) = (pos.get(k), vel.get(k).truncate());
                            let mut w = Vec3::ZERO;
                            for &j in list_of(list_end, lists, k) {
                                let j = j as usize;
                                if class[j] == SOLID {
                                    continue;
                                }
                                let pj = pos.get(j);
                                let d: Vec3 = (pk - pj).truncate();
                                let g = prm.grad_factor(d.length_squared()) * pj.w;
                                // ω = ∇ × v: Σ V_j (v_i − v_j) × ∇_i W_ij, which is
                                // Macklin & Müller's Σ v_ij × ∇_j W_ij (their eq. 15).
                                w += (vk - vel.get(j).truncate()).cross(d * g);
                            }
                            omega.set(k, w.extend(0.0));
                        }
                    }
                }
                _ => {
                    for k in slots {
                        if class[k] == SOLID {
                            continue;
                        }
                        let prm = &params[class[k] as usize];
                        // SAFETY: reads the stages before, writes its own particle's
                        // velocity.
                        unsafe {
                            let (pk, vk) = (pos.get(k), vel.get(k).truncate());
                            let wk = omega.get(k).truncate();
                            let mut dv = Vec3::ZERO;
                            let mut eta = Vec3::ZERO;
                            let mut pull = Vec3::ZERO;
                            for &j in list_of(list_end, lists, k) {
                                let j = j as usize;
                                let pj = pos.get(j);
                                let d: Vec3 = (pk - pj).truncate();
                                let r2 = d.length_squared();
                                if r2 >= prm.h2 {
                                    continue;
                                }
                                if class[j] == SOLID {
                                    if prm.adhesion > 0.0 {
                                        let r = r2.sqrt();
                                        let a = adhesion_kernel(r, prm.h);
                                        if r > 0.0 {
                                            pull -= d * (prm.adhesion * a * (pj.w / pk.w) / r);
                                        }
                                    }
                                    continue;
                                }
                                let q = prm.h2 - r2;
                                let wgt = prm.poly6 * q * q * q * pj.w;
                                dv += (vel.get(j).truncate() - vk) * wgt;
                                if vortical {
                                    let g = prm.grad_factor(r2) * pj.w;
                                    let wj = omega.get(j).truncate();
                                    eta += d * (g * (wj.length() - wk.length()));
                                }
                                if prm.cohesion > 0.0 {
                                    let r = r2.sqrt();
                                    let kij = 2.0 / (ratio[k] + ratio[j]).max(1.0e-6);
                                    let cr = cohesion_kernel(r, prm.h);
                                    if r > 0.0 {
                                        pull -= d * (kij * prm.cohesion * cr / r);
                                    }
                                }
                            }
                            let p = particle[k] as usize;
                            let mut v = velocity.get(p) + dv * prm.viscosity;
                            if vortical {
                                let l = eta.length();
                                if l > 0.0 {
                                    let nrm = eta / l;
                                    v += nrm.cross(wk) * (prm.vorticity * wk.length() * h);
                                }
                            }
                            if prm.cohesion > 0.0 || prm.adhesion > 0.0 {
                                // γ = 1: a neighbour at the kernel's peak accelerates
                                // the particle at s / T² (T = 1/60 s), whatever h.
                                v += pull * (prm.spacing * h * PULL_RATE2);
                            }
                            velocity.set(p, v);
                        }
                    }
                }
            }
        });
    }

    /// End of a step: ρ̂ of every live fluid particle into its fluid (readback and
    /// stats).
    pub fn end_step(&mut self, fluids: &mut [Option<Fluid>]) {
        if !self.active {
            return;
        }
        for k in 0..self.src.len() {
            let cl = self.class[k];
            if cl == SOLID {
                continue;
            }
            if let Some(f) = fluids[cl as usize].as_mut() {
                let local = self.particle[k].wrapping_sub(f.first) as usize;
                if local < f.count as usize {
                    f.density_ratio[local] = self.ratio[k];
                }
            }
        }
    }

    /// Snapshot: the coupling switches and the last substep's solid forces.
    pub fn save(&self, w: &mut Writer<'_>) {
        w.put_len(self.uncoupled.len());
        for r in &self.uncoupled {
            w.put((r.start, r.end));
        }
        w.put_block(&self.force);
    }

    /// Snapshot: reads what [`Self::save`] wrote.
    pub fn load(&mut self, r: &mut Reader<'_>, cx: &LoadContext<'_>) -> Result<()> {
        let n = r.get_count(8, "fluid coupling switches")?;
        let mut uncoupled = crate::error::try_with_capacity(n, "fluid coupling switches")?;
        let particles = cx.hot.len();
        for _ in 0..n {
            let (start, end) = r.get::<(u32, u32)>()?;
            codec::ensure(start <= end && end as usize <= particles, || {
                format!("fluid coupling switch {start}..{end} of {particles} particles")
            })?;
            uncoupled.push(start..end);
        }
        let force: Vec<Vec3> = r.get_block()?;
        codec::ensure(force.len() <= particles, || {
            format!("{} fluid forces for {particles} particles", force.len())
        })?;
        self.force_dirty = force.iter().any(|f| *f != Vec3::ZERO);
        self.uncoupled = uncoupled;
        self.force = force;
        Ok(())
    }
}

/// Grows `v` to at least `n` elements of `fill`.
fn resize_to<T: Clone>(v: &mut Vec<T>, n: usize, fill: T) -> Result<()> {
    if v.len() < n {
        let grow = n - v.len();
        try_reserve(v, grow, "fluid solver")?;
        v.resize(n, fill);
    }
    Ok(())
}

/// Gives `v` room for `n` elements whatever it holds now.
fn reserve_to<T>(v: &mut Vec<T>, n: usize) -> Result<()> {
    let grow = n.saturating_sub(v.len());
    try_reserve(v, grow, "fluid solver")
}

/// Per-chunk buffers (the neighbour lists, the pair factors), shared by the items of
/// one pass.
struct ChunkPtr<T>(*mut Vec<T>);
// SAFETY: each item dereferences only the element of its own chunk index.
unsafe impl<T: Send> Send for ChunkPtr<T> {}
// SAFETY: as above.
unsafe impl<T: Send> Sync for ChunkPtr<T> {}

impl<T> ChunkPtr<T> {
    /// Chunk c's buffer.
    ///
    /// # Safety
    /// c is in bounds and no other thread uses chunk c's buffer meanwhile.
    #[allow(clippy::mut_from_ref)]
    unsafe fn chunk(&self, c: usize) -> &mut Vec<T> {
        // SAFETY: per the contract.
        unsafe { &mut *self.0.add(c) }
    }
}

/// Whether the fluids' reserved ranges ascend with their slots.
fn ascending(fluids: &[Option<Fluid>]) -> bool {
    let mut last = 0u32;
    for f in fluids.iter().flatten() {
        if f.first < last {
            return false;
        }
        last = f.first + f.desc.capacity;
    }
    true
}

/// Slots ahead whose world particle the per-slot passes prefetch (the slots run in
/// cell order, their particles in world order: a miss per slot without it).
const PREFETCH: usize = 8;

/// Prefetches the hot and base records of slot k's world particle (k < end).
#[inline(always)]
fn prefetch_particle(hot: *const Vec4, base: &[Vec3A], particle: &[u32], k: usize, end: usize) {
    if k >= end {
        return;
    }
    let p = particle[k] as usize;
    #[cfg(target_arch = "x86_64")]
    // SAFETY: a prefetch is a hint that never faults; p is a particle of the world
    // (hot and base have one record per particle).
    unsafe {
        use std::arch::x86_64::{_mm_prefetch, _MM_HINT_T0};
        _mm_prefetch::<_MM_HINT_T0>(hot.wrapping_add(p) as *const i8);
        _mm_prefetch::<_MM_HINT_T0>(base.as_ptr().wrapping_add(p) as *const i8);
    }
    #[cfg(not(target_arch = "x86_64"))]
    let _ = (hot, base, p);
}

/// The density and correction passes of a world of one fluid, a chunk of slots per
/// call, with the SIMD kernel inlined into the slot loop (AVX: compiled with the
/// feature, so no call per slot and no result through memory).
struct UniformPass<'a, 'p> {
    kernel: Kernel,
    consts: Consts,
    prm: &'a Params,
    list_end: &'a [u32],
    lists: &'a [Vec<u32>],
    wall_end: &'a [u32],
    walls: &'a [Vec<Vec4>],
    factors: &'a ChunkPtr<f32>,
    ties: &'a DisjointSlice<'p, u8>,
    pos: &'a DisjointSlice<'p, Vec4>,
    ratio: &'a DisjointSlice<'p, f32>,
    rec: &'a DisjointSlice<'p, Vec4>,
    particle: &'a [u32],
    base: &'a [Vec3A],
}

impl UniformPass<'_, '_> {
    /// λ, ρ̂, the tie flags and the pair buffers of the slots of chunk `c`.
    ///
    /// # Safety
    /// Stage 1 of `project`: every slot's position is written, the chunk's slots and
    /// buffer are this caller's.
    unsafe fn density(&self, c: usize, slots: Range<usize>) {
        match self.kernel {
            #[cfg(target_arch = "x86_64")]
            // SAFETY: Kernel::Avx is only chosen where the CPU has AVX; per the contract.
            Kernel::Avx => unsafe { self.density_avx(c, slots) },
            // SAFETY: per the contract.
            _ => unsafe { self.density_with(Kernel::Scalar, c, slots) },
        }
    }

    #[cfg(target_arch = "x86_64")]
    #[target_feature(enable = "avx")]
    unsafe fn density_avx(&self, c: usize, slots: Range<usize>) {
        // SAFETY: per the contract of `density`.
        unsafe { self.density_with(Kernel::Avx, c, slots) }
    }

    #[inline(always)]
    unsafe fn density_with(&self, kernel: Kernel, c: usize, slots: Range<usize>) {
        // SAFETY: per the contract of `density`.
        unsafe {
            let pos = pos_records(self.pos);
            let buf = self.factors.chunk(c).as_mut_ptr();
            for k in slots {
                let list = list_of(self.list_end, self.lists, k);
                let f = buf.add(pair_start(self.list_end, k));
                let near = list_of(self.wall_end, self.walls, k);
                let (l, rho, tie) =
                    lambda_uniform(kernel, &self.consts, self.prm, pos, k, list, near, f);
                self.rec.set(k, self.pos.get(k).truncate().extend(l));
                self.ratio.set(k, rho);
                self.ties.set(k, tie as u8);
            }
        }
    }

    /// Each slot's Δx of chunk `c`, added to its particle in `hot`.
    ///
    /// # Safety
    /// Stage 2 of `project`: every slot's record is written; the chunk's particles
    /// are this caller's.
    unsafe fn correction(&self, c: usize, slots: Range<usize>, hot: &DisjointSlice<'_, Vec4>) {
        match self.kernel {
            #[cfg(target_arch = "x86_64")]
            // SAFETY: as in `density`.
            Kernel::Avx => unsafe { self.correction_avx(c, slots, hot) },
            // SAFETY: per the contract.
            _ => unsafe { self.correction_with(Kernel::Scalar, c, slots, hot) },
        }
    }

    #[cfg(target_arch = "x86_64")]
    #[target_feature(enable = "avx")]
    unsafe fn correction_avx(&self, c: usize, slots: Range<usize>, hot: &DisjointSlice<'_, Vec4>) {
        // SAFETY: per the contract of `correction`.
        unsafe { self.correction_with(Kernel::Avx, c, slots, hot) }
    }

    #[inline(always)]
    unsafe fn correction_with(
        &self,
        kernel: Kernel,
        c: usize,
        slots: Range<usize>,
        hot: &DisjointSlice<'_, Vec4>,
    ) {
        // SAFETY: per the contract of `correction`.
        unsafe {
            let rec = pos_records(self.rec);
            let buf = &self.factors.chunk(c)[..];
            let end = slots.end;
            for k in slots {
                prefetch_particle(hot.as_ptr(), self.base, self.particle, k + PREFETCH, end);
                let list = list_of(self.list_end, self.lists, k);
                let f = &buf[pair_start(self.list_end, k)..];
                let tie = self.ties.get(k) != 0;
                let d = kernels::correction(kernel, &self.consts, rec, k, list, f, tie);
                let mut dx = Vec3A::from_array(d) * self.prm.volume;
                let near = list_of(self.wall_end, self.walls, k);
                if !near.is_empty() {
                    let pk = self.rec.get(k);
                    let (_, g) = wall_terms(self.prm, near, Vec3A::from_vec4(pk));
                    dx += g * pk.w;
                }
                let p = self.particle[k] as usize;
                let h = hot.get(p);
                hot.set(p, (Vec3A::from_vec4(h) + dx).extend(h.w));
            }
        }
    }
}

/// Slot k's neighbour list (or its walls, with `wall_end` and `walls`).
#[inline(always)]
fn list_of<'a, T>(list_end: &[u32], lists: &'a [Vec<T>], k: usize) -> &'a [T] {
    &lists[k / SLOT_CHUNK][list_start(list_end, k)..list_end[k] as usize]
}

/// Where slot k's pair buffer starts in its chunk's (two floats per entry of the
/// lists before it, and 16 of slack per slot: whole blocks of 8 never overlap).
#[inline(always)]
fn pair_start(list_end: &[u32], k: usize) -> usize {
    2 * list_start(list_end, k) + 16 * (k % SLOT_CHUNK)
}

/// Where slot k's list starts in its chunk's buffer.
#[inline(always)]
fn list_start(list_end: &[u32], k: usize) -> usize {
    if k % SLOT_CHUNK == 0 {
        0
    } else {
        list_end[k - 1] as usize
    }
}

/// A coordinate array of every slot (and its padding) of a pass.
///
/// # Safety
/// No thread writes the array during the stage that reads it.
unsafe fn coords<'a>(v: &DisjointSlice<'a, f32>) -> &'a [f32] {
    // SAFETY: per the contract.
    unsafe { std::slice::from_raw_parts(v.as_ptr(), v.len()) }
}

/// The records `(x, y, z, w)` of every slot of a pass.
///
/// # Safety
/// No thread writes the slice during the stage that reads it.
unsafe fn pos_records<'a>(v: &DisjointSlice<'a, Vec4>) -> &'a [[f32; 4]] {
    // SAFETY: Vec4 is four f32 (16 bytes, no padding); per the contract, nothing
    // writes the elements while the slice is read.
    unsafe { std::slice::from_raw_parts(v.as_ptr() as *const [f32; 4], v.len()) }
}

/// λ and ρ̂ of fluid slot k when every slot is of one fluid (`kernels::density`).
///
/// # Safety
/// `factors` has room for `kernels::pair_room(list.len())` floats. Also returns
/// whether the list holds a coincident pair.
#[allow(clippy::too_many_arguments)]
unsafe fn lambda_uniform(
    kernel: Kernel,
    c: &Consts,
    p: &Params,
    pos: &[[f32; 4]],
    k: usize,
    list: &[u32],
    near: &[Vec4],
    factors: *mut f32,
) -> (f32, f32, bool) {
    // SAFETY: per the contract.
    let d = unsafe { kernels::density(kernel, c, pos, k, list, factors) };
    let vol = p.volume;
    let q0 = (p.h2 * p.h2) * p.h2;
    let mut rho = (q0 + d.q3) * (p.poly6 * vol);
    let mut g = d.grad.map(|x| x * vol);
    if !near.is_empty() {
        let [x, y, z, _] = pos[k];
        let (wr, wg) = wall_terms(p, near, Vec3A::new(x, y, z));
        rho += wr;
        g = [g[0] + wg.x, g[1] + wg.y, g[2] + wg.z];
    }
    let sum2 = d.grad2 * (vol * vol) + ((g[0] * g[0] + g[1] * g[1]) + g[2] * g[2]);
    let c = (rho - 1.0).max(0.0);
    (-c / (sum2 + p.epsilon), rho, d.tie)
}

/// λ and ρ̂ of fluid slot k (any mix of fluids and solids).
///
/// # Safety
/// As [`lambda_uniform`].
#[inline(always)]
unsafe fn lambda_general(
    v: &Views<'_>,
    params: &[Params],
    class: &[u32],
    p: &Params,
    k: usize,
    list: &[u32],
    near: &[Vec4],
) -> (f32, f32) {
    let _ = params;
    let _ = class;
    // SAFETY: per the contract.
    unsafe {
        let pk4 = v.pos.get(k);
        let pk = Vec3A::from_vec4(pk4);
        let q0 = p.h2;
        let mut rho = pk4.w * q0 * q0 * q0;
        let mut grad = Vec3A::ZERO;
        let mut sum2 = 0.0f32;
        for &j in list {
            let j = j as usize;
            let pj = v.pos.get(j);
            let d = pk - Vec3A::from_vec4(pj);
            let r2 = d.length_squared();
            if r2 < p.h2 {
                let q = p.h2 - r2;
                rho += pj.w * q * q * q;
                let g = p.gradient(d, r2, k, j) * pj.w;
                grad += g;
                sum2 += g.length_squared() * (p.mass * v.inv_mass.get(j));
            }
        }
        let mut rho = rho * p.poly6;
        if !near.is_empty() {
            let (wr, wg) = wall_terms(p, near, pk);
            rho += wr;
            grad += wg;
        }
        let sum2 = sum2 + grad.length_squared();
        let c = (rho - 1.0).max(0.0);
        (-c / (sum2 + p.epsilon), rho)
    }
}

/// Δx of slot k (fluid or solid; any mix).
///
/// # Safety
/// As [`lambda_general`], with every λ written.
#[inline(always)]
unsafe fn delta_general(
    v: &Views<'_>,
    params: &[Params],
    class: &[u32],
    k: usize,
    list: &[u32],
    near: &[Vec4],
) -> Vec3A {
    // SAFETY: per the contract.
    unsafe {
        let pk4 = v.pos.get(k);
        let pk = Vec3A::from_vec4(pk4);
        let (vk, wk) = (pk4.w, v.inv_mass.get(k));
        let ck = class[k];
        let lk = v.lambda.get(k);
        let mut dx = Vec3A::ZERO;
        for &j in list {
            let j = j as usize;
            let pj = v.pos.get(j);
            let d = pk - Vec3A::from_vec4(pj);
            let r2 = d.length_squared();
            let cj = class[j];
            if ck != SOLID {
                let prm = &params[ck as usize];
                if r2 < prm.h2 {
                    // Constraint k on itself (against a solid, with the solid's
                    // mirrored pressure: twice).
                    let mut s = lk * pj.w;
                    if cj == SOLID {
                        s += s;
                    } else {
                        s += prm.scorr(r2) * pj.w;
                        if cj == ck {
                            // Constraint j on k, same kernel.
                            s += v.lambda.get(j) * prm.mass * wk * vk;
                        }
                    }
                    dx += prm.gradient(d, r2, k, j) * s;
                }
                if cj == SOLID || cj == ck {
                    continue;
                }
            }
            // Constraint j (fluid of another kernel, or any fluid for a solid k).
            if cj != SOLID {
                let pj_prm = &params[cj as usize];
                if r2 < pj_prm.h2 {
                    let mut s = v.lambda.get(j) * pj_prm.mass * wk * vk;
                    if ck == SOLID {
                        // The solid's mirrored pressure.
                        s += s;
                    }
                    dx += pj_prm.gradient(d, r2, k, j) * s;
                }
            }
        }
        if ck != SOLID && !near.is_empty() {
            // Constraint k's own gradient from the walls (which do not move).
            let (_, g) = wall_terms(&params[ck as usize], near, pk);
            dx += g * lk;
        }
        dx
    }
}

/// The density the walls `near` a fluid particle at `x` (slot frame) lend it, and
/// its gradient (`super::walls`): `1 − Π (1 − ρ_wall,k)` over the walls, so that
/// where two or three walls meet the space behind more than one of them counts
/// once (exact at an edge or a corner, and for one wall).
#[inline]
fn wall_terms(p: &Params, near: &[Vec4], x: Vec3A) -> (f32, Vec3A) {
    let (mut rho, mut g) = (0.0f32, Vec3A::ZERO);
    for w in near {
        let n = Vec3A::from_vec4(*w);
        let (r, a) = p.wall.eval(n.dot(x) - w.w);
        g = g * (1.0 - r) - n * (a * (1.0 - rho));
        rho = rho + r - rho * r;
    }
    (rho, g)
}

/// Akinci et al. 2013 cohesion kernel C(r), normalised to 1 at its peak (r = h/2):
/// `(h − r)³ r³` for r > h/2, `2 (h − r)³ r³ − h⁶/64` below, 0 beyond h.
fn cohesion_kernel(r: f32, h: f32) -> f32 {
    if r >= h {
        return 0.0;
    }
    let t = (h - r) * (h - r) * (h - r) * r * r * r;
    let peak = h * h * h * h * h * h / 64.0;
    let c = if 2.0 * r > h { t } else { 2.0 * t - peak };
    c / peak
}

/// Akinci et al. 2013 adhesion kernel A(r), normalised to 1 at its peak (r = 3h/4):
/// `(−4r²/h + 6r − 2h)^(1/4)` for h/2 < r ≤ h, else 0.
fn adhesion_kernel(r: f32, h: f32) -> f32 {
    if 2.0 * r <= h || r > h {
        return 0.0;
    }
    let x = (-4.0 * r * r / h + 6.0 * r - 2.0 * h).max(0.0);
    (x / (0.25 * h)).powf(0.25)
}

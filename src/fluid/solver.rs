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
//! fluid this is ρ_i/ρ₀ − 1 with ρ_i = Σ m W / S (m = ρ₀ V), S the sum Σ V W of a
//! cubic (square) lattice of spacing s around one of its points (1.0098 in 3D,
//! 1.0146 in 2D at h = 2s; `walls::lattice_sums`): the fluid's own lattice at rest
//! reads exactly ρ₀, so water laid on its lattice (as the emitters lay it) starts at
//! rest. Without S it read 1% over-dense, and the solver removed that 1% in the first
//! substep as a velocity of about 1% of the pool's depth per substep: a geyser that
//! grew with the substep count. W is the poly6 kernel,
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
//! λ_i  = −ω C_i / (Σ_k w̃_k |∇_k C_i|² + ε)
//! Δx_k = Σ_i w̃_k λ_i ∇_k C_i
//! ```
//!
//! with ω < 1 the under-relaxation of [`super::jacobi`] (0.532 in 3D, 0.698 in 2D at
//! h = 2s) in a substep of one density solve ([`relax_for`]; 1 otherwise): undamped,
//! the fastest modes of a Jacobi solve grew into the velocity.
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
//! units, m²) is added to `λ_k + λ_j`, against clumping (as Macklin & Müller 2013),
//! times `min(1, (h / SCORR_SUBSTEP)²)` for a substep h (s) shorter than 1/480 s
//! ([`scorr_scale`]), so that below it s_corr is a pressure (a fixed acceleration)
//! rather than a fixed push per substep, which the free surface turned into a
//! velocity s_corr / h; several iterations share one iteration's push among their
//! solves (an explicit push that each solve repeated).
//! Jacobi within a solve: every λ from the same positions, then every Δx. Each
//! iteration of a substep of h seconds runs ⌈rate·h / iterations⌉ solves (the fluids'
//! `solve_rate`, `project::solves_per_iteration`): one solve carries a wall's push
//! about two rows into the fluid, so the compression that holds a pool's weight grows
//! as g h² per solve, and long substeps need more of them.
//!
//! **Walls** ([`super::walls`]): each collider contact of a fluid particle i adds the
//! density ρ_wall of the half-space behind it (the fluid's lattice at rest, continued
//! behind the surface) to C_i and its
//! gradient `−A n` to ∇_i C_i (so to the denominator of λ_i); the wall does not move,
//! and i's correction gets `λ_i ∇ρ_wall`. The contacts are copied per slot when the
//! grid is built, as planes `n · x = c` in the slot frame.
//!
//! **Several fluids** ([`Layering`], only while the live fluids differ in rest
//! density; one fluid keeps its bits): a wall's push on a fluid particle is mirrored
//! (`2 λ_i ∇ρ_wall`, the fluid behind the wall at the particle's pressure, as a solid
//! gets), plus that pressure continued along each wall by the gradient around the
//! particle ([`wall_gradient_push`]), and s_corr acts only at the free surface
//! ([`SURFACE_SCORR`]). Without them the floor collider held the bottom row, a light
//! particle on a side wall lost the part of its buoyancy the wall's fluid would have
//! given, and s_corr's yield stress held the bulk: a lighter fluid laid under a
//! heavier one stayed there.
//! At the end of each substep two velocity terms act between particles of unlike
//! fluids: the drift of the unlike fluid's buoyancy ([`LAYER_DRIFT`]), which frees
//! single particles the compressed packing holds, and an interfacial tension
//! ([`INTERFACE_TENSION`], Tartakovsky & Meakin 2005), which keeps the overturning
//! fluids in pieces of many particles and stills a resting interface.
//!
//! **Where** (ARCHITECTURE.md, "The step"): the registry entry `fluids`, after the
//! other constraint families, every iteration. The first iteration of a substep (the
//! positions are predicted by then) builds the neighbour grid (`solver/build.rs`, with
//! the layout of [`super::grid`]): the
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

mod build;
mod project;
mod velocity;

use std::ops::Range;

use super::grid::{row_limit, Layout, Row};
use super::jacobi::relaxation;
use super::walls::{lattice_sums, WallKernel};
use super::Fluid;
use crate::collision::MAX_COLLIDER_CONTACTS;
use crate::error::{try_reserve, Result};
use crate::kernels::fluid::{self as kernels, Consts};
use crate::kernels::fluid_pass::SlotLists;
use crate::kernels::simd::Kernel;
use crate::math::{Vec3, Vec3A, Vec4};
use crate::particles::Particles;
use crate::snapshot::codec::{self, Reader, Writer};
use crate::snapshot::LoadContext;
use crate::solver::parallel::{Executor, SlotOrder, REGION_MIN_WORK};

/// The substep (s) from which the artificial pressure s_corr is a fixed displacement
/// per substep; shorter substeps scale it by (h / SCORR_SUBSTEP)² ([`scorr_scale`]).
/// 1/480 s: 8 substeps of a 60 Hz frame, the world's default.
pub(crate) const SCORR_SUBSTEP: f32 = 1.0 / 480.0;

/// The factor of s_corr in each density solve of a substep of `h` seconds with
/// `iterations` iterations, at the fluids' solve rate `rate` (Hz):
/// `min(1, (h / SCORR_SUBSTEP)²)`, shared among the substep's solves as one iteration
/// would share it.
///
/// s_corr pushes every pair within h apart whether or not the fluid is compressed, by
/// a displacement that does not depend on h; at the free surface, where nothing
/// pushes back, that displacement becomes a velocity s_corr / h each substep, an
/// acceleration growing as 1/h². Scaled by h² it is a fixed acceleration (a
/// pressure), as below SCORR_SUBSTEP; a still pool at 32 substeps of 1/60 s threw its
/// surface particles 18 spacings up without it (3D, 6 layers; 1.1 with it).
///
/// It is an explicit push, not a constraint that more solves satisfy better: each
/// solve adds it again. So a substep of several iterations gives each solve the share
/// that makes the substep's whole push the one of a single iteration
/// (`solves_per_iteration(rate, h, 1)` solves of the full factor): at 8 substeps × 8
/// iterations a still pool 12 rows deep threw its surface 7.5 spacings up when every
/// iteration pushed in full (8 times the push of one iteration), 1.3 with the share
/// (`tests/fluids/calm.rs`). One iteration keeps its bits (the share is 1).
pub(crate) fn scorr_scale(h: f32, iterations: u32, rate: f32) -> f32 {
    let x = h / SCORR_SUBSTEP;
    let full = (x * x).min(1.0);
    let one = project::solves_per_iteration(rate, h, 1);
    let all = iterations.max(1) * project::solves_per_iteration(rate, h, iterations);
    if one == all {
        full
    } else {
        full * (one as f32 / all as f32)
    }
}

/// The factor of every λ in a substep of `iterations` iterations of `solves` density
/// solves each: the fluid's ω (`super::jacobi`) when the substep runs one solve in
/// all, 1 otherwise. One solve's overshoot becomes the substep's velocity as it is; a
/// later solve of the same substep corrects it first. Measured (3D pool 12 rows deep,
/// kinetic energy over the fifth second): one solve per substep, undamped, kept
/// 0.004 J/kg for good; 2 solves per substep (4 substeps × 1 iteration at 480 Hz)
/// settle to 0.0002 undamped; relaxing every solve of a long substep made a dam
/// break's water 18% over-dense in its first 10 frames (11% undamped; 2 substeps ×
/// 2 iterations of 2 solves) and a 24-row pool at one substep of 1/60 s rise 5.7
/// spacings (4.5 undamped).
pub(crate) fn relax_for(omega: f32, iterations: u32, solves: u32) -> f32 {
    if iterations.max(1) * solves.max(1) == 1 {
        omega
    } else {
        1.0
    }
}

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

/// A fluid slot keeps at most this many times the neighbours of its fluid's rest
/// lattice within h (the volume of the kernel's ball, or disc, over the rest volume):
/// water is nearly incompressible, so a slot that reaches more is in a crowd
/// (particles emitted at one point), whose complete lists grow as N² in time and
/// memory (16,000 particles emitted at one point: 1.7 s and 1 GB for the first step).
/// It keeps the first of them in scan order ([`Params::listed`]); its density then
/// reads lower than it is, still far above rest, and the crowd spreads.
const CROWD_DENSITY: f32 = 8.0;

/// The direction in which coincident particles separate (in the XY plane, so that
/// planar worlds keep it).
const TIE: Vec3A = Vec3A::new(0.6, 0.8, 0.0);

/// 1 / T² (1/s²), T = 1/60 s: cohesion and adhesion of strength 1 accelerate a
/// particle at one spacing / T² per neighbour at the kernel's peak.
const PULL_RATE2: f32 = 3600.0;

/// [`Params::listed`] of a fluid of smoothing radius `ratio` spacings:
/// [`CROWD_DENSITY`] times the rest lattice's neighbours within h, the kernel's ball
/// (disc, planar) over the rest volume (268 at the default 2 spacings in 3D, 101
/// planar).
fn crowd_listed(ratio: f32, planar: bool) -> usize {
    let pi = std::f32::consts::PI;
    let rest = if planar {
        pi * ratio * ratio
    } else {
        4.0 / 3.0 * pi * ratio * ratio * ratio
    };
    (CROWD_DENSITY * rest).ceil() as usize
}

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
    /// The density ratio per Σ V (h² − r²)³ (m⁻⁶): poly6 / S, with S the lattice sum
    /// of the fluid at rest ([`super::walls::lattice_sums`]), so that a lattice of the
    /// fluid's spacing reads ρ̂ = 1.
    density: f32,
    /// Spiky gradient factor (negative): ∇W(d) = grad (h − r)² d / r.
    grad: f32,
    /// Particle spacing (m).
    spacing: f32,
    /// Particle rest volume (m³, m² planar) and mass (kg).
    volume: f32,
    mass: f32,
    /// Relaxation ε (m⁻²).
    epsilon: f32,
    /// The factor (dimensionless) of every λ in this substep: ω when the substep runs one density
    /// solve, 1 otherwise ([`relax_for`]).
    relax: f32,
    /// ω (dimensionless) of the fluid's lattice (`super::jacobi::relaxation`), and whether the world
    /// was planar when it was computed (it depends on h / s and that alone).
    omega: f32,
    planar: bool,
    /// −k s² (m²) scaled to the substep ([`scorr_scale`]), the same unscaled, n,
    /// 1 / W(Δq).
    scorr: f32,
    scorr_full: f32,
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
    /// The most neighbours a slot of this fluid keeps ([`CROWD_DENSITY`] times its
    /// rest lattice's within h).
    listed: usize,
}

impl Params {
    /// The parameters of fluid `f`; `prev`, the fluid's of the last step, lends its
    /// ω when h, s and the world's planarity are unchanged (ω takes a search over wave
    /// vectors).
    fn new(f: &Fluid, planar: bool, prev: &Params) -> Params {
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
        let (bulk, missing) = lattice_sums(h, s, planar);
        let omega = if prev.h == h && prev.spacing == s && prev.planar == planar {
            prev.omega
        } else {
            relaxation(h, s, planar)
        };
        Params {
            h,
            h2,
            poly6,
            density: (poly6 as f64 / bulk) as f32,
            grad,
            spacing: s,
            volume,
            mass,
            epsilon: d.epsilon(),
            relax: 1.0,
            omega,
            planar,
            scorr: -d.scorr_k * s * s,
            scorr_full: -d.scorr_k * s * s,
            scorr_n: d.scorr_n,
            inv_w_dq: 1.0 / w_dq,
            viscosity: d.viscosity,
            vorticity: d.vorticity * s,
            cohesion: d.cohesion,
            adhesion: d.adhesion,
            coupling_mask: d.coupling_mask,
            wall: WallKernel::new(h, s, planar, bulk, missing),
            listed: crowd_listed(h / s, planar),
        }
    }

    /// The constants of the one-fluid loops (`kernels::fluid`).
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
    /// The largest density solve rate (Hz) of the fluids with live particles
    /// (`FluidDesc::solve_rate`; `project::solves_per_iteration`).
    solve_rate: f32,
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
    /// Per slot (cell order): input index, world particle (a map checked one to one
    /// by each build, through which the passes write each slot's particle), position
    /// relative to the origin with the rest volume in w, class, inverse mass, cell, λ,
    /// ρ̂ and the solids' collision layers.
    order: Vec<u32>,
    particle: SlotOrder,
    pos: Vec<Vec4>,
    class: Vec<u32>,
    inv_mass: Vec<f32>,
    cell: Vec<[i32; 3]>,
    layers: Vec<u32>,
    lambda: Vec<f32>,
    ratio: Vec<f32>,
    /// Per slot, Σ λ over the solves of the last iteration when it ran several and a
    /// collider is dynamic (`summed_pushes`): the walls' pushes of the whole iteration.
    pushes: Vec<f32>,
    summed_pushes: bool,
    /// Set by [`Self::prepare`] at the start of a step, cleared by the step's first
    /// density solve, which writes each fluid particle's ρ/ρ₀ into its fluid
    /// (`Fluid::first_ratio`).
    step_started: bool,
    /// One fluid, no solids: `(x, y, z, λ)` per slot (the correction pass's records),
    /// and the positions one array per coordinate, padded by 8 (the build's scans).
    rec: Vec<Vec4>,
    xs: Vec<f32>,
    ys: Vec<f32>,
    zs: Vec<f32>,
    /// The fluid slot of the uniform case, and the SIMD choice of its loops.
    uniform_class: usize,
    kernel: Kernel,
    /// End of slot k's list in its chunk's lists (the start is the previous slot's
    /// end, or 0 at the chunk's first slot), and each chunk's lists (sealed by the
    /// build: every entry a slot of the grid).
    list_end: Vec<u32>,
    lists: Vec<SlotLists>,
    /// One fluid: whether slot k's list holds a coincident pair (from the density
    /// pass of the iteration, for its correction pass).
    ties: Vec<u8>,
    /// Per fluid slot, the collider surfaces near it this substep (`super::walls`):
    /// `(n, c)` with the slot's distance `n · x − c` (m, x relative to the origin),
    /// at most `MAX_COLLIDER_CONTACTS` per slot, ending at `wall_end` as the lists do.
    wall_end: Vec<u32>,
    walls: Vec<Vec<Vec4>>,
    /// End-of-substep scratch: velocities and vorticity / normals per slot.
    vel: Vec<Vec4>,
    omega: Vec<Vec4>,
    /// The terms of a world whose live fluids differ in rest density ([`Layering`]).
    layering: Layering,
}

/// The solver's terms while live fluids of different rest densities share it
/// (`layered`; see the module doc, "Several fluids"). A world of one fluid (or of
/// several of one rest density) never takes these branches, and keeps its bits.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub(crate) struct Layering {
    /// Whether the live fluids differ in rest density this step.
    pub(crate) layered: bool,
}

/// Layered worlds: the artificial pressure of a pair acts in full where the less
/// dense of the two reads ρ̂ ≤ 1 − 1/SURFACE_SCORR, not at all from ρ̂ = 1 up
/// (linear between): at the free surface, where it keeps particles from clumping,
/// and not in the compressed bulk, where its repulsion gives the fluid at rest a
/// yield stress that holds a lighter fluid under a heavier one.
pub(crate) const SURFACE_SCORR: f32 = 10.0;

/// Layered worlds: the interfacial tension between unlike fluids, in the units of
/// the desc's `cohesion` γ (a neighbour at the kernel's peak accelerates a particle
/// at γ s / T², T = 1/60 s): every pair of particles of different fluids within h
/// repels along the Akinci et al. 2013 cohesion kernel C(r), pairs of one fluid are
/// left alone. As the desc's cohesion, an acceleration, the same on both particles of
/// a pair whatever their masses (the pair's momenta differ by the mass ratio; scaled
/// by 2 m_j / (m_k + m_j) to make them equal and opposite, the inverted column below
/// kept 7.5% and 11% of its light fluid in the lower half at 2 × 2 and 4 × 1). That is the pairwise-force model of Tartakovsky & Meakin 2005
/// ("Modeling of surface tension and contact angles with smoothed particle
/// hydrodynamics", Phys. Rev. E 72, 026301) with the like pairs' attraction taken
/// as the reference (an attraction common to every pair is a uniform pressure the
/// density solve takes up): the tension is the difference of like and unlike
/// strengths. It keeps the sinking fingers of an overturn in one piece instead of
/// shedding single particles, which the packing then held, pushes a particle at the
/// interface to its own side, and stills a resting interface (8 rows of ρ₀ 999 over
/// 1000, 8 × 1, 5 s, with the drift at 2: the fastest particle 0.34 m/s, as one
/// fluid's 0.33, against 0.85 m/s without the tension). Measured on the inverted
/// column (800 under 1000): 0.03 and 0.05 separate alike; 0.2 without the drift
/// sheds more single particles (12% of the light fluid in the lower half at 8 × 1
/// and 20 s, 5% at 0.05).
pub(crate) const INTERFACE_TENSION: f32 = 0.05;

/// Layered worlds: the slip of a fluid particle against the unlike fluid around it,
/// as an acceleration `D (ρ_j − ρ_k)/ρ_k (−g)` per unit of `Σ V_j W_kj` over its
/// neighbours j of other fluids (rest densities ρ; equal and opposite momenta pair
/// by pair, as `m_k a_k = −m_j a_j` for equal volumes): the drift of the dispersed
/// phase of the mixture model (Manninen, Taivassalo & Kallio 1996, "On the mixture
/// model for multiphase flow"; Ren et al. 2014, "Multiple-Fluid SPH Simulation Using
/// a Mixture Model"), the flow past a parcel the particles do not resolve. A single
/// light particle in a heavy bulk gets its buoyancy, (ρ_h − ρ_l) g V, through the
/// mass-weighted corrections, but the compressed packing around it holds it like a
/// granular one, with a friction that grows with the pressure: measured, one ρ₀ 800
/// particle in a pool of 1000 12 rows deep rises 6 rows below the surface (in 5 s),
/// creeps 1.5 rows in 10 s 9 rows down and does not move 11 rows down or on the
/// floor (8 × 1); with the drift it reaches the top row in 2-3 s at 4, 8 and 16
/// substeps. Zero inside one fluid, so a world of one fluid has none. D = 4,
/// measured on the inverted column (8 × 1, 20 s): without the tension D = 1 and 2
/// left 12% and 4% of the light fluid in the lower half, 12 and 2 particles on the
/// floor; D = 2 with the tension left the 2 × 2 run inverted (97%); D = 4 with it
/// 1.3-3.8% at 2 × 2 to 32 × 1 (docs/fluids.md, "Several fluids").
pub(crate) const LAYER_DRIFT: f32 = 4.0;

/// The most [`LAYER_DRIFT`]'s acceleration is scaled by beside a wall: there it counts
/// per unit of the fluid within reach, 1 / Σ_j V_j W_kj over every fluid neighbour j
/// (the particle itself included; about 1 in the bulk), up to this factor. A wall
/// stands in for fluid (the density solve lends it): the unlike fluid behind it, which
/// the particles do not hold, would buoy a light particle too. Without it a light
/// particle in a floor corner, whose neighbours fill about a quarter of its reach, got
/// a quarter of the drift and never moved: on the inverted column (8 rows of ρ₀ 800
/// under 8 of 1000, 2 × 2 to 32 × 1, runs of 16, 20, 24 and 28 s) 2-3 light particles
/// stayed on the floor and 2-14 more than two spacings under the interface; with the
/// factor up to 4, 0-3 and 0-3 (0-2 and 0-2 in the 20 s runs of the test); up to 8 the
/// 4 × 1 run left 14 under the interface. A world of one fluid, and any particle with
/// no wall in reach, keeps its bits.
pub(crate) const WALL_FILL_MAX: f32 = 4.0;

/// The most (ρ_j − ρ_k)/ρ_k counts in [`LAYER_DRIFT`]'s acceleration: 2, the
/// buoyant acceleration (in g) of a sphere with no mass of its own in a liquid, whose
/// inertia is then the added mass of half the liquid it displaces. A light fluid
/// among one up to 3 times as dense is not limited; a much lighter one (ρ₀ 1 among
/// 1000) would otherwise be driven at some 4000 g. Past it the pair's momenta are no
/// longer equal and opposite.
pub(crate) const DRIFT_RATIO: f32 = 2.0;

impl DensitySolver {
    /// Whether the fluid passes run this step.
    pub fn is_active(&self) -> bool {
        self.active
    }

    /// Listed neighbour pairs of the last build (each pair in the list of each slot
    /// that lists it; 0 while no fluid is active).
    pub fn listed_pairs(&self) -> u64 {
        if !self.active {
            return 0;
        }
        let m = self.src.len().min(self.list_end.len());
        self.list_end[..m]
            .chunks(SLOT_CHUNK)
            .map(|c| c.last().map_or(0, |&e| e as u64))
            .sum()
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

    /// The walls' pushes of the last iteration (`super::walls::wall_parts`): for
    /// every fluid slot near a collider, `sink(particle, k, Δx)` with `Δx = λ ∇ρ_wall,k`
    /// (m) the part of its correction its k-th collider contact gave it (λ summed
    /// over the iteration's solves, `project::solves_per_iteration`, at the last
    /// solve's position). No
    /// allocation; one call per (particle, contact), in slot order.
    pub(crate) fn wall_pushes(&self, mut sink: impl FnMut(usize, usize, Vec3)) {
        if !self.active {
            return;
        }
        let m = self.src.len().min(self.wall_end.len());
        let particle = &self.particle.order()[..m];
        for (k, &i) in particle.iter().enumerate() {
            let near = list_of(&self.wall_end, &self.walls, k);
            let cl = self.class[k];
            if near.is_empty() || cl == SOLID {
                continue;
            }
            let (x, mut lambda) = if self.uniform {
                let r = self.rec[k];
                (Vec3A::from_vec4(r), r.w)
            } else {
                (Vec3A::from_vec4(self.pos[k]), self.lambda[k])
            };
            if self.summed_pushes {
                lambda = self.pushes[k];
            }
            if lambda == 0.0 {
                continue;
            }
            let i = i as usize;
            super::walls::wall_parts(&self.params[cl as usize].wall, near, x, |wall, g| {
                sink(i, wall, Vec3::from(g * lambda))
            });
        }
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

    /// At a step's start with no live fluid particle: the last substep's solid forces
    /// are forgotten (a step without fluid pushes nothing). Only the step does this, not
    /// [`Self::prepare`] called for room outside it (an API call, a loaded snapshot),
    /// so that a loaded world holds the forces its snapshot saved.
    pub fn forget_forces_when_idle(&mut self, fluids: &[Option<Fluid>]) {
        if self.force_dirty && !fluids.iter().flatten().any(|f| f.count > 0) {
            self.force.iter_mut().for_each(|f| *f = Vec3::ZERO);
            self.force_dirty = false;
        }
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
        self.step_started = true;
        self.planar = planar.is_some();
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
        let mut rate = 0.0f32;
        for (k, f) in fluids.iter().enumerate() {
            if let Some(f) = f {
                self.params[k] = Params::new(f, planar.is_some(), &self.params[k]);
                union |= f.desc.coupling_mask;
                capacity += f.desc.capacity as usize;
                classes += usize::from(f.count > 0);
                if f.count > 0 {
                    rate = rate.max(f.desc.solve_rate);
                }
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
        self.solve_rate = rate;
        self.uniform = classes == 1 && self.solids.is_empty();
        let mut live = fluids.iter().flatten().filter(|f| f.count > 0);
        let rho0 = live.next().map(|f| f.desc.rest_density);
        self.layering = Layering {
            layered: live.any(|f| Some(f.desc.rest_density) != rho0),
        };
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
            &mut self.class,
            &mut self.layers,
            &mut self.list_end,
            &mut self.wall_end,
        ] {
            resize_to(v, m, 0)?;
        }
        for v in [
            &mut self.inv_mass,
            &mut self.lambda,
            &mut self.ratio,
            &mut self.pushes,
        ] {
            resize_to(v, m, 0.0)?;
        }
        self.particle.grow(n, u32::MAX, what)?;
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
            self.lists.resize_with(chunks, SlotLists::default);
        }
        if self.walls.len() < chunks {
            let grow = chunks - self.walls.len();
            try_reserve(&mut self.walls, grow, what)?;
            self.walls.resize_with(chunks, Vec::new);
        }
        for c in 0..chunks {
            let want = LIST_RESERVE * SLOT_CHUNK.min(m - c * SLOT_CHUNK);
            self.lists[c].reserve(want, what)?;
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
                let local = self.particle.order()[k].wrapping_sub(f.first) as usize;
                if local < f.count as usize {
                    f.density_ratio[local] = self.ratio[k];
                }
            }
        }
    }

    /// The neighbour grid of the last substep built, as the render outputs read it
    /// (`fluid::render`): its layout, buckets, and per slot the cell, the world
    /// particle, the class (the fluid's slot, or `u32::MAX` for a solid) and the list of
    /// the slots within reach.
    pub(crate) fn grid(&self) -> super::render::GridView<'_> {
        let m = if matches!(self.layout, Layout::Empty) {
            0
        } else {
            self.src.len()
        };
        super::render::GridView {
            layout: self.layout,
            rows: &self.rows,
            starts: &self.bucket_start,
            cell: &self.cell[..m],
            particle: &self.particle.order()[..m],
            slot_of: self.particle.slot_of(),
            class: &self.class[..m],
            list_end: &self.list_end[..m],
            lists: &self.lists[..m.div_ceil(SLOT_CHUNK)],
            chunk: SLOT_CHUNK,
            inv_cell: self.inv_cell,
            origin: self.origin,
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

/// Prefetches the hot and base records of slot k's world particle (k < end; `hot`
/// and `base` hold one record per particle).
#[inline(always)]
fn prefetch_particle(hot: *const Vec4, base: &[Vec3A], particle: &[u32], k: usize, end: usize) {
    if k >= end {
        return;
    }
    let p = particle[k] as usize;
    kernels::prefetch(hot.wrapping_add(p));
    kernels::prefetch(base.as_ptr().wrapping_add(p));
}

/// Slot k's neighbour list (or its walls, with `wall_end` and `walls`).
#[inline(always)]
fn list_of<'a, T, L: AsRef<[T]>>(list_end: &[u32], lists: &'a [L], k: usize) -> &'a [T] {
    &lists[k / SLOT_CHUNK].as_ref()[list_start(list_end, k)..list_end[k] as usize]
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

/// The factor of the walls' mirrored pressure gradient ([`wall_gradient_push`]) over
/// the continuation in closed form (1). Measured, planar, 8 rows of ρ₀ 999 laid over
/// 8 rows of 1000 (8 × 1, 5 s): at 1 the particles on the side walls still sink (the
/// gradient the neighbours give reads short there) and drive a circulation that mixes
/// 29% of the lighter fluid into the lower half; 1.25: 18%; 1.5: 8%, as still as one
/// fluid (2.5% by the same measure, the interface's own row); 2: 14%. An inverted
/// pair turns over about as well at 1 and at 1.5.
pub(crate) const WALL_GRADIENT: f32 = 1.5;

/// The push (m) of the tangential pressure gradient of the fluid the walls `near` a
/// fluid particle at `x` stand in for: the pressure behind each wall continued from
/// the particle's by the gradient `g` its neighbours give (`g` = Σ_j V_j (P_j − P_k)
/// ∇W_kj in λ-pressure units m λ, kg·m² per m, which the missing half-space leaves
/// short by the walls' density ρ_wall, so divided by 1 − ρ_wall), each wall adding
/// ρ_wall,k times its tangential part (the half-space's Σ V_b r_b,t ∂_t W_kb is
/// ρ_wall,k), times [`WALL_GRADIENT`]. Divided by the particle's mass `m`.
#[inline]
fn wall_gradient_push(p: &Params, near: &[Vec4], x: Vec3A, g: Vec3A, m: f32) -> Vec3A {
    let (mut rho, mut push) = (0.0f32, Vec3A::ZERO);
    for w in near {
        let n = Vec3A::from_vec4(*w);
        let (r, _) = p.wall.eval(n.dot(x) - w.w);
        push += (g - n * n.dot(g)) * r;
        rho = rho + r - rho * r;
    }
    push * (WALL_GRADIENT / ((1.0 - rho).max(0.25) * m))
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

#[cfg(test)]
mod tests {
    use super::{project, relax_for, scorr_scale};

    /// s_corr's factor per solve: (h / (1/480 s))² up to 1, the substep's push shared
    /// so that it is one iteration's whatever the iterations.
    #[test]
    fn the_artificial_pressure_is_shared_among_the_iterations() {
        let h8 = 1.0 / 60.0 / 8.0;
        // One iteration: the full factor, one solve per substep from 1/480 s down.
        assert_eq!(scorr_scale(h8, 1, 480.0), 1.0);
        assert_eq!(scorr_scale(h8 / 2.0, 1, 480.0), 0.25);
        // 8 iterations of one solve each: an eighth per solve.
        assert_eq!(scorr_scale(h8, 8, 480.0), 0.125);
        assert_eq!(scorr_scale(h8 / 4.0, 8, 480.0), 0.0625 * 0.125);
        // 2 substeps × 2 iterations at 480 Hz: 2 solves per iteration, 4 a substep,
        // as one iteration would run (4): the full factor.
        assert_eq!(scorr_scale(1.0 / 120.0, 2, 480.0), 1.0);
        // 1 substep × 8 iterations: one solve each, where one iteration runs 8.
        assert_eq!(scorr_scale(1.0 / 60.0, 8, 480.0), 1.0);
        // 1 substep × 3 iterations: 3 solves each (9), one iteration runs 8.
        assert_eq!(scorr_scale(1.0 / 60.0, 3, 480.0), 8.0 / 9.0);
        // One solve per iteration (rate 0): shared by the iterations.
        assert_eq!(scorr_scale(h8, 4, 0.0), 0.25);
        // Nothing to share at h = 0, and iterations 0 counts as one.
        assert_eq!(scorr_scale(0.0, 4, 480.0), 0.0);
        assert_eq!(scorr_scale(h8, 0, 480.0), 1.0);
    }

    /// ω acts in substeps of one density solve (the world's default 8 × 1 at 480 Hz
    /// and shorter substeps), not in those of several (long substeps, or several
    /// iterations).
    #[test]
    fn the_relaxation_acts_where_a_substep_runs_one_solve() {
        let omega = 0.532;
        let h8 = 1.0 / 60.0 / 8.0;
        let solves = |h: f32, it: u32| project::solves_per_iteration(480.0, h, it);
        assert_eq!(relax_for(omega, 1, solves(h8, 1)), omega);
        assert_eq!(relax_for(omega, 1, solves(h8 / 4.0, 1)), omega);
        assert_eq!(relax_for(omega, 1, solves(h8 * 2.0, 1)), 1.0);
        assert_eq!(relax_for(omega, 2, solves(h8, 2)), 1.0);
        assert_eq!(relax_for(omega, 2, solves(1.0 / 120.0, 2)), 1.0);
        assert_eq!(relax_for(omega, 0, 0), omega);
    }
}

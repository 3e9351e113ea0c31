//! Solver infrastructure shared by every constraint set, independent of any family:
//! the [`Solver`] choice, the block schedule and its colouring (Gauss-Seidel order),
//! the Jacobi adjacency, and the deterministic parallel executor. The step itself
//! lives in `world::step` (ARCHITECTURE.md, "The step").

pub(crate) mod classes;
pub(crate) mod colouring;
pub(crate) mod disjoint;
pub(crate) mod jacobi;
pub(crate) mod parallel;
pub(crate) mod schedule;
pub(crate) mod tasks;

/// Largest worker-thread count a world may ask for (the built-in pool or a host's task
/// system); declared with the other limits.
pub use crate::limits::MAX_THREADS;

/// Which iterative scheme projects the constraints.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
pub enum Solver {
    /// Constraints one after another (by colour, in parallel within a colour); fast
    /// convergence. The default.
    ///
    /// Momentum: every constraint's gradient is translation- and rotation-invariant,
    /// so each projection conserves linear and angular momentum about the positions it
    /// sees. A sweep applies them in turn, which conserves linear momentum but adds
    /// `−Σ_{j<k} m Δx_j × Δx_k / h` of angular momentum: second order in the
    /// corrections, so negligible for the small corrections of a running simulation,
    /// but a body released from a large deformation with rigid constraints (a tet cube
    /// squashed by 30%) starts to spin (|L| / Σ m|r||v| ≈ 0.4 with edges and volume,
    /// 0.8 with strain, in proportion to the squash and independent of the substep
    /// count). Jacobi projects from one set of positions and gains about 1% there.
    /// Compliant materials shrink it with more substeps (edges and volume at α = 1e-2:
    /// 0.025, 0.007, 0.004 at 8, 32, 128 substeps), as a second-order term should.
    /// Alternating the colour and family order every substep or iteration was
    /// measured: it lowers the first step's value for edges and volume (0.41 → 0.07)
    /// but not the following steps' nor the strain model's, so the order is kept
    /// (tests/ffi/accepted_ranges.rs, `free_tet_cube_…`).
    #[default]
    GaussSeidel,
    /// All constraints from the same positions, corrections averaged per particle and
    /// scaled by the relaxation factor; slower convergence, order-independent.
    Jacobi,
}

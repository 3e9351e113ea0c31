//! Solver infrastructure shared by every constraint set, independent of any family:
//! the [`Solver`] choice, the block schedule and its colouring (Gauss-Seidel order),
//! the Jacobi adjacency, and the deterministic parallel executor. The step itself
//! lives in `world::step` (ARCHITECTURE.md, "The step").

pub(crate) mod colouring;
pub(crate) mod jacobi;
pub(crate) mod parallel;
pub(crate) mod schedule;

/// Which iterative scheme projects the constraints.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
pub enum Solver {
    /// Constraints one after another (by colour, in parallel within a colour); fast
    /// convergence. The default.
    #[default]
    GaussSeidel,
    /// All constraints from the same positions, corrections averaged per particle and
    /// scaled by the relaxation factor; slower convergence, order-independent.
    Jacobi,
}

//! The SIMD kernels: the only code that uses CPU intrinsics. Each kernel is a scalar
//! definition and the AVX (or SSE2) version of it that performs the same IEEE-754
//! operations in the same order, so the results are the same bits on every CPU; a
//! unit test beside each kernel compares them. The entry points check the lengths of
//! the slices they are given (once per call, outside the loops) and pick the version
//! the CPU runs ([`simd::Kernel`], detected once at run time).
//!
//! * [`simd`]: the kernel choice, AVX detection and the 8 × 4 transposes.
//! * [`distance`] (with [`distance_avx`]): the Gauss-Seidel projection of distance
//!   constraints, one colour of slots at a time.
//! * [`distance_jacobi`]: the Jacobi projection of distance constraints and the
//!   per-particle gather; [`jacobi_plan`] runs them fused, in two stages.
//! * [`tether`]: the Gauss-Seidel projection of tethers.
//! * [`sweep`]: a constraint set's slots with their Gauss-Seidel schedule and plan,
//!   checked once at the first step after a rebuild, which runs the sweep and hands
//!   each run of slots to the kernels above (or to a family's own loop) safely.
//! * [`contact`]: the particle–particle contact sum over a neighbour list.
//! * [`plane_cull`]: the plane contact test of collider detection.
//! * [`predict`]: the integrator's pass between two substeps (the velocity update of
//!   one and the predict of the next), eight particles at a time.
//! * [`fluid`]: the density solver's loops (density, correction, viscosity), run
//!   through [`fluid_pass`] over a chunk of slots whose neighbour lists were checked
//!   once when the grid build sealed them ([`fluid_pass::SlotLists`]).
//! * [`splat`]: the field splat of a fluid's surface mesh, a block of nodes at a time.
//! * [`scan`]: the distance tests of the neighbour searches (particle contacts and
//!   fluids), the cell floor and the prefetch of their passes.
//!
//! The Gauss-Seidel and Jacobi kernels write particles of other slots than their own
//! index through `solver::parallel::DisjointSlice`; which slots may run at the same
//! time is the colouring's and the block schedule's business, so those entry points
//! stay `unsafe fn` with that one precondition, called from this module only: by
//! [`sweep::Sweep`], whose check of the schedule establishes it, and by
//! [`jacobi_plan::FusedPlan`], which builds its own stages.

pub(crate) mod contact;
pub(crate) mod distance;
#[cfg(target_arch = "x86_64")]
pub(crate) mod distance_avx;
pub(crate) mod distance_grid;
pub(crate) mod distance_jacobi;
pub(crate) mod fluid;
pub(crate) mod fluid_pass;
pub(crate) mod jacobi_plan;
pub(crate) mod plane_cull;
pub(crate) mod predict;
pub(crate) mod scan;
pub(crate) mod simd;
pub(crate) mod splat;
pub(crate) mod sweep;
pub(crate) mod tether;

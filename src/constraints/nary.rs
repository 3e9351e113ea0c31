//! Generic machinery for constraints over K particles (K = 2, 3, 4), shared by every
//! family except distance: storage in solve order (sorted by colour, then id), XPBD
//! projection with one λ per constraint, Gauss-Seidel by colour (each colour in
//! parallel), deterministic Jacobi (per-particle gather over a CSR adjacency), force
//! readback and removal (a removed constraint keeps its id and stops acting).
//!
//! A family supplies only C(x), ∇C and its rest data ([`Family`]); it sees positions
//! relative to its first particle, `r_k = x_k − x_0` (m), computed from the split
//! (base, displacement) storage with `separation`, so it keeps full precision far
//! from the origin. Every family here is translation-invariant.
//!
//! XPBD (Macklin et al. 2016, eq. 17-18): `α̃ = α / h²`,
//! `Δλ = (−C − α̃ λ) / (Σ_k w_k |∇_k C|² + α̃)`, `Δx_k = w_k ∇_k C Δλ`, `λ += Δλ`;
//! λ is reset at the start of each substep; the constraint's force is |λ| / h².
//!
//! ARCHITECTURE.md, "How to add a constraint family", lists the files a new family
//! takes.

use std::any::Any;
use std::marker::PhantomData;
use std::ops::Range;

use super::set::{
    force_of_lambda, remove_slots, ConstraintEdit, ConstraintSet, FamilyKind, Iteration, Persist,
};
use crate::error::{try_with_capacity, Error, Result};
use crate::kernels::sweep::Sweep;
use crate::math::{Vec3, Vec3A, Vec4};
use crate::particles::{separation, Particles};
use crate::snapshot::codec::{self, Plain, Reader, Writer};
use crate::snapshot::LoadContext;
use crate::solver::classes::{ParticleClasses, Phase, SlotClasses};
use crate::solver::jacobi::{self, Adjacency};
use crate::solver::parallel::{Executor, Rows};
use crate::solver::schedule::{self, Plan};

use super::link::Tether;

pub use crate::limits::MAX_FAMILY_CONSTRAINTS;

/// Compliance value marking a removed constraint (never accepted from a caller).
const REMOVED: f32 = -1.0;

/// One constraint family: its C(x) and ∇C.
pub trait Family<const K: usize>: Send + Sync + 'static {
    /// Per-constraint rest data (rest length, rest angle, rest volume, ...).
    type Rest: Copy + Send + Sync + std::fmt::Debug + Plain + 'static;
    /// Name for messages, e.g. "tether".
    const NAME: &'static str;
    /// Its public name, when the family has a low-level API.
    const KIND: Option<FamilyKind> = None;
    /// Unit of the compliance, e.g. "m/N".
    const COMPLIANCE_UNIT: &'static str;
    /// What the editable scalar of the rest data is, with its unit ("max length (m)"),
    /// None when the rest data has no single scalar (a strain or isometric matrix).
    const REST_UNIT: Option<&'static str> = None;
    /// C and ∇C at relative positions `r` (`r[0]` = 0), or None when the constraint is
    /// inactive (a unilateral constraint that holds) or degenerate (no direction).
    fn evaluate(r: &[Vec3; K], rest: &Self::Rest) -> Option<(f32, [Vec3; K])>;
    /// The editable scalar of `rest` (when [`Self::REST_UNIT`] is Some).
    fn rest_scalar(_rest: &Self::Rest) -> Option<f32> {
        None
    }
    /// Sets the editable scalar of `rest` (checked by [`Self::check_rest_scalar`]).
    fn set_rest_scalar(_rest: &mut Self::Rest, _value: f32) {}
    /// Checks `value` as the editable scalar; `what` names it in the message.
    fn check_rest_scalar(what: &str, _value: f32) -> Result<()> {
        Err(Error::invalid(format!(
            "{what}: the {} family has no scalar rest value",
            Self::NAME
        )))
    }
}

/// Relative positions `x_k − x_0` of the particles `idx`, from split storage.
#[inline(always)]
pub(crate) fn relative<const K: usize>(
    idx: &[u32; K],
    base: &[Vec3A],
    hot: impl Fn(usize) -> Vec4,
) -> ([Vec3; K], [Vec4; K]) {
    let p: [Vec4; K] = std::array::from_fn(|k| hot(idx[k] as usize));
    let b: [Vec3A; K] = std::array::from_fn(|k| base[idx[k] as usize]);
    (separations(&b, &p), p)
}

/// Relative positions `x_k − x_0` (m) of one constraint's particles from their
/// gathered base positions `b` and hot records `p` (`particles::separation`).
#[inline(always)]
pub(crate) fn separations<const K: usize>(b: &[Vec3A; K], p: &[Vec4; K]) -> [Vec3; K] {
    std::array::from_fn(|k| separation(b[k], b[0], p[k], p[0]))
}

/// The XPBD update of one constraint: per-particle corrections and Δλ (scaled by
/// `scale`, 1 for Gauss-Seidel, the Jacobi weight otherwise).
#[inline(always)]
pub(crate) fn project<F: Family<K>, const K: usize>(
    r: &[Vec3; K],
    p: &[Vec4; K],
    rest: &F::Rest,
    alpha_tilde: f32,
    lambda: f32,
    scale: f32,
) -> Option<([Vec3; K], f32)> {
    let (c, g) = F::evaluate(r, rest)?;
    let mut denom = alpha_tilde;
    for k in 0..K {
        denom += p[k].w * g[k].length_squared();
    }
    // Degenerate or overflowing geometry (an extreme but accepted state): skip the
    // constraint this iteration rather than write NaN. `denom` finite implies finite
    // gradients of movable particles; pinned ones (w = 0) are checked too, since
    // `∞ · 0` is NaN.
    if !denom.is_finite()
        || denom <= f32::MIN_POSITIVE
        || !c.is_finite()
        || g.iter().any(|v| !v.is_finite())
    {
        return None;
    }
    let dl = scale * (-c - alpha_tilde * lambda) / denom;
    if !dl.is_finite() {
        return None;
    }
    Some((std::array::from_fn(|k| g[k] * (p[k].w * dl)), dl))
}

/// The XPBD update of one constraint over many particles with one λ (a ring's area,
/// a surface's volume): Δλ = (−C − α̃λ) / `denom`, each particle moved by w ∇C Δλ.
/// `denom` is Σ w |∇C|² + α̃, summed by the caller in its own order. Overflowing
/// geometry (see [`project`]) skips the update rather than write NaN.
pub(crate) fn apply_shared_lambda(
    particles: &mut Particles,
    ids: &[u32],
    gradient: &[Vec3],
    c: f32,
    alpha_tilde: f32,
    denom: f32,
    lambda: &mut f32,
) {
    if !denom.is_finite() || denom <= f32::MIN_POSITIVE || gradient.iter().any(|g| !g.is_finite()) {
        return;
    }
    let dl = (-c - alpha_tilde * *lambda) / denom;
    if !dl.is_finite() {
        return;
    }
    for (g, &p) in gradient.iter().zip(ids) {
        let h = &mut particles.hot[p as usize];
        *h += (*g * (h.w * dl)).extend(0.0);
    }
    *lambda += dl;
}

/// Constraints of family F over K particles, stored in solve order.
pub struct NarySet<F: Family<K>, const K: usize> {
    /// The particles of each slot with the Gauss-Seidel phases (blocks of interior
    /// slots, then shared colours: `solver::schedule`) and the plan that cuts them into
    /// the stages and items of one parallel sweep, checked at the first step after a
    /// rebuild.
    sweep: Sweep<K>,
    rest: Vec<F::Rest>,
    /// Units of the family (m/N for lengths); [`REMOVED`] for a removed constraint.
    compliance: Vec<f32>,
    /// Lagrange multiplier of the current / last substep.
    lambda: Vec<f32>,
    /// constraint id → storage slot
    slot_of: Vec<u32>,
    /// Jacobi only: particle → `slot · K + k` indices into `corrections`.
    adjacency: Adjacency,
    corrections: Vec<Vec3>,
    /// Jacobi only: 1 / (largest number of constraints on a movable particle of the slot).
    weight: Vec<f32>,
    /// The particle count the schedule and the adjacency were built for (the world's,
    /// with the particles of a body being added): a snapshot rebuilds them for it.
    built_for: u32,
    /// The runs of slots that do not run every substep (`solver::classes`; empty
    /// when every particle does).
    classes: SlotClasses,
    _family: PhantomData<F>,
}

impl<F: Family<K>, const K: usize> Default for NarySet<F, K> {
    fn default() -> Self {
        NarySet {
            sweep: Sweep::default(),
            rest: Vec::new(),
            compliance: Vec::new(),
            lambda: Vec::new(),
            slot_of: Vec::new(),
            adjacency: Adjacency::default(),
            corrections: Vec::new(),
            weight: Vec::new(),
            built_for: 0,
            classes: SlotClasses::default(),
            _family: PhantomData,
        }
    }
}

/// One constraint to add (validated by the caller).
#[derive(Clone, Copy, Debug)]
pub struct NewConstraint<R, const K: usize> {
    pub particles: [u32; K],
    pub rest: R,
    pub compliance: f32,
}

impl<F: Family<K>, const K: usize> NarySet<F, K> {
    /// Number of constraints (removed ones included: ids never shift).
    pub fn len(&self) -> usize {
        self.sweep.items().len()
    }

    pub fn is_empty(&self) -> bool {
        self.sweep.items().is_empty()
    }

    /// Largest number of colours in one phase of a Gauss-Seidel sweep.
    pub fn colour_count(&self) -> usize {
        self.sweep.schedule().colour_count()
    }

    /// Particles of constraint `id`.
    pub fn particles_of(&self, id: usize) -> [u32; K] {
        self.sweep.items()[self.slot_of[id] as usize]
    }

    /// Rest data of constraint `id`.
    pub fn rest(&self, id: usize) -> F::Rest {
        self.rest[self.slot_of[id] as usize]
    }

    /// Compliance of constraint `id`, None once removed.
    pub fn compliance(&self, id: usize) -> Option<f32> {
        let c = self.compliance[self.slot_of[id] as usize];
        (c >= 0.0).then_some(c)
    }

    /// |λ| / h² of constraint `id` in the last substep of length `h` (s): N for
    /// constraints measured in m, N·m for dimensionless ones (angles, volume ratios).
    pub fn force(&self, id: usize, h: f32) -> f32 {
        force_of_lambda(self.lambda[self.slot_of[id] as usize], h)
    }

    /// Fails unless `count` more constraints fit.
    pub(crate) fn check_room(&self, count: usize) -> Result<()> {
        if self.len() as u64 + count as u64 > MAX_FAMILY_CONSTRAINTS as u64 {
            return Err(Error::out_of_range(format!(
                "adding {count} {} constraints to {} would exceed the limit of {MAX_FAMILY_CONSTRAINTS}",
                F::NAME,
                self.len()
            )));
        }
        Ok(())
    }

    /// A new set holding these constraints followed by `new` (ids continue), coloured
    /// and sorted, with Jacobi data when `jacobi`, over the particles whose hot data
    /// (displacement, inverse mass) is `hot` (it may include particles not yet in the
    /// world). `self` is untouched, so a failure (out of memory) changes nothing.
    pub(crate) fn with_appended(
        &self,
        new: &[NewConstraint<F::Rest, K>],
        hot: &[Vec4],
        jacobi: bool,
    ) -> Result<Self> {
        self.check_room(new.len())?;
        let what = F::NAME;
        let m = self.len() + new.len();
        let mut rows = try_with_capacity::<(NewConstraint<F::Rest, K>, f32)>(m, what)?;
        rows.extend(self.slot_of.iter().map(|&slot| {
            let s = slot as usize;
            let row = NewConstraint {
                particles: self.sweep.items()[s],
                rest: self.rest[s],
                compliance: self.compliance[s],
            };
            (row, self.lambda[s])
        }));
        rows.extend(new.iter().map(|&n| (n, 0.0)));
        let mut items = try_with_capacity::<[u32; K]>(m, what)?;
        items.extend(rows.iter().map(|(r, _)| r.particles));
        let (slot_of, schedule) = schedule::build(&items, hot.len())?;
        let plan = Plan::new(&schedule, &items, &slot_of, hot.len())?;
        // Slot order: the inverse of the id → slot permutation.
        let mut id_of_slot = try_with_capacity::<u32>(m, what)?;
        id_of_slot.resize(m, 0);
        for (id, &slot) in slot_of.iter().enumerate() {
            id_of_slot[slot as usize] = id as u32;
        }
        drop(items);
        // The particles of each slot, in slot order, gathered with the other slot
        // arrays in one pass.
        let mut particles = try_with_capacity::<[u32; K]>(m, what)?;
        let mut out = NarySet::<F, K> {
            rest: try_with_capacity(m, what)?,
            compliance: try_with_capacity(m, what)?,
            lambda: try_with_capacity(m, what)?,
            slot_of,
            built_for: hot.len() as u32,
            ..Default::default()
        };
        for &id in &id_of_slot {
            let (row, lambda) = &rows[id as usize];
            particles.push(row.particles);
            out.rest.push(row.rest);
            out.compliance.push(row.compliance);
            out.lambda.push(*lambda);
        }
        out.sweep = Sweep::new(particles, schedule, plan, hot.len())?;
        out.prepare_jacobi(hot, jacobi)?;
        Ok(out)
    }

    /// Builds (or drops) the Jacobi adjacency and buffers over the particles in `hot`.
    fn prepare_jacobi(&mut self, hot: &[Vec4], jacobi: bool) -> Result<()> {
        if !jacobi || self.is_empty() {
            self.adjacency = Adjacency::default();
            self.corrections = Vec::new();
            self.weight = Vec::new();
            return Ok(());
        }
        let adjacency = Adjacency::build(self.sweep.items(), hot.len())?;
        let (corrections, weight) = jacobi::buffers(self.len() * K, self.len())?;
        self.adjacency = adjacency;
        self.corrections = corrections;
        self.weight = weight;
        self.update_jacobi_weights(hot);
        Ok(())
    }

    /// Recomputes the Jacobi weights 1 / max(n_k) over the movable particles of each
    /// constraint (n = active constraints of this set on the particle). No allocation.
    pub(crate) fn update_jacobi_weights(&mut self, hot: &[Vec4]) {
        if self.weight.len() != self.len() {
            return;
        }
        for s in 0..self.len() {
            let mut most = 1usize;
            for &p in &self.sweep.items()[s] {
                let p = p as usize;
                if hot[p].w > 0.0 {
                    most = most.max(self.adjacency.of(p).len());
                }
            }
            self.weight[s] = 1.0 / most as f32;
        }
    }

    /// Sets the compliance of the live constraints among ids `ids`.
    pub(crate) fn set_compliance(&mut self, ids: Range<u32>, compliance: f32) {
        for id in ids {
            let s = self.slot_of[id as usize] as usize;
            if self.compliance[s] >= 0.0 {
                self.compliance[s] = compliance;
            }
        }
    }

    /// Sets the compliance of the live constraints among ids `ids` for which `pick(id)`.
    pub(crate) fn set_compliance_where(
        &mut self,
        ids: Range<u32>,
        compliance: f32,
        pick: impl Fn(u32) -> bool,
    ) {
        for id in ids {
            let s = self.slot_of[id as usize] as usize;
            if pick(id) && self.compliance[s] >= 0.0 {
                self.compliance[s] = compliance;
            }
        }
    }

    /// One Gauss-Seidel sweep in the order of the schedule, as one parallel region
    /// (`schedule::Plan`, as the distance constraints): blocks in parallel, each colour
    /// by colour, then the shared colours, large ones cut between threads; `threads`
    /// from `Executor::threads_for`.
    pub(crate) fn solve_gauss_seidel(
        &mut self,
        particles: &mut Particles,
        inv_h2: f32,
        exec: &Executor,
        threads: usize,
        phase: Phase,
    ) {
        let (rest, compliance) = (&self.rest, &self.compliance);
        let active = (!self.classes.is_empty()).then_some((&self.classes, phase));
        // Tethers have a SIMD kernel (the same bits as the loop below): F is `Tether`,
        // whose constraints are pairs (K = 2) with an f32 rest (its max length).
        let tethers = (std::any::TypeId::of::<F>() == std::any::TypeId::of::<Tether>())
            .then(|| (rest as &dyn Any).downcast_ref::<Vec<f32>>())
            .flatten();
        let Particles {
            hot,
            base,
            velocity,
            ..
        } = particles;
        let lambda = &mut self.lambda;
        self.sweep.run(
            exec,
            threads,
            hot,
            base,
            velocity,
            lambda,
            None,
            active,
            None,
            |run| {
                let start = match tethers {
                    Some(max) => run.tether(max, compliance, inv_h2),
                    None => run.range().start,
                };
                run.each(start, |s, _, b, p, l| {
                    let alpha = compliance[s];
                    if alpha < 0.0 {
                        return None;
                    }
                    let r = separations(&b, &p);
                    let (dx, dl) = project::<F, K>(&r, &p, &rest[s], alpha * inv_h2, l, 1.0)?;
                    Some((std::array::from_fn(|k| p[k] + dx[k].extend(0.0)), l + dl))
                });
            },
        );
    }

    /// One Jacobi iteration: every constraint is projected from the same positions,
    /// with its Δλ scaled by ω / max(n_k) (n = constraints of this set on a movable
    /// particle, ω = `relaxation`), then each particle gathers its corrections in a
    /// fixed order (deterministic for any thread count).
    pub(crate) fn solve_jacobi(
        &mut self,
        particles: &mut Particles,
        inv_h2: f32,
        relaxation: f32,
        exec: &Executor,
    ) {
        let m = self.len();
        if m == 0 {
            return;
        }
        debug_assert_eq!(self.corrections.len(), m * K);
        {
            let (hot, base) = (&particles.hot, &particles.base);
            let parts = (
                Rows::with_width(&mut self.corrections, K),
                Rows::new(&mut self.lambda),
            );
            let (items, rest, compliance, weight) = (
                self.sweep.items(),
                &self.rest,
                &self.compliance,
                &self.weight,
            );
            exec.for_chunks(parts, |r, (corrections, lambda)| {
                let rows = corrections.chunks_exact_mut(K).zip(lambda);
                for (s, (out, lambda)) in r.zip(rows) {
                    let alpha = compliance[s];
                    let (rel, p) = relative(&items[s], base, |i| hot[i]);
                    let l = *lambda;
                    let scale = relaxation * weight[s];
                    let res = if alpha < 0.0 {
                        None
                    } else {
                        project::<F, K>(&rel, &p, &rest[s], alpha * inv_h2, l, scale)
                    };
                    match res {
                        Some((dx, dl)) => {
                            out.copy_from_slice(&dx);
                            *lambda = l + dl;
                        }
                        None => out.fill(Vec3::ZERO),
                    }
                }
            });
        }
        let (adjacency, corrections) = (&self.adjacency, &self.corrections);
        let pos = Rows::new(&mut particles.hot[..adjacency.particle_count()]);
        exec.for_chunks(pos, |r, pos| {
            for (i, p) in r.zip(pos) {
                let list = adjacency.of(i);
                if list.is_empty() {
                    continue;
                }
                let sum = list
                    .iter()
                    .fold(Vec3::ZERO, |acc, &e| acc + corrections[e as usize]);
                *p += sum.extend(0.0);
            }
        });
    }

    /// One iteration with the world's solver.
    pub(crate) fn solve(
        &mut self,
        particles: &mut Particles,
        inv_h2: f32,
        jacobi: Option<f32>,
        exec: &Executor,
        threads: usize,
        phase: Phase,
    ) {
        if self.is_empty() {
            return;
        }
        match jacobi {
            None => self.solve_gauss_seidel(particles, inv_h2, exec, threads, phase),
            Some(relaxation) => self.solve_jacobi(particles, inv_h2, relaxation, exec),
        }
    }
}

impl<F: Family<K>, const K: usize> ConstraintSet for NarySet<F, K> {
    fn count(&self) -> usize {
        self.len()
    }

    /// Checks the Gauss-Seidel sweep once after a rebuild (`Sweep::prepare`).
    fn begin_step(&mut self) -> Result<()> {
        self.sweep.prepare()
    }

    fn refresh_classes(&mut self, classes: Option<&ParticleClasses<'_>>) -> Result<()> {
        self.sweep.refresh_classes(&mut self.classes, classes)
    }

    fn begin_substep(&mut self, _s: u32, _n: u32, _solver: crate::solver::Solver) {
        self.lambda.fill(0.0);
    }

    fn project(&mut self, particles: &mut Particles, it: &Iteration<'_>) {
        let threads = it.exec.threads_for(self.len(), it.work);
        self.solve(
            particles,
            it.inv_h2,
            it.jacobi(),
            it.exec,
            threads,
            it.phase,
        );
    }

    fn update_jacobi_weights(&mut self, hot: &[Vec4]) {
        NarySet::update_jacobi_weights(self, hot);
    }

    fn colour_count(&self) -> usize {
        NarySet::colour_count(self)
    }
}

impl<F: Family<K>, const K: usize> ConstraintEdit for NarySet<F, K> {
    fn kind(&self) -> Option<FamilyKind> {
        F::KIND
    }

    fn force(&self, id: usize, h: f32) -> f32 {
        NarySet::force(self, id, h)
    }

    /// Removes constraints `ids`: they keep their ids, stop acting and report 0 force.
    fn remove(&mut self, ids: Range<u32>) {
        remove_slots(
            ids,
            &self.slot_of,
            &mut self.compliance,
            REMOVED,
            &mut self.lambda,
        );
    }

    fn is_removed(&self, id: usize) -> bool {
        self.compliance[self.slot_of[id] as usize] < 0.0
    }

    fn rest_value(&self, id: usize) -> Option<f32> {
        F::rest_scalar(&self.rest[self.slot_of[id] as usize])
    }

    fn rest_unit(&self) -> Option<&'static str> {
        F::REST_UNIT
    }

    fn check_rest(&self, _id: usize, value: f32, what: &str) -> Result<()> {
        F::check_rest_scalar(what, value)
    }

    fn edit_rest(&mut self, id: usize, value: f32) {
        F::set_rest_scalar(&mut self.rest[self.slot_of[id] as usize], value);
    }

    fn compliance_unit(&self) -> Option<&'static str> {
        Some(F::COMPLIANCE_UNIT)
    }

    fn edit_compliance(&mut self, id: usize, compliance: f32) {
        let s = self.slot_of[id] as usize;
        if self.compliance[s] >= 0.0 {
            self.compliance[s] = compliance;
        }
    }

    fn locate(&self, id: usize, particles: &Particles) -> Option<(u32, Vec3)> {
        Some(super::set::mean_position(&self.particles_of(id), particles))
    }
}

impl<F: Family<K>, const K: usize> Persist for NarySet<F, K> {
    /// The constraints in slot order with their λ and the id → slot map; the schedule
    /// and the Jacobi data are rebuilt on load (the same build, so the same order).
    fn save(&self, w: &mut Writer<'_>) {
        w.put(self.built_for);
        w.put_block(self.sweep.items());
        w.put_raw(&self.rest);
        w.put_block_raw(&self.compliance);
        w.put_block_raw(&self.lambda);
        w.put_block_raw(&self.slot_of);
    }

    fn load(&mut self, r: &mut Reader<'_>, cx: &LoadContext<'_>) -> Result<()> {
        let built_for = r.get::<u32>()?;
        let particles = r.get_block::<[u32; K]>()?;
        let m = particles.len();
        let raw = NarySet::<F, K> {
            rest: r.get_raw(m)?,
            compliance: r.get_block_raw(m)?,
            lambda: r.get_block_raw(m)?,
            slot_of: r.get_block_raw(m)?,
            sweep: Sweep::unscheduled(particles),
            built_for,
            ..Default::default()
        };
        if m == 0 && built_for == 0 {
            *self = raw;
            return Ok(());
        }
        let n = codec::built_for(built_for, cx.hot.len(), F::NAME)?;
        codec::check_elements(raw.sweep.items(), n, F::NAME)?;
        codec::check_permutation(&raw.slot_of, F::NAME)?;
        codec::check_finite(raw.compliance.iter().copied(), F::NAME)?;
        codec::check_finite(raw.lambda.iter().copied(), F::NAME)?;
        let mut set = raw.with_appended(&[], &cx.hot[..n], cx.jacobi)?;
        codec::ensure(set.slot_of == raw.slot_of, || {
            format!("the {} order does not match its rebuild", F::NAME)
        })?;
        // Verbatim (the rebuild keeps them too; this keeps every bit).
        set.compliance = raw.compliance;
        set.lambda = raw.lambda;
        *self = set;
        Ok(())
    }
}

/// Checks K-particle index tuples: in range and no particle repeated within one
/// element. `what` names the element kind ("tet", "triangle", ...).
pub(crate) fn check_elements<const K: usize>(
    elements: &[[u32; K]],
    particle_count: usize,
    what: &str,
) -> Result<()> {
    for (j, e) in elements.iter().enumerate() {
        for (k, &p) in e.iter().enumerate() {
            if p as usize >= particle_count {
                return Err(Error::out_of_range(format!(
                    "{what} {j}: particle index {p} is out of range (there are {particle_count} particles)"
                )));
            }
            if e[..k].contains(&p) {
                return Err(Error::invalid(format!(
                    "{what} {j}: particle {p} appears twice in {e:?}"
                )));
            }
        }
    }
    Ok(())
}

/// Checks a compliance value for a family (finite, >= 0, at most `max`).
pub(crate) fn check_compliance(what: &str, compliance: f32, max: f32, unit: &str) -> Result<()> {
    crate::limits::check_compliance(what, compliance, max, unit)
}

#[cfg(test)]
pub(crate) mod fd {
    //! Finite-difference check of a family's ∇C (f64 central differences of the f32 C).
    use super::*;

    /// Compares ∇C with central differences at `r` (relative positions, r[0] = 0 is
    /// moved too: C must be translation-invariant so moving x_0 is fine).
    pub(crate) fn check_gradient<F: Family<K>, const K: usize>(
        x: [Vec3; K],
        rest: &F::Rest,
        eps: f32,
        tol: f32,
    ) {
        let rel = |x: &[Vec3; K]| -> [Vec3; K] { std::array::from_fn(|k| x[k] - x[0]) };
        let (_, g) = F::evaluate(&rel(&x), rest).expect("active at the test point");
        let mut worst = 0.0f32;
        let scale = g
            .iter()
            .map(|v| v.length())
            .fold(0.0f32, f32::max)
            .max(1e-3);
        for k in 0..K {
            for axis in 0..3 {
                let mut xp = x;
                let mut xm = x;
                xp[k][axis] += eps;
                xm[k][axis] -= eps;
                let cp = F::evaluate(&rel(&xp), rest).expect("active").0;
                let cm = F::evaluate(&rel(&xm), rest).expect("active").0;
                let numeric = (cp - cm) / (2.0 * eps);
                let err = (numeric - g[k][axis]).abs();
                worst = worst.max(err);
                assert!(
                    err <= tol * scale,
                    "{}: dC/dx{k}[{axis}] analytic {} vs finite difference {numeric} (|∇C| scale {scale})",
                    F::NAME,
                    g[k][axis]
                );
            }
        }
        // Translation invariance: the gradients sum to zero.
        let sum: Vec3 = g.iter().copied().sum();
        assert!(sum.length() <= 1e-4 * scale, "{}: Σ∇C = {sum}", F::NAME);
        let _ = worst;
    }
}

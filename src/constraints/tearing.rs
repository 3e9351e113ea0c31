//! Tearable cloth: the constraints of every cloth whose tearing is on, with the mesh
//! they were built from, so that a vertex can be split where an edge tears.
//!
//! When tearing is turned on for a cloth (`World::set_cloth_tear_threshold`), its edge
//! links, distance-bending links and hinges (dihedral or isometric) move out of the
//! coloured sets into one [`TornCloth`] (the originals are removed, keeping their ids),
//! together with its triangles and a reserve of spare particles. Here they are
//! projected by one serial Gauss-Seidel sweep in a fixed order (edges, then dihedral,
//! then isometric hinges; XPBD as every other family, Macklin et al. 2016), under
//! either solver, so a split can re-point any constraint to a new particle without
//! recolouring anything and the result does not depend on the thread count.
//!
//! **Tearing** (`topology/tearing.rs`, at the end of each step): an edge whose length
//! exceeds `threshold` × its rest length (a stretch ratio, dimensionless) splits the
//! mesh at one of its vertices, as in the vertex-splitting tear of Obi Cloth's tearable
//! cloth and of Pfaff et al., "Adaptive Tearing and Cracking of Thin Sheets" (2014):
//! the plane through the vertex normal to the torn edge cuts its fan of triangles in
//! two; a spare particle (a copy of the vertex, each taking half of its mass) takes the
//! triangles on the torn edge's side, and every constraint follows its triangles; the
//! torn edge itself relaxes to its length (its fibres failed: the elastic energy it
//! held goes into the fracture, not into the half-mass copy). An
//! edge whose two triangles end up on different sides gets a copy for the new vertex
//! (from a room reserved with the particles); a hinge whose wings end up on different
//! sides is removed. The cloth's tethers go at its first tear (a torn-off piece must
//! fall). The step never allocates: the particles, the room for copied edges and the
//! scratch are reserved when tearing is turned on.

use std::ops::Range;

use super::bending::{Dihedral, Isometric, IsometricRest};
use super::nary::{project, relative, Family};
use super::set::{force_of_lambda, ConstraintEdit, ConstraintSet, Iteration, Persist};
use crate::error::{try_reserve, Result};
use crate::math::Vec3;
use crate::particles::Particles;
use crate::snapshot::codec::{self, corrupt, Plain, Reader, Writer};
use crate::snapshot::LoadContext;
use crate::solver::Solver;

/// Compliance marking a removed constraint.
const REMOVED: f32 = -1.0;
/// Index meaning "none" (the hinge of an edge that is not a bending link).
pub(crate) const NONE: u32 = u32::MAX;
pub(crate) use crate::limits::MAX_TEAR_RESERVE;
/// Room for copied edges per spare particle (a split copies the edges its plane runs
/// along: two for a fan cut in two, more only on a crumpled fan).
pub(crate) const EDGES_PER_SPLIT: u32 = 8;

/// What a torn cloth's edge is.
#[repr(u32)]
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum EdgeKind {
    /// A mesh edge (m/N); it can tear.
    Stretch = 0,
    /// A grid diagonal (m/N); it can tear.
    Shear = 1,
    /// A distance-bending link between the wings of a hinge (m/N); never tears.
    Bend = 2,
}

/// One length link of a torn cloth: `p[0]`–`p[1]` at `rest` (m); a bending link
/// keeps the hinge edge it spans in `p[2]`, `p[3]` (else [`NONE`]).
#[derive(Clone, Copy, Debug, PartialEq)]
pub(crate) struct Edge {
    pub p: [u32; 4],
    pub kind: EdgeKind,
    pub rest: f32,
    /// m/N; [`REMOVED`] once removed.
    pub compliance: f32,
    /// The XPBD multiplier accumulated over the substep (N·s²: the force is λ/h²).
    pub lambda: f32,
    /// The body-link id it came from ([`NONE`] for a copy a split made): force
    /// readback by body keeps reading it under that id.
    pub id: u32,
}

impl Edge {
    pub(crate) fn live(&self) -> bool {
        self.compliance >= 0.0
    }
}

/// One hinge (dihedral or isometric bending) over the edge `p[0]`–`p[1]` with wings
/// `p[2]`, `p[3]` (the particle order of the families).
#[derive(Clone, Copy, Debug, PartialEq)]
pub(crate) struct Hinge<R> {
    pub p: [u32; 4],
    pub rest: R,
    /// Units of the family; [`REMOVED`] once removed.
    pub compliance: f32,
    /// The XPBD multiplier accumulated over the substep (the family's constraint unit
    /// divided by its compliance unit, times s²).
    pub lambda: f32,
}

impl<R> Hinge<R> {
    pub(crate) fn live(&self) -> bool {
        self.compliance >= 0.0
    }
}

impl Plain for Edge {
    const SIZE: usize = 16 + 16 + 4;
    fn write(self, out: &mut [u8]) {
        (
            (self.p, self.id),
            (self.kind as u32, self.rest, self.compliance, self.lambda),
        )
            .write(out);
    }
    fn read(b: &[u8]) -> Self {
        let ((p, id), (kind, rest, compliance, lambda)) =
            <(([u32; 4], u32), (u32, f32, f32, f32))>::read(b);
        let kind = match kind {
            0 => EdgeKind::Stretch,
            1 => EdgeKind::Shear,
            _ => EdgeKind::Bend,
        };
        Edge {
            p,
            kind,
            rest,
            compliance,
            lambda,
            id,
        }
    }
}

impl<R: Plain> Plain for Hinge<R> {
    const SIZE: usize = 16 + R::SIZE + 8;
    fn write(self, out: &mut [u8]) {
        (self.p, (self.rest, (self.compliance, self.lambda))).write(out);
    }
    fn read(b: &[u8]) -> Self {
        let (p, (rest, (compliance, lambda))) = <([u32; 4], (R, (f32, f32)))>::read(b);
        Hinge {
            p,
            rest,
            compliance,
            lambda,
        }
    }
}

/// A bilateral length link (m), the distance constraint of a torn cloth.
struct Link;

impl Family<2> for Link {
    type Rest = f32;
    const NAME: &'static str = "torn cloth edge";
    const COMPLIANCE_UNIT: &'static str = "m/N";
    #[inline]
    fn evaluate(r: &[Vec3; 2], rest: &f32) -> Option<(f32, [Vec3; 2])> {
        let len = r[1].length();
        if len.is_nan() || len <= 1e-12 {
            return None;
        }
        let n = r[1] / len;
        Some((len - rest, [-n, n]))
    }
}

/// One cloth whose tearing is on.
#[derive(Clone, Debug)]
pub(crate) struct TornCloth {
    /// The body's particles (they identify the cloth; ids of bodies carry a world
    /// serial that a snapshot does not keep).
    pub body: Range<u32>,
    /// The spare particles, `reserve.start..reserve.start + used` in use.
    pub reserve: Range<u32>,
    pub used: u32,
    /// Stretch ratio (length / rest length) past which an edge tears; +inf: off.
    pub threshold: f32,
    /// The body's tethers, removed at the first tear.
    pub tethers: Range<u32>,
    pub tethers_dropped: bool,
    /// Triangles (particle indices), in the builder's order, re-pointed by splits.
    pub triangles: Vec<[u32; 3]>,
    pub edges: Vec<Edge>,
    pub dihedral: Vec<Hinge<f32>>,
    pub isometric: Vec<Hinge<IsometricRest>>,
    /// Edges a split may still copy (room reserved in `edges`).
    pub edge_room: u32,
    /// Splits refused because the reserve (particles or edge room) ran out.
    pub refused: u64,
    /// Number of splits so far: the topology version hosts compare.
    pub version: u64,
    /// For each spare in use, the vertex of the body it descends from (a host copies
    /// that vertex's UV and colour).
    pub source: Vec<u32>,
    /// Scratch of one tear pass: the particles split in it (capacity reserved).
    pub split_now: Vec<u32>,
}

impl TornCloth {
    /// The render vertex of particle `p` (the body's particles, then the spares).
    pub(crate) fn vertex_of(&self, p: u32) -> u32 {
        if self.body.contains(&p) {
            p - self.body.start
        } else {
            self.body.len() as u32 + (p - self.reserve.start)
        }
    }

    /// The particle of render vertex `v`.
    pub(crate) fn particle_of(&self, v: u32) -> u32 {
        let n = self.body.len() as u32;
        if v < n {
            self.body.start + v
        } else {
            self.reserve.start + (v - n)
        }
    }

    /// The vertex of the body render vertex `v` descends from (itself for the body's).
    pub(crate) fn source_of(&self, v: u32) -> u32 {
        let n = self.body.len() as u32;
        if v < n {
            v
        } else {
            self.source[(v - n) as usize]
        }
    }

    /// Number of render vertices (the body's particles and the spares in use).
    pub(crate) fn vertex_count(&self) -> u32 {
        self.body.len() as u32 + self.used
    }

    /// Reserves what the step needs (edge room, scratch); used on creation and load.
    pub(crate) fn reserve_room(&mut self) -> Result<()> {
        try_reserve(&mut self.edges, self.edge_room as usize, "torn cloth edges")?;
        let spare = self.reserve.len().saturating_sub(self.used as usize);
        try_reserve(&mut self.split_now, 2 * spare, "torn cloth scratch")?;
        try_reserve(&mut self.source, spare, "torn cloth vertex sources")?;
        Ok(())
    }

    fn project(&mut self, particles: &mut Particles, inv_h2: f32) {
        let (base, hot) = (&particles.base, &mut particles.hot);
        for e in &mut self.edges {
            if !e.live() {
                continue;
            }
            let idx = [e.p[0], e.p[1]];
            let (r, p) = relative(&idx, base, |i| hot[i]);
            if let Some((dx, dl)) =
                project::<Link, 2>(&r, &p, &e.rest, e.compliance * inv_h2, e.lambda, 1.0)
            {
                for k in 0..2 {
                    hot[idx[k] as usize] = p[k] + dx[k].extend(0.0);
                }
                e.lambda += dl;
            }
        }
        project_hinges::<Dihedral>(&mut self.dihedral, base, hot, inv_h2);
        project_hinges::<Isometric>(&mut self.isometric, base, hot, inv_h2);
    }

    fn save(&self, w: &mut Writer<'_>) {
        w.put((self.body.start, self.body.end));
        w.put((self.reserve.start, self.reserve.end));
        w.put((self.used, self.threshold));
        w.put((self.tethers.start, self.tethers.end));
        w.put(self.tethers_dropped);
        w.put_slice(&self.triangles);
        w.put_slice(&self.edges);
        w.put_slice(&self.dihedral);
        w.put_slice(&self.isometric);
        w.put_slice(&self.source);
        w.put(self.edge_room);
        w.put((self.refused, self.version));
    }

    fn load(r: &mut Reader<'_>, particles: usize, tethers: usize) -> Result<TornCloth> {
        let range = |r: &mut Reader<'_>, max: usize, what: &str| -> Result<Range<u32>> {
            let (a, b) = r.get::<(u32, u32)>()?;
            codec::ensure(a <= b && b as usize <= max, || {
                format!("torn cloth {what} {a}..{b} of {max}")
            })?;
            Ok(a..b)
        };
        let body = range(r, particles, "particles")?;
        let reserve = range(r, particles, "reserve")?;
        let (used, threshold) = r.get::<(u32, f32)>()?;
        let tethers = range(r, tethers, "tethers")?;
        let tethers_dropped = r.get::<bool>()?;
        let triangles: Vec<[u32; 3]> = r.get_vec()?;
        let edges: Vec<Edge> = r.get_vec()?;
        let dihedral: Vec<Hinge<f32>> = r.get_vec()?;
        let isometric: Vec<Hinge<IsometricRest>> = r.get_vec()?;
        let source: Vec<u32> = r.get_vec()?;
        let edge_room = r.get::<u32>()?;
        let (refused, version) = r.get::<(u64, u64)>()?;
        codec::check_counters(&[refused, version], "a torn cloth")?;
        codec::ensure(
            used as usize <= reserve.len()
                && reserve.len() <= MAX_TEAR_RESERVE as usize
                && (reserve.end <= body.start || reserve.start >= body.end)
                && !body.is_empty()
                && threshold > 1.0
                && edge_room <= EDGES_PER_SPLIT * MAX_TEAR_RESERVE
                && source.len() == used as usize
                && source.iter().all(|&s| (s as usize) < body.len()),
            || "a torn cloth's reserve or threshold is out of range".to_string(),
        )?;
        let mut c = TornCloth {
            body,
            reserve,
            used,
            threshold,
            tethers,
            tethers_dropped,
            triangles,
            edges,
            dihedral,
            isometric,
            edge_room,
            refused,
            version,
            source,
            split_now: Vec::new(),
        };
        let ok =
            |p: u32| c.body.contains(&p) || (p >= c.reserve.start && p < c.reserve.start + c.used);
        let ok_or_none = |p: u32| p == NONE || ok(p);
        let valid = c.triangles.iter().flatten().all(|&p| ok(p))
            && c.edges.iter().all(|e| {
                ok(e.p[0])
                    && ok(e.p[1])
                    && e.p[0] != e.p[1]
                    && ok_or_none(e.p[2])
                    && ok_or_none(e.p[3])
            })
            && c.dihedral.iter().all(|h| h.p.iter().all(|&p| ok(p)))
            && c.isometric.iter().all(|h| h.p.iter().all(|&p| ok(p)));
        codec::ensure(valid, || {
            "a torn cloth names a particle outside its body and reserve".to_string()
        })?;
        let finite = c
            .edges
            .iter()
            .all(|e| e.rest.is_finite() && e.lambda.is_finite())
            && c.dihedral
                .iter()
                .all(|h| h.rest.is_finite() && h.lambda.is_finite())
            && c.isometric.iter().all(|h| h.lambda.is_finite());
        if !finite {
            return Err(corrupt("a torn cloth has a non-finite rest value or λ"));
        }
        c.reserve_room()?;
        Ok(c)
    }
}

fn project_hinges<F: Family<4>>(
    hinges: &mut [Hinge<F::Rest>],
    base: &[crate::math::Vec3A],
    hot: &mut [crate::math::Vec4],
    inv_h2: f32,
) {
    for h in hinges {
        if !h.live() {
            continue;
        }
        let (r, p) = relative(&h.p, base, |i| hot[i]);
        if let Some((dx, dl)) =
            project::<F, 4>(&r, &p, &h.rest, h.compliance * inv_h2, h.lambda, 1.0)
        {
            for k in 0..4 {
                hot[h.p[k] as usize] = p[k] + dx[k].extend(0.0);
            }
            h.lambda += dl;
        }
    }
}

/// Every torn cloth of a world, projected after the other sets (registry order).
#[derive(Default)]
pub struct TornCloths {
    pub(crate) cloths: Vec<TornCloth>,
}

impl TornCloths {
    /// The cloth whose body has the particles `body`.
    pub(crate) fn find(&self, body: &Range<u32>) -> Option<&TornCloth> {
        self.cloths.iter().find(|c| c.body == *body)
    }

    pub(crate) fn find_mut(&mut self, body: &Range<u32>) -> Option<&mut TornCloth> {
        self.cloths.iter_mut().find(|c| c.body == *body)
    }

    /// Every constraint in a fixed order: (cloth, family 0 edge / 1 dihedral /
    /// 2 isometric, index).
    fn nth(&self, id: usize) -> Option<(usize, u8, usize)> {
        let mut id = id;
        for (k, c) in self.cloths.iter().enumerate() {
            for (f, n) in [c.edges.len(), c.dihedral.len(), c.isometric.len()]
                .into_iter()
                .enumerate()
            {
                if id < n {
                    return Some((k, f as u8, id));
                }
                id -= n;
            }
        }
        None
    }

    fn lambda_and_compliance(&self, id: usize) -> Option<(f32, f32)> {
        let (k, f, i) = self.nth(id)?;
        let c = &self.cloths[k];
        Some(match f {
            0 => (c.edges[i].lambda, c.edges[i].compliance),
            1 => (c.dihedral[i].lambda, c.dihedral[i].compliance),
            _ => (c.isometric[i].lambda, c.isometric[i].compliance),
        })
    }
}

impl ConstraintSet for TornCloths {
    fn count(&self) -> usize {
        self.cloths
            .iter()
            .map(|c| c.edges.len() + c.dihedral.len() + c.isometric.len())
            .sum()
    }

    fn begin_substep(&mut self, _s: u32, _n: u32, _solver: Solver) {
        for c in &mut self.cloths {
            c.edges.iter_mut().for_each(|e| e.lambda = 0.0);
            c.dihedral.iter_mut().for_each(|h| h.lambda = 0.0);
            c.isometric.iter_mut().for_each(|h| h.lambda = 0.0);
        }
    }

    fn project(&mut self, particles: &mut Particles, it: &Iteration<'_>) {
        for c in &mut self.cloths {
            c.project(particles, it.inv_h2);
        }
    }
}

impl ConstraintEdit for TornCloths {
    fn force(&self, id: usize, h: f32) -> f32 {
        self.lambda_and_compliance(id)
            .map_or(0.0, |(l, _)| force_of_lambda(l, h))
    }

    fn remove(&mut self, ids: Range<u32>) {
        for id in ids {
            if let Some((k, f, i)) = self.nth(id as usize) {
                let c = &mut self.cloths[k];
                match f {
                    0 => c.edges[i].compliance = REMOVED,
                    1 => c.dihedral[i].compliance = REMOVED,
                    _ => c.isometric[i].compliance = REMOVED,
                }
            }
        }
    }

    fn is_removed(&self, id: usize) -> bool {
        self.lambda_and_compliance(id).is_none_or(|(_, c)| c < 0.0)
    }
}

impl Persist for TornCloths {
    fn save(&self, w: &mut Writer<'_>) {
        w.put_len(self.cloths.len());
        for c in &self.cloths {
            c.save(w);
        }
    }

    fn load(&mut self, r: &mut Reader<'_>, cx: &LoadContext<'_>) -> Result<()> {
        let n = r.get_count(64, "torn cloths")?;
        let mut cloths = crate::error::try_with_capacity(n, "torn cloths")?;
        for _ in 0..n {
            // Tethers are checked against the tether set by the world (loaded before
            // this set: the registry order).
            cloths.push(TornCloth::load(r, cx.hot.len(), u32::MAX as usize)?);
        }
        self.cloths = cloths;
        Ok(())
    }
}

/// Marks an edge or hinge removed.
pub(crate) fn remove_edge(e: &mut Edge) {
    e.compliance = REMOVED;
}

pub(crate) fn remove_hinge<R>(h: &mut Hinge<R>) {
    h.compliance = REMOVED;
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::constraints::nary::fd::check_gradient;

    #[test]
    fn link_gradient_matches_finite_differences() {
        check_gradient::<Link, 2>([Vec3::ZERO, Vec3::new(0.3, -0.2, 0.5)], &0.4, 1e-3, 1e-2);
    }

    #[test]
    fn edges_and_hinges_round_trip_their_encoding() {
        let e = Edge {
            p: [1, 2, NONE, 7],
            kind: EdgeKind::Bend,
            rest: 0.25,
            compliance: 1e-3,
            lambda: -2.5,
            id: 12,
        };
        let mut b = [0u8; Edge::SIZE];
        e.write(&mut b);
        assert_eq!(Edge::read(&b), e);
        let h = Hinge {
            p: [4, 5, 6, 7],
            rest: 0.5f32,
            compliance: 1.0,
            lambda: 3.0,
        };
        let mut b = [0u8; <Hinge<f32>>::SIZE];
        h.write(&mut b);
        assert_eq!(<Hinge<f32>>::read(&b), h);
    }
}

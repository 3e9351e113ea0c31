//! Cloth tearing, the algorithm (the torn cloths' constraints and their projection
//! are the registry set `crate::constraints::tearing`, the World API is
//! `world/tearing.rs`): at the end of each step, an edge stretched past its cloth's
//! threshold splits the mesh at one of its vertices (the method is described in
//! `crate::constraints::tearing`). No allocation; serial and in a fixed order, so the
//! same for any thread count.

use std::collections::HashMap;
use std::ops::Range;

use crate::bodies::BodyParts;
use crate::constraints::tearing::{
    remove_edge, remove_hinge, Edge, EdgeKind, Hinge, TornCloth, EDGES_PER_SPLIT, NONE,
};
use crate::constraints::{ConstraintEdit, ConstraintSets};
use crate::error::{try_with_capacity, Result};
use crate::math::Vec3;
use crate::particles::{separation, CollisionFilter, Particles};

/// The torn cloth of a cloth's body links, bending and tethers (`parts`) in `sets`:
/// particles `body`, `triangles` (global particle indices), the stretch ratio
/// `threshold` past which an edge tears and the spare particles `spares` (not yet
/// added). Allocates its room; changes nothing.
pub(crate) fn build(
    parts: &BodyParts,
    body: Range<u32>,
    triangles: &[[u32; 3]],
    sets: &ConstraintSets,
    threshold: f32,
    spares: Range<u32>,
) -> Result<TornCloth> {
    let edge_room = EDGES_PER_SPLIT * spares.len() as u32;
    let s = sets;
    // The hinge each distance-bending link spans: the edge whose wings it joins.
    let mut hinge_of: HashMap<(u32, u32), (u32, u32)> = HashMap::new();
    {
        let mut wings: HashMap<(u32, u32), Vec<u32>> = HashMap::new();
        for t in triangles {
            for k in 0..3 {
                let (a, b, c) = (t[k], t[(k + 1) % 3], t[(k + 2) % 3]);
                wings.entry((a.min(b), a.max(b))).or_default().push(c);
            }
        }
        for (e, w) in wings {
            if let [p, q] = w[..] {
                hinge_of.insert((p.min(q), p.max(q)), e);
            }
        }
    }
    let mut edges = try_with_capacity::<Edge>(
        (parts.bend_link.end - parts.stretch.start) as usize + edge_room as usize,
        "torn cloth edges",
    )?;
    for (ids, kind) in [
        (parts.stretch.clone(), EdgeKind::Stretch),
        (parts.shear.clone(), EdgeKind::Shear),
        (parts.bend_link.clone(), EdgeKind::Bend),
    ] {
        for i in ids {
            let i = i as usize;
            let Some(compliance) = s.link.compliance(i) else {
                continue;
            };
            let [a, b] = s.link.pair(i);
            let hinge = match kind {
                EdgeKind::Bend => hinge_of
                    .get(&(a.min(b), a.max(b)))
                    .map_or([NONE, NONE], |&(e0, e1)| [e0, e1]),
                _ => [NONE, NONE],
            };
            edges.push(Edge {
                p: [a, b, hinge[0], hinge[1]],
                kind,
                rest: s.link.rest_length(i),
                compliance,
                lambda: 0.0,
                id: i as u32,
            });
        }
    }
    let mut dihedral = try_with_capacity(parts.dihedral.len(), "torn cloth hinges")?;
    for i in parts.dihedral.clone() {
        let i = i as usize;
        if let Some(compliance) = s.dihedral.compliance(i) {
            dihedral.push(Hinge {
                p: s.dihedral.particles_of(i),
                rest: s.dihedral.rest(i),
                compliance,
                lambda: 0.0,
            });
        }
    }
    let mut isometric = try_with_capacity(parts.isometric.len(), "torn cloth hinges")?;
    for i in parts.isometric.clone() {
        let i = i as usize;
        if let Some(compliance) = s.isometric.compliance(i) {
            isometric.push(Hinge {
                p: s.isometric.particles_of(i),
                rest: s.isometric.rest(i),
                compliance,
                lambda: 0.0,
            });
        }
    }
    let mut cloth = TornCloth {
        body,
        reserve: spares,
        used: 0,
        threshold,
        tethers: parts.tether.clone(),
        tethers_dropped: false,
        triangles: triangles.to_vec(),
        edges,
        dihedral,
        isometric,
        edge_room,
        refused: 0,
        version: 0,
        source: Vec::new(),
        split_now: Vec::new(),
    };
    cloth.reserve_room()?;
    Ok(cloth)
}

/// Turns tearing on for `cloth` (from [`build`], its room reserved in `sets.torn` and
/// its spares in `particles`): the spares are added, parked at the cloth's first
/// particle, pinned and colliding with nothing, and the cloth's body links and
/// bending move from their sets into the torn-cloth set. Cannot fail.
pub(crate) fn start(
    cloth: TornCloth,
    parts: &BodyParts,
    sets: &mut ConstraintSets,
    particles: &mut Particles,
) {
    let park = particles.position(cloth.body.start as usize);
    for _ in 0..cloth.reserve.len() {
        let i = particles.len();
        particles.push(park, 0.0);
        particles.filter[i] = CollisionFilter {
            layers: 0,
            mask: 0,
            ..CollisionFilter::default()
        };
    }
    sets.link.remove(parts.stretch.start..parts.bend_link.end);
    sets.dihedral.remove(parts.dihedral.clone());
    sets.isometric.remove(parts.isometric.clone());
    sets.torn.cloths.push(cloth);
    sets.update_jacobi_weights(particles);
}

/// End of a step: splits the torn cloths of `sets` at their over-stretched edges.
pub(crate) fn tear_cloths(sets: &mut ConstraintSets, particles: &mut Particles) {
    if sets.torn.cloths.is_empty() {
        return;
    }
    let mut cloths = std::mem::take(&mut sets.torn.cloths);
    for c in &mut cloths {
        if c.threshold.is_finite() {
            tear(c, particles, sets);
        }
    }
    sets.torn.cloths = cloths;
}

/// `x_a − x_b` (m) at full precision.
fn sep(p: &Particles, a: u32, b: u32) -> Vec3 {
    let (a, b) = (a as usize, b as usize);
    separation(p.base[a], p.base[b], p.hot[a], p.hot[b])
}

/// One tear pass over one cloth.
fn tear(c: &mut TornCloth, particles: &mut Particles, sets: &mut ConstraintSets) {
    c.split_now.clear();
    let mut i = 0;
    while i < c.edges.len() {
        let e = c.edges[i];
        i += 1;
        if !e.live() || e.kind == EdgeKind::Bend {
            continue;
        }
        let [a, b] = [e.p[0], e.p[1]];
        if c.split_now.contains(&a) || c.split_now.contains(&b) {
            continue;
        }
        let len = sep(particles, b, a).length();
        if len.is_nan() || len <= c.threshold * e.rest {
            continue;
        }
        // The heavier end splits first (pinned counts as heaviest), then the other.
        let (wa, wb) = (particles.hot[a as usize].w, particles.hot[b as usize].w);
        let order = if wa <= wb {
            [(a, b), (b, a)]
        } else {
            [(b, a), (a, b)]
        };
        for (v, o) in order {
            match split(c, particles, v, o) {
                Split::Done(q) => {
                    // The torn edge's fibres failed: its stretch is released (its rest
                    // length becomes its length), so the energy it held is spent on the
                    // fracture instead of flinging the half-mass copy.
                    c.edges[i - 1].rest = len;
                    c.split_now.push(v);
                    c.split_now.push(q);
                    c.version += 1;
                    if !c.tethers_dropped {
                        sets.tether.remove(c.tethers.clone());
                        c.tethers_dropped = true;
                    }
                    break;
                }
                Split::NoRoom => {
                    c.refused += 1;
                    break;
                }
                Split::OneSided => {}
            }
        }
    }
}

enum Split {
    /// Split; the new particle.
    Done(u32),
    /// The reserve ran out.
    NoRoom,
    /// Every triangle of the vertex lies on one side of the plane: nothing to split.
    OneSided,
}

/// The side of triangle `t` (which holds `v`) when `v` splits along the plane through
/// it normal to its edge towards `o`: true for the side of `o`, which the new particle
/// takes (a triangle holding `o` always is).
fn side(particles: &Particles, t: [u32; 3], v: u32, o: u32) -> bool {
    if t.contains(&o) {
        return true;
    }
    let n = sep(particles, o, v);
    let c = t
        .iter()
        .fold(Vec3::ZERO, |acc, &p| acc + sep(particles, p, v))
        / 3.0;
    c.dot(n) > 0.0
}

/// The sides of the triangles that hold both `v` and `x`: (any on the old side, any on
/// the new side).
fn sides_of_edge(c: &TornCloth, particles: &Particles, v: u32, x: u32, o: u32) -> (bool, bool) {
    let mut s = (false, false);
    for t in c
        .triangles
        .iter()
        .filter(|t| t.contains(&v) && t.contains(&x))
    {
        if side(particles, *t, v, o) {
            s.1 = true;
        } else {
            s.0 = true;
        }
    }
    s
}

/// The sides of the (one or two) triangles of hinge `[e0, e1, w0, w1]` that hold `v`.
fn sides_of_hinge(particles: &Particles, h: [u32; 4], v: u32, o: u32) -> (bool, bool) {
    let mut s = (false, false);
    for t in [[h[0], h[1], h[2]], [h[0], h[1], h[3]]] {
        if t.contains(&v) {
            if side(particles, t, v, o) {
                s.1 = true;
            } else {
                s.0 = true;
            }
        }
    }
    s
}

fn repoint<const K: usize>(p: &mut [u32; K], v: u32, q: u32) {
    for x in p.iter_mut().filter(|x| **x == v) {
        *x = q;
    }
}

/// Splits vertex `v` along the plane through it normal to its edge towards `o`.
fn split(c: &mut TornCloth, particles: &mut Particles, v: u32, o: u32) -> Split {
    let (mut old, mut new) = (0usize, 0usize);
    for t in c.triangles.iter().filter(|t| t.contains(&v)) {
        if side(particles, *t, v, o) {
            new += 1;
        } else {
            old += 1;
        }
    }
    if old == 0 || new == 0 {
        return Split::OneSided;
    }
    if c.used as usize >= c.reserve.len() {
        return Split::NoRoom;
    }
    let mut copies = 0u32;
    for e in c
        .edges
        .iter()
        .filter(|e| e.live() && e.kind != EdgeKind::Bend)
    {
        if let Some(x) = other_end(e, v) {
            if sides_of_edge(c, particles, v, x, o) == (true, true) {
                copies += 1;
            }
        }
    }
    if copies > c.edge_room {
        return Split::NoRoom;
    }
    // Commit: the new particle is a copy of v; each takes half of v's mass.
    let q = c.reserve.start + c.used;
    let root = c.source_of(c.vertex_of(v));
    c.source.push(root);
    c.used += 1;
    let (vi, qi) = (v as usize, q as usize);
    let w = particles.hot[vi].w * 2.0;
    particles.hot[vi].w = w;
    particles.hot[qi] = particles.hot[vi];
    particles.base[qi] = particles.base[vi];
    particles.velocity[qi] = particles.velocity[vi];
    particles.radius[qi] = particles.radius[vi];
    particles.filter[qi] = particles.filter[vi];
    particles.unyielding[qi] = particles.unyielding[vi];
    particles.material[qi] = particles.material[vi];
    particles.step_start[qi] = particles.step_start[vi];
    let before = c.edges.len();
    for k in 0..before {
        let e = c.edges[k];
        if !e.live() || !e.p[..2].contains(&v) {
            continue;
        }
        if e.kind == EdgeKind::Bend {
            let h = [e.p[2], e.p[3], e.p[0], e.p[1]];
            let e = &mut c.edges[k];
            if h[0] == NONE {
                remove_edge(e);
                continue;
            }
            match sides_of_hinge(particles, h, v, o) {
                (false, true) => repoint(&mut e.p, v, q),
                (true, true) => remove_edge(e),
                _ => {}
            }
            continue;
        }
        let x = other_end(&e, v).expect("holds v");
        match sides_of_edge(c, particles, v, x, o) {
            (false, true) => repoint(&mut c.edges[k].p, v, q),
            (true, true) => {
                let mut copy = e;
                copy.id = NONE;
                repoint(&mut copy.p, v, q);
                c.edges.push(copy);
                c.edge_room -= 1;
            }
            _ => {}
        }
    }
    // Bending links name their hinge edge too: re-point it where v moved.
    for e in c
        .edges
        .iter_mut()
        .filter(|e| e.live() && e.kind == EdgeKind::Bend)
    {
        if e.p[2..].contains(&v) && !e.p[..2].contains(&q) && !e.p[..2].contains(&v) {
            let h = [e.p[2], e.p[3], e.p[0], e.p[1]];
            match sides_of_hinge(particles, h, v, o) {
                (false, true) => repoint(&mut e.p, v, q),
                (true, true) => remove_edge(e),
                _ => {}
            }
        }
    }
    split_hinges(&mut c.dihedral, particles, v, o, q);
    split_hinges(&mut c.isometric, particles, v, o, q);
    for t in c.triangles.iter_mut() {
        if t.contains(&v) && side(particles, *t, v, o) {
            repoint(t, v, q);
        }
    }
    Split::Done(q)
}

fn split_hinges<R>(hinges: &mut [Hinge<R>], particles: &Particles, v: u32, o: u32, q: u32) {
    for h in hinges.iter_mut().filter(|h| h.live() && h.p.contains(&v)) {
        match sides_of_hinge(particles, h.p, v, o) {
            (false, true) => repoint(&mut h.p, v, q),
            (true, true) => remove_hinge(h),
            _ => {}
        }
    }
}

fn other_end(e: &Edge, v: u32) -> Option<u32> {
    match e.p[..2] {
        [a, b] if a == v => Some(b),
        [a, b] if b == v => Some(a),
        _ => None,
    }
}

//! Cloth tearing, the algorithm (the torn cloths' constraints and their projection
//! are the registry set `crate::constraints::tearing`, the World API is
//! `world/tearing.rs`): at the end of each step, an edge stretched past its cloth's
//! threshold splits the mesh at one of its vertices (the method is described in
//! `crate::constraints::tearing`). No allocation; serial and in a fixed order, so the
//! same for any thread count.

use crate::constraints::tearing::{
    remove_edge, remove_hinge, Edge, EdgeKind, Hinge, TornCloth, NONE,
};
use crate::constraints::{ConstraintEdit, ConstraintSets};
use crate::math::Vec3;
use crate::particles::{separation, Particles};

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

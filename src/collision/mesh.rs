//! Static triangle-mesh colliders: triangles in the collider's local frame, a bounding
//! volume hierarchy over them (built once, median split on the longest axis), and the
//! particle query.
//!
//! A mesh is a two-sided surface that particles keep `r` (their radius) away from; it
//! need not be closed. For a particle path `p0 → p1` in one substep (local frame):
//!
//! * **swept**: for every triangle near the path (BVH), the plane of the triangle
//!   offset by `r` towards the side `p0` is on; when the path crosses it and the
//!   crossing point projects into the triangle, that is a hit at time t; the earliest
//!   hit wins and its offset plane is the contact;
//! * otherwise **proximity** at `p1`: the nearest triangle point `c` within `2r`
//!   (`r` + a margin of `r`), normal `(p1 − c)/|p1 − c|` (towards the start side), plane
//!   through `c + r n`.
//!
//! One contact per mesh and particle per substep.

use crate::error::{try_with_capacity, Error, Result};
use crate::math::Vec3;
use crate::particles::MAX_COORDINATE;
use crate::snapshot::codec::{self, Plain, Reader, Writer};

pub use crate::limits::MAX_TRIANGLES;
/// Triangles per BVH leaf.
const LEAF: usize = 4;
/// Traversal stack depth (the tree is balanced: depth ≤ log2(2^24 / 4) + 1).
const STACK: usize = 64;

#[derive(Clone, Copy, Debug)]
struct Node {
    min: Vec3,
    max: Vec3,
    /// Leaf: first triangle in `order`; inner: index of the left child (right = +1).
    first: u32,
    /// Leaf: triangle count (> 0); inner: 0.
    count: u32,
}

/// A validated triangle mesh with its BVH.
#[derive(Clone, Debug)]
pub(crate) struct TriMesh {
    /// Triangle corners, three per triangle, local frame (m), BVH leaf order.
    tri: Vec<[Vec3; 3]>,
    nodes: Vec<Node>,
}

#[inline]
pub(crate) fn closest_on_triangle(p: Vec3, a: Vec3, b: Vec3, c: Vec3) -> Vec3 {
    // Ericson, Real-Time Collision Detection, 5.1.5.
    let (ab, ac, ap) = (b - a, c - a, p - a);
    let (d1, d2) = (ab.dot(ap), ac.dot(ap));
    if d1 <= 0.0 && d2 <= 0.0 {
        return a;
    }
    let bp = p - b;
    let (d3, d4) = (ab.dot(bp), ac.dot(bp));
    if d3 >= 0.0 && d4 <= d3 {
        return b;
    }
    let vc = d1 * d4 - d3 * d2;
    if vc <= 0.0 && d1 >= 0.0 && d3 <= 0.0 {
        return a + ab * (d1 / (d1 - d3));
    }
    let cp = p - c;
    let (d5, d6) = (ab.dot(cp), ac.dot(cp));
    if d6 >= 0.0 && d5 <= d6 {
        return c;
    }
    let vb = d5 * d2 - d1 * d6;
    if vb <= 0.0 && d2 >= 0.0 && d6 <= 0.0 {
        return a + ac * (d2 / (d2 - d6));
    }
    let va = d3 * d6 - d5 * d4;
    if va <= 0.0 && (d4 - d3) >= 0.0 && (d5 - d6) >= 0.0 {
        return b + (c - b) * ((d4 - d3) / ((d4 - d3) + (d5 - d6)));
    }
    let denom = 1.0 / (va + vb + vc);
    a + ab * (vb * denom) + ac * (vc * denom)
}

impl TriMesh {
    /// Validates and builds a mesh: vertices finite within ±MAX_COORDINATE, every index
    /// below the vertex count, at least one triangle with a non-zero area (zero-area
    /// triangles are dropped).
    pub(crate) fn new(vertices: &[Vec3], indices: &[[u32; 3]]) -> Result<TriMesh> {
        if vertices.is_empty() || indices.is_empty() {
            return Err(Error::invalid(format!(
                "a triangle mesh needs vertices and triangles ({} vertices, {} triangles)",
                vertices.len(),
                indices.len()
            )));
        }
        if indices.len() > MAX_TRIANGLES {
            return Err(Error::out_of_range(format!(
                "{} triangles exceed the limit of {MAX_TRIANGLES}",
                indices.len()
            )));
        }
        for (i, v) in vertices.iter().enumerate() {
            if !v.is_finite() || v.abs().max_element() > MAX_COORDINATE {
                return Err(Error::invalid(format!(
                    "vertex {i} is {v}: components must be finite and within ±{MAX_COORDINATE} m"
                )));
            }
        }
        let n = vertices.len();
        for (t, tri) in indices.iter().enumerate() {
            if let Some(&bad) = tri.iter().find(|&&k| k as usize >= n) {
                return Err(Error::out_of_range(format!(
                    "triangle {t} has vertex index {bad}, but the mesh has {n} vertices"
                )));
            }
        }
        let mut tri = try_with_capacity::<[Vec3; 3]>(indices.len(), "mesh triangles")?;
        for t in indices {
            let (a, b, c) = (
                vertices[t[0] as usize],
                vertices[t[1] as usize],
                vertices[t[2] as usize],
            );
            if (b - a).cross(c - a).length_squared() > 0.0 {
                tri.push([a, b, c]);
            }
        }
        if tri.is_empty() {
            return Err(Error::invalid("every triangle of the mesh has zero area"));
        }
        let mut nodes = try_with_capacity::<Node>(2 * tri.len().div_ceil(LEAF) + 1, "mesh BVH")?;
        let len = tri.len();
        build(&mut tri, &mut nodes, 0, len);
        Ok(TriMesh { tri, nodes })
    }

    /// Number of triangles kept (zero-area ones dropped).
    #[cfg(test)]
    pub(crate) fn triangle_count(&self) -> usize {
        self.tri.len()
    }

    /// Radius (m) of a ball around the local origin that holds every triangle, with a
    /// margin over the rounding of its lengths: a path farther than the contact reach
    /// from it has no contact.
    pub(crate) fn bound_radius(&self) -> f32 {
        let far = self
            .tri
            .iter()
            .flatten()
            .fold(0.0f32, |m, v| m.max(v.length()));
        far * (1.0 + 1.0e-5) + 1.0e-30
    }

    /// The contact of a particle of radius `r` moving `p0 → p1` (local frame): the
    /// outward normal and a point of the contact plane (local), or None. `rd ≥ r`: the
    /// detection radius (a fluid particle's is larger, see `Colliders::set_reach`):
    /// nearest-point contacts are found within `2 rd + 1e-4`.
    pub(crate) fn contact(&self, p0: Vec3, p1: Vec3, r: f32, rd: f32) -> Option<(Vec3, Vec3)> {
        let reach = 2.0 * rd + 1.0e-4;
        let lo = p0.min(p1) - Vec3::splat(reach);
        let hi = p0.max(p1) + Vec3::splat(reach);
        let seg = p1 - p0;
        let mut best_t = f32::INFINITY;
        let mut swept: Option<(Vec3, Vec3)> = None;
        let mut near_d = reach;
        let mut near: Option<(Vec3, Vec3)> = None;
        let mut stack = [0u32; STACK];
        let mut top = 1usize;
        while top > 0 {
            top -= 1;
            let node = self.nodes[stack[top] as usize];
            if node.min.cmpgt(hi).any() || node.max.cmplt(lo).any() {
                continue;
            }
            if node.count == 0 {
                if top + 2 <= STACK {
                    stack[top] = node.first;
                    stack[top + 1] = node.first + 1;
                    top += 2;
                }
                continue;
            }
            for &[a, b, c] in &self.tri[node.first as usize..(node.first + node.count) as usize] {
                let n = (b - a).cross(c - a).normalize();
                let s0 = n.dot(p0 - a);
                // The side the particle comes from (towards −motion when on the plane).
                let side = if s0.abs() > 1.0e-7 {
                    s0.signum()
                } else if n.dot(seg) > 0.0 {
                    -1.0
                } else {
                    1.0
                };
                let ns = n * side;
                let d0 = ns.dot(p0 - a) - r;
                let d1 = ns.dot(p1 - a) - r;
                if d0 >= 0.0 && d1 < 0.0 {
                    let t = d0 / (d0 - d1);
                    if t < best_t {
                        let q = p0 + seg * t - ns * r;
                        if (closest_on_triangle(q, a, b, c) - q).length_squared()
                            <= 1.0e-10 * (1.0 + q.length_squared())
                        {
                            best_t = t;
                            swept = Some((ns, q));
                        }
                    }
                }
                let cp = closest_on_triangle(p1, a, b, c);
                let v = p1 - cp;
                let d = v.length();
                // Only from the start side: a particle that crossed is handled by the
                // swept test, not pulled through.
                if d < near_d && ns.dot(v) >= -1.0e-6 {
                    near_d = d;
                    let normal = if d > 1.0e-6 * r.max(1.0e-6) {
                        v / d
                    } else {
                        ns
                    };
                    near = Some((normal, cp));
                }
            }
        }
        if let Some((n, q)) = swept {
            return Some((n, q));
        }
        near
    }
}

impl TriMesh {
    /// The point of the mesh nearest to `p` (local, m) and its squared distance (m²),
    /// among the points nearer than `sqrt(max_d2)`; None when there is none. Depth
    /// first over the BVH, nearer child first, boxes farther than the best so far
    /// skipped: the exact point-triangle distance ([`closest_on_triangle`]).
    pub(crate) fn nearest(&self, p: Vec3, max_d2: f32) -> Option<(f32, Vec3)> {
        let box_d2 = |n: &Node| (n.min - p).max(p - n.max).max(Vec3::ZERO).length_squared();
        let mut best: Option<(f32, Vec3)> = None;
        let mut best_d2 = max_d2;
        let mut stack = [0u32; STACK];
        let mut top = 1usize;
        while top > 0 {
            top -= 1;
            let node = self.nodes[stack[top] as usize];
            if box_d2(&node) >= best_d2 {
                continue;
            }
            if node.count == 0 {
                let (l, r) = (node.first, node.first + 1);
                let (dl, dr) = (
                    box_d2(&self.nodes[l as usize]),
                    box_d2(&self.nodes[r as usize]),
                );
                // The nearer child is popped first.
                let (far, near) = if dl <= dr { (r, l) } else { (l, r) };
                if top + 2 <= STACK {
                    stack[top] = far;
                    stack[top + 1] = near;
                    top += 2;
                }
                continue;
            }
            for &[a, b, c] in &self.tri[node.first as usize..(node.first + node.count) as usize] {
                let q = closest_on_triangle(p, a, b, c);
                let d2 = (p - q).length_squared();
                if d2 < best_d2 {
                    best_d2 = d2;
                    best = Some((d2, q));
                }
            }
        }
        best
    }
}

/// Builds the subtree of `tri[start..end]` at `nodes.len()`; children are stored in
/// pairs, so a node's right child is its left child + 1.
fn build(tri: &mut [[Vec3; 3]], nodes: &mut Vec<Node>, start: usize, end: usize) {
    let root = nodes.len();
    nodes.push(bounds(&tri[start..end], start, end - start));
    build_children(tri, nodes, root, start, end);
}

fn bounds(tri: &[[Vec3; 3]], first: usize, count: usize) -> Node {
    let mut min = Vec3::splat(f32::INFINITY);
    let mut max = Vec3::splat(f32::NEG_INFINITY);
    for t in tri {
        for v in t {
            min = min.min(*v);
            max = max.max(*v);
        }
    }
    Node {
        min,
        max,
        first: first as u32,
        count: count as u32,
    }
}

fn build_children(
    tri: &mut [[Vec3; 3]],
    nodes: &mut Vec<Node>,
    at: usize,
    start: usize,
    end: usize,
) {
    if end - start <= LEAF {
        return;
    }
    let node = nodes[at];
    let ext = node.max - node.min;
    let axis = if ext.x >= ext.y && ext.x >= ext.z {
        0
    } else if ext.y >= ext.z {
        1
    } else {
        2
    };
    let mid = start + (end - start) / 2;
    let centre = |t: &[Vec3; 3]| (t[0][axis] + t[1][axis] + t[2][axis]) / 3.0;
    tri[start..end].select_nth_unstable_by(mid - start, |a, b| centre(a).total_cmp(&centre(b)));
    let left = nodes.len();
    nodes.push(bounds(&tri[start..mid], start, mid - start));
    nodes.push(bounds(&tri[mid..end], mid, end - mid));
    nodes[at].first = left as u32;
    nodes[at].count = 0;
    build_children(tri, nodes, left, start, mid);
    build_children(tri, nodes, left + 1, mid, end);
}

impl Plain for Node {
    const SIZE: usize = 32;
    fn write(self, out: &mut [u8]) {
        ((self.min, self.max), (self.first, self.count)).write(out);
    }
    fn read(b: &[u8]) -> Self {
        let ((min, max), (first, count)) = <((Vec3, Vec3), (u32, u32))>::read(b);
        Node {
            min,
            max,
            first,
            count,
        }
    }
}

impl TriMesh {
    /// Snapshot: the triangles in BVH order and the tree, verbatim.
    pub(crate) fn save(&self, w: &mut Writer<'_>) {
        w.put_slice(&self.tri);
        w.put_slice(&self.nodes);
    }

    /// Snapshot: the mesh [`Self::save`] wrote. Every inner node's children come after
    /// it and every leaf's triangles exist, so a traversal ends and stays in bounds.
    pub(crate) fn load(r: &mut Reader<'_>) -> Result<TriMesh> {
        let tri: Vec<[Vec3; 3]> = r.get_vec()?;
        let nodes: Vec<Node> = r.get_vec()?;
        codec::ensure(!tri.is_empty() && !nodes.is_empty(), || {
            "an empty mesh".into()
        })?;
        for (i, n) in nodes.iter().enumerate() {
            let ok = if n.count == 0 {
                n.first as usize > i && (n.first as usize) + 1 < nodes.len()
            } else {
                n.first as u64 + n.count as u64 <= tri.len() as u64
            };
            codec::ensure(ok, || format!("mesh node {i} is malformed"))?;
        }
        codec::check_finite(
            tri.iter().flatten().flat_map(|v| v.to_array()),
            "mesh vertex",
        )?;
        Ok(TriMesh { tri, nodes })
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::scenes::box_mesh;

    #[test]
    fn swept_hit_and_proximity_on_a_box_mesh() {
        let (v, t) = box_mesh(Vec3::new(1.0, 0.005, 1.0));
        let m = TriMesh::new(&v, &t).unwrap();
        assert_eq!(m.triangle_count(), 12);
        // 20 m/s for 1/480 s straight through the 1 cm slab.
        let (n, q) = m
            .contact(
                Vec3::new(0.1, 0.03, 0.2),
                Vec3::new(0.1, -0.0117, 0.2),
                0.01,
                0.01,
            )
            .unwrap();
        assert!((n - Vec3::Y).length() < 1e-6, "{n}");
        assert!((q.y - 0.005).abs() < 1e-6, "{q}");
        // Resting just above the top face.
        let (n, q) = m
            .contact(
                Vec3::new(0.3, 0.015, 0.0),
                Vec3::new(0.3, 0.0149, 0.0),
                0.01,
                0.01,
            )
            .unwrap();
        assert!((n - Vec3::Y).length() < 1e-6 && (q.y - 0.005).abs() < 1e-6);
        // Far away: nothing.
        assert!(m
            .contact(
                Vec3::new(0.0, 1.0, 0.0),
                Vec3::new(0.0, 0.9, 0.0),
                0.01,
                0.01
            )
            .is_none());
    }

    #[test]
    fn bad_meshes_are_refused() {
        let (v, t) = box_mesh(Vec3::ONE);
        let mut bad = t.clone();
        bad[3][1] = 8;
        assert!(TriMesh::new(&v, &bad).is_err());
        let mut nan = v.clone();
        nan[2].y = f32::NAN;
        assert!(TriMesh::new(&nan, &t).is_err());
        assert!(TriMesh::new(&v, &[]).is_err());
        assert!(TriMesh::new(&v, &[[0, 0, 1]]).is_err());
    }

    #[test]
    fn bvh_finds_the_same_contacts_as_brute_force() {
        // A 40 x 40 wavy grid: query many paths and compare with a one-leaf mesh.
        let n = 40;
        let mut v = Vec::new();
        for i in 0..=n {
            for j in 0..=n {
                let (x, z) = (i as f32 * 0.05, j as f32 * 0.05);
                v.push(Vec3::new(x, 0.1 * (3.0 * x).sin() * (2.0 * z).cos(), z));
            }
        }
        let mut t = Vec::new();
        for i in 0..n {
            for j in 0..n {
                let a = i * (n + 1) + j;
                t.push([a, a + 1, a + n + 1]);
                t.push([a + 1, a + n + 2, a + n + 1]);
            }
        }
        let m = TriMesh::new(&v, &t).unwrap();
        assert!(m.nodes.len() > 100);
        let mut flat = m.clone();
        flat.nodes = vec![bounds(&flat.tri, 0, flat.tri.len())];
        let mut hits = 0;
        for k in 0..400 {
            let x = (k % 20) as f32 * 0.1 + 0.02;
            let z = (k / 20) as f32 * 0.1 + 0.03;
            let p0 = Vec3::new(x, 0.3, z);
            let p1 = Vec3::new(x + 0.01, -0.2 + 0.02 * (k % 7) as f32, z);
            let a = m.contact(p0, p1, 0.02, 0.02);
            let b = flat.contact(p0, p1, 0.02, 0.02);
            hits += a.is_some() as u32;
            match (a, b) {
                (Some((na, qa)), Some((nb, qb))) => {
                    assert!((na - nb).length() < 1e-6 && (qa - qb).length() < 1e-6)
                }
                (None, None) => {}
                other => panic!("path {k}: {other:?}"),
            }
        }
        assert!(hits > 350, "{hits}");
    }
}

//! Render normals and tangents of a triangle mesh over moving positions (cloth, the
//! surface of a soft body, any triangle list), written into caller buffers: the
//! per-frame work an engine would otherwise do with its own mesh utilities
//! (Unity's `Mesh.RecalculateNormals`, the C++ header's cloth normals).
//!
//! * Normal of a vertex: the sum over its triangles of `(p1 − p0) × (p2 − p0)` (twice
//!   the triangle's area times its unit normal, so larger triangles weigh more),
//!   normalised. That is what `RecalculateNormals` computes for a mesh whose vertices
//!   are shared by their triangles; a mesh split at UV seams gets one normal per copy
//!   there (a visible crease), whereas here one vertex per particle (welded) gets one.
//!   The winding decides the side: counter-clockwise seen from the front in a
//!   right-handed frame, clockwise in Unity's left-handed one (the same arithmetic).
//! * Tangent (x, y, z, w), with UVs: per triangle Lengyel's tangent `T` (the direction
//!   of +U on the triangle) and bitangent `B` (+V), `T` summed per vertex weighted by
//!   the triangle's UV area, then made perpendicular to the normal (Gram-Schmidt) and
//!   normalised; `w` = ±1, the sign of the UV-area-weighted sum of the triangles'
//!   handedness `sign((N × T) · B)`, so `cross(normal, tangent.xyz) * w` points along
//!   +V (Unity's and MikkTSpace's convention). A per-vertex tangent space like
//!   MikkTSpace's, without its splitting of vertices at handedness or angle seams.
//!   Without UVs: the world +X axis made perpendicular to the normal (+Z where the
//!   normal is along X), `w` = 1: a stable frame for materials without normal maps.
//! * Never NaN: a triangle whose normal or tangent is not finite (a non-finite or
//!   overflowing position) adds nothing; a vertex whose sum vanishes (no triangle, only
//!   degenerate ones) gets [`FALLBACK_NORMAL`], and a tangent whose projection vanishes
//!   gets the no-UV rule. The sums run in triangle order on one thread: the result is
//!   the same bits for any thread count. Nothing is allocated: the sums accumulate in
//!   the output buffers themselves.

use crate::error::{Error, ErrorKind, Result};
use crate::math::Vec3;

/// The normal of a vertex with no usable triangle: +Y (up in Unity and glTF).
pub const FALLBACK_NORMAL: Vec3 = Vec3::Y;

/// An output buffer of one element per vertex that the sums accumulate in: a slice, or
/// a caller's strided vertex buffer in the C ABI.
pub(crate) trait VertexOut<E: Copy> {
    /// The element `k` written last by [`Self::set`].
    fn get(&self, k: usize) -> E;
    fn set(&mut self, k: usize, value: E);
}

impl<E: Copy> VertexOut<E> for [E] {
    fn get(&self, k: usize) -> E {
        self[k]
    }
    fn set(&mut self, k: usize, value: E) {
        self[k] = value;
    }
}

/// Fails with OUT_OF_RANGE, naming the first bad corner, when a triangle names a vertex
/// at or past `vertex_count`.
pub(crate) fn check_triangles(triangles: &[[u32; 3]], vertex_count: usize) -> Result<()> {
    for (t, tri) in triangles.iter().enumerate() {
        if let Some(&v) = tri.iter().find(|&&v| v as usize >= vertex_count) {
            return Err(Error::new(
                ErrorKind::OutOfRange,
                format!("triangle {t} names vertex {v} of {vertex_count}"),
            ));
        }
    }
    Ok(())
}

/// A unit vector perpendicular to the unit `n`: +X made perpendicular, +Z where `n` is
/// (nearly) along X.
fn axis_tangent(n: Vec3) -> Vec3 {
    let t = Vec3::X - n * n.x;
    let t = if t.length_squared() > 1e-6 {
        t
    } else {
        Vec3::Z - n * n.z
    };
    t.normalize()
}

fn finite_unit(v: Vec3) -> Option<Vec3> {
    let len = v.length();
    (len.is_finite() && len > 1e-30).then(|| v / len)
}

/// Writes the normal (and, with `tangents`, the tangent) of vertices `0..vertex_count`
/// of the triangles over `position(k)` (see the module doc). `uvs`, when given, holds
/// one (u, v) per vertex. Checks every triangle first: a bad index writes nothing.
pub(crate) fn compute<N, T>(
    vertex_count: usize,
    position: impl Fn(usize) -> Vec3,
    triangles: &[[u32; 3]],
    uvs: Option<&[[f32; 2]]>,
    normals: &mut N,
    mut tangents: Option<&mut T>,
) -> Result<()>
where
    N: VertexOut<[f32; 3]> + ?Sized,
    T: VertexOut<[f32; 4]> + ?Sized,
{
    check_triangles(triangles, vertex_count)?;
    if let Some(uvs) = uvs {
        if uvs.len() < vertex_count {
            return Err(Error::invalid(format!(
                "{} UVs for {vertex_count} vertices",
                uvs.len()
            )));
        }
    }
    for k in 0..vertex_count {
        normals.set(k, [0.0; 3]);
        if let Some(t) = tangents.as_deref_mut() {
            t.set(k, [0.0; 4]);
        }
    }
    for tri in triangles {
        let [a, b, c] = tri.map(|v| v as usize);
        let p0 = position(a);
        let e1 = position(b) - p0;
        let e2 = position(c) - p0;
        let n = e1.cross(e2);
        if !n.is_finite() {
            continue;
        }
        for v in [a, b, c] {
            let s = Vec3::from(normals.get(v)) + n;
            normals.set(v, s.into());
        }
        let (Some(t_out), Some(uvs)) = (tangents.as_deref_mut(), uvs) else {
            continue;
        };
        let [u0, v0] = uvs[a];
        let (du1, dv1) = (uvs[b][0] - u0, uvs[b][1] - v0);
        let (du2, dv2) = (uvs[c][0] - u0, uvs[c][1] - v0);
        let r = du1 * dv2 - du2 * dv1;
        if r == 0.0 || !r.is_finite() {
            continue;
        }
        // T = (e1 dv2 − e2 dv1) / r and B = (e2 du1 − e1 du2) / r, both times |r| (the
        // UV area weight, twice the triangle's area in UV space).
        let t = (e1 * dv2 - e2 * dv1) * r.signum();
        let bt = (e2 * du1 - e1 * du2) * r.signum();
        if !t.is_finite() || !bt.is_finite() {
            continue;
        }
        let hand = if n.cross(t).dot(bt) < 0.0 {
            -r.abs()
        } else {
            r.abs()
        };
        for v in [a, b, c] {
            let [x, y, z, w] = t_out.get(v);
            t_out.set(v, [x + t.x, y + t.y, z + t.z, w + hand]);
        }
    }
    for k in 0..vertex_count {
        let n = finite_unit(Vec3::from(normals.get(k))).unwrap_or(FALLBACK_NORMAL);
        normals.set(k, n.into());
        if let Some(t_out) = tangents.as_deref_mut() {
            let [x, y, z, w] = t_out.get(k);
            let t = Vec3::new(x, y, z);
            let (t, w) = match finite_unit(t - n * n.dot(t)).filter(|_| uvs.is_some()) {
                Some(t) => (t, if w < 0.0 { -1.0 } else { 1.0 }),
                None => (axis_tangent(n), 1.0),
            };
            t_out.set(k, [t.x, t.y, t.z, w]);
        }
    }
    Ok(())
}

impl crate::world::World {
    /// [`compute`] over a body's particles interpolated at `alpha` in [0, 1] (as
    /// [`crate::world::World::read_interpolated_positions`]): vertex k is world particle
    /// `vertex_particles[k]` (any particle of the world, e.g. a torn cloth's render
    /// vertices from its topology), or, without them, the body's particle k, and then
    /// `vertex_count` must be the body's particle count.
    #[allow(clippy::too_many_arguments)]
    pub(crate) fn body_render_normals<N, T>(
        &self,
        body: crate::bodies::BodyId,
        alpha: f32,
        vertex_particles: Option<&[u32]>,
        vertex_count: usize,
        triangles: &[[u32; 3]],
        uvs: Option<&[[f32; 2]]>,
        normals: &mut N,
        tangents: Option<&mut T>,
    ) -> Result<()>
    where
        N: VertexOut<[f32; 3]> + ?Sized,
        T: VertexOut<[f32; 4]> + ?Sized,
    {
        super::interpolation::check_alpha(alpha)?;
        let (first, count) = self.body_particle_range(body)?;
        let p = &self.particles;
        match vertex_particles {
            None if vertex_count != count as usize => {
                return Err(Error::new(
                    ErrorKind::OutOfRange,
                    format!("{vertex_count} vertices for the body's {count} particles"),
                ))
            }
            Some(vp) if vp.len() != vertex_count => {
                return Err(Error::invalid(format!(
                    "{} vertex particles for {vertex_count} vertices",
                    vp.len()
                )))
            }
            Some(vp) => {
                if let Some(k) = vp.iter().position(|&i| i as usize >= p.len()) {
                    return Err(Error::new(
                        ErrorKind::OutOfRange,
                        format!("vertex {k} names particle {} of {}", vp[k], p.len()),
                    ));
                }
            }
            None => {}
        }
        let particle = |k: usize| vertex_particles.map_or(first as usize + k, |vp| vp[k] as usize);
        let position = |k: usize| {
            let i = particle(k);
            super::interpolation::lerp(p.step_start[i], p.position(i), alpha)
        };
        compute(vertex_count, position, triangles, uvs, normals, tangents)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_lone_degenerate_triangle_gets_the_fallback() {
        let p = [Vec3::ZERO, Vec3::X, Vec3::X * 2.0, Vec3::splat(f32::NAN)];
        let mut n = [[9.0f32; 3]; 4];
        let mut t = [[9.0f32; 4]; 4];
        let uv = [[0.0f32, 0.0]; 4];
        compute(
            4,
            |k| p[k],
            &[[0, 1, 2], [0, 1, 3]],
            Some(&uv),
            &mut n[..],
            Some(&mut t[..]),
        )
        .unwrap();
        for k in 0..4 {
            assert_eq!(n[k], FALLBACK_NORMAL.to_array());
            assert_eq!(t[k], [1.0, 0.0, 0.0, 1.0]);
        }
    }
}

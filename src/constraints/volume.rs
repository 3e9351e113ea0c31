//! Volume constraints.
//!
//! * [`TetVolume`] (Müller et al. 2007, section 4.4 in its det(F) − 1 form, Macklin &
//!   Müller 2021 "A Constraint-based Formulation of Stable Neo-Hookean Materials"): a
//!   tetrahedron `[x0, x1, x2, x3]` keeps its rest volume V0 (m³, > 0).
//!   `V = (1/6) r1·(r2 × r3)`, `r_k = x_k − x0`; `C(x) = V/V0 − 1` (= det F − 1);
//!   `∇_1 C = (r2 × r3)/(6 V0)`, `∇_2 C = (r3 × r1)/(6 V0)`, `∇_3 C = (r1 × r2)/(6 V0)`,
//!   `∇_0 C = −(∇_1 + ∇_2 + ∇_3)`. Compliance in 1/(N·m) (C is dimensionless; for a
//!   bulk modulus κ in Pa, α = 1/(κ V0)).
//! * [`PressureConstraints`] (Müller et al. 2007, section 4.4, "closed meshes"; the
//!   overpressure factor k of Nakagawa, "Position Based Dynamics Combo", CEDEC 2017): a closed, outward-wound triangle surface keeps
//!   the volume k·V0. `V = (1/6) Σ_t r_a·(r_b × r_c)` over triangles (a, b, c), positions
//!   relative to the surface's first vertex; `C(x) = V − k V0` (m³);
//!   `∇_i C = (1/6) Σ_{t ∋ i} r_b × r_c` with (i, b, c) the triangle rotated to start at
//!   i. Compliance in m⁵/N (= m³/Pa): |λ|/h² is the pressure the constraint applies
//!   (Pa).

use std::collections::HashMap;

use super::nary::{apply_shared_lambda, Family};
use super::set::{force_of_lambda, single_lambda_set, FamilyKind};
use crate::error::{try_with_capacity, Error, Result};
use crate::math::Vec3;
use crate::particles::{rel, separation, Particles};
use crate::snapshot::codec::{self, Reader, Writer};
use crate::snapshot::LoadContext;

/// Signed volume (m³) of a tetrahedron from positions relative to x0.
#[inline(always)]
pub fn tet_volume(r: &[Vec3; 4]) -> f32 {
    r[1].dot(r[2].cross(r[3])) / 6.0
}

/// Tetrahedron volume preservation; rest data: V0 in m³ (> 0).
pub struct TetVolume;

impl Family<4> for TetVolume {
    type Rest = f32;
    const NAME: &'static str = "tet volume";
    const KIND: Option<FamilyKind> = Some(FamilyKind::TetVolume);
    const COMPLIANCE_UNIT: &'static str = "1/(N·m)";
    const REST_UNIT: Option<&'static str> = Some("rest volume (m³)");
    fn rest_scalar(rest: &f32) -> Option<f32> {
        Some(*rest)
    }
    fn set_rest_scalar(rest: &mut f32, value: f32) {
        *rest = value;
    }
    fn check_rest_scalar(what: &str, v: f32) -> Result<()> {
        crate::limits::check_volume(what, v)
    }
    #[inline]
    fn evaluate(r: &[Vec3; 4], rest: &f32) -> Option<(f32, [Vec3; 4])> {
        let s = 1.0 / (6.0 * rest);
        let g1 = r[2].cross(r[3]) * s;
        let g2 = r[3].cross(r[1]) * s;
        let g3 = r[1].cross(r[2]) * s;
        Some((tet_volume(r) / rest - 1.0, [-(g1 + g2 + g3), g1, g2, g3]))
    }
}

use crate::limits::MAX_SURFACE_TRIANGLES;

/// One closed-surface volume constraint.
struct Surface {
    /// The particles of the surface (each once, in first-use order).
    vertices: Vec<u32>,
    /// Triangles as indices into `vertices`.
    triangles: Vec<[u32; 3]>,
    /// V0, m³.
    rest_volume: f32,
    /// Overpressure factor k (target volume k V0).
    pressure: f32,
    /// m⁵/N; negative once removed.
    compliance: f32,
    lambda: f32,
    /// Scratch: gradient per vertex.
    gradient: Vec<Vec3>,
}

/// Closed-surface volume (pressure) constraints, each over a whole surface. Projected
/// one after another (the same in Gauss-Seidel and Jacobi modes: a single constraint's
/// Jacobi update is its Gauss-Seidel update).
#[derive(Default)]
pub struct PressureConstraints {
    surfaces: Vec<Surface>,
}

/// A validated surface ready to add.
pub(crate) struct NewSurface {
    vertices: Vec<u32>,
    triangles: Vec<[u32; 3]>,
    rest_volume: f32,
}

impl NewSurface {
    /// Shifts the particle indices by `first` (a surface validated on a body's own
    /// particles before they join the world).
    pub(crate) fn offset(mut self, first: u32) -> Self {
        for v in &mut self.vertices {
            *v += first;
        }
        self
    }
}

/// Enclosed volume (m³) of triangles over `vertices` (local indices), with positions
/// relative to the first vertex.
fn surface_volume(rel: &[Vec3], triangles: &[[u32; 3]]) -> f32 {
    let mut v = 0.0f64;
    for t in triangles {
        let (a, b, c) = (rel[t[0] as usize], rel[t[1] as usize], rel[t[2] as usize]);
        v += a.dot(b.cross(c)) as f64;
    }
    (v / 6.0) as f32
}

/// Checks that `triangles` (particle indices) form a closed, consistently and
/// outward-wound surface with positive volume; returns it in local form.
pub(crate) fn validate_surface(
    particles: &Particles,
    triangles: &[[u32; 3]],
) -> Result<NewSurface> {
    if triangles.len() < 4 {
        return Err(Error::invalid(format!(
            "a closed surface needs at least 4 triangles, got {}",
            triangles.len()
        )));
    }
    if triangles.len() > MAX_SURFACE_TRIANGLES {
        return Err(Error::out_of_range(format!(
            "{} triangles exceed the limit of {MAX_SURFACE_TRIANGLES} per surface",
            triangles.len()
        )));
    }
    super::nary::check_elements(triangles, particles.len(), "triangle")?;
    check_triangle_areas(particles, triangles)?;
    // Every directed edge once, and its reverse once: closed, two-manifold, consistent.
    let mut edges: HashMap<(u32, u32), usize> = HashMap::new();
    for (t, tri) in triangles.iter().enumerate() {
        for k in 0..3 {
            let e = (tri[k], tri[(k + 1) % 3]);
            if let Some(other) = edges.insert(e, t) {
                return Err(Error::invalid(format!(
                    "triangles {other} and {t} both use edge ({}, {}) in the same direction: \
                     the surface is not consistently wound (or not two-manifold)",
                    e.0, e.1
                )));
            }
        }
    }
    for (t, tri) in triangles.iter().enumerate() {
        for k in 0..3 {
            let (a, b) = (tri[k], tri[(k + 1) % 3]);
            if !edges.contains_key(&(b, a)) {
                return Err(Error::invalid(format!(
                    "triangle {t}: edge ({a}, {b}) has no opposite triangle: the surface is not closed"
                )));
            }
        }
    }
    let mut local: HashMap<u32, u32> = HashMap::new();
    let mut vertices = try_with_capacity::<u32>(triangles.len() / 2 + 2, "surface vertices")?;
    let mut local_tris = try_with_capacity::<[u32; 3]>(triangles.len(), "surface triangles")?;
    for tri in triangles {
        local_tris.push(tri.map(|p| {
            *local.entry(p).or_insert_with(|| {
                vertices.push(p);
                vertices.len() as u32 - 1
            })
        }));
    }
    let rel = relative_positions(particles, &vertices);
    let rest_volume = surface_volume(&rel, &local_tris);
    if !(rest_volume > 0.0 && rest_volume.is_finite()) {
        return Err(Error::invalid(format!(
            "the surface encloses volume {rest_volume} m³: it must be positive \
             (triangles wound counter-clockwise seen from outside)"
        )));
    }
    Ok(NewSurface {
        vertices,
        triangles: local_tris,
        rest_volume,
    })
}

/// Fails naming the first triangle whose area is (near) zero.
pub(crate) fn check_triangle_areas(particles: &Particles, triangles: &[[u32; 3]]) -> Result<()> {
    for (t, tri) in triangles.iter().enumerate() {
        let [a, b, c] = tri.map(|p| particles.position(p as usize));
        let n = (b - a).cross(c - a);
        let scale = (b - a).length_squared().max((c - a).length_squared());
        if n.length().is_nan() || n.length() <= 1e-6 * scale || scale == 0.0 {
            return Err(Error::invalid(format!(
                "triangle {t} {tri:?} has zero area (its vertices are coincident or collinear)"
            )));
        }
    }
    Ok(())
}

fn relative_positions(particles: &Particles, vertices: &[u32]) -> Vec<Vec3> {
    let i0 = vertices[0] as usize;
    vertices
        .iter()
        .map(|&p| {
            let p = p as usize;
            separation(
                particles.base[p],
                particles.base[i0],
                particles.hot[p],
                particles.hot[i0],
            )
        })
        .collect()
}

impl PressureConstraints {
    /// Number of surfaces (removed ones included).
    pub fn len(&self) -> usize {
        self.surfaces.len()
    }

    pub fn is_empty(&self) -> bool {
        self.surfaces.is_empty()
    }

    /// Appends a validated surface with overpressure `pressure` and compliance α
    /// (m⁵/N); returns its id.
    pub(crate) fn push(&mut self, s: NewSurface, pressure: f32, compliance: f32) -> Result<u32> {
        let mut gradient = try_with_capacity::<Vec3>(s.vertices.len(), "surface gradient")?;
        gradient.resize(s.vertices.len(), Vec3::ZERO);
        self.surfaces.try_reserve(1).map_err(|_| {
            Error::out_of_memory("could not grow the pressure constraints".to_string())
        })?;
        self.surfaces.push(Surface {
            vertices: s.vertices,
            triangles: s.triangles,
            rest_volume: s.rest_volume,
            pressure,
            compliance,
            lambda: 0.0,
            gradient,
        });
        Ok(self.surfaces.len() as u32 - 1)
    }

    /// Current enclosed volume (m³) of surface `id`.
    pub fn volume(&self, particles: &Particles, id: usize) -> f32 {
        let s = &self.surfaces[id];
        surface_volume(&relative_positions(particles, &s.vertices), &s.triangles)
    }

    /// Rest volume V0 (m³) of surface `id`.
    pub fn rest_volume(&self, id: usize) -> f32 {
        self.surfaces[id].rest_volume
    }

    /// |λ|/h² of surface `id`: the pressure it applied (Pa) in the last substep.
    pub fn force(&self, id: usize, h: f32) -> f32 {
        force_of_lambda(self.surfaces[id].lambda, h)
    }

    pub(crate) fn set_compliance(&mut self, id: usize, compliance: f32) {
        let s = &mut self.surfaces[id];
        if s.compliance >= 0.0 {
            s.compliance = compliance;
        }
    }

    /// What the editable rest value is: the rest volume V0 (the target is k V0).
    pub(crate) const REST_UNIT: &'static str = "rest volume (m³)";
    /// Unit of the compliance.
    pub(crate) const COMPLIANCE_UNIT: &'static str = "m⁵/N";

    /// Whether surface `id` was removed.
    pub fn is_removed(&self, id: usize) -> bool {
        self.surfaces[id].compliance < 0.0
    }

    /// The particles of surface `id`.
    pub(crate) fn particle_list(&self, id: usize) -> &[u32] {
        &self.surfaces[id].vertices
    }

    /// The editable rest value of surface `id`: V0 (m³).
    pub(crate) fn rest_value(&self, id: usize) -> f32 {
        self.rest_volume(id)
    }

    /// Checks a rest volume V0: finite, in (0, MAX_VOLUME] m³.
    pub(crate) fn check_rest_value(what: &str, v: f32) -> Result<()> {
        crate::limits::check_volume(what, v)
    }

    /// Sets the rest volume V0 (m³, checked) of surface `id`.
    pub(crate) fn set_rest_value(&mut self, id: usize, v: f32) {
        self.surfaces[id].rest_volume = v;
    }

    pub(crate) fn set_pressure(&mut self, id: usize, pressure: f32) {
        self.surfaces[id].pressure = pressure;
    }

    pub(crate) fn remove(&mut self, id: usize) {
        let s = &mut self.surfaces[id];
        s.compliance = -1.0;
        s.lambda = 0.0;
    }

    pub(crate) fn reset_lambda(&mut self) {
        for s in &mut self.surfaces {
            s.lambda = 0.0;
        }
    }

    /// Projects every surface once (XPBD, one λ per surface).
    pub(crate) fn solve(&mut self, particles: &mut Particles, inv_h2: f32) {
        for s in &mut self.surfaces {
            if s.compliance < 0.0 {
                continue;
            }
            let i0 = s.vertices[0] as usize;
            let (b0, h0) = (particles.base[i0], particles.hot[i0]);
            let rel = |p: u32| {
                let p = p as usize;
                separation(particles.base[p], b0, particles.hot[p], h0)
            };
            s.gradient.fill(Vec3::ZERO);
            let mut volume = 0.0f64;
            for t in &s.triangles {
                let [a, b, c] = t.map(|v| rel(s.vertices[v as usize]));
                volume += a.dot(b.cross(c)) as f64;
                s.gradient[t[0] as usize] += b.cross(c) / 6.0;
                s.gradient[t[1] as usize] += c.cross(a) / 6.0;
                s.gradient[t[2] as usize] += a.cross(b) / 6.0;
            }
            let c = (volume / 6.0) as f32 - s.pressure * s.rest_volume;
            let alpha_tilde = s.compliance * inv_h2;
            let mut denom = alpha_tilde;
            for (g, &p) in s.gradient.iter().zip(&s.vertices) {
                denom += particles.hot[p as usize].w * g.length_squared();
            }
            apply_shared_lambda(
                particles,
                &s.vertices,
                &s.gradient,
                c,
                alpha_tilde,
                denom,
                &mut s.lambda,
            );
        }
    }
}

single_lambda_set!(PressureConstraints, FamilyKind::PressureVolume);

/// Checks that every tet has positive volume above a tiny fraction of its size;
/// returns the volumes (m³).
pub(crate) fn tet_volumes(p: &Particles, tets: &[[u32; 4]]) -> Result<Vec<f32>> {
    let mut out = try_with_capacity::<f32>(tets.len(), "tet volumes")?;
    for (j, t) in tets.iter().enumerate() {
        let r = rel(p, t);
        let v = tet_volume(&r);
        let scale = r[1..]
            .iter()
            .map(|x| x.length())
            .fold(0.0f32, f32::max)
            .powi(3);
        if v.is_nan() || v <= 1e-6 * scale {
            let what = if v < -1e-6 * scale {
                "inverted"
            } else {
                "degenerate (zero volume)"
            };
            return Err(Error::invalid(format!(
                "tet {j} {t:?} is {what}: signed volume {v} m³ (vertices 1, 2, 3 must wind \
                 counter-clockwise seen from vertex 0)"
            )));
        }
        out.push(v);
    }
    Ok(out)
}

impl PressureConstraints {
    /// Snapshot: every surface (its scratch is rebuilt).
    pub(crate) fn save_snapshot(&self, w: &mut Writer<'_>) {
        w.put_len(self.surfaces.len());
        for s in &self.surfaces {
            w.put_slice(&s.vertices);
            w.put_slice(&s.triangles);
            w.put(s.rest_volume);
            w.put(s.pressure);
            w.put(s.compliance);
            w.put(s.lambda);
        }
    }

    /// Snapshot: the surfaces [`Self::save_snapshot`] wrote.
    pub(crate) fn load_snapshot(r: &mut Reader<'_>, cx: &LoadContext<'_>) -> Result<Self> {
        let n = r.get_count(32, "pressure surfaces")?;
        let mut surfaces = try_with_capacity(n, "pressure surfaces")?;
        for k in 0..n {
            let vertices = r.get_vec::<u32>()?;
            let triangles = r.get_vec::<[u32; 3]>()?;
            codec::ensure(!vertices.is_empty(), || {
                format!("surface {k} has no vertices")
            })?;
            codec::check_list(&vertices, cx.hot.len(), "surface vertex")?;
            codec::check_indices(&triangles, vertices.len(), "surface triangle")?;
            let mut gradient = try_with_capacity::<Vec3>(vertices.len(), "surface gradient")?;
            gradient.resize(vertices.len(), Vec3::ZERO);
            surfaces.push(Surface {
                vertices,
                triangles,
                rest_volume: r.get()?,
                pressure: r.get()?,
                compliance: r.get()?,
                lambda: r.get()?,
                gradient,
            });
        }
        Ok(PressureConstraints { surfaces })
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::constraints::nary::fd::check_gradient;

    #[test]
    fn tet_volume_gradient_matches_finite_differences() {
        let x = [
            Vec3::new(0.0, 0.0, 0.0),
            Vec3::new(1.0, 0.1, 0.0),
            Vec3::new(0.2, 0.9, 0.1),
            Vec3::new(0.1, 0.2, 1.1),
        ];
        let r: [Vec3; 4] = std::array::from_fn(|k| x[k] - x[0]);
        let v0 = tet_volume(&r);
        assert!(v0 > 0.0);
        check_gradient::<TetVolume, 4>(x, &(0.8 * v0), 1e-3, 2e-3);
    }

    /// ∇V of a closed surface against central differences of V, for a unit cube.
    #[test]
    fn surface_volume_gradient_matches_finite_differences() {
        let mut particles = Particles::default();
        particles.reserve(8).unwrap();
        let corner = |i: u32| Vec3::new((i & 1) as f32, ((i >> 1) & 1) as f32, (i >> 2) as f32);
        for i in 0..8 {
            particles.push(
                corner(i) + Vec3::new(0.03 * i as f32, -0.02 * (i % 3) as f32, 0.0),
                1.0,
            );
        }
        let tris = cube_triangles();
        let s = validate_surface(&particles, &tris).unwrap();
        let mut set = PressureConstraints::default();
        set.push(s, 1.0, 0.0).unwrap();
        let v = |p: &Particles| set.volume(p, 0) as f64;
        // Analytic gradient: what `solve` accumulates.
        let surf = &set.surfaces[0];
        let rel = relative_positions(&particles, &surf.vertices);
        let mut g = vec![Vec3::ZERO; surf.vertices.len()];
        for t in &surf.triangles {
            let [a, b, c] = t.map(|v| rel[v as usize]);
            g[t[0] as usize] += b.cross(c) / 6.0;
            g[t[1] as usize] += c.cross(a) / 6.0;
            g[t[2] as usize] += a.cross(b) / 6.0;
        }
        let eps = 1e-3;
        for (k, &p) in surf.vertices.iter().enumerate() {
            for axis in 0..3 {
                let mut plus = clone(&particles);
                let mut minus = clone(&particles);
                let x = plus.position(p as usize);
                let mut xp = x;
                xp[axis] += eps;
                plus.set_position(p as usize, xp);
                let mut xm = x;
                xm[axis] -= eps;
                minus.set_position(p as usize, xm);
                let numeric = (v(&plus) - v(&minus)) / (2.0 * eps as f64);
                assert!(
                    (numeric as f32 - g[k][axis]).abs() < 2e-3,
                    "dV/dx{p}[{axis}] analytic {} vs {numeric}",
                    g[k][axis]
                );
            }
        }
    }

    fn clone(p: &Particles) -> Particles {
        let mut q = Particles::default();
        q.reserve(p.len()).unwrap();
        for i in 0..p.len() {
            q.push(p.position(i), p.inverse_mass(i));
        }
        q
    }

    /// A unit cube's 12 outward triangles over corners i = x + 2y + 4z.
    pub(crate) fn cube_triangles() -> Vec<[u32; 3]> {
        vec![
            [0, 2, 1],
            [1, 2, 3], // z = 0 (normal −z)
            [4, 5, 6],
            [5, 7, 6], // z = 1
            [0, 1, 4],
            [1, 5, 4], // y = 0
            [2, 6, 3],
            [3, 6, 7], // y = 1
            [0, 4, 2],
            [2, 4, 6], // x = 0
            [1, 3, 5],
            [3, 7, 5], // x = 1
        ]
    }

    #[test]
    fn open_and_inward_surfaces_are_rejected() {
        let mut particles = Particles::default();
        particles.reserve(8).unwrap();
        for i in 0..8u32 {
            particles.push(
                Vec3::new((i & 1) as f32, ((i >> 1) & 1) as f32, (i >> 2) as f32),
                1.0,
            );
        }
        let tris = cube_triangles();
        let e = validate_surface(&particles, &tris[..11]).err().unwrap();
        assert!(e.message.contains("not closed"), "{}", e.message);
        let inward: Vec<[u32; 3]> = tris.iter().map(|t| [t[0], t[2], t[1]]).collect();
        let e = validate_surface(&particles, &inward).err().unwrap();
        assert!(e.message.contains("must be positive"), "{}", e.message);
        assert!((validate_surface(&particles, &tris).unwrap().rest_volume - 1.0).abs() < 1e-6);
    }
}

//! Cloth builder: from any triangle mesh (vertices, triangles, per-vertex inverse
//! masses) or a rectangular grid. Every mesh edge is a stretch link (the grid's
//! diagonals are shear links); each interior edge (shared by two triangles) gets a
//! bending constraint of the chosen model; optional tethers (Kim et al. 2012) tie every
//! free vertex to its nearest pinned vertices (up to [`TETHERS_PER_VERTEX`]) with a max
//! length equal to their rest (Euclidean) distance, exact for cloth that is flat at rest.

use std::collections::{HashMap, HashSet};

use super::{first_index, links, unique_edges, BodyBuild};
use crate::constraints::bending::{dihedral_angle_and_gradient, IsometricRest};
use crate::constraints::nary::{check_elements, NewConstraint};
use crate::constraints::strain::{triangle_coefficients_along, StrainRest};
use crate::error::{Error, Result};
use crate::limits::schema::SettingEnum;
use crate::limits::{
    MAX_ACCELERATION, MAX_BODY_COMPLIANCE, MAX_BODY_MASS, MAX_BODY_PARTICLES, MAX_COORDINATE,
    MAX_GRID_SEGMENTS,
};
use crate::math::Vec3;
use crate::particles::{check_inverse_mass, check_vec3};

/// Nearest pinned vertices each free vertex is tethered to.
pub const TETHERS_PER_VERTEX: usize = 4;

/// Bending model of a cloth.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
pub enum BendingModel {
    /// No bending constraints.
    None,
    /// A length link between the two wing vertices of each interior edge (m/N).
    Distance,
    /// Dihedral angle (Müller 2007), rad/(N·m). The default.
    #[default]
    Dihedral,
    /// Isometric bending (Bergou 2006), 1/(N·m); for cloth flat at rest.
    Isometric,
}

/// How a cloth resists stretch and shear.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
pub enum ClothModel {
    /// A length link on every edge (grid diagonals are the shear links). The default.
    #[default]
    Edges,
    /// Strain-based dynamics (Müller et al. 2014): per triangle, stretch along the warp
    /// direction, stretch across it (weft) and shear, each with its own compliance.
    Strain,
}

crate::settings! {
    /// The material of a cloth (mesh or grid): how it resists stretch, shear and bending.
    pub struct ClothDesc => SinewClothDesc, ClothSettings, cookie 0x5E1E_0202,
        path "crate::bodies::cloth::ClothDesc", check ClothDesc::check_warp {
        /// Edge links on every edge, or strain-based triangles.
        model: ClothModel = ClothModel::Edges => unit "";
        /// Edges: compliance of the edges (m/N). Strain: of the warp stretch (1/(N·m)).
        stretch_compliance: f32 = 0.0 => unit "", min >= 0.0, max <= MAX_BODY_COMPLIANCE;
        /// Strain model only: compliance of the weft stretch (1/(N·m)).
        weft_compliance: f32 = 0.0 => unit "", min >= 0.0, max <= MAX_BODY_COMPLIANCE;
        /// Edges: compliance of the grid diagonals (m/N; unused for meshes). Strain: of the
        /// shear components (1/(N·m)).
        shear_compliance: f32 = 1.0e-4 => unit "", min >= 0.0, max <= MAX_BODY_COMPLIANCE;
        /// Strain model: the warp direction, finite and non-zero (projected onto each
        /// triangle; a grid uses its u edge).
        warp: Vec3 = Vec3::X => unit "";
        /// Compliance of the bending constraints, in the units of the bending model
        /// (distance m/N, dihedral rad/(N·m), isometric 1/(N·m)).
        bend_compliance: f32 = 1.0 => unit "", min >= 0.0, max <= MAX_BODY_COMPLIANCE;
        /// Bending model: none, distance links, dihedral angles or isometric.
        bending: BendingModel = BendingModel::Dihedral => unit "";
        /// Tether every free vertex to its nearest pinned vertices.
        tethers: bool = true => unit "";
        /// Extra velocity damping of the cloth's particles.
        damping: f32 = 0.0 => unit "1/s", min >= 0.0, max <= MAX_ACCELERATION;
    }
}

impl ClothDesc {
    /// The warp direction is non-zero (its finiteness is the field check's).
    fn check_warp(&self) -> Result<()> {
        if self.warp.length() < 1e-6 {
            return Err(Error::invalid(format!(
                "warp {} must be a finite, non-zero direction",
                self.warp
            )));
        }
        Ok(())
    }
}

crate::settings! {
    /// A rectangular cloth grid: vertex (i, j) at origin + u·i/segments_u +
    /// v·j/segments_v, particle index j·(segments_u + 1) + i.
    pub struct ClothGridDesc => SinewClothGridDesc, ClothGridSettings, cookie 0x5E1E_0203,
        path "crate::bodies::cloth::ClothGridDesc", check ClothGridDesc::check_area {
        /// The corner of vertex (0, 0).
        origin: Vec3 = Vec3::ZERO => unit "m", min >= -MAX_COORDINATE, max <= MAX_COORDINATE;
        /// Full width edge.
        u: Vec3 = Vec3::X => unit "m", min >= -MAX_COORDINATE, max <= MAX_COORDINATE;
        /// Full height edge.
        v: Vec3 = Vec3::Z => unit "m", min >= -MAX_COORDINATE, max <= MAX_COORDINATE;
        /// Cells along u.
        segments_u: u32 = 20 => unit "", min >= 1, max <= MAX_GRID_SEGMENTS;
        /// Cells along v.
        segments_v: u32 = 20 => unit "", min >= 1, max <= MAX_GRID_SEGMENTS;
        /// Total mass, spread evenly over the vertices.
        total_mass: f32 = 1.0 => unit "kg", min > 0.0, max <= MAX_BODY_MASS;
        /// Pinned corners, bits: 1 = (0, 0), 2 = (u, 0), 4 = (0, v), 8 = (u, v).
        pin_corners: u32 = 0 => unit "", min >= 0, max <= 15;
    }
}

impl ClothGridDesc {
    /// The grid has an area: u and v are not parallel.
    fn check_area(&self) -> Result<()> {
        if self.u.cross(self.v).length() <= 1e-12 {
            return Err(Error::invalid(
                "u and v are parallel or zero: the grid has zero area",
            ));
        }
        Ok(())
    }
}

impl SettingEnum for ClothModel {
    const C_TYPE: &'static str = "SinewClothModel";
    fn to_c(self) -> u32 {
        match self {
            ClothModel::Edges => 0,
            ClothModel::Strain => 1,
        }
    }
    fn from_c(v: u32, field: &str) -> Result<ClothModel> {
        match v {
            0 => Ok(ClothModel::Edges),
            1 => Ok(ClothModel::Strain),
            _ => Err(Error::invalid(format!(
                "{field} {v} is not a SinewClothModel (0 or 1)"
            ))),
        }
    }
}

impl SettingEnum for BendingModel {
    const C_TYPE: &'static str = "SinewBendingModel";
    fn to_c(self) -> u32 {
        match self {
            BendingModel::None => 0,
            BendingModel::Distance => 1,
            BendingModel::Dihedral => 2,
            BendingModel::Isometric => 3,
        }
    }
    fn from_c(v: u32, field: &str) -> Result<BendingModel> {
        match v {
            0 => Ok(BendingModel::None),
            1 => Ok(BendingModel::Distance),
            2 => Ok(BendingModel::Dihedral),
            3 => Ok(BendingModel::Isometric),
            _ => Err(Error::invalid(format!(
                "{field} {v} is not a SinewBendingModel (0..=3)"
            ))),
        }
    }
}

/// Fails naming the first triangle with (near) zero area.
pub(crate) fn check_areas(positions: &[Vec3], triangles: &[[u32; 3]]) -> Result<()> {
    for (t, tri) in triangles.iter().enumerate() {
        let [a, b, c] = tri.map(|p| positions[p as usize]);
        let n = (b - a).cross(c - a);
        let scale = (b - a).length_squared().max((c - a).length_squared());
        if !(scale > 0.0 && n.length() > 1e-6 * scale) {
            return Err(Error::invalid(format!(
                "triangle {t} {tri:?} has zero area (coincident or collinear vertices)"
            )));
        }
    }
    Ok(())
}

/// The cloth [`crate::World::add_cloth_mesh`] adds to a world of `particle_count`
/// particles.
pub(crate) fn mesh(
    particle_count: usize,
    desc: &ClothDesc,
    vertices: &[Vec3],
    triangles: &[[u32; 3]],
    inverse_masses: &[f32],
) -> Result<BodyBuild> {
    cloth(
        particle_count,
        desc,
        vertices,
        triangles,
        inverse_masses,
        &HashSet::new(),
        desc.warp,
    )
}

/// The cloth [`crate::World::add_cloth_grid`] adds to a world of `particle_count`
/// particles.
pub(crate) fn grid(
    particle_count: usize,
    desc: &ClothDesc,
    grid: &ClothGridDesc,
) -> Result<BodyBuild> {
    grid.validate()?;
    let (nu, nv) = (grid.segments_u, grid.segments_v);
    let (cu, cv) = (nu as usize + 1, nv as usize + 1);
    let id = |i: usize, j: usize| (j * cu + i) as u32;
    let mut vertices = Vec::with_capacity(cu * cv);
    for j in 0..cv {
        for i in 0..cu {
            vertices.push(
                grid.origin + grid.u * (i as f32 / nu as f32) + grid.v * (j as f32 / nv as f32),
            );
        }
    }
    let w = vertices.len() as f32 / grid.total_mass;
    let mut inv = vec![w; vertices.len()];
    for (bit, (i, j)) in [(0, 0), (cu - 1, 0), (0, cv - 1), (cu - 1, cv - 1)]
        .into_iter()
        .enumerate()
    {
        if grid.pin_corners & (1 << bit) != 0 {
            inv[id(i, j) as usize] = 0.0;
        }
    }
    let mut triangles = Vec::with_capacity(2 * nu as usize * nv as usize);
    let mut shear = HashSet::new();
    for j in 0..cv - 1 {
        for i in 0..cu - 1 {
            let (a, b, c, d) = (id(i, j), id(i + 1, j), id(i, j + 1), id(i + 1, j + 1));
            // Alternate the diagonal so the cloth has no preferred shear direction.
            if (i + j) % 2 == 0 {
                triangles.push([a, b, d]);
                triangles.push([a, d, c]);
                shear.insert((a.min(d), a.max(d)));
            } else {
                triangles.push([a, b, c]);
                triangles.push([b, d, c]);
                shear.insert((b.min(c), b.max(c)));
            }
        }
    }
    cloth(
        particle_count,
        desc,
        &vertices,
        &triangles,
        &inv,
        &shear,
        grid.u,
    )
}

#[allow(clippy::too_many_arguments)]
fn cloth(
    particle_count: usize,
    desc: &ClothDesc,
    vertices: &[Vec3],
    triangles: &[[u32; 3]],
    inverse_masses: &[f32],
    shear: &HashSet<(u32, u32)>,
    warp: Vec3,
) -> Result<BodyBuild> {
    desc.validate()?;
    let n = vertices.len();
    if !(3..MAX_BODY_PARTICLES as usize).contains(&n) {
        return Err(Error::invalid(format!(
            "a cloth needs 3..{MAX_BODY_PARTICLES} vertices, got {n}"
        )));
    }
    if triangles.is_empty() {
        return Err(Error::invalid("a cloth needs at least one triangle"));
    }
    if inverse_masses.len() != n {
        return Err(Error::invalid(format!(
            "{} inverse masses for {n} vertices",
            inverse_masses.len()
        )));
    }
    let first = first_index(particle_count, n)?;
    for (i, &p) in vertices.iter().enumerate() {
        check_vec3("vertex", i, p)?;
    }
    for (i, &w) in inverse_masses.iter().enumerate() {
        check_inverse_mass(i, w)?;
    }
    check_elements(triangles, n, "triangle")?;
    check_areas(vertices, triangles)?;
    // Wings of each edge.
    let mut wings: HashMap<(u32, u32), Vec<u32>> = HashMap::new();
    for tri in triangles {
        for k in 0..3 {
            let (a, b, c) = (tri[k], tri[(k + 1) % 3], tri[(k + 2) % 3]);
            wings.entry((a.min(b), a.max(b))).or_default().push(c);
        }
    }
    let edges = unique_edges(triangles);
    let g = |p: u32| p + first;
    let mut b = BodyBuild {
        first,
        positions: vertices.to_vec(),
        inverse_masses: inverse_masses.to_vec(),
        damping: desc.damping,
        triangles: triangles.iter().map(|t| t.map(g)).collect(),
        ..Default::default()
    };
    let (stretch, shear_edges): (Vec<[u32; 2]>, Vec<[u32; 2]>) =
        edges.iter().partition(|e| !shear.contains(&(e[0], e[1])));
    match desc.model {
        ClothModel::Edges => {
            b.stretch = links(&stretch, vertices, first, desc.stretch_compliance);
            b.shear = links(&shear_edges, vertices, first, desc.shear_compliance);
        }
        ClothModel::Strain => {
            for (j, t) in triangles.iter().enumerate() {
                let x0 = vertices[t[0] as usize];
                let (r1, r2) = (vertices[t[1] as usize] - x0, vertices[t[2] as usize] - x0);
                let coef = triangle_coefficients_along(r1, r2, warp)
                    .ok_or_else(|| Error::invalid(format!("triangle {j} {t:?} has zero area")))?;
                for (axes, compliance) in [
                    ((0, 0), desc.stretch_compliance),
                    ((1, 1), desc.weft_compliance),
                    ((0, 1), desc.shear_compliance),
                ] {
                    b.triangle_strain.push(NewConstraint {
                        particles: t.map(g),
                        rest: StrainRest { coef, axes },
                        compliance,
                    });
                }
            }
        }
    }

    for e in &edges {
        let w = &wings[&(e[0], e[1])];
        if w.len() > 2 {
            return Err(Error::invalid(format!(
                "edge ({}, {}) is shared by {} triangles: the mesh is not two-manifold",
                e[0],
                e[1],
                w.len()
            )));
        }
        // Two triangles on the same three vertices ((0,1,2) and (0,2,1), or one listed
        // twice) have one wing vertex on both sides: their hinges name that particle
        // twice, which bends nothing (a link from it to itself, a fold of a triangle
        // onto itself) and which no constraint set takes (the Gauss-Seidel sweep wants
        // the particles of a slot distinct). Every bending model skips such a hinge.
        if w.len() != 2 || w[0] == w[1] {
            continue;
        }
        let hinge = [e[0], e[1], w[0], w[1]];
        let x = hinge.map(|p| vertices[p as usize]);
        match desc.bending {
            BendingModel::None => {}
            BendingModel::Distance => b.bend_link.push(NewConstraint {
                particles: [g(w[0]), g(w[1])],
                rest: x[2].distance(x[3]),
                compliance: desc.bend_compliance,
            }),
            BendingModel::Dihedral => {
                let r = x.map(|p| p - x[0]);
                if let Some((theta, _)) = dihedral_angle_and_gradient(&r) {
                    b.dihedral.push(NewConstraint {
                        particles: hinge.map(g),
                        rest: theta,
                        compliance: desc.bend_compliance,
                    });
                }
            }
            BendingModel::Isometric => {
                if let Some(rest) = IsometricRest::new(&x) {
                    b.isometric.push(NewConstraint {
                        particles: hinge.map(g),
                        rest,
                        compliance: desc.bend_compliance,
                    });
                }
            }
        }
    }
    if desc.tethers {
        let pinned: Vec<u32> = (0..n as u32)
            .filter(|&i| inverse_masses[i as usize] == 0.0)
            .collect();
        if !pinned.is_empty() {
            for v in 0..n as u32 {
                if inverse_masses[v as usize] == 0.0 {
                    continue;
                }
                let x = vertices[v as usize];
                let mut near: Vec<(f32, u32)> = pinned
                    .iter()
                    .map(|&p| (vertices[p as usize].distance(x), p))
                    .collect();
                near.sort_by(|a, b| a.0.total_cmp(&b.0).then(a.1.cmp(&b.1)));
                for &(d, p) in near.iter().take(TETHERS_PER_VERTEX) {
                    b.tether.push(NewConstraint {
                        particles: [g(p), g(v)],
                        rest: d,
                        compliance: 0.0,
                    });
                }
            }
        }
    }
    Ok(b)
}

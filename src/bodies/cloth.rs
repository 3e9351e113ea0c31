//! Cloth builder: from any triangle mesh (vertices, triangles, per-vertex inverse
//! masses) or a rectangular grid. Every mesh edge is a stretch link (the grid's
//! diagonals are shear links); each interior edge (shared by two triangles) gets a
//! bending constraint of the chosen model; optional tethers (Kim et al. 2012) tie every
//! free vertex to its nearest pinned vertices (up to [`TETHERS_PER_VERTEX`]) with a max
//! length equal to their rest (Euclidean) distance, exact for cloth that is flat at rest.

use std::collections::{HashMap, HashSet};

use super::{
    check_body_compliance, check_damping, check_total_mass, first_index, links, unique_edges,
    BodyBuild, MAX_BODY_PARTICLES,
};
use crate::constraints::bending::{dihedral_angle_and_gradient, IsometricRest};
use crate::constraints::nary::{check_elements, NewConstraint};
use crate::constraints::strain::{triangle_coefficients_along, StrainRest};
use crate::error::{Error, Result};
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

/// Material of a cloth. Units: m/N (edges), 1/(N·m) (strain), per the model (bend), 1/s.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct ClothDesc {
    /// Default edges.
    pub model: ClothModel,
    /// Edges: compliance of the edges (m/N). Strain: of the warp stretch (1/(N·m)).
    /// Default 0.
    pub stretch_compliance: f32,
    /// Strain model only: compliance of the weft stretch (1/(N·m)), default 0.
    pub weft_compliance: f32,
    /// Edges: compliance of the grid diagonals (m/N; unused for meshes). Strain: of the
    /// shear components (1/(N·m)). Default 1e-4.
    pub shear_compliance: f32,
    /// Strain model: the warp direction (projected onto each triangle; a grid uses its
    /// u edge). Default (1, 0, 0).
    pub warp: Vec3,
    /// Compliance of the bending constraints (units of the model), default 1.
    pub bend_compliance: f32,
    /// Default dihedral.
    pub bending: BendingModel,
    /// Tethers to pinned vertices, default true.
    pub tethers: bool,
    /// Extra velocity damping (1/s), default 0.
    pub damping: f32,
}

impl Default for ClothDesc {
    fn default() -> Self {
        ClothDesc {
            model: ClothModel::Edges,
            stretch_compliance: 0.0,
            weft_compliance: 0.0,
            shear_compliance: 1.0e-4,
            warp: Vec3::X,
            bend_compliance: 1.0,
            bending: BendingModel::Dihedral,
            tethers: true,
            damping: 0.0,
        }
    }
}

/// A rectangular grid: vertex (i, j) at `origin + u·i/segments_u + v·j/segments_v`.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct ClothGridDesc {
    /// m, default (0, 0, 0).
    pub origin: Vec3,
    /// Full width edge (m), default (1, 0, 0).
    pub u: Vec3,
    /// Full height edge (m), default (0, 0, 1).
    pub v: Vec3,
    /// Cells along u and v, 1..=4096 each, default 20 × 20.
    pub segments_u: u32,
    pub segments_v: u32,
    /// Total mass (kg) spread evenly over the vertices, default 1.
    pub total_mass: f32,
    /// Pinned corners, bits: 1 = (0, 0), 2 = (u, 0), 4 = (0, v), 8 = (u, v). Default 0.
    pub pin_corners: u32,
}

impl Default for ClothGridDesc {
    fn default() -> Self {
        ClothGridDesc {
            origin: Vec3::ZERO,
            u: Vec3::X,
            v: Vec3::Z,
            segments_u: 20,
            segments_v: 20,
            total_mass: 1.0,
            pin_corners: 0,
        }
    }
}

fn validate_desc(d: &ClothDesc) -> Result<()> {
    check_body_compliance("stretch", d.stretch_compliance)?;
    check_body_compliance("weft", d.weft_compliance)?;
    check_body_compliance("shear", d.shear_compliance)?;
    if !d.warp.is_finite() || d.warp.length() < 1e-6 {
        return Err(Error::invalid(format!(
            "warp {} must be a finite, non-zero direction",
            d.warp
        )));
    }
    check_body_compliance("bend", d.bend_compliance)?;
    check_damping(d.damping)
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
    check_total_mass(grid.total_mass)?;
    let (nu, nv) = (grid.segments_u, grid.segments_v);
    if !(1..=4096).contains(&nu) || !(1..=4096).contains(&nv) {
        return Err(Error::invalid(format!(
            "segments_u {nu} and segments_v {nv} must be in 1..=4096"
        )));
    }
    if grid.pin_corners > 15 {
        return Err(Error::invalid(format!(
            "pin_corners {} has bits other than 1, 2, 4, 8",
            grid.pin_corners
        )));
    }
    for (name, x) in [("origin", grid.origin), ("u", grid.u), ("v", grid.v)] {
        check_vec3(name, 0, x)?;
    }
    if grid.u.cross(grid.v).length() <= 1e-12 {
        return Err(Error::invalid(
            "u and v are parallel or zero: the grid has zero area",
        ));
    }
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
    validate_desc(desc)?;
    let n = vertices.len();
    if !(3..MAX_BODY_PARTICLES).contains(&n) {
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
        if w.len() != 2 {
            continue;
        }
        let hinge = [e[0], e[1], w[0], w[1]];
        let x = hinge.map(|p| vertices[p as usize]);
        match desc.bending {
            BendingModel::None => {}
            // Two triangles on the same three vertices ((0,1,2) and (0,2,1)) have one
            // wing vertex on both sides: a link from it to itself constrains nothing
            // (as the dihedral and isometric models skip such a hinge, so does this).
            BendingModel::Distance if w[0] == w[1] => {}
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

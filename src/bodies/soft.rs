//! Soft bodies: from a tetrahedral mesh (edge links + tet volume constraints) or from
//! a closed triangle surface (edge links + one pressure volume constraint with an
//! overpressure factor, the inflatable of Nakagawa, "Position Based Dynamics Combo", CEDEC 2017).

use super::{first_index, links, unique_edges, BodyBuild};
use crate::constraints::nary::{check_elements, NewConstraint};
use crate::constraints::strain::{tet_coefficients, StrainRest};
use crate::constraints::volume::{tet_volumes, validate_surface};
use crate::error::{Error, Result};
use crate::limits::schema::SettingEnum;
use crate::limits::{
    MAX_ACCELERATION, MAX_BODY_COMPLIANCE, MAX_BODY_MASS, MAX_BODY_PARTICLES, MAX_PRESSURE,
};
use crate::math::Vec3;
use crate::particles::Particles;
use crate::particles::{check_inverse_mass, check_vec3};

/// Checks an overpressure factor k (target volume k·V0): finite, in (0, 100].
pub(crate) fn check_pressure(k: f32) -> Result<()> {
    if !(k.is_finite() && k > 0.0 && k <= MAX_PRESSURE) {
        return Err(Error::invalid(format!(
            "pressure {k} must be finite and in (0, {MAX_PRESSURE}] (target volume = pressure × rest volume)"
        )));
    }
    Ok(())
}

/// How a tet soft body resists deformation.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
pub enum TetModel {
    /// A length link on every tet edge plus a volume constraint per tet (default).
    #[default]
    EdgesAndVolume,
    /// Strain-based dynamics: per tet, stretch along x, y, z and shear xy, xz, yz
    /// (Müller et al. 2014), plus a volume constraint.
    Strain,
}

crate::settings! {
    /// A tetrahedral soft body: edge links or strain constraints, and a volume
    /// constraint per tet.
    pub struct TetBodyDesc => SinewTetBodyDesc, TetBodySettings, cookie 0x5E1E_0204,
        path "crate::bodies::soft::TetBodyDesc" {
        /// Total mass, lumped to the vertices by tet volume when no inverse masses are
        /// given (ignored when they are).
        total_mass: f32 = 1.0 => unit "kg", min > 0.0, max <= MAX_BODY_MASS;
        /// Edge links plus volume, or strain-based plus volume.
        model: TetModel = TetModel::EdgesAndVolume => unit "";
        /// Edges model: compliance of the tet edges (m/N). Strain model: of the stretch
        /// components (1/(N·m)).
        stretch_compliance: f32 = 1.0e-4 => unit "", min >= 0.0, max <= MAX_BODY_COMPLIANCE;
        /// Strain model only: compliance of the shear components (1/(N·m)).
        shear_compliance: f32 = 1.0e-4 => unit "", min >= 0.0, max <= MAX_BODY_COMPLIANCE;
        /// Compliance of the tet volumes (0 = incompressible).
        volume_compliance: f32 = 0.0 => unit "1/(N·m)", min >= 0.0, max <= MAX_BODY_COMPLIANCE;
        /// Extra velocity damping of the body's particles.
        damping: f32 = 0.0 => unit "1/s", min >= 0.0, max <= MAX_ACCELERATION;
    }
}

crate::settings! {
    /// A closed-surface (pressure) soft body: edge links and one volume constraint that
    /// keeps pressure × the rest volume.
    pub struct PressureBodyDesc => SinewPressureBodyDesc, PressureBodySettings,
        cookie 0x5E1E_0205, path "crate::bodies::soft::PressureBodyDesc" {
        /// Total mass, lumped to the vertices by triangle area when no inverse masses are
        /// given (ignored when they are).
        total_mass: f32 = 1.0 => unit "kg", min > 0.0, max <= MAX_BODY_MASS;
        /// Compliance of the surface edges.
        stretch_compliance: f32 = 1.0e-4 => unit "m/N", min >= 0.0, max <= MAX_BODY_COMPLIANCE;
        /// Overpressure factor k: the body keeps k × its rest volume.
        pressure: f32 = 1.0 => unit "", min > 0.0, max <= MAX_PRESSURE;
        /// Compliance of the volume constraint.
        volume_compliance: f32 = 0.0 => unit "m⁵/N", min >= 0.0, max <= MAX_BODY_COMPLIANCE;
        /// Extra velocity damping of the body's particles.
        damping: f32 = 0.0 => unit "1/s", min >= 0.0, max <= MAX_ACCELERATION;
    }
}

impl SettingEnum for TetModel {
    const C_TYPE: &'static str = "SinewTetModel";
    fn to_c(self) -> u32 {
        match self {
            TetModel::EdgesAndVolume => 0,
            TetModel::Strain => 1,
        }
    }
    fn from_c(v: u32, field: &str) -> Result<TetModel> {
        match v {
            0 => Ok(TetModel::EdgesAndVolume),
            1 => Ok(TetModel::Strain),
            _ => Err(Error::invalid(format!(
                "{field} {v} is not a SinewTetModel (0 or 1)"
            ))),
        }
    }
}

/// The fields a soft-body builder reads: all of them, but the total mass only when it
/// lumps the masses (no inverse masses given).
fn ignored(inverse_masses: Option<&[f32]>) -> &'static [&'static str] {
    if inverse_masses.is_some() {
        &["total_mass"]
    } else {
        &[]
    }
}

/// The body's vertices as stand-alone particles (for validation in local indices).
fn local_particles(vertices: &[Vec3]) -> Result<Particles> {
    let mut p = Particles::default();
    p.reserve(vertices.len())?;
    for &v in vertices {
        p.push(v, 1.0);
    }
    Ok(p)
}

/// Inverse masses: the given ones (checked), or `total_mass` lumped by `share`
/// (per-vertex weights, e.g. volume or area); a vertex with no share is an error.
fn lumped_inverse_masses(
    given: Option<&[f32]>,
    n: usize,
    total_mass: f32,
    share: &[f64],
    element: &str,
) -> Result<Vec<f32>> {
    match given {
        Some(w) => {
            if w.len() != n {
                return Err(Error::invalid(format!(
                    "{} inverse masses for {n} vertices",
                    w.len()
                )));
            }
            for (i, &x) in w.iter().enumerate() {
                check_inverse_mass(i, x)?;
            }
            Ok(w.to_vec())
        }
        None => {
            let total: f64 = share.iter().sum();
            let mut out = Vec::with_capacity(n);
            for (i, &s) in share.iter().enumerate() {
                if s <= 0.0 {
                    return Err(Error::invalid(format!(
                        "vertex {i} belongs to no {element}: it would have no mass"
                    )));
                }
                out.push((total / (s * total_mass as f64)) as f32);
            }
            Ok(out)
        }
    }
}

fn check_vertices(vertices: &[Vec3], min: usize) -> Result<()> {
    let n = vertices.len();
    if n < min || n >= MAX_BODY_PARTICLES as usize {
        return Err(Error::invalid(format!(
            "the mesh needs {min}..{MAX_BODY_PARTICLES} vertices, got {n}"
        )));
    }
    for (i, &p) in vertices.iter().enumerate() {
        check_vec3("vertex", i, p)?;
    }
    Ok(())
}

/// A soft body's particles, `vertices` from index `first`, before its constraints:
/// the given inverse masses, or `lump` = (total mass, each vertex's share of the volume
/// or area, the element name) lumped by [`lumped_inverse_masses`].
fn soft_particles(
    first: u32,
    vertices: &[Vec3],
    inverse_masses: Option<&[f32]>,
    (total_mass, share, element): (f32, &[f64], &str),
    damping: f32,
) -> Result<BodyBuild> {
    let inverse_masses =
        lumped_inverse_masses(inverse_masses, vertices.len(), total_mass, share, element)?;
    Ok(BodyBuild {
        first,
        positions: vertices.to_vec(),
        inverse_masses,
        damping,
        ..Default::default()
    })
}

/// The body [`crate::World::add_tet_body`] adds to a world of `particle_count`
/// particles.
pub(crate) fn tet_body(
    particle_count: usize,
    desc: &TetBodyDesc,
    vertices: &[Vec3],
    tets: &[[u32; 4]],
    inverse_masses: Option<&[f32]>,
) -> Result<BodyBuild> {
    desc.validate_except(ignored(inverse_masses))?;
    check_vertices(vertices, 4)?;
    if tets.is_empty() {
        return Err(Error::invalid("a tet body needs at least one tet"));
    }
    let first = first_index(particle_count, vertices.len())?;
    check_elements(tets, vertices.len(), "tet")?;
    let local = local_particles(vertices)?;
    let volumes = tet_volumes(&local, tets)?;
    let mut share = vec![0.0f64; vertices.len()];
    for (t, &v) in tets.iter().zip(&volumes) {
        for &p in t {
            share[p as usize] += v as f64 / 4.0;
        }
    }
    let mut b = soft_particles(
        first,
        vertices,
        inverse_masses,
        (desc.total_mass, &share, "tet"),
        desc.damping,
    )?;
    match desc.model {
        TetModel::EdgesAndVolume => {
            b.stretch = links(
                &unique_edges(tets),
                vertices,
                first,
                desc.stretch_compliance,
            );
        }
        TetModel::Strain => {
            for (j, t) in tets.iter().enumerate() {
                let x0 = vertices[t[0] as usize];
                let r = t.map(|p| vertices[p as usize] - x0);
                let coef = tet_coefficients(r[1], r[2], r[3])
                    .ok_or_else(|| Error::invalid(format!("tet {j} {t:?} is degenerate")))?;
                let (cs, cx) = (desc.stretch_compliance, desc.shear_compliance);
                for (axes, compliance) in [
                    ((0, 0), cs),
                    ((1, 1), cs),
                    ((2, 2), cs),
                    ((0, 1), cx),
                    ((0, 2), cx),
                    ((1, 2), cx),
                ] {
                    b.tet_strain.push(NewConstraint {
                        particles: t.map(|p| p + first),
                        rest: StrainRest { coef, axes },
                        compliance,
                    });
                }
            }
        }
    }
    b.tet_volume = tets
        .iter()
        .zip(&volumes)
        .map(|(t, &v)| NewConstraint {
            particles: t.map(|p| p + first),
            rest: v,
            compliance: desc.volume_compliance,
        })
        .collect();
    Ok(b)
}

/// The body [`crate::World::add_pressure_body`] adds to a world of `particle_count`
/// particles.
pub(crate) fn pressure_body(
    particle_count: usize,
    desc: &PressureBodyDesc,
    vertices: &[Vec3],
    triangles: &[[u32; 3]],
    inverse_masses: Option<&[f32]>,
) -> Result<BodyBuild> {
    desc.validate_except(ignored(inverse_masses))?;
    check_vertices(vertices, 4)?;
    let first = first_index(particle_count, vertices.len())?;
    let local = local_particles(vertices)?;
    let surface = validate_surface(&local, triangles)?;
    let mut share = vec![0.0f64; vertices.len()];
    for t in triangles {
        let [a, b, c] = t.map(|p| vertices[p as usize]);
        let area = 0.5 * (b - a).cross(c - a).length() as f64;
        for &p in t {
            share[p as usize] += area / 3.0;
        }
    }
    let mut b = soft_particles(
        first,
        vertices,
        inverse_masses,
        (desc.total_mass, &share, "triangle"),
        desc.damping,
    )?;
    b.stretch = links(
        &unique_edges(triangles),
        vertices,
        first,
        desc.stretch_compliance,
    );
    b.pressure = Some((surface.offset(first), desc.pressure, desc.volume_compliance));
    Ok(b)
}

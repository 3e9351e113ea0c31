//! Rope builder: a chain of particles with stretch links (i, i+1), bend links
//! (i, i+2), optional tethers from pinned ends (Kim et al. 2012; max length = the arc
//! length along the rope) and pins at either end. Every particle collides with the
//! rope's radius, in a collision group of the rope's own (`BodyBuild::particle_radius`).

use super::{first_index, BodyBuild};
use crate::constraints::nary::NewConstraint;
use crate::error::{Error, Result};
use crate::limits::{
    MAX_ACCELERATION, MAX_BODY_COMPLIANCE, MAX_BODY_MASS, MAX_BODY_PARTICLES, MAX_COORDINATE,
    MAX_LENGTH,
};
use crate::math::Vec3;

crate::settings! {
    /// How to build a rope: a chain of particles with stretch links (i, i+1), bend links
    /// (i, i+2), optional tethers from the pinned ends and pins at either end.
    pub struct RopeDesc => SinewRopeDesc, RopeSettings, cookie 0x5E1E_0201,
        path "crate::bodies::rope::RopeDesc" {
        /// First end, where the straight rope starts. Ignored by the polyline builder.
        start: Vec3 = Vec3::ZERO => unit "m", min >= -MAX_COORDINATE, max <= MAX_COORDINATE;
        /// Second end. Ignored by the polyline builder.
        end: Vec3 = Vec3::X => unit "m", min >= -MAX_COORDINATE, max <= MAX_COORDINATE;
        /// Segments between start and end (segments + 1 particles). Ignored by the polyline
        /// builder.
        segments: u32 = 20 => unit "", min >= 1, max < MAX_BODY_PARTICLES;
        /// Total mass, spread evenly over the particles.
        total_mass: f32 = 1.0 => unit "kg", min > 0.0, max <= MAX_BODY_MASS, ui "Mass";
        /// Radius for rendering and collision: each particle's collision radius against
        /// colliders and other particles (not the rope's own). 0 = a thin line for
        /// colliders and no part in particle contacts, whose neighbour search then costs
        /// nothing.
        radius: f32 = 0.01 => unit "m", min >= 0.0, max <= MAX_LENGTH;
        /// Compliance of the links (0 = inextensible).
        stretch_compliance: f32 = 0.0 => unit "m/N", min >= 0.0, max <= MAX_BODY_COMPLIANCE,
            ui "Compliance";
        /// Compliance of the (i, i+2) bend links.
        bend_compliance: f32 = 0.01 => unit "m/N", min >= 0.0, max <= MAX_BODY_COMPLIANCE;
        /// Tethers from each pinned end to every particle (Kim et al. 2012; max length =
        /// the arc length along the rope).
        tethers: bool = true => unit "";
        /// Pin the first particle (inverse mass 0).
        pin_start: bool = true => unit "";
        /// Pin the last particle (inverse mass 0).
        pin_end: bool = false => unit "";
        /// Extra velocity damping of the rope's particles.
        damping: f32 = 0.0 => unit "1/s", min >= 0.0, max <= MAX_ACCELERATION;
    }
}

/// Whether `particles` and `stretch` (links) have a rope's shape as the builders make
/// it: n ≥ 2 particles and n − 1 links (cuts, winches and breaking index the links from
/// the first particle). Checked where a snapshot names a rope.
pub(crate) fn has_rope_shape(
    particles: &std::ops::Range<u32>,
    stretch: &std::ops::Range<u32>,
) -> bool {
    particles.len() >= 2 && stretch.len() + 1 == particles.len()
}

/// The fields the polyline builder ignores (its points replace them).
const POLYLINE_IGNORES: &[&str] = &["start", "end", "segments"];

/// The particles of a straight rope from `desc.start` to `desc.end` in
/// `desc.segments` segments (checks `desc`).
pub(crate) fn straight_points(desc: &RopeDesc) -> Result<Vec<Vec3>> {
    desc.validate()?;
    let n = desc.segments as usize;
    let points: Vec<Vec3> = (0..=n)
        .map(|i| desc.start.lerp(desc.end, i as f32 / n as f32))
        .collect();
    Ok(points)
}

/// The rope [`crate::World::add_rope_polyline`] adds to a world of `particle_count`
/// particles, through `points` (one particle each, at least 2).
pub(crate) fn polyline(
    particle_count: usize,
    desc: &RopeDesc,
    points: &[Vec3],
) -> Result<BodyBuild> {
    desc.validate_except(POLYLINE_IGNORES)?;
    let n = points.len();
    if n < 2 {
        return Err(Error::invalid(format!(
            "a rope needs at least 2 points, got {n}"
        )));
    }
    let first = first_index(particle_count, n)?;
    for (i, &p) in points.iter().enumerate() {
        crate::particles::check_vec3("point", i, p)?;
    }
    let mut arc = vec![0.0f32; n];
    for i in 1..n {
        let l = points[i].distance(points[i - 1]);
        if l.is_nan() || l <= 1e-9 {
            return Err(Error::invalid(format!(
                "segment {} (points {} and {i}) has zero length",
                i - 1,
                i - 1
            )));
        }
        arc[i] = arc[i - 1] + l;
    }
    let w = n as f32 / desc.total_mass;
    let mut inverse_masses = vec![w; n];
    if desc.pin_start {
        inverse_masses[0] = 0.0;
    }
    if desc.pin_end {
        inverse_masses[n - 1] = 0.0;
    }
    let g = |i: usize| first + i as u32;
    let mut b = BodyBuild {
        first,
        positions: points.to_vec(),
        inverse_masses,
        damping: desc.damping,
        radius: desc.radius,
        // The radius is the particles' collision radius too, as the desc says.
        particle_radius: desc.radius,
        ..Default::default()
    };
    b.stretch = (0..n - 1)
        .map(|i| NewConstraint {
            particles: [g(i), g(i + 1)],
            rest: arc[i + 1] - arc[i],
            compliance: desc.stretch_compliance,
        })
        .collect();
    b.bend_link = (0..n.saturating_sub(2))
        .map(|i| NewConstraint {
            particles: [g(i), g(i + 2)],
            rest: points[i].distance(points[i + 2]),
            compliance: desc.bend_compliance,
        })
        .collect();
    if desc.tethers {
        let mut anchors = Vec::new();
        if desc.pin_start {
            anchors.push(0usize);
        }
        if desc.pin_end {
            anchors.push(n - 1);
        }
        for &a in &anchors {
            for i in 0..n {
                if b.inverse_masses[i] > 0.0 && i.abs_diff(a) >= 2 {
                    b.tether.push(NewConstraint {
                        particles: [g(a), g(i)],
                        rest: (arc[i] - arc[a]).abs(),
                        compliance: 0.0,
                    });
                }
            }
        }
    }
    Ok(b)
}

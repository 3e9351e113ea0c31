//! Rope builder: a chain of particles with stretch links (i, i+1), bend links
//! (i, i+2), optional tethers from pinned ends (Kim et al. 2012; max length = the arc
//! length along the rope) and pins at either end. Every particle collides with the
//! rope's radius, in a collision group of the rope's own (`BodyBuild::particle_radius`).

use super::{
    check_body_compliance, check_damping, check_total_mass, first_index, BodyBuild,
    MAX_BODY_PARTICLES,
};
use crate::constraints::nary::NewConstraint;
use crate::error::{Error, Result};
use crate::math::Vec3;

/// How to build a rope. Units: m, kg, m/N, 1/s.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct RopeDesc {
    /// First end (m), used by [`crate::World::add_rope`]. Default (0, 0, 0).
    pub start: Vec3,
    /// Second end (m). Default (1, 0, 0).
    pub end: Vec3,
    /// Number of segments between start and end, 1..=2^24−1. Default 20.
    pub segments: u32,
    /// Total mass (kg), spread evenly over the particles. Default 1.
    pub total_mass: f32,
    /// Radius (m) for rendering and collision; >= 0. Default 0.01.
    pub radius: f32,
    /// Compliance of the links (m/N), default 0 (inextensible).
    pub stretch_compliance: f32,
    /// Compliance of the (i, i+2) bend links (m/N), default 0.01.
    pub bend_compliance: f32,
    /// Tethers from each pinned end to every particle, default true.
    pub tethers: bool,
    /// Pin the first particle (inverse mass 0), default true.
    pub pin_start: bool,
    /// Pin the last particle, default false.
    pub pin_end: bool,
    /// Extra velocity damping of the rope's particles (1/s), default 0.
    pub damping: f32,
}

impl Default for RopeDesc {
    fn default() -> Self {
        RopeDesc {
            start: Vec3::ZERO,
            end: Vec3::X,
            segments: 20,
            total_mass: 1.0,
            radius: 0.01,
            stretch_compliance: 0.0,
            bend_compliance: 0.01,
            tethers: true,
            pin_start: true,
            pin_end: false,
            damping: 0.0,
        }
    }
}

impl RopeDesc {
    fn validate(&self) -> Result<()> {
        check_total_mass(self.total_mass)?;
        crate::limits::check_length("radius", self.radius, false)?;
        check_body_compliance("stretch", self.stretch_compliance)?;
        check_body_compliance("bend", self.bend_compliance)?;
        check_damping(self.damping)
    }
}

/// The particles of a straight rope from `desc.start` to `desc.end` in
/// `desc.segments` segments (checks `desc`).
pub(crate) fn straight_points(desc: &RopeDesc) -> Result<Vec<Vec3>> {
    desc.validate()?;
    let n = desc.segments as usize;
    if !(1..MAX_BODY_PARTICLES).contains(&n) {
        return Err(Error::invalid(format!(
            "segments {n} must be in 1..{MAX_BODY_PARTICLES}"
        )));
    }
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
    desc.validate()?;
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

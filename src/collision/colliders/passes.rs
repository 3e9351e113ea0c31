//! The particle–collider contacts of the colliders (`super::Colliders`).
//!
//! Per substep (h), after predict:
//!
//! * **detect** (parallel per particle): the particle's path over the substep runs from
//!   `x_prev = base − h u` to `x = base + d` (see `particles.rs` for u and d). When
//!   `x_prev` is outside a collider (inflated by the particle radius) and the segment
//!   enters it, the contact plane is the tangent plane at the entry point (continuous
//!   detection: a fast particle cannot pass through a thin box). Otherwise, when `x`
//!   lies within one radius of the surface (or inside), the plane is the one at the
//!   nearest surface point. When the collider moved in the substep, the path runs from
//!   the particle's start relative to the collider's previous transform to its end
//!   relative to the current one, and the plane stays on the side the particle started
//!   on: the face nearest the start when that is inside, else (a box whose sweep
//!   missed) a face the start is in front of whenever the nearest feature's plane
//!   would put the start behind it. A contact is the unilateral constraint
//!   `C(x) = n · x − offset ≥ 0` (offset relative to `base`, never absolute).
//!   A fluid particle is detected as if its radius were larger by half its fluid's
//!   smoothing radius (`Colliders::set_reach`; the contact keeps the true radius), since
//!   the density correction after the detection moves it: it cannot be pushed
//!   through a wall it was clear of when the substep started. The reach covers the
//!   smoothing radius h, within which the fluid reads the wall's density from these
//!   contacts (`Colliders::surfaces`, `fluid::walls`).
//! * **project** (each iteration): `Δn = max(−C, 0)`, `x += n Δn`; then Coulomb friction
//!   at position level (Macklin et al. 2014, "Unified particle physics", eq. 24–25):
//!   with `Δx_t` the tangential displacement over the substep relative to the surface,
//!   `x −= Δx_t` when `|Δx_t| < μs Δn` (stick), else
//!   `x −= Δx_t · min(μd Δn / |Δx_t|, 1)` (slide).
//! * **restitution** (after the velocity update): for a contact that moved the
//!   particle by `Δn` in the substep, the normal relative velocity becomes
//!   `max(−e v_n⁻, 0)` with `v_n⁻` the approach velocity before the substep's
//!   projection; approaches slower than `2 |g| h` do not bounce (Müller et al. 2020,
//!   "Detailed rigid body simulation with extended position based dynamics", section
//!   3.5), so resting contacts stay at rest. The pass removes at most the velocity the
//!   projection added (`Δn / h`): a particle whose normal velocity without the contact,
//!   `v_n − Δn / h`, is above that target separates on its own and keeps it (a particle
//!   pushed out of a collider it started inside keeps its own outward velocity, not the
//!   push). The contact's impulse over the substep is `m (Δn / h + Δv_n) ≥ 0`: a
//!   collider only pushes. Its friction impulse is `m Σ Δx_f / h`, with `Σ Δx_f` the
//!   friction corrections of the substep's iterations (each tangent to the contact
//!   plane): the velocity change they made. While a particle slides with no bounce
//!   (`Δv_n = 0`) its magnitude is `μd` times the normal impulse; while it sticks, at
//!   most `μs` times it. Its point is the particle's centre projected onto the contact
//!   plane at the end of the substep.
//!
//! A particle keeps at most [`MAX_COLLIDER_CONTACTS`] contacts per substep (the first
//! colliders in id-slot order). Collider motion over a step is interpolated from the
//! previous transform to the current one (linear / slerp) substep by substep, and its
//! surface velocity enters friction and restitution.

use super::{Collider, Colliders, ContactReport, MAX_COLLIDER_CONTACTS};
use crate::collision::shape::Shape;
use crate::error::{try_reserve, Result};
use crate::kernels::plane_cull;
use crate::math::{Vec3, Vec3A, Vec4};
use crate::particles::Particles;
use crate::solver::parallel::{Executor, Rows};

impl Collider {
    /// Whether the contact query of a bounded shape (sphere, capsule, box, mesh) for a
    /// particle of radius `r` moving from `v0` to `v1` (relative to the collider's
    /// position, world axes) surely finds nothing: a segment–ball distance.
    /// Conservative: the tolerance `tol` covers the rounding of the rotations of the full
    /// query, so that a particle it keeps gets exactly the same contact as without the
    /// cull.
    #[inline]
    fn culls(&self, v0: Vec3, v1: Vec3, r: f32) -> bool {
        // Rounding of a quaternion rotation of v: a few ulps of |v| ≤ |v|₁.
        let tol = 1.0e-5 * (v0.abs().element_sum() + v1.abs().element_sum()) + 1.0e-30;
        let seg = v1 - v0;
        let l2 = seg.length_squared();
        let t = if l2 > 0.0 {
            (-v0.dot(seg) / l2).clamp(0.0, 1.0)
        } else {
            0.0
        };
        // A hit lies within the shape inflated by r and the sweep's tolerance
        // (1e-4 (r + |seg|)), a near contact within r + max(r, 1e-4).
        let reach = self.bound + 2.0 * r + 1.0e-4 * (1.0 + r + l2.sqrt()) + tol;
        (v0 + seg * t).length_squared() > reach * reach
    }

    /// Whether no particle of a block whose paths lie in the world box `lo..hi` (radii
    /// included, `r` the largest radius, `seg` the longest path) can touch this bounded
    /// shape: the box is farther from the collider's ball than [`Self::culls`] reaches
    /// for any of them (its tolerance and the rounding of world coordinates covered).
    #[inline]
    fn culls_box(&self, lo: Vec3, hi: Vec3, r: f32, seg: f32) -> bool {
        let gap = (lo - self.pos).max(self.pos - hi).max(Vec3::ZERO);
        let m = self.pos.abs().element_sum() + lo.abs().max(hi.abs()).element_sum();
        // A moving collider sweeps its paths from its previous transform: a start
        // point's distance from the centre is its distance from the previous centre,
        // at most `|pos − prev_pos|` (≤ `motion`) more than from this one (rotations
        // keep it).
        let motion = self.motion * (1.0 + 1.0e-5);
        let seg = seg + motion;
        let reach = self.bound + 2.0 * r + 1.0e-4 * (1.0 + r + seg) + 3.0e-5 * m + motion + 1.0e-30;
        gap.length_squared() > reach * reach
    }

    /// The contact of a plane (world space: one signed distance, no rotation) with a
    /// particle of radius `r` (base `b`, velocity `u`, path `−h u → d` relative to `b`)
    /// that [`plane_cull::touches`] found: `n · x ≥ n · (pos − b) + r`. The surface
    /// point for the surface velocity is the path's entry into the inflated plane when
    /// it crosses it, else the end point, projected onto the plane.
    #[inline]
    #[allow(clippy::too_many_arguments)]
    fn plane_contact(&self, b: Vec3, u: Vec3, d: Vec3, r: f32, h: f32, inv_h: f32) -> Contact {
        let n = self.normal;
        let rel = self.pos - b;
        let v_pre = u + d * inv_h;
        // A plane at rest (both velocities +0, as begin_step leaves them) has no
        // surface motion: the sum below would give +0 for any finite point.
        let still = |v: Vec3| v.to_array().map(f32::to_bits) == [0; 3];
        let v_surface = if still(self.lin_vel) && still(self.ang_vel) {
            Vec3::ZERO
        } else {
            let q0 = -h * u - rel;
            let q1 = d - rel;
            let (d0, d1) = (n.dot(q0) - r, n.dot(q1) - r);
            let q = if d0 > 0.0 && d1 <= 0.0 {
                q0 + (q1 - q0) * (d0 / (d0 - d1))
            } else {
                q1
            };
            self.lin_vel + self.ang_vel.cross(q - n * n.dot(q))
        };
        self.contact(n, rel, r, v_surface, v_pre, h)
    }

    /// The contact of a bounded shape or a mesh (in its local frame, rotated there and
    /// back), culled first by [`Self::culls`]. `rd ≥ r` is the particle's detection
    /// radius (see [`Colliders::set_reach`]; `r` for every particle but a fluid's).
    #[inline]
    #[allow(clippy::too_many_arguments)]
    fn shape_contact(
        &self,
        b: Vec3,
        u: Vec3,
        d: Vec3,
        r: f32,
        rd: f32,
        h: f32,
        inv_h: f32,
    ) -> Option<Contact> {
        let x0 = -h * u; // relative to base
        let rel = self.pos - b;

        // The path in the collider's frame: from where the particle started relative to
        // where the collider started, to where it ends relative to where the collider
        // ends. A wall moving into a particle faster than the particle leaves sweeps
        // over it and finds the face it entered by, however deep the particle ends up
        // (the nearest face of the end point alone may be the far one of a thin wall).
        let (v0, l0) = if self.moved {
            let l0 = self.prev_inv_rot * (x0 - (self.prev_pos - b));
            (self.rot * l0, l0)
        } else {
            (x0 - rel, self.inv_rot * (x0 - rel))
        };
        if self.culls(v0, d - rel, rd) {
            return None;
        }
        let l1 = self.inv_rot * (d - rel);
        let (nl, surface_local) = match (&self.mesh, &self.sdf) {
            (Some(mesh), _) => mesh.contact(l0, l1, r, rd),
            (None, Some(sdf)) => convex_contact(&**sdf, l0, l1, r, rd, self.moved),
            (None, None) => convex_contact(&self.desc.shape, l0, l1, r, rd, self.moved),
        }?;
        let normal = self.rot * nl;
        // On the collider's surface; the particle centre stays r beyond it.
        let surface = rel + self.rot * surface_local;
        let v_surface = self.surface_velocity(surface + b);
        let v_pre = u + d * inv_h;
        Some(self.contact(normal, surface, r, v_surface, v_pre, h))
    }

    /// The contact with outward normal `normal` at the surface point `surface`
    /// (relative to the particle's base, m) for a particle of radius `r` (m), whose
    /// velocity before the projection is `v_pre` and the surface's `v_surface` (m/s),
    /// over a substep of `h` seconds.
    #[inline]
    fn contact(
        &self,
        normal: Vec3,
        surface: Vec3,
        r: f32,
        v_surface: Vec3,
        v_pre: Vec3,
        h: f32,
    ) -> Contact {
        Contact {
            normal,
            offset: normal.dot(surface) + r,
            surface_disp: v_surface * h,
            vn_pre: normal.dot(v_pre - v_surface),
            dn_total: 0.0,
            friction_disp: Vec3::ZERO,
            slot: 0,
            static_friction: self.desc.static_friction,
            dynamic_friction: self.desc.dynamic_friction,
            dynamic: false,
        }
    }

    /// Velocity of the collider's material at world point `p` (m/s).
    #[inline]
    fn surface_velocity(&self, p: Vec3) -> Vec3 {
        self.lin_vel + self.ang_vel.cross(p - self.pos)
    }
}

/// The geometric queries [`convex_contact`] asks of a shape: those of a convex
/// [`Shape`], and of a signed distance field (`sdf.rs`), which has no box faces.
trait Field {
    fn distance(&self, p: Vec3, r: f32) -> (f32, Vec3);
    fn sweep(&self, p0: Vec3, p1: Vec3, r: f32) -> Option<(f32, Vec3)>;
    fn face_toward(&self, from: Vec3, p: Vec3, r: f32) -> Option<(f32, Vec3)>;
}

impl Field for Shape {
    #[inline]
    fn distance(&self, p: Vec3, r: f32) -> (f32, Vec3) {
        Shape::distance(self, p, r)
    }
    #[inline]
    fn sweep(&self, p0: Vec3, p1: Vec3, r: f32) -> Option<(f32, Vec3)> {
        Shape::sweep(self, p0, p1, r)
    }
    #[inline]
    fn face_toward(&self, from: Vec3, p: Vec3, r: f32) -> Option<(f32, Vec3)> {
        Shape::face_toward(self, from, p, r)
    }
}

impl Field for super::sdf::SdfField {
    #[inline]
    fn distance(&self, p: Vec3, r: f32) -> (f32, Vec3) {
        super::sdf::SdfField::distance(self, p, r)
    }
    #[inline]
    fn sweep(&self, p0: Vec3, p1: Vec3, r: f32) -> Option<(f32, Vec3)> {
        super::sdf::SdfField::sweep(self, p0, p1, r)
    }
    #[inline]
    fn face_toward(&self, _: Vec3, _: Vec3, _: f32) -> Option<(f32, Vec3)> {
        None
    }
}

/// The contact plane (outward normal, a point on it; local frame) of a particle of
/// radius `r` moving `l0 → l1` against a convex shape or a distance field: the entry
/// point of the path when it starts outside and enters, else the nearest surface
/// point when `l1` is within `r` of the surface (or inside); a particle with a detection radius `rd > r`
/// (a fluid's) is near within `rd + max(rd, 1e-4)` of the shape. When the shape
/// `moved` this substep and the path starts inside it, the plane is the face nearest
/// the start: the particle came in by it, while the end point, carried deeper by the
/// wall's motion, may lie nearer the far face of a thin shape. When a moved box's path
/// starts outside, misses the sweep and the start lies behind the plane of the end
/// point's nearest feature, the plane is the face the start is in front of
/// ([`Shape::face_toward`]).
fn convex_contact<S: Field>(
    shape: &S,
    l0: Vec3,
    l1: Vec3,
    r: f32,
    rd: f32,
    moved: bool,
) -> Option<(Vec3, Vec3)> {
    let (d0, n0) = shape.distance(l0, r);
    if d0 > 0.0 {
        if let Some((t, nl)) = shape.sweep(l0, l1, r) {
            let hit = l0 + (l1 - l0) * t;
            // The plane through the inflated surface at the hit: n·x ≥ n·hit.
            return Some((nl, hit - nl * r));
        }
    } else if moved {
        return Some((n0, l0 - n0 * (d0 + r)));
    }
    let (d1, nl) = shape.distance(l1, r);
    if d1 < (rd - r) + rd.max(1.0e-4) {
        let surface = l1 - nl * (d1 + r);
        // A moving shape's contact keeps the particle on a side it started on: when
        // the start lies behind the plane of the end point's nearest feature (a
        // particle that passed a box's corner, or ended inside it, within the
        // substep), the plane is the box face the start was in front of. (The
        // nearest feature may be hidden inside another collider, as a wall's top
        // face is inside the lid resting on it, and pushed the particle through it.)
        if moved && d0 > 0.0 && nl.dot(l0 - surface) < r {
            if let Some((d, n)) = shape.face_toward(l0, l1, r) {
                return Some((n, l1 - n * (d + r)));
            }
        }
        return Some((nl, surface));
    }
    None
}

/// A contact of one particle in the current substep.
#[derive(Clone, Copy, Debug, Default)]
pub(crate) struct Contact {
    /// Outward unit normal (world).
    pub(super) normal: Vec3,
    /// `n · (x − base) ≥ offset` (m).
    pub(super) offset: f32,
    /// Collider surface displacement over the substep at the contact (m).
    surface_disp: Vec3,
    /// Approach velocity along the normal before the projection (m/s).
    pub(super) vn_pre: f32,
    /// Normal correction applied so far in this substep (m).
    pub(super) dn_total: f32,
    /// Friction correction applied so far in this substep (m, tangent to the contact
    /// plane of each iteration): the contact's friction impulse over the substep is
    /// `m · friction_disp / h`.
    pub(super) friction_disp: Vec3,
    /// The collider's slot in `Colliders::slots`.
    pub(super) slot: u32,
    /// The collider's friction coefficients (dimensionless; copied so that the
    /// projection reads the contact alone).
    pub(super) static_friction: f32,
    pub(super) dynamic_friction: f32,
    /// Whether the collider is dynamic (`dynamics.rs`); then the contact's
    /// [`DynamicPart`] (same index in `Colliders::dynamic_parts`) holds the rest.
    pub(super) dynamic: bool,
}

/// The part of a contact that only a dynamic collider uses, kept apart from
/// [`Contact`] so that the passes over the contacts of static colliders read and write
/// 64-byte records.
#[derive(Clone, Copy, Debug, Default)]
pub(crate) struct DynamicPart {
    /// The contact point from the proxy's centre of mass (m).
    pub(super) arm: Vec3,
    /// The collider's contact count times its generalized inverse mass along the
    /// normal (1/kg; 0 for a pinned particle).
    pub(super) w_n: f32,
    /// The position impulse (kg·m) the particle took in this iteration, which the
    /// proxy takes with the opposite sign after the pass (in the restitution pass: the
    /// velocity impulse).
    pub(super) pending: Vec3,
    /// Whether the velocity pass holds the contact's impulse at its bound
    /// (`velocity.rs`).
    pub(super) held: bool,
}

impl Contact {
    /// The relative normal velocity (m/s) the restitution pass gives a contact of a
    /// collider of restitution `restitution`: `max(−e v_n⁻, 0)`, with e = 0 for an
    /// approach slower than `threshold` (m/s).
    #[inline]
    pub(super) fn target(&self, restitution: f32, threshold: f32) -> f32 {
        let e = if -self.vn_pre > threshold {
            restitution
        } else {
            0.0
        };
        (-e * self.vn_pre).max(0.0)
    }
}

/// A contact accumulated over the step, for the readback.
#[derive(Clone, Copy, Debug, Default)]
pub(super) struct StepContact {
    normal: Vec3,
    /// Normal impulse (N·s, >= 0) and friction impulse (N·s) summed over the step.
    impulse: f32,
    friction: Vec3,
    /// The contact point (world, m) of the step's last substep with this contact.
    point: Vec3,
    slot: u32,
}

impl Colliders {
    /// Grows the contact buffers to `n` particles (allocates only when the particle
    /// count grew since the last step) and clears the step's contacts.
    pub(crate) fn begin_step(&mut self, n: usize, dt: f32, gravity: Vec3) -> Result<()> {
        self.reports.clear();
        self.step_dt = dt;
        self.gravity = gravity;
        if self.slots.is_empty() {
            return Ok(());
        }
        let k = n * MAX_COLLIDER_CONTACTS;
        if self.contacts.len() < k {
            let grow = k - self.contacts.len();
            try_reserve(&mut self.contacts, grow, "contacts")?;
            try_reserve(&mut self.dynamic_parts, grow, "contacts")?;
            try_reserve(&mut self.step_contacts, k, "contacts")?;
            try_reserve(&mut self.reports, k, "contact reports")?;
            try_reserve(&mut self.contact_count, n, "contacts")?;
            try_reserve(&mut self.contact_start, n, "contacts")?;
            try_reserve(&mut self.step_count, n, "contacts")?;
            self.contacts.resize(k, Contact::default());
            self.dynamic_parts.resize(k, DynamicPart::default());
            self.step_contacts.resize(k, StepContact::default());
            self.contact_count.resize(n, 0);
            self.contact_start.resize(n, 0);
            self.step_count.resize(n, 0);
        }
        self.step_count[..n].fill(0);
        let inv_dt = 1.0 / dt;
        self.any_dynamic = false;
        for c in self.slots.iter_mut() {
            if let Some(p) = c.proxy.as_mut() {
                // A dynamic collider starts where the host put it, with the proxy's
                // velocities (the host's, when it set them since the last step).
                c.prev_position = c.desc.position;
                c.prev_rotation = c.desc.rotation;
                c.pos = c.desc.position;
                c.rot = c.desc.rotation;
                p.begin_step(c.pos, c.rot);
                (c.lin_vel, c.ang_vel) = p.surface(c.pos);
                self.any_dynamic = true;
                continue;
            }
            c.lin_vel = (c.desc.position - c.prev_position) * inv_dt;
            let dq = c.desc.rotation * c.prev_rotation.inverse();
            let (axis, mut angle) = dq.to_axis_angle();
            if angle > std::f32::consts::PI {
                angle -= 2.0 * std::f32::consts::PI;
            }
            c.ang_vel = if angle.is_finite() && angle != 0.0 {
                axis * (angle * inv_dt)
            } else {
                Vec3::ZERO
            };
        }
        Ok(())
    }

    /// Widens the contact detection of the particles of `ranges` (a fluid's, with the
    /// margin each) for this step: a particle of radius r and margin m is detected as
    /// a particle of radius `r + m` would be (a plane within `2 (r + m)`, a shape within
    /// `r + m` of the inflated surface), while its contact keeps the radius r. A fluid
    /// particle away from a wall when the substep starts can be pushed towards it by the
    /// density correction of the iterations after the detection; with the margin it
    /// already holds the contact, which the projection after every iteration enforces
    /// (and which does nothing while the particle stays clear). Other particles keep
    /// their radius: their contacts do not change. Allocates only when the particle
    /// count grew.
    pub(crate) fn set_reach(
        &mut self,
        radius: &[f32],
        ranges: impl Iterator<Item = (std::ops::Range<usize>, f32)>,
    ) -> Result<()> {
        self.widened = false;
        if self.slots.is_empty() {
            return Ok(());
        }
        for (range, margin) in ranges {
            if range.is_empty() || margin <= 0.0 {
                continue;
            }
            if !self.widened {
                let n = radius.len();
                let len = self.reach.len();
                if len < n {
                    try_reserve(&mut self.reach, n - len, "contacts")?;
                }
                self.reach.clear();
                self.reach.extend_from_slice(radius);
                self.widened = true;
            }
            for r in &mut self.reach[range] {
                *r += margin;
            }
        }
        Ok(())
    }

    /// Places the colliders at substep `s` of `substeps` and finds the contacts of
    /// every particle (path from `base − h u` to `base + d`).
    pub(crate) fn detect(
        &mut self,
        particles: &Particles,
        radius: &[f32],
        s: u32,
        substeps: u32,
        h: f32,
        exec: &Executor,
    ) {
        self.moving = false;
        if self.slots.is_empty() {
            return;
        }
        self.reset_pins();
        let alpha = (s + 1) as f32 / substeps as f32;
        let alpha0 = s as f32 / substeps as f32;
        let gravity = self.gravity;
        for (slot, c) in self.slots.items_mut().iter_mut().enumerate() {
            let Some(c) = c else { continue };
            let rot0 = if let Some(p) = c.proxy.as_mut() {
                // A dynamic collider's proxy predicts its own pose from where the last
                // substep left it (`dynamics.rs`).
                let rot0 = c.rot;
                c.prev_pos = c.pos;
                c.prev_inv_rot = rot0.inverse();
                (c.pos, c.rot) = p.predict(rot0, h, gravity);
                (c.lin_vel, c.ang_vel) = p.surface(c.pos);
                c.inv_rot = c.rot.inverse();
                rot0
            } else {
                c.pos = c.prev_position.lerp(c.desc.position, alpha);
                c.rot = c.prev_rotation.slerp(c.desc.rotation, alpha).normalize();
                c.inv_rot = c.rot.inverse();
                // Where the substep started (the same expressions the previous substep
                // evaluated, so a collider at rest has identical bits and `moved`
                // false).
                c.prev_pos = c.prev_position.lerp(c.desc.position, alpha0);
                let rot0 = c.prev_rotation.slerp(c.desc.rotation, alpha0).normalize();
                c.prev_inv_rot = rot0.inverse();
                rot0
            };
            c.moved = c.prev_pos != c.pos || rot0 != c.rot;
            c.motion = if c.moved {
                let angle = 2.0 * rot0.dot(c.rot).abs().min(1.0).acos();
                let turn = if c.bound.is_finite() {
                    c.bound * angle
                } else {
                    0.0
                };
                (c.pos - c.prev_pos).length() + turn
            } else {
                0.0
            };
            self.moving |= c.moved;
            c.normal = c.rot * Vec3::Y;
            if c.desc.shape == Shape::Plane {
                self.plane_params[slot / 32][slot % 32] = (c.pos, c.normal);
            }
        }
        let n = particles.len();
        let slots = self.slots.items();
        // Each range owns its particles' counts and starts and their region of the
        // contact buffer (MAX_COLLIDER_CONTACTS rows per particle).
        let parts = (
            Rows::with_width(
                &mut self.contacts[..n * MAX_COLLIDER_CONTACTS],
                MAX_COLLIDER_CONTACTS,
            ),
            Rows::new(&mut self.contact_count[..n]),
            Rows::new(&mut self.contact_start[..n]),
        );
        let (hot, base, vel) = (&particles.hot, &particles.base, &particles.velocity);
        let (plane_bits, shape_bits) = (&self.plane_bits, &self.shape_bits);
        let plane_params = &self.plane_params;
        // The detection radii: the radii themselves unless a fluid widened some.
        let reach: &[f32] = if self.widened { &self.reach } else { radius };
        let inv_h = 1.0 / h;
        let kernel = self.cull_kernel;
        let paths = Paths {
            base,
            hot,
            vel,
            radius: reach,
            h,
        };
        let bounded: u32 = shape_bits.iter().map(|b| b.count_ones()).sum();
        let region_cull = bounded > REGION_CULL_SHAPES;
        exec.for_chunk_parts(parts, REGION, |range, (contacts, count, start)| {
            debug_assert_eq!(range.start % REGION, 0, "ranges are chunk-aligned");
            // The range's region of the contact buffer starts at `origin`.
            let origin = range.start * MAX_COLLIDER_CONTACTS;
            // Blocks of eight particles; per group of 32 slots, a mask per slot of the
            // block's particles that may touch it (planes: exactly those that do). The
            // block's contacts are staged per particle, then stored densely.
            // Set up once per range: a block reads only the entries it wrote.
            let mut stage = [[Contact::default(); MAX_COLLIDER_CONTACTS]; 8];
            let mut cursor = 0;
            let mut first = range.start;
            // The region's groups after its cull (`region_groups`); None: every group.
            let mut live = [(0u32, 0u32, 0u32); REGION_GROUPS];
            let mut kept = None;
            while first < range.end {
                if first % REGION == 0 {
                    cursor = first * MAX_COLLIDER_CONTACTS;
                    kept = None;
                    if region_cull {
                        let len = (range.end - first).min(REGION);
                        let region = PathBox::of(&paths, first, len);
                        kept = region_groups(slots, plane_bits, shape_bits, &region, &mut live);
                    }
                }
                let len = (range.end - first).min(8);
                let mut found = [0u8; 8];
                let groups = match kept {
                    Some(n) => Groups::Kept(live[..n].iter()),
                    None => Groups::All(plane_bits.iter().zip(shape_bits).enumerate()),
                };
                for (g, planes, shapes) in groups {
                    if planes | shapes == 0 {
                        continue;
                    }
                    let mut masks = [0u8; 32];
                    let mut any = plane_cull::masks(
                        kernel,
                        &plane_params[g],
                        planes,
                        base,
                        hot,
                        reach,
                        first,
                        len,
                        &mut masks,
                    );
                    if shapes != 0 {
                        any |= shape_masks(slots, g, shapes, &paths, first, len, &mut masks);
                    }
                    let group = planes | shapes;
                    while any != 0 {
                        let l = any.trailing_zeros() as usize;
                        any &= any - 1;
                        let i = first + l;
                        let p = hot[i];
                        if p.w == 0.0 {
                            continue;
                        }
                        let (b, u, d) = (Vec3::from(base[i]), vel[i], p.truncate());
                        let r = radius[i];
                        let mut bits = group;
                        while bits != 0 && (found[l] as usize) < MAX_COLLIDER_CONTACTS {
                            let k = bits.trailing_zeros() as usize;
                            bits &= bits - 1;
                            if (masks[k] >> l) & 1 == 0 {
                                continue;
                            }
                            let slot = 32 * g + k;
                            let c = slots[slot].as_ref().expect("a masked slot is live");
                            let contact = if (planes >> k) & 1 != 0 {
                                c.plane_contact(b, u, d, r, h, inv_h)
                            } else {
                                match c.shape_contact(b, u, d, r, reach[i], h, inv_h) {
                                    Some(contact) => contact,
                                    None => continue,
                                }
                            };
                            stage[l][found[l] as usize] = Contact {
                                slot: slot as u32,
                                ..contact
                            };
                            found[l] += 1;
                        }
                    }
                }
                for l in 0..len {
                    let local = first + l - range.start;
                    start[local] = cursor as u32;
                    for &contact in &stage[l][..found[l] as usize] {
                        contacts[cursor - origin] = contact;
                        cursor += 1;
                    }
                    count[local] = found[l];
                }
                first += len;
            }
        });
        if self.any_dynamic {
            self.prepare_dynamic_contacts(particles);
        }
    }

    /// Whether a collider moved in the current substep (after [`Self::detect`]).
    pub(crate) fn moving(&self) -> bool {
        self.moving
    }

    /// The contacts of particle `i` in the current substep (after [`Self::detect`]),
    /// each as its surface's outward unit normal n and the contact's offset
    /// `n · (surface − base_i) + r_i` (m, `r_i` the particle's radius): the particle's
    /// centre x is `n · (x − base_i) − offset + r_i` from the surface.
    pub(crate) fn surfaces(&self, i: usize) -> impl Iterator<Item = (Vec3, f32)> + '_ {
        let (at, k) = match self.contact_count.get(i) {
            Some(&k) if !self.slots.is_empty() && k > 0 => {
                (self.contact_start[i] as usize, k as usize)
            }
            _ => (0, 0),
        };
        self.contacts[at..at + k]
            .iter()
            .map(|c| (c.normal, c.offset))
    }

    /// One projection of every contact, with position-level Coulomb friction.
    pub(crate) fn project(&mut self, particles: &mut Particles, h: f32, exec: &Executor) {
        if self.slots.is_empty() {
            return;
        }
        let n = particles.len();
        let count = &self.contact_count;
        let vel = &particles.velocity;
        let slots = self.slots.items();
        // Each range owns its particles and their region of the contact buffer.
        let parts = (
            Rows::with_width(
                &mut self.contacts[..n * MAX_COLLIDER_CONTACTS],
                MAX_COLLIDER_CONTACTS,
            ),
            Rows::new(&mut particles.hot[..n]),
            Rows::with_width(
                &mut self.dynamic_parts[..n * MAX_COLLIDER_CONTACTS],
                MAX_COLLIDER_CONTACTS,
            ),
        );
        exec.for_chunk_parts(parts, REGION, |range, (contacts, hot, dynamic_parts)| {
            let (first, origin) = (range.start, range.start * MAX_COLLIDER_CONTACTS);
            for_touching(count, range, |i, k, at| {
                let mut p = hot[i - first];
                let mut d = p.truncate();
                let u = vel[i];
                let at = at - origin;
                for (j, ct) in contacts[at..at + k].iter_mut().enumerate() {
                    if ct.dynamic {
                        let proxy = slots[ct.slot as usize]
                            .as_ref()
                            .and_then(|c| c.proxy.as_deref())
                            .expect("a dynamic contact's collider is dynamic");
                        let dp = &mut dynamic_parts[at + j];
                        d = project_dynamic(ct, dp, proxy, d, u, p.w, h);
                        continue;
                    }
                    let violation = ct.normal.dot(d) - ct.offset;
                    if violation >= 0.0 {
                        continue;
                    }
                    let dn = -violation;
                    d += ct.normal * dn;
                    ct.dn_total += dn;
                    if ct.static_friction != 0.0 || ct.dynamic_friction != 0.0 {
                        let disp = d + u * h - ct.surface_disp;
                        let dt = disp - ct.normal * ct.normal.dot(disp);
                        let l = dt.length();
                        if l < ct.static_friction * dn {
                            d -= dt;
                            ct.friction_disp -= dt;
                        } else if l > 0.0 {
                            let slip = dt * (ct.dynamic_friction * dn / l).min(1.0);
                            d -= slip;
                            ct.friction_disp -= slip;
                        }
                    }
                }
                p = d.extend(p.w);
                hot[i - first] = p;
            });
        });
        if self.any_dynamic {
            self.exchange(n, h);
        }
        if !self.pins.is_empty() {
            self.project_pins(particles, h);
        }
    }

    /// Restitution after the velocity update, and the step's impulse bookkeeping.
    pub(crate) fn restitute(
        &mut self,
        particles: &mut Particles,
        h: f32,
        gravity: Vec3,
        exec: &Executor,
    ) {
        if self.slots.is_empty() {
            return;
        }
        let n = particles.len();
        let inv_h = 1.0 / h;
        let threshold = 2.0 * gravity.length() * h;
        if self.any_dynamic {
            // The proxies' velocities after the position solve, which the velocity
            // pass of their contacts is measured against.
            for c in self.slots.iter_mut() {
                if let Some(p) = c.proxy.as_mut() {
                    (c.pos, c.rot) = p.finish_substep(c.rot, inv_h);
                    c.inv_rot = c.rot.inverse();
                    (c.lin_vel, c.ang_vel) = p.surface(c.pos);
                }
            }
            self.solve_impacts(particles, inv_h, threshold);
        }
        let slots = self.slots.items();
        let count = &self.contact_count;
        let (hot, base, radius) = (&particles.hot, &particles.base, &particles.radius);
        // Each range owns its particles' velocities, contacts and step records.
        let parts = (
            Rows::new(&mut particles.velocity[..n]),
            Rows::with_width(
                &mut self.contacts[..n * MAX_COLLIDER_CONTACTS],
                MAX_COLLIDER_CONTACTS,
            ),
            Rows::with_width(
                &mut self.step_contacts[..n * MAX_COLLIDER_CONTACTS],
                MAX_COLLIDER_CONTACTS,
            ),
            (
                Rows::new(&mut self.step_count[..n]),
                Rows::with_width(
                    &mut self.dynamic_parts[..n * MAX_COLLIDER_CONTACTS],
                    MAX_COLLIDER_CONTACTS,
                ),
            ),
        );
        exec.for_chunk_parts(
            parts,
            REGION,
            |range, (vel, contacts, step_contacts, (step_count, dynamic_parts))| {
                let (first, origin) = (range.start, range.start * MAX_COLLIDER_CONTACTS);
                for_touching(count, range, |i, k, at| {
                    let w = hot[i].w;
                    let mass = 1.0 / w;
                    let mut v = vel[i - first];
                    // The velocity the dynamic contacts' solve read.
                    let v_solved = v;
                    let mut sc = step_count[i - first] as usize;
                    let at = at - origin;
                    for (j, ct) in contacts[at..at + k].iter_mut().enumerate() {
                        if ct.dn_total <= 0.0 {
                            continue;
                        }
                        let desc = &slots[ct.slot as usize].as_ref().expect("live").desc;
                        let target = ct.target(desc.restitution, threshold);
                        // The projection added `added` to the normal velocity; the pass
                        // takes back at most that much, so a particle that separates on
                        // its own (rising out of a collider it started inside) keeps its
                        // own outward velocity, and the contact's velocity change
                        // `added + dv` (hence its impulse) is never negative: rounding is
                        // monotone and `added + (−added)` is exactly 0.
                        let added = ct.dn_total * inv_h;
                        let dv = if !ct.dynamic {
                            let vn = ct.normal.dot(v - ct.surface_disp * inv_h);
                            (target - vn).max(-added)
                        } else {
                            // Solved with the body's other contacts (`velocity.rs`); the
                            // proxy's share waits in `pending` for `exchange_bounces`.
                            let proxy = slots[ct.slot as usize]
                                .as_ref()
                                .and_then(|c| c.proxy.as_deref())
                                .expect("a dynamic contact's collider is dynamic");
                            let dp = &mut dynamic_parts[at + j];
                            let (dv, slip) = super::velocity::settle(
                                ct, dp, proxy, v_solved, target, w, added, inv_h,
                            );
                            v += slip;
                            dv
                        };
                        v += ct.normal * dv;
                        let impulse = mass * (added + dv);
                        // The friction correction moved the particle by `friction_disp`
                        // over the substep: a velocity change of `friction_disp / h`
                        // (restitution acts along the normal only).
                        let friction = ct.friction_disp * (mass * inv_h);
                        // The particle's centre projected onto the contact plane
                        // `n · (y − base) = offset − r`.
                        let d = hot[i].truncate();
                        let depth = ct.normal.dot(d) - ct.offset + radius[i];
                        let point = Vec3::from(base[i]) + (d - ct.normal * depth);
                        // Merge into the step's record of this collider.
                        let row = (i - first) * MAX_COLLIDER_CONTACTS;
                        let record = &mut step_contacts[row..row + MAX_COLLIDER_CONTACTS];
                        let mut merged = false;
                        for s in &mut record[..sc] {
                            if s.slot == ct.slot {
                                s.impulse += impulse;
                                s.friction += friction;
                                s.normal = ct.normal;
                                s.point = point;
                                merged = true;
                                break;
                            }
                        }
                        if !merged && sc < MAX_COLLIDER_CONTACTS {
                            let s = StepContact {
                                normal: ct.normal,
                                impulse,
                                friction,
                                point,
                                slot: ct.slot,
                            };
                            record[sc] = s;
                            sc += 1;
                        }
                    }
                    vel[i - first] = v;
                    step_count[i - first] = sc as u8;
                });
            },
        );
        if self.any_dynamic {
            self.exchange_bounces(n);
        }
    }

    /// Collects the step's contacts into the readback buffer (particle order; those of
    /// colliders with `report_contacts` off left out), sums each collider's reported
    /// impulses ([`Colliders::sum_reports`]) and makes the current transforms the
    /// starting point of the next step. A contact outside the readback's documented
    /// ranges (an impulse or a normal that overflowed: a particle flung past the
    /// coordinate limit in this step, which the recovery pass then puts back where it
    /// was) is not reported: every report passes [`super::valid_report`], the snapshot
    /// loader's check.
    pub(crate) fn end_step(&mut self, n: usize) {
        if self.slots.is_empty() {
            return;
        }
        let slots = self.slots.slot_count();
        for i in 0..n {
            for j in 0..self.step_count[i] as usize {
                let s = self.step_contacts[i * MAX_COLLIDER_CONTACTS + j];
                let slot = &self.slots.items()[s.slot as usize];
                if !slot.as_ref().is_some_and(|c| c.desc.report_contacts) {
                    continue; // a collider whose contacts are not reported
                }
                let report = ContactReport {
                    particle: i as u32,
                    collider: self.id_of(s.slot as usize),
                    normal: s.normal,
                    impulse: s.impulse,
                    friction: s.friction,
                    point: s.point,
                };
                if super::valid_report(&report, self.reports.last(), n, slots) {
                    // Capacity reserved in begin_step: no allocation.
                    self.reports.push(report);
                }
            }
        }
        for c in self.slots.iter_mut() {
            if let Some(p) = c.proxy.as_mut() {
                let lost = !(c.pos.is_finite()
                    && c.rot.is_finite()
                    && p.com.is_finite()
                    && p.v.is_finite()
                    && p.w.is_finite()
                    && c.pos.abs().max_element() <= crate::limits::MAX_COORDINATE);
                if lost {
                    // Flung past the coordinate limit (a light proxy under heavy pushes):
                    // it stays at the step's start pose and stops, as the recovery pass
                    // does for particles; the host reads no motion from it.
                    c.pos = c.desc.position;
                    c.rot = c.desc.rotation;
                    p.v = Vec3::ZERO;
                    p.w = Vec3::ZERO;
                    p.begin_step(c.pos, c.rot);
                    // What derives from the pose and velocities, as the substep's
                    // predict derives it: the lost ones may be NaN (and a snapshot
                    // would carry them).
                    c.inv_rot = c.rot.inverse();
                    (c.lin_vel, c.ang_vel) = p.surface(c.pos);
                }
                // The proxy's pose: where the collider stays until the host moves it.
                c.desc.position = c.pos;
                c.desc.rotation = c.rot;
            }
        }
        self.sum_reports();
        for c in self.slots.iter_mut() {
            c.prev_position = c.desc.position;
            c.prev_rotation = c.desc.rotation;
        }
    }
}

/// One projection of a contact with a dynamic collider (`dynamics.rs`) for a particle
/// of inverse mass `w` whose displacement over the substep is `d` (relative to its
/// base) and whose velocity term is `u`: the normal constraint against the proxy's pose
/// so far, `λ = −C / (w + N w_c)`, then Coulomb friction along the relative tangential
/// displacement `Δx_t`, `λ_t = |Δx_t| / (w + N w_t)`, capped by `μd λ` unless it sticks
/// (`λ_t < μs λ`). The particle moves by `w λ`; the contact keeps the opposite impulse
/// for the proxy (`pending`). Returns the new `d`.
#[inline]
fn project_dynamic(
    ct: &mut Contact,
    dp: &mut DynamicPart,
    proxy: &super::dynamics::Proxy,
    mut d: Vec3,
    u: Vec3,
    w: f32,
    h: f32,
) -> Vec3 {
    let moved = proxy.displacement_at(dp.arm);
    let violation = ct.normal.dot(d) - ct.offset - ct.normal.dot(moved);
    if violation >= 0.0 || w == 0.0 {
        return d;
    }
    let lambda = -violation / (w + dp.w_n);
    let dn = w * lambda;
    d += ct.normal * dn;
    ct.dn_total += dn;
    dp.pending += ct.normal * lambda;
    if ct.static_friction != 0.0 || ct.dynamic_friction != 0.0 {
        let disp = d + u * h - ct.surface_disp - moved;
        let dt = disp - ct.normal * ct.normal.dot(disp);
        let l = dt.length();
        if l > 0.0 {
            let t = dt / l;
            // The same contact count as the normal's (`w_n = N w_c`).
            let w_t = proxy.count as f32 * proxy.inverse_mass_at(dp.arm, t);
            let lt = l / (w + w_t);
            let lt = if lt < ct.static_friction * lambda {
                lt
            } else {
                lt.min(ct.dynamic_friction * lambda)
            };
            let slip = t * (w * lt);
            d -= slip;
            ct.friction_disp -= slip;
            dp.pending -= t * lt;
        }
    }
    d
}

/// The world box around the paths of particles `first..first + len` over the
/// substep (radii included), their largest radius and longest path: what
/// [`Collider::culls_box`] tests. The box of a sub-range lies inside the box of its
/// range and its radius and path are no larger, with the same rounding (the same
/// expressions over fewer particles), so a shape culled for a range is culled for
/// every block of it.
struct PathBox {
    /// Corners of the box (m, world).
    lo: Vec3,
    hi: Vec3,
    /// Largest detection radius (m) and longest path over the substep (m).
    r_max: f32,
    seg_max: f32,
}

/// The particle arrays detection reads for the paths over a substep of `h` seconds
/// (the radii: the detection radii).
#[derive(Clone, Copy)]
struct Paths<'a> {
    /// Base positions (m) and hot records (displacement, m; inverse mass, 1/kg).
    base: &'a [Vec3A],
    hot: &'a [Vec4],
    /// Velocities (m/s) and detection radii (m).
    vel: &'a [Vec3],
    radius: &'a [f32],
    /// Substep (s).
    h: f32,
}

impl PathBox {
    #[inline(always)]
    fn of(paths: &Paths<'_>, first: usize, len: usize) -> Self {
        let Paths {
            base,
            hot,
            vel,
            radius,
            h,
        } = *paths;
        let (mut lo, mut hi) = (Vec3::INFINITY, Vec3::NEG_INFINITY);
        let (mut r_max, mut seg_max) = (0.0f32, 0.0f32);
        for i in first..first + len {
            let b = Vec3::from(base[i]);
            let (x0, x1) = (b - h * vel[i], b + hot[i].truncate());
            let r = radius[i];
            lo = lo.min(x0.min(x1) - Vec3::splat(r));
            hi = hi.max(x0.max(x1) + Vec3::splat(r));
            r_max = r_max.max(r);
            seg_max = seg_max.max((x1 - x0).length());
        }
        PathBox {
            lo,
            hi,
            r_max,
            seg_max,
        }
    }

    /// Whether the box holds no NaN or infinity (a NaN anywhere keeps every
    /// particle: the exact query decides).
    fn boxed(&self) -> bool {
        self.lo.is_finite() && self.hi.is_finite() && self.seg_max.is_finite()
    }

    /// [`Collider::culls_box`] for this box.
    fn culls(&self, c: &Collider) -> bool {
        self.boxed() && c.culls_box(self.lo, self.hi, self.r_max, self.seg_max)
    }
}

/// The masks of the bounded shapes and meshes of group `g` (bits `shapes`) for the
/// block of `len` particles at `first`: all of them, unless the box around the block's
/// paths is out of the shape's reach ([`Collider::culls_box`]). Returns their union.
fn shape_masks(
    slots: &[Option<Collider>],
    g: usize,
    shapes: u32,
    paths: &Paths<'_>,
    first: usize,
    len: usize,
    masks: &mut [u8; 32],
) -> u32 {
    let block = PathBox::of(paths, first, len);
    let all = (1u32 << len) - 1;
    let mut any = 0;
    let mut bits = shapes;
    while bits != 0 {
        let k = bits.trailing_zeros() as usize;
        bits &= bits - 1;
        let c = slots[32 * g + k].as_ref().expect("a shape slot is live");
        let m = if block.culls(c) { 0 } else { all };
        masks[k] = m as u8;
        any |= m;
    }
    any
}

/// The groups a block of detection visits: those its region kept
/// ([`region_groups`]) or every group; `(g, planes, shapes)`.
enum Groups<'a> {
    Kept(std::slice::Iter<'a, (u32, u32, u32)>),
    All(std::iter::Enumerate<std::iter::Zip<std::slice::Iter<'a, u32>, std::slice::Iter<'a, u32>>>),
}

impl Iterator for Groups<'_> {
    type Item = (usize, u32, u32);

    #[inline(always)]
    fn next(&mut self) -> Option<Self::Item> {
        match self {
            Groups::Kept(it) => it.next().map(|&(g, p, s)| (g as usize, p, s)),
            Groups::All(it) => it.next().map(|(g, (&p, &s))| (g, p, s)),
        }
    }
}

/// Bounded shapes above which detection first culls them per region of [`REGION`]
/// particles (below, the blocks' own culling is cheaper than the regions' boxes).
const REGION_CULL_SHAPES: u32 = 8;

/// Groups (of 32 collider slots) a region keeps after its cull, at most: a region
/// near more keeps every group (the blocks cull them as without the region's cull).
const REGION_GROUPS: usize = 32;

/// The groups whose planes, or bounded shapes not culled by the box of particles
/// `first..first + len` ([`PathBox`]), may touch those particles: `(g, planes,
/// shapes)` in group order into `live`, their number returned; None (every group,
/// with all its shapes) when the box is not finite or more than [`REGION_GROUPS`]
/// groups remain. Every shape it drops is one each block of the region drops too,
/// so detection finds the same contacts in the same order.
fn region_groups(
    slots: &[Option<Collider>],
    plane_bits: &[u32],
    shape_bits: &[u32],
    region: &PathBox,
    live: &mut [(u32, u32, u32); REGION_GROUPS],
) -> Option<usize> {
    if !region.boxed() {
        return None;
    }
    let mut n = 0;
    for (g, (&planes, &shapes)) in plane_bits.iter().zip(shape_bits).enumerate() {
        let mut kept = 0u32;
        let mut bits = shapes;
        while bits != 0 {
            let k = bits.trailing_zeros();
            bits &= bits - 1;
            let c = slots[32 * g + k as usize]
                .as_ref()
                .expect("a shape slot is live");
            if !region.culls(c) {
                kept |= 1 << k;
            }
        }
        if planes | kept != 0 {
            if n == REGION_GROUPS {
                return None;
            }
            live[n] = (g as u32, planes, kept);
            n += 1;
        }
    }
    Some(n)
}

/// The particles whose collider contacts share one region of the contact buffer: an
/// item of the parallel passes (detection, projection, restitution). Detection stores
/// the contacts of a region's particles densely from `MAX_COLLIDER_CONTACTS × first`
/// on, in particle order, so that the passes over them read consecutive memory and
/// find them from the counts alone, whatever the thread count. Half the executor's
/// `CHUNK`: with 10,000 particles 1024-particle items left a thread idle for up to a
/// tenth of each pass while the other finished the last one.
const REGION: usize = 512;

/// Calls `f(i, count[i], at)` for every particle of `range` (chunk-aligned) with a
/// contact, in order, with `at` the index of its first contact; skips eight particles
/// without one at a time (most particles of a world touch no collider).
#[inline(always)]
pub(super) fn for_touching(
    count: &[u8],
    range: std::ops::Range<usize>,
    mut f: impl FnMut(usize, usize, usize),
) {
    let mut at = 0;
    let mut i = range.start;
    while i < range.end {
        if i % REGION == 0 {
            at = i * MAX_COLLIDER_CONTACTS;
        }
        if i + 8 <= range.end && i % 8 == 0 {
            let block: [u8; 8] = count[i..i + 8].try_into().expect("eight counts");
            if u64::from_ne_bytes(block) == 0 {
                i += 8;
                continue;
            }
        }
        let k = count[i] as usize;
        if k != 0 {
            f(i, k, at);
            at += k;
        }
        i += 1;
    }
}

#[cfg(test)]
#[path = "tests.rs"]
mod tests;

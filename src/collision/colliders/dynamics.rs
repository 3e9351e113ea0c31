//! Dynamic colliders: two-way coupling with a host engine's rigid bodies.
//!
//! A collider may carry its host body's mass, inertia tensor, centre of mass and
//! velocity ([`ColliderDynamics`], set by the host every frame). Within a step Sinew
//! then moves a *proxy* of the body instead of interpolating the collider's transform:
//!
//! ```text
//! begin_step     the proxy starts at the collider's transform with its velocity
//! each substep   predict: v += g h (only with `gravity`), c += v h, q and ω turn as a
//!                free rigid body (the gyroscopic term, `free_rotation`: L = I ω kept)
//!                count: N = the collider's contacts with movable particles
//!   iteration    each contact, solved against the proxy's pose so far (offset moved
//!                by δ = Δc + Δθ × r at its arm r): λ = −C / (w_p + N w_c),
//!                w_c = 1/m + (r × n)ᵀ I⁻¹ (r × n); the particle moves by w_p λ n,
//!                the proxy takes −λ n at r (summed in particle order after the
//!                pass); friction the same way along the tangent, capped by μ λ;
//!                then the pins, one after another (Gauss–Seidel with the proxy)
//!   end          v += Δc / h, ω += Δθ / h, the pose takes the corrections
//!   velocity     every contact's relative normal velocity v_n (against the body's
//!                material at the contact) set to its target max(−e v_n⁻, 0) (e = 0
//!                for an approach slower than 2 |g| h), the impulses of all the body's
//!                contacts solved together for its velocity change (`velocity.rs`);
//!                the proxy takes −λ n at r (in particle order after the pass)
//! end_step       the collider's transform is the proxy's; the velocity change Δv, Δω
//!                and the impulses it received are read back
//! ```
//!
//! The factor N (the collider's contacts of the substep) makes the Jacobi sum over the
//! contacts of one collider safe: N particles each pushing the proxy as if alone would
//! move a light body N times too far; with N in the denominator a heavy load on a light
//! crate moves it in one iteration by what the contacts need, and a light load barely
//! moves a heavy one. Every position impulse the particles get is taken by the proxy
//! with the opposite sign, so the momentum of particles + body is kept exactly (to
//! rounding), and the wrench the host reads is the proxy's momentum change over the
//! step. The velocity pass makes every contact's relative normal velocity its target
//! (0 without a bounce: a particle pushed out of an overlap does not fly off; `−e`
//! times the approach with one) for all the body's contacts at once, and keeps the
//! momentum.
//!
//! Pins (`Colliders::pin`) attach particles to a point of a collider's frame: XPBD,
//! `C = |x − t|` with compliance α, `Δλ = (−C − α̃ λ) / (w_p + w_c + α̃)` along
//! `n = (x − t) / |x − t|`; the particle moves by `w_p Δλ n` and a dynamic proxy by
//! `−Δλ n` at the target. A kinematic collider's pins follow its interpolated
//! transform (w_c = 0).

use glam::{Mat3, Quat};

use super::passes::DynamicPart;
use super::velocity::Impact;
use super::{ColliderId, Colliders};
use crate::error::{try_reserve, Error, Result};
use crate::limits::{MAX_BODY_INERTIA, MAX_BODY_MASS, MAX_COMPLIANCE};
use crate::math::Vec3;
use crate::particles::Particles;
use crate::snapshot::codec::{self, Reader, Writer};

/// The host body behind a dynamic collider (`World::set_collider_dynamics`).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct ColliderDynamics {
    /// Mass (kg), finite and > 0.
    pub mass: f32,
    /// Inertia tensor about the centre of mass (kg·m²) in the collider's own frame
    /// (body frame: it turns with the collider), symmetric positive definite. A host
    /// with principal moments `d` and a principal rotation `q` (PhysX's
    /// `inertiaTensor` and `inertiaTensorRotation`) passes `R(q) diag(d) R(q)ᵀ`
    /// ([`ColliderDynamics::inertia_from_principal`]).
    pub inertia: Mat3,
    /// Centre of mass (m) in the collider's frame.
    pub center_of_mass: Vec3,
    /// Velocity of the centre of mass (m/s, world).
    pub velocity: Vec3,
    /// Angular velocity (rad/s, world).
    pub angular_velocity: Vec3,
    /// Whether Sinew applies the world's gravity to the proxy within the step. Off by
    /// default: a host engine integrates gravity on its own body, and reads back only
    /// what the particles did (the velocity change and the wrench leave gravity out
    /// either way).
    pub gravity: bool,
}

impl Default for ColliderDynamics {
    fn default() -> Self {
        ColliderDynamics {
            mass: 1.0,
            inertia: Mat3::IDENTITY,
            center_of_mass: Vec3::ZERO,
            velocity: Vec3::ZERO,
            angular_velocity: Vec3::ZERO,
            gravity: false,
        }
    }
}

impl ColliderDynamics {
    /// The inertia tensor `R diag(d) Rᵀ` of principal moments `d` (kg·m²) along the
    /// axes of `rotation` (in the collider's frame).
    pub fn inertia_from_principal(d: Vec3, rotation: Quat) -> Mat3 {
        let r = Mat3::from_quat(rotation.normalize());
        r * Mat3::from_diagonal(d) * r.transpose()
    }

    /// The inertia tensor of a solid box of mass `m` (kg) and half extents `e` (m)
    /// about its centre, in its frame.
    pub fn box_inertia(m: f32, e: Vec3) -> Mat3 {
        let (x, y, z) = (4.0 * e.x * e.x, 4.0 * e.y * e.y, 4.0 * e.z * e.z);
        Mat3::from_diagonal(Vec3::new(y + z, x + z, x + y) * (m / 12.0))
    }

    /// Checks the values (the mass finite and in (0, [`MAX_BODY_MASS`]] kg, the
    /// inertia finite, its entries at most [`MAX_BODY_INERTIA`], symmetric to 1e-3 of its
    /// largest entry and positive definite, the vectors finite).
    pub(crate) fn validate(&self) -> Result<()> {
        if !(self.mass.is_finite() && self.mass > 0.0 && self.mass <= MAX_BODY_MASS) {
            return Err(Error::invalid(format!(
                "a dynamic collider's mass must be finite and in (0, {MAX_BODY_MASS}] kg, got {}",
                self.mass
            )));
        }
        let m = self.inertia.to_cols_array();
        let big = m.iter().fold(0.0f32, |a, x| a.max(x.abs()));
        if !m.iter().all(|x| x.is_finite()) || big > MAX_BODY_INERTIA {
            return Err(Error::invalid(format!(
                "a dynamic collider's inertia tensor must be finite (entries at most \
                 {MAX_BODY_INERTIA} kg·m²)"
            )));
        }
        let i = self.inertia;
        let asym = (i.x_axis.y - i.y_axis.x)
            .abs()
            .max((i.x_axis.z - i.z_axis.x).abs())
            .max((i.y_axis.z - i.z_axis.y).abs());
        // Leading principal minors (Sylvester's criterion), in f64.
        let a = |c: usize, r: usize| i.col(c)[r] as f64;
        let m1 = a(0, 0);
        let m2 = a(0, 0) * a(1, 1) - a(0, 1) * a(1, 0);
        let m3 = i.as_dmat3().determinant();
        let scale = big as f64;
        if asym > 1.0e-3 * big
            || !(m1 > 1.0e-9 * scale && m2 > 1.0e-9 * scale * scale && m3 > 1.0e-9 * scale.powi(3))
        {
            return Err(Error::invalid(format!(
                "a dynamic collider's inertia tensor must be symmetric and positive definite, got {:?}",
                self.inertia.to_cols_array()
            )));
        }
        for (v, what) in [
            (self.center_of_mass, "centre of mass"),
            (self.velocity, "velocity"),
            (self.angular_velocity, "angular velocity"),
        ] {
            if what == "centre of mass" {
                crate::limits::check_coordinates("a dynamic collider's centre of mass", v)?;
            } else if !v.is_finite() || v.abs().max_element() > 1.0e6 {
                return Err(Error::invalid(format!(
                    "a dynamic collider's {what} must be finite (each component at most 1e6), got {v}"
                )));
            }
        }
        Ok(())
    }
}

/// What the proxy of a dynamic collider did over the last step
/// (`World::collider_dynamics_state`).
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct ColliderMotion {
    /// Velocity of the centre of mass (m/s) and angular velocity (rad/s) at the end of
    /// the step.
    pub velocity: Vec3,
    pub angular_velocity: Vec3,
    /// The change of velocity and angular velocity the particles, pins and fluids
    /// made over the step (gravity and the free rotation's gyroscopic change of ω left
    /// out: the host's integrator applies them): what a host adds to its body's
    /// velocities. `mass × velocity_change` is the impulse the proxy received.
    pub velocity_change: Vec3,
    pub angular_velocity_change: Vec3,
}

/// The proxy of a dynamic collider.
#[derive(Clone, Debug)]
pub(crate) struct Proxy {
    pub dynamics: ColliderDynamics,
    inv_mass: f32,
    inv_inertia_local: Mat3,
    /// Principal moments of inertia (kg·m²) and the rotation from the principal axes
    /// to the collider's frame (`I = R(axes) diag(moments) R(axes)ᵀ`).
    moments: Vec3,
    axes: Quat,
    /// The world inverse inertia of the current substep, `R I⁻¹ Rᵀ`.
    inv_inertia: Mat3,
    /// Centre of mass (world, m) at the predicted pose of the current substep.
    pub com: Vec3,
    /// Velocity (m/s) and angular velocity (rad/s) now (`dynamics` keeps the host's).
    pub v: Vec3,
    pub w: Vec3,
    /// Velocities at the start of the step.
    v0: Vec3,
    w0: Vec3,
    /// Corrections of the current substep so far: translation (m) and rotation (rad).
    pub corr_lin: Vec3,
    pub corr_ang: Vec3,
    /// Contacts with movable particles in the current substep.
    pub count: u32,
    /// Impulse (N·s) and angular impulse about the centre of mass (N·m·s) the proxy
    /// received over the step (gravity left out).
    pub impulse: Vec3,
    pub angular_impulse: Vec3,
    /// The step's gravity share of the velocity change (m/s).
    gravity_dv: Vec3,
    /// The step's change of the angular velocity by the free rotation (rad/s): the
    /// gyroscopic term, which the host's own integrator applies to its body.
    free_dw: Vec3,
    /// The velocity pass of its contacts in the current substep (`velocity.rs`).
    pub(super) impact: Impact,
}

impl Proxy {
    pub(crate) fn new(dynamics: ColliderDynamics) -> Proxy {
        let mut p = Proxy {
            dynamics,
            inv_mass: 0.0,
            inv_inertia_local: Mat3::IDENTITY,
            moments: Vec3::ONE,
            axes: Quat::IDENTITY,
            inv_inertia: Mat3::IDENTITY,
            com: Vec3::ZERO,
            v: dynamics.velocity,
            w: dynamics.angular_velocity,
            v0: dynamics.velocity,
            w0: dynamics.angular_velocity,
            corr_lin: Vec3::ZERO,
            corr_ang: Vec3::ZERO,
            count: 0,
            impulse: Vec3::ZERO,
            angular_impulse: Vec3::ZERO,
            gravity_dv: Vec3::ZERO,
            free_dw: Vec3::ZERO,
            impact: Impact::default(),
        };
        p.set(dynamics);
        p
    }

    /// Takes the host's values: the velocities of the next step start from them.
    pub(crate) fn set(&mut self, d: ColliderDynamics) {
        self.dynamics = d;
        self.inv_mass = 1.0 / d.mass;
        self.inv_inertia_local = d.inertia.inverse();
        (self.moments, self.axes) = principal_axes(d.inertia);
        self.v = d.velocity;
        self.w = d.angular_velocity;
    }

    /// Generalized inverse mass of the proxy for an impulse along unit `n` at arm `r`
    /// (from the centre of mass, m): `1/m + (r × n)ᵀ I⁻¹ (r × n)`.
    #[inline]
    pub(crate) fn inverse_mass_at(&self, r: Vec3, n: Vec3) -> f32 {
        let rn = r.cross(n);
        self.inv_mass + rn.dot(self.inv_inertia * rn)
    }

    /// The mass (kg) and the world inertia tensor of the current substep (kg·m²), the
    /// inverse of the one its impulses turn it by, in f64.
    pub(super) fn mass_matrix(&self) -> (f64, glam::DMat3) {
        (
            self.dynamics.mass as f64,
            self.inv_inertia.as_dmat3().inverse(),
        )
    }

    /// The proxy's correction so far at arm `r` (m).
    #[inline]
    pub(crate) fn displacement_at(&self, r: Vec3) -> Vec3 {
        self.corr_lin + self.corr_ang.cross(r)
    }

    /// Takes a position impulse `p` (kg·m) at arm `r` over a substep of `h` seconds.
    #[inline]
    pub(crate) fn push(&mut self, p: Vec3, r: Vec3, inv_h: f32) {
        self.corr_lin += p * self.inv_mass;
        self.corr_ang += self.inv_inertia * r.cross(p);
        self.impulse += p * inv_h;
        self.angular_impulse += r.cross(p) * inv_h;
    }

    /// Takes a velocity impulse `j` (N·s) at arm `r` (m): the velocities change by
    /// `j / m` and `I⁻¹ (r × j)`.
    #[inline]
    pub(crate) fn push_velocity(&mut self, j: Vec3, r: Vec3) {
        self.v += j * self.inv_mass;
        self.w += self.inv_inertia * r.cross(j);
        self.impulse += j;
        self.angular_impulse += r.cross(j);
    }

    /// Velocity (m/s) of the body's material at arm `r` (m) from the centre of mass.
    #[inline]
    pub(crate) fn velocity_at(&self, r: Vec3) -> Vec3 {
        self.v + self.w.cross(r)
    }

    /// Start of a step at `pos`/`rot` (the collider's transform).
    pub(crate) fn begin_step(&mut self, pos: Vec3, rot: Quat) {
        self.com = pos + rot * self.dynamics.center_of_mass;
        self.v0 = self.v;
        self.w0 = self.w;
        self.impulse = Vec3::ZERO;
        self.angular_impulse = Vec3::ZERO;
        self.gravity_dv = Vec3::ZERO;
        self.free_dw = Vec3::ZERO;
    }

    /// Predicts the pose of a substep of `h` seconds from `rot` (the last substep's
    /// rotation): the centre of mass moves by `v h`, the body turns as a free rigid body
    /// ([`free_rotation`]: the gyroscopic term of `ω̇ = I⁻¹ (τ − ω × I ω)`; the torque
    /// τ comes as the contacts' corrections). Returns the new (position, rotation) of
    /// the collider.
    pub(crate) fn predict(&mut self, rot: Quat, h: f32, gravity: Vec3) -> (Vec3, Quat) {
        if self.dynamics.gravity {
            self.v += gravity * h;
            self.gravity_dv += gravity * h;
        }
        self.com += self.v * h;
        let (rot, w) = free_rotation(rot, self.w, self.moments, self.axes, h);
        self.free_dw += w - self.w;
        self.w = w;
        let r = Mat3::from_quat(rot);
        self.inv_inertia = r * self.inv_inertia_local * r.transpose();
        self.corr_lin = Vec3::ZERO;
        self.corr_ang = Vec3::ZERO;
        self.count = 0;
        (self.com - rot * self.dynamics.center_of_mass, rot)
    }

    /// End of a substep of `h` seconds: the corrections join the pose and the
    /// velocities. Returns the new (position, rotation).
    pub(crate) fn finish_substep(&mut self, rot: Quat, inv_h: f32) -> (Vec3, Quat) {
        self.com += self.corr_lin;
        self.v += self.corr_lin * inv_h;
        self.w += self.corr_ang * inv_h;
        let rot = integrate(rot, self.corr_ang);
        self.corr_lin = Vec3::ZERO;
        self.corr_ang = Vec3::ZERO;
        (self.com - rot * self.dynamics.center_of_mass, rot)
    }

    pub(crate) fn motion(&self) -> ColliderMotion {
        ColliderMotion {
            velocity: self.v,
            angular_velocity: self.w,
            velocity_change: self.v - self.v0 - self.gravity_dv,
            angular_velocity_change: self.w - self.w0 - self.free_dw,
        }
    }

    /// Surface velocity terms of the collider's origin `pos`: (linear, angular).
    pub(crate) fn surface(&self, pos: Vec3) -> (Vec3, Vec3) {
        (self.v + self.w.cross(pos - self.com), self.w)
    }

    /// Snapshot: the host's values and the proxy's step state.
    pub(crate) fn save(&self, w: &mut Writer<'_>) {
        let d = &self.dynamics;
        w.put((d.mass, d.center_of_mass, d.velocity, d.angular_velocity));
        for c in d.inertia.to_cols_array() {
            w.put(c);
        }
        w.put(d.gravity);
        for v in [
            self.com,
            self.v,
            self.w,
            self.v0,
            self.w0,
            self.impulse,
            self.angular_impulse,
            self.gravity_dv,
            self.free_dw,
        ] {
            w.put(v);
        }
    }

    pub(crate) fn load(r: &mut Reader<'_>) -> Result<Proxy> {
        let (mass, center_of_mass, velocity, angular_velocity) =
            r.get::<(f32, Vec3, Vec3, Vec3)>()?;
        let mut cols = [0.0f32; 9];
        for c in &mut cols {
            *c = r.get()?;
        }
        let gravity = r.get::<bool>()?;
        let d = ColliderDynamics {
            mass,
            inertia: Mat3::from_cols_array(&cols),
            center_of_mass,
            velocity,
            angular_velocity,
            gravity,
        };
        d.validate()
            .map_err(|e| Error::invalid(format!("snapshot: {}", e.message)))?;
        let mut state = [Vec3::ZERO; 9];
        for v in &mut state {
            *v = r.get()?;
        }
        codec::check_finite(state.iter().flat_map(|v| v.to_array()), "dynamic collider")?;
        let [com, v, w, v0, w0, impulse, angular_impulse, gravity_dv, free_dw] = state;
        let mut p = Proxy::new(d);
        (p.com, p.v, p.w, p.v0, p.w0) = (com, v, w, v0, w0);
        (p.impulse, p.angular_impulse) = (impulse, angular_impulse);
        (p.gravity_dv, p.free_dw) = (gravity_dv, free_dw);
        Ok(p)
    }
}

/// Principal moments and axes of the symmetric inertia tensor `m`: `(d, q)` with
/// `m = R(q) diag(d) R(q)ᵀ`, `R(q)` a proper rotation (cyclic Jacobi rotations in f64,
/// to convergence; a diagonal tensor gives its diagonal and the identity exactly).
fn principal_axes(m: Mat3) -> (Vec3, Quat) {
    let m = m.as_dmat3();
    let mut a = [[0.0f64; 3]; 3];
    for (r, row) in a.iter_mut().enumerate() {
        for (c, x) in row.iter_mut().enumerate() {
            // Symmetrized (the validation allows an asymmetry of 1e-3).
            *x = 0.5 * (m.col(c)[r] + m.col(r)[c]);
        }
    }
    let mut v = [[1.0, 0.0, 0.0], [0.0, 1.0, 0.0], [0.0, 0.0, 1.0f64]];
    for _ in 0..64 {
        let off = a[0][1] * a[0][1] + a[0][2] * a[0][2] + a[1][2] * a[1][2];
        let diag = a[0][0] * a[0][0] + a[1][1] * a[1][1] + a[2][2] * a[2][2];
        if off <= 1.0e-30 * diag {
            break;
        }
        for (p, q) in [(0, 1), (0, 2), (1, 2)] {
            if a[p][q] == 0.0 {
                continue;
            }
            // The rotation in the (p, q) plane that zeroes a[p][q] (A ← Jᵀ A J).
            let theta = (a[q][q] - a[p][p]) / (2.0 * a[p][q]);
            let sign = if theta < 0.0 { -1.0 } else { 1.0 };
            let t = sign / (theta.abs() + (theta * theta + 1.0).sqrt());
            let c = 1.0 / (t * t + 1.0).sqrt();
            let s = t * c;
            for row in a.iter_mut().chain(v.iter_mut()) {
                let (kp, kq) = (row[p], row[q]);
                row[p] = c * kp - s * kq;
                row[q] = s * kp + c * kq;
            }
            let (row_p, row_q) = (a[p], a[q]);
            for (k, (&pk, &qk)) in row_p.iter().zip(&row_q).enumerate() {
                a[p][k] = c * pk - s * qk;
                a[q][k] = s * pk + c * qk;
            }
        }
    }
    // The eigenvectors are v's columns; a proper rotation (det +1).
    let col = |j: usize| glam::DVec3::new(v[0][j], v[1][j], v[2][j]);
    let (x, y) = (col(0), col(1));
    let z = x.cross(y);
    let r = glam::DMat3::from_cols(x, y, z).as_mat3();
    let d = Vec3::new(a[0][0] as f32, a[1][1] as f32, a[2][2] as f32);
    (d, Quat::from_mat3(&r).normalize())
}

/// One substep of `h` seconds of a free rigid body (no torque): rotation `q` (the
/// collider's), world angular velocity `w`, principal moments `d` along the axes `axes`
/// (in the collider's frame). Returns the new rotation and angular velocity.
///
/// A splitting of the kinetic energy `T = Σ L_i² / (2 d_i)` (body-frame angular
/// momentum L) into `|L|² / (2 d_a)` plus `Σ (1/d_i − 1/d_a) L_i² / 2` over the two
/// other axes (McLachlan 1993; Dullweber, Leimkuhler & McLachlan 1997, "Symplectic
/// splitting methods for rigid body molecular dynamics"), each flow solved exactly: the
/// first turns the body about the world L by `|L| h / d_a`, each other term about its
/// own body axis i by `(1/d_i − 1/d_a) L_i τ`, in the symmetric order i(h/2) j(h) i(h/2).
/// Every flow is a rotation that leaves the world angular momentum `L = I ω` as it was,
/// so it is kept to rounding whatever h; the energy error is second order and bounded
/// (the method is symplectic), so a body spun about its intermediate axis flips as it
/// should (the Dzhanibekov effect). `d_a` is one of the two closest moments, so a body
/// with two equal moments turns exactly; one with three (a sphere, a cube) keeps ω bit
/// for bit and turns by `exp(ω h)`. A non-finite turn leaves `q` and `w` as they were.
fn free_rotation(q: Quat, w: Vec3, d: Vec3, axes: Quat, h: f32) -> (Quat, Vec3) {
    if w == Vec3::ZERO {
        return (q, w);
    }
    if d.x == d.y && d.y == d.z {
        // A sphere or a cube: no gyroscopic term, ω stays as it is (bit for bit) and the
        // body turns by exp(ω h).
        let a = w * h;
        if !a.is_finite() {
            return (q, w);
        }
        return ((Quat::from_scaled_axis(a) * q).normalize(), w);
    }
    let body = (q * axes).normalize();
    let mut l = d * (body.inverse() * w);
    let l_world = body * l;
    let (gaps, pairs) = (
        [(d.x - d.y).abs(), (d.x - d.z).abs(), (d.y - d.z).abs()],
        [(0, 1, 2), (0, 2, 1), (1, 2, 0)],
    );
    let closest = (0..3).fold(0, |b, k| if gaps[k] < gaps[b] { k } else { b });
    // Axis `a` takes the free flow; `i` and `j` the remainders.
    let (a, i, j) = pairs[closest];
    let da = d[a];
    let free = l_world * (h / da);
    if !free.is_finite() {
        return (q, w);
    }
    let mut body = (Quat::from_scaled_axis(free) * body).normalize();
    let mut turn = |axis: usize, tau: f32, body: &mut Quat| {
        let angle = (1.0 / d[axis] - 1.0 / da) * l[axis] * tau;
        if angle == 0.0 || !angle.is_finite() {
            return;
        }
        let r = Quat::from_axis_angle(Vec3::AXES[axis], angle);
        *body = (*body * r).normalize();
        l = r.inverse() * l;
    };
    turn(i, 0.5 * h, &mut body);
    turn(j, h, &mut body);
    turn(i, 0.5 * h, &mut body);
    let turned = body * (l / d);
    if !turned.is_finite() {
        return (q, w);
    }
    ((body * axes.inverse()).normalize(), turned)
}

/// `q` turned by the small rotation vector `a` (rad): `q + ½ [a, 0] q`, normalized. A
/// turn of a radian or more (a host's spin over a long substep) takes the exact
/// rotation instead, where the first-order step would overflow or degenerate; a
/// non-finite one leaves `q` as it was.
fn integrate(q: Quat, a: Vec3) -> Quat {
    if a == Vec3::ZERO {
        return q;
    }
    let angle2 = a.length_squared();
    if angle2 >= 1.0 || !angle2.is_finite() {
        if !a.is_finite() || !angle2.is_finite() {
            return q;
        }
        return (Quat::from_scaled_axis(a) * q).normalize();
    }
    let dq = Quat::from_xyzw(a.x, a.y, a.z, 0.0) * q;
    Quat::from_xyzw(
        q.x + 0.5 * dq.x,
        q.y + 0.5 * dq.y,
        q.z + 0.5 * dq.z,
        q.w + 0.5 * dq.w,
    )
    .normalize()
}

/// A particle pinned to a point of a collider's frame ([`Colliders::pin`]).
#[derive(Clone, Copy, Debug)]
pub(crate) struct Pin {
    pub collider: ColliderId,
    pub particle: u32,
    /// The point in the collider's frame (m).
    pub offset: Vec3,
    /// m/N; negative once removed.
    pub compliance: f32,
    /// Multiplier of the substep (kg·m), along the last direction.
    pub lambda: f32,
    /// The force (N) the pin exerted on its particle in the last substep.
    pub force: Vec3,
}

impl Colliders {
    /// Makes collider `id` dynamic with the host body `d` (validated), or updates its
    /// values (the next step starts from its velocities).
    pub(crate) fn set_dynamics(&mut self, id: ColliderId, d: ColliderDynamics) -> Result<()> {
        let slot = self.slot_of(id)?;
        d.validate()?;
        let c = self.slots.items_mut()[slot].as_mut().expect("checked");
        match &mut c.proxy {
            Some(p) => p.set(d),
            None => c.proxy = Some(Box::new(Proxy::new(d))),
        }
        Ok(())
    }

    /// Makes collider `id` kinematic again (its transform set by the host alone).
    pub(crate) fn clear_dynamics(&mut self, id: ColliderId) -> Result<()> {
        let slot = self.slot_of(id)?;
        let c = self.slots.items_mut()[slot].as_mut().expect("checked");
        c.proxy = None;
        Ok(())
    }

    /// The host values of a dynamic collider (None for a kinematic one).
    pub(crate) fn dynamics(&self, id: ColliderId) -> Result<Option<ColliderDynamics>> {
        let slot = self.slot_of(id)?;
        let c = self.slots.items()[slot].as_ref().expect("checked");
        Ok(c.proxy.as_ref().map(|p| p.dynamics))
    }

    /// What the proxy of dynamic collider `id` did over the last step.
    pub(crate) fn motion(&self, id: ColliderId) -> Result<ColliderMotion> {
        let slot = self.slot_of(id)?;
        let c = self.slots.items()[slot].as_ref().expect("checked");
        match &c.proxy {
            Some(p) => Ok(p.motion()),
            None => Err(Error::invalid(
                "the collider is not dynamic (set_collider_dynamics)",
            )),
        }
    }

    /// Pins `particles` to the points `offsets` (m, the collider's frame) of collider
    /// `id`, compliance `compliance` (m/N, >= 0): returns the first pin's index.
    pub(crate) fn pin(
        &mut self,
        id: ColliderId,
        particles: &[u32],
        offsets: &[Vec3],
        compliance: f32,
        particle_count: usize,
    ) -> Result<u32> {
        self.slot_of(id)?;
        crate::error::check_nonzero(particles.len(), "pin")?;
        if particles.len() != offsets.len() {
            return Err(Error::invalid(format!(
                "{} particles and {} offsets",
                particles.len(),
                offsets.len()
            )));
        }
        // Bounded as every compliance: α̃ = α / h² stays finite at the shortest substep.
        crate::limits::check_compliance("a pin's", compliance, MAX_COMPLIANCE, "m/N")?;
        for (k, (&p, &o)) in particles.iter().zip(offsets).enumerate() {
            if p as usize >= particle_count {
                return Err(Error::out_of_range(format!(
                    "pin {k}: particle {p} of {particle_count}"
                )));
            }
            crate::limits::check_coordinates("a pin's offset", o)?;
        }
        if self.pins.len() + particles.len() > u32::MAX as usize / 2 {
            return Err(Error::out_of_memory("too many pins"));
        }
        try_reserve(&mut self.pins, particles.len(), "pins")?;
        let first = self.pins.len() as u32;
        self.pins.extend(
            particles
                .iter()
                .zip(offsets)
                .map(|(&particle, &offset)| Pin {
                    collider: id,
                    particle,
                    offset,
                    compliance,
                    lambda: 0.0,
                    force: Vec3::ZERO,
                }),
        );
        Ok(first)
    }

    /// Number of pins (removed ones included: indices never shift).
    pub(crate) fn pin_count(&self) -> usize {
        self.pins.len()
    }

    /// Removes pins `first..first + count` (they stop acting).
    pub(crate) fn unpin(&mut self, first: u32, count: u32) -> Result<()> {
        let range = crate::error::check_range(first, count as usize, self.pins.len(), "pins")?;
        for p in &mut self.pins[range] {
            p.compliance = -1.0;
            p.force = Vec3::ZERO;
        }
        Ok(())
    }

    /// Removes every pin on a particle of `particles` (a removed body's).
    pub(crate) fn unpin_particles(&mut self, particles: std::ops::Range<u32>) {
        for p in &mut self.pins {
            if particles.contains(&p.particle) {
                p.compliance = -1.0;
                p.force = Vec3::ZERO;
            }
        }
    }

    /// The force (N) each pin of `first..first + out.len()` exerted on its particle in
    /// the last substep (its collider receives the opposite at the pin's point).
    pub(crate) fn pin_forces(&self, first: u32, out: &mut [Vec3]) -> Result<()> {
        let range = crate::error::check_range(first, out.len(), self.pins.len(), "pins")?;
        for (o, p) in out.iter_mut().zip(&self.pins[range]) {
            *o = p.force;
        }
        Ok(())
    }

    /// After detection: each dynamic collider's contact count N and each of its
    /// contacts' arm and generalized inverse mass (`N w_c`), in particle order.
    pub(super) fn prepare_dynamic_contacts(&mut self, particles: &Particles) {
        let n = particles.len();
        let items = self.slots.items_mut();
        let (contacts, count) = (&mut self.contacts, &self.contact_count);
        let parts = &mut self.dynamic_parts;
        super::passes::for_touching(count, 0..n, |i, k, at| {
            if particles.hot[i].w == 0.0 {
                return;
            }
            for ct in &contacts[at..at + k] {
                if let Some(p) = items[ct.slot as usize]
                    .as_mut()
                    .and_then(|c| c.proxy.as_mut())
                {
                    p.count += 1;
                }
            }
        });
        super::passes::for_touching(count, 0..n, |i, k, at| {
            let x = particles.position(i);
            let b = Vec3::from(particles.base[i]);
            let movable = particles.hot[i].w != 0.0;
            for (ct, dp) in contacts[at..at + k].iter_mut().zip(&mut parts[at..at + k]) {
                let Some(p) = items[ct.slot as usize]
                    .as_ref()
                    .and_then(|c| c.proxy.as_ref())
                else {
                    continue;
                };
                // The particle's centre projected onto the contact plane.
                let depth = ct.normal.dot(x - b) - ct.offset + particles.radius[i];
                let point = x - ct.normal * depth;
                let arm = point - p.com;
                ct.dynamic = true;
                *dp = DynamicPart {
                    arm,
                    w_n: if movable {
                        p.count as f32 * p.inverse_mass_at(arm, ct.normal)
                    } else {
                        0.0
                    },
                    pending: Vec3::ZERO,
                    held: false,
                };
            }
        });
    }

    /// After each iteration's contact pass: the position impulses the particles took
    /// from dynamic colliders, given to the proxies with the opposite sign in particle
    /// order (the same bits on any thread count).
    pub(super) fn exchange(&mut self, n: usize, h: f32) {
        let inv_h = 1.0 / h;
        self.take_pending(n, |proxy, p, arm| proxy.push(-p, arm, inv_h));
    }

    /// After the restitution pass: the velocity impulses of the bounces off dynamic
    /// colliders (`passes::restitute_dynamic`), given to the proxies with the opposite
    /// sign in particle order.
    pub(super) fn exchange_bounces(&mut self, n: usize) {
        self.take_pending(n, |proxy, j, arm| proxy.push_velocity(-j, arm));
        for c in self.slots.iter_mut() {
            if let Some(p) = c.proxy.as_mut() {
                (c.lin_vel, c.ang_vel) = p.surface(c.pos);
            }
        }
    }

    /// Takes every dynamic contact's `pending` impulse (zeroing it) and hands it with
    /// the contact's arm to `give` with the contact's proxy, in particle order.
    fn take_pending(&mut self, n: usize, mut give: impl FnMut(&mut Proxy, Vec3, Vec3)) {
        let items = self.slots.items_mut();
        let (contacts, count) = (&self.contacts, &self.contact_count);
        let parts = &mut self.dynamic_parts;
        super::passes::for_touching(count, 0..n, |_, k, at| {
            for (ct, dp) in contacts[at..at + k].iter().zip(&mut parts[at..at + k]) {
                if !ct.dynamic || dp.pending == Vec3::ZERO {
                    continue;
                }
                let p = std::mem::take(&mut dp.pending);
                if let Some(proxy) = items[ct.slot as usize]
                    .as_mut()
                    .and_then(|c| c.proxy.as_mut())
                {
                    give(proxy, p, dp.arm);
                }
            }
        });
    }

    /// Whether a collider is dynamic this step.
    pub(crate) fn any_dynamic(&self) -> bool {
        self.any_dynamic && !self.slots.is_empty()
    }

    /// The fluid pushed particle `i` by `dx` (m) off its `k`-th collider contact of
    /// this substep (`fluid::walls::wall_parts`): a dynamic collider takes the
    /// opposite impulse `−m dx` with the contact's exchange of this iteration.
    pub(crate) fn push_wall(&mut self, particles: &Particles, i: usize, k: usize, dx: Vec3) {
        let Some(&count) = self.contact_count.get(i) else {
            return;
        };
        let w = particles.hot[i].w;
        if (k as u8) >= count || w == 0.0 {
            return;
        }
        let at = self.contact_start[i] as usize + k;
        if self.contacts[at].dynamic {
            self.dynamic_parts[at].pending += dx / w;
        }
    }

    /// One projection of every pin, in order (each sees the proxy as the ones before
    /// left it).
    pub(super) fn project_pins(&mut self, particles: &mut Particles, h: f32) {
        let inv_h = 1.0 / h;
        let inv_h2 = inv_h * inv_h;
        let items = self.slots.items_mut();
        for pin in &mut self.pins {
            if pin.compliance < 0.0 {
                continue;
            }
            let key = crate::slots::key_bits(pin.collider.0);
            let Some(c) = items.get_mut(key.slot as usize).and_then(|c| c.as_mut()) else {
                continue;
            };
            let i = pin.particle as usize;
            let wp = particles.hot[i].w;
            // The target: the pin's point on the collider's pose of this substep,
            // moved by a proxy's corrections so far.
            let local = c.rot * pin.offset;
            let (target, arm) = match &c.proxy {
                Some(p) => {
                    let arm = c.pos + local - p.com;
                    (c.pos + local + p.displacement_at(arm), arm)
                }
                None => (c.pos + local, Vec3::ZERO),
            };
            // x − t with the large parts subtracted first.
            let diff = Vec3::from(particles.base[i] - glam::Vec3A::from(target))
                + particles.hot[i].truncate();
            let len = diff.length();
            if len == 0.0 || !len.is_finite() {
                continue;
            }
            let dir = diff / len;
            let wc = c
                .proxy
                .as_ref()
                .map_or(0.0, |p| p.inverse_mass_at(arm, dir));
            if wp + wc == 0.0 {
                continue;
            }
            let alpha = pin.compliance * inv_h2;
            let dl = (-len - alpha * pin.lambda) / (wp + wc + alpha);
            // A proxy without inertia far from the pin overflows its inverse mass at the
            // arm (w_c infinite or NaN): such a correction is not applied, so the pin's
            // multiplier and force stay finite (the step's recovery handles the rest;
            // before, a NaN multiplier stayed in the world and its snapshot was refused).
            let lambda = pin.lambda + dl;
            if !lambda.is_finite() {
                continue;
            }
            pin.lambda = lambda;
            particles.hot[i] += (dir * (wp * dl)).extend(0.0);
            if let Some(p) = c.proxy.as_mut() {
                p.push(-dir * dl, arm, inv_h);
            }
            // |λ| / h² can pass what f32 holds (`limits::saturate_force`): the
            // magnitude saturates before it meets the direction, whose zero
            // components would turn an infinite one into NaN.
            let magnitude = crate::limits::saturate_force(pin.lambda.abs() * inv_h2);
            pin.force = dir
                * if pin.lambda < 0.0 {
                    -magnitude
                } else {
                    magnitude
                };
        }
    }

    /// Start of a substep: the pins' multipliers reset.
    pub(super) fn reset_pins(&mut self) {
        for p in &mut self.pins {
            p.lambda = 0.0;
        }
    }

    /// Snapshot: the pins.
    pub(super) fn save_pins(&self, w: &mut Writer<'_>) {
        w.put_len(self.pins.len());
        for p in &self.pins {
            w.put(p.collider.0 & crate::slots::ID_WITHOUT_SERIAL);
            w.put(p.particle);
            w.put(p.offset);
            w.put((p.compliance, p.lambda));
            w.put(p.force);
        }
    }

    pub(super) fn load_pins(r: &mut Reader<'_>, particles: usize) -> Result<Vec<Pin>> {
        let n = r.get_count(44, "pins")?;
        let mut pins = crate::error::try_with_capacity(n, "pins")?;
        for k in 0..n {
            let collider: u64 = r.get()?;
            let particle: u32 = r.get()?;
            let offset: Vec3 = r.get()?;
            let (compliance, lambda) = r.get::<(f32, f32)>()?;
            let force: Vec3 = r.get()?;
            codec::ensure(
                (particle as usize) < particles
                    && offset.is_finite()
                    && compliance.is_finite()
                    && lambda.is_finite()
                    && force.is_finite(),
                || format!("pin {k} (particle {particle} of {particles})"),
            )?;
            pins.push(Pin {
                collider: ColliderId(collider),
                particle,
                offset,
                compliance,
                lambda,
                force,
            });
        }
        Ok(pins)
    }
}

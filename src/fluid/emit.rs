//! The life of fluid particles: ids of fluids, emitters and kill volumes, the
//! particle state of live and dead slots, emission at the start of a step and removal
//! (lifetime, kill volumes) at its end. Nothing here allocates inside the step: every
//! buffer is sized when the fluid or the emitter is added.
//!
//! **Slots.** A fluid reserves `capacity` world particles; the live ones are always the
//! first `count`. A particle is emitted into slot `count` (count += 1); removing live
//! particle k moves the last live particle's whole state (position, velocity, start of
//! step, age, ρ/ρ₀) into slot k and parks the last slot, so only indices inside the
//! fluid change, and the removal order is the particle order (deterministic). A dead
//! slot is pinned (inverse mass 0, never predicted), has radius 0 and the filter
//! `layers 0, mask 0` (no collider or particle contact), velocity 0, and stays where it
//! died.
//!
//! **Nozzle.** Particles leave a disc of the emitter's radius facing its local +z on a
//! square lattice of the fluid's spacing s (rows along local y, points along local x:
//! every (a s, b s) with a² + b² ≤ (r/s)²; at least the centre), with velocity
//! speed·(+z). The k-th particle an emitter ever emits (its `sequence`) takes lattice
//! point k mod L of layer k / L, L the lattice size. `rate` particles per second are
//! due; the fraction left after a step carries to the next (`carry`). A nozzle passes
//! at most speed·L/s particles per second (one layer each time the stream has moved one
//! spacing); a higher rate is capped there, so the stream leaves at rest density.
//! Particles are emitted at the start of a step as if they had left the disc during
//! the step before: the j-th particle due in a step (0-based, carry c before the step)
//! became due τ_j = (j + 1 − c)/rate into it, and starts where it would be after
//! flying t = dt − τ_j from the disc: speed·t along +z plus g t²/2, with velocity
//! speed·(+z) + g t. Successive particles are then speed/rate apart along the stream,
//! within a step and across steps (for a steady dt), and one lattice point's particles
//! of two successive layers speed·L/rate ≥ s apart, so no two new particles are closer
//! than the spacing and none starts behind the disc. In a planar world the disc is the
//! //! segment where it meets the plane: points at (k s) across the in-plane part of the
//! axis, |k s| ≤ r, velocity speed times that in-plane part (a nozzle facing straight
//! out of the plane has none and emits nothing).
//!
//! **Box.** The box is cut into cells of at least the spacing (at most 2²⁰ per axis);
//! the k-th particle takes cell `P_c(k mod C)` of C cells, `P_c` a pseudo-random
//! permutation (a four-round Feistel network over the next power of four, cycle-walked
//! into [0, C), keyed by the cycle c = k / C), and a point jittered by up to a quarter of
//! the cell around the cell's centre (hashed from k). So every cell is used once per
//! cycle, the points look random, and two particles of one cycle are at least half a
//! spacing apart. Velocity speed·(+z). In a planar world only the box's local x and y
//! count (put it in the plane) and points lie on the plane.
//!
//! **Full fluid.** Due particles past the free capacity are refused (counted), or with
//! `recycle_oldest` they replace the oldest live particles (largest age, then lowest
//! index), found by one selection over the live particles in the fluid's scratch.

use super::{Emitter, EmitterDesc, EmitterShape, Fluid, FluidDesc, FluidSet, KillVolume};
use super::{EmitterId, FluidId, KillVolumeDesc, KillVolumeId};
use crate::error::{try_with_capacity, Error, ErrorKind, Result};
use crate::math::{Vec3, Vec4};
use crate::particles::{CollisionFilter, Particles};
use crate::slots::{Key, LowestFirst, SlotMap};
use crate::snapshot::codec::{self, Reader, Writer};
use crate::snapshot::LoadContext;
use glam::Quat;

/// The filter of fluid particles, live or dead: never in the particle contact search
/// (fluid particles meet each other and solids through the density constraint only).
pub(crate) const FLUID_FILTER: CollisionFilter = CollisionFilter {
    group: 0,
    layers: 0,
    mask: 0,
    self_collision: false,
};

/// Largest nozzle radius as a multiple of the fluid's spacing (a lattice of about
/// π·256² ≈ 206,000 points).
pub const MAX_NOZZLE_SPACINGS: f32 = 256.0;

/// Largest number of cells per axis of a box emitter (coarser cells beyond).
const MAX_BOX_CELLS: u64 = 1 << 20;

fn invalid_handle(what: &str, id: u64) -> Error {
    Error::new(
        ErrorKind::InvalidHandle,
        if id == 0 {
            format!("the {what} handle is null (0)")
        } else {
            format!("the {what} handle {id:#x} is removed or was never created in this world")
        },
    )
}

/// The key of a live item of a fluid table (fluids, emitters, kill volumes), or
/// INVALID_HANDLE naming `what`.
fn key_in<T>(slots: &SlotMap<T, LowestFirst>, id: u64, what: &str) -> Result<Key> {
    let key = Key::from_id(id);
    match slots.get(key) {
        Some(_) => Ok(key),
        None => Err(invalid_handle(what, id)),
    }
}

/// Room for one more item in a fluid table (outside any step).
fn reserve_slot<T>(slots: &mut SlotMap<T, LowestFirst>, what: &str) -> Result<()> {
    let full = || Error::out_of_range(format!("too many {what}"));
    slots.reserve(usize::MAX, full, what)
}

/// Parks particle `i` as a dead fluid slot where it is.
pub(crate) fn park(p: &mut Particles, i: usize) {
    let x = p.position(i);
    p.base[i] = x.into();
    p.hot[i] = Vec4::ZERO;
    p.velocity[i] = Vec3::ZERO;
    p.radius[i] = 0.0;
    p.filter[i] = FLUID_FILTER;
    p.step_start[i] = x;
}

impl Fluid {
    /// Particle mass (kg, or kg per m of thickness) and volume (m³, or m²) of a fluid
    /// with these settings in a 3D or planar world.
    pub(crate) fn mass_and_volume(desc: &FluidDesc, planar: bool) -> (f32, f32) {
        let s = desc.spacing;
        let volume = if planar { s * s } else { s * s * s };
        (desc.rest_density * volume, volume)
    }

    /// Checks that the particle mass stays within the accepted inverse masses in a 3D
    /// and in a planar world (so switching the world to 2D never makes it invalid).
    pub(crate) fn check_mass(desc: &FluidDesc) -> Result<()> {
        for planar in [false, true] {
            let (m, _) = Self::mass_and_volume(desc, planar);
            let w = 1.0 / m;
            if !(w.is_finite() && w <= crate::limits::MAX_INVERSE_MASS) {
                return Err(Error::invalid(format!(
                    "rest_density {} with spacing {} gives particles of {m} kg{}: \
                     below the lightest accepted particle ({} kg)",
                    desc.rest_density,
                    desc.spacing,
                    if planar { " per m (2D)" } else { "" },
                    1.0 / crate::limits::MAX_INVERSE_MASS
                )));
            }
        }
        Ok(())
    }

    /// A fluid with no live particle, its particles at `first..first + capacity`; every
    /// per-particle buffer is allocated here.
    pub(crate) fn new(desc: FluidDesc, first: u32, planar: bool) -> Result<Fluid> {
        let n = desc.capacity as usize;
        let mut age = try_with_capacity(n, "fluid particle ages")?;
        age.resize(n, 0.0);
        let mut density_ratio = try_with_capacity(n, "fluid density ratios")?;
        density_ratio.resize(n, 0.0);
        let scratch = try_with_capacity(n, "fluid emitter scratch")?;
        let (mass, volume) = Self::mass_and_volume(&desc, planar);
        Ok(Fluid {
            desc,
            first,
            count: 0,
            mass,
            volume,
            age,
            density_ratio,
            emitted: 0,
            removed: 0,
            refused: 0,
            scratch,
        })
    }

    /// Reserved particles.
    pub(crate) fn capacity(&self) -> u32 {
        self.desc.capacity
    }

    /// World indices of the live particles.
    pub(crate) fn live(&self) -> std::ops::Range<usize> {
        self.first as usize..(self.first + self.count) as usize
    }

    /// Makes slot k (world particle `first + k`) a live particle at `x` with velocity
    /// `v`, age 0.
    fn place(&mut self, p: &mut Particles, k: u32, x: Vec3, v: Vec3) {
        let i = (self.first + k) as usize;
        p.base[i] = x.into();
        p.hot[i] = Vec3::ZERO.extend(1.0 / self.mass);
        p.velocity[i] = v;
        p.radius[i] = self.desc.collider_radius();
        p.filter[i] = FLUID_FILTER;
        p.step_start[i] = x;
        self.age[k as usize] = 0.0;
        self.density_ratio[k as usize] = 0.0;
    }

    /// Appends a live particle (room checked by the caller).
    pub(crate) fn spawn(&mut self, p: &mut Particles, x: Vec3, v: Vec3) {
        debug_assert!(self.count < self.capacity());
        self.place(p, self.count, x, v);
        self.count += 1;
    }

    /// Removes live particle k: the last live particle's state moves into its slot and
    /// the last slot is parked.
    pub(crate) fn remove(&mut self, p: &mut Particles, k: u32) {
        debug_assert!(k < self.count);
        let last = self.count - 1;
        let (i, j) = ((self.first + k) as usize, (self.first + last) as usize);
        if k != last {
            p.base[i] = p.base[j];
            p.hot[i] = p.hot[j];
            p.velocity[i] = p.velocity[j];
            p.step_start[i] = p.step_start[j];
            p.radius[i] = p.radius[j];
            self.age[k as usize] = self.age[last as usize];
            self.density_ratio[k as usize] = self.density_ratio[last as usize];
        }
        park(p, j);
        self.age[last as usize] = 0.0;
        self.density_ratio[last as usize] = 0.0;
        self.count = last;
        self.removed += 1;
    }

    /// Removes every live particle.
    pub(crate) fn clear(&mut self, p: &mut Particles) {
        for i in self.live() {
            park(p, i);
        }
        self.age.fill(0.0);
        self.density_ratio.fill(0.0);
        self.removed += self.count as u64;
        self.count = 0;
    }

    /// New settings (capacity and spacing unchanged): the mass follows ρ₀ and the live
    /// particles take the new inverse mass and collider radius.
    pub(crate) fn retune(&mut self, p: &mut Particles, desc: FluidDesc, planar: bool) {
        self.desc = desc;
        (self.mass, self.volume) = Self::mass_and_volume(&desc, planar);
        let (w, r) = (1.0 / self.mass, desc.collider_radius());
        for i in self.live() {
            p.hot[i].w = w;
            p.radius[i] = r;
        }
    }
}

/// splitmix64 (Steele, Lea, Flood, "Fast splittable pseudorandom number generators",
/// 2014): a counter-based hash.
fn mix(z: u64) -> u64 {
    let z = z.wrapping_add(0x9E37_79B9_7F4A_7C15);
    let z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    let z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
    z ^ (z >> 31)
}

/// A number in [0, 1) from a hash.
fn unit(h: u64) -> f32 {
    (h >> 40) as f32 * (1.0 / (1u64 << 24) as f32)
}

/// A pseudo-random permutation of `0..n` (n ≤ 2⁶²) keyed by `key`: a four-round
/// Feistel network on the smallest even number of bits holding n − 1, cycle-walked
/// until the value falls below n (at most four tries on average).
fn permute(x: u64, n: u64, key: u64) -> u64 {
    if n <= 1 {
        return 0;
    }
    let bits = 64 - (n - 1).leading_zeros();
    let half = bits.div_ceil(2);
    let mask = (1u64 << half) - 1;
    let mut v = x;
    loop {
        let (mut l, mut r) = (v >> half, v & mask);
        for round in 0..4u64 {
            let f = mix(r ^ key ^ round.wrapping_mul(0xD1B5_4A32_D192_ED03)) & mask;
            (l, r) = (r, l ^ f);
        }
        v = (l << half) | r;
        if v < n {
            return v;
        }
    }
}

/// The prefix table of a nozzle's disc lattice (see the module doc): entry b is the
/// first point of row b (rows from −J to J), the last entry the lattice size.
fn nozzle_rows(radius: f32, spacing: f32) -> Result<Vec<u32>> {
    let m = (radius / spacing) as f64;
    let rows_half = m.floor() as i64;
    let mut rows = try_with_capacity((2 * rows_half + 2) as usize, "nozzle lattice")?;
    let mut total = 0u32;
    for b in -rows_half..=rows_half {
        rows.push(total);
        let w = ((m * m - (b * b) as f64).max(0.0).sqrt() + 1e-9).floor() as u32;
        total += 2 * w + 1;
    }
    rows.push(total);
    Ok(rows)
}

/// Checks an emitter's desc against its fluid and returns it normalised, with the
/// nozzle lattice.
pub(crate) fn check_emitter(
    desc: &EmitterDesc,
    fluid: &FluidDesc,
) -> Result<(EmitterDesc, Vec<u32>)> {
    let desc = desc.validated()?;
    let rows = match desc.shape {
        EmitterShape::Nozzle { radius } => {
            let s = fluid.spacing;
            if radius > MAX_NOZZLE_SPACINGS * s {
                return Err(Error::invalid(format!(
                    "nozzle radius {radius} m must be at most {MAX_NOZZLE_SPACINGS} times the \
                     fluid's spacing ({} m)",
                    MAX_NOZZLE_SPACINGS * s
                )));
            }
            nozzle_rows(radius, s)?
        }
        EmitterShape::Box { .. } => Vec::new(),
    };
    Ok((desc, rows))
}

/// Where and how an emitter places its particles this step (derived from its desc,
/// its fluid and the world's plane).
struct Frame {
    /// World position of the emitter's centre (on the plane in a planar world).
    origin: Vec3,
    rotation: Quat,
    /// Velocity of every new particle (m/s).
    velocity: Vec3,
    /// Lattice points (nozzle) or cells (box) per cycle.
    size: u64,
    /// Largest rate the shape passes (particles/s).
    flux: f64,
    /// Planar nozzle: the in-plane axis and the direction across it.
    axis: Vec3,
    across: Vec3,
    planar: Option<f32>,
}

impl Emitter {
    fn frame(&self, spacing: f32, planar: Option<f32>) -> Frame {
        let d = &self.desc;
        let rotation = d.rotation;
        let z = rotation * Vec3::Z;
        let mut origin = d.position;
        if let Some(plane) = planar {
            origin.z = plane;
        }
        let mut f = Frame {
            origin,
            rotation,
            velocity: d.speed * z,
            size: 1,
            flux: f64::INFINITY,
            axis: z,
            across: Vec3::ZERO,
            planar,
        };
        match d.shape {
            EmitterShape::Nozzle { .. } => {
                let rows_half = (self.rows.len() as u64).saturating_sub(2) / 2;
                let (size, speed) = match planar {
                    None => (*self.rows.last().unwrap_or(&1) as u64, d.speed),
                    Some(_) => {
                        let inplane = Vec3::new(z.x, z.y, 0.0);
                        let l = inplane.length();
                        if l < 1.0e-6 {
                            (2 * rows_half + 1, 0.0)
                        } else {
                            f.axis = inplane / l;
                            f.across = Vec3::new(-f.axis.y, f.axis.x, 0.0);
                            f.velocity = d.speed * inplane;
                            (2 * rows_half + 1, d.speed * l)
                        }
                    }
                };
                f.size = size.max(1);
                f.flux = speed as f64 * f.size as f64 / spacing as f64;
            }
            EmitterShape::Box { half_extents } => {
                if planar.is_some() {
                    f.velocity.z = 0.0;
                }
                let cells = |h: f32| ((2.0 * h / spacing) as u64).clamp(1, MAX_BOX_CELLS);
                let nz = if planar.is_some() {
                    1
                } else {
                    cells(half_extents.z)
                };
                f.size = cells(half_extents.x) * cells(half_extents.y) * nz;
            }
        }
        f
    }

    /// Position of the particle with sequence number `q`, `ahead` m along a nozzle's
    /// axis from its disc.
    fn point(&self, f: &Frame, spacing: f32, q: u64, ahead: f32) -> Vec3 {
        match self.desc.shape {
            EmitterShape::Nozzle { .. } => {
                let k = q % f.size;
                match f.planar {
                    None => {
                        let rows = &self.rows;
                        let r = rows.partition_point(|&start| start as u64 <= k) - 1;
                        let rows_half = (rows.len() as i64 - 2) / 2;
                        let width = (rows[r + 1] - rows[r]) as i64;
                        let a = (k as i64 - rows[r] as i64) - (width - 1) / 2;
                        let b = r as i64 - rows_half;
                        let local = Vec3::new(a as f32 * spacing, b as f32 * spacing, ahead);
                        f.origin + f.rotation * local
                    }
                    Some(plane) => {
                        let rows_half = ((f.size - 1) / 2) as i64;
                        let a = k as i64 - rows_half;
                        let mut x = f.origin + f.across * (a as f32 * spacing) + f.axis * ahead;
                        x.z = plane;
                        x
                    }
                }
            }
            EmitterShape::Box { half_extents } => {
                let cells = |h: f32| ((2.0 * h / spacing) as u64).clamp(1, MAX_BOX_CELLS);
                let (nx, ny) = (cells(half_extents.x), cells(half_extents.y));
                let key = mix((q / f.size) ^ 0x5EED_F1D0);
                let c = permute(q % f.size, f.size, key);
                let idx = [c % nx, (c / nx) % ny, c / (nx * ny)];
                let n = [nx, ny, f.size / (nx * ny)];
                let h = half_extents.to_array();
                let mut local = [0.0f32; 3];
                for axis in 0..3 {
                    let cell = 2.0 * h[axis] / n[axis] as f32;
                    let jitter =
                        (unit(mix(q.wrapping_mul(3).wrapping_add(axis as u64))) - 0.5) * 0.5 * cell;
                    local[axis] = -h[axis] + (idx[axis] as f32 + 0.5) * cell + jitter;
                }
                if f.planar.is_some() {
                    local[2] = 0.0;
                }
                let mut x = f.origin + f.rotation * Vec3::from_array(local);
                if let Some(plane) = f.planar {
                    x.z = plane;
                }
                x
            }
        }
    }

    /// Emits this step's particles into `fluid` (see the module doc).
    fn emit(
        &mut self,
        fluid: &mut Fluid,
        p: &mut Particles,
        planar: Option<f32>,
        gravity: Vec3,
        dt: f32,
    ) {
        let s = fluid.desc.spacing;
        let f = self.frame(s, planar);
        let rate = (self.desc.rate as f64).min(f.flux);
        if rate <= 0.0 {
            return;
        }
        let carry = self.carry;
        let due = carry + rate * dt as f64;
        let whole = due.floor();
        self.carry = (due - whole).clamp(0.0, 1.0);
        let due = whole as u64;
        if due == 0 {
            return;
        }
        let free = (fluid.capacity() - fluid.count) as u64;
        let fresh = due.min(free);
        let recycled = if fluid.desc.recycle_oldest {
            (due - fresh).min(fluid.count as u64)
        } else {
            0
        };
        fluid.refused += due - fresh - recycled;
        let n = fresh + recycled;
        if n == 0 {
            return;
        }
        // The oldest live particles (largest age, then lowest index), in index order.
        fluid.scratch.clear();
        if recycled > 0 {
            let ages = &fluid.age;
            fluid.scratch.extend(0..fluid.count);
            let k = recycled as usize;
            if k < fluid.scratch.len() {
                fluid.scratch.select_nth_unstable_by(k - 1, |&a, &b| {
                    ages[b as usize]
                        .total_cmp(&ages[a as usize])
                        .then(a.cmp(&b))
                });
                fluid.scratch.truncate(k);
            }
            fluid.scratch.sort_unstable();
        }
        // The speed along the nozzle's axis (its in-plane part in a planar world).
        let speed = f.velocity.length() as f64;
        let (c, dt) = (carry, dt as f64);
        let nozzle = matches!(self.desc.shape, EmitterShape::Nozzle { .. });
        let g = if planar.is_some() {
            Vec3::new(gravity.x, gravity.y, 0.0)
        } else {
            gravity
        };
        let q0 = self.sequence;
        for j in 0..n {
            let q = q0.wrapping_add(j);
            // A nozzle's particle flew t seconds before the step (ballistically).
            let t = if nozzle {
                (dt - (j as f64 + 1.0 - c) / rate).max(0.0) as f32
            } else {
                0.0
            };
            let x = self.point(&f, s, q, (speed * t as f64) as f32) + g * (0.5 * t * t);
            let v = f.velocity + g * t;
            if j < recycled {
                let k = fluid.scratch[j as usize];
                fluid.place(p, k, x, v);
            } else {
                fluid.spawn(p, x, v);
            }
        }
        self.sequence = q0.wrapping_add(n);
        fluid.emitted += n;
        fluid.removed += recycled;
    }
}

impl FluidSet {
    /// The slot of a live fluid.
    pub(crate) fn fluid_slot(&self, id: FluidId) -> Result<usize> {
        Ok(key_in(&self.fluids, id.0, "fluid")?.slot as usize)
    }

    /// A live fluid.
    pub(crate) fn fluid(&self, id: FluidId) -> Result<&Fluid> {
        let k = self.fluid_slot(id)?;
        Ok(self.fluids.items()[k].as_ref().expect("a live slot"))
    }

    /// A live fluid, mutable.
    pub(crate) fn fluid_mut(&mut self, id: FluidId) -> Result<&mut Fluid> {
        let k = self.fluid_slot(id)?;
        Ok(self.fluids.items_mut()[k].as_mut().expect("a live slot"))
    }

    /// Room for one more fluid (outside any step).
    pub(crate) fn reserve_fluid(&mut self) -> Result<()> {
        reserve_slot(&mut self.fluids, "fluids")
    }

    /// Adds a fluid into the first free slot (room reserved by [`Self::reserve_fluid`]).
    pub(crate) fn insert_fluid(&mut self, fluid: Fluid) -> FluidId {
        FluidId(self.fluids.insert(fluid).to_id())
    }

    /// Removes a fluid: its particles are parked for good, its emitters and kill
    /// volumes go, its slot's generation moves on.
    pub(crate) fn remove_fluid(&mut self, id: FluidId, p: &mut Particles) -> Result<()> {
        let slot = self.fluid_slot(id)?;
        let mut f = self.fluids.vacate(slot).expect("a live slot");
        f.clear(p);
        for k in 0..self.emitters.slot_count() {
            if self.emitters.items()[k]
                .as_ref()
                .is_some_and(|e| e.fluid == slot as u32)
            {
                self.emitters.vacate(k);
            }
        }
        for k in 0..self.kill_volumes.slot_count() {
            if self.kill_volumes.items()[k]
                .as_ref()
                .is_some_and(|v| v.fluid == slot as u32)
            {
                self.kill_volumes.vacate(k);
            }
        }
        Ok(())
    }

    /// Adds an emitter to a fluid.
    pub(crate) fn add_emitter(&mut self, id: FluidId, desc: &EmitterDesc) -> Result<EmitterId> {
        let slot = self.fluid_slot(id)?;
        let (desc, rows) = check_emitter(desc, &self.fluid(id)?.desc)?;
        reserve_slot(&mut self.emitters, "emitters")?;
        let e = Emitter {
            desc,
            fluid: slot as u32,
            carry: 0.0,
            sequence: 0,
            rows,
        };
        Ok(EmitterId(self.emitters.insert(e).to_id()))
    }

    /// Moves or retunes an emitter (its carry and sequence stay).
    pub(crate) fn set_emitter(&mut self, id: EmitterId, desc: &EmitterDesc) -> Result<()> {
        let k = key_in(&self.emitters, id.0, "emitter")?;
        let e = self.emitters.get(k).expect("a live slot");
        let fluid = self.fluids.items()[e.fluid as usize]
            .as_ref()
            .expect("an emitter's fluid is live");
        let (desc, rows) = check_emitter(desc, &fluid.desc)?;
        let e = self.emitters.get_mut(k).expect("a live slot");
        e.desc = desc;
        e.rows = rows;
        Ok(())
    }

    /// Removes an emitter.
    pub(crate) fn remove_emitter(&mut self, id: EmitterId) -> Result<()> {
        let k = key_in(&self.emitters, id.0, "emitter")?;
        self.emitters.remove(k);
        Ok(())
    }

    /// Adds a kill volume to a fluid.
    pub(crate) fn add_kill_volume(
        &mut self,
        id: FluidId,
        desc: &KillVolumeDesc,
    ) -> Result<KillVolumeId> {
        let slot = self.fluid_slot(id)?;
        let desc = desc.validated()?;
        reserve_slot(&mut self.kill_volumes, "kill volumes")?;
        let v = KillVolume {
            desc,
            fluid: slot as u32,
        };
        Ok(KillVolumeId(self.kill_volumes.insert(v).to_id()))
    }

    /// Removes a kill volume.
    pub(crate) fn remove_kill_volume(&mut self, id: KillVolumeId) -> Result<()> {
        let k = key_in(&self.kill_volumes, id.0, "kill volume")?;
        self.kill_volumes.remove(k);
        Ok(())
    }

    /// Start of a step: every emitter, in slot order, emits its due particles.
    pub(crate) fn emit(&mut self, p: &mut Particles, planar: Option<f32>, gravity: Vec3, dt: f32) {
        let FluidSet {
            fluids, emitters, ..
        } = self;
        for e in emitters.iter_mut() {
            if let Some(Some(f)) = fluids.items_mut().get_mut(e.fluid as usize) {
                e.emit(f, p, planar, gravity, dt);
            }
        }
    }

    /// End of a step: every live particle ages by `dt`; those past their fluid's
    /// lifetime or inside one of its kill volumes are removed, in particle order.
    pub(crate) fn retire(&mut self, p: &mut Particles, dt: f32) {
        let FluidSet {
            fluids,
            kill_volumes,
            ..
        } = self;
        for (slot, f) in fluids.items_mut().iter_mut().enumerate() {
            let Some(f) = f else {
                continue;
            };
            if f.count == 0 {
                continue;
            }
            for a in &mut f.age[..f.count as usize] {
                *a += dt;
            }
            let mine = |v: &&KillVolume| v.fluid == slot as u32;
            let killing = kill_volumes.iter().any(|v| mine(&v));
            let life = f.desc.lifetime;
            if life <= 0.0 && !killing {
                continue;
            }
            let mut k = 0;
            while k < f.count {
                let old = life > 0.0 && f.age[k as usize] >= life;
                let dies = old || {
                    killing && {
                        let x = p.position((f.first + k) as usize);
                        kill_volumes.iter().filter(mine).any(|v| v.desc.contains(x))
                    }
                };
                if dies {
                    f.remove(p, k);
                } else {
                    k += 1;
                }
            }
        }
    }

    /// Every fluid's mass and volume for a 3D or planar world, and its live
    /// particles' inverse masses (when the world switches dimension).
    pub(crate) fn set_planar(&mut self, p: &mut Particles, planar: bool) {
        for f in self.fluids.iter_mut() {
            let desc = f.desc;
            f.retune(p, desc, planar);
        }
    }
}

fn put_fluid_desc(w: &mut Writer<'_>, d: &FluidDesc) {
    w.put((d.rest_density, d.spacing, d.smoothing_radius, d.capacity));
    w.put((d.relaxation, d.scorr_k, d.scorr_n, d.scorr_dq));
    w.put((d.viscosity, d.vorticity, d.cohesion, d.adhesion));
    w.put((
        d.collision_radius,
        d.lifetime,
        d.recycle_oldest,
        d.coupling_mask,
    ));
}

fn get_fluid_desc(r: &mut Reader<'_>) -> Result<FluidDesc> {
    let (rest_density, spacing, smoothing_radius, capacity) = r.get()?;
    let (relaxation, scorr_k, scorr_n, scorr_dq) = r.get()?;
    let (viscosity, vorticity, cohesion, adhesion) = r.get()?;
    let (collision_radius, lifetime, recycle_oldest, coupling_mask) = r.get()?;
    Ok(FluidDesc {
        rest_density,
        spacing,
        smoothing_radius,
        capacity,
        relaxation,
        scorr_k,
        scorr_n,
        scorr_dq,
        viscosity,
        vorticity,
        cohesion,
        adhesion,
        collision_radius,
        lifetime,
        recycle_oldest,
        coupling_mask,
    })
}

fn put_emitter_desc(w: &mut Writer<'_>, d: &EmitterDesc) {
    match d.shape {
        EmitterShape::Nozzle { radius } => w.put((0u32, Vec3::new(radius, 0.0, 0.0))),
        EmitterShape::Box { half_extents } => w.put((1u32, half_extents)),
    }
    w.put((d.position, d.rotation, d.speed, d.rate));
}

fn get_emitter_desc(r: &mut Reader<'_>) -> Result<EmitterDesc> {
    let (kind, v): (u32, Vec3) = r.get()?;
    let shape = match kind {
        0 => EmitterShape::Nozzle { radius: v.x },
        1 => EmitterShape::Box { half_extents: v },
        _ => return Err(codec::corrupt(format!("emitter shape {kind}"))),
    };
    let (position, rotation, speed, rate) = r.get()?;
    Ok(EmitterDesc {
        shape,
        position,
        rotation,
        speed,
        rate,
    })
}

fn put_kill_desc(w: &mut Writer<'_>, d: &KillVolumeDesc) {
    match *d {
        KillVolumeDesc::Box {
            center,
            rotation,
            half_extents,
        } => w.put((0u32, center, rotation, half_extents)),
        KillVolumeDesc::Sphere { center, radius } => {
            w.put((1u32, center, Quat::IDENTITY, Vec3::new(radius, 0.0, 0.0)))
        }
        KillVolumeDesc::HalfSpace { point, normal } => w.put((2u32, point, Quat::IDENTITY, normal)),
    }
}

fn get_kill_desc(r: &mut Reader<'_>) -> Result<KillVolumeDesc> {
    let (kind, center, rotation, v): (u32, Vec3, Quat, Vec3) = r.get()?;
    Ok(match kind {
        0 => KillVolumeDesc::Box {
            center,
            rotation,
            half_extents: v,
        },
        1 => KillVolumeDesc::Sphere {
            center,
            radius: v.x,
        },
        2 => KillVolumeDesc::HalfSpace {
            point: center,
            normal: v,
        },
        _ => return Err(codec::corrupt(format!("kill volume shape {kind}"))),
    })
}

/// A loaded desc must pass the same checks as an added one (and come back unchanged
/// from them: the saved one was normalised already).
fn same<T: PartialEq>(checked: Result<T>, saved: &T, what: &str) -> Result<()> {
    match checked {
        Ok(c) if c == *saved => Ok(()),
        Ok(_) => Err(codec::corrupt(format!("{what} is not normalised"))),
        Err(e) => Err(codec::corrupt(format!("{what}: {}", e.message))),
    }
}

impl FluidSet {
    /// Snapshot: the fluids (settings, range, count, mass, ages, ρ/ρ₀, counters), the
    /// emitters (settings, fluid, carry, sequence) and the kill volumes, each table with
    /// its slot generations.
    pub(crate) fn save_fluids(&self, w: &mut Writer<'_>) {
        self.fluids.save_interleaved(w, |w, f| {
            put_fluid_desc(w, &f.desc);
            w.put((f.first, f.count, f.mass, f.volume));
            w.put_block_raw(&f.age);
            w.put_block_raw(&f.density_ratio);
            w.put((f.emitted, (f.removed, f.refused)));
        });
        self.emitters.save_interleaved(w, |w, e| {
            put_emitter_desc(w, &e.desc);
            w.put((e.fluid, (e.carry, e.sequence)));
        });
        self.kill_volumes.save_interleaved(w, |w, v| {
            put_kill_desc(w, &v.desc);
            w.put(v.fluid);
        });
    }

    /// Snapshot: reads what [`Self::save_fluids`] wrote, checking every setting as the
    /// API would, every particle range against the particles of `cx` (and against the
    /// other fluids'), every count, age and ρ/ρ₀, and every emitter's and kill volume's
    /// fluid.
    pub(crate) fn load_fluids(&mut self, r: &mut Reader<'_>, cx: &LoadContext<'_>) -> Result<()> {
        let n = cx.hot.len();
        let fluid = |r: &mut Reader<'_>, slot: usize, _generation: u32| -> Result<Fluid> {
            let desc = get_fluid_desc(r)?;
            let what = format!("fluid {slot}");
            desc.validate()
                .and_then(|()| Fluid::check_mass(&desc))
                .map_err(|e| codec::corrupt(format!("{what}: {}", e.message)))?;
            let (first, count, mass, volume): (u32, u32, f32, f32) = r.get()?;
            let cap = desc.capacity;
            codec::ensure(
                first as u64 + cap as u64 <= n as u64 && count <= cap,
                || format!("{what} has particles {first}..+{cap} ({count} live) of {n}"),
            )?;
            let planar = [false, true].map(|p| Fluid::mass_and_volume(&desc, p));
            codec::ensure(planar.contains(&(mass, volume)), || {
                format!("{what} has mass {mass} and volume {volume}")
            })?;
            let mut f = Fluid::new(desc, first, false)?;
            (f.count, f.mass, f.volume) = (count, mass, volume);
            f.age = r.get_block_raw(cap as usize)?;
            f.density_ratio = r.get_block_raw(cap as usize)?;
            for (k, (&a, &d)) in f.age.iter().zip(&f.density_ratio).enumerate() {
                codec::ensure(
                    a.is_finite() && a >= 0.0 && d.is_finite() && d >= 0.0,
                    || format!("{what} particle {k} has age {a} and density ratio {d}"),
                )?;
            }
            (f.emitted, (f.removed, f.refused)) = r.get()?;
            Ok(f)
        };
        let fluids = SlotMap::load_interleaved(r, usize::MAX, "fluid slots", "fluid", fluid)?;
        // No two fluids share a particle.
        let mut ranges: Vec<(u32, u32)> = fluids
            .iter()
            .map(|f| (f.first, f.first + f.capacity()))
            .collect();
        ranges.sort_unstable();
        for pair in ranges.windows(2) {
            codec::ensure(pair[0].1 <= pair[1].0, || {
                format!(
                    "fluid particle ranges {:?} and {:?} overlap",
                    pair[0], pair[1]
                )
            })?;
        }
        let live = |k: u32| matches!(fluids.items().get(k as usize), Some(Some(_)));
        let emitter = |r: &mut Reader<'_>, k: usize, _generation: u32| -> Result<Emitter> {
            let desc = get_emitter_desc(r)?;
            let (fluid, (carry, sequence)): (u32, (f64, u64)) = r.get()?;
            let what = format!("emitter {k}");
            codec::ensure(live(fluid), || format!("{what} names fluid slot {fluid}"))?;
            codec::ensure((0.0..=1.0).contains(&carry), || {
                format!("{what} carries {carry} particles")
            })?;
            let fdesc = &fluids.items()[fluid as usize].as_ref().expect("live").desc;
            let (checked, rows) = match check_emitter(&desc, fdesc) {
                Ok((c, rows)) => (Ok(c), rows),
                Err(e) => (Err(e), Vec::new()),
            };
            same(checked, &desc, &what)?;
            Ok(Emitter {
                desc,
                fluid,
                carry,
                sequence,
                rows,
            })
        };
        let emitters = SlotMap::load_interleaved(r, usize::MAX, "emitters", "emitter", emitter)?;
        let kill = |r: &mut Reader<'_>, k: usize, _generation: u32| -> Result<KillVolume> {
            let desc = get_kill_desc(r)?;
            let fluid: u32 = r.get()?;
            let what = format!("kill volume {k}");
            codec::ensure(live(fluid), || format!("{what} names fluid slot {fluid}"))?;
            same(desc.validated(), &desc, &what)?;
            Ok(KillVolume { desc, fluid })
        };
        let kill_volumes =
            SlotMap::load_interleaved(r, usize::MAX, "kill volumes", "kill volume", kill)?;
        self.fluids = fluids;
        self.emitters = emitters;
        self.kill_volumes = kill_volumes;
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_permutation_visits_every_cell_once() {
        for n in [1u64, 2, 3, 7, 64, 100, 1000, 4097] {
            for key in [0u64, 1, 0xDEAD_BEEF] {
                let mut seen = vec![false; n as usize];
                for x in 0..n {
                    let y = permute(x, n, key) as usize;
                    assert!(!seen[y], "n {n} key {key}: {y} twice");
                    seen[y] = true;
                }
            }
        }
    }

    #[test]
    fn the_nozzle_lattice_holds_the_points_of_the_disc() {
        for (radius, spacing, want) in [(0.01, 0.05, 1u32), (0.05, 0.05, 5), (0.1, 0.05, 13)] {
            let rows = nozzle_rows(radius, spacing).unwrap();
            assert_eq!(*rows.last().unwrap(), want, "r {radius}");
        }
        // Gauss's circle problem: about π (r/s)² points.
        let rows = nozzle_rows(2.0, 0.05).unwrap();
        let n = *rows.last().unwrap() as f32;
        let area = std::f32::consts::PI * 40.0 * 40.0;
        assert!((n - area).abs() < 0.02 * area, "{n} vs {area}");
    }

    /// Saves `set` and loads it back against `particles` particles.
    fn round_trip(set: &FluidSet, particles: usize) -> Result<FluidSet> {
        use crate::snapshot::codec::{Count, Fill};
        let mut count = Count::default();
        set.save_fluids(&mut Writer::new(&mut count));
        let mut buf = vec![0u8; count.0];
        let mut fill = Fill {
            buf: &mut buf,
            pos: 0,
            hash: crate::snapshot::xxh64::Xxh64::new(0),
        };
        set.save_fluids(&mut Writer::new(&mut fill));
        let hot = vec![Vec4::ZERO; particles];
        let cx = LoadContext {
            hot: &hot,
            jacobi: false,
        };
        let mut loaded = FluidSet::default();
        let mut r = Reader::new(&buf);
        loaded.load_fluids(&mut r, &cx)?;
        assert_eq!(r.remaining(), 0);
        Ok(loaded)
    }

    /// A loaded fluid set equals the saved one, and every range, count, carry and
    /// handle it holds is checked against the particles loaded.
    #[test]
    fn loading_checks_ranges_counts_and_carries() {
        let mut set = FluidSet::default();
        let desc = FluidDesc {
            capacity: 10,
            ..FluidDesc::default()
        };
        for first in [0, 10] {
            set.reserve_fluid().unwrap();
            let mut f = Fluid::new(desc, first, false).unwrap();
            f.count = 4;
            f.age[2] = 0.5;
            set.insert_fluid(f);
        }
        let id = FluidId(
            Key {
                slot: 1,
                generation: 0,
            }
            .to_id(),
        );
        set.add_emitter(id, &EmitterDesc::default()).unwrap();
        set.add_kill_volume(
            id,
            &KillVolumeDesc::Sphere {
                center: Vec3::ZERO,
                radius: 1.0,
            },
        )
        .unwrap();
        let back = round_trip(&set, 20).unwrap();
        assert_eq!(back.fluids.slot_count(), 2);
        let f = back.fluids.items()[1].as_ref().unwrap();
        assert_eq!((f.first, f.count, f.age[2]), (10, 4, 0.5));
        assert_eq!(
            back.emitters.items()[0].as_ref().unwrap().rows,
            vec![0, 1, 4, 9, 12, 13]
        );
        // Fewer particles than the second fluid's range.
        let e = round_trip(&set, 19).err().unwrap();
        assert!(e.message.contains("fluid 1"), "{}", e.message);
        // A count past the capacity, a carry outside [0, 1], overlapping ranges.
        set.fluids.items_mut()[1].as_mut().unwrap().count = 11;
        assert!(round_trip(&set, 20).is_err());
        set.fluids.items_mut()[1].as_mut().unwrap().count = 4;
        set.emitters.items_mut()[0].as_mut().unwrap().carry = 2.0;
        assert!(round_trip(&set, 20).is_err());
        set.emitters.items_mut()[0].as_mut().unwrap().carry = 0.5;
        set.fluids.items_mut()[1].as_mut().unwrap().first = 5;
        let e = round_trip(&set, 20).err().unwrap();
        assert!(e.message.contains("overlap"), "{}", e.message);
        set.fluids.items_mut()[1].as_mut().unwrap().first = 10;
        // An emitter of a removed fluid.
        set.fluids.items_mut()[1] = None;
        assert!(round_trip(&set, 20).is_err());
    }

    #[test]
    fn ids_name_their_slot_and_generation() {
        for (slot, generation) in [(0u32, 0u32), (5, 7), (123_456, u32::MAX)] {
            let key = Key { slot, generation };
            assert_eq!(Key::from_id(key.to_id()), key);
        }
        assert_eq!(Key::from_id(0).slot, u32::MAX);
    }
}

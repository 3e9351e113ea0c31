//! The emitters' geometry: the nozzle's lattice and the box's permuted cells (see the
//! module doc of `fluid::emit`), and the emission of one emitter in a step.

use super::*;
use glam::Quat;

pub use crate::limits::MAX_NOZZLE_SPACINGS;

/// Largest number of cells per axis of a box emitter (coarser cells beyond).
const MAX_BOX_CELLS: u64 = 1 << 20;

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

/// An emitter's stream: where, how fast and how many particles per second it makes
/// (its desc), the fraction of a particle carried to the next step and the emission
/// counter; the geometry and schedule of the module doc, for a given spacing. A fluid
/// emitter streams at its fluid's spacing, a grain emitter (`fluid::grains`) at its
/// grain's diameter.
pub(crate) struct Stream {
    pub desc: EmitterDesc,
    /// Particles due but not yet emitted (fraction carried between steps, in [0, 1)).
    pub carry: f64,
    /// Emission counter (picks the lattice point or pseudo-random point of the next
    /// particle, deterministically).
    pub sequence: u64,
    /// A nozzle's disc lattice: the first lattice point of each row (prefix counts,
    /// rows + 1 entries; empty for a box). Built outside the step.
    pub rows: Vec<u32>,
}

/// Checks an emitter's desc for a stream of spacing `spacing` (named `what` in the
/// message: "the fluid's spacing") and returns it normalised, with the nozzle lattice.
pub(crate) fn check_stream(
    desc: &EmitterDesc,
    spacing: f32,
    what: &str,
) -> Result<(EmitterDesc, Vec<u32>)> {
    let desc = desc.validated()?;
    let rows = match desc.shape {
        EmitterShape::Nozzle { radius } => {
            let s = spacing;
            if radius > MAX_NOZZLE_SPACINGS * s {
                return Err(Error::invalid(format!(
                    "nozzle radius {radius} m must be at most {MAX_NOZZLE_SPACINGS} times \
                     {what} ({} m)",
                    MAX_NOZZLE_SPACINGS * s
                )));
            }
            nozzle_rows(radius, s)?
        }
        EmitterShape::Box { .. } => Vec::new(),
    };
    Ok((desc, rows))
}

/// Checks an emitter's desc against its fluid and returns it normalised, with the
/// nozzle lattice.
pub(crate) fn check_emitter(
    desc: &EmitterDesc,
    fluid: &FluidDesc,
) -> Result<(EmitterDesc, Vec<u32>)> {
    check_stream(desc, fluid.spacing, "the fluid's spacing")
}

impl Stream {
    /// A new stream (nothing carried, sequence 0) of a checked desc and its lattice.
    pub(crate) fn new(desc: EmitterDesc, rows: Vec<u32>) -> Stream {
        Stream {
            desc,
            carry: 0.0,
            sequence: 0,
            rows,
        }
    }
}

/// This step's emission of a stream: how many particles are due and what places them
/// ([`Stream::batch`], [`Stream::launch`]).
pub(crate) struct Batch {
    f: Frame,
    spacing: f32,
    rate: f64,
    /// The carry before the step.
    carry: f64,
    dt: f64,
    /// Gravity (its in-plane part in a planar world).
    g: Vec3,
    /// Speed along the nozzle's axis (its in-plane part in a planar world).
    speed: f64,
    nozzle: bool,
    /// Particles due this step (at least 1).
    pub due: u64,
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

impl Stream {
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

    /// Starts this step's emission at spacing `spacing`: the particles due (the carry
    /// moves on), or None when none is due.
    pub(crate) fn batch(
        &mut self,
        spacing: f32,
        planar: Option<f32>,
        gravity: Vec3,
        dt: f32,
    ) -> Option<Batch> {
        let f = self.frame(spacing, planar);
        let rate = (self.desc.rate as f64).min(f.flux);
        if rate <= 0.0 {
            return None;
        }
        let carry = self.carry;
        let due = carry + rate * dt as f64;
        let whole = due.floor();
        self.carry = (due - whole).clamp(0.0, 1.0);
        let due = whole as u64;
        if due == 0 {
            return None;
        }
        // The speed along the nozzle's axis (its in-plane part in a planar world).
        let speed = f.velocity.length() as f64;
        let nozzle = matches!(self.desc.shape, EmitterShape::Nozzle { .. });
        let g = if planar.is_some() {
            Vec3::new(gravity.x, gravity.y, 0.0)
        } else {
            gravity
        };
        Some(Batch {
            f,
            spacing,
            rate,
            carry,
            dt: dt as f64,
            g,
            speed,
            nozzle,
            due,
        })
    }

    /// Position (m) and velocity (m/s) of the `j`-th particle (0-based) of this step's
    /// batch: sequence number `sequence + j`, a nozzle's after its flight since it
    /// left the disc (see the module doc).
    pub(crate) fn launch(&self, b: &Batch, j: u64) -> (Vec3, Vec3) {
        let q = self.sequence.wrapping_add(j);
        // A nozzle's particle flew t seconds before the step (ballistically).
        let t = if b.nozzle {
            (b.dt - (j as f64 + 1.0 - b.carry) / b.rate).max(0.0) as f32
        } else {
            0.0
        };
        let x = self.point(&b.f, b.spacing, q, (b.speed * t as f64) as f32) + b.g * (0.5 * t * t);
        (x, b.f.velocity + b.g * t)
    }

    /// A deterministic offset across a nozzle's stream (0 for a box, whose points are
    /// jittered already) of up to `amount` (m) along each of the disc's local x and y
    /// (along the segment in a planar world), hashed from the sequence number of the
    /// `j`-th particle of the batch: grains from one lattice point then do not land
    /// exactly on one another and balance in a column.
    pub(crate) fn scatter(&self, b: &Batch, j: u64, amount: f32) -> Vec3 {
        if !b.nozzle {
            return Vec3::ZERO;
        }
        let q = self.sequence.wrapping_add(j);
        let u = |axis: u64| {
            let h = mix(q.wrapping_mul(3).wrapping_add(axis) ^ 0x5CA7_7E25);
            (unit(h) - 0.5) * 2.0 * amount
        };
        match b.f.planar {
            None => b.f.rotation * Vec3::new(u(0), u(1), 0.0),
            Some(_) => b.f.across * u(0),
        }
    }

    /// Ends this step's emission: `n` particles were placed.
    pub(crate) fn advance(&mut self, n: u64) {
        self.sequence = self.sequence.wrapping_add(n);
    }
}

impl Emitter {
    /// Emits this step's particles into `fluid` (see the module doc).
    pub(super) fn emit(
        &mut self,
        fluid: &mut Fluid,
        p: &mut Particles,
        planar: Option<f32>,
        gravity: Vec3,
        dt: f32,
    ) {
        let s = fluid.desc.spacing;
        let Some(batch) = self.stream.batch(s, planar, gravity, dt) else {
            return;
        };
        let due = batch.due;
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
        for j in 0..n {
            let (x, v) = self.stream.launch(&batch, j);
            if j < recycled {
                let k = fluid.scratch[j as usize];
                fluid.place(p, k, x, v);
            } else {
                fluid.spawn(p, x, v);
            }
        }
        self.stream.advance(n);
        fluid.emitted += n;
        fluid.removed += recycled;
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
}

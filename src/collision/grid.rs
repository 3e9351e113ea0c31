//! Particle–particle contacts: a dense spatial hash grid rebuilt once per step, fixed
//! neighbour lists, and a Jacobi projection of the unilateral contact constraints.
//!
//! * **Grid** (once per step): cell size = 2 r_max + margin, where the margin
//!   `2 max|v| dt + |g| dt²`, clamped to [r_max/2, 2 r_max], covers how far two
//!   particles close in on each other during the step (contacts push particles too,
//!   hence the floor).
//!   Each particle with a radius hashes its cell (Teschner et al. 2003, Müller's dense
//!   hash: a table of `2n` buckets, parallel); a counting sort by bucket (serial,
//!   stable, so the order is fixed) lists the particles of each bucket.
//! * **Neighbours** (once per step, parallel per particle): the 27 cells around the
//!   particle (the neighbour grid of the UE 4.26 Niagara Advanced PBD sample (Epic Games, 2020)), kept when the pair passes the collision
//!   filter and lies within `r_i + r_j + margin`; at most [`MAX_NEIGHBOURS`] per
//!   particle, in a fixed order (offsets, then bucket order), duplicates from hash
//!   collisions removed.
//! * **Project** (each iteration): `C = |x_i − x_j| − (r_i + r_j) ≥ 0`. Particle i
//!   gathers `s_i · max(−C, 0) · n` over its neighbours, `n = (x_i − x_j)/|x_i − x_j|`,
//!   with its share `s_i = w_i / (w_i + w_j)` (mass weighting), and moves by the
//!   average over its active contacts (the relaxation of the UE 4.26 Niagara Advanced PBD sample (Epic Games, 2020)). Unyielding (the UE 4.26 Niagara Advanced PBD sample (Epic Games, 2020)):
//!   when only j is unyielding, `s_i = lerp(s_i, 1, u_j)`; when only i is,
//!   `s_i = lerp(s_i, 0, u_i)` (so u = 1 pushes others without being pushed). Every
//!   particle reads the positions of the previous iteration and writes only its own
//!   correction, so the result does not depend on the thread count.

use crate::error::{try_reserve, Result};
use crate::math::Vec3;
use crate::particles::{separation, Particles};
use crate::solver::parallel::{DisjointSlice, Executor};

/// Neighbours one particle keeps per step.
pub const MAX_NEIGHBOURS: usize = 32;

const EMPTY: u32 = u32::MAX;

/// Buffers of the particle–particle pass, reused from step to step.
#[derive(Default)]
pub(crate) struct ParticleContacts {
    active: bool,
    cell_size: f32,
    margin: f32,
    bucket_of: Vec<u32>,
    bucket_start: Vec<u32>,
    sorted: Vec<u32>,
    neighbours: Vec<u32>,
    neighbour_count: Vec<u8>,
    delta: Vec<Vec3>,
}

/// Cells up to this coordinate (in cells) use the `f32` product of the rounded
/// position: within it the rounding error of that product is below 1/4 cell. Beyond
/// it the cell comes from the exact `f64` position `base + hot`.
const NEAR_CELLS: f32 = (1 << 22) as f32;

/// Bound of a cell coordinate: `c ± 1` never overflows `i64`.
const FAR_CELLS: f64 = (1u64 << 62) as f64;

/// The cell of particle `i`, in `i64` so that no accepted position overflows it.
///
/// A particle far from the origin with a small radius (1e9 m with a radius of 1 mm is
/// 4e11 cells) used to overflow the `i32` cells: a panic in debug builds on `c + 1`, and
/// wrapped cells in release builds (missed contacts). Now: near the origin (below
/// [`NEAR_CELLS`], every ordinary scene) the cell is computed exactly as before, so
/// results are unchanged; farther out it is `floor((base + hot) / cell)` in `f64`, where
/// two particles in contact (true separation below one cell, possibly below the `f32`
/// spacing of their coordinates, which the split storage keeps) get cells at most 1
/// apart, clamped to ±2^62 so that the neighbour offsets cannot overflow.
#[inline]
fn cell_of(particles: &Particles, i: usize, inv_cell: f32) -> [i64; 3] {
    let c = (particles.position(i) * inv_cell).floor();
    if c.abs().max_element() < NEAR_CELLS {
        return [c.x as i64, c.y as i64, c.z as i64];
    }
    let (b, h) = (particles.base[i], particles.hot[i]);
    let far = |b: f32, h: f32| -> i64 {
        let x = ((b as f64 + h as f64) * inv_cell as f64).floor();
        // NaN (0 · ∞ for a cell of denormal size) lands in cell 0, consistently.
        if x.is_nan() {
            0
        } else {
            x.clamp(-FAR_CELLS, FAR_CELLS) as i64
        }
    };
    [far(b.x, h.x), far(b.y, h.y), far(b.z, h.z)]
}

/// Bucket of a cell. The coordinates are deliberately truncated to `i32` (wrapping):
/// cells within `i32` hash exactly as they always did, and distant cells that share
/// their low 32 bits only share a bucket, like any hash collision — candidates are
/// still checked by distance, so nothing is missed and nothing spurious is kept.
#[inline]
fn hash(c: [i64; 3], mask: u32) -> u32 {
    let c = c.map(|v| v as i32);
    let h = (c[0].wrapping_mul(92_837_111))
        ^ (c[1].wrapping_mul(689_287_499))
        ^ (c[2].wrapping_mul(283_923_481));
    (h as u32) & mask
}

impl ParticleContacts {
    /// Builds the grid and the neighbour lists for a step of `dt` seconds. Allocates
    /// only when the particle count grew since the last step.
    pub(crate) fn begin_step(
        &mut self,
        particles: &Particles,
        dt: f32,
        gravity: Vec3,
        exec: &Executor,
    ) -> Result<()> {
        let n = particles.len();
        let mut r_max = 0.0f32;
        let mut v_max = 0.0f32;
        for i in 0..n {
            let r = particles.radius[i];
            if r > 0.0 {
                r_max = r_max.max(r);
                v_max = v_max.max(particles.velocity[i].length());
            }
        }
        self.active = r_max > 0.0;
        if !self.active {
            return Ok(());
        }
        self.margin =
            (2.0 * v_max * dt + gravity.length() * dt * dt).clamp(0.5 * r_max, 2.0 * r_max);
        self.cell_size = 2.0 * r_max + self.margin;
        let table = (2 * n).next_power_of_two().max(64);
        if self.bucket_of.len() < n {
            let grow = n - self.bucket_of.len();
            try_reserve(&mut self.bucket_of, grow, "collision grid")?;
            try_reserve(&mut self.sorted, grow, "collision grid")?;
            try_reserve(&mut self.neighbour_count, grow, "neighbour lists")?;
            try_reserve(&mut self.delta, grow, "contact corrections")?;
            try_reserve(
                &mut self.neighbours,
                grow * MAX_NEIGHBOURS,
                "neighbour lists",
            )?;
            self.bucket_of.resize(n, EMPTY);
            self.sorted.resize(n, 0);
            self.neighbour_count.resize(n, 0);
            self.delta.resize(n, Vec3::ZERO);
            self.neighbours.resize(n * MAX_NEIGHBOURS, 0);
        }
        if self.bucket_start.len() < table + 1 {
            let grow = table + 1 - self.bucket_start.len();
            try_reserve(&mut self.bucket_start, grow, "collision grid")?;
            self.bucket_start.resize(table + 1, 0);
        }
        let mask = (table - 1) as u32;
        let inv_cell = 1.0 / self.cell_size;
        // Hash every particle's cell (parallel).
        {
            let bucket_of = DisjointSlice::new(&mut self.bucket_of);
            exec.for_ranges(n, |range| {
                for i in range {
                    let b = if particles.radius[i] > 0.0 {
                        hash(cell_of(particles, i, inv_cell), mask)
                    } else {
                        EMPTY
                    };
                    // SAFETY: each i is visited by exactly one range.
                    unsafe { bucket_of.set(i, b) };
                }
            });
        }
        // Counting sort by bucket (serial, stable).
        let starts = &mut self.bucket_start[..table + 1];
        starts.fill(0);
        for &b in &self.bucket_of[..n] {
            if b != EMPTY {
                starts[b as usize + 1] += 1;
            }
        }
        for k in 0..table {
            starts[k + 1] += starts[k];
        }
        let mut fill_count = 0usize;
        for i in 0..n {
            let b = self.bucket_of[i];
            if b != EMPTY {
                // starts[b] is used as the insertion cursor, restored below.
                let at = starts[b as usize] as usize;
                self.sorted[at] = i as u32;
                starts[b as usize] += 1;
                fill_count += 1;
            }
        }
        // Restore the starts: after the fill, starts[b] is the end of bucket b.
        for k in (1..=table).rev() {
            starts[k] = starts[k - 1];
        }
        starts[0] = 0;
        debug_assert_eq!(starts[table] as usize, fill_count);
        // Neighbour lists (parallel per particle).
        let (starts, sorted, bucket_of) = (&self.bucket_start, &self.sorted, &self.bucket_of);
        let margin = self.margin;
        let neighbours = DisjointSlice::new(&mut self.neighbours);
        let counts = DisjointSlice::new(&mut self.neighbour_count);
        let (hot, base) = (&particles.hot, &particles.base);
        exec.for_ranges(n, |range| {
            for i in range {
                let mut k = 0usize;
                if bucket_of[i] != EMPTY && hot[i].w != 0.0 {
                    let c = cell_of(particles, i, inv_cell);
                    let (ri, fi) = (particles.radius[i], particles.filter[i]);
                    let first = i * MAX_NEIGHBOURS;
                    'cells: for dx in -1..=1 {
                        for dy in -1..=1 {
                            for dz in -1..=1 {
                                let b = hash([c[0] + dx, c[1] + dy, c[2] + dz], mask) as usize;
                                for &j in &sorted[starts[b] as usize..starts[b + 1] as usize] {
                                    let j = j as usize;
                                    if j == i || !fi.collides(&particles.filter[j]) {
                                        continue;
                                    }
                                    let reach = ri + particles.radius[j] + margin;
                                    let sep = separation(base[i], base[j], hot[i], hot[j]);
                                    if sep.length_squared() >= reach * reach {
                                        continue;
                                    }
                                    // SAFETY: slots first..first+MAX_NEIGHBOURS belong to
                                    // particle i, visited by this range only.
                                    let dup = (0..k)
                                        .any(|m| unsafe { neighbours.get(first + m) } == j as u32);
                                    if dup {
                                        continue;
                                    }
                                    // SAFETY: as above.
                                    unsafe { neighbours.set(first + k, j as u32) };
                                    k += 1;
                                    if k == MAX_NEIGHBOURS {
                                        break 'cells;
                                    }
                                }
                            }
                        }
                    }
                }
                // SAFETY: each i is visited by exactly one range.
                unsafe { counts.set(i, k as u8) };
            }
        });
        Ok(())
    }

    /// One Jacobi projection of all particle–particle contacts.
    pub(crate) fn project(&mut self, particles: &mut Particles, exec: &Executor) {
        if !self.active {
            return;
        }
        let n = particles.len();
        {
            let (hot, base) = (&particles.hot, &particles.base);
            let (radius, unyielding) = (&particles.radius, &particles.unyielding);
            let (neighbours, counts) = (&self.neighbours, &self.neighbour_count);
            let delta = DisjointSlice::new(&mut self.delta);
            exec.for_ranges(n, |range| {
                for i in range {
                    let k = counts[i] as usize;
                    let mut acc = Vec3::ZERO;
                    let mut active = 0u32;
                    let (pi, ui) = (hot[i], unyielding[i]);
                    for &j in &neighbours[i * MAX_NEIGHBOURS..i * MAX_NEIGHBOURS + k] {
                        let j = j as usize;
                        let pj = hot[j];
                        let sep = separation(base[i], base[j], pi, pj);
                        let dist = sep.length();
                        let overlap = radius[i] + radius[j] - dist;
                        if overlap <= 0.0 || dist <= 1.0e-9 {
                            continue;
                        }
                        let w_sum = pi.w + pj.w;
                        let mut share = pi.w / w_sum;
                        let uj = unyielding[j];
                        if uj > 0.0 && ui == 0.0 {
                            share += (1.0 - share) * uj;
                        } else if ui > 0.0 && uj == 0.0 {
                            share -= share * ui;
                        }
                        acc += sep * (share * overlap / dist);
                        active += 1;
                    }
                    let d = if active > 0 {
                        acc / active as f32
                    } else {
                        Vec3::ZERO
                    };
                    // SAFETY: each i is visited by exactly one range.
                    unsafe { delta.set(i, d) };
                }
            });
        }
        let delta = &self.delta;
        let hot = DisjointSlice::new(&mut particles.hot);
        exec.for_ranges(n, |range| {
            for i in range {
                let d = delta[i];
                if d != Vec3::ZERO {
                    // SAFETY: each i is visited by exactly one range.
                    unsafe { hot.set(i, hot.get(i) + d.extend(0.0)) };
                }
            }
        });
    }
}

//! The grid and the neighbour lists of a substep (see `fluid::grid` for the layouts):
//! the cells of the fluid particles and the coupled solids, their stable sort by
//! bucket, the gather into slot order and each slot's list, in two parallel passes over
//! the same chunks of slots.

use super::{prefetch_particle, DensitySolver, Params, PREFETCH, SLOT_CHUNK, SOLID};
use crate::collision::colliders::Colliders;
use crate::fluid::grid::{cell_of, choose_layout, Layout};
use crate::fluid::Fluid;
use crate::kernels::scan::fluid::{scan_runs, ScanKernel};
use crate::math::{Vec3, Vec3A};
use crate::particles::Particles;
use crate::solver::parallel::{Blocks, Executor, Rows};
use crate::spatial::sort_by_bucket;

impl DensitySolver {
    /// The grid and the neighbour lists of a substep, from the predicted positions.
    pub(super) fn build(
        &mut self,
        fluids: &[Option<Fluid>],
        particles: &Particles,
        colliders: &Colliders,
        exec: &Executor,
    ) {
        // The input: live fluid particles (fluids in slot order), then the solids.
        self.src.clear();
        self.src_class.clear();
        for (k, f) in fluids.iter().enumerate() {
            if let Some(f) = f {
                self.src.extend(f.first..f.first + f.count);
                self.src_class
                    .extend(std::iter::repeat_n(k as u32, f.count as usize));
            }
        }
        for &i in &self.solids {
            self.src.push(i);
            self.src_class.push(SOLID);
        }
        // Their solid forces start again.
        for &i in &self.solids {
            self.force[i as usize] = Vec3::ZERO;
        }
        self.force_dirty = !self.solids.is_empty();
        let m = self.src.len();
        if m == 0 {
            self.layout = Layout::Empty;
            return;
        }
        // The largest h of the fluids with live particles (the classes of the input).
        let h_max = fluids
            .iter()
            .enumerate()
            .filter(|(_, f)| f.as_ref().is_some_and(|f| f.count > 0))
            .fold(0.0f32, |a, (c, _)| a.max(self.params[c].h));
        self.inv_cell = 1.0 / h_max;
        // The first input particle's base, or the first finite one: a step that met a
        // non-finite value builds its grid before it recovers the body, and the grid
        // (which the render readbacks reuse after the step) must keep a finite origin.
        self.origin = self.src[..m]
            .iter()
            .map(|&i| particles.base[i as usize])
            .find(|b| b.is_finite())
            .unwrap_or(Vec3A::ZERO);
        let origin = self.origin;
        let position = |i: usize| -> Vec3 {
            ((particles.base[i] - origin) + Vec3A::from_vec4(particles.hot[i])).into()
        };
        // Cells and their box (parallel per chunk; min and max do not depend on the
        // order), then the buckets.
        let threads = Self::threads(exec, m);
        let chunks = m.div_ceil(SLOT_CHUNK);
        let inv_cell = self.inv_cell;
        {
            let src = &self.src[..m];
            let parts = (
                Blocks::new(&mut self.src_cell[..m], SLOT_CHUNK),
                Rows::new(&mut self.chunk_box[..chunks]),
            );
            exec.for_items(threads, parts, |c, (cells, boxes)| {
                let (mut lo, mut hi) = ([i32::MAX; 3], [i32::MIN; 3]);
                let first = c * SLOT_CHUNK;
                let end = (first + SLOT_CHUNK).min(m);
                for (out, &i) in cells.iter_mut().zip(&src[first..end]) {
                    let cell = cell_of(position(i as usize).to_array(), inv_cell);
                    for d in 0..3 {
                        lo[d] = lo[d].min(cell[d]);
                        hi[d] = hi[d].max(cell[d]);
                    }
                    *out = cell;
                }
                boxes[0] = (lo, hi);
            });
        }
        let (mut lo, mut hi) = ([i32::MAX; 3], [i32::MIN; 3]);
        for (l, h) in &self.chunk_box[..chunks] {
            for d in 0..3 {
                lo[d] = lo[d].min(l[d]);
                hi[d] = hi[d].max(h[d]);
            }
        }
        let (layout, table) = choose_layout(m, lo, hi, &self.src_cell[..m], &mut self.rows);
        self.layout = layout;
        {
            let (cells, rows) = (&self.src_cell[..m], &self.rows[..]);
            let buckets = Blocks::new(&mut self.src_bucket[..m], SLOT_CHUNK);
            exec.for_items(threads, buckets, |c, buckets| {
                let first = c * SLOT_CHUNK;
                let end = (first + SLOT_CHUNK).min(m);
                for (out, &cell) in buckets.iter_mut().zip(&cells[first..end]) {
                    *out = layout.bucket(rows, cell);
                }
            });
        }
        // Counting sort by bucket (stable).
        let order = &mut self.order;
        sort_by_bucket(
            &self.src_bucket[..m],
            &mut self.bucket_start[..table + 1],
            |a, at| order[at as usize] = a as u32,
        );
        // Gather into slot order, then the lists (parallel, per chunk of slots): two
        // passes over the same chunks, the second reading what the first wrote.
        let this = &mut *self;
        let (src, src_class, order) = (&this.src[..m], &this.src_class[..m], &this.order[..m]);
        let params = &this.params;
        let kernel = this.kernel;
        let scan_kernel = ScanKernel::of(kernel);
        let starts = &this.bucket_start[..table + 1];
        let rows = &this.rows[..];
        let planar = this.planar;
        let uniform = this.uniform;
        // A solid slot keeps as many neighbours as the most any fluid's slot keeps.
        let solid_cap = fluids
            .iter()
            .enumerate()
            .filter(|(_, f)| f.as_ref().is_some_and(|f| f.count > 0))
            .fold(1, |a, (c, _)| a.max(params[c].listed));
        // The slot-to-particle map, rebuilt by the gather and checked one to one
        // below (the passes write each slot's particle through it).
        let (particle, slot_of) = this.particle.edit();
        particle.clear();
        particle.resize(m, 0);
        {
            // Slot k's records (chunk c's blocks), and the chunk's wall buffer.
            let parts = (
                (
                    Blocks::new(&mut this.xs[..m], SLOT_CHUNK),
                    Blocks::new(&mut this.ys[..m], SLOT_CHUNK),
                    Blocks::new(&mut this.zs[..m], SLOT_CHUNK),
                    Blocks::new(&mut particle[..m], SLOT_CHUNK),
                ),
                (
                    Blocks::new(&mut this.pos[..m], SLOT_CHUNK),
                    Blocks::new(&mut this.class[..m], SLOT_CHUNK),
                    Blocks::new(&mut this.inv_mass[..m], SLOT_CHUNK),
                    Blocks::new(&mut this.cell[..m], SLOT_CHUNK),
                ),
                (
                    Blocks::new(&mut this.layers[..m], SLOT_CHUNK),
                    Blocks::new(&mut this.wall_end[..m], SLOT_CHUNK),
                    Rows::new(&mut this.walls[..chunks]),
                ),
            );
            exec.for_items(threads, parts, |c, chunk| {
                let (
                    (xs, ys, zs, particle),
                    (pos, class, inv_mass, cell),
                    (layers, wall_end, wbuf),
                ) = chunk;
                let wbuf = &mut wbuf[0];
                wbuf.clear();
                let first = c * SLOT_CHUNK;
                let end = (first + SLOT_CHUNK).min(m);
                for k in first..end {
                    // The inputs run in world order, the slots in cell order: a miss
                    // per slot without the prefetch.
                    if k + PREFETCH < end {
                        let ahead = order[k + PREFETCH] as usize;
                        prefetch_particle(particles.hot.as_ptr(), &particles.base, src, ahead, m);
                    }
                    let a = order[k] as usize;
                    let i = src[a] as usize;
                    let cl = src_class[a];
                    let v = if cl == SOLID {
                        // A solid's rest volume: a cube of its diameter.
                        let d = 2.0 * particles.radius[i];
                        if planar {
                            d * d
                        } else {
                            d * d * d
                        }
                    } else {
                        params[cl as usize].volume
                    };
                    let h = particles.hot[i];
                    let x = (particles.base[i] - origin) + Vec3A::from_vec4(h);
                    let j = k - first;
                    xs[j] = x.x;
                    ys[j] = x.y;
                    zs[j] = x.z;
                    particle[j] = i as u32;
                    pos[j] = x.extend(v);
                    class[j] = cl;
                    inv_mass[j] = h.w;
                    // The input's cell again (the same arithmetic on the same
                    // position) rather than one more random read.
                    cell[j] = cell_of(x.to_array(), inv_cell);
                    if !uniform {
                        // Read by the general lists only (a solid's coupling).
                        layers[j] = particles.filter[i].layers;
                    }
                    if cl != SOLID {
                        // The surfaces near it, in the slot frame: the distance of x is
                        // n·(x − (base − origin)) − (offset − r).
                        let b = particles.base[i] - origin;
                        let r = particles.radius[i];
                        for (n, offset) in colliders.surfaces(i) {
                            let n = Vec3A::from(n);
                            wbuf.push(n.extend(n.dot(b) + (offset - r)));
                        }
                    }
                    wall_end[j] = wbuf.len() as u32;
                }
            });
        }
        for (k, &i) in particle.iter().enumerate() {
            slot_of[i as usize] = k as u32;
        }
        this.particle.check();
        let (pos, cell, class, layers) = (
            &this.pos[..m],
            &this.cell[..m],
            &this.class[..m],
            &this.layers[..m],
        );
        let (xs, ys, zs) = (&this.xs[..m + 8], &this.ys[..m + 8], &this.zs[..m + 8]);
        // Chunk c's list buffer and its slots' list ends.
        let parts = (
            Rows::new(&mut this.lists[..chunks]),
            Blocks::new(&mut this.list_end[..m], SLOT_CHUNK),
        );
        exec.for_items(threads, parts, |c, (lists, list_end)| {
            let lists = &mut lists[0];
            let buf = lists.edit();
            buf.clear();
            let first = c * SLOT_CHUNK;
            let slots = first..(first + SLOT_CHUNK).min(m);
            // The slot ranges of the 9 runs around the last slot's cell: the slots of
            // one cell are consecutive (dense and rows layouts), so they share them.
            let mut runs = [[0u32; 2]; 9];
            let (mut runs_len, mut runs_cell) = (0, None);
            for k in slots {
                let pk = pos[k];
                let ck = cell[k];
                let clk = class[k];
                let hashed = layout.is_hashed();
                // A slot keeps at most `cap` neighbours (the first in scan order):
                // beyond them it is in a crowd (`CROWD_DENSITY`).
                let start = buf.len();
                if uniform {
                    let Params {
                        h2, listed: cap, ..
                    } = params[clk as usize];
                    let p = [pk.x, pk.y, pk.z];
                    let scan = Scan {
                        kernel: scan_kernel,
                        p,
                        h2,
                        xyz: [xs, ys, zs],
                        k,
                        start,
                        cap,
                    };
                    if !hashed {
                        // The slot ranges of the 9 runs, scanned in one call.
                        if runs_cell != Some(ck) {
                            let mut n = 0;
                            layout.for_runs(rows, ck, |_, b0, b1| {
                                runs[n] = [starts[b0], starts[b1]];
                                n += 1;
                            });
                            (runs_len, runs_cell) = (n, Some(ck));
                        }
                        let runs = &runs[..runs_len];
                        let total: usize = runs.iter().map(|r| (r[1] - r[0]) as usize).sum();
                        if total <= CROWD_SCAN * cap {
                            scan_runs(scan_kernel, p, h2, xs, ys, zs, k, runs, buf);
                        } else {
                            for &run in runs {
                                if scan.pieces(run, buf, |_, _| {}) {
                                    break;
                                }
                            }
                        }
                        buf.truncate(start + cap);
                        list_end[k - first] = buf.len() as u32;
                        continue;
                    }
                    layout.for_runs(rows, ck, |row, b0, b1| {
                        if buf.len() - start >= cap {
                            return;
                        }
                        let run = [starts[b0], starts[b1]];
                        scan.pieces(run, buf, |from, buf| {
                            // A bucket also holds cells of other rows: each hit
                            // counts in the run of its own row only.
                            let mut keep = from;
                            for t in from..buf.len() {
                                let j = buf[t];
                                if layout.in_run(ck, row, cell[j as usize]) {
                                    buf[keep] = j;
                                    keep += 1;
                                }
                            }
                            buf.truncate(keep);
                        });
                    });
                    buf.truncate(start + cap);
                } else {
                    let lk = layers[k];
                    let cap = if clk == SOLID {
                        solid_cap
                    } else {
                        params[clk as usize].listed
                    };
                    layout.for_runs(rows, ck, |row, b0, b1| {
                        let (s0, s1) = (starts[b0] as usize, starts[b1] as usize);
                        for j in s0..s1 {
                            if buf.len() - start >= cap {
                                return;
                            }
                            if j == k || (hashed && !layout.in_run(ck, row, cell[j])) {
                                continue;
                            }
                            let clj = class[j];
                            let reach2 = match (clk == SOLID, clj == SOLID) {
                                (true, true) => continue,
                                (true, false) => {
                                    let pj = &params[clj as usize];
                                    if pj.coupling_mask & lk == 0 {
                                        continue;
                                    }
                                    pj.h2
                                }
                                (false, true) => {
                                    let pk = &params[clk as usize];
                                    if pk.coupling_mask & layers[j] == 0 {
                                        continue;
                                    }
                                    pk.h2
                                }
                                (false, false) => {
                                    params[clk as usize].h2.max(params[clj as usize].h2)
                                }
                            };
                            let d = pk - pos[j];
                            let r2 = d.x * d.x + d.y * d.y + d.z * d.z;
                            if r2 < reach2 {
                                buf.push(j as u32);
                            }
                        }
                    });
                }
                list_end[k - first] = buf.len() as u32;
            }
            // Every entry is a slot of the grid (checked once here, so the passes'
            // kernels need no check per list).
            lists.seal(m);
        });
    }
}

/// A slot's scan of more than this many times the neighbours it keeps is a crowd's:
/// its runs are scanned in pieces of [`CROWD_PIECE`] that stop at the cap (water at
/// rest has about 27 / (4π/3) ≈ 6.4 candidates per neighbour within h in 3D, 9 / π
/// ≈ 2.9 planar; the cap is 8 times its neighbours).
const CROWD_SCAN: usize = 4;

/// Candidates per scan in a crowd.
const CROWD_PIECE: u32 = 256;

/// One slot's scan of its runs for [`scan_runs`], keeping at most `cap` entries
/// past `start` of the list buffer.
struct Scan<'a> {
    kernel: ScanKernel,
    /// The slot's position (m, in the grid's frame) and its reach squared, h² (m²).
    p: [f32; 3],
    h2: f32,
    /// The slots' coordinates (m), one array per axis, each padded by 8 entries.
    xyz: [&'a [f32]; 3],
    /// The slot, the length of the list buffer before its list, and its cap.
    k: usize,
    start: usize,
    cap: usize,
}

impl Scan<'_> {
    /// Scans `run` in pieces of [`CROWD_PIECE`] (one piece for a short run), each
    /// piece's hits appended to `buf` and passed to `after` (with the length before
    /// them), until `buf` holds `cap` entries past `start`: true when it does.
    #[inline(always)]
    fn pieces(
        &self,
        [a, b]: [u32; 2],
        buf: &mut Vec<u32>,
        mut after: impl FnMut(usize, &mut Vec<u32>),
    ) -> bool {
        let [xs, ys, zs] = self.xyz;
        let mut from = a;
        while from < b {
            let to = b.min(from.saturating_add(CROWD_PIECE));
            let at = buf.len();
            let piece = [[from, to]];
            scan_runs(
                self.kernel,
                self.p,
                self.h2,
                xs,
                ys,
                zs,
                self.k,
                &piece,
                buf,
            );
            after(at, buf);
            if buf.len() - self.start >= self.cap {
                return true;
            }
            from = to;
        }
        false
    }
}

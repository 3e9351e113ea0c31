//! The grid and the neighbour lists of a substep (see `fluid::grid` for the layouts):
//! the cells of the fluid particles and the coupled solids, their stable sort by
//! bucket, the gather into slot order and each slot's list, in two stages of one
//! parallel pass.

use super::{prefetch_particle, DensitySolver, PREFETCH, SLOT_CHUNK, SOLID};
use crate::collision::colliders::Colliders;
use crate::fluid::grid::{cell_of, choose_layout, Layout};
use crate::fluid::Fluid;
use crate::kernels::scan::fluid::{scan_runs, ScanKernel};
use crate::math::{Vec3, Vec3A};
use crate::particles::Particles;
use crate::solver::parallel::{DisjointSlice, Executor};
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
        let p0 = self.src[0] as usize;
        self.origin = particles.base[p0];
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
            let cells = DisjointSlice::new(&mut self.src_cell[..m]);
            let boxes = DisjointSlice::new(&mut self.chunk_box[..chunks]);
            exec.stages(threads, &[chunks][..], |_, c| {
                let (mut lo, mut hi) = ([i32::MAX; 3], [i32::MIN; 3]);
                let first = c * SLOT_CHUNK;
                let end = (first + SLOT_CHUNK).min(m);
                for (a, &i) in src[first..end].iter().enumerate() {
                    let a = first + a;
                    let cell = cell_of(position(i as usize).to_array(), inv_cell);
                    for d in 0..3 {
                        lo[d] = lo[d].min(cell[d]);
                        hi[d] = hi[d].max(cell[d]);
                    }
                    // SAFETY: input a and chunk c are this item's.
                    unsafe { cells.set(a, cell) };
                }
                // SAFETY: as above.
                unsafe { boxes.set(c, (lo, hi)) };
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
            let buckets = DisjointSlice::new(&mut self.src_bucket[..m]);
            exec.stages(threads, &[chunks][..], |_, c| {
                let first = c * SLOT_CHUNK;
                let end = (first + SLOT_CHUNK).min(m);
                for (a, &cell) in cells[first..end].iter().enumerate() {
                    // SAFETY: input first + a is this item's.
                    unsafe { buckets.set(first + a, layout.bucket(rows, cell)) };
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
        // Gather into slot order, then the lists (parallel, per chunk of slots).
        let this = &mut *self;
        let (src, src_class, order) = (&this.src[..m], &this.src_class[..m], &this.order[..m]);
        let params = &this.params;
        let particle = DisjointSlice::new(&mut this.particle[..m]);
        let pos = DisjointSlice::new(&mut this.pos[..m]);
        let class = DisjointSlice::new(&mut this.class[..m]);
        let inv_mass = DisjointSlice::new(&mut this.inv_mass[..m]);
        let cell = DisjointSlice::new(&mut this.cell[..m]);
        let layers = DisjointSlice::new(&mut this.layers[..m]);
        let xs = DisjointSlice::new(&mut this.xs[..m + 8]);
        let ys = DisjointSlice::new(&mut this.ys[..m + 8]);
        let zs = DisjointSlice::new(&mut this.zs[..m + 8]);
        let kernel = this.kernel;
        let scan_kernel = ScanKernel::of(kernel);
        let list_end = DisjointSlice::new(&mut this.list_end[..m]);
        let lists = DisjointSlice::new(&mut this.lists[..chunks]);
        let factors = DisjointSlice::new(&mut this.factors[..chunks]);
        let wall_end = DisjointSlice::new(&mut this.wall_end[..m]);
        let walls = DisjointSlice::new(&mut this.walls[..chunks]);
        let starts = &this.bucket_start[..table + 1];
        let rows = &this.rows[..];
        let planar = this.planar;
        let uniform = this.uniform;
        let plan = [chunks, chunks];
        exec.stages(threads, &plan[..], |stage, c| {
            let slots = c * SLOT_CHUNK..((c + 1) * SLOT_CHUNK).min(m);
            if stage == 0 {
                // SAFETY: chunk c's buffer is this item's alone.
                let wbuf = unsafe { walls.get_mut(c) };
                wbuf.clear();
                let end = slots.end;
                for k in slots {
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
                    // SAFETY: slot k is this item's.
                    unsafe {
                        xs.set(k, x.x);
                        ys.set(k, x.y);
                        zs.set(k, x.z);
                        particle.set(k, i as u32);
                        pos.set(k, x.extend(v));
                        class.set(k, cl);
                        inv_mass.set(k, h.w);
                        // The input's cell again (the same arithmetic on the same
                        // position) rather than one more random read.
                        cell.set(k, cell_of(x.to_array(), inv_cell));
                        if !uniform {
                            // Read by the general lists only (a solid's coupling).
                            layers.set(k, particles.filter[i].layers);
                        }
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
                    // SAFETY: slot k is this item's.
                    unsafe { wall_end.set(k, wbuf.len() as u32) };
                }
                return;
            }
            // SAFETY: chunk c's buffer is this item's alone.
            let buf = unsafe { lists.get_mut(c) };
            buf.clear();
            // The slot ranges of the 9 runs around the last slot's cell: the slots of
            // one cell are consecutive (dense and rows layouts), so they share them.
            let mut runs = [[0u32; 2]; 9];
            let (mut runs_len, mut runs_cell) = (0, None);
            for k in slots {
                // SAFETY: stage 1 reads what stage 0 wrote, and writes its own slots.
                unsafe {
                    let pk = pos.get(k);
                    let ck = cell.get(k);
                    let clk = class.get(k);
                    let hashed = layout.is_hashed();
                    if uniform {
                        let h2 = params[clk as usize].h2;
                        let p = [pk.x, pk.y, pk.z];
                        let (xs, ys, zs) = (xs.as_slice(), ys.as_slice(), zs.as_slice());
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
                            scan_runs(scan_kernel, p, h2, xs, ys, zs, k, runs, buf);
                            list_end.set(k, buf.len() as u32);
                            continue;
                        }
                        layout.for_runs(rows, ck, |row, b0, b1| {
                            let run = [starts[b0], starts[b1]];
                            let from = buf.len();
                            scan_runs(scan_kernel, p, h2, xs, ys, zs, k, &[run], buf);
                            if hashed {
                                // A bucket also holds cells of other rows: each hit
                                // counts in the run of its own row only.
                                let mut keep = from;
                                for t in from..buf.len() {
                                    let j = buf[t];
                                    if layout.in_run(ck, row, cell.get(j as usize)) {
                                        buf[keep] = j;
                                        keep += 1;
                                    }
                                }
                                buf.truncate(keep);
                            }
                        });
                    } else {
                        let lk = layers.get(k);
                        layout.for_runs(rows, ck, |row, b0, b1| {
                            let (s0, s1) = (starts[b0] as usize, starts[b1] as usize);
                            for j in s0..s1 {
                                if j == k || (hashed && !layout.in_run(ck, row, cell.get(j))) {
                                    continue;
                                }
                                let clj = class.get(j);
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
                                        if pk.coupling_mask & layers.get(j) == 0 {
                                            continue;
                                        }
                                        pk.h2
                                    }
                                    (false, false) => {
                                        params[clk as usize].h2.max(params[clj as usize].h2)
                                    }
                                };
                                let d = pk - pos.get(j);
                                let r2 = d.x * d.x + d.y * d.y + d.z * d.z;
                                if r2 < reach2 {
                                    buf.push(j as u32);
                                }
                            }
                        });
                    }
                    list_end.set(k, buf.len() as u32);
                }
            }
            if uniform {
                // Room for the pair buffers of the chunk's lists, whole blocks of 8
                // each ([`pair_start`]).
                // SAFETY: chunk c's buffer is this item's alone.
                // Only grown: the density pass writes every pair's entries before the
                // correction pass reads them, so the old values need no clearing.
                let f = unsafe { factors.get_mut(c) };
                let room = 2 * buf.len() + 16 * SLOT_CHUNK;
                if f.len() < room {
                    f.resize(room, 0.0);
                }
            }
        });
    }
}

//! A full build (see the module doc of `collision::neighbours`): skins, the fast set,
//! the grid (dense or hashed, `spatial`), the counting sort into slot order, the
//! gather, and every slot's list, per chunk in parallel.

use super::*;
use crate::kernels::scan::contact::{collect_hits, Probe, Records};
use crate::spatial::{sort_by_bucket, Dense};

impl Neighbours {
    /// Builds the grid and the lists from the current positions. A particle's velocity
    /// is `velocity + d · inv_h` (`inv_h` = 1/h within a substep, 0 between steps);
    /// skins cover `horizon` seconds of relative motion.
    pub(super) fn build(
        &mut self,
        particles: &Particles,
        inv_h: f32,
        horizon: f32,
        exec: &Executor,
    ) -> Result<()> {
        let n = particles.len();
        // Largest radius, the radii's sum and mean velocity (serial: a fixed order).
        let (mut r_max, mut r_min, mut count) = (0.0f32, f32::INFINITY, 0usize);
        let mut r_sum = 0.0f64;
        let mut v_sum = Vec3::ZERO;
        let mut moving = 0u32;
        for i in 0..n {
            let r = particles.radius[i];
            if searched(particles, i) {
                r_max = r_max.max(r);
                r_min = r_min.min(r);
                r_sum += r as f64;
                count += 1;
                let p = particles.hot[i];
                if p.w != 0.0 {
                    v_sum += particles.velocity[i] + p.truncate() * inv_h;
                    moving += 1;
                }
            }
        }
        self.active = count > 0;
        self.stats.particles = count as u32;
        if !self.active {
            self.order.edit().0.clear();
            self.order.check();
            return Ok(());
        }
        let v_mean = if moving > 0 {
            v_sum / moving as f32
        } else {
            Vec3::ZERO
        };
        let v_mean = if v_mean.is_finite() {
            v_mean
        } else {
            Vec3::ZERO
        };
        self.drift_velocity = v_mean;
        self.drift_time = 0.0;
        // Skins (parallel), then the fast set and the cell size (serial).
        {
            exec.for_chunks_light(Rows::new(&mut self.skin_of[..n]), |range, skin_of| {
                for (out, i) in skin_of.iter_mut().zip(range) {
                    let r = particles.radius[i];
                    let s = if searched(particles, i) {
                        let p = particles.hot[i];
                        let v = if p.w != 0.0 {
                            particles.velocity[i] + p.truncate() * inv_h
                        } else {
                            Vec3::ZERO
                        };
                        let s = (v - v_mean).length() * horizon;
                        // NaN or infinity (a body the step will recover): the floor.
                        if s.is_finite() {
                            s.max(MIN_SKIN * r)
                        } else {
                            MIN_SKIN * r
                        }
                    } else {
                        0.0
                    };
                    *out = s;
                }
            });
        }
        let fast_cap = fast_bound(n);
        // Wide particles (movable, radius above WIDE_RADIUS times the mean): searched
        // on their own like fast ones, so that the cells are sized by the others'
        // largest radius, `r_grid`. When there are more than `fast_cap`, none is wide
        // (the cells are sized by the largest radius, as they always were).
        let mut wide_cut = (WIDE_RADIUS as f64 * r_sum / count as f64) as f32;
        let is_wide = |i: usize, cut: f32| {
            particles.radius[i] > cut && particles.hot[i].w != 0.0 && searched(particles, i)
        };
        let (mut r_grid, mut wide_count) = (0.0f32, 0usize);
        for i in 0..n {
            if is_wide(i, wide_cut) {
                wide_count += 1;
            } else if searched(particles, i) {
                r_grid = r_grid.max(particles.radius[i]);
            }
        }
        if wide_count > fast_cap {
            (wide_cut, wide_count, r_grid) = (f32::INFINITY, 0, r_max);
        }
        let mut fast_count = wide_count;
        let (mut s_cut, mut s_fast, mut s_wide) = (0.0f32, 0.0f32, 0.0f32);
        let cap = FAST_SKIN * r_grid;
        for i in 0..n {
            let s = self.skin_of[i];
            if is_wide(i, wide_cut) {
                s_wide = s_wide.max(s);
            } else if s > cap {
                if particles.hot[i].w != 0.0 {
                    fast_count += 1;
                    s_fast = s_fast.max(s);
                } else {
                    // A pinned particle is never searched on its own.
                    self.skin_of[i] = cap;
                    s_cut = s_cut.max(cap);
                }
            } else {
                s_cut = s_cut.max(s);
            }
        }
        if fast_count > fast_cap {
            // Too many to search one by one: clamp the skins of all but the wide
            // ones (the check rebuilds).
            for (i, s) in self.skin_of[..n].iter_mut().enumerate() {
                if !is_wide(i, wide_cut) {
                    *s = s.min(cap);
                }
            }
            s_cut = s_cut.max(cap);
            fast_count = wide_count;
            s_fast = 0.0;
        }
        self.r_max = r_max;
        self.r_min = r_min;
        self.s_cut = s_cut;
        self.s_fast = s_fast.max(s_wide);
        self.cell = 2.0 * (r_grid + s_cut) / SLOW_CELLS as f32;
        let inv_cell = 1.0 / self.cell;
        let (hashed, table) = Hashed::with_buckets(TABLE_PER_PARTICLE * n);
        self.hashed = hashed;
        // Dense when the box of cells of the particles fits the table (parallel: min
        // and max do not depend on the order).
        let (lo, hi) = {
            use std::sync::atomic::{AtomicI64, Ordering::Relaxed};
            let lo = [i64::MAX; 3].map(AtomicI64::new);
            let hi = [i64::MIN; 3].map(AtomicI64::new);
            exec.for_ranges_light(n, |range| {
                let (mut l, mut u) = ([i64::MAX; 3], [i64::MIN; 3]);
                for i in range {
                    if searched(particles, i) {
                        let c = particle_cell(particles.base[i], particles.hot[i], inv_cell);
                        for a in 0..3 {
                            l[a] = l[a].min(c[a]);
                            u[a] = u[a].max(c[a]);
                        }
                    }
                }
                for a in 0..3 {
                    lo[a].fetch_min(l[a], Relaxed);
                    hi[a].fetch_max(u[a], Relaxed);
                }
            });
            (lo.map(AtomicI64::into_inner), hi.map(AtomicI64::into_inner))
        };
        self.dense = Dense::fitting(lo, hi, table as f64).map(|(d, _)| d);
        let dense = self.dense;
        // Buckets (parallel).
        {
            exec.for_chunks_light(Rows::new(&mut self.bucket_of[..n]), |range, bucket_of| {
                for (out, i) in bucket_of.iter_mut().zip(range) {
                    let b = if searched(particles, i) {
                        let c = particle_cell(particles.base[i], particles.hot[i], inv_cell);
                        match &dense {
                            Some(d) => d.bucket(c),
                            None => hashed.bucket(c),
                        }
                    } else {
                        EMPTY
                    };
                    *out = b;
                }
            });
        }
        // Counting sort by bucket (serial, stable). Capacity reserved in begin_step
        // for n slots: no allocation.
        let (order, slot_of) = self.order.edit();
        order.clear();
        order.resize(count, 0);
        sort_by_bucket(
            &self.bucket_of[..n],
            &mut self.bucket_start[..table + 1],
            |i, at| {
                slot_of[i] = at;
                if at != EMPTY {
                    order[at as usize] = i as u32;
                }
            },
        );
        // One slot per particle and one particle per slot (what the contact pass's
        // scatter relies on): one pass over the slots.
        self.order.check();
        // Gather into slot order (parallel).
        let m = count;
        self.list_end.clear();
        self.list_end.resize(m, 0);
        self.forward_end.clear();
        self.forward_end.resize(m, 0);
        self.backward.clear();
        self.backward.resize(m, 0);
        self.base.resize(m, Vec3A::ZERO);
        self.hot.resize(m, Vec4::ZERO);
        self.radius.resize(m, 0.0);
        self.unyielding.resize(m, 0.0);
        self.filter.resize(m, CollisionFilter::default());
        self.skin.resize(m, 0.0);
        self.extent.resize(m, 0.0);
        self.stale.resize(m, false);
        for a in self.grid_b.iter_mut().chain(&mut self.grid_d) {
            a.resize(m, 0.0);
        }
        self.row.resize(m, 0);
        self.fast.resize(m, false);
        self.anchor_base.resize(m, Vec3A::ZERO);
        self.anchor_hot.resize(m, Vec3::ZERO);
        {
            let order = self.order.order();
            let skin_of = &self.skin_of;
            let [gbx, gby, gbz] = &mut self.grid_b;
            let [gdx, gdy, gdz] = &mut self.grid_d;
            // Slot k's records, as the rows of the task's range (nested tuples: four
            // parts at most each).
            let parts = (
                (
                    Rows::new(&mut self.base[..m]),
                    Rows::new(&mut self.hot[..m]),
                    Rows::new(&mut self.radius[..m]),
                    Rows::new(&mut self.unyielding[..m]),
                ),
                (
                    Rows::new(&mut self.filter[..m]),
                    Rows::new(&mut self.skin[..m]),
                    Rows::new(&mut self.extent[..m]),
                    Rows::new(&mut self.row[..m]),
                ),
                (
                    Rows::new(&mut self.fast[..m]),
                    Rows::new(&mut self.anchor_base[..m]),
                    Rows::new(&mut self.anchor_hot[..m]),
                ),
                (
                    (
                        Rows::new(&mut gbx[..m]),
                        Rows::new(&mut gby[..m]),
                        Rows::new(&mut gbz[..m]),
                    ),
                    (
                        Rows::new(&mut gdx[..m]),
                        Rows::new(&mut gdy[..m]),
                        Rows::new(&mut gdz[..m]),
                    ),
                ),
            );
            let hashed = dense.is_none();
            exec.for_chunks_light(parts, |range, chunk| {
                let (
                    (base, hot, radius, unyielding),
                    (filter, skin, extent, row),
                    (fast, anchor_base, anchor_hot),
                    ((gbx, gby, gbz), (gdx, gdy, gdz)),
                ) = chunk;
                let (gb, gd) = ([gbx, gby, gbz], [gdx, gdy, gdz]);
                let first = range.start;
                for k in range {
                    let i = order[k] as usize;
                    let (b, p) = (particles.base[i], particles.hot[i]);
                    let s = skin_of[i];
                    // Rows are read in the hashed layout only.
                    let r = if hashed {
                        let c = particle_cell(b, p, inv_cell);
                        row_id(c[1], c[2])
                    } else {
                        0
                    };
                    let j = k - first;
                    extent[j] = particles.radius[i] + s;
                    row[j] = r;
                    base[j] = b;
                    hot[j] = p;
                    radius[j] = particles.radius[i];
                    unyielding[j] = particles.unyielding[i];
                    filter[j] = particles.filter[i];
                    skin[j] = s;
                    fast[j] =
                        fast_count > 0 && p.w != 0.0 && (s > cap || particles.radius[i] > wide_cut);
                    anchor_base[j] = b;
                    anchor_hot[j] = p.truncate();
                    for a in 0..3 {
                        gb[a][j] = b[a];
                        gd[a][j] = p[a];
                    }
                }
            });
        }
        self.uniform = fast_count == 0 && {
            let f = self.filter[0];
            f.collides(&f) && self.filter.iter().all(|g| *g == f)
        };
        self.plain = {
            let r = self.radius[0];
            self.radius.iter().all(|&q| q == r) && self.unyielding.iter().all(|&u| u == 0.0)
        };
        // No slot is roaming after a build (capacity reserved in begin_step).
        self.roam_index.clear();
        self.roam_index.resize(m, EMPTY);
        self.roaming.clear();
        self.roam_end.clear();
        self.roam_lists.clear();
        self.side_pairs.clear();
        // Fast slots, in slot order (capacity reserved in begin_step).
        self.fast_slots.clear();
        if fast_count > 0 {
            for k in 0..m {
                if self.fast[k] {
                    self.fast_slots.push(k as u32);
                }
            }
        }
        if self.dense.is_some() {
            self.build_lists_symmetric(exec)?;
        } else {
            self.build_lists(exec)?;
        }
        // The slow side of every (slow, fast) pair.
        self.fast_pairs.clear();
        let mut extra = 0usize;
        for &k in &self.fast_slots {
            extra += self.list(k as usize).len();
        }
        if extra > self.fast_pairs.capacity() {
            try_reserve(&mut self.fast_pairs, 2 * extra, "neighbour lists")?;
        }
        for idx in 0..self.fast_slots.len() {
            let k = self.fast_slots[idx] as usize;
            let c = k / CHUNK;
            let start = if k % CHUNK == 0 {
                0
            } else {
                self.list_end[k - 1] as usize
            };
            for &j in &self.chunks[c][start..self.list_end[k] as usize] {
                if !self.fast[j as usize] && self.hot[j as usize].w != 0.0 {
                    self.fast_pairs.push([j, k as u32]);
                }
            }
        }
        // By slow slot, so that a slot finds its fast partners by binary search.
        self.fast_pairs.sort_unstable();
        self.fast_built = self.fast_pairs.len();
        self.stats.fast = self.fast_slots.len() as u32;
        self.stats.builds += 1;
        let mut pairs = self.fast_pairs.len() as u64;
        let mut longest = 0u32;
        for k in 0..m {
            let l = self.list(k).len() as u32;
            pairs += l as u64;
            longest = longest.max(l);
        }
        self.stats.pairs = pairs;
        self.stats.max_neighbours = longest;
        Ok(())
    }

    /// The lists of every slot (parallel per chunk).
    pub(super) fn build_lists(&mut self, exec: &Executor) -> Result<()> {
        let m = self.len();
        let chunks = m.div_ceil(CHUNK);
        let failed = std::sync::atomic::AtomicBool::new(false);
        // Taken out for the pass (the scan reads the rest of self), put back after.
        let mut lists = std::mem::take(&mut self.chunks);
        let mut ends = std::mem::take(&mut self.list_end);
        {
            // Chunk c's list buffer and its slots' list ends, the task's own.
            let parts = (
                Rows::new(&mut lists[..chunks]),
                Blocks::new(&mut ends[..m], CHUNK),
            );
            let this = &*self;
            let failed = &failed;
            exec.for_each_item(parts, m, move |c, (buf, list_end)| {
                let buf = &mut buf[0];
                buf.clear();
                let slots = c * CHUNK..((c + 1) * CHUNK).min(m);
                // The runs of the last slow slot's cell: the slots of a cell are
                // consecutive, and they scan the same runs.
                let mut cell: Option<[i64; 3]> = None;
                let mut runs = [(0u32, 0u32); RUN_BATCH];
                let mut rows = [0u64; RUN_BATCH];
                let (mut count, mut total) = (0usize, 0usize);
                let inv_cell = 1.0 / this.cell;
                for k in slots {
                    let done = if this.hot[k].w == 0.0 {
                        Ok(())
                    } else if this.fast[k] {
                        this.scan(k, buf)
                    } else {
                        let (bk, hk) = (this.base[k], this.hot[k]);
                        let ck = particle_cell(bk, hk, inv_cell);
                        if cell != Some(ck) {
                            (count, total) = (0, 0);
                            // At most RUN_BATCH runs: 3 × 3 rows, each split at most
                            // once where the hashed table wraps.
                            let _ = this.for_runs(ck, SLOW_CELLS, |run, row| {
                                if !run.is_empty() {
                                    runs[count] = (run.start as u32, run.end as u32);
                                    rows[count] = row.unwrap_or(0);
                                    count += 1;
                                    total += run.len();
                                }
                                Ok(())
                            });
                            cell = Some(ck);
                        }
                        let probe = Probe {
                            base: bk,
                            hot: hk,
                            extent: this.extent[k],
                        };
                        let fk = this.filter[k];
                        this.test_runs(
                            k,
                            false,
                            &probe,
                            &fk,
                            &runs[..count],
                            &rows[..count],
                            total,
                            buf,
                        )
                    };
                    if done.is_err() {
                        failed.store(true, std::sync::atomic::Ordering::Relaxed);
                        return;
                    }
                    list_end[k - c * CHUNK] = buf.len() as u32;
                }
            });
        }
        self.chunks = lists;
        self.list_end = ends;
        if failed.into_inner() {
            return Err(Error::out_of_memory("could not grow the neighbour lists"));
        }
        Ok(())
    }

    /// The lists of every slot when the grid is dense: the lists of
    /// [`Self::build_lists`], the same entries in the same order, with each pair of
    /// slow slots tested once (outside a crowd: here a slot's cap, [`listed_cap`],
    /// bounds the partners above it, so that a crowd's pairs stay listed from both
    /// sides).
    ///
    /// In the dense layout the runs of a slot's scan are its 3 × 3 rows in bucket
    /// order, so a slow slot's list is ascending by slot; its test is symmetric
    /// between two slow slots: `|sep|² < (e_k + e_j)²` is the same bits both ways
    /// (`b_j − b_k` is `−(b_k − b_j)` exactly, so are the sums, and the squares and
    /// `e_k + e_j` agree), so are the 3 × 3 × 3 neighbourhood of cells and the
    /// filter's test. So every slow slot k (pinned ones too: they are in the lists of
    /// others) tests only the candidates above it (its forward list, parallel per
    /// chunk), and slot k's list is the slots below it that listed k, ascending, then
    /// its forward list: a serial pass in slot order copies each forward list into
    /// place and appends k to the lists of its forward partners (a pinned slot keeps
    /// an empty list, as in [`Self::build_lists`], and its forward list only movable
    /// partners). A fast slot scans on its own as
    /// there (no slow slot lists it: its slow partners see it through the fast
    /// pairs).
    fn build_lists_symmetric(&mut self, exec: &Executor) -> Result<()> {
        let m = self.len();
        let chunks = m.div_ceil(CHUNK);
        let failed = std::sync::atomic::AtomicBool::new(false);
        let mut forward = std::mem::take(&mut self.forward);
        let mut forward_end = std::mem::take(&mut self.forward_end);
        {
            let parts = (
                Rows::new(&mut forward[..chunks]),
                Blocks::new(&mut forward_end[..m], CHUNK),
            );
            let this = &*self;
            let failed = &failed;
            exec.for_each_item(parts, m, move |c, (buf, ends)| {
                let buf = &mut buf[0];
                buf.clear();
                let slots = c * CHUNK..((c + 1) * CHUNK).min(m);
                let mut cell: Option<[i64; 3]> = None;
                let mut runs = [(0u32, 0u32); RUN_BATCH];
                let mut count = 0usize;
                let mut ahead = [(0u32, 0u32); RUN_BATCH];
                let inv_cell = 1.0 / this.cell;
                let (uniform, fast_of, filter) = (this.uniform, &this.fast[..], &this.filter[..]);
                for k in slots {
                    if fast_of[k] {
                        if this.scan(k, buf).is_err() {
                            failed.store(true, std::sync::atomic::Ordering::Relaxed);
                            return;
                        }
                        ends[k - c * CHUNK] = buf.len() as u32;
                        continue;
                    }
                    let (bk, hk) = (this.base[k], this.hot[k]);
                    let ck = particle_cell(bk, hk, inv_cell);
                    if cell != Some(ck) {
                        count = 0;
                        let _ = this.for_runs(ck, SLOW_CELLS, |run, _| {
                            if !run.is_empty() {
                                runs[count] = (run.start as u32, run.end as u32);
                                count += 1;
                            }
                            Ok(())
                        });
                        cell = Some(ck);
                    }
                    // The candidates above k: the runs are ascending and disjoint.
                    let (mut kept, mut total) = (0usize, 0usize);
                    let above = k as u32 + 1;
                    for &(a, b) in &runs[..count] {
                        if b > above {
                            let a = a.max(above);
                            ahead[kept] = (a, b);
                            kept += 1;
                            total += (b - a) as usize;
                        }
                    }
                    let probe = Probe {
                        base: bk,
                        hot: hk,
                        extent: this.extent[k],
                    };
                    // Room for every candidate, or for a crowd's pieces and cap.
                    let room = total.min(CROWD_SCAN);
                    if buf.len() + room > buf.capacity() {
                        let grow = buf.capacity().max(4 * CHUNK).max(room);
                        if buf.try_reserve(grow).is_err() {
                            failed.store(true, std::sync::atomic::Ordering::Relaxed);
                            return;
                        }
                    }
                    let (gb, gd) = (&this.grid_b, &this.grid_d);
                    let records = Records {
                        b: [&gb[0], &gb[1], &gb[2]],
                        d: [&gd[0], &gd[1], &gd[2]],
                        e: &this.extent,
                    };
                    let ahead = &ahead[..kept];
                    let (kernel, probe) = (this.kernel, &probe);
                    let cap = listed_cap(this.radius[k], this.r_min);
                    // A pinned slot's pinned partners are dropped by `transpose`: left
                    // out here, they take none of its cap (a dense pinned bed).
                    let pinned = this.hot[k].w == 0.0;
                    let movable = |j: usize| this.hot[j].w != 0.0;
                    let done = if uniform && !pinned {
                        collect_listed(kernel, &records, ahead, total, probe, buf, cap, |_, _| true)
                    } else if uniform {
                        collect_listed(kernel, &records, ahead, total, probe, buf, cap, |j, _| {
                            movable(j)
                        })
                    } else {
                        // The test of `test_runs` for a slow k in the dense layout.
                        let fk = this.filter[k];
                        collect_listed(kernel, &records, ahead, total, probe, buf, cap, |j, _| {
                            let fj = &filter[j];
                            let layers =
                                ((fk.layers & fj.mask) != 0) & ((fj.layers & fk.mask) != 0);
                            let group = (fk.group == 0)
                                | (fk.group != fj.group)
                                | (fk.self_collision & fj.self_collision);
                            !fast_of[j] & layers & group & (!pinned | movable(j))
                        })
                    };
                    if done.is_err() {
                        failed.store(true, std::sync::atomic::Ordering::Relaxed);
                        return;
                    }
                    ends[k - c * CHUNK] = buf.len() as u32;
                }
            });
        }
        let result = if failed.into_inner() {
            Err(Error::out_of_memory("could not grow the neighbour lists"))
        } else {
            self.transpose(&forward[..chunks], &forward_end[..m])
        };
        self.forward = forward;
        self.forward_end = forward_end;
        result
    }

    /// The lists from the forward lists (see [`Self::build_lists_symmetric`]):
    /// counts of partners below each slot, the layout of each chunk's buffer, then one
    /// pass in slot order.
    fn transpose(&mut self, forward: &[Vec<u32>], forward_end: &[u32]) -> Result<()> {
        let m = self.len();
        let fwd = |k: usize| {
            let start = if k % CHUNK == 0 {
                0
            } else {
                forward_end[k - 1] as usize
            };
            &forward[k / CHUNK][start..forward_end[k] as usize]
        };
        let below = &mut self.backward[..m];
        below.fill(0);
        // A fast slot's list is whole: none of its entries is a slow slot's partner
        // below it.
        for k in 0..m {
            if !self.fast[k] {
                for &j in fwd(k) {
                    below[j as usize] += 1;
                }
            }
        }
        // Each chunk's layout: slot k's list starts where k − 1's ends; `below[k]`
        // becomes the cursor of k's next partner below it.
        for c in 0..m.div_ceil(CHUNK) {
            let slots = c * CHUNK..((c + 1) * CHUNK).min(m);
            let mut end = 0u32;
            for k in slots {
                let start = end;
                if self.hot[k].w != 0.0 {
                    end += below[k] + (fwd(k).len() as u32);
                }
                below[k] = start;
                self.list_end[k] = end;
            }
            let buf = &mut self.chunks[c];
            buf.clear();
            let total = end as usize;
            if total > buf.capacity() {
                try_reserve(buf, total, "neighbour lists")?;
            }
            buf.resize(total, 0);
        }
        for k in 0..m {
            let ahead = fwd(k);
            if self.hot[k].w != 0.0 {
                // Every partner below k is in place (they come first).
                let at = below[k] as usize;
                self.chunks[k / CHUNK][at..at + ahead.len()].copy_from_slice(ahead);
            }
            if self.fast[k] {
                continue;
            }
            for &j in ahead {
                let j = j as usize;
                if self.hot[j].w != 0.0 {
                    let at = below[j] as usize;
                    self.chunks[j / CHUNK][at] = k as u32;
                    below[j] += 1;
                }
            }
        }
        Ok(())
    }

    /// Whether slot j is a neighbour of slot k: distance first (most candidates fail
    /// it), then the fast split and the filter.
    #[inline(always)]
    #[allow(clippy::too_many_arguments)]
    fn keeps(
        &self,
        k: usize,
        j: usize,
        fast: bool,
        bk: Vec3A,
        hk: Vec4,
        ek: f32,
        fk: &CollisionFilter,
    ) -> bool {
        let reach = ek + self.extent[j];
        let sep = crate::particles::separation(bk, self.base[j], hk, self.hot[j]);
        sep.length_squared() < reach * reach
            && j != k
            && (fast || !self.fast[j])
            && fk.collides(&self.filter[j])
    }

    /// Appends the neighbours of slot k to `buf` (see the module doc).
    ///
    /// The cells within K of k's cell are scanned row by row: row (y, z) is the run
    /// of buckets `row_key(y, z) + x`, x in `cx − K ..= cx + K`. A bucket run may
    /// hold particles of other rows (hash collisions); a candidate counts only in the
    /// pass of its own row, so none is visited twice and no run needs merging.
    fn scan(&self, k: usize, buf: &mut Vec<u32>) -> std::result::Result<(), ()> {
        let fast = self.fast[k];
        let (bk, hk) = (self.base[k], self.hot[k]);
        let (ek, fk) = (self.extent[k], self.filter[k]);
        let keep = |j: usize| self.keeps(k, j, fast, bk, hk, ek, &fk);
        let push = |j: usize, buf: &mut Vec<u32>| -> std::result::Result<(), ()> {
            if buf.len() == buf.capacity() {
                buf.try_reserve(buf.capacity().max(4 * CHUNK))
                    .map_err(|_| ())?;
            }
            buf.push(j as u32);
            Ok(())
        };
        let reach_cells = if fast {
            ((ek + self.r_max + self.s_fast.max(self.s_cut)) / self.cell).ceil()
        } else {
            SLOW_CELLS as f32
        };
        let m = self.len();
        let side = 2.0 * reach_cells + 1.0;
        if side * side * side > m as f32 {
            // A very fast particle: every slot is a candidate.
            for j in 0..m {
                if keep(j) {
                    push(j, buf)?;
                }
            }
            return Ok(());
        }
        let c = particle_cell(bk, hk, 1.0 / self.cell);
        // The runs in batches (a slow particle's 9 or 18 runs in one): one kernel call
        // tests a batch.
        let probe = Probe {
            base: bk,
            hot: hk,
            extent: ek,
        };
        let mut runs = [(0u32, 0u32); RUN_BATCH];
        let mut rows = [0u64; RUN_BATCH];
        let (mut count, mut total) = (0usize, 0usize);
        self.for_runs(c, reach_cells as i64, |run, row| {
            if run.is_empty() {
                return Ok(());
            }
            runs[count] = (run.start as u32, run.end as u32);
            rows[count] = row.unwrap_or(0);
            count += 1;
            total += run.len();
            if count == RUN_BATCH {
                self.test_runs(k, fast, &probe, &fk, &runs, &rows, total, buf)?;
                (count, total) = (0, 0);
            }
            Ok(())
        })?;
        self.test_runs(
            k,
            fast,
            &probe,
            &fk,
            &runs[..count],
            &rows[..count],
            total,
            buf,
        )
    }

    /// Appends to `buf` the slots of `runs` (`total` slots in all; in the hashed
    /// layout, run q holds candidates of row `rows[q]` only) that pass the test of
    /// [`Self::keeps`] for slot k (see [`Self::scan`]).
    #[inline(always)]
    #[allow(clippy::too_many_arguments)]
    fn test_runs(
        &self,
        k: usize,
        fast: bool,
        probe: &Probe,
        fk: &CollisionFilter,
        runs: &[(u32, u32)],
        rows: &[u64],
        total: usize,
        buf: &mut Vec<u32>,
    ) -> std::result::Result<(), ()> {
        // Room for every candidate first (grown by the lists' policy), or for a
        // crowd's pieces and cap.
        let room = if fast { total } else { total.min(CROWD_SCAN) };
        if buf.len() + room > buf.capacity() {
            let grow = buf.capacity().max(4 * CHUNK).max(room);
            buf.try_reserve(grow).map_err(|_| ())?;
        }
        // A slow slot keeps at most its cap of partners, a fast one every partner.
        let cap = if fast {
            usize::MAX
        } else {
            listed_cap(self.radius[k], self.r_min)
        };
        let (gb, gd) = (&self.grid_b, &self.grid_d);
        let records = Records {
            b: [&gb[0], &gb[1], &gb[2]],
            d: [&gd[0], &gd[1], &gd[2]],
            e: &self.extent,
        };
        if self.uniform && self.dense.is_some() {
            // Every pair collides, no slot is fast and every run holds its own row:
            // the test is the distance and j ≠ k.
            collect_listed(
                self.kernel,
                &records,
                runs,
                total,
                probe,
                buf,
                cap,
                |j, _| j != k,
            )
        } else {
            let hashed = self.dense.is_none();
            let (fast_of, filter, row_of) = (&self.fast[..], &self.filter[..], &self.row[..]);
            collect_listed(
                self.kernel,
                &records,
                runs,
                total,
                probe,
                buf,
                cap,
                |j, q| {
                    let fj = &filter[j];
                    let layers = ((fk.layers & fj.mask) != 0) & ((fj.layers & fk.mask) != 0);
                    let group = (fk.group == 0)
                        | (fk.group != fj.group)
                        | (fk.self_collision & fj.self_collision);
                    let in_row = !hashed | (row_of[j] == rows[q]);
                    in_row & (j != k) & (fast | !fast_of[j]) & layers & group
                },
            )
        }
    }

    /// Calls `visit(run, row)` for every run of slots in the cells within `kc` cells
    /// of cell `c`, row by row in bucket order (see [`Self::scan`]); in the hashed
    /// layout, `row` is the row whose slots the run may hold (a slot j of the run
    /// counts only when `self.row[j] == row`).
    #[inline(always)]
    pub(super) fn for_runs(
        &self,
        c: [i64; 3],
        kc: i64,
        mut visit: impl FnMut(std::ops::Range<usize>, Option<u64>) -> std::result::Result<(), ()>,
    ) -> std::result::Result<(), ()> {
        let starts = &self.bucket_start;
        if let Some(d) = &self.dense {
            // Rows outside the box are empty; a row's run is contiguous.
            return d.for_runs(c, kc, |_, a, b| {
                visit(starts[a] as usize..starts[b] as usize, None)
            });
        }
        // The run of each row's buckets: contiguous slots, split where the table
        // wraps.
        self.hashed.for_runs(c, kc, |row, a, b| {
            visit(
                starts[a] as usize..starts[b] as usize,
                Some(row_id(row[0], row[1])),
            )
        })
    }
}

/// [`collect_hits`] over `runs` (`total` candidates) keeping at most `cap` of the
/// hits (the first ones, in the runs' order; a slow slot's is [`listed_cap`]): a
/// capped scan of more than [`CROWD_SCAN`] candidates (a crowd) runs in pieces of
/// [`CROWD_PIECE`] and stops once it has them, so a crowd costs about `cap` tests
/// per slot instead of all of it. Below the cap, the hits of [`collect_hits`] in its
/// order.
#[inline(always)]
#[allow(clippy::too_many_arguments)]
fn collect_listed(
    kernel: Kernel,
    records: &Records<'_>,
    runs: &[(u32, u32)],
    total: usize,
    probe: &Probe,
    buf: &mut Vec<u32>,
    cap: usize,
    mut keep: impl FnMut(usize, usize) -> bool,
) -> std::result::Result<(), ()> {
    let start = buf.len();
    if total <= CROWD_SCAN || cap == usize::MAX {
        collect_hits(kernel, records, runs, probe, buf, keep)?;
    } else {
        'runs: for (q, &(a, b)) in runs.iter().enumerate() {
            let mut from = a;
            while from < b {
                let to = b.min(from + CROWD_PIECE);
                collect_hits(kernel, records, &[(from, to)], probe, buf, |j, _| {
                    keep(j, q)
                })?;
                if buf.len() - start >= cap {
                    break 'runs;
                }
                from = to;
            }
        }
    }
    buf.truncate(start.saturating_add(cap));
    Ok(())
}

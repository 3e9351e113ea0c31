//! Partial updates (see the module doc of `collision::neighbours`): the slots that
//! left their skins are re-anchored and roam, with lists of their own found in the
//! grid (the slots that are not roaming) and in a hashed grid of the roaming ones.

use super::{
    fast_bound, roam_table, row_id, Neighbours, EMPTY, FAST_PAIRS_RESERVE, HORIZON_SUBSTEPS,
    MIN_SKIN, ROAM_LIST_RESERVE, ROAM_MIN, ROAM_PART, ROAM_SHARE, SLOW_CELLS,
};
use crate::math::Vec3;
use crate::particles::Particles;
use crate::solver::parallel::{Blocks, Executor, Rows};
use crate::spatial::cells::particle_cell;
use crate::spatial::Hashed;

/// The cells a roaming slot's scan visits (3 × 3 rows of 3 cells): its weight in the
/// executor's measure of work, so that the scan runs in parallel from about 150
/// roaming slots.
const ROAM_SCAN_WORK: usize = 27;

impl Neighbours {
    /// A partial update (see the module doc): re-anchors the slots that left their
    /// skins at their current positions with skins from their current motion, marks
    /// them roaming, and rebuilds the lists of every roaming slot (the grid, built
    /// from the anchors of the others, finds the slots that are not roaming; the
    /// roaming ones in a hashed grid of their own) and the side pairs through which
    /// the other slots see them; each roaming slot is tested against every fast slot
    /// (their reach can exceed the grid's cells), its (slot, fast slot) pairs
    /// replacing those of the build, the fast slot seeing it through a side pair.
    /// Returns false, for a full rebuild, when a fast slot left its skin, when the
    /// roaming slots would exceed their bound, or when a list or the pairs would
    /// outgrow their reserved room (so it never allocates).
    pub(super) fn partial_update(
        &mut self,
        particles: &Particles,
        h: f32,
        drift: Vec3,
        exec: &Executor,
    ) -> bool {
        let m = self.len();
        // Bounds from the slot count alone (never from a capacity, which depends on
        // the history of the buffers): the same world state takes the same path.
        let cap = ROAM_MIN + m / ROAM_SHARE;
        let room = ROAM_LIST_RESERVE * cap;
        let (inv_h, horizon) = (1.0 / h, HORIZON_SUBSTEPS * h);
        let v_mean = self.drift_velocity;
        for k in 0..m {
            // Out of its skin (or NaN): flagged by the refresh.
            if !self.stale[k] {
                continue;
            }
            if self.fast[k] {
                // Its skin was its own motion's: a build finds its new reach.
                return false;
            }
            let p = self.hot[k];
            let b = self.base[k];
            if self.roam_index[k] == EMPTY {
                if self.roaming.len() >= cap {
                    return false;
                }
                self.roam_index[k] = 0;
                self.roaming.push(k as u32);
            }
            // The skin of a build, from the motion now, at most the slow cut (so the
            // grid's cells still hold every partner within SLOW_CELLS cells).
            let i = self.order.order()[k] as usize;
            let r = self.radius[k];
            let v = if p.w != 0.0 {
                particles.velocity[i] + p.truncate() * inv_h
            } else {
                Vec3::ZERO
            };
            let s = (v - v_mean).length() * horizon;
            let floor = MIN_SKIN * r;
            let s = if s.is_finite() {
                s.clamp(floor, self.s_cut.max(floor))
            } else {
                floor
            };
            self.skin[k] = s;
            self.skin_of[i] = s;
            self.extent[k] = r + s;
            self.anchor_base[k] = b;
            self.anchor_hot[k] = p.truncate() - drift;
        }
        self.roaming.sort_unstable();
        // The grid of the roaming slots: a stable counting sort by bucket.
        let rm = self.roaming.len();
        let table = roam_table(rm);
        let rgrid = Hashed {
            mask: (table - 1) as u32,
        };
        let inv_cell = 1.0 / self.cell;
        self.roam_bucket.clear();
        for idx in 0..rm {
            let k = self.roaming[idx] as usize;
            self.roam_index[k] = idx as u32;
            let c = particle_cell(
                self.anchor_base[k],
                self.anchor_hot[k].extend(0.0),
                inv_cell,
            );
            self.roam_bucket.push(rgrid.bucket(c));
        }
        self.roam_start.clear();
        self.roam_start.resize(table + 1, 0);
        for &b in &self.roam_bucket {
            self.roam_start[b as usize + 1] += 1;
        }
        for t in 0..table {
            self.roam_start[t + 1] += self.roam_start[t];
        }
        self.roam_order.clear();
        self.roam_order.resize(rm, 0);
        self.roam_row.clear();
        self.roam_row.resize(rm, 0);
        for idx in 0..rm {
            let k = self.roaming[idx] as usize;
            let b = self.roam_bucket[idx] as usize;
            let at = self.roam_start[b] as usize;
            self.roam_start[b] += 1;
            let c = particle_cell(
                self.anchor_base[k],
                self.anchor_hot[k].extend(0.0),
                inv_cell,
            );
            self.roam_order[at] = k as u32;
            self.roam_row[at] = row_id(c[1], c[2]);
        }
        for t in (1..=table).rev() {
            self.roam_start[t] = self.roam_start[t - 1];
        }
        self.roam_start[0] = 0;
        let mut lists = std::mem::take(&mut self.roam_lists);
        let mut ends = std::mem::take(&mut self.roam_end);
        let ok = match self.roam_scan_parts(exec, rgrid) {
            Some(()) => self.join_parts(&mut lists, &mut ends, room),
            None => self.roam_scan(&mut lists, &mut ends, rgrid, room),
        };
        self.roam_lists = lists;
        self.roam_end = ends;
        if !ok {
            return false;
        }
        // The other side of each (roaming, movable non-roaming) pair.
        self.side_pairs.clear();
        for idx in 0..self.roaming.len() {
            let k = self.roaming[idx];
            let start = if idx == 0 {
                0
            } else {
                self.roam_end[idx - 1] as usize
            };
            for &j in &self.roam_lists[start..self.roam_end[idx] as usize] {
                if self.roam_index[j as usize] == EMPTY && self.hot[j as usize].w != 0.0 {
                    if self.side_pairs.len() == room {
                        return false;
                    }
                    self.side_pairs.push([j, k]);
                }
            }
        }
        if !self.fast_slots.is_empty() && !self.roam_fast_pairs(room) {
            return false;
        }
        self.side_pairs.sort_unstable();
        true
    }

    /// The (roaming slot, fast slot) pairs of a partial update: the build's pairs of
    /// the roaming slots dropped, each roaming slot tested against every fast one by
    /// the build's test at their anchors (a fast slot never roams), a movable
    /// roaming slot seeing its fast partners in `fast_pairs` (sorted again) and every
    /// fast slot seeing its roaming partners through side pairs (the roaming entries
    /// of its own list are skipped like any other slot's). False when the pairs would
    /// outgrow their room: `room` side pairs, and the fast pairs of the last build or
    /// `FAST_PAIRS_RESERVE` per fast slot of the bound, whichever is more (both
    /// reserved, and both from the world's state alone, never from a buffer's
    /// capacity: the same state takes the same path).
    fn roam_fast_pairs(&mut self, room: usize) -> bool {
        let fast_room = (FAST_PAIRS_RESERVE * fast_bound(self.len())).max(self.fast_built);
        debug_assert!(self.fast_pairs.capacity() >= fast_room);
        let roam_index = &self.roam_index;
        self.fast_pairs
            .retain(|p| roam_index[p[0] as usize] == EMPTY);
        for idx in 0..self.roaming.len() {
            let k = self.roaming[idx] as usize;
            for &f in &self.fast_slots {
                let f = f as usize;
                if !self.anchored_pair(k, f) {
                    continue;
                }
                if self.hot[k].w != 0.0 {
                    if self.fast_pairs.len() == fast_room {
                        return false;
                    }
                    self.fast_pairs.push([k as u32, f as u32]);
                }
                if self.side_pairs.len() == room {
                    return false;
                }
                self.side_pairs.push([f as u32, k as u32]);
            }
        }
        self.fast_pairs.sort_unstable();
        true
    }

    /// Whether slots k and j (k ≠ j) are partners by the build's test at their
    /// anchors: `|a_k − a_j| < e_k + e_j` (positions minus the drift, extents radius +
    /// skin, m) and the collision filter.
    #[inline(always)]
    fn anchored_pair(&self, k: usize, j: usize) -> bool {
        let reach = self.extent[k] + self.extent[j];
        let sep = Vec3::from(self.anchor_base[k] - self.anchor_base[j])
            + (self.anchor_hot[k] - self.anchor_hot[j]);
        sep.length_squared() < reach * reach && j != k && self.filter[k].collides(&self.filter[j])
    }

    /// The lists of the roaming slots into `lists` / `ends` (see
    /// [`Self::partial_update`]); false when they outgrow the reserved room. Pairs
    /// are compared at their anchors, like a build: listed within the sum of their
    /// extents.
    fn roam_scan(
        &self,
        lists: &mut Vec<u32>,
        ends: &mut Vec<u32>,
        rgrid: Hashed,
        room: usize,
    ) -> bool {
        lists.clear();
        ends.clear();
        for &k in &self.roaming {
            if !self.roam_list_of(k as usize, rgrid, lists, room) {
                return false;
            }
            ends.push(lists.len() as u32);
        }
        true
    }

    /// [`Self::roam_scan`] in parallel, per part of `ROAM_PART` roaming slots, into
    /// `roam_parts` and `roam_part_end` (each slot's list exactly as the serial scan
    /// finds it: the same tests in the same order). None when it does not run in
    /// parallel (too few roaming slots, one thread) or a part outgrew its reserved
    /// room (the serial scan then decides against the whole room).
    fn roam_scan_parts(&mut self, exec: &Executor, rgrid: Hashed) -> Option<()> {
        let rm = self.roaming.len();
        let parts = rm.div_ceil(ROAM_PART);
        if exec.threads() <= 1 || parts < 2 || self.roam_parts.len() < parts {
            return None;
        }
        let mut bufs = std::mem::take(&mut self.roam_parts);
        let mut ends = std::mem::take(&mut self.roam_part_end);
        ends.clear();
        ends.resize(rm, 0);
        let full = std::sync::atomic::AtomicBool::new(false);
        {
            let this = &*self;
            let full = &full;
            let parts_of = (
                Rows::new(&mut bufs[..parts]),
                Blocks::new(&mut ends[..rm], ROAM_PART),
            );
            exec.for_each_item(parts_of, rm * ROAM_SCAN_WORK, |c, (buf, ends)| {
                let buf = &mut buf[0];
                buf.clear();
                let slots = &this.roaming[c * ROAM_PART..((c + 1) * ROAM_PART).min(rm)];
                for (end, &k) in ends.iter_mut().zip(slots) {
                    let limit = ROAM_LIST_RESERVE * ROAM_PART;
                    if !this.roam_list_of(k as usize, rgrid, buf, limit) {
                        full.store(true, std::sync::atomic::Ordering::Relaxed);
                        return;
                    }
                    *end = buf.len() as u32;
                }
            });
        }
        self.roam_parts = bufs;
        self.roam_part_end = ends;
        (!full.into_inner()).then_some(())
    }

    /// The lists of [`Self::roam_scan_parts`] into `lists` / `ends`, in slot order;
    /// false when they exceed `room` (as the serial scan would find).
    fn join_parts(&self, lists: &mut Vec<u32>, ends: &mut Vec<u32>, room: usize) -> bool {
        lists.clear();
        ends.clear();
        let rm = self.roaming.len();
        for (c, buf) in self.roam_parts[..rm.div_ceil(ROAM_PART)].iter().enumerate() {
            if lists.len() + buf.len() > room {
                return false;
            }
            let at = lists.len() as u32;
            lists.extend_from_slice(buf);
            let part = &self.roam_part_end[c * ROAM_PART..((c + 1) * ROAM_PART).min(rm)];
            ends.extend(part.iter().map(|&e| at + e));
        }
        true
    }

    /// Appends roaming slot k's list to `out`; false when `out` would hold more than
    /// `limit` entries.
    fn roam_list_of(&self, k: usize, rgrid: Hashed, out: &mut Vec<u32>, limit: usize) -> bool {
        let inv_cell = 1.0 / self.cell;
        let (bk, hk) = (self.anchor_base[k], self.anchor_hot[k]);
        let keep = |j: usize| self.anchored_pair(k, j);
        let mut push = |j: usize| {
            if out.len() == limit {
                return Err(());
            }
            out.push(j as u32);
            Ok(())
        };
        let c = particle_cell(bk, hk.extend(0.0), inv_cell);
        let grid = self.for_runs(c, SLOW_CELLS, |run, row| {
            for j in run {
                // Fast partners are tested apart (`roam_fast_pairs`).
                if row.is_none_or(|r| self.row[j] == r)
                    && self.roam_index[j] == EMPTY
                    && !self.fast[j]
                    && keep(j)
                {
                    push(j)?;
                }
            }
            Ok(())
        });
        if grid.is_err() {
            return false;
        }
        // Roaming partners: the same cells in the grid of the roaming slots.
        let roaming = rgrid.for_runs(c, SLOW_CELLS, |row, lo, hi| {
            let row = row_id(row[0], row[1]);
            let run = self.roam_start[lo] as usize..self.roam_start[hi] as usize;
            for at in run {
                let j = self.roam_order[at] as usize;
                if self.roam_row[at] == row && keep(j) {
                    push(j)?;
                }
            }
            Ok(())
        });
        roaming.is_ok()
    }
}

//! The Gauss-Seidel distance kernel for blocks laid out like a grid: a block whose
//! colours are mostly groups of eight slots whose ends are runs of particles (a
//! cloth's rows: each colour of a grid is whole rows of one family of links) copies
//! its particles once into a block-local array of rows (x, y, z and inverse mass of
//! the hot records, x, y, z of the base positions), projects its colours there and
//! copies the hot records back; the other kernels transpose both ends' records into
//! lanes and back for every projection, twelve times per particle and substep in a
//! cloth, which is what bounds them (README, "Roofline").
//!
//! Within a colour the schedule orders slots by the pair's index difference and its
//! first particle (`solver::schedule`), so that eight consecutive slots of one row are
//! one of these [`Kind`]s of group, read from the rows with one or two loads per
//! coordinate and end:
//!
//! * `Contiguous`: ends `a + k` and `b + k` (a cloth's links across rows);
//! * `Strided`: ends `a + 2k` and `b + 2k`, |b − a| ≥ 16 (links across rows in every
//!   other column): each end's eight values are the even lanes of a 16-value window,
//!   written back into it;
//! * `EvenOdd`: ends `a + 2k` and `a + 2k + 1` (links along a row): one window, its
//!   even and odd lanes;
//! * `Pairs`: ends `a + {0, 1, 4, 5, 8, 9, 12, 13}` and two further (bending links two
//!   apart along a row): one window, its lanes taken in pairs.
//!
//! The rest of a colour's slots run one at a time from the same rows. Every slot
//! performs the IEEE operations of `distance_avx` (and so of every other kernel) lane
//! by lane, so the results are the same bits whichever kernel runs; a unit test
//! compares them.

use std::ops::Range;

use super::distance::Slots;
use crate::error::Result;
use crate::solver::schedule::Schedule;

/// Rows of a block's copy: hot x, y, z, inverse mass, base x, y, z.
const ROWS: usize = 7;

/// Share of a block's slots that must be in groups for the block to run this kernel:
/// the single slots cost about four times a grouped one, and the copy in and out about
/// one projection per particle (a cloth body of 128 × 128 whose bending links fall into
/// no group, 81% grouped, ran 1.28 times slower than with the other kernels; the
/// benchmark cloths are 99% grouped).
const MIN_COVERED: f32 = 0.95;

/// How a group's ends lie in the rows (see the module doc).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[repr(u8)]
pub(crate) enum Kind {
    Contiguous,
    Strided,
    EvenOdd,
    Pairs,
}

/// Up to eight consecutive slots from `slot` whose ends lie in the block's rows as
/// `kind` says, starting at rows `a` and `b` (block-local particle indices).
#[derive(Clone, Copy, Debug)]
pub(crate) struct Group {
    slot: u32,
    a: u32,
    b: u32,
    kind: Kind,
    /// Slots in the group (2..=8): the lanes beyond are computed and not kept.
    lanes: u8,
}

/// One slot projected alone, with its ends' block-local indices.
#[derive(Clone, Copy, Debug)]
struct Single {
    slot: u32,
    a: u32,
    b: u32,
}

/// The grid plan of one block: its particles and, per colour, its groups and single
/// slots.
#[derive(Debug, Default)]
struct BlockPlan {
    /// First particle and particle count of the block (the count it was built for).
    first: u32,
    len: u32,
    /// `groups[colour_groups[c]..colour_groups[c + 1]]` are colour c's groups, the same
    /// for `singles`.
    colour_groups: Vec<u32>,
    colour_singles: Vec<u32>,
    /// Offset of the block's copy in the scratch, in floats.
    scratch_at: usize,
}

/// The grid plans of a set's blocks (`None` for a block that runs the other kernels)
/// and the room for their copies.
#[derive(Debug, Default)]
pub(crate) struct GridPlan {
    blocks: Vec<Option<BlockPlan>>,
    groups: Vec<Group>,
    singles: Vec<Single>,
    /// Particles per block (the schedule's block size): each planned block's copy is
    /// `ROWS` rows of this many values.
    size: usize,
    /// Floats of scratch the planned blocks' copies take together.
    scratch_len: usize,
    /// Whether the CPU has AVX-512F and AVX-512VL, for the kernel's wide build (32
    /// vector registers; the same operations, so the same bits). Set only where the
    /// CPU has them ([`GridPlan::new`], [`GridPlan::set_wide`]): `project_block` relies
    /// on it.
    wide: bool,
}

impl GridPlan {
    /// The plan of the interior slots `pairs` of `schedule` over `particle_count`
    /// particles: the blocks at least [`MIN_COVERED`] in groups get one.
    pub(crate) fn new(
        pairs: &[[u32; 2]],
        schedule: &Schedule,
        particle_count: usize,
    ) -> Result<Self> {
        let size = schedule.block_size as usize;
        let mut plan = GridPlan {
            size,
            wide: super::simd::avx512vl_available(),
            ..GridPlan::default()
        };
        if !super::simd::avx2_available() {
            return Ok(plan);
        }
        for (b, &id) in schedule.block_ids.iter().enumerate() {
            let first = id as usize * size;
            let len = particle_count.saturating_sub(first).min(size);
            let (groups0, singles0) = (plan.groups.len(), plan.singles.len());
            let mut block = BlockPlan {
                first: first as u32,
                len: len as u32,
                colour_groups: vec![groups0 as u32],
                colour_singles: vec![singles0 as u32],
                scratch_at: plan.scratch_len,
            };
            let mut covered = 0usize;
            let mut total = 0usize;
            let slots_end = schedule.block_colours(b).last().map_or(0, |c| c.end);
            for colour in schedule.block_colours(b) {
                total += colour.len();
                covered += plan.file_colour(pairs, colour, slots_end, first, len)?;
                block.colour_groups.push(plan.groups.len() as u32);
                block.colour_singles.push(plan.singles.len() as u32);
            }
            if total > 0 && covered as f32 >= MIN_COVERED * total as f32 {
                plan.scratch_len += ROWS * size;
                plan.blocks.push(Some(block));
            } else {
                plan.groups.truncate(groups0);
                plan.singles.truncate(singles0);
                plan.blocks.push(None);
            }
        }
        Ok(plan)
    }

    /// Files the slots `colour` of a block of particles `first..first + len`, whose
    /// slots end at `slots_end`, into groups and singles; returns the slots in groups.
    fn file_colour(
        &mut self,
        pairs: &[[u32; 2]],
        colour: Range<usize>,
        slots_end: usize,
        first: usize,
        len: usize,
    ) -> Result<usize> {
        let local = |p: u32| p as usize - first;
        let mut s = colour.start;
        let mut covered = 0;
        while s < colour.end {
            let ahead = &pairs[s..(s + 8).min(colour.end)];
            // A group of fewer than eight slots still reads and writes back eight
            // slots' values, which must be this block's.
            let room = s + 8 <= slots_end;
            if let Some(g) = group_at(ahead, room, local, len) {
                crate::error::try_reserve(&mut self.groups, 1, "distance grid plan")?;
                self.groups.push(Group {
                    slot: s as u32,
                    ..g
                });
                s += g.lanes as usize;
                covered += g.lanes as usize;
                continue;
            }
            let [a, b] = pairs[s];
            crate::error::try_reserve(&mut self.singles, 1, "distance grid plan")?;
            self.singles.push(Single {
                slot: s as u32,
                a: local(a) as u32,
                b: local(b) as u32,
            });
            s += 1;
        }
        Ok(covered)
    }

    /// Floats of scratch the planned blocks' copies need.
    pub(crate) fn scratch_len(&self) -> usize {
        self.scratch_len
    }

    /// Whether block item `b` (an entry of the schedule's `blocks`) runs this kernel.
    pub(crate) fn runs_block(&self, b: usize) -> bool {
        matches!(self.blocks.get(b), Some(Some(_)))
    }

    /// The scratch range of block item `b`'s copy (it must run this kernel).
    /// Panics for a block that does not.
    pub(crate) fn scratch_of(&self, b: usize) -> Range<usize> {
        let at = self.blocks[b].as_ref().expect("a planned block").scratch_at;
        at..at + ROWS * self.size
    }

    /// Runs the AVX2 build (`false`) or, where the CPU has AVX-512F and AVX-512VL, the
    /// wide one (`true`), for the tests that compare the two. Panics for the wide
    /// build on a CPU without them.
    #[cfg(test)]
    pub(crate) fn set_wide(&mut self, wide: bool) {
        assert!(!wide || super::simd::avx512vl_available(), "no AVX-512VL");
        self.wide = wide;
    }

    /// The particles of block item `b` (it must run this kernel). Panics for a block
    /// that does not.
    pub(crate) fn particles_of(&self, b: usize) -> Range<usize> {
        let block = self.blocks[b].as_ref().expect("a planned block");
        block.first as usize..(block.first + block.len) as usize
    }

    /// Slots in groups and slots alone, over every planned block.
    #[cfg(test)]
    pub(crate) fn coverage(&self) -> (usize, usize) {
        (8 * self.groups.len(), self.singles.len())
    }
}

/// The group the first slots of `g` (at most eight, of one colour) form, if at least
/// two of them do, with their ends' block-local indices (`local`) in a block of `len`
/// particles (each window inside the block, and windows of the two ends apart); a
/// group of fewer than eight only with `room` (the eight slots' values are the
/// block's).
fn group_at(g: &[[u32; 2]], room: bool, local: impl Fn(u32) -> usize, len: usize) -> Option<Group> {
    let (a0, b0) = (local(g[0][0]), local(g[0][1]));
    let off = b0 as i64 - a0 as i64;
    let prefix = |pattern: [usize; 8]| {
        g.iter()
            .zip(pattern)
            .take_while(|(p, o)| {
                local(p[0]) == a0 + o && local(p[1]) as i64 == (a0 + o) as i64 + off
            })
            .count()
    };
    let fits = |start: usize, width: usize| start + width <= len;
    let mut best: Option<(Kind, usize)> = None;
    let mut consider = |kind: Kind, n: usize, ok: bool| {
        if ok && n >= 2 && (n == 8 || room) && best.is_none_or(|(_, m)| n > m) {
            best = Some((kind, n));
        }
    };
    consider(
        Kind::Contiguous,
        prefix([0, 1, 2, 3, 4, 5, 6, 7]),
        off.abs() >= 8 && fits(a0, 8) && fits(b0, 8),
    );
    let strided = prefix([0, 2, 4, 6, 8, 10, 12, 14]);
    consider(Kind::EvenOdd, strided, off == 1 && fits(a0, 16));
    consider(
        Kind::Strided,
        strided,
        off.abs() >= 16 && fits(a0, 16) && fits(b0, 16),
    );
    consider(
        Kind::Pairs,
        prefix([0, 1, 4, 5, 8, 9, 12, 13]),
        off == 2 && fits(a0, 16),
    );
    best.map(|(kind, n)| Group {
        slot: 0,
        a: a0 as u32,
        b: b0 as u32,
        kind,
        lanes: n as u8,
    })
}

#[cfg(target_arch = "x86_64")]
pub(crate) use avx::project_block;

#[cfg(target_arch = "x86_64")]
mod avx {
    use std::arch::x86_64::*;

    use super::{BlockPlan, GridPlan, Group, Kind, Single, Slots, ROWS};
    use crate::kernels::distance::MIN_LENGTH;
    use crate::kernels::distance_avx::{softness_terms, solve8, Block};
    use crate::kernels::predict::avx2::{eight, Lanes};
    use crate::kernels::predict::{update_and_predict, Boundary};
    use crate::math::{Vec3, Vec3A, Vec4};

    /// Projects block item `b`'s colours in turn with its grid plan: copies the block's
    /// particles into `scratch` (its [`GridPlan::scratch_of`] range), runs the groups and
    /// single slots of each colour there, and copies the hot records back. With
    /// `pass` (the substep boundary and the velocities), it first runs the velocity
    /// update and predict (`predict::update_and_predict`) on the block's particles as
    /// it copies them in: the same operations per particle, so the same bits, with
    /// the hot records written once, by the copy back. Where the plan says the CPU has
    /// AVX-512VL ([`GridPlan::wide`]), the same code is compiled with it: the same
    /// eight-lane operations, with 32 vector registers instead of 16 (no spills).
    ///
    /// # Safety
    /// The CPU has AVX and AVX2 (the plan is only made where it does); block item `b`
    /// runs this kernel ([`GridPlan::runs_block`]); `hot`, `base` and, with `pass`, the
    /// velocities hold the block's particles (`first..first + len` of its plan) and no
    /// other thread touches them nor the block's slots and λ meanwhile (the sweep's
    /// stage 0); `slots` are the slots the plan was built from.
    #[allow(clippy::too_many_arguments)]
    pub(crate) unsafe fn project_block(
        plan: &GridPlan,
        b: usize,
        slots: &Slots<'_>,
        hot: *mut Vec4,
        base: *mut Vec3A,
        pass: Option<(&Boundary, *mut Vec3)>,
        scratch: &mut [f32],
        inv_h2: f32,
    ) {
        let block = plan.blocks[b].as_ref().expect("a planned block");
        let size = plan.size;
        assert_eq!(scratch.len(), ROWS * size, "distance grid: scratch");
        let job = Job {
            plan,
            block,
            slots,
            hot,
            base,
            pass,
            rows: Rows {
                p: scratch.as_mut_ptr(),
                size,
            },
            inv_h2,
        };
        // SAFETY: the caller's promise; `plan.wide` only where the CPU has AVX-512F and
        // AVX-512VL (`GridPlan::new`).
        unsafe {
            if plan.wide {
                wide(&job)
            } else {
                narrow(&job)
            }
        }
    }

    /// [`Job::run`] with AVX2.
    ///
    /// # Safety
    /// As [`Job::run`].
    #[target_feature(enable = "avx,avx2")]
    unsafe fn narrow(job: &Job<'_>) {
        // SAFETY: the caller's promise.
        unsafe { job.run() }
    }

    /// [`Job::run`] with AVX2, AVX-512F and AVX-512VL.
    ///
    /// # Safety
    /// As [`Job::run`]; the CPU has AVX-512F and AVX-512VL.
    #[target_feature(enable = "avx,avx2,avx512f,avx512vl")]
    unsafe fn wide(job: &Job<'_>) {
        // SAFETY: the caller's promise.
        unsafe { job.run() }
    }

    /// One call of [`project_block`]: the block's plan, the arrays and its rows.
    struct Job<'a> {
        plan: &'a GridPlan,
        block: &'a BlockPlan,
        slots: &'a Slots<'a>,
        hot: *mut Vec4,
        base: *mut Vec3A,
        pass: Option<(&'a Boundary, *mut Vec3)>,
        rows: Rows,
        /// 1 / h² of the substep (1/s²), for the XPBD α = compliance / h².
        inv_h2: f32,
    }

    impl Job<'_> {
        /// The body of [`project_block`].
        ///
        /// # Safety
        /// As [`project_block`]; AVX and AVX2 are enabled in the caller; the rows are
        /// the block's scratch.
        #[inline(always)]
        unsafe fn run(&self) {
            let Job {
                plan,
                block,
                slots,
                hot,
                base,
                pass,
                ref rows,
                inv_h2,
            } = *self;
            let (first, len) = (block.first as usize, block.len as usize);
            // SAFETY: the block's particles are `first..first + len` of `hot`, `base` and
            // the velocities, this item's alone (safety section); the rows hold `size ≥
            // len` values each.
            unsafe {
                match pass {
                    None => copy_in(rows, hot.add(first), base.add(first), len),
                    Some((s, velocity)) => copy_in_after_pass(
                        rows,
                        hot.add(first),
                        base.add(first),
                        velocity.add(first),
                        len,
                        s,
                    ),
                }
            }
            let rigid =
                slots.fresh && slots.uniform.map(f32::to_bits) == Some(0) && inv_h2.is_finite();
            for c in 0..block.colour_groups.len() - 1 {
                let groups = &plan.groups
                    [block.colour_groups[c] as usize..block.colour_groups[c + 1] as usize];
                let singles = &plan.singles
                    [block.colour_singles[c] as usize..block.colour_singles[c + 1] as usize];
                // SAFETY: the groups' windows and the singles' ends lie in the rows
                // (checked when the plan was made), their slots in the slot arrays; the
                // slots of one colour share no particle (the schedule).
                unsafe {
                    match (slots.fresh, rigid) {
                        (true, true) => colour::<true, true>(groups, singles, slots, rows, inv_h2),
                        (true, false) => {
                            colour::<true, false>(groups, singles, slots, rows, inv_h2)
                        }
                        _ => colour::<false, false>(groups, singles, slots, rows, inv_h2),
                    }
                }
            }
            // SAFETY: as for the copy in.
            unsafe { copy_out(rows, hot.add(first), len) };
        }
    }

    /// A block's rows: row r of `size` values at `p + r · size`.
    struct Rows {
        p: *mut f32,
        size: usize,
    }

    impl Rows {
        #[inline(always)]
        fn row(&self, r: usize) -> *mut f32 {
            // SAFETY: r < ROWS, within the scratch (`project_block`).
            unsafe { self.p.add(r * self.size) }
        }
    }

    /// Copies `len` hot records and base positions into the rows.
    ///
    /// # Safety
    /// AVX is enabled; `hot` and `base` point to `len` readable records each; the rows
    /// hold at least `len` values.
    #[inline(always)]
    unsafe fn copy_in(rows: &Rows, hot: *const Vec4, base: *const Vec3A, len: usize) {
        use crate::kernels::simd::avx::load_lanes;
        let mut i = 0;
        // SAFETY: the caller's promise; records are 16 bytes (four floats).
        unsafe {
            while i + 8 <= len {
                let h = load_lanes(hot.add(i) as *const f32);
                let q = load_lanes(base.add(i) as *const f32);
                store_rows(rows, i, h, q);
                i += 8;
            }
            copy_in_from(rows, hot, base, i, len);
        }
    }

    /// Stores eight particles' hot records `h` (x, y, z, inverse mass) and base
    /// positions `q` (x, y, z; the fourth lane is not kept), in lanes, at values
    /// `i..i + 8` of the rows.
    ///
    /// # Safety
    /// AVX is enabled; the rows hold at least `i + 8` values.
    #[inline(always)]
    unsafe fn store_rows(rows: &Rows, i: usize, h: [__m256; 4], q: [__m256; 4]) {
        // SAFETY: the caller's promise.
        unsafe {
            for (r, v) in h.into_iter().enumerate() {
                _mm256_storeu_ps(rows.row(r).add(i), v);
            }
            for (r, v) in q.into_iter().take(3).enumerate() {
                _mm256_storeu_ps(rows.row(4 + r).add(i), v);
            }
        }
    }

    /// [`copy_in`] of records `from..len`, one at a time.
    ///
    /// # Safety
    /// As [`copy_in`].
    #[inline(always)]
    unsafe fn copy_in_from(
        rows: &Rows,
        hot: *const Vec4,
        base: *const Vec3A,
        from: usize,
        len: usize,
    ) {
        // SAFETY: the caller's promise.
        unsafe {
            for i in from..len {
                let h = *hot.add(i);
                let q = *base.add(i);
                for (r, v) in [h.x, h.y, h.z, h.w, q.x, q.y, q.z].into_iter().enumerate() {
                    *rows.row(r).add(i) = v;
                }
            }
        }
    }

    /// [`copy_in`] of the records after the velocity update and predict
    /// (`predict::update_and_predict`), which writes the base and velocity records
    /// (the hot ones are left to [`copy_out`]).
    ///
    /// # Safety
    /// AVX2 is enabled; `hot`, `base` and `velocity` point to `len` readable and
    /// writable records each; the rows hold at least `len` values.
    #[inline(always)]
    unsafe fn copy_in_after_pass(
        rows: &Rows,
        hot: *mut Vec4,
        base: *mut Vec3A,
        velocity: *mut Vec3,
        len: usize,
        s: &Boundary,
    ) {
        let whole = len / 8 * 8;
        // SAFETY: the caller's promise (particles i..i + 8 lie within the `len`).
        unsafe {
            let c = Lanes::new(s);
            let mut ok = _mm256_setzero_ps(); // (no check)
            let mut i = 0;
            while i < whole {
                let (h, q) = eight::<true, true, false, false>(
                    &c,
                    hot.add(i).cast(),
                    base.add(i).cast(),
                    velocity.add(i).cast(),
                    std::ptr::null_mut(),
                    &mut ok,
                );
                store_rows(rows, i, h, q);
                i += 8;
            }
            let n = len - whole;
            update_and_predict(
                std::slice::from_raw_parts_mut(hot.add(whole), n),
                std::slice::from_raw_parts_mut(base.add(whole), n),
                std::slice::from_raw_parts_mut(velocity.add(whole), n),
                s,
            );
            copy_in_from(rows, hot, base, whole, len);
        }
    }

    /// Copies the rows' hot records back.
    ///
    /// # Safety
    /// As [`copy_in`], `hot` writable.
    #[inline(always)]
    unsafe fn copy_out(rows: &Rows, hot: *mut Vec4, len: usize) {
        use crate::kernels::simd::avx::store_lanes;
        let mut i = 0;
        // SAFETY: the caller's promise (records i..i + 8 lie within the `len`).
        unsafe {
            while i + 8 <= len {
                let v = [
                    _mm256_loadu_ps(rows.row(0).add(i)),
                    _mm256_loadu_ps(rows.row(1).add(i)),
                    _mm256_loadu_ps(rows.row(2).add(i)),
                    _mm256_loadu_ps(rows.row(3).add(i)),
                ];
                store_lanes(hot.add(i) as *mut f32, v);
                i += 8;
            }
            while i < len {
                let r = |k: usize| *rows.row(k).add(i);
                *hot.add(i) = Vec4::new(r(0), r(1), r(2), r(3));
                i += 1;
            }
        }
    }

    /// One colour: its groups, then its single slots.
    ///
    /// # Safety
    /// As [`project_block`] for this colour's groups and singles; AVX2 is enabled.
    #[inline(always)]
    unsafe fn colour<const FRESH: bool, const RIGID: bool>(
        groups: &[Group],
        singles: &[Single],
        slots: &Slots<'_>,
        rows: &Rows,
        inv_h2: f32,
    ) {
        for g in groups {
            // SAFETY: the caller's promise, for this group.
            unsafe {
                match g.kind {
                    Kind::Contiguous => contiguous::<FRESH, RIGID>(g, slots, rows, inv_h2),
                    Kind::Strided => windows::<FRESH, RIGID>(g, slots, rows, inv_h2),
                    Kind::EvenOdd => shared_window::<FRESH, RIGID, true>(g, slots, rows, inv_h2),
                    Kind::Pairs => shared_window::<FRESH, RIGID, false>(g, slots, rows, inv_h2),
                }
            }
        }
        for s in singles {
            // SAFETY: as above, for this slot.
            unsafe { single(s, slots, rows, inv_h2) };
        }
    }

    /// The lanes of one end of eight slots.
    #[derive(Clone, Copy)]
    struct End {
        /// Hot x, y, z, inverse mass.
        h: [__m256; 4],
        /// Base x, y, z.
        q: [__m256; 3],
    }

    /// The slot values of a group in the lane order `order` (`None`: slot order; `Some`:
    /// the lanes hold slots 0, 1, 4, 5, 2, 3, 6, 7, as the window kernels' shuffles leave
    /// them).
    #[inline(always)]
    unsafe fn slot_lanes(v: *const f32, permuted: bool) -> __m256 {
        // SAFETY: the caller reads eight values of a slot array.
        unsafe {
            let x = _mm256_loadu_ps(v);
            if permuted {
                _mm256_castpd_ps(_mm256_permute4x64_pd::<0xD8>(_mm256_castps_pd(x)))
            } else {
                x
            }
        }
    }

    /// Stores eight lanes to a slot array in slot order (the inverse of [`slot_lanes`]).
    #[inline(always)]
    unsafe fn store_slot_lanes(v: *mut f32, x: __m256, permuted: bool) {
        // SAFETY: the caller writes eight values of a slot array.
        unsafe {
            let x = if permuted {
                _mm256_castpd_ps(_mm256_permute4x64_pd::<0xD8>(_mm256_castps_pd(x)))
            } else {
                x
            };
            _mm256_storeu_ps(v, x);
        }
    }

    /// Projects eight slots from `s` whose ends are `a` and `b`: the AVX kernel's
    /// `solve8` lane by lane; returns the ends' new hot x, y, z. λ is read and written
    /// in the lane order `permuted` (see [`slot_lanes`]).
    #[inline(always)]
    unsafe fn solve<const FRESH: bool, const RIGID: bool>(
        s: usize,
        a: &End,
        b: &End,
        slots: &Slots<'_>,
        inv_h2: f32,
        permuted: bool,
        lanes: u8,
    ) -> ([__m256; 3], [__m256; 3]) {
        // SAFETY: slots s..s + 8 lie in the slot arrays (the plan), this item's alone.
        unsafe {
            // The lanes kept (a group of fewer than eight slots): the others' λ and
            // ends are written back as they were.
            // (No closure: one passed to a generic function such as `bool::then` is
            // compiled without AVX, and its intrinsics become calls.)
            let keep = if lanes < 8 {
                let idx = if permuted {
                    _mm256_setr_epi32(0, 1, 4, 5, 2, 3, 6, 7)
                } else {
                    _mm256_setr_epi32(0, 1, 2, 3, 4, 5, 6, 7)
                };
                Some(_mm256_castsi256_ps(_mm256_cmpgt_epi32(
                    _mm256_set1_epi32(lanes as i32),
                    idx,
                )))
            } else {
                None
            };
            let sep = |k: usize| {
                _mm256_add_ps(_mm256_sub_ps(a.q[k], b.q[k]), _mm256_sub_ps(a.h[k], b.h[k]))
            };
            let lambda_at = slots.lambda.as_ptr().add(s);
            let zero = _mm256_setzero_ps();
            let (alpha, k, lambda) = if RIGID {
                // Unused (see `distance_avx::solve8`).
                (zero, zero, zero)
            } else {
                let softness = match slots.uniform {
                    Some(v) => _mm256_set1_ps(v),
                    None => slot_lanes(slots.softness.as_ptr().add(s), permuted),
                };
                let (alpha, k) = softness_terms(softness, inv_h2);
                let lambda = if FRESH {
                    zero
                } else {
                    slot_lanes(lambda_at, permuted)
                };
                (alpha, k, lambda)
            };
            let out = solve8::<RIGID>(Block {
                ia: [0; 8],
                ib: [0; 8],
                a: a.h,
                b: b.h,
                d: [sep(0), sep(1), sep(2)],
                rest: slot_lanes(slots.rest.as_ptr().add(s), permuted),
                alpha,
                k,
                lambda,
            });
            let new_lambda = match keep {
                None => out.lambda,
                Some(m) => _mm256_blendv_ps(slot_lanes(lambda_at, permuted), out.lambda, m),
            };
            store_slot_lanes(lambda_at, new_lambda, permuted);
            let (na, nb) = (
                [out.a[0], out.a[1], out.a[2]],
                [out.b[0], out.b[1], out.b[2]],
            );
            match keep {
                None => (na, nb),
                Some(m) => (
                    [
                        _mm256_blendv_ps(a.h[0], na[0], m),
                        _mm256_blendv_ps(a.h[1], na[1], m),
                        _mm256_blendv_ps(a.h[2], na[2], m),
                    ],
                    [
                        _mm256_blendv_ps(b.h[0], nb[0], m),
                        _mm256_blendv_ps(b.h[1], nb[1], m),
                        _mm256_blendv_ps(b.h[2], nb[2], m),
                    ],
                ),
            }
        }
    }

    /// A `Contiguous` group.
    #[inline(always)]
    unsafe fn contiguous<const FRESH: bool, const RIGID: bool>(
        g: &Group,
        slots: &Slots<'_>,
        rows: &Rows,
        inv_h2: f32,
    ) {
        // SAFETY: rows a..a + 8 and b..b + 8 lie in the block (the plan).
        unsafe {
            let (a, b) = (g.a as usize, g.b as usize);
            let (ea, eb) = (contiguous_end(rows, a), contiguous_end(rows, b));
            let (na, nb) =
                solve::<FRESH, RIGID>(g.slot as usize, &ea, &eb, slots, inv_h2, false, g.lanes);
            for r in 0..3 {
                _mm256_storeu_ps(rows.row(r).add(a), na[r]);
                _mm256_storeu_ps(rows.row(r).add(b), nb[r]);
            }
        }
    }

    /// The two halves of the 16 values at `p`, eight lanes each in the order of slots 0,
    /// 1, 4, 5, 2, 3, 6, 7 of a group (as [`slot_lanes`] says): with `EVEN_ODD` its even
    /// and its odd values; else values 0, 1, 4, 5, 8, 9, 12, 13 and the other eight.
    #[inline(always)]
    unsafe fn split<const EVEN_ODD: bool>(p: *const f32) -> (__m256, __m256) {
        // SAFETY: the caller reads 16 values.
        unsafe {
            let (v0, v1) = (_mm256_loadu_ps(p), _mm256_loadu_ps(p.add(8)));
            if EVEN_ODD {
                (
                    _mm256_shuffle_ps::<0x88>(v0, v1),
                    _mm256_shuffle_ps::<0xDD>(v0, v1),
                )
            } else {
                (
                    _mm256_shuffle_ps::<0x44>(v0, v1),
                    _mm256_shuffle_ps::<0xEE>(v0, v1),
                )
            }
        }
    }

    /// The inverse of [`split`]: stores the halves `lo` and `hi` back as the 16 values at
    /// `p`.
    #[inline(always)]
    unsafe fn join<const EVEN_ODD: bool>(p: *mut f32, lo: __m256, hi: __m256) {
        // SAFETY: the caller writes 16 values.
        unsafe {
            let (v0, v1) = if EVEN_ODD {
                (_mm256_unpacklo_ps(lo, hi), _mm256_unpackhi_ps(lo, hi))
            } else {
                (
                    _mm256_shuffle_ps::<0x44>(lo, hi),
                    _mm256_shuffle_ps::<0xEE>(lo, hi),
                )
            };
            _mm256_storeu_ps(p, v0);
            _mm256_storeu_ps(p.add(8), v1);
        }
    }

    /// A `Contiguous` group's end at row `at`.
    #[inline(always)]
    unsafe fn contiguous_end(rows: &Rows, at: usize) -> End {
        // SAFETY: the caller's window lies in the rows.
        unsafe {
            let ld = |r: usize| rows.row(r).add(at);
            End {
                h: [
                    _mm256_loadu_ps(ld(0)),
                    _mm256_loadu_ps(ld(1)),
                    _mm256_loadu_ps(ld(2)),
                    _mm256_loadu_ps(ld(3)),
                ],
                q: [
                    _mm256_loadu_ps(ld(4)),
                    _mm256_loadu_ps(ld(5)),
                    _mm256_loadu_ps(ld(6)),
                ],
            }
        }
    }

    /// [`split`] of the 16 values at `at` of each of the seven rows.
    #[inline(always)]
    unsafe fn split_rows<const EVEN_ODD: bool>(rows: &Rows, at: usize) -> [(__m256, __m256); ROWS] {
        // SAFETY: the caller's window lies in the rows.
        unsafe {
            let s = |r: usize| split::<EVEN_ODD>(rows.row(r).add(at));
            [s(0), s(1), s(2), s(3), s(4), s(5), s(6)]
        }
    }

    /// The end whose lanes are the first (or, with `second`, the second) halves of the
    /// rows' splits.
    #[inline(always)]
    fn end_of(v: &[(__m256, __m256); ROWS], second: bool) -> End {
        let h = |r: usize| if second { v[r].1 } else { v[r].0 };
        End {
            h: [h(0), h(1), h(2), h(3)],
            q: [h(4), h(5), h(6)],
        }
    }

    /// An `EvenOdd` (`EVEN_ODD`) or `Pairs` group: both ends in the window of 16 at `a`.
    #[inline(always)]
    unsafe fn shared_window<const FRESH: bool, const RIGID: bool, const EVEN_ODD: bool>(
        g: &Group,
        slots: &Slots<'_>,
        rows: &Rows,
        inv_h2: f32,
    ) {
        // SAFETY: rows a..a + 16 lie in the block (the plan).
        unsafe {
            let a = g.a as usize;
            let v = split_rows::<EVEN_ODD>(rows, a);
            let (ea, eb) = (end_of(&v, false), end_of(&v, true));
            let (na, nb) =
                solve::<FRESH, RIGID>(g.slot as usize, &ea, &eb, slots, inv_h2, true, g.lanes);
            for r in 0..3 {
                join::<EVEN_ODD>(rows.row(r).add(a), na[r], nb[r]);
            }
        }
    }

    /// A `Strided` group: each end the even lanes of its own window of 16 (the windows
    /// are at least 16 apart, so they do not overlap); the odd lanes are written back as
    /// they were read.
    #[inline(always)]
    unsafe fn windows<const FRESH: bool, const RIGID: bool>(
        g: &Group,
        slots: &Slots<'_>,
        rows: &Rows,
        inv_h2: f32,
    ) {
        // SAFETY: rows a..a + 16 and b..b + 16 lie in the block (the plan), apart.
        unsafe {
            let (a, b) = (g.a as usize, g.b as usize);
            let (ha, hb) = (split_rows::<true>(rows, a), split_rows::<true>(rows, b));
            let (ea, eb) = (end_of(&ha, false), end_of(&hb, false));
            let (na, nb) =
                solve::<FRESH, RIGID>(g.slot as usize, &ea, &eb, slots, inv_h2, true, g.lanes);
            for r in 0..3 {
                join::<true>(rows.row(r).add(a), na[r], ha[r].1);
                join::<true>(rows.row(r).add(b), nb[r], hb[r].1);
            }
        }
    }

    /// One slot from the rows: the same operations as one lane of [`solve`].
    #[inline(always)]
    unsafe fn single(s: &Single, slots: &Slots<'_>, rows: &Rows, inv_h2: f32) {
        // SAFETY: the slot's ends lie in the block's rows (the plan), its slot in the slot
        // arrays; both are this item's alone.
        unsafe {
            let (a, b, slot) = (s.a as usize, s.b as usize, s.slot as usize);
            let v = |r: usize, i: usize| *rows.row(r).add(i);
            let d: [f32; 3] =
                std::array::from_fn(|k| (v(4 + k, a) - v(4 + k, b)) + (v(k, a) - v(k, b)));
            let (aw, bw) = (v(3, a), v(3, b));
            let rest = *slots.rest.as_ptr().add(slot);
            let len = ((d[0] * d[0] + d[1] * d[1]) + d[2] * d[2]).sqrt();
            let neg_c = -(len - rest);
            let softness = match slots.uniform {
                Some(x) => x,
                None => *slots.softness.as_ptr().add(slot),
            };
            let lambda = if slots.fresh {
                0.0
            } else {
                *slots.lambda.as_ptr().add(slot)
            };
            let negative = softness.is_sign_negative();
            let alpha = if negative { 0.0 } else { softness * inv_h2 };
            let k = if negative { -softness } else { 1.0 };
            let moves = aw + bw;
            let denom = moves + alpha;
            let t = k * (neg_c - alpha * lambda);
            let finite = len < f32::INFINITY;
            let active = len > MIN_LENGTH && finite && moves > 0.0;
            let dl = if active { t / denom } else { 0.0 };
            let scale = if active { t / (denom * len) } else { 0.0 };
            *slots.lambda.as_ptr().add(slot) = lambda + dl;
            for (k, dk) in d.into_iter().enumerate() {
                let gk = if finite { dk * scale } else { 0.0 };
                *rows.row(k).add(a) = v(k, a) + gk * aw;
                *rows.row(k).add(b) = v(k, b) - gk * bw;
            }
        }
    }
}

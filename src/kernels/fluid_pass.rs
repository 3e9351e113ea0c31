//! The density solver's loops over a chunk of slots, the safe entry points of
//! [`super::fluid`]'s kernels: each takes a chunk's neighbour lists as [`SlotLists`]
//! (whose entries are checked to be slots once, when the grid build seals them),
//! checks the lengths of the records it reads once per chunk, picks the AVX or the
//! scalar loop and hands each slot's sums to the caller.
//!
//! The slot loop and the kernel are compiled together with the CPU feature (one
//! `#[target_feature]` function per loop, the kernel and the caller's per-slot code
//! inlined into it), as the density and correction passes need to run at full speed.

use super::fluid::{self, Consts, Density, Records, Spread};
use super::simd::Kernel;
use crate::error::{try_reserve, Result};

/// One chunk's neighbour lists, concatenated: the list of the chunk's slot `j` runs
/// from `ends[j - 1]` (0 for `j = 0`) to `ends[j]`, with `ends` the chunk's list ends
/// (kept by the caller, one per slot). Every entry is a slot below the bound that
/// [`Self::seal`] checked; editing the lists drops the bound until the next seal, and
/// the loops refuse lists without one.
#[derive(Debug)]
pub(crate) struct SlotLists {
    entries: Vec<u32>,
    /// Every entry is below it (`usize::MAX`: not sealed since the last edit).
    bound: usize,
}

impl Default for SlotLists {
    fn default() -> Self {
        SlotLists {
            entries: Vec::new(),
            bound: usize::MAX,
        }
    }
}

impl SlotLists {
    /// The entries, to be rebuilt; unsealed until the next [`Self::seal`].
    pub(crate) fn edit(&mut self) -> &mut Vec<u32> {
        self.bound = usize::MAX;
        &mut self.entries
    }

    /// Checks that every entry is below `slots` and records it as the bound. Panics
    /// otherwise (a build that lists a slot it does not have is a bug of the build).
    /// One pass over the chunk's entries, right after the build wrote them.
    pub(crate) fn seal(&mut self, slots: usize) {
        // A compare and an or per entry (no early exit: vectorised).
        let limit = u32::try_from(slots).unwrap_or(u32::MAX);
        let over = (self.entries.iter()).fold(0u32, |o, &j| o | u32::from(j >= limit));
        assert!(
            over == 0 || slots > u32::MAX as usize,
            "fluid lists: a slot listed past the grid's {slots} slots"
        );
        self.bound = slots;
    }

    /// Room for `total` entries (keeps the seal: no entry changes).
    pub(crate) fn reserve(&mut self, total: usize, what: &str) -> Result<()> {
        let grow = total.saturating_sub(self.entries.len());
        try_reserve(&mut self.entries, grow, what)
    }

    /// The list of the chunk's slot `j` (`ends`: the chunk's list ends).
    #[inline(always)]
    pub(crate) fn list(&self, ends: &[u32], j: usize) -> &[u32] {
        &self.entries[list_start(ends, j)..ends[j] as usize]
    }

    /// Panics unless the lists are sealed for at most `len` slots and the chunk's
    /// slots `first..first + slots` are below `len`: the kernels' contract.
    #[inline(always)]
    fn check(&self, len: usize, first: usize, slots: usize) {
        assert!(
            self.bound <= len && first.saturating_add(slots) <= len,
            "fluid lists: not sealed for {len} slots"
        );
    }
}

/// Every entry, in list order.
impl AsRef<[u32]> for SlotLists {
    #[inline(always)]
    fn as_ref(&self) -> &[u32] {
        &self.entries
    }
}

/// Where the chunk's slot `j`'s list starts in its lists (`ends`: the chunk's list
/// ends).
#[inline(always)]
pub(crate) fn list_start(ends: &[u32], j: usize) -> usize {
    if j == 0 {
        0
    } else {
        ends[j - 1] as usize
    }
}

/// A chunk loop: `fn $name(kernel, args…) { body }` runs `body` with `kernel`
/// where `kernel` is AVX through a copy compiled with the feature
/// (`#[target_feature]`: the loop, the kernel and the caller's per-slot code inlined
/// into it, no call per slot), otherwise with the scalar kernel.
macro_rules! chunk_loop {
    (
        $(#[$doc:meta])*
        $vis:vis fn $name:ident($kernel:ident $(, $arg:ident: $ty:ty)+ $(,)?) $body:block
    ) => {
        $(#[$doc])*
        #[inline]
        #[allow(clippy::too_many_arguments)]
        $vis fn $name($kernel: Kernel, $($arg: $ty),+) {
            #[inline(always)]
            #[allow(clippy::too_many_arguments)]
            fn run($kernel: Kernel, $($arg: $ty),+) $body
            #[cfg(target_arch = "x86_64")]
            #[target_feature(enable = "avx")]
            #[allow(clippy::too_many_arguments)]
            fn avx($($arg: $ty),+) {
                run(Kernel::Avx, $($arg),+)
            }
            match $kernel {
                #[cfg(target_arch = "x86_64")]
                // SAFETY: Kernel::Avx is only chosen where the CPU has AVX.
                Kernel::Avx => unsafe { avx($($arg),+) },
                _ => run(Kernel::Scalar, $($arg),+),
            }
        }
    };
}

chunk_loop! {
    /// The density sums ([`fluid::density`]) of the chunk's slots `first + j`
    /// (`j < ends.len()`) over their lists, positions `pos`; `each(k, sums)` per slot
    /// k, in slot order. Panics unless the lists are sealed for at most `pos.len()`
    /// slots and the chunk's slots are slots of `pos`.
    pub(crate) fn density_chunk(
        kernel,
        c: &Consts,
        pos: &Records,
        lists: &SlotLists,
        ends: &[u32],
        first: usize,
        each: impl FnMut(usize, Density),
    ) {
        let mut each = each;
        lists.check(pos.len(), first, ends.len());
        for j in 0..ends.len() {
            let list = lists.list(ends, j);
            // SAFETY: the list's entries are below the lists' bound, at most
            // `pos.len()`, and slot first + j is below it too (both checked above).
            let d = unsafe { fluid::density(kernel, c, pos, first + j, list) };
            each(first + j, d);
        }
    }
}

chunk_loop! {
    /// The corrections ([`fluid::correction`]) of the chunk's slots `first + j` over
    /// their lists, records `rec` (`(x, y, z, λ)`) at the positions [`density_chunk`]
    /// saw and each slot's tie flag from it in `ties` (one per slot of the chunk);
    /// `each(k, Σ)` per slot k, in slot order. Panics as [`density_chunk`], or unless
    /// `ties` has a flag per slot.
    pub(crate) fn correction_chunk(
        kernel,
        c: &Consts,
        rec: &Records,
        lists: &SlotLists,
        ends: &[u32],
        first: usize,
        ties: &[u8],
        each: impl FnMut(usize, [f32; 3]),
    ) {
        let mut each = each;
        lists.check(rec.len(), first, ends.len());
        for (j, &tie) in ties[..ends.len()].iter().enumerate() {
            let list = lists.list(ends, j);
            let tie = tie != 0;
            // SAFETY: as in `density_chunk`.
            let d = unsafe { fluid::correction(kernel, c, rec, first + j, list, tie) };
            each(first + j, d);
        }
    }
}

chunk_loop! {
    /// The XSPH sums ([`fluid::viscosity`]) of the chunk's slots `first + j` over
    /// their lists, positions `pos` and velocities `vel` (h² = `h2`); `each(k, Σ)` per
    /// slot k, in slot order. Panics unless the lists are sealed for at most as many
    /// slots as both arrays hold and the chunk's slots are slots of both.
    pub(crate) fn viscosity_chunk(
        kernel,
        h2: f32,
        pos: &Records,
        vel: &Records,
        lists: &SlotLists,
        ends: &[u32],
        first: usize,
        each: impl FnMut(usize, [f32; 3]),
    ) {
        let mut each = each;
        lists.check(pos.len().min(vel.len()), first, ends.len());
        for j in 0..ends.len() {
            let list = lists.list(ends, j);
            // SAFETY: as in `density_chunk`, for both arrays.
            let s = unsafe { fluid::viscosity(kernel, h2, pos, vel, first + j, list) };
            each(first + j, s);
        }
    }
}

chunk_loop! {
    /// The ellipsoid sums ([`fluid::spread`]) of the chunk's slots `first + j` over
    /// their lists, positions `pos` (h² = `h2`, 1 / h = `inv_h`); `each(k, sums)` per
    /// slot k, in slot order. Panics unless the lists are sealed for at most
    /// `pos.len()` slots and the chunk's slots are slots of `pos`.
    pub(crate) fn spread_chunk(
        kernel,
        h2: f32,
        inv_h: f32,
        pos: &Records,
        lists: &SlotLists,
        ends: &[u32],
        first: usize,
        each: impl FnMut(usize, Spread),
    ) {
        let mut each = each;
        lists.check(pos.len(), first, ends.len());
        for j in 0..ends.len() {
            let list = lists.list(ends, j);
            // SAFETY: as in `density_chunk`.
            let s = unsafe { fluid::spread(kernel, h2, inv_h, pos, first + j, list) };
            each(first + j, s);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Sealed lists run; a list naming a slot past the grid is refused when sealed,
    /// and lists edited since their seal are refused by the loops.
    #[test]
    fn lists_are_checked_once_and_refused_unsealed() {
        let mut lists = SlotLists::default();
        lists.edit().extend([1u32, 2, 0, 2]);
        let ends = [2u32, 4, 4];
        lists.seal(3);
        assert_eq!(lists.list(&ends, 1), &[0, 2]);
        let pos = [
            [0.0f32, 0.0, 0.0, 1.0],
            [0.1, 0.0, 0.0, 1.0],
            [0.0, 0.2, 0.0, 1.0],
        ];
        let mut seen = Vec::new();
        viscosity_chunk(
            Kernel::detect(),
            1.0,
            &pos,
            &pos,
            &lists,
            &ends,
            0,
            |k, _| seen.push(k),
        );
        assert_eq!(seen, [0, 1, 2]);
        lists.edit().push(3);
        let unsealed = std::panic::catch_unwind(|| {
            viscosity_chunk(Kernel::Scalar, 1.0, &pos, &pos, &lists, &ends, 0, |_, _| {})
        });
        assert!(unsealed.is_err());
        let past = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| lists.seal(3)));
        assert!(past.is_err());
        // Sealed for 4 slots: refused on 3 records.
        lists.seal(4);
        let short = std::panic::catch_unwind(|| {
            viscosity_chunk(Kernel::Scalar, 1.0, &pos, &pos, &lists, &ends, 0, |_, _| {})
        });
        assert!(short.is_err());
    }
}

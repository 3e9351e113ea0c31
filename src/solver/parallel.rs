//! Thread pools and the one unsafe helper for disjoint parallel writes.
//!
//! Work is split into fixed-size chunks whose boundaries depend only on the problem
//! size, never on the thread count, and every chunk does exactly the same arithmetic
//! whichever thread runs it, so results are bit-identical for 1, 2 or 16 threads.

use std::collections::HashMap;
use std::marker::PhantomData;
use std::ops::Range;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::{Arc, OnceLock};

use parking_lot::Mutex;
use rayon::prelude::*;
use rayon::ThreadPool;

use crate::error::{Error, Result};

/// Below this many items a pass runs inline on the calling thread.
pub(crate) const PARALLEL_MIN_ITEMS: usize = 4096;
/// See [`Executor::for_ranges_light`].
pub(crate) const PARALLEL_MIN_LIGHT_ITEMS: usize = 16384;
/// Items per parallel task: large enough to amortise scheduling.
pub(crate) const CHUNK: usize = 1024;

/// Work (constraint projections, or particles of a light pass) below which a
/// [`Executor::region`] runs on the calling thread alone: waking a second thread and
/// meeting it at a barrier costs more than it saves below it (measured on 2-core
/// x86-64: cloth_64, 23,938 constraints, is faster on one thread).
pub(crate) const REGION_MIN_WORK: usize = 32768;

/// A rayon pool and the lock that lets one [`Executor::region`] at a time use it.
struct Pool {
    rayon: ThreadPool,
    /// Held for the whole of a region: a region's threads wait for each other at
    /// barriers, so two regions sharing the pool's workers at once could each hold one
    /// worker waiting for the other (deadlock). Regions of worlds sharing a pool run
    /// one after the other instead.
    region: Mutex<()>,
}

/// Pools are shared between worlds that ask for the same thread count, so that creating
/// many worlds does not create many threads.
fn pool_cache() -> &'static Mutex<HashMap<usize, Arc<Pool>>> {
    static CACHE: OnceLock<Mutex<HashMap<usize, Arc<Pool>>>> = OnceLock::new();
    CACHE.get_or_init(|| Mutex::new(HashMap::new()))
}

/// Runs the passes of one world: inline, or on a rayon pool of the world's size.
#[derive(Clone)]
pub(crate) struct Executor {
    pool: Option<Arc<Pool>>,
    threads: usize,
}

/// A barrier for the threads of one region: they spin briefly (a barrier between two
/// colours is a few hundred nanoseconds apart), then yield the core, so an
/// oversubscribed machine still makes progress.
struct SpinBarrier {
    threads: usize,
    arrived: AtomicUsize,
    generation: AtomicUsize,
}

impl SpinBarrier {
    fn wait(&self) {
        let generation = self.generation.load(Ordering::Acquire);
        // AcqRel: the last thread to arrive acquires every other thread's writes (the
        // arrivals form one release sequence) and publishes them with the generation.
        if self.arrived.fetch_add(1, Ordering::AcqRel) + 1 == self.threads {
            self.arrived.store(0, Ordering::Relaxed);
            self.generation.fetch_add(1, Ordering::Release);
            return;
        }
        let mut spins = 0u32;
        while self.generation.load(Ordering::Acquire) == generation {
            if spins < 4096 {
                std::hint::spin_loop();
                spins += 1;
            } else {
                std::thread::yield_now();
            }
        }
    }
}

/// One thread's view of a parallel region ([`Executor::region`]).
pub(crate) struct Team<'a> {
    /// This thread's index, `0..threads`.
    pub(crate) index: usize,
    /// Threads in the region.
    pub(crate) threads: usize,
    barrier: Option<&'a SpinBarrier>,
}

impl Team<'_> {
    /// Waits until every thread of the region has arrived here; what each wrote before
    /// is then visible to all.
    pub(crate) fn barrier(&self) {
        if let Some(b) = self.barrier {
            b.wait();
        }
    }

    /// This thread's share of `range`: consecutive equal shares, cut at multiples of
    /// `align` items from `range.start` (so SIMD kernels see whole blocks). Which thread
    /// computes an item never changes what it computes, so any split gives the same
    /// bits as long as the items of `range` are independent of each other.
    pub(crate) fn share(&self, range: Range<usize>, align: usize) -> Range<usize> {
        let len = range.len();
        let units = len.div_ceil(align);
        let cut = |t: usize| (units * t / self.threads * align).min(len);
        range.start + cut(self.index)..range.start + cut(self.index + 1)
    }
}

impl Executor {
    /// `threads`: 0 = all cores, 1 = the calling thread only.
    pub(crate) fn new(threads: u32) -> Result<Self> {
        let n = if threads == 0 {
            std::thread::available_parallelism().map_or(1, |n| n.get())
        } else {
            threads as usize
        };
        if n <= 1 {
            return Ok(Executor {
                pool: None,
                threads: 1,
            });
        }
        let mut cache = pool_cache().lock();
        if let Some(pool) = cache.get(&n) {
            return Ok(Executor {
                pool: Some(pool.clone()),
                threads: n,
            });
        }
        let rayon = rayon::ThreadPoolBuilder::new()
            .num_threads(n)
            .thread_name(|i| format!("sinew-worker-{i}"))
            .build()
            .map_err(|e| {
                Error::out_of_memory(format!("could not start {n} worker threads: {e}"))
            })?;
        let pool = Arc::new(Pool {
            rayon,
            region: Mutex::new(()),
        });
        cache.insert(n, pool.clone());
        Ok(Executor {
            pool: Some(pool),
            threads: n,
        })
    }

    /// Number of threads the passes may use.
    pub(crate) fn threads(&self) -> usize {
        self.threads
    }

    /// Threads a [`Self::region`] over `work` items should use: all of the world's from
    /// [`REGION_MIN_WORK`] items, otherwise one (so small worlds never pay for waking
    /// threads they cannot keep busy).
    pub(crate) fn threads_for(&self, work: usize) -> usize {
        if work >= REGION_MIN_WORK {
            self.threads
        } else {
            1
        }
    }

    /// Runs `f` once on each of `threads` threads (at most the world's), which meet at
    /// [`Team::barrier`]s: one parallel region for a whole multi-phase pass, instead of
    /// one fork and join per phase. With one thread `f` runs inline and barriers are
    /// free.
    pub(crate) fn region<F>(&self, threads: usize, f: F)
    where
        F: Fn(&Team<'_>) + Sync,
    {
        let threads = threads.min(self.threads);
        match &self.pool {
            Some(pool) if threads > 1 => {
                let barrier = SpinBarrier {
                    threads,
                    arrived: AtomicUsize::new(0),
                    generation: AtomicUsize::new(0),
                };
                let _one_region_at_a_time = pool.region.lock();
                pool.rayon.broadcast(|ctx| {
                    if ctx.index() < threads {
                        f(&Team {
                            index: ctx.index(),
                            threads,
                            barrier: Some(&barrier),
                        })
                    }
                });
            }
            _ => f(&Team {
                index: 0,
                threads: 1,
                barrier: None,
            }),
        }
    }

    /// Calls `f` on consecutive ranges that cover `0..n`. The ranges are
    /// `CHUNK`-sized (the last one shorter) when the pass runs in parallel and one
    /// range `0..n` otherwise; `f` must give the same result either way (it does when
    /// each item is computed independently of the others).
    pub(crate) fn for_ranges<F>(&self, n: usize, f: F)
    where
        F: Fn(Range<usize>) + Sync + Send,
    {
        self.for_ranges_from(n, PARALLEL_MIN_ITEMS, f)
    }

    /// [`Self::for_ranges`] for cheap per-item work (a few nanoseconds, such as the
    /// particle passes): parallel only from [`PARALLEL_MIN_LIGHT_ITEMS`] items, below
    /// which waking the workers costs more than it saves.
    pub(crate) fn for_ranges_light<F>(&self, n: usize, f: F)
    where
        F: Fn(Range<usize>) + Sync + Send,
    {
        self.for_ranges_from(n, PARALLEL_MIN_LIGHT_ITEMS, f)
    }

    fn for_ranges_from<F>(&self, n: usize, min_items: usize, f: F)
    where
        F: Fn(Range<usize>) + Sync + Send,
    {
        match &self.pool {
            Some(pool) if n >= min_items => pool.rayon.install(|| {
                (0..n.div_ceil(CHUNK))
                    .into_par_iter()
                    .for_each(|c| f(c * CHUNK..((c + 1) * CHUNK).min(n)))
            }),
            _ => f(0..n),
        }
    }

    /// Calls `f(i)` for every i in `0..n`, in parallel (one task per index) when the
    /// world has worker threads, there is more than one index and `work` (the total
    /// item count, a measure of the cost) reaches [`PARALLEL_MIN_ITEMS`].
    pub(crate) fn for_each_index<F>(&self, n: usize, work: usize, f: F)
    where
        F: Fn(usize) + Sync + Send,
    {
        match &self.pool {
            Some(pool) if n > 1 && work >= PARALLEL_MIN_ITEMS => pool
                .rayon
                .install(|| (0..n).into_par_iter().with_max_len(1).for_each(&f)),
            _ => (0..n).for_each(f),
        }
    }
}

/// A slice that several threads may read and write at the same time, each at indices
/// no other thread touches during the pass.
pub(crate) struct DisjointSlice<'a, T> {
    ptr: *mut T,
    len: usize,
    _life: PhantomData<&'a mut [T]>,
}

// SAFETY: the wrapper only hands out element accesses through unsafe methods whose
// callers promise that no two threads touch the same index concurrently; T: Send is
// enough for moving values between threads that way.
unsafe impl<T: Send> Send for DisjointSlice<'_, T> {}
// SAFETY: as above; shared references to the wrapper never give overlapping access
// because every access is to an index owned by one thread for the whole pass.
unsafe impl<T: Send> Sync for DisjointSlice<'_, T> {}

impl<'a, T: Copy> DisjointSlice<'a, T> {
    /// The first element; for SIMD kernels that load and store several at a time,
    /// under the same rule as [`Self::get`] and [`Self::set`].
    #[inline(always)]
    pub(crate) fn as_ptr(&self) -> *mut T {
        self.ptr
    }

    pub(crate) fn new(slice: &'a mut [T]) -> Self {
        DisjointSlice {
            ptr: slice.as_mut_ptr(),
            len: slice.len(),
            _life: PhantomData,
        }
    }

    /// Reads element `i`.
    ///
    /// # Safety
    /// No other thread writes element `i` during the pass.
    #[inline(always)]
    pub(crate) unsafe fn get(&self, i: usize) -> T {
        debug_assert!(i < self.len);
        // SAFETY: i < len (checked at build time of the index data, asserted in debug)
        // and the caller guarantees no concurrent writer of element i.
        unsafe { *self.ptr.add(i) }
    }

    /// Writes element `i`.
    ///
    /// # Safety
    /// No other thread reads or writes element `i` during the pass.
    #[inline(always)]
    pub(crate) unsafe fn set(&self, i: usize, value: T) {
        debug_assert!(i < self.len);
        // SAFETY: i < len, and the caller guarantees exclusive access to element i.
        unsafe { *self.ptr.add(i) = value }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Two threads write interleaved disjoint halves of one slice through a
    /// `DisjointSlice` while reading their own elements back: no lost write, and (under
    /// Miri or ThreadSanitizer, see tests/sanitizers.sh) no data race and no
    /// out-of-bounds access.
    #[test]
    fn disjoint_slice_parallel_writes_are_all_kept() {
        let n = 64;
        let mut v = vec![0u32; n];
        {
            let d = DisjointSlice::new(&mut v);
            std::thread::scope(|s| {
                for t in 0..2usize {
                    let d = &d;
                    s.spawn(move || {
                        for i in (t..n).step_by(2) {
                            // SAFETY: thread t owns the indices i ≡ t (mod 2), all < n.
                            unsafe {
                                d.set(i, i as u32 * 3 + 1);
                                assert_eq!(d.get(i), i as u32 * 3 + 1);
                            }
                        }
                    });
                }
            });
        }
        assert!(v.iter().enumerate().all(|(i, &x)| x == i as u32 * 3 + 1));
    }

    /// The executor's chunked passes cover every index exactly once, whatever the
    /// thread count (the invariant the disjoint writes rely on).
    #[test]
    fn for_ranges_covers_each_index_once() {
        for threads in [1, 2] {
            let exec = Executor::new(threads).expect("pool");
            let n = PARALLEL_MIN_ITEMS + 3 * CHUNK + 5;
            let mut hits = vec![0u8; n];
            let d = DisjointSlice::new(&mut hits);
            exec.for_ranges(n, |r| {
                for i in r {
                    // SAFETY: the ranges are disjoint (each index in one range only).
                    unsafe { d.set(i, d.get(i) + 1) };
                }
            });
            assert!(hits.iter().all(|&h| h == 1), "threads {threads}");
        }
    }
}

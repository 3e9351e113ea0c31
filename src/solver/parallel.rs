//! Thread pools and the passes that run on them. Passes that write only their own
//! items get them as `&mut` chunks (`Executor::for_chunks` and `for_each_item` over
//! [`Rows`] and `Blocks`); those methods, and the raw disjoint-write helper under them,
//! [`DisjointSlice`], live in `src/solver/disjoint/`, the executor's one module with
//! `unsafe`.
//!
//! Work is split into fixed-size chunks whose boundaries depend only on the problem
//! size, never on the thread count, and every chunk does exactly the same arithmetic
//! whichever thread runs it, so results are bit-identical for 1, 2 or 16 threads.

use std::collections::HashMap;
use std::ops::Range;
use std::sync::atomic::{AtomicBool, AtomicU64, AtomicUsize, Ordering};
use std::sync::{Arc, OnceLock};

use parking_lot::Mutex;
use rayon::ThreadPool;

use crate::error::{Error, Result};
pub(crate) use crate::solver::disjoint::{Blocks, DisjointSlice, Ragged, Rows, SlotOrder};
use crate::solver::tasks::HostWorkers;

/// Below this many items a pass runs inline on the calling thread.
pub(crate) const PARALLEL_MIN_ITEMS: usize = 4096;
/// See [`Executor::for_ranges_light`].
pub(crate) const PARALLEL_MIN_LIGHT_ITEMS: usize = 16384;
/// Items per parallel task: large enough to amortise scheduling.
pub(crate) const CHUNK: usize = 1024;

/// Constraint projections per iteration (over every set of the world) below which the
/// constraint passes run on the calling thread alone: waking a second thread costs more
/// than it saves below it (measured on 2-core x86-64: cloth_64, 23,938 constraints, is
/// faster on one thread). Counted over the whole iteration, not per set, so that a world
/// of several sets below it each (ropes: 32,000 links and 32,000 tethers) still uses
/// its threads.
pub(crate) const REGION_MIN_WORK: usize = 32768;
/// A set of fewer constraint projections runs on the calling thread even in a large
/// world: one block and a few colours are not worth a second thread.
pub(crate) const SET_MIN_WORK: usize = 4096;

/// A rayon pool shared by the worlds of one thread count.
///
/// A [`Executor::stages`] pass never waits for a particular thread, only for items
/// that some thread is already running (and an item waits for nothing), so passes of
/// several worlds may share the workers without deadlock.
struct Pool {
    rayon: ThreadPool,
}

/// Pools are shared between worlds that ask for the same thread count, so that creating
/// many worlds does not create many threads.
fn pool_cache() -> &'static Mutex<HashMap<usize, Arc<Pool>>> {
    static CACHE: OnceLock<Mutex<HashMap<usize, Arc<Pool>>>> = OnceLock::new();
    CACHE.get_or_init(|| Mutex::new(HashMap::new()))
}

/// Runs the passes of one world: inline, on a rayon pool of the world's size, or on a
/// host task system (`src/solver/tasks.rs`).
#[derive(Clone)]
pub(crate) struct Executor {
    backend: Backend,
    threads: usize,
    /// The item count from which a light pass runs in parallel
    /// ([`Self::for_ranges_light`]): [`PARALLEL_MIN_LIGHT_ITEMS`], or
    /// [`PARALLEL_MIN_ITEMS`] inside a parallel region ([`Self::in_region`]).
    light_min: usize,
}

/// Where the parallel passes of an [`Executor`] run.
#[derive(Clone)]
enum Backend {
    /// On the calling thread.
    Inline,
    /// On a rayon pool shared by the worlds of one thread count.
    Pool(Arc<Pool>),
    /// On the host's workers ([`HostWorkers`], over the C task system of
    /// `src/ffi/task_system.rs`); `threads` is its worker count.
    Host(Arc<dyn HostWorkers>),
}

/// Spins briefly, then yields the core (so an oversubscribed machine still makes
/// progress), until `ready()`.
#[inline]
fn wait_until(ready: impl Fn() -> bool) {
    let mut spins = 0u32;
    while !ready() {
        if spins < 2048 {
            std::hint::spin_loop();
            spins += 1;
        } else {
            std::thread::yield_now();
        }
    }
}

/// The items of a staged pass ([`Executor::stages`]): how many items each stage has.
pub(crate) trait StagePlan: Sync {
    /// Number of stages.
    fn stages(&self) -> usize;
    /// Number of items of stage `s`.
    fn items(&self, s: usize) -> usize;
}

impl StagePlan for [usize] {
    fn stages(&self) -> usize {
        self.len()
    }
    fn items(&self, s: usize) -> usize {
        self[s]
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
                backend: Backend::Inline,
                threads: 1,
                light_min: PARALLEL_MIN_LIGHT_ITEMS,
            });
        }
        let mut cache = pool_cache().lock();
        if let Some(pool) = cache.get(&n) {
            return Ok(Executor {
                backend: Backend::Pool(pool.clone()),
                threads: n,
                light_min: PARALLEL_MIN_LIGHT_ITEMS,
            });
        }
        let rayon = rayon::ThreadPoolBuilder::new()
            .num_threads(n)
            .thread_name(|i| format!("sinew-worker-{i}"))
            .build()
            .map_err(|e| {
                Error::out_of_memory(format!("could not start {n} worker threads: {e}"))
            })?;
        let pool = Arc::new(Pool { rayon });
        cache.insert(n, pool.clone());
        Ok(Executor {
            backend: Backend::Pool(pool),
            threads: n,
            light_min: PARALLEL_MIN_LIGHT_ITEMS,
        })
    }

    /// An executor that runs the passes on host workers, their thread count in place
    /// of the pool size.
    pub(crate) fn host(workers: Arc<dyn HostWorkers>) -> Self {
        Executor {
            threads: workers.threads(),
            backend: Backend::Host(workers),
            light_min: PARALLEL_MIN_LIGHT_ITEMS,
        }
    }

    /// Runs `f` (a whole step) on one of the pool's workers, so that its passes fork
    /// from inside the pool (a join the other worker steals) instead of waking a worker
    /// and putting the calling thread to sleep once per pass. Inline and host
    /// executors run `f` on the calling thread.
    pub(crate) fn region<R: Send>(&self, f: impl FnOnce() -> R + Send) -> R {
        match &self.backend {
            Backend::Pool(pool) => pool.rayon.install(f),
            _ => f(),
        }
    }

    /// The executor of the passes inside a parallel region ([`Self::region`]): the
    /// same threads, with light passes parallel from [`PARALLEL_MIN_ITEMS`] items, as
    /// the other passes. There the workers are already awake for the passes around
    /// a light one, so its chunks cost no wake-up; left on the stepping thread, a
    /// light pass (the particles' predict and velocity update, the contact search's
    /// gather and skin check) was serial work between two parallel passes, long
    /// enough for the idle worker to go to sleep. Chunks never change a result.
    pub(crate) fn in_region(&self) -> Executor {
        Executor {
            light_min: PARALLEL_MIN_ITEMS,
            ..self.clone()
        }
    }

    /// Whether the passes run on a host task system.
    pub(crate) fn is_host(&self) -> bool {
        matches!(self.backend, Backend::Host(_))
    }

    /// Number of threads the passes may use.
    pub(crate) fn threads(&self) -> usize {
        self.threads
    }

    /// Threads a [`Self::stages`] pass over `work` items (constraint projections of one
    /// set) should use, in an iteration of `iteration_work` projections in all: all of
    /// the world's from [`REGION_MIN_WORK`] per iteration and [`SET_MIN_WORK`] per set,
    /// otherwise one (so small worlds never pay for waking threads they cannot keep
    /// busy). It depends on the scene only, and never changes a result.
    pub(crate) fn threads_for(&self, work: usize, iteration_work: usize) -> usize {
        if iteration_work >= REGION_MIN_WORK && work >= SET_MIN_WORK {
            self.threads
        } else {
            1
        }
    }

    /// Runs a multi-stage pass as one parallel region: `f(s, i)` for every item `i` of
    /// every stage `s` of `plan`, the stages in order (every item of a stage has
    /// finished, and its writes are visible, before any item of the next starts), the
    /// items of one stage on whichever thread claims them first. The items of a stage
    /// must be independent of each other; then which thread runs an item never changes
    /// what it computes, and the result is the same bits for any thread count.
    ///
    /// Threads take items from one shared counter, so a thread that wakes late (its
    /// core busy with another process) just finds less to do: nobody waits for a thread
    /// that has not started, only for items already running. One fork and join for the
    /// whole pass instead of one per stage.
    pub(crate) fn stages<P, F>(&self, threads: usize, plan: &P, f: F)
    where
        P: StagePlan + ?Sized,
        F: Fn(usize, usize) + Sync,
    {
        let threads = threads.min(self.threads);
        if threads <= 1 || matches!(self.backend, Backend::Inline) || !fits_cursor(plan) {
            for s in 0..plan.stages() {
                for i in 0..plan.items(s) {
                    f(s, i);
                }
            }
            return;
        }
        let claims = Claims {
            plan,
            f,
            next: Padded(AtomicU64::new(0)),
            done: Padded(AtomicUsize::new(0)),
            abandoned: AtomicBool::new(false),
        };
        let work = |role: usize| claims.work(role);
        match &self.backend {
            Backend::Pool(pool) => {
                // Nested joins (stack jobs: no allocation), `threads` calls of `work` in
                // all, the first (role 0) on this thread; a call no idle thread steals
                // runs after its sibling and finds nothing left.
                fn fan_out(k: usize, role: usize, work: &(impl Fn(usize) + Sync)) {
                    if k <= 1 {
                        work(role)
                    } else {
                        rayon::join(|| work(role), || fan_out(k - 1, role + 1, work));
                    }
                }
                pool.rayon.install(|| fan_out(threads, 0, &work));
            }
            Backend::Host(host) => host.run(threads, &work),
            Backend::Inline => unreachable!("handled above"),
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
    /// which waking the workers costs more than it saves ([`PARALLEL_MIN_ITEMS`] in a
    /// parallel region, whose workers are awake: [`Self::in_region`]).
    pub(crate) fn for_ranges_light<F>(&self, n: usize, f: F)
    where
        F: Fn(Range<usize>) + Sync + Send,
    {
        self.for_ranges_from(n, self.light_min, f)
    }

    /// [`Self::for_ranges`] with ranges of `part` items (the last one shorter) when
    /// the pass runs in parallel: finer items for a heavy pass over few thousand
    /// items, whose last `CHUNK` would leave the other threads idle while one finishes
    /// it.
    pub(crate) fn for_parts<F>(&self, n: usize, part: usize, f: F)
    where
        F: Fn(Range<usize>) + Sync + Send,
    {
        self.for_ranges_sized(n, PARALLEL_MIN_ITEMS, part, f)
    }

    fn for_ranges_from<F>(&self, n: usize, min_items: usize, f: F)
    where
        F: Fn(Range<usize>) + Sync + Send,
    {
        self.for_ranges_sized(n, min_items, CHUNK, f)
    }

    fn for_ranges_sized<F>(&self, n: usize, min_items: usize, part: usize, f: F)
    where
        F: Fn(Range<usize>) + Sync + Send,
    {
        assert!(part > 0, "ranges of at least one item");
        if n >= min_items && self.threads > 1 && !matches!(self.backend, Backend::Inline) {
            // The same chunks whoever runs them, claimed as a one-stage pass: the
            // calling thread from the front, the others from the back (so that each
            // thread keeps its part of the particles from pass to pass).
            let chunks = n.div_ceil(part);
            self.stages(self.threads, &[chunks][..], |_, c| {
                f(c * part..((c + 1) * part).min(n))
            })
        } else {
            f(0..n)
        }
    }

    /// Calls `f(i)` for every i in `0..n`, in parallel (one task per index) when the
    /// world has worker threads, there is more than one index and `work` (the total
    /// item count, a measure of the cost) reaches [`PARALLEL_MIN_ITEMS`].
    pub(crate) fn for_each_index<F>(&self, n: usize, work: usize, f: F)
    where
        F: Fn(usize) + Sync + Send,
    {
        if n > 1 && work >= PARALLEL_MIN_ITEMS && self.threads > 1 {
            self.stages(self.threads, &[n][..], |_, i| f(i))
        } else {
            (0..n).for_each(f)
        }
    }
}

/// The shared state of one [`Executor::stages`] pass.
///
/// Items are numbered across the stages in order; `next` hands out the items of the
/// stage being claimed, `done` counts finished ones. An item of a stage starting at
/// item `first` runs once `done` reaches `first`: every earlier item has finished (the
/// Release of each `done` increment, read with Acquire, publishes its writes). An item
/// that panics sets `abandoned`, so that nobody waits for it forever; the panic then
/// reaches the caller of the pass (through rayon's join, or resumed by the host path).
///
/// `next` packs the stage being claimed with how many of its items were taken from
/// the front and from the back ([`Cursor`]): the thread that started the pass (role 0)
/// takes a stage's items from the front, the others from the back. Passes over the
/// same particles then give each thread the same part of them, pass after pass and
/// substep after substep (the particle chunks of the predict, the blocks of a sweep,
/// the seams after them), so that the data stays in that core's cache instead of
/// moving between cores every pass. Which thread runs an item never changes a result.
struct Claims<'a, P: ?Sized, F> {
    plan: &'a P,
    f: F,
    next: Padded<AtomicU64>,
    done: Padded<AtomicUsize>,
    abandoned: AtomicBool,
}

/// A value alone on its cache lines (128 bytes: two 64-byte lines, for the adjacent
/// line prefetcher), so that the claim counters every thread of a pass writes share
/// no line with each other or with the thread's own stack frame (`Claims` lives on
/// the stack of the thread that started the pass).
#[repr(align(128))]
struct Padded<T>(T);

impl<T> std::ops::Deref for Padded<T> {
    type Target = T;
    fn deref(&self) -> &T {
        &self.0
    }
}

/// The claim state of a pass: the stage being claimed and how many of its items were
/// taken from the front and from the back, packed in one word (16 + 24 + 24 bits) so
/// that one compare-and-swap claims an item.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
struct Cursor {
    stage: usize,
    front: usize,
    back: usize,
}

/// Largest stage count and items per stage a [`Cursor`] holds; larger plans run on
/// the calling thread (they never occur: stages are colours, items chunks of
/// [`CHUNK`] particles or more).
const CURSOR_MAX_STAGES: usize = (1 << 16) - 1;
const CURSOR_MAX_ITEMS: usize = (1 << 24) - 1;

impl Cursor {
    fn pack(self) -> u64 {
        ((self.stage as u64) << 48) | ((self.front as u64) << 24) | self.back as u64
    }

    fn unpack(w: u64) -> Cursor {
        Cursor {
            stage: (w >> 48) as usize,
            front: ((w >> 24) & CURSOR_MAX_ITEMS as u64) as usize,
            back: (w & CURSOR_MAX_ITEMS as u64) as usize,
        }
    }
}

/// Whether `plan` fits the [`Cursor`] (it always does in practice).
fn fits_cursor<P: StagePlan + ?Sized>(plan: &P) -> bool {
    plan.stages() <= CURSOR_MAX_STAGES
        && (0..plan.stages()).all(|s| plan.items(s) <= CURSOR_MAX_ITEMS)
}

/// Sets the flag when dropped: by the unwinding of a panicking item only (a finished
/// item forgets it).
struct AbandonOnUnwind<'a>(&'a AtomicBool);

impl Drop for AbandonOnUnwind<'_> {
    fn drop(&mut self) {
        self.0.store(true, Ordering::Release);
    }
}

impl<P: StagePlan + ?Sized, F: Fn(usize, usize) + Sync> Claims<'_, P, F> {
    /// Claims the next item for a thread of role `role` (0: from the front of each
    /// stage, else from the back): `(stage, item)`, or None once every item of every
    /// stage is claimed. `s` and `first` are the caller's stage and its first item
    /// number, advanced here.
    fn claim(&self, role: usize, s: &mut usize, first: &mut usize) -> Option<(usize, usize)> {
        let plan = self.plan;
        let mut w = self.next.load(Ordering::Relaxed);
        loop {
            let c = Cursor::unpack(w);
            // Catch up with the stage being claimed.
            while *s < c.stage {
                *first += plan.items(*s);
                *s += 1;
            }
            if c.stage == plan.stages() {
                return None;
            }
            let n = plan.items(c.stage);
            let (next, item) = if c.front + c.back >= n {
                // This stage is all claimed: move the cursor on to the next.
                let next = Cursor {
                    stage: c.stage + 1,
                    front: 0,
                    back: 0,
                };
                (next, None)
            } else if role == 0 {
                let next = Cursor {
                    front: c.front + 1,
                    ..c
                };
                (next, Some(c.front))
            } else {
                let next = Cursor {
                    back: c.back + 1,
                    ..c
                };
                (next, Some(n - 1 - c.back))
            };
            match self.next.compare_exchange_weak(
                w,
                next.pack(),
                Ordering::Relaxed,
                Ordering::Relaxed,
            ) {
                Ok(_) => {
                    if let Some(i) = item {
                        return Some((c.stage, i));
                    }
                    w = next.pack();
                }
                Err(actual) => w = actual,
            }
        }
    }

    /// Claims and runs items until none is left (or the pass was abandoned).
    fn work(&self, role: usize) {
        let (mut s, mut first) = (0usize, 0usize);
        while let Some((stage, item)) = self.claim(role, &mut s, &mut first) {
            debug_assert_eq!(stage, s);
            if self.done.load(Ordering::Acquire) < first {
                wait_until(|| {
                    self.done.load(Ordering::Acquire) >= first
                        || self.abandoned.load(Ordering::Acquire)
                });
            }
            if self.abandoned.load(Ordering::Acquire) {
                return;
            }
            let bomb = AbandonOnUnwind(&self.abandoned);
            (self.f)(stage, item);
            std::mem::forget(bomb);
            self.done.fetch_add(1, Ordering::Release);
        }
    }
}

/// Test check shared by the pool's and the host's tests: `exec.stages` over `plan`
/// on `threads` runs every item exactly once, and an item of stage s only after every
/// item of the stages before it has finished.
#[cfg(test)]
pub(crate) fn assert_every_item_once_in_stage_order(
    exec: &Executor,
    threads: usize,
    plan: &[usize],
) {
    let total: usize = plan.iter().sum();
    let hits: Vec<AtomicUsize> = (0..total).map(|_| AtomicUsize::new(0)).collect();
    let finished: Vec<AtomicUsize> = plan.iter().map(|_| AtomicUsize::new(0)).collect();
    exec.stages(threads, plan, |stage, item| {
        for (earlier, &n) in plan[..stage].iter().enumerate() {
            assert_eq!(finished[earlier].load(Ordering::SeqCst), n);
        }
        let g: usize = plan[..stage].iter().sum::<usize>() + item;
        hits[g].fetch_add(1, Ordering::SeqCst);
        finished[stage].fetch_add(1, Ordering::SeqCst);
    });
    assert!(hits.iter().all(|h| h.load(Ordering::SeqCst) == 1));
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The executor's chunked passes cover every index exactly once, whatever the
    /// thread count (the invariant the disjoint writes rely on).
    #[test]
    fn for_ranges_covers_each_index_once() {
        for threads in [1, 2] {
            let exec = Executor::new(threads).expect("pool");
            let n = PARALLEL_MIN_ITEMS + 3 * CHUNK + 5;
            let hits: Vec<AtomicUsize> = (0..n).map(|_| AtomicUsize::new(0)).collect();
            exec.for_ranges(n, |r| {
                for i in r {
                    hits[i].fetch_add(1, Ordering::Relaxed);
                }
            });
            assert!(
                hits.iter().all(|h| h.load(Ordering::Relaxed) == 1),
                "threads {threads}"
            );
        }
    }

    /// `Ragged` hands each item its own run (empty runs included) through
    /// `for_items`, and refuses starts that decrease or pass the slice's end.
    #[test]
    fn ragged_runs_go_to_their_items() {
        let starts = [0u32, 2, 2, 5, 9];
        for threads in [1, 2] {
            let exec = Executor::new(threads).expect("pool");
            let mut data = vec![u32::MAX; 9];
            exec.for_items(
                threads as usize,
                Ragged::new(&mut data, &starts),
                |i, run| {
                    assert_eq!(run.len(), (starts[i + 1] - starts[i]) as usize);
                    run.iter_mut().for_each(|x| *x = i as u32);
                },
            );
            assert_eq!(data, [0, 0, 2, 2, 2, 3, 3, 3, 3], "threads {threads}");
        }
        for bad in [[0u32, 3, 2], [0, 1, 10]] {
            let r = std::panic::catch_unwind(|| {
                let mut data = vec![0u32; 9];
                let _ = Ragged::new(&mut data, &bad);
            });
            assert!(r.is_err(), "{bad:?}");
        }
    }

    /// `for_chunks` hands every item's rows to exactly one task, as the ranges of
    /// `for_ranges`, for one part and for a tuple with rows of several elements.
    #[test]
    fn for_chunks_hands_out_each_row_once() {
        for threads in [1, 2] {
            let exec = Executor::new(threads).expect("pool");
            let n = PARALLEL_MIN_ITEMS + 3 * CHUNK + 5;
            let (mut a, mut b) = (vec![0u32; n], vec![0u8; 3 * n]);
            exec.for_chunks(Rows::new(&mut a), |r, a| {
                assert_eq!(a.len(), r.len());
                for (x, i) in a.iter_mut().zip(r) {
                    *x += i as u32 + 1;
                }
            });
            exec.for_chunks(
                (Rows::new(&mut a), Rows::with_width(&mut b, 3)),
                |r, (a, b)| {
                    assert_eq!((a.len(), b.len()), (r.len(), 3 * r.len()));
                    for (x, row) in a.iter_mut().zip(b.chunks_mut(3)) {
                        *x *= 2;
                        row.iter_mut().for_each(|y| *y += 1);
                    }
                },
            );
            assert!(a.iter().enumerate().all(|(i, &x)| x == 2 * (i as u32 + 1)));
            assert!(b.iter().all(|&y| y == 1), "threads {threads}");
        }
    }

    /// The claim cursor hands a stage's items to role 0 from the front and to the
    /// other roles from the back, each item once, skips empty stages, and moves on to
    /// the next stage only once every item of a stage is claimed.
    #[test]
    fn claims_take_the_front_for_role_0_and_the_back_for_the_others() {
        let plan = [4usize, 0, 3];
        let claims = Claims {
            plan: &plan[..],
            f: |_: usize, _: usize| {},
            next: Padded(AtomicU64::new(0)),
            done: Padded(AtomicUsize::new(0)),
            abandoned: AtomicBool::new(false),
        };
        let (mut s0, mut f0, mut s1, mut f1) = (0, 0, 0, 0);
        let mut take = |role: usize| {
            if role == 0 {
                claims.claim(0, &mut s0, &mut f0).map(|c| (c, f0))
            } else {
                claims.claim(role, &mut s1, &mut f1).map(|c| (c, f1))
            }
        };
        assert_eq!(take(0), Some(((0, 0), 0)));
        assert_eq!(take(1), Some(((0, 3), 0)));
        assert_eq!(take(2), Some(((0, 2), 0)));
        assert_eq!(take(0), Some(((0, 1), 0)));
        // Stage 1 is empty: the next claims are stage 2's, whose first item is 4.
        assert_eq!(take(1), Some(((2, 2), 4)));
        assert_eq!(take(0), Some(((2, 0), 4)));
        assert_eq!(take(0), Some(((2, 1), 4)));
        assert_eq!(take(0), None);
        assert_eq!(take(1), None);
        let c = Cursor {
            stage: CURSOR_MAX_STAGES,
            front: CURSOR_MAX_ITEMS,
            back: 12345,
        };
        assert_eq!(Cursor::unpack(c.pack()), c);
    }

    /// A staged pass runs every item once and a stage only after every item of the
    /// stage before has finished, for any thread count (also with a pool shared by two
    /// threads running passes at once).
    #[test]
    fn stages_run_every_item_once_and_in_stage_order() {
        let plan = [3usize, 0, 17, 1, 40];
        for threads in [1u32, 2, 4] {
            let exec = Executor::new(threads).expect("pool");
            std::thread::scope(|s| {
                for _ in 0..2 {
                    let exec = &exec;
                    s.spawn(move || {
                        assert_every_item_once_in_stage_order(exec, exec.threads(), &plan)
                    });
                }
            });
        }
    }
}

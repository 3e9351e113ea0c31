//! Rust-side hosts for `World::set_task_system` (`#[path]`-included by the tests of
//! host-supplied parallelism), each a different way a game engine may run Sinew's
//! tasks:
//!
//! * [`ThreadHost`]: a pool of std threads with a queue; `enqueue` queues one job per
//!   range of `min_range` items and returns a handle, `finish` waits (it never runs a
//!   job itself, so every item runs on a worker). Allocation-free once built (the
//!   queue's room is reserved; std's Mutex and Condvar allocate nothing on Linux), so
//!   the no-allocation test can step through it.
//! * [`inline_null_system`]: runs every range inside `enqueue` and returns NULL.
//! * [`deferred_system`]: `enqueue` only records the task; `finish` runs it on the
//!   calling thread, after Sinew's own loop there (items that find nothing left).

#![allow(dead_code)]

use std::collections::VecDeque;
use std::ffi::c_void;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::{Arc, Condvar, Mutex};
use std::thread::JoinHandle;

use sinew::{TaskFn, TaskSystem};

/// A queued range of a task.
#[derive(Clone, Copy)]
struct Job {
    task: TaskFn,
    context: usize,
    begin: u32,
    end: u32,
    batch: usize,
}

const BATCHES: usize = 16;

struct State {
    jobs: VecDeque<Job>,
    /// Unfinished jobs per batch; `None` = free slot.
    remaining: [Option<u32>; BATCHES],
    shutdown: bool,
}

/// Counters a test reads after stepping.
#[derive(Default)]
pub struct Counters {
    /// `enqueue` calls.
    pub enqueues: AtomicUsize,
    /// Task ranges run on the host's worker threads.
    pub ranges_on_workers: AtomicUsize,
}

pub struct Shared {
    state: Mutex<State>,
    work: Condvar,
    done: Condvar,
    pub counters: Counters,
}

/// A pool of `threads` std threads running queued task ranges.
pub struct ThreadHost {
    pub shared: Arc<Shared>,
    workers: Vec<JoinHandle<()>>,
}

impl ThreadHost {
    pub fn new(threads: usize) -> ThreadHost {
        ThreadHost::with_start(threads, || {})
    }

    /// `start` runs first on each worker thread.
    pub fn with_start(threads: usize, start: fn()) -> ThreadHost {
        let shared = Arc::new(Shared {
            state: Mutex::new(State {
                jobs: VecDeque::with_capacity(4096),
                remaining: [None; BATCHES],
                shutdown: false,
            }),
            work: Condvar::new(),
            done: Condvar::new(),
            counters: Counters::default(),
        });
        let workers = (0..threads)
            .map(|_| {
                let shared = shared.clone();
                std::thread::spawn(move || {
                    start();
                    worker(&shared)
                })
            })
            .collect();
        ThreadHost { shared, workers }
    }

    /// The task system that runs on this pool, claiming `worker_count` threads.
    pub fn system(&self, worker_count: u32) -> TaskSystem {
        TaskSystem {
            worker_count,
            enqueue: thread_enqueue,
            finish: thread_finish,
            user_context: Arc::as_ptr(&self.shared) as *mut c_void,
        }
    }
}

impl Drop for ThreadHost {
    fn drop(&mut self) {
        self.shared.state.lock().unwrap().shutdown = true;
        self.shared.work.notify_all();
        for w in self.workers.drain(..) {
            w.join().unwrap();
        }
    }
}

fn worker(shared: &Shared) {
    let mut state = shared.state.lock().unwrap();
    loop {
        if let Some(job) = state.jobs.pop_front() {
            drop(state);
            // SAFETY: Sinew's task over a range it enqueued; the pass waits in finish.
            unsafe { (job.task)(job.begin, job.end, job.context as *mut c_void) };
            shared
                .counters
                .ranges_on_workers
                .fetch_add(1, Ordering::Relaxed);
            state = shared.state.lock().unwrap();
            let left = state.remaining[job.batch].as_mut().unwrap();
            *left -= 1;
            if *left == 0 {
                shared.done.notify_all();
            }
        } else if state.shutdown {
            return;
        } else {
            state = shared.work.wait(state).unwrap();
        }
    }
}

unsafe extern "C" fn thread_enqueue(
    task: Option<TaskFn>,
    item_count: u32,
    min_range: u32,
    task_context: *mut c_void,
    user_context: *mut c_void,
) -> *mut c_void {
    // SAFETY: `user_context` is the `Shared` of a live ThreadHost (ThreadHost::system).
    let shared = unsafe { &*(user_context as *const Shared) };
    shared.counters.enqueues.fetch_add(1, Ordering::Relaxed);
    let task = task.expect("Sinew passes a task");
    assert!(min_range >= 1 && item_count >= 1);
    let mut state = shared.state.lock().unwrap();
    let batch = state
        .remaining
        .iter()
        .position(Option::is_none)
        .expect("a free batch slot");
    let mut jobs = 0;
    let mut begin = 0;
    while begin < item_count {
        let end = (begin + min_range).min(item_count);
        assert!(state.jobs.len() < state.jobs.capacity(), "queue room");
        state.jobs.push_back(Job {
            task,
            context: task_context as usize,
            begin,
            end,
            batch,
        });
        jobs += 1;
        begin = end;
    }
    state.remaining[batch] = Some(jobs);
    drop(state);
    shared.work.notify_all();
    (batch + 1) as *mut c_void
}

unsafe extern "C" fn thread_finish(host_task: *mut c_void, user_context: *mut c_void) {
    // SAFETY: as in thread_enqueue.
    let shared = unsafe { &*(user_context as *const Shared) };
    let batch = host_task as usize - 1;
    let mut state = shared.state.lock().unwrap();
    while state.remaining[batch] != Some(0) {
        state = shared.done.wait(state).unwrap();
    }
    state.remaining[batch] = None;
}

/// Counts `enqueue` calls of the single-threaded hosts (one per test thread).
pub static INLINE_ENQUEUES: AtomicUsize = AtomicUsize::new(0);

unsafe extern "C" fn inline_enqueue(
    task: Option<TaskFn>,
    item_count: u32,
    _min_range: u32,
    task_context: *mut c_void,
    _user_context: *mut c_void,
) -> *mut c_void {
    INLINE_ENQUEUES.fetch_add(1, Ordering::Relaxed);
    let task = task.expect("Sinew passes a task");
    for i in 0..item_count {
        // SAFETY: Sinew's task over its own items, before enqueue returns.
        unsafe { task(i, i + 1, task_context) };
    }
    std::ptr::null_mut()
}

/// `finish` calls the NULL-returning host saw (must stay 0: NULL means done).
pub static FINISH_AFTER_NULL: AtomicUsize = AtomicUsize::new(0);

unsafe extern "C" fn never_finish(_host_task: *mut c_void, _user_context: *mut c_void) {
    FINISH_AFTER_NULL.fetch_add(1, Ordering::Relaxed);
}

/// Runs every range inside `enqueue`, one item at a time, and returns NULL.
pub fn inline_null_system(worker_count: u32) -> TaskSystem {
    TaskSystem {
        worker_count,
        enqueue: inline_enqueue,
        finish: never_finish,
        user_context: std::ptr::null_mut(),
    }
}

/// The deferred host's one pending task (Sinew enqueues one at a time per world).
pub struct Deferred {
    task: Option<(TaskFn, usize, u32)>,
}

impl Deferred {
    pub fn new() -> Box<Deferred> {
        Box::new(Deferred { task: None })
    }
}

unsafe extern "C" fn deferred_enqueue(
    task: Option<TaskFn>,
    item_count: u32,
    _min_range: u32,
    task_context: *mut c_void,
    user_context: *mut c_void,
) -> *mut c_void {
    INLINE_ENQUEUES.fetch_add(1, Ordering::Relaxed);
    // SAFETY: `user_context` is the live Deferred given to deferred_system.
    let d = unsafe { &mut *(user_context as *mut Deferred) };
    assert!(d.task.is_none(), "one task at a time");
    d.task = Some((task.unwrap(), task_context as usize, item_count));
    user_context
}

unsafe extern "C" fn deferred_finish(host_task: *mut c_void, user_context: *mut c_void) {
    assert_eq!(host_task, user_context);
    // SAFETY: as in deferred_enqueue.
    let d = unsafe { &mut *(user_context as *mut Deferred) };
    let (task, context, n) = d.task.take().expect("a pending task");
    // Backwards, in one range each: any order is allowed.
    for i in (0..n).rev() {
        // SAFETY: Sinew's task over its own items, before finish returns.
        unsafe { task(i, i + 1, context as *mut c_void) };
    }
}

/// Records the task in `enqueue` and runs it serially in `finish`.
pub fn deferred_system(d: &mut Deferred, worker_count: u32) -> TaskSystem {
    TaskSystem {
        worker_count,
        enqueue: deferred_enqueue,
        finish: deferred_finish,
        user_context: d as *mut Deferred as *mut c_void,
    }
}

/*
 * Host-supplied parallelism from C: a hand-written pthread pool runs Sinew's tasks
 * (sinew_world_set_task_system), and the world steps to exactly the state hashes of the
 * built-in pool on 1 and 2 threads. Built and run by tests/ffi/c_abi.rs (`tasks_from_c`)
 * with
 *   gcc -std=c11 -Wall -Wextra -Werror -pedantic -I include tests/c/tasks_test.c \
 *       -L target/<profile>/deps -lsinew -Wl,-rpath,target/<profile>/deps -lm
 *
 * Scene: 10,000 particles (radius 1 cm) falling on a ground plane, a 90 x 90 cloth and
 * 100 ropes of 32 segments: large enough that every kind of parallel pass runs.
 * Checks:
 *   - pool of 3 threads, worker_count 4: same hashes as 1 and 2 built-in threads, the
 *     pool's workers ran ranges;
 *   - pool of 1 thread, worker_count 8 (fewer threads than the worker count): same;
 *   - a host that runs every range inside enqueue and returns NULL: same, finish never
 *     called;
 *   - NULL goes back to the built-in pool mid-run: same;
 *   - NULL enqueue / finish, worker_count 0 or 257: SINEW_ERROR_INVALID_ARGUMENT with a
 *     message, and the world keeps stepping to the same hashes.
 * Prints every check; exits 1 on any failure.
 */

#define _POSIX_C_SOURCE 200809L

#include <pthread.h>
#include <stdatomic.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "sinew.h"

#define DT (1.0f / 60.0f)
#define FRAMES 4

static int failures = 0;
static int checks = 0;

static void check(int ok, const char *what, const char *detail)
{
    checks++;
    if (!ok) {
        failures++;
    }
    printf("[%s] %s%s%s\n", ok ? "PASS" : "FAIL", what, detail[0] ? ": " : "", detail);
}

static void must(SinewStatus s, const char *what)
{
    if (s != SINEW_OK) {
        printf("[FAIL] %s: status %d, %s\n", what, (int)s, sinew_last_error_message());
        exit(1);
    }
}

/* ---- a hand-written pthread pool ------------------------------------------------ */

#define MAX_JOBS 4096
#define MAX_BATCHES 16
#define MAX_THREADS 8

typedef struct Job {
    SinewTaskFn task;
    void *context;
    uint32_t begin, end;
    int batch;
} Job;

typedef struct Pool {
    pthread_mutex_t mutex;
    pthread_cond_t work, done;
    Job jobs[MAX_JOBS]; /* ring */
    size_t head, count;
    uint32_t remaining[MAX_BATCHES];
    int used[MAX_BATCHES];
    int shutdown;
    pthread_t threads[MAX_THREADS];
    int thread_count;
    atomic_int enqueues;
    atomic_int ranges_on_workers;
} Pool;

static void *pool_worker(void *arg)
{
    Pool *p = arg;
    pthread_mutex_lock(&p->mutex);
    for (;;) {
        if (p->count > 0) {
            Job job = p->jobs[p->head];
            p->head = (p->head + 1) % MAX_JOBS;
            p->count--;
            pthread_mutex_unlock(&p->mutex);
            job.task(job.begin, job.end, job.context);
            atomic_fetch_add(&p->ranges_on_workers, 1);
            pthread_mutex_lock(&p->mutex);
            if (--p->remaining[job.batch] == 0) {
                pthread_cond_broadcast(&p->done);
            }
        } else if (p->shutdown) {
            break;
        } else {
            pthread_cond_wait(&p->work, &p->mutex);
        }
    }
    pthread_mutex_unlock(&p->mutex);
    return NULL;
}

/* SinewEnqueueTaskFn: one job per range of min_range items; the handle is batch + 1. */
static void *pool_enqueue(SinewTaskFn task, uint32_t item_count, uint32_t min_range,
                          void *task_context, void *user_context)
{
    Pool *p = user_context;
    atomic_fetch_add(&p->enqueues, 1);
    if (min_range == 0) {
        min_range = 1;
    }
    pthread_mutex_lock(&p->mutex);
    int batch = 0;
    while (batch < MAX_BATCHES && p->used[batch]) {
        batch++;
    }
    if (batch == MAX_BATCHES || p->count + item_count > MAX_JOBS) {
        /* No room: run it here (allowed: NULL means "done"). */
        pthread_mutex_unlock(&p->mutex);
        task(0, item_count, task_context);
        return NULL;
    }
    p->used[batch] = 1;
    p->remaining[batch] = 0;
    for (uint32_t begin = 0; begin < item_count; begin += min_range) {
        uint32_t end = begin + min_range < item_count ? begin + min_range : item_count;
        Job j = {task, task_context, begin, end, batch};
        p->jobs[(p->head + p->count) % MAX_JOBS] = j;
        p->count++;
        p->remaining[batch]++;
    }
    pthread_cond_broadcast(&p->work);
    pthread_mutex_unlock(&p->mutex);
    return (void *)(uintptr_t)(batch + 1);
}

/* SinewFinishTaskFn: waits (never helps, so every range runs on a worker). */
static void pool_finish(void *host_task, void *user_context)
{
    Pool *p = user_context;
    int batch = (int)((uintptr_t)host_task - 1);
    pthread_mutex_lock(&p->mutex);
    while (p->remaining[batch] != 0) {
        pthread_cond_wait(&p->done, &p->mutex);
    }
    p->used[batch] = 0;
    pthread_mutex_unlock(&p->mutex);
}

static Pool *pool_start(int threads)
{
    Pool *p = calloc(1, sizeof *p);
    if (!p) {
        exit(1);
    }
    pthread_mutex_init(&p->mutex, NULL);
    pthread_cond_init(&p->work, NULL);
    pthread_cond_init(&p->done, NULL);
    atomic_init(&p->enqueues, 0);
    atomic_init(&p->ranges_on_workers, 0);
    p->thread_count = threads;
    for (int i = 0; i < threads; i++) {
        if (pthread_create(&p->threads[i], NULL, pool_worker, p) != 0) {
            exit(1);
        }
    }
    return p;
}

static void pool_stop(Pool *p)
{
    pthread_mutex_lock(&p->mutex);
    p->shutdown = 1;
    pthread_cond_broadcast(&p->work);
    pthread_mutex_unlock(&p->mutex);
    for (int i = 0; i < p->thread_count; i++) {
        pthread_join(p->threads[i], NULL);
    }
    pthread_cond_destroy(&p->work);
    pthread_cond_destroy(&p->done);
    pthread_mutex_destroy(&p->mutex);
    free(p);
}

static SinewTaskSystem pool_system(Pool *p, uint32_t worker_count)
{
    SinewTaskSystem t = {worker_count, pool_enqueue, pool_finish, p};
    return t;
}

/* ---- a host that runs everything inside enqueue ---------------------------------- */

static atomic_int inline_enqueues;
static atomic_int inline_finishes;

static void *inline_enqueue(SinewTaskFn task, uint32_t item_count, uint32_t min_range,
                            void *task_context, void *user_context)
{
    (void)min_range;
    (void)user_context;
    atomic_fetch_add(&inline_enqueues, 1);
    /* Backwards, one item at a time: any order is allowed. */
    for (uint32_t i = item_count; i-- > 0;) {
        task(i, i + 1, task_context);
    }
    return NULL;
}

static void inline_finish(void *host_task, void *user_context)
{
    (void)host_task;
    (void)user_context;
    atomic_fetch_add(&inline_finishes, 1);
}

/* ---- the scene ------------------------------------------------------------------ */

static SinewWorld scene(uint32_t threads)
{
    SinewWorldDesc d;
    must(sinew_world_desc_init(&d), "world desc");
    d.substeps = 10;
    d.threads = threads;
    SinewWorld w;
    must(sinew_world_create(&d, &w), "create");

    enum { N = 10000, SIDE = 50 };
    static SinewVec3 pos[N];
    static float radii[N];
    for (int i = 0; i < N; i++) {
        int col = i % SIDE, row = (i / SIDE) % SIDE, layer = i / (SIDE * SIDE);
        float jitter = (float)((i * 7919) % 13) / 13.0f * 0.001f;
        pos[i].x = (float)col * 0.021f - 0.5f + jitter;
        pos[i].y = 0.05f + (float)layer * 0.021f;
        pos[i].z = (float)row * 0.021f - 0.5f - jitter;
        radii[i] = 0.01f;
    }
    uint32_t first;
    must(sinew_world_add_particles(w, pos, NULL, N, &first), "particles");
    must(sinew_world_set_particle_radii(w, first, N, radii), "radii");
    SinewColliderDesc ground;
    must(sinew_collider_desc_init(&ground), "collider desc");
    SinewCollider c;
    must(sinew_world_add_collider(w, &ground, &c), "ground");

    SinewClothDesc cloth;
    SinewClothGridDesc grid;
    must(sinew_cloth_desc_init(&cloth), "cloth desc");
    must(sinew_cloth_grid_desc_init(&grid), "grid desc");
    grid.origin.x = 10.0f;
    grid.origin.y = 2.0f;
    grid.segments_u = 89;
    grid.segments_v = 89;
    grid.pin_corners = 3;
    SinewBody body;
    must(sinew_world_add_cloth_grid(w, &cloth, &grid, &body), "cloth");

    for (int r = 0; r < 100; r++) {
        SinewRopeDesc rope;
        must(sinew_rope_desc_init(&rope), "rope desc");
        rope.start.x = -10.0f - (float)(r % 10) * 1.25f;
        rope.start.y = 3.0f;
        rope.start.z = (float)(r / 10) * 0.25f;
        rope.end = rope.start;
        rope.end.x += 1.0f;
        rope.segments = 32;
        must(sinew_world_add_rope(w, &rope, &body), "rope");
    }
    return w;
}

/* Steps `frames` frames, writing the state hash after each. */
static void run(SinewWorld w, uint64_t *hashes, int frames)
{
    for (int f = 0; f < frames; f++) {
        must(sinew_world_step(w, DT), "step");
        must(sinew_world_state_hash(w, &hashes[f]), "hash");
    }
}

static int same(const uint64_t *a, const uint64_t *b)
{
    return memcmp(a, b, FRAMES * sizeof *a) == 0;
}

static void check_host(const char *what, SinewTaskSystem t, const uint64_t *reference)
{
    SinewWorld w = scene(1);
    uint64_t h[FRAMES];
    must(sinew_world_set_task_system(w, &t), what);
    run(w, h, FRAMES);
    check(same(h, reference), what, "state hashes equal those of 1 built-in thread");
    must(sinew_world_destroy(w), "destroy");
}

static void check_refused(SinewWorld w, SinewTaskSystem t, const char *needle, const char *what)
{
    SinewStatus s = sinew_world_set_task_system(w, &t);
    const char *msg = sinew_last_error_message();
    char detail[512];
    snprintf(detail, sizeof detail, "status %d, message \"%s\"", (int)s, msg);
    check(s == SINEW_ERROR_INVALID_ARGUMENT &&
              strncmp(msg, "sinew_world_set_task_system: ", 29) == 0 &&
              strstr(msg, needle) != NULL,
          what, detail);
}

int main(void)
{
    uint64_t one[FRAMES], two[FRAMES];
    SinewWorld w1 = scene(1), w2 = scene(2);
    run(w1, one, FRAMES);
    run(w2, two, FRAMES);
    check(same(one, two), "built-in pool: 1 and 2 threads", "");
    must(sinew_world_destroy(w1), "destroy");
    must(sinew_world_destroy(w2), "destroy");

    Pool *p3 = pool_start(3);
    check_host("pthread pool of 3, worker_count 4", pool_system(p3, 4), one);
    char detail[128];
    snprintf(detail, sizeof detail, "%d enqueues, %d ranges on workers",
             atomic_load(&p3->enqueues), atomic_load(&p3->ranges_on_workers));
    check(atomic_load(&p3->enqueues) > 0 && atomic_load(&p3->ranges_on_workers) > 0,
          "the pool ran Sinew's passes", detail);

    Pool *p1 = pool_start(1);
    check_host("pthread pool of 1, worker_count 8", pool_system(p1, 8), one);
    pool_stop(p1);

    SinewTaskSystem inl = {4, inline_enqueue, inline_finish, NULL};
    check_host("inline in enqueue, returning NULL", inl, one);
    check(atomic_load(&inline_enqueues) > 0 && atomic_load(&inline_finishes) == 0,
          "NULL from enqueue: finish is not called", "");

    /* Switching mid-run and refusals. */
    SinewWorld w = scene(2);
    uint64_t h[FRAMES];
    SinewTaskSystem good = pool_system(p3, 2);
    SinewTaskSystem bad = good;
    bad.worker_count = 0;
    check_refused(w, bad, "worker_count 0", "worker_count 0 refused");
    bad.worker_count = 257;
    check_refused(w, bad, "worker_count 257", "worker_count 257 refused");
    bad = good;
    bad.enqueue = NULL;
    check_refused(w, bad, "enqueue is NULL", "NULL enqueue refused");
    bad = good;
    bad.finish = NULL;
    check_refused(w, bad, "finish is NULL", "NULL finish refused");
    must(sinew_world_set_task_system(w, &good), "set");
    run(w, h, 2);
    must(sinew_world_set_task_system(w, NULL), "back to the built-in pool");
    run(w, h + 2, FRAMES - 2);
    check(same(h, one), "pool, then NULL (built-in pool) mid-run", "");
    must(sinew_world_destroy(w), "destroy");
    pool_stop(p3);

    printf("%d checks, %d failed\n", checks, failures);
    return failures == 0 ? 0 : 1;
}

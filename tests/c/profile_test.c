/*
 * Profiling from C: the stage times of the last step read into a caller array, the
 * stage names, the world's counts, and a profiler callback whose begin/end pairs nest
 * (a stack of open stages, as a host's own markers would keep). Built and run by
 * tests/ffi/c_abi.rs (`profiling_from_c`) with
 *   gcc -std=c11 -Wall -Wextra -Werror -pedantic -I include tests/c/profile_test.c \
 *       -L target/<profile>/deps -lsinew -Wl,-rpath,target/<profile>/deps -lm
 *
 * Scene: ten ropes of 16 segments over a ground plane, stepped on 2 threads.
 * Checks:
 *   - profiling off (the default): the times stay zero; the trajectory (state hash)
 *     is the same with the timing and the callback on;
 *   - on: the leaves (every stage but STEP and SUBSTEP) sum to the step time within
 *     5%, SUBSTEP began once per substep, every stage has a name;
 *   - the callback: STEP first and last, one leaf open at a time, each end matching
 *     the open begin, as many begins per stage as the stage times' calls;
 *   - counts: 10 bodies, the particle count, 1 collider;
 *   - bad input: capacity below SINEW_PROFILE_STAGE_COUNT, a stage past the count,
 *     enabled 2, a NULL callback in the hook.
 * Prints every check; exits 1 on any failure.
 */

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "sinew.h"

#define DT (1.0f / 60.0f)
#define SUBSTEPS 4u

static int failures = 0;
static int checks = 0;

static void check(int ok, const char *what)
{
    checks++;
    if (!ok) {
        failures++;
    }
    printf("[%s] %s\n", ok ? "PASS" : "FAIL", what);
}

static void must(SinewStatus s, const char *what)
{
    if (s != SINEW_OK) {
        printf("[FAIL] %s: status %d, %s\n", what, (int)s, sinew_last_error_message());
        exit(1);
    }
}

/* A host's markers: a stack of open stages and the begins per stage. */
typedef struct Markers {
    uint32_t stack[8];
    uint32_t depth;
    uint32_t begins[SINEW_PROFILE_STAGE_COUNT];
    uint32_t events;
    int broken;
} Markers;

static void marker(uint32_t stage, uint32_t begin, void *user_data)
{
    Markers *m = (Markers *)user_data;
    if (m->events == 0 && !(stage == SINEW_PROFILE_STAGE_STEP && begin)) {
        m->broken = 1;
    }
    m->events++;
    if (stage >= SINEW_PROFILE_STAGE_COUNT) {
        m->broken = 1;
        return;
    }
    if (begin) {
        /* A leaf opens only inside a group (STEP or SUBSTEP). */
        if (m->depth > 0) {
            uint32_t open = m->stack[m->depth - 1];
            if (open != SINEW_PROFILE_STAGE_STEP && open != SINEW_PROFILE_STAGE_SUBSTEP) {
                m->broken = 1;
            }
        }
        if (m->depth == 8) {
            m->broken = 1;
            return;
        }
        m->stack[m->depth++] = stage;
        m->begins[stage]++;
    } else {
        if (m->depth == 0 || m->stack[m->depth - 1] != stage) {
            m->broken = 1;
            return;
        }
        m->depth--;
    }
}

static SinewWorld make_world(uint32_t profiling)
{
    SinewWorldDesc d = sinew_world_desc_default();
    d.threads = 2;
    d.substeps = SUBSTEPS;
    d.profiling = profiling;
    SinewWorld w;
    must(sinew_world_create(&d, &w), "sinew_world_create");
    for (int i = 0; i < 10; i++) {
        SinewRopeDesc r = sinew_rope_desc_default();
        r.start = (SinewVec3){(float)i * 0.3f, 2.0f, 0.0f};
        r.end = (SinewVec3){(float)i * 0.3f + 1.0f, 2.0f, 0.0f};
        r.segments = 16;
        r.radius = 0.02f;
        SinewBody b;
        must(sinew_world_add_rope(w, &r, &b), "sinew_world_add_rope");
    }
    SinewColliderDesc c = sinew_collider_desc_default();
    c.shape = SINEW_SHAPE_PLANE;
    c.position = (SinewVec3){0.0f, 0.5f, 0.0f};
    SinewCollider collider;
    must(sinew_world_add_collider(w, &c, &collider), "sinew_world_add_collider");
    return w;
}

int main(void)
{
    SinewWorld plain = make_world(0);
    SinewWorld profiled = make_world(1);
    static Markers markers;
    SinewProfileHook hook = {marker, &markers};
    must(sinew_world_set_profile_callback(profiled, &hook), "set_profile_callback");

    SinewStageTime times[SINEW_PROFILE_STAGE_COUNT];
    uint32_t count = 0;
    int same = 1;
    for (int f = 0; f < 30; f++) {
        memset(&markers, 0, sizeof markers);
        must(sinew_world_step(plain, DT), "step plain");
        must(sinew_world_step(profiled, DT), "step profiled");
        uint64_t a = 0, b = 0;
        must(sinew_world_state_hash(plain, &a), "state_hash");
        must(sinew_world_state_hash(profiled, &b), "state_hash");
        same = same && a == b;
    }
    check(same, "the timing and the callback change no bit (30 frames, 2 threads)");

    must(sinew_world_read_stage_times(plain, times, SINEW_PROFILE_STAGE_COUNT, &count),
         "read_stage_times plain");
    int zero = count == SINEW_PROFILE_STAGE_COUNT;
    for (uint32_t k = 0; k < count; k++) {
        zero = zero && times[k].nanoseconds == 0 && times[k].calls == 0;
    }
    check(zero, "profiling off: no time recorded");

    must(sinew_world_read_stage_times(profiled, times, SINEW_PROFILE_STAGE_COUNT, &count),
         "read_stage_times");
    check(count == SINEW_PROFILE_STAGE_COUNT, "one record per stage");
    uint64_t leaves = 0;
    int ordered = 1, named = 1, calls_match = 1;
    for (uint32_t k = 0; k < count; k++) {
        ordered = ordered && times[k].stage == k;
        if (times[k].stage != SINEW_PROFILE_STAGE_STEP &&
            times[k].stage != SINEW_PROFILE_STAGE_SUBSTEP) {
            leaves += times[k].nanoseconds;
        }
        const char *name = NULL;
        must(sinew_profile_stage_name(k, &name), "profile_stage_name");
        named = named && name != NULL && name[0] != '\0';
        calls_match = calls_match && markers.begins[k] == times[k].calls;
    }
    uint64_t step = times[SINEW_PROFILE_STAGE_STEP].nanoseconds;
    double gap = (double)leaves - (double)step;
    check(ordered && named, "records in stage order, every stage named");
    check(step > 0 && (gap < 0 ? -gap : gap) <= 0.05 * (double)step,
          "the leaves sum to the step time within 5%");
    check(times[SINEW_PROFILE_STAGE_SUBSTEP].calls == SUBSTEPS, "one SUBSTEP per substep");
    check(times[SINEW_PROFILE_STAGE_DISTANCE].calls + times[SINEW_PROFILE_STAGE_LINK].calls > 0,
          "the ropes' links are timed");
    check(!markers.broken && markers.depth == 0 && markers.events > 0,
          "the callback's begin/end pairs nest");
    check(calls_match, "one begin per call of each stage");
    const char *name = NULL;
    must(sinew_profile_stage_name(SINEW_PROFILE_STAGE_COLLISION_DETECTION, &name), "name");
    check(strcmp(name, "collision_detection") == 0, "stage names are snake_case");

    SinewProfileCounts counts;
    must(sinew_world_profile_counts(profiled, &counts), "profile_counts");
    uint32_t particles = 0;
    must(sinew_world_particle_count(profiled, &particles), "particle_count");
    check(counts.bodies == 10 && counts.awake_bodies == 10, "10 bodies, all awake");
    check(counts.particles == particles && counts.colliders == 1,
          "the particle and collider counts");

    /* Bad input. */
    check(sinew_world_read_stage_times(profiled, times, SINEW_PROFILE_STAGE_COUNT - 1, &count) ==
              SINEW_ERROR_OUT_OF_RANGE,
          "capacity below the stage count refused");
    check(sinew_profile_stage_name(SINEW_PROFILE_STAGE_COUNT, &name) == SINEW_ERROR_OUT_OF_RANGE,
          "a stage past the count refused");
    check(sinew_world_set_profiling(profiled, 2) == SINEW_ERROR_INVALID_ARGUMENT,
          "enabled 2 refused");
    SinewProfileHook bad = {NULL, NULL};
    check(sinew_world_set_profile_callback(profiled, &bad) == SINEW_ERROR_INVALID_ARGUMENT,
          "a NULL callback refused");
    must(sinew_world_set_profile_callback(profiled, NULL), "remove the callback");
    markers.events = 0;
    must(sinew_world_step(profiled, DT), "step without callback");
    check(markers.events == 0, "removed: no more calls");

    sinew_world_destroy(plain);
    sinew_world_destroy(profiled);
    printf("%d checks, %d failed\n", checks, failures);
    return failures ? 1 : 0;
}

/*
 * Sinew C ABI end-to-end test: a hanging rope, driven only through include/sinew.h.
 *
 * Built and run by tests/ffi/c_abi.rs (`cargo test --test ffi c_abi::`) with
 *   gcc -std=c11 -Wall -Wextra -Werror -pedantic -I include tests/c/rope_test.c \
 *       -L target/<profile>/deps -lsinew -Wl,-rpath,target/<profile>/deps -lm
 *
 * A 20-link rope (21 particles, 5 cm links, 50 g each, top particle pinned) starts
 * horizontal, falls, swings and settles under damping for 3 s at 60 Hz. Then:
 *   - positions are finite and identical when read packed (stride 12) and into a
 *     16-byte vertex struct (stride 16, padding untouched);
 *   - every link is within 1% of 5 cm; the rope hangs straight down, its bottom
 *     particle ~1 m below the anchor;
 *   - the top link's tension equals the weight of the 20 hanging particles within 2%;
 * and a few error paths report the right status and message and change nothing.
 * Prints every check; exits 1 on any failure.
 */

#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include "sinew.h"

#define LINKS 20
#define PARTICLES (LINKS + 1)
#define LINK_LENGTH 0.05f
#define PARTICLE_MASS 0.05f
#define GRAVITY 9.81f
#define FRAME_DT (1.0f / 60.0f)
#define FRAMES 180 /* 3 s */

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

/* Checks that a call returned `expected`; on failure also prints the library's reason. */
static int check_status(SinewStatus got, SinewStatus expected, const char *what)
{
    char detail[512];
    snprintf(detail, sizeof detail, "status %d (expected %d)%s%s", (int)got, (int)expected,
             got != SINEW_OK ? ", last error: " : "",
             got != SINEW_OK ? sinew_last_error_message() : "");
    check(got == expected, what, detail);
    return got == expected;
}

/* Checks that the last error message is "function: reason". */
static void check_message(const char *function, const char *what)
{
    const char *msg = sinew_last_error_message();
    size_t n = strlen(function);
    int ok = msg != NULL && strncmp(msg, function, n) == 0 && msg[n] == ':' &&
             strlen(msg) > n + 2;
    check(ok, what, msg ? msg : "(NULL)");
}

typedef struct Vertex16 {
    SinewVec3 position;
    float pad; /* must stay untouched by a stride-16 read */
} Vertex16;

_Static_assert(sizeof(SinewVec3) == 12, "SinewVec3 is three packed floats");
_Static_assert(sizeof(Vertex16) == 16, "Vertex16 has a 16-byte stride");
_Static_assert(sizeof(SinewWorld) == 8, "SinewWorld is one uint64_t");

static float distance3(SinewVec3 a, SinewVec3 b)
{
    float dx = a.x - b.x, dy = a.y - b.y, dz = a.z - b.z;
    return sqrtf(dx * dx + dy * dy + dz * dz);
}

int main(void)
{
    char detail[256];

    /* --- Versions ------------------------------------------------------------------ */
    snprintf(detail, sizeof detail, "library %u, header %u", (unsigned)sinew_abi_version(),
             (unsigned)SINEW_ABI_VERSION);
    check(sinew_abi_version() == SINEW_ABI_VERSION, "sinew_abi_version() == SINEW_ABI_VERSION",
          detail);
    const char *version = sinew_version();
    check(version != NULL && version[0] != '\0', "sinew_version() is non-empty",
          version ? version : "(NULL)");

    /* --- World --------------------------------------------------------------------- */
    SinewWorldDesc desc = sinew_world_desc_default();
    desc.substeps = 20;
    desc.iterations = 1;
    desc.damping = 4.0f; /* 1/s: a swinging rope settles well within 3 s */
    SinewWorld world = {0};
    if (!check_status(sinew_world_create(&desc, &world), SINEW_OK, "sinew_world_create")) {
        return 1;
    }
    check(world.id != 0, "world handle is not the null handle", "");

    /* --- Rope: particle 0 pinned at the origin, the rest 5 cm apart along +x ---------- */
    SinewVec3 start[PARTICLES];
    float inverse_masses[PARTICLES];
    for (int i = 0; i < PARTICLES; i++) {
        start[i].x = (float)i * LINK_LENGTH;
        start[i].y = 0.0f;
        start[i].z = 0.0f;
        inverse_masses[i] = i == 0 ? 0.0f : 1.0f / PARTICLE_MASS;
    }
    uint32_t first_particle = UINT32_MAX;
    if (!check_status(sinew_world_add_particles(world, start, inverse_masses, PARTICLES,
                                                &first_particle),
                      SINEW_OK, "sinew_world_add_particles (21 particles)")) {
        return 1;
    }
    check(first_particle == 0, "first particle index is 0", "");

    uint32_t pairs[2 * LINKS];
    for (uint32_t i = 0; i < LINKS; i++) {
        pairs[2 * i] = first_particle + i;
        pairs[2 * i + 1] = first_particle + i + 1;
    }
    uint32_t first_constraint = UINT32_MAX;
    if (!check_status(sinew_world_add_distance_constraints(world, pairs, NULL, LINKS, 0.0f,
                                                           &first_constraint),
                      SINEW_OK, "sinew_world_add_distance_constraints (20 rigid links)")) {
        return 1;
    }
    check(first_constraint == 0, "first constraint id is 0", "");

    uint32_t count = 0;
    check_status(sinew_world_particle_count(world, &count), SINEW_OK,
                 "sinew_world_particle_count");
    snprintf(detail, sizeof detail, "%u", (unsigned)count);
    check(count == PARTICLES, "particle count is 21", detail);
    count = 0;
    check_status(sinew_world_distance_constraint_count(world, &count), SINEW_OK,
                 "sinew_world_distance_constraint_count");
    snprintf(detail, sizeof detail, "%u", (unsigned)count);
    check(count == LINKS, "constraint count is 20", detail);

    /* --- Simulate 3 s at 60 Hz ----------------------------------------------------- */
    int step_ok = 1;
    for (int frame = 0; frame < FRAMES && step_ok; frame++) {
        step_ok = sinew_world_step(world, FRAME_DT) == SINEW_OK;
    }
    check(step_ok, "180 steps of 1/60 s succeed", step_ok ? "" : sinew_last_error_message());
    if (!step_ok) {
        return 1;
    }

    /* --- Positions: packed and strided --------------------------------------------- */
    SinewVec3 pos[PARTICLES];
    memset(pos, 0, sizeof pos);
    check_status(sinew_world_read_positions(world, first_particle, PARTICLES, pos,
                                            (uint32_t)sizeof(SinewVec3)),
                 SINEW_OK, "sinew_world_read_positions (stride 12)");

    Vertex16 vertices[PARTICLES];
    for (int i = 0; i < PARTICLES; i++) {
        vertices[i].position.x = vertices[i].position.y = vertices[i].position.z = -1.0f;
        vertices[i].pad = 12345.0f;
    }
    check_status(sinew_world_read_positions(world, first_particle, PARTICLES, vertices,
                                            (uint32_t)sizeof(Vertex16)),
                 SINEW_OK, "sinew_world_read_positions (stride 16)");
    int same = 1, pads = 1, finite = 1;
    for (int i = 0; i < PARTICLES; i++) {
        same &= memcmp(&vertices[i].position, &pos[i], sizeof(SinewVec3)) == 0;
        pads &= vertices[i].pad == 12345.0f;
        finite &= isfinite(pos[i].x) && isfinite(pos[i].y) && isfinite(pos[i].z);
    }
    check(same, "stride-16 read equals the packed read", "");
    check(pads, "stride-16 read leaves the 4 padding bytes untouched", "");
    check(finite, "all positions are finite", "");

    SinewVec3 vel[PARTICLES];
    check_status(sinew_world_read_velocities(world, first_particle, PARTICLES, vel,
                                             (uint32_t)sizeof(SinewVec3)),
                 SINEW_OK, "sinew_world_read_velocities");
    float max_speed = 0.0f;
    for (int i = 0; i < PARTICLES; i++) {
        float s = sqrtf(vel[i].x * vel[i].x + vel[i].y * vel[i].y + vel[i].z * vel[i].z);
        if (!(s <= max_speed)) {
            max_speed = s; /* NaN propagates and fails the check below */
        }
    }
    snprintf(detail, sizeof detail, "max speed %.6f m/s", (double)max_speed);
    check(max_speed < 0.05f, "the rope has settled (max speed < 5 cm/s)", detail);

    /* --- Shape: link lengths and hang --------------------------------------------- */
    float worst = 0.0f;
    int worst_link = -1;
    for (int i = 0; i < LINKS; i++) {
        float err = fabsf(distance3(pos[i], pos[i + 1]) - LINK_LENGTH) / LINK_LENGTH;
        if (!(err <= worst)) {
            worst = err;
            worst_link = i;
        }
    }
    snprintf(detail, sizeof detail, "worst link %d off by %.4f%%", worst_link,
             (double)(worst * 100.0f));
    check(worst < 0.01f, "every link is within 1% of 5 cm", detail);

    SinewVec3 anchor = pos[0], bottom = pos[LINKS];
    snprintf(detail, sizeof detail, "anchor (%.4f, %.4f, %.4f)", (double)anchor.x,
             (double)anchor.y, (double)anchor.z);
    check(anchor.x == 0.0f && anchor.y == 0.0f && anchor.z == 0.0f,
          "pinned particle has not moved", detail);
    float drop = anchor.y - bottom.y;
    float sideways = sqrtf((bottom.x - anchor.x) * (bottom.x - anchor.x) +
                           (bottom.z - anchor.z) * (bottom.z - anchor.z));
    snprintf(detail, sizeof detail, "bottom (%.4f, %.4f, %.4f): %.4f m below, %.4f m aside",
             (double)bottom.x, (double)bottom.y, (double)bottom.z, (double)drop,
             (double)sideways);
    check(fabsf(drop - 1.0f) < 0.03f && sideways < 0.05f,
          "rope hangs down: bottom ~1 m (within 3%) below the anchor", detail);
    int monotonic = 1;
    for (int i = 0; i < LINKS; i++) {
        monotonic &= pos[i + 1].y < pos[i].y;
    }
    check(monotonic, "each particle hangs below the one above it", "");

    /* --- Tension ------------------------------------------------------------------- */
    float forces[LINKS];
    for (int i = 0; i < LINKS; i++) {
        forces[i] = -1.0f;
    }
    check_status(sinew_world_read_constraint_forces(world, first_constraint, LINKS, forces),
                 SINEW_OK, "sinew_world_read_constraint_forces");
    float weight = (float)LINKS * PARTICLE_MASS * GRAVITY; /* 9.81 N */
    snprintf(detail, sizeof detail, "top link %.4f N, weight %.4f N, error %.3f%%",
             (double)forces[0], (double)weight,
             (double)(100.0f * fabsf(forces[0] - weight) / weight));
    check(fabsf(forces[0] - weight) <= 0.02f * weight,
          "top link tension equals the hanging weight within 2%", detail);
    snprintf(detail, sizeof detail, "bottom link %.4f N, expected %.4f N",
             (double)forces[LINKS - 1], (double)(PARTICLE_MASS * GRAVITY));
    check(fabsf(forces[LINKS - 1] - PARTICLE_MASS * GRAVITY) <= 0.05f * PARTICLE_MASS * GRAVITY,
          "bottom link carries one particle's weight within 5%", detail);

    /* --- Error paths --------------------------------------------------------------- */
    /* NULL output pointer. */
    check_status(sinew_world_particle_count(world, NULL), SINEW_ERROR_NULL_POINTER,
                 "sinew_world_particle_count(world, NULL) -> NULL_POINTER");
    check_message("sinew_world_particle_count",
                  "last error message names sinew_world_particle_count");

    /* A failed read leaves the output buffer untouched. */
    float sentinel[2] = {-7.0f, -7.0f};
    check_status(sinew_world_read_constraint_forces(world, LINKS - 1, 2, sentinel),
                 SINEW_ERROR_OUT_OF_RANGE, "read_constraint_forces past the end -> OUT_OF_RANGE");
    check(sentinel[0] == -7.0f && sentinel[1] == -7.0f,
          "failed read_constraint_forces leaves the output untouched", "");

    /* NaN dt: rejected, and the world does not move. */
    check_status(sinew_world_step(world, NAN), SINEW_ERROR_INVALID_ARGUMENT,
                 "sinew_world_step(world, NaN) -> INVALID_ARGUMENT");
    check_message("sinew_world_step", "last error message names sinew_world_step");
    SinewVec3 after[PARTICLES];
    check_status(sinew_world_read_positions(world, 0, PARTICLES, after,
                                            (uint32_t)sizeof(SinewVec3)),
                 SINEW_OK, "sinew_world_read_positions after the failed step");
    check(memcmp(after, pos, sizeof pos) == 0, "the failed step changed no position", "");

    /* --- Winch: one bound for the built length; the length never goes negative ------- */
    {
        /* A 3 m rope of 30 links (whose float sum may read a rounding below 3 m) takes a
         * winch at exactly 3 m and a target of 3 m; 0.1% past it is refused. */
        SinewWorld ww = {0};
        check_status(sinew_world_create(&desc, &ww), SINEW_OK, "winch world");
        SinewRopeDesc rd = sinew_rope_desc_default();
        rd.start.x = 0.3f;
        rd.start.y = 1.7f;
        rd.end.x = 0.3f + 3.0f * 0.6f;
        rd.end.y = 1.7f - 3.0f * 0.8f;
        rd.end.z = 0.0f;
        rd.segments = 30;
        SinewBody rope = {0};
        check_status(sinew_world_add_rope(ww, &rd, &rope), SINEW_OK, "3 m rope of 30 links");
        check_status(sinew_body_add_winch(ww, rope, SINEW_ROPE_START, 3.0f * 1.001f),
                     SINEW_ERROR_INVALID_ARGUMENT, "sinew_body_add_winch(0.1% past) refused");
        check_status(sinew_body_add_winch(ww, rope, SINEW_ROPE_START, 3.0f), SINEW_OK,
                     "sinew_body_add_winch(the exact built length)");
        check_status(sinew_body_set_winch_target(ww, rope, 3.0f, 1.0f), SINEW_OK,
                     "sinew_body_set_winch_target(the exact built length)");
        check_status(sinew_body_set_winch_target(ww, rope, 3.0f * 1.001f, 1.0f),
                     SINEW_ERROR_INVALID_ARGUMENT, "sinew_body_set_winch_target(0.1% past)");
        /* Reeled fully in: the length reads 0, never a rounding below it. */
        check_status(sinew_body_set_winch_target(ww, rope, 0.0f, 5.0f), SINEW_OK,
                     "reel fully in");
        float length = 0.0f, speed = 0.0f, least = 1.0f;
        uint32_t link = 0;
        for (int i = 0; i < 90; i++) {
            sinew_world_step(ww, FRAME_DT);
            sinew_body_winch_state(ww, rope, &length, &speed, &link);
            least = fminf(least, length);
        }
        snprintf(detail, sizeof detail, "least %.9g m, last %.9g m, speed %g", least, length,
                 speed);
        check(least >= 0.0f && length == 0.0f && speed == 0.0f,
              "reeled fully in: the length is 0 and never below", detail);
        /* Cut on the drum (a parked link), then paid out: stops at the cut, >= 0. */
        check_status(sinew_body_cut_rope(ww, rope, 10), SINEW_OK, "cut a link on the drum");
        check_status(sinew_body_set_winch_speed(ww, rope, 2.0f), SINEW_OK, "pay out");
        least = 1.0f;
        for (int i = 0; i < 120; i++) {
            sinew_world_step(ww, FRAME_DT);
            sinew_body_winch_state(ww, rope, &length, &speed, &link);
            least = fminf(least, length);
        }
        snprintf(detail, sizeof detail, "least %.9g m, last %.9g m, speed %g", least, length,
                 speed);
        check(least >= 0.0f && speed == 0.0f && length > 1.5f && length < 2.0f,
              "paid out to the cut on the drum: stopped there, never negative", detail);
        check_status(sinew_world_destroy(ww), SINEW_OK, "destroy the winch world");
    }

    /* Destroyed handle. */
    SinewWorld doomed = {0};
    check_status(sinew_world_create(&desc, &doomed), SINEW_OK, "create a second world");
    check_status(sinew_world_destroy(doomed), SINEW_OK, "destroy the second world");
    check_status(sinew_world_step(doomed, FRAME_DT), SINEW_ERROR_INVALID_HANDLE,
                 "sinew_world_step(destroyed world) -> INVALID_HANDLE");
    check_message("sinew_world_step", "last error message names sinew_world_step");
    check_status(sinew_world_destroy(doomed), SINEW_ERROR_INVALID_HANDLE,
                 "destroying it twice -> INVALID_HANDLE");
    SinewWorld null_world = {0};
    check_status(sinew_world_step(null_world, FRAME_DT), SINEW_ERROR_INVALID_HANDLE,
                 "sinew_world_step(null handle) -> INVALID_HANDLE");

    /* A desc not made by sinew_world_desc_default(). */
    SinewWorldDesc raw;
    memset(&raw, 0, sizeof raw);
    raw.substeps = 8;
    raw.iterations = 1;
    raw.jacobi_relaxation = 1.0f;
    SinewWorld untouched = {0xABCDu};
    check_status(sinew_world_create(&raw, &untouched), SINEW_ERROR_INVALID_ARGUMENT,
                 "sinew_world_create(desc without cookie) -> INVALID_ARGUMENT");
    check(untouched.id == 0xABCDu, "failed create leaves *out_world untouched", "");

    /* The first world still works. */
    check_status(sinew_world_step(world, FRAME_DT), SINEW_OK, "the world still steps");
    check_status(sinew_world_destroy(world), SINEW_OK, "sinew_world_destroy");

    printf("%d checks, %d failed\n", checks, failures);
    return failures == 0 ? 0 : 1;
}

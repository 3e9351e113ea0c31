/*
 * Sinew C ABI end-to-end test of fluids, only through include/sinew.h. Built and run by
 * tests/ffi/c_abi.rs like rope_test.c.
 *
 *   - Descs from sinew_*_desc_init carry the documented defaults.
 *   - A fluid reserves its particles after the existing ones; emitted particles read back
 *     as emitted, interleaved into a vertex buffer (position, velocity, density, pad).
 *   - A lone fluid particle falls freely: after N substeps of h from rest,
 *     v = -g h N and y = y0 - g h^2 N (N + 1) / 2.
 *   - An emitter of 600 particles/s emits 300 in 0.5 s; a kill half-space removes what
 *     falls through it; a removed emitter's handle is refused.
 *   - A rope under a block of fluid: coupled, the fluid pushes it down; switched off
 *     (sinew_body_set_fluid_coupling), it feels nothing and moves bit for bit as
 *     without the fluid.
 *   - Bad input: NaN rest density, capacity 0, emitting past the capacity, a NaN
 *     position, a readback capacity below the live count, a bad stride, a removed fluid:
 *     a status and a message naming the function, nothing changed.
 * Prints every check; exits 1 on any failure.
 */

#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include "sinew.h"

#define FRAME_DT (1.0f / 60.0f)
#define G 9.81f

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

static int check_status(SinewStatus got, SinewStatus expected, const char *what)
{
    char detail[512];
    snprintf(detail, sizeof detail, "status %d (expected %d)%s%s", (int)got, (int)expected,
             got != SINEW_OK ? ", message: " : "", got != SINEW_OK ? sinew_last_error_message() : "");
    check(got == expected, what, detail);
    return got == expected;
}

/* A failing call must name itself in the message. */
static void check_error(SinewStatus got, SinewStatus expected, const char *function, const char *what)
{
    if (check_status(got, expected, what)) {
        check(strstr(sinew_last_error_message(), function) != NULL, "message names the function",
              sinew_last_error_message());
    }
}

static SinewWorld new_world(uint32_t substeps)
{
    SinewWorldDesc desc;
    SinewWorld world = {0};
    sinew_world_desc_init(&desc);
    desc.substeps = substeps;
    desc.threads = 1;
    check_status(sinew_world_create(&desc, &world), SINEW_OK, "create a world");
    return world;
}

static uint32_t live(SinewWorld w, SinewFluid f)
{
    SinewFluidStats s;
    memset(&s, 0, sizeof s);
    check_status(sinew_fluid_stats(w, f, &s), SINEW_OK, "stats");
    return s.count;
}

typedef struct Vertex {
    SinewVec3 position;
    SinewVec3 velocity;
    float density;
    float pad;
} Vertex;

static void defaults(void)
{
    SinewFluidDesc d;
    SinewEmitterDesc e;
    SinewKillVolumeDesc k;
    check_status(sinew_fluid_desc_init(&d), SINEW_OK, "fluid desc init");
    check(d.rest_density == 1000.0f && d.spacing == 0.05f && d.capacity == 4096u && d.scorr_n == 4u &&
              d.recycle_oldest == 0u && d.coupling_mask == 0xFFFFFFFFu,
          "fluid desc defaults (water)", "");
    check_status(sinew_emitter_desc_init(&e), SINEW_OK, "emitter desc init");
    check(e.shape == SINEW_EMITTER_NOZZLE && e.rate == 500.0f && e.speed == 2.0f && e.rotation.w == 1.0f,
          "emitter desc defaults", "");
    check_status(sinew_kill_volume_desc_init(&k), SINEW_OK, "kill volume desc init");
    check(k.shape == SINEW_KILL_VOLUME_BOX && k.normal.y == 1.0f, "kill volume desc defaults", "");
    check(SINEW_MAX_FLUID_CAPACITY == 4194304 && SINEW_MAX_REST_DENSITY > 0.0f, "limits exported", "");
}

static void emit_and_read(void)
{
    SinewWorld w = new_world(4);
    SinewVec3 existing = {5.0f, 5.0f, 5.0f};
    uint32_t first = 99, cap = 0, n = 0, k;
    SinewFluidDesc d;
    SinewFluid f = {0};
    SinewVec3 p[8], v[8], more[9];
    Vertex verts[10];
    char detail[128];

    check_status(sinew_world_add_particles(w, &existing, NULL, 1, &first), SINEW_OK, "one plain particle");
    sinew_fluid_desc_init(&d);
    d.capacity = 16;
    check_status(sinew_world_add_fluid(w, &d, &f), SINEW_OK, "add a fluid");
    check_status(sinew_fluid_particle_range(w, f, &first, &cap), SINEW_OK, "particle range");
    snprintf(detail, sizeof detail, "first %u, capacity %u", first, cap);
    check(first == 1u && cap == 16u, "reserved after the existing particle", detail);
    check_status(sinew_world_particle_count(w, &n), SINEW_OK, "particle count");
    check(n == 17u, "reserved particles are world particles", "");

    for (k = 0; k < 8; k++) {
        p[k].x = 0.05f * (float)(k % 2);
        p[k].y = 1.0f + 0.05f * (float)((k / 2) % 2);
        p[k].z = 0.05f * (float)(k / 4);
        v[k].x = (float)k;
        v[k].y = 0.0f;
        v[k].z = -(float)k;
    }
    check_status(sinew_fluid_emit(w, f, p, v, 8, &first), SINEW_OK, "emit 8");
    check(first == 0u, "first emitted index 0", "");

    for (k = 0; k < 10; k++) {
        verts[k].position.x = verts[k].velocity.x = verts[k].density = -7.0f;
        verts[k].pad = 42.0f;
    }
    check_status(sinew_fluid_read_particles(w, f, 1.0f, 10, &verts[0].position, sizeof(Vertex), &verts[0].velocity,
                                            sizeof(Vertex), &verts[0].density, sizeof(Vertex), &n),
                 SINEW_OK, "interleaved read");
    check(n == 8u, "8 live particles", "");
    check(verts[3].position.y == p[3].y && verts[7].velocity.z == -7.0f && verts[7].pad == 42.0f,
          "positions and velocities interleaved, padding untouched", "");
    check(verts[8].position.x == -7.0f, "nothing written past the live count", "");
    check(verts[0].density >= 0.0f && isfinite(verts[0].density), "density ratio", "");

    /* Bad input: a status, a message, nothing changed. */
    d.rest_density = NAN;
    check_error(sinew_world_add_fluid(w, &d, &f), SINEW_ERROR_INVALID_ARGUMENT, "sinew_world_add_fluid",
                "NaN rest density");
    sinew_fluid_desc_init(&d);
    d.capacity = 0;
    check_error(sinew_world_add_fluid(w, &d, &f), SINEW_ERROR_INVALID_ARGUMENT, "sinew_world_add_fluid", "capacity 0");
    for (k = 0; k < 9; k++) {
        more[k] = p[k % 8];
        more[k].y += 1.0f;
    }
    check_error(sinew_fluid_emit(w, f, more, NULL, 9, &first), SINEW_ERROR_OUT_OF_RANGE, "sinew_fluid_emit",
                "9 particles into 8 free slots");
    more[1].x = NAN;
    check_error(sinew_fluid_emit(w, f, more, NULL, 2, &first), SINEW_ERROR_INVALID_ARGUMENT, "sinew_fluid_emit",
                "NaN position");
    check(live(w, f) == 8u, "refused emissions add nothing", "");
    n = 1234;
    check_error(sinew_fluid_read_particles(w, f, 1.0f, 7, &verts[0].position, sizeof(Vertex), NULL, 0, NULL, 0, &n),
                SINEW_ERROR_OUT_OF_RANGE, "sinew_fluid_read_particles", "capacity 7 below 8 live");
    check(n == 1234u && verts[0].pad == 42.0f, "outputs untouched on failure", "");
    check_error(sinew_fluid_read_particles(w, f, 1.0f, 10, NULL, 0, NULL, 0, &verts[0].density, 2, &n),
                SINEW_ERROR_INVALID_ARGUMENT, "sinew_fluid_read_particles", "density stride 2");
    check_status(sinew_fluid_remove(w, f), SINEW_OK, "remove the fluid");
    check_error(sinew_fluid_clear(w, f), SINEW_ERROR_INVALID_HANDLE, "sinew_fluid_clear", "removed fluid");
    check_status(sinew_world_fluid_count(w, &n), SINEW_OK, "fluid count");
    check(n == 0u, "no fluid left", "");
    sinew_world_destroy(w);
}

static void free_fall(void)
{
    const uint32_t substeps = 8;
    const int steps = 30;
    SinewWorld w = new_world(substeps);
    SinewFluidDesc d;
    SinewFluid f = {0};
    SinewVec3 start = {0.0f, 10.0f, 0.0f}, pos, vel;
    uint32_t first, n;
    double h = (double)FRAME_DT / substeps, total = (double)steps * substeps, y;
    char detail[160];
    int i;

    sinew_fluid_desc_init(&d);
    d.capacity = 2;
    check_status(sinew_world_add_fluid(w, &d, &f), SINEW_OK, "add a fluid");
    check_status(sinew_fluid_emit(w, f, &start, NULL, 1, &first), SINEW_OK, "emit one");
    for (i = 0; i < steps; i++) {
        sinew_world_step(w, FRAME_DT);
    }
    check_status(sinew_fluid_read_particles(w, f, 1.0f, 1, &pos, 12, &vel, 12, NULL, 0, &n), SINEW_OK, "read");
    y = 10.0 - G * h * h * total * (total + 1.0) / 2.0;
    snprintf(detail, sizeof detail, "y %.6f (closed form %.6f), v %.6f (%.6f)", pos.y, y, vel.y, -G * h * total);
    check(fabs(pos.y - y) < 1e-3 && fabs(vel.y + G * h * total) < 1e-3, "free fall of a lone fluid particle", detail);
    sinew_world_destroy(w);
}

static void emitter_and_kill_volume(void)
{
    SinewWorld w = new_world(4);
    SinewFluidDesc d;
    SinewEmitterDesc e;
    SinewKillVolumeDesc k;
    SinewFluid f = {0};
    SinewEmitter em = {0};
    SinewKillVolume kv = {0};
    SinewFluidStats s;
    char detail[128];
    int i;

    sinew_fluid_desc_init(&d);
    d.capacity = 2000;
    check_status(sinew_world_add_fluid(w, &d, &f), SINEW_OK, "add a fluid");
    sinew_emitter_desc_init(&e);
    e.position.y = 2.0f;
    e.rate = 600.0f;
    e.speed = 3.0f; /* the nozzle then passes up to 3 m/s · 13 points / 5 cm = 780 particles/s */
    check_status(sinew_fluid_add_emitter(w, f, &e, &em), SINEW_OK, "add an emitter");
    for (i = 0; i < 30; i++) {
        sinew_world_step(w, FRAME_DT);
    }
    sinew_fluid_stats(w, f, &s);
    snprintf(detail, sizeof detail, "%llu emitted, %llu refused", (unsigned long long)s.emitted,
             (unsigned long long)s.refused);
    check(s.emitted >= 299 && s.emitted <= 301 && s.refused == 0, "600 particles/s for 0.5 s", detail);
    check_status(sinew_emitter_remove(w, em), SINEW_OK, "remove the emitter");
    check_error(sinew_emitter_set(w, em, &e), SINEW_ERROR_INVALID_HANDLE, "sinew_emitter_set", "removed emitter");
    sinew_kill_volume_desc_init(&k);
    k.shape = SINEW_KILL_VOLUME_HALF_SPACE;
    k.center.y = -1.0f;
    check_status(sinew_fluid_add_kill_volume(w, f, &k, &kv), SINEW_OK, "add a kill plane");
    for (i = 0; i < 120; i++) {
        sinew_world_step(w, FRAME_DT);
    }
    sinew_fluid_stats(w, f, &s);
    snprintf(detail, sizeof detail, "%u live, %llu removed of %llu", s.count, (unsigned long long)s.removed,
             (unsigned long long)s.emitted);
    check(s.count == 0 && s.removed == s.emitted, "everything fell through the kill plane", detail);
    k.normal.x = NAN;
    check_error(sinew_fluid_add_kill_volume(w, f, &k, &kv), SINEW_ERROR_INVALID_ARGUMENT,
                "sinew_fluid_add_kill_volume", "NaN normal");
    sinew_world_destroy(w);
}

/* A rope pinned at both ends (its particles given a 2.5 cm radius: a rope's radius is
 * not a particle radius) along the bottom of a 6 x 6 x 6 block of fluid at its spacing,
 * one substep per step (the force is the last substep's): coupled, the fluid above
 * pushes it down; switched off, it feels exactly nothing and moves bit for bit as in a
 * world without the fluid. `with_fluid` 0 builds that world. Writes the force after the
 * first step and the rope's positions after three. */
static void rope_under_fluid(int with_fluid, uint32_t coupled, SinewVec3 *out_force, SinewVec3 out_rope[13])
{
    SinewWorld w = new_world(1);
    SinewRopeDesc rd;
    SinewBody rope = {0};
    SinewFluidDesc fd;
    SinewFluid f = {0};
    SinewVec3 p[216];
    float radii[13];
    uint32_t first, k;
    int i;

    sinew_rope_desc_init(&rd);
    rd.start.x = -0.3f;
    rd.start.y = 0.9f;
    rd.end.x = 0.3f;
    rd.end.y = 0.9f;
    rd.segments = 12;
    rd.pin_end = 1;
    rd.tethers = 0;
    check_status(sinew_world_add_rope(w, &rd, &rope), SINEW_OK, "add a rope");
    for (k = 0; k < 13; k++) {
        radii[k] = 0.025f;
    }
    check_status(sinew_world_set_particle_radii(w, 0, 13, radii), SINEW_OK, "rope particle radii");
    check_status(sinew_body_set_fluid_coupling(w, rope, coupled), SINEW_OK, "coupling switch");
    if (with_fluid) {
        sinew_fluid_desc_init(&fd);
        fd.capacity = 216;
        check_status(sinew_world_add_fluid(w, &fd, &f), SINEW_OK, "add a fluid");
        for (k = 0; k < 216; k++) {
            p[k].x = -0.125f + 0.05f * (float)(k % 6);
            p[k].y = 0.875f + 0.05f * (float)(k / 36);
            p[k].z = -0.125f + 0.05f * (float)((k / 6) % 6);
        }
        check_status(sinew_fluid_emit(w, f, p, NULL, 216, &first), SINEW_OK, "emit above the rope");
    }
    for (i = 0; i < 3; i++) {
        sinew_world_step(w, FRAME_DT);
        if (i == 0) {
            check_status(sinew_body_fluid_force(w, rope, out_force), SINEW_OK, "fluid force");
        }
    }
    check_status(sinew_world_read_positions(w, 0, 13, out_rope, 12), SINEW_OK, "rope positions");
    sinew_world_destroy(w);
}

static void coupling(void)
{
    SinewVec3 on, off, none, rope_on[13], rope_off[13], rope_alone[13];
    char detail[200];
    rope_under_fluid(1, 1, &on, rope_on);
    rope_under_fluid(1, 0, &off, rope_off);
    rope_under_fluid(0, 1, &none, rope_alone);
    snprintf(detail, sizeof detail, "F = (%.3g, %.3g, %.3g) N", on.x, on.y, on.z);
    check(on.y < -1.0f && isfinite(on.x) && isfinite(on.z), "the fluid above pushes a coupled rope down", detail);
    snprintf(detail, sizeof detail, "F = (%g, %g, %g) N", off.x, off.y, off.z);
    check(off.x == 0.0f && off.y == 0.0f && off.z == 0.0f, "a switched-off rope feels no force", detail);
    check(memcmp(rope_off, rope_alone, sizeof rope_off) == 0, "a switched-off rope moves as without the fluid", "");
    check(memcmp(rope_on, rope_alone, sizeof rope_on) != 0, "a coupled rope does not", "");
}

int main(void)
{
    defaults();
    emit_and_read();
    free_fall();
    emitter_and_kill_volume();
    coupling();
    printf("%d checks, %d failed\n", checks, failures);
    return failures == 0 ? 0 : 1;
}

/*
 * Sinew C ABI end-to-end test of granular materials, only through include/sinew.h.
 * Built and run by tests/ffi/c_abi.rs like rope_test.c.
 *
 *   - A grain (1 cm) resting on a pinned grain with the contact tilted 20° from the
 *     vertical: with static friction 0.6 (atan 0.6 = 31°) it stays put for 1 s;
 *     frictionless it slides off.
 *   - The material reads back; a particle keeps the default (frictionless, dry).
 *   - Bad input: dynamic friction above static, negative cohesion, a material not made
 *     by sinew_particle_material_default, a range past the particles: a status and a
 *     message naming the function, nothing changed.
 *   - A grain emitter pours 30 grains (a point nozzle at 45 grains/s): they are the
 *     particles its stats name, they fall, they have its material; its budget stops it.
 * Prints every check; exits 1 on any failure.
 */

#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include "sinew.h"

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

static void check_error(SinewStatus got, SinewStatus expected, const char *fragment, const char *what)
{
    if (check_status(got, expected, what)) {
        check(strstr(sinew_last_error_message(), "sinew_world_set_particle_material") != NULL,
              "message names the function", sinew_last_error_message());
        check(strstr(sinew_last_error_message(), fragment) != NULL, "message names the value",
              sinew_last_error_message());
    }
}

/* A grain on a pinned grain, the contact 20° from the vertical; returns how far the
 * grain moved (m) in 1 s with static and dynamic friction `mu`. */
static float grain_on_grain(float mu)
{
    const float r = 0.01f, tilt = 20.0f * 3.14159265f / 180.0f;
    SinewWorldDesc desc;
    SinewWorld world = {0};
    SinewParticleMaterial sand;
    SinewVec3 at[2] = {{0.0f, 0.0f, 0.0f}, {2.0f * r * sinf(tilt), 2.0f * r * cosf(tilt), 0.0f}};
    SinewVec3 end;
    float inverse_masses[2] = {0.0f, 100.0f}, radii[2] = {r, r};
    uint32_t first = 0;
    int frame;
    sinew_world_desc_init(&desc);
    desc.threads = 1;
    desc.substeps = 16;
    check_status(sinew_world_create(&desc, &world), SINEW_OK, "sinew_world_create");
    check_status(sinew_world_add_particles(world, at, inverse_masses, 2, &first), SINEW_OK,
                 "sinew_world_add_particles");
    check_status(sinew_world_set_particle_radii(world, first, 2, radii), SINEW_OK,
                 "sinew_world_set_particle_radii");
    sinew_particle_material_init(&sand);
    sand.static_friction = mu;
    sand.dynamic_friction = mu;
    check_status(sinew_world_set_particle_material(world, first, 2, &sand), SINEW_OK,
                 "sinew_world_set_particle_material");
    for (frame = 0; frame < 60; frame++) {
        sinew_world_step(world, 1.0f / 60.0f);
    }
    sinew_world_read_positions(world, first + 1, 1, &end, sizeof end);
    sinew_world_destroy(world);
    return sqrtf((end.x - at[1].x) * (end.x - at[1].x) + (end.y - at[1].y) * (end.y - at[1].y));
}

static void friction_holds_a_grain_on_a_grain(void)
{
    char detail[128];
    float held = grain_on_grain(0.6f), slid = grain_on_grain(0.0f);
    snprintf(detail, sizeof detail, "moved %.6f m", held);
    check(held < 1e-4f, "static friction 0.6 holds at 20 degrees", detail);
    snprintf(detail, sizeof detail, "moved %.4f m", slid);
    check(slid > 0.01f, "frictionless, the grain slides off", detail);
}

static void material_reads_back_and_bad_input_is_refused(void)
{
    SinewWorldDesc desc;
    SinewWorld world = {0};
    SinewParticleMaterial wet, back, bad;
    SinewVec3 at[2] = {{0.0f, 1.0f, 0.0f}, {0.0f, 2.0f, 0.0f}};
    uint32_t first = 0;
    sinew_world_desc_init(&desc);
    desc.threads = 1;
    check_status(sinew_world_create(&desc, &world), SINEW_OK, "sinew_world_create");
    check_status(sinew_world_add_particles(world, at, NULL, 2, &first), SINEW_OK, "sinew_world_add_particles");
    wet = sinew_particle_material_default();
    check(wet.static_friction == 0.0f && wet.cohesion == 0.0f, "the default is frictionless and dry", "");
    wet.static_friction = 0.8f;
    wet.dynamic_friction = 0.6f;
    wet.rolling_friction = 0.1f;
    wet.cohesion = 500.0f;
    check_status(sinew_world_set_particle_material(world, first + 1, 1, &wet), SINEW_OK,
                 "sinew_world_set_particle_material");
    check_status(sinew_world_particle_material(world, first + 1, &back), SINEW_OK, "sinew_world_particle_material");
    check(back.static_friction == 0.8f && back.dynamic_friction == 0.6f && back.rolling_friction == 0.1f &&
              back.cohesion == 500.0f,
          "the material reads back", "");
    check_status(sinew_world_particle_material(world, first, &back), SINEW_OK, "sinew_world_particle_material");
    check(back.static_friction == 0.0f && back.cohesion == 0.0f, "the other particle keeps the default", "");
    bad = wet;
    bad.dynamic_friction = 0.9f;
    check_error(sinew_world_set_particle_material(world, first, 2, &bad), SINEW_ERROR_INVALID_ARGUMENT,
                "dynamic_friction", "dynamic above static friction");
    bad = wet;
    bad.cohesion = -1.0f;
    check_error(sinew_world_set_particle_material(world, first, 2, &bad), SINEW_ERROR_INVALID_ARGUMENT,
                "cohesion", "negative cohesion");
    bad = wet;
    bad.internal_cookie = 0;
    check_error(sinew_world_set_particle_material(world, first, 2, &bad), SINEW_ERROR_INVALID_ARGUMENT,
                "sinew_particle_material_default", "a material without its cookie");
    check_error(sinew_world_set_particle_material(world, first, 3, &wet), SINEW_ERROR_OUT_OF_RANGE,
                "particles", "a range past the particles");
    check_status(sinew_world_particle_material(world, first, &back), SINEW_OK, "sinew_world_particle_material");
    check(back.static_friction == 0.0f, "refused calls change nothing", "");
    sinew_world_destroy(world);
}

static void a_grain_emitter_pours_up_to_its_budget(void)
{
    SinewWorldDesc desc;
    SinewWorld world = {0};
    SinewGrainEmitterDesc grains = sinew_grain_emitter_desc_default();
    SinewEmitterDesc stream = sinew_emitter_desc_default();
    SinewParticleMaterial sand = sinew_particle_material_default(), back;
    SinewGrainEmitter pour = {0};
    SinewGrainEmitterStats stats;
    char detail[128];
    SinewVec3 last;
    int frame;
    sinew_world_desc_init(&desc);
    desc.threads = 1;
    check_status(sinew_world_create(&desc, &world), SINEW_OK, "sinew_world_create");
    grains.budget = 30;
    grains.grain_radius = 0.01f;
    stream.radius = 0.0f;
    stream.speed = 1.0f;
    stream.rate = 100.0f;
    stream.position.y = 1.0f;
    sand.static_friction = 0.6f;
    sand.dynamic_friction = 0.5f;
    check_status(sinew_world_add_grain_emitter(world, &grains, &stream, &sand, &pour), SINEW_OK,
                 "sinew_world_add_grain_emitter");
    for (frame = 0; frame < 30; frame++) {
        sinew_world_step(world, 1.0f / 60.0f);
    }
    check_status(sinew_grain_emitter_stats(world, pour, &stats), SINEW_OK, "sinew_grain_emitter_stats");
    snprintf(detail, sizeof detail, "%u grains in 0.5 s", stats.emitted);
    check(stats.emitted >= 22 && stats.emitted <= 23, "a point nozzle passes speed / 2.2 r", detail);
    for (frame = 0; frame < 60; frame++) {
        sinew_world_step(world, 1.0f / 60.0f);
    }
    check_status(sinew_grain_emitter_stats(world, pour, &stats), SINEW_OK, "sinew_grain_emitter_stats");
    check(stats.emitted == 30 && stats.budget == 30, "the budget stops the pour", "");
    sinew_world_read_positions(world, stats.first + 29, 1, &last, sizeof last);
    snprintf(detail, sizeof detail, "y %.3f m", last.y);
    check(last.y < 1.0f, "the last grain fell from the nozzle", detail);
    check_status(sinew_world_particle_material(world, stats.first, &back), SINEW_OK, "sinew_world_particle_material");
    check(back.static_friction == 0.6f, "the grains have the material", "");
    grains.grain_radius = -1.0f;
    check_status(sinew_world_add_grain_emitter(world, &grains, &stream, &sand, &pour),
                 SINEW_ERROR_INVALID_ARGUMENT, "a negative radius is refused");
    check_status(sinew_grain_emitter_remove(world, pour), SINEW_OK, "sinew_grain_emitter_remove");
    check_status(sinew_grain_emitter_stats(world, pour, &stats), SINEW_ERROR_INVALID_HANDLE,
                 "a removed emitter's handle is refused");
    sinew_world_destroy(world);
}

int main(void)
{
    friction_holds_a_grain_on_a_grain();
    material_reads_back_and_bad_input_is_refused();
    a_grain_emitter_pours_up_to_its_budget();
    printf("%d checks, %d failed\n", checks, failures);
    return failures == 0 ? 0 : 1;
}

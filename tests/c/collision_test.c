/*
 * Sinew C ABI end-to-end test of collisions and interaction, only through
 * include/sinew.h. Built and run by tests/ffi/c_abi.rs like rope_test.c.
 *
 *   - A 2 cm particle at 20 m/s hits a 1 cm thick box collider and rests on it; the
 *     contact readback reports that box, normal +Y and an impulse of m g dt per step.
 *   - A 10-link rope pinned at one end: its free end is picked with a ray, grabbed,
 *     dragged to a target with the mouse (sinew_world_move_grab every frame) and ends
 *     within 1 cm of the target; released, it falls.
 *   - A particle resting on a box: contact point, the box's summed force and torque,
 *     contact events (begin once, persist, end once when the box is removed).
 *   - Bad input: NaN radius, zero-size box, non-unit rotation, friction < 0,
 *     restitution > 1, zero ray direction, a removed collider: a status and a message,
 *     nothing changed.
 *   - Handles of every kind (body, collider, fluid, emitter, kill volume) of another
 *     world are refused, though they name the same slot and generation.
 * Prints every check; exits 1 on any failure.
 */

#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include "sinew.h"

#define FRAME_DT (1.0f / 60.0f)

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

static SinewWorld new_world(uint32_t iterations)
{
    SinewWorldDesc desc;
    SinewWorld world = {0};
    sinew_world_desc_init(&desc);
    desc.iterations = iterations;
    desc.threads = 1;
    check_status(sinew_world_create(&desc, &world), SINEW_OK, "sinew_world_create");
    return world;
}

static void fast_particle_on_thin_box(void)
{
    char detail[256];
    SinewWorld world = new_world(1);
    SinewColliderDesc box;
    SinewCollider collider = {0};
    uint32_t first = 0, count = 0, written = 0;
    SinewVec3 p = {0.0f, 0.5f, 0.0f};
    SinewVec3 v = {0.0f, -20.0f, 0.0f};
    SinewVec3 out;
    float radius = 0.01f; /* a 2 cm particle */
    float min_y = 1.0f;
    SinewContact contacts[4];
    int i;

    check_status(sinew_collider_desc_init(&box), SINEW_OK, "sinew_collider_desc_init");
    box.shape = SINEW_SHAPE_BOX;
    box.half_extents.x = 1.0f;
    box.half_extents.y = 0.005f; /* 1 cm thick */
    box.half_extents.z = 1.0f;
    check_status(sinew_world_add_collider(world, &box, &collider), SINEW_OK, "sinew_world_add_collider");
    check(collider.id != 0, "collider handle is not null", "");
    check_status(sinew_world_add_particles(world, &p, NULL, 1, &first), SINEW_OK, "add particle");
    check_status(sinew_world_set_particle_radii(world, first, 1, &radius), SINEW_OK,
                 "sinew_world_set_particle_radii");
    check_status(sinew_world_write_velocities(world, first, 1, &v, 12), SINEW_OK, "20 m/s down");
    for (i = 0; i < 60; i++) {
        sinew_world_step(world, FRAME_DT);
        sinew_world_read_positions(world, first, 1, &out, 12);
        if (out.y < min_y) {
            min_y = out.y;
        }
    }
    snprintf(detail, sizeof detail, "lowest y %.5f, final y %.5f (top face + radius = 0.015)",
             (double)min_y, (double)out.y);
    check(min_y > 0.014f && fabsf(out.y - 0.015f) < 0.002f, "no tunnelling through the 1 cm box",
          detail);

    check_status(sinew_world_contact_count(world, &count), SINEW_OK, "sinew_world_contact_count");
    check_status(sinew_world_read_contacts(world, contacts, 4, &written), SINEW_OK,
                 "sinew_world_read_contacts");
    snprintf(detail, sizeof detail, "count %u, written %u, particle %u, normal (%g, %g, %g), impulse %g",
             count, written, contacts[0].particle, (double)contacts[0].normal.x,
             (double)contacts[0].normal.y, (double)contacts[0].normal.z, (double)contacts[0].impulse);
    check(count == 1 && written == 1 && contacts[0].particle == first &&
              contacts[0].collider.id == collider.id && fabsf(contacts[0].normal.y - 1.0f) < 1e-4f &&
              fabsf(contacts[0].impulse - 9.81f * FRAME_DT) < 0.02f * 9.81f * FRAME_DT,
          "contact readback: the box, +Y, impulse m g dt", detail);

    /* Bad input: a status, a message, nothing changed. */
    {
        SinewColliderDesc bad = box;
        SinewCollider untouched = {12345};
        SinewQuat q = {0.0f, 0.0f, 0.0f, 2.0f};
        SinewVec3 at = {0.0f, 0.0f, 0.0f};
        float nan_radius = NAN;
        uint32_t colliders = 0;
        bad.half_extents.y = 0.0f;
        check_error(sinew_world_add_collider(world, &bad, &untouched), SINEW_ERROR_INVALID_ARGUMENT,
                    "sinew_world_add_collider", "zero-size box is refused");
        check(untouched.id == 12345, "out_collider untouched on failure", "");
        bad = box;
        bad.static_friction = -0.1f;
        check_error(sinew_world_add_collider(world, &bad, &untouched), SINEW_ERROR_INVALID_ARGUMENT,
                    "sinew_world_add_collider", "negative friction is refused");
        bad = box;
        bad.restitution = 1.5f;
        check_error(sinew_world_add_collider(world, &bad, &untouched), SINEW_ERROR_INVALID_ARGUMENT,
                    "sinew_world_add_collider", "restitution above 1 is refused");
        check_error(sinew_collider_set_transform(world, collider, &at, &q, 0), SINEW_ERROR_INVALID_ARGUMENT,
                    "sinew_collider_set_transform", "non-unit rotation is refused");
        check_error(sinew_world_set_particle_radii(world, first, 1, &nan_radius),
                    SINEW_ERROR_INVALID_ARGUMENT, "sinew_world_set_particle_radii", "NaN radius is refused");
        sinew_world_collider_count(world, &colliders);
        check(colliders == 1, "still one collider", "");
        check_status(sinew_collider_remove(world, collider), SINEW_OK, "sinew_collider_remove");
        check_error(sinew_collider_remove(world, collider), SINEW_ERROR_INVALID_HANDLE,
                    "sinew_collider_remove", "a removed collider handle is refused");
    }
    sinew_world_destroy(world);
}

#define ROPE 11

static void pick_and_drag_rope_end(void)
{
    char detail[256];
    SinewWorld world = new_world(4);
    SinewVec3 p[ROPE];
    float w[ROPE];
    uint32_t pairs[2 * (ROPE - 1)];
    uint32_t first = 0, cfirst = 0, picked = 0;
    float distance = 0.0f;
    SinewVec3 origin = {1.0f, 0.0f, -2.0f};
    SinewVec3 dir = {0.0f, 0.0f, 1.0f};
    SinewVec3 zero = {0.0f, 0.0f, 0.0f};
    SinewVec3 start, target = {0.4f, 0.5f, 0.3f}, mouse, end;
    float err;
    int i;

    for (i = 0; i < ROPE; i++) {
        p[i].x = 0.1f * (float)i;
        p[i].y = 0.0f;
        p[i].z = 0.0f;
        w[i] = i == 0 ? 0.0f : 10.0f; /* 100 g each, first pinned */
    }
    for (i = 0; i < ROPE - 1; i++) {
        pairs[2 * i] = (uint32_t)i;
        pairs[2 * i + 1] = (uint32_t)i + 1;
    }
    check_status(sinew_world_add_particles(world, p, w, ROPE, &first), SINEW_OK, "add rope particles");
    check_status(sinew_world_add_distance_constraints(world, pairs, NULL, ROPE - 1, 0.0f, &cfirst), SINEW_OK,
                 "add rope links");

    /* The camera looks along +z from x = 1: the ray passes through the free end. */
    check_status(sinew_world_pick_particle(world, &origin, &dir, 0.05f, &picked, &distance), SINEW_OK,
                 "sinew_world_pick_particle");
    snprintf(detail, sizeof detail, "particle %u at %.4f m", picked, (double)distance);
    check(picked == ROPE - 1 && fabsf(distance - 2.0f) < 1e-5f, "the ray picks the rope end at 2 m", detail);
    check_error(sinew_world_pick_particle(world, &origin, &zero, 0.05f, &picked, &distance),
                SINEW_ERROR_INVALID_ARGUMENT, "sinew_world_pick_particle", "zero ray direction is refused");
    check(picked == ROPE - 1, "outputs untouched on failure", "");

    start = p[ROPE - 1];
    check_status(sinew_world_grab_particle(world, picked, &start, 1e-4f), SINEW_OK, "sinew_world_grab_particle");
    check_error(sinew_world_grab_particle(world, 0, &start, 1e-4f), SINEW_ERROR_INVALID_ARGUMENT,
                "sinew_world_grab_particle", "a pinned particle cannot be grabbed");
    for (i = 1; i <= 120; i++) {
        float t = i < 60 ? (float)i / 60.0f : 1.0f;
        mouse.x = start.x + (target.x - start.x) * t;
        mouse.y = start.y + (target.y - start.y) * t;
        mouse.z = start.z + (target.z - start.z) * t;
        sinew_world_move_grab(world, picked, &mouse);
        sinew_world_step(world, FRAME_DT);
    }
    sinew_world_read_positions(world, picked, 1, &end, 12);
    err = sqrtf((end.x - target.x) * (end.x - target.x) + (end.y - target.y) * (end.y - target.y) +
                (end.z - target.z) * (end.z - target.z));
    snprintf(detail, sizeof detail, "end at (%.4f, %.4f, %.4f), %.5f m from the target", (double)end.x,
             (double)end.y, (double)end.z, (double)err);
    check(err < 0.01f, "dragged rope end reaches the target", detail);
    check_status(sinew_world_release_particle(world, picked), SINEW_OK, "sinew_world_release_particle");
    check_error(sinew_world_release_particle(world, picked), SINEW_ERROR_INVALID_ARGUMENT,
                "sinew_world_release_particle", "releasing twice is refused");
    for (i = 0; i < 30; i++) {
        sinew_world_step(world, FRAME_DT);
    }
    sinew_world_read_positions(world, picked, 1, &end, 12);
    snprintf(detail, sizeof detail, "end y %.4f", (double)end.y);
    check(end.y < target.y - 0.05f, "released end falls", detail);
    sinew_world_destroy(world);
}

/* One handle of every kind a world holds. */
typedef struct Items {
    SinewWorld world;
    SinewBody rope;
    SinewCollider collider;
    SinewFluid fluid;
    SinewEmitter emitter;
    SinewKillVolume volume;
} Items;

static Items new_items(void)
{
    Items it;
    SinewRopeDesc rope = sinew_rope_desc_default();
    SinewColliderDesc collider = sinew_collider_desc_default();
    SinewFluidDesc fluid = sinew_fluid_desc_default();
    SinewEmitterDesc emitter = sinew_emitter_desc_default();
    SinewKillVolumeDesc volume = sinew_kill_volume_desc_default();
    memset(&it, 0, sizeof it);
    it.world = new_world(4);
    rope.segments = 4;
    fluid.capacity = 32;
    emitter.rate = 0.0f;
    check_status(sinew_world_add_rope(it.world, &rope, &it.rope), SINEW_OK, "add a rope");
    check_status(sinew_world_add_collider(it.world, &collider, &it.collider), SINEW_OK, "add a collider");
    check_status(sinew_world_add_fluid(it.world, &fluid, &it.fluid), SINEW_OK, "add a fluid");
    check_status(sinew_fluid_add_emitter(it.world, it.fluid, &emitter, &it.emitter), SINEW_OK, "add an emitter");
    check_status(sinew_fluid_add_kill_volume(it.world, it.fluid, &volume, &it.volume), SINEW_OK,
                 "add a kill volume");
    return it;
}

/* Handles of every kind carry their world's serial (the header's "Handles"
 * paragraph): two worlds hold their items in the same slots with the same
 * generations, and each refuses the other's handles of every kind with
 * SINEW_ERROR_INVALID_HANDLE and a message saying they are another world's. */
static void handles_of_another_world_are_refused(void)
{
    Items a = new_items();
    Items b = new_items();
    SinewBodyInfo info;
    SinewEmitterDesc emitter = sinew_emitter_desc_default();
    char detail[128];
    const uint64_t low = ((uint64_t)1 << 44) - 1;

    snprintf(detail, sizeof detail, "serials %llu and %llu", (unsigned long long)(a.collider.id >> 44),
             (unsigned long long)(b.collider.id >> 44));
    check((a.collider.id & low) == (b.collider.id & low) && a.collider.id != b.collider.id,
          "same slot and generation, another world serial", detail);
    check_error(sinew_body_info(b.world, a.rope, &info), SINEW_ERROR_INVALID_HANDLE, "sinew_body_info",
                "another world's body is refused");
    check_error(sinew_collider_set_material(b.world, a.collider, 0.1f, 0.1f, 0.0f), SINEW_ERROR_INVALID_HANDLE,
                "sinew_collider_set_material", "another world's collider is refused");
    check(strstr(sinew_last_error_message(), "another world") != NULL, "the message says why",
          sinew_last_error_message());
    check_error(sinew_fluid_clear(b.world, a.fluid), SINEW_ERROR_INVALID_HANDLE, "sinew_fluid_clear",
                "another world's fluid is refused");
    check_error(sinew_emitter_set(b.world, a.emitter, &emitter), SINEW_ERROR_INVALID_HANDLE, "sinew_emitter_set",
                "another world's emitter is refused");
    check_error(sinew_kill_volume_remove(b.world, a.volume), SINEW_ERROR_INVALID_HANDLE,
                "sinew_kill_volume_remove", "another world's kill volume is refused");
    check_status(sinew_collider_set_material(b.world, b.collider, 0.1f, 0.1f, 0.0f), SINEW_OK,
                 "the world's own collider is accepted");
    check_status(sinew_kill_volume_remove(a.world, a.volume), SINEW_OK, "the world's own kill volume is accepted");
    sinew_world_destroy(a.world);
    sinew_world_destroy(b.world);
}

/* A 1 kg particle resting on a box: the contact point lies on the top face, the box's
 * summed force is the weight, and the contact events begin once, persist while it
 * rests and end once when the box is removed. */
static void contact_wrench_and_events(void)
{
    char detail[256];
    SinewWorld world = new_world(2);
    SinewColliderDesc box;
    SinewCollider collider = {0};
    SinewContact contact;
    SinewContactEvent events[8];
    SinewVec3 p = {0.2f, 0.1f, 0.0f};
    SinewVec3 force, torque;
    uint32_t first = 0, written = 0, taken = 0, begins = 0, persists = 0, ends = 0;
    uint64_t lost = 0;
    float radius = 0.05f;
    int i;
    uint32_t k;

    sinew_collider_desc_init(&box);
    box.shape = SINEW_SHAPE_BOX;
    box.half_extents.x = 1.0f;
    box.half_extents.y = 0.1f;
    box.half_extents.z = 1.0f;
    box.position.y = -0.1f; /* top face y = 0 */
    box.static_friction = 0.5f;
    box.dynamic_friction = 0.5f;
    check_status(sinew_world_add_collider(world, &box, &collider), SINEW_OK, "add the box");
    sinew_world_add_particles(world, &p, NULL, 1, &first);
    sinew_world_set_particle_radii(world, first, 1, &radius);
    check_status(sinew_world_set_contact_events(world, 1), SINEW_OK, "sinew_world_set_contact_events");
    check_error(sinew_world_set_contact_events(world, 2), SINEW_ERROR_INVALID_ARGUMENT,
                "sinew_world_set_contact_events", "a flag other than 0 or 1 is refused");
    for (i = 0; i < 60; i++) {
        sinew_world_step(world, FRAME_DT);
        check_status(sinew_world_take_contact_events(world, events, 8, &taken, &lost), SINEW_OK,
                     i == 0 ? "sinew_world_take_contact_events" : "take");
        for (k = 0; k < taken; k++) {
            begins += events[k].kind == SINEW_CONTACT_BEGIN;
            persists += events[k].kind == SINEW_CONTACT_PERSIST;
            ends += events[k].kind == SINEW_CONTACT_END;
        }
    }
    snprintf(detail, sizeof detail, "begin %u, persist %u, end %u, lost %llu", begins, persists, ends,
             (unsigned long long)lost);
    check(begins == 1 && persists > 50 && ends == 0 && lost == 0, "begin once, then persist", detail);
    check(events[0].collider.id == collider.id && events[0].body.id == 0 && events[0].particle == first &&
              fabsf(events[0].impulse - 9.81f * FRAME_DT) < 0.02f * 9.81f * FRAME_DT,
          "the event names the box and the loose particle and carries its weight", "");

    sinew_world_read_contacts(world, &contact, 1, &written);
    snprintf(detail, sizeof detail, "point (%g, %g, %g), friction (%g, %g, %g)", (double)contact.point.x,
             (double)contact.point.y, (double)contact.point.z, (double)contact.friction_impulse.x,
             (double)contact.friction_impulse.y, (double)contact.friction_impulse.z);
    check(written == 1 && fabsf(contact.point.y) < 1e-3f && fabsf(contact.point.x - 0.2f) < 1e-3f &&
              fabsf(contact.friction_impulse.x) + fabsf(contact.friction_impulse.z) < 1e-4f,
          "the contact point is on the top face under the particle; no friction at rest", detail);

    check_status(sinew_collider_contact_wrench(world, collider, NULL, &force, &torque), SINEW_OK,
                 "sinew_collider_contact_wrench");
    snprintf(detail, sizeof detail, "force (%g, %g, %g), torque (%g, %g, %g)", (double)force.x,
             (double)force.y, (double)force.z, (double)torque.x, (double)torque.y, (double)torque.z);
    /* The weight at x = 0.2 from the box's centre (0, -0.1, 0): torque z = 0.2 * -9.81. */
    check(fabsf(force.y + 9.81f) < 0.2f && fabsf(torque.z + 0.2f * 9.81f) < 0.05f,
          "the box carries the weight, with its moment", detail);
    check_error(sinew_collider_contact_wrench(world, collider, NULL, NULL, &torque),
                SINEW_ERROR_NULL_POINTER, "sinew_collider_contact_wrench", "NULL out_force is refused");

    sinew_collider_remove(world, collider);
    sinew_world_step(world, FRAME_DT);
    sinew_world_take_contact_events(world, events, 8, &taken, &lost);
    check(taken == 1 && events[0].kind == SINEW_CONTACT_END && events[0].collider.id == collider.id,
          "removing the box ends the pair once", "");
    sinew_world_step(world, FRAME_DT);
    sinew_world_take_contact_events(world, events, 8, &taken, &lost);
    check(taken == 0, "and only once", "");
    sinew_world_destroy(world);
}

int main(void)
{
    fast_particle_on_thin_box();
    contact_wrench_and_events();
    pick_and_drag_rope_end();
    handles_of_another_world_are_refused();
    printf("%d checks, %d failed\n", checks, failures);
    return failures == 0 ? 0 : 1;
}

/*
 * Sinew C ABI end-to-end test of the fluid render outputs, only through
 * include/sinew.h. Built and run by tests/ffi/c_abi.rs like fluid_test.c.
 *
 *   - sinew_anisotropy_desc_init carries the documented defaults.
 *   - A flat sheet of fluid read into an instance buffer (an ellipsoid and a colour per
 *     instance, stride 64): inside the sheet the shortest axis is along the normal, the
 *     axes are orthogonal, and the padding between elements is untouched.
 *   - A NULL buffer only counts; a capacity below the live count, a bad stride and a bad
 *     desc are refused with a message naming the function, nothing written.
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

static void check_error(SinewStatus got, SinewStatus expected, const char *function, const char *what)
{
    if (check_status(got, expected, what)) {
        check(strstr(sinew_last_error_message(), function) != NULL, "message names the function",
              sinew_last_error_message());
    }
}

static float dot(SinewVec3 a, SinewVec3 b) { return a.x * b.x + a.y * b.y + a.z * b.z; }
static float len(SinewVec3 a) { return sqrtf(dot(a, a)); }

/* One instance of a renderer's buffer: the ellipsoid, then a colour. */
typedef struct Instance {
    SinewFluidEllipsoid e;
    float rgba[4];
} Instance;

#define N 12
#define S 0.05f

static void anisotropy(void)
{
    SinewAnisotropyDesc a;
    SinewWorldDesc wd;
    SinewFluidDesc fd;
    SinewWorld w = {0};
    SinewFluid f = {0};
    SinewVec3 at[N * N];
    static Instance out[N * N];
    uint32_t count = 0, k;
    int flat = 1, orthogonal = 1, padding = 1, inner = 0;

    check_status(sinew_anisotropy_desc_init(&a), SINEW_OK, "anisotropy desc init");
    check(a.radius == 0.0f && a.smoothing == 0.9f && a.max_ratio == 4.0f && a.scale == 1.0f &&
              a.isolated_scale == 0.5f && a.min_neighbours == 6u,
          "anisotropy desc defaults", "");
    check(sizeof(SinewFluidEllipsoid) == 48, "an ellipsoid is 48 bytes", "");

    sinew_world_desc_init(&wd);
    wd.gravity.y = 0.0f;
    wd.threads = 1;
    check_status(sinew_world_create(&wd, &w), SINEW_OK, "create a world");
    sinew_fluid_desc_init(&fd);
    fd.spacing = S;
    fd.capacity = N * N;
    check_status(sinew_world_add_fluid(w, &fd, &f), SINEW_OK, "add a fluid");
    for (k = 0; k < N * N; k++) {
        at[k].x = (float)(k % N) * S;
        at[k].y = 1.0f;
        at[k].z = (float)(k / N) * S;
    }
    check_status(sinew_fluid_emit(w, f, at, NULL, N * N, &count), SINEW_OK, "emit a sheet");
    check_status(sinew_world_step(w, 1.0f / 60.0f), SINEW_OK, "step");

    check_status(sinew_fluid_read_anisotropy(w, f, &a, 1.0f, 0, NULL, 0, &count), SINEW_OK, "count only");
    check(count == N * N, "the count of live particles", "");
    memset(out, 0xA5, sizeof out);
    check_status(sinew_fluid_read_anisotropy(w, f, &a, 1.0f, N * N, out, sizeof(Instance), &count), SINEW_OK,
                 "read into an instance buffer");
    for (k = 0; k < count; k++) {
        const SinewFluidEllipsoid *e = &out[k].e;
        uint32_t x = k % N, z = k / N;
        unsigned char pad[16];
        memset(pad, 0xA5, sizeof pad);
        padding &= memcmp(out[k].rgba, pad, sizeof pad) == 0;
        orthogonal &= fabsf(dot(e->axis0, e->axis1)) < 1e-6f && fabsf(dot(e->axis0, e->axis2)) < 1e-6f &&
                      fabsf(dot(e->axis1, e->axis2)) < 1e-6f;
        if (x < 3 || z < 3 || x > N - 4 || z > N - 4) {
            continue;
        }
        inner++;
        flat &= fabsf(e->axis2.y) > 0.999f * len(e->axis2) && len(e->axis2) * 3.0f < len(e->axis0) &&
                fabsf(e->center.y - 1.0f) < 1e-4f;
    }
    check(inner == (N - 6) * (N - 6), "every inner particle read", "");
    check(flat, "the sheet is flat: the shortest axis along its normal", "");
    check(orthogonal, "orthogonal axes", "");
    check(padding, "the colour between elements untouched", "");

    memset(out, 0xA5, sizeof out);
    check_error(sinew_fluid_read_anisotropy(w, f, &a, 1.0f, N * N - 1, out, sizeof(Instance), &count),
                SINEW_ERROR_OUT_OF_RANGE, "sinew_fluid_read_anisotropy", "a capacity below the live count");
    check_error(sinew_fluid_read_anisotropy(w, f, &a, 1.0f, N * N, out, 40, &count),
                SINEW_ERROR_INVALID_ARGUMENT, "sinew_fluid_read_anisotropy", "a stride of 40");
    a.max_ratio = 0.5f;
    check_error(sinew_fluid_read_anisotropy(w, f, &a, 1.0f, N * N, out, sizeof(Instance), &count),
                SINEW_ERROR_INVALID_ARGUMENT, "sinew_fluid_read_anisotropy", "max_ratio 0.5");
    check(strstr(sinew_last_error_message(), "max_ratio") != NULL, "the message names the field",
          sinew_last_error_message());
    {
        unsigned char untouched[sizeof out];
        memset(untouched, 0xA5, sizeof untouched);
        check(memcmp(out, untouched, sizeof out) == 0, "nothing written by the refused calls", "");
    }
    sinew_world_destroy(w);
}

int main(void)
{
    anisotropy();
    printf("%d checks, %d failed\n", checks, failures);
    return failures ? 1 : 0;
}

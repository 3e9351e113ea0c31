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
 *   - Diffuse particles: off by default; a block thrown against a wall spawns some, all
 *     finite, within the capacity, of a known kind; a bad desc is refused.
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

static void diffuse(void)
{
    SinewDiffuseDesc d, back;
    SinewWorldDesc wd;
    SinewFluidDesc fd;
    SinewWorld w = {0};
    SinewFluid f = {0};
    SinewColliderDesc wall;
    SinewCollider c = {0};
    static SinewVec3 at[8 * 8 * 8], v[8 * 8 * 8];
    static SinewDiffuseParticle out[200];
    uint32_t count = 0, k, spawned = 0, i;
    int finite = 1, kinds = 1;

    check_status(sinew_diffuse_desc_init(&d), SINEW_OK, "diffuse desc init");
    check(d.capacity == 0u && d.lifetime == 2.0f && d.spray_neighbours == 6u && d.bubble_neighbours == 20u,
          "diffuse desc defaults (off)", "");
    sinew_world_desc_init(&wd);
    wd.threads = 1;
    check_status(sinew_world_create(&wd, &w), SINEW_OK, "create a world");
    sinew_collider_desc_init(&wall);
    wall.shape = SINEW_SHAPE_PLANE;
    check_status(sinew_world_add_collider(w, &wall, &c), SINEW_OK, "a floor");
    wall.position.x = 1.0f;
    wall.rotation.z = 0.70710678f;
    wall.rotation.w = 0.70710678f;
    check_status(sinew_world_add_collider(w, &wall, &c), SINEW_OK, "a wall");
    sinew_fluid_desc_init(&fd);
    fd.capacity = 8 * 8 * 8;
    check_status(sinew_world_add_fluid(w, &fd, &f), SINEW_OK, "add a fluid");
    for (k = 0; k < 8 * 8 * 8; k++) {
        at[k].x = 0.3f + (float)(k % 8) * fd.spacing;
        at[k].y = 0.1f + (float)((k / 8) % 8) * fd.spacing;
        at[k].z = (float)(k / 64) * fd.spacing;
        v[k].x = 6.0f;
        v[k].y = -3.0f;
        v[k].z = 0.0f;
    }
    check_status(sinew_fluid_emit(w, f, at, v, 8 * 8 * 8, &count), SINEW_OK, "emit a block");
    check_status(sinew_fluid_get_diffuse(w, f, &back), SINEW_OK, "get diffuse");
    check(back.capacity == 0u, "no diffuse particles by default", "");
    d.capacity = 200;
    check_status(sinew_fluid_set_diffuse(w, f, &d), SINEW_OK, "set diffuse");
    check_status(sinew_fluid_get_diffuse(w, f, &back), SINEW_OK, "get diffuse again");
    check(back.capacity == 200u, "the capacity set", "");
    for (i = 0; i < 30; i++) {
        check_status(sinew_world_step(w, 1.0f / 60.0f), SINEW_OK, "step");
        check_status(sinew_fluid_read_diffuse(w, f, 200, out, sizeof out[0], &count), SINEW_OK, "read diffuse");
        if (count > spawned) {
            spawned = count;
        }
        for (k = 0; k < count; k++) {
            finite &= isfinite(out[k].position.x) && isfinite(out[k].velocity.y) && out[k].lifetime > 0.0f &&
                      out[k].lifetime <= d.lifetime;
            kinds &= out[k].kind <= SINEW_DIFFUSE_BUBBLE;
        }
    }
    check(spawned > 0 && spawned <= 200, "a splash spawns diffuse particles within the capacity", "");
    check(finite, "every diffuse particle finite, within its lifetime", "");
    check(kinds, "every kind known", "");
    d.drag = 2.0f;
    check_error(sinew_fluid_set_diffuse(w, f, &d), SINEW_ERROR_INVALID_ARGUMENT, "sinew_fluid_set_diffuse",
                "drag 2");
    check_error(sinew_fluid_read_diffuse(w, f, 200, out, 16, &count), SINEW_ERROR_INVALID_ARGUMENT,
                "sinew_fluid_read_diffuse", "a stride of 16");
    sinew_world_destroy(w);
}

/* The surface mesh of a ball of particles: counts, an interleaved vertex buffer,
 * closed (every directed edge has its reverse: checked by the sum of signed volumes
 * being the same from two origins), outward normals, the relations to the spacing
 * refused. */
static void surface(void)
{
    SinewSurfaceDesc d;
    SinewWorldDesc wd;
    SinewFluidDesc fd;
    SinewWorld w = {0};
    SinewFluid f = {0}, g = {0};
    static SinewVec3 at[9 * 9 * 9];
    static SinewVec3 vertices[2 * 8192]; /* position, normal, position, normal, ... */
    static uint32_t indices[3 * 16384];
    SinewSurfaceCounts counts = {0, 0}, read = {0, 0};
    uint32_t n = 0, emitted = 0, k;
    int x, y, z, finite = 1, outward = 1, in_range = 1;
    double v0 = 0.0, v1 = 0.0;
    char detail[64];

    check_status(sinew_surface_desc_init(&d), SINEW_OK, "surface desc init");
    check(d.cell_size == 0.0f && d.radius == 0.0f && d.threshold == 0.5f, "surface desc defaults", "");
    sinew_world_desc_init(&wd);
    wd.threads = 1;
    wd.gravity.y = 0.0f;
    check_status(sinew_world_create(&wd, &w), SINEW_OK, "create a world");
    sinew_fluid_desc_init(&fd);
    fd.capacity = 9 * 9 * 9;
    check_status(sinew_world_add_fluid(w, &fd, &f), SINEW_OK, "add a fluid");
    check_status(sinew_world_add_fluid(w, &fd, &g), SINEW_OK, "add another");
    for (z = -4; z <= 4; z++)
        for (y = -4; y <= 4; y++)
            for (x = -4; x <= 4; x++)
                if (x * x + y * y + z * z <= 16) {
                    at[n].x = 1.0f + (float)x * fd.spacing;
                    at[n].y = 2.0f + (float)y * fd.spacing;
                    at[n].z = 3.0f + (float)z * fd.spacing;
                    n++;
                }
    check_status(sinew_fluid_emit(w, f, at, NULL, n, &emitted), SINEW_OK, "emit a ball");
    check_error(sinew_fluid_read_surface(w, f, 0, NULL, 12, NULL, 12, 0, NULL, &read),
                SINEW_ERROR_INVALID_ARGUMENT, "sinew_fluid_read_surface", "nothing built");
    check_status(sinew_fluid_build_surface(w, f, &d, 1.0f, &counts), SINEW_OK, "build the surface");
    check(counts.vertices > 100u && counts.vertices <= 8192u && counts.indices % 3u == 0u &&
              counts.indices <= 3u * 16384u,
          "a mesh of a few hundred vertices", "");
    check_error(sinew_fluid_read_surface(w, f, counts.vertices - 1u, vertices, 24, vertices + 1, 24,
                                         counts.indices, indices, &read),
                SINEW_ERROR_OUT_OF_RANGE, "sinew_fluid_read_surface", "one vertex short");
    check_status(sinew_fluid_read_surface(w, f, 8192, vertices, 24, vertices + 1, 24, 3u * 16384u, indices, &read),
                 SINEW_OK, "read it interleaved");
    check(read.vertices == counts.vertices && read.indices == counts.indices, "the counts of the build", "");
    for (k = 0; k < counts.vertices; k++) {
        SinewVec3 p = vertices[2 * k], nn = vertices[2 * k + 1];
        float dx = p.x - 1.0f, dy = p.y - 2.0f, dz = p.z - 3.0f;
        finite &= isfinite(p.x) && isfinite(p.y) && isfinite(p.z) && isfinite(nn.x) && isfinite(nn.y) &&
                  isfinite(nn.z);
        outward &= nn.x * dx + nn.y * dy + nn.z * dz > 0.0f;
    }
    for (k = 0; k < counts.indices; k += 3) {
        SinewVec3 a, b, c;
        in_range &= indices[k] < counts.vertices && indices[k + 1] < counts.vertices && indices[k + 2] < counts.vertices;
        if (!in_range)
            break;
        a = vertices[2 * indices[k]];
        b = vertices[2 * indices[k + 1]];
        c = vertices[2 * indices[k + 2]];
        /* Signed volumes of the tetrahedra to the origin and to (5, -7, 11): equal for a
         * closed mesh. */
        v0 += ((double)a.x * (b.y * c.z - b.z * c.y) + (double)a.y * (b.z * c.x - b.x * c.z) +
               (double)a.z * (b.x * c.y - b.y * c.x)) / 6.0;
        a.x -= 5.0f; b.x -= 5.0f; c.x -= 5.0f;
        a.y += 7.0f; b.y += 7.0f; c.y += 7.0f;
        a.z -= 11.0f; b.z -= 11.0f; c.z -= 11.0f;
        v1 += ((double)a.x * (b.y * c.z - b.z * c.y) + (double)a.y * (b.z * c.x - b.x * c.z) +
               (double)a.z * (b.x * c.y - b.y * c.x)) / 6.0;
    }
    check(finite, "every vertex and normal finite", "");
    check(outward, "every normal points out of the ball", "");
    check(in_range, "every index below the vertex count", "");
    snprintf(detail, sizeof detail, "ratio %g", v0 / ((double)n * fd.spacing * fd.spacing * fd.spacing));
    /* A ball four spacings in radius: the kernel rounds off 12% of it (measured). */
    check(v0 > 0.8 * (double)n * fd.spacing * fd.spacing * fd.spacing &&
              v0 < (double)n * fd.spacing * fd.spacing * fd.spacing,
          "the mesh encloses 80-100% of the particles' volume", detail);
    check(fabs(v0 - v1) < 1e-3 * fabs(v0) + 1e-9, "the same volume from another origin (closed)", "");
    check_error(sinew_fluid_read_surface(w, g, 8192, vertices, 24, NULL, 12, 0, NULL, &read),
                SINEW_ERROR_INVALID_ARGUMENT, "sinew_fluid_read_surface", "another fluid's mesh");
    d.cell_size = fd.spacing * 0.1f;
    check_error(sinew_fluid_build_surface(w, f, &d, 1.0f, &counts), SINEW_ERROR_OUT_OF_RANGE,
                "sinew_fluid_build_surface", "a cell below radius / 8");
    sinew_surface_desc_init(&d);
    d.radius = fd.spacing * 5.0f;
    check_error(sinew_fluid_build_surface(w, f, &d, 1.0f, &counts), SINEW_ERROR_OUT_OF_RANGE,
                "sinew_fluid_build_surface", "a radius above 4 spacings");
    sinew_surface_desc_init(&d);
    check_status(sinew_fluid_build_surface(w, g, &d, 1.0f, &counts), SINEW_OK, "build an empty fluid's");
    check(counts.vertices == 0u && counts.indices == 0u, "an empty fluid has an empty mesh", "");
    sinew_world_destroy(w);
}

int main(void)
{
    anisotropy();
    diffuse();
    surface();
    printf("%d checks, %d failed\n", checks, failures);
    return failures ? 1 : 0;
}

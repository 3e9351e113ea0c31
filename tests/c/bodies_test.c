/*
 * Sinew C ABI end-to-end test of constraint families, bodies and attachments, driven
 * only through include/sinew.h. Built and run by tests/ffi/c_abi.rs (`bodies_from_c`) with
 *   gcc -std=c11 -Wall -Wextra -Werror -pedantic -I include tests/c/bodies_test.c \
 *       -L target/<profile>/deps -lsinew -Wl,-rpath,target/<profile>/deps -lm
 *
 * Scenes (each against a closed form or the acceptance numbers):
 *   - rope (desc made by sinew_rope_desc_init): hangs 1 m, length within 1%, read with
 *     stride 16 into a vertex struct (padding untouched);
 *   - 1 m x 1 m grid cloth pinned at two corners, tethers on, 20 substeps: max edge
 *     stretch < 2% over 3 s;
 *   - tet cube squashed 30%: >= 95% of its volume within 2 s;
 *   - pressure cube hanging from a pinned vertex: volume within 5%;
 *   - low-level tether: tension = m g; dihedral hinge returns to its rest angle;
 *   - attachment: hard pin holds m g and reports (0, -m g, 0) on the host;
 *   - removing a rope between two cloths keeps their indices; removing twice fails;
 *   - malformed input (inverted tet, open surface, NaN transform, negative
 *     compliance) gives a status and a message naming the element, nothing added;
 *   - material presets are the values of Nakagawa, "Position Based Dynamics Combo", CEDEC 2017;
 *   - triangle strain stretches by alpha_yy m g; a 2D ring regains its area in its
 *     plane; a unilateral area stops an inversion; shape matching restores a shape.
 * Prints every check; exits 1 on any failure.
 */

#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include "sinew.h"

#define DT (1.0f / 60.0f)

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
             got != SINEW_OK ? ", last error: " : "",
             got != SINEW_OK ? sinew_last_error_message() : "");
    check(got == expected, what, detail);
    return got == expected;
}

/* The last error message starts with "function: " and contains `needle`. */
static void check_message(const char *function, const char *needle, const char *what)
{
    const char *msg = sinew_last_error_message();
    size_t n = strlen(function);
    int ok = msg != NULL && strncmp(msg, function, n) == 0 && msg[n] == ':' &&
             strstr(msg, needle) != NULL;
    check(ok, what, msg ? msg : "(NULL)");
}

static float dist(SinewVec3 a, SinewVec3 b)
{
    float dx = a.x - b.x, dy = a.y - b.y, dz = a.z - b.z;
    return sqrtf(dx * dx + dy * dy + dz * dz);
}

static SinewWorld make_world(int substeps, float gravity)
{
    SinewWorldDesc d = sinew_world_desc_default();
    d.substeps = (uint32_t)substeps;
    d.gravity.y = -gravity;
    SinewWorld w = {0};
    check_status(sinew_world_create(&d, &w), SINEW_OK, "world created");
    return w;
}

static void steps(SinewWorld w, int n)
{
    for (int i = 0; i < n; i++) {
        if (sinew_world_step(w, DT) != SINEW_OK) {
            check(0, "step", sinew_last_error_message());
            return;
        }
    }
}

typedef struct Vertex16 {
    SinewVec3 position;
    float pad;
} Vertex16;

static void rope(void)
{
    SinewWorld w = make_world(16, 9.81f);
    SinewRopeDesc d;
    check_status(sinew_rope_desc_init(&d), SINEW_OK, "rope desc init");
    d.start = (SinewVec3){0.0f, 2.0f, 0.0f};
    d.end = (SinewVec3){1.0f, 2.0f, 0.0f};
    d.segments = 20;
    d.damping = 1.0f;
    SinewBody b = {0};
    check_status(sinew_world_add_rope(w, &d, &b), SINEW_OK, "rope added");
    uint32_t first = 99, count = 0;
    check_status(sinew_body_particle_range(w, b, &first, &count), SINEW_OK, "rope range");
    check(first == 0 && count == 21, "rope has particles 0..21", "");
    SinewBodyInfo info;
    check_status(sinew_body_info(w, b, &info), SINEW_OK, "rope info");
    check(info.kind == SINEW_BODY_ROPE && info.first_particle == 0 && info.particle_count == 21 &&
              info.radius == 0.01f && info.damping == 1.0f,
          "rope info: kind, particles, radius 0.01 m, damping 1/s", "");
    steps(w, 600);
    Vertex16 v[21];
    for (int i = 0; i < 21; i++) v[i].pad = 7.0f;
    check_status(sinew_body_read_positions(w, b, v, 21, sizeof(Vertex16)), SINEW_OK,
                 "rope read with stride 16");
    float length = 0.0f;
    int pads = 1;
    for (int i = 0; i < 20; i++) length += dist(v[i].position, v[i + 1].position);
    for (int i = 0; i < 21; i++) pads &= v[i].pad == 7.0f;
    char detail[128];
    snprintf(detail, sizeof detail, "length %.4f m, end y %.4f m", length, v[20].position.y);
    check(fabsf(length - 1.0f) < 0.01f && fabsf(v[20].position.y - 1.0f) < 0.02f,
          "rope hangs 1 m, inextensible", detail);
    check(pads, "stride-16 padding untouched", "");
    check_status(sinew_body_set_compliance(w, b, SINEW_BODY_STRETCH, 1e-3f), SINEW_OK,
                 "stretch compliance setter");
    check_status(sinew_body_set_compliance(w, b, 9, 1e-3f), SINEW_ERROR_INVALID_ARGUMENT,
                 "setter refuses which = 9");
    check_message("sinew_body_set_compliance", "SinewBodyConstraints", "its message");
    sinew_world_destroy(w);
}

static float max_grid_stretch(const SinewVec3 *p, int nu, int nv, float cell)
{
    float worst = 0.0f;
    for (int j = 0; j <= nv; j++) {
        for (int i = 0; i <= nu; i++) {
            int k = j * (nu + 1) + i;
            if (i < nu) worst = fmaxf(worst, dist(p[k], p[k + 1]) / cell - 1.0f);
            if (j < nv) worst = fmaxf(worst, dist(p[k], p[k + nu + 1]) / cell - 1.0f);
        }
    }
    return worst;
}

static SinewBody grid_cloth(SinewWorld w, float x, int n)
{
    SinewClothDesc d;
    SinewClothGridDesc g;
    check_status(sinew_cloth_desc_init(&d), SINEW_OK, "cloth desc init");
    check_status(sinew_cloth_grid_desc_init(&g), SINEW_OK, "grid desc init");
    g.origin = (SinewVec3){x, 2.0f, 0.0f};
    g.segments_u = (uint32_t)n;
    g.segments_v = (uint32_t)n;
    g.total_mass = 0.2f;
    g.pin_corners = 1 | 2;
    SinewBody b = {0};
    check_status(sinew_world_add_cloth_grid(w, &d, &g, &b), SINEW_OK, "grid cloth added");
    return b;
}

static void cloth(void)
{
    enum { N = 20, V = (N + 1) * (N + 1) };
    SinewWorld w = make_world(20, 9.81f);
    SinewBody b = grid_cloth(w, 0.0f, N);
    static SinewVec3 p[V];
    float worst = 0.0f;
    for (int f = 0; f < 180; f++) {
        steps(w, 1);
        sinew_body_read_positions(w, b, p, V, sizeof(SinewVec3));
        worst = fmaxf(worst, max_grid_stretch(p, N, N, 1.0f / N));
    }
    char detail[64];
    snprintf(detail, sizeof detail, "%.3f%%", worst * 100.0f);
    check(worst < 0.02f, "hanging cloth with tethers: max edge stretch < 2%", detail);
    sinew_world_destroy(w);

    /* Strain-based curtain (top row pinned): a soft weft hangs longer than a soft warp. */
    float length[2];
    for (int k = 0; k < 2; k++) {
        w = make_world(10, 9.81f);
        SinewClothDesc d;
        SinewClothGridDesc g;
        sinew_cloth_desc_init(&d);
        sinew_cloth_grid_desc_init(&g);
        d.model = SINEW_CLOTH_STRAIN;
        d.stretch_compliance = k == 0 ? 1.0f : 0.0f; /* warp */
        d.weft_compliance = k == 0 ? 0.0f : 1.0f;
        d.shear_compliance = 0.0f;
        d.bending = SINEW_BENDING_NONE;
        d.tethers = 0;
        d.damping = 2.0f;
        g.origin = (SinewVec3){0.0f, 2.0f, 0.0f};
        g.v = (SinewVec3){0.0f, -1.0f, 0.0f};
        g.segments_u = 10;
        g.segments_v = 10;
        SinewBody b = {0};
        check_status(sinew_world_add_cloth_grid(w, &d, &g, &b), SINEW_OK, "strain curtain added");
        float pins[11] = {0};
        sinew_world_set_inverse_masses(w, 0, 11, pins);
        steps(w, 180);
        SinewVec3 q[121];
        sinew_body_read_positions(w, b, q, 121, sizeof(SinewVec3));
        length[k] = 2.0f - q[115].y;
        sinew_world_destroy(w);
    }
    snprintf(detail, sizeof detail, "soft warp %.4f m, soft weft %.4f m", length[0], length[1]);
    check(length[1] > length[0] + 0.015f, "strain cloth is anisotropic", detail);
}

static void tet_cube(uint32_t model)
{
    SinewWorld w = make_world(10, 0.0f);
    SinewVec3 v[8];
    for (int i = 0; i < 8; i++) {
        v[i] = (SinewVec3){(float)(i & 1), (float)((i >> 1) & 1), (float)(i >> 2)};
    }
    /* Kuhn triangulation of the cube around the diagonal 0-7, all positive. */
    uint32_t tets[24] = {0, 1, 3, 7, 0, 3, 2, 7, 0, 2, 6, 7, 0, 6, 4, 7, 0, 4, 5, 7, 0, 5, 1, 7};
    for (int t = 0; t < 6; t++) { /* orient: swap 1 and 2 when negative */
        SinewVec3 a = v[tets[4 * t]], b = v[tets[4 * t + 1]], c = v[tets[4 * t + 2]],
                  d = v[tets[4 * t + 3]];
        float b0 = b.x - a.x, b1 = b.y - a.y, b2 = b.z - a.z;
        float c0 = c.x - a.x, c1 = c.y - a.y, c2 = c.z - a.z;
        float d0 = d.x - a.x, d1 = d.y - a.y, d2 = d.z - a.z;
        float det = b0 * (c1 * d2 - c2 * d1) - b1 * (c0 * d2 - c2 * d0) + b2 * (c0 * d1 - c1 * d0);
        if (det < 0.0f) {
            uint32_t s = tets[4 * t + 1];
            tets[4 * t + 1] = tets[4 * t + 2];
            tets[4 * t + 2] = s;
        }
    }
    SinewTetBodyDesc d;
    check_status(sinew_tet_body_desc_init(&d), SINEW_OK, "tet desc init");
    d.model = model;
    SinewBody b = {0};
    /* An inverted tet is refused naming it, and nothing is added. */
    uint32_t inverted[8] = {0, 1, 3, 7, 0, 2, 3, 7};
    check_status(sinew_world_add_tet_body(w, &d, v, 8, inverted, 2, NULL, &b),
                 SINEW_ERROR_INVALID_ARGUMENT, "inverted tet refused");
    check_message("sinew_world_add_tet_body", "tet 1", "message names tet 1");
    uint32_t none = 99;
    sinew_world_particle_count(w, &none);
    check(none == 0, "nothing added by the refused body", "");
    check_status(sinew_world_add_tet_body(w, &d, v, 8, tets, 6, NULL, &b), SINEW_OK,
                 "tet cube added");
    float v0 = 0.0f, vol = 0.0f;
    sinew_body_volume(w, b, &v0);
    for (int i = 0; i < 8; i++) v[i].y *= 0.7f;
    sinew_world_write_positions(w, 0, 8, v, sizeof(SinewVec3));
    float recovered = -1.0f;
    for (int f = 1; f <= 120 && recovered < 0.0f; f++) {
        steps(w, 1);
        sinew_body_volume(w, b, &vol);
        if (vol >= 0.95f * v0) recovered = (float)f * DT;
    }
    char detail[96];
    snprintf(detail, sizeof detail, "rest %.4f m3, 95%% after %.3f s", v0, recovered);
    check(fabsf(v0 - 1.0f) < 1e-4f && recovered > 0.0f,
          model == SINEW_TET_STRAIN ? "squashed strain-based tet cube recovers"
                                    : "squashed tet cube recovers",
          detail);
    sinew_world_destroy(w);
}

static void pressure(void)
{
    SinewWorld w = make_world(10, 9.81f);
    SinewVec3 v[8];
    for (int i = 0; i < 8; i++) {
        v[i] = (SinewVec3){0.3f * (float)(i & 1), 0.3f * (float)((i >> 1) & 1),
                           0.3f * (float)(i >> 2)};
    }
    uint32_t t[36] = {0, 2, 1, 1, 2, 3, 4, 5, 6, 5, 7, 6, 0, 1, 4, 1, 5, 4,
                      2, 6, 3, 3, 6, 7, 0, 4, 2, 2, 4, 6, 1, 3, 5, 3, 7, 5};
    SinewPressureBodyDesc d;
    check_status(sinew_pressure_body_desc_init(&d), SINEW_OK, "pressure desc init");
    SinewBody b = {0};
    check_status(sinew_world_add_pressure_body(w, &d, v, 8, t, 11, NULL, &b),
                 SINEW_ERROR_INVALID_ARGUMENT, "open surface refused");
    check_message("sinew_world_add_pressure_body", "not closed", "message says not closed");
    check_status(sinew_world_add_pressure_body(w, &d, v, 8, t, 12, NULL, &b), SINEW_OK,
                 "pressure cube added");
    float pin = 0.0f;
    sinew_world_set_inverse_masses(w, 7, 1, &pin);
    float v0 = 0.0f, vol = 0.0f, worst = 0.0f;
    sinew_body_volume(w, b, &v0);
    for (int f = 0; f < 120; f++) {
        steps(w, 1);
        sinew_body_volume(w, b, &vol);
        worst = fmaxf(worst, fabsf(vol / v0 - 1.0f));
    }
    char detail[64];
    snprintf(detail, sizeof detail, "within %.3f%%", worst * 100.0f);
    check(worst < 0.05f, "pressure body keeps its volume within 5% against a pin", detail);
    sinew_world_destroy(w);
}

static void families(void)
{
    SinewWorld w = make_world(20, 9.81f);
    SinewVec3 p[2] = {{0, 0, 0}, {0, -0.2f, 0}};
    float inv[2] = {0, 2};
    uint32_t first = 0;
    sinew_world_add_particles(w, p, inv, 2, &first);
    uint32_t tether[2] = {0, 1};
    float max_len = 1.0f;
    check_status(sinew_world_add_tethers(w, tether, &max_len, 1, 0.0f, &first), SINEW_OK,
                 "tether added");
    steps(w, 300);
    float tension = 0.0f;
    check_status(sinew_world_read_family_forces(w, SINEW_FAMILY_TETHER, 0, 1, &tension),
                 SINEW_OK, "tether force read");
    SinewVec3 q[2];
    sinew_world_read_positions(w, 0, 2, q, sizeof(SinewVec3));
    char detail[128];
    snprintf(detail, sizeof detail, "length %.4f m, tension %.3f N (m g = 4.905 N)",
             dist(q[0], q[1]), tension);
    check(fabsf(dist(q[0], q[1]) - 1.0f) < 2e-3f && fabsf(tension - 4.905f) < 0.1f,
          "tether holds 0.5 kg at its max length", detail);
    sinew_world_destroy(w);

    /* Hinge without gravity, damped: edge 0-1 pinned along x; wings 2 and 3 (0.1 kg)
     * held 1 m from it by rigid links; wing 3 folded by 1 rad; rest angle 0 (flat). */
    SinewWorldDesc d = sinew_world_desc_default();
    d.gravity.y = 0.0f;
    d.substeps = 10;
    d.damping = 1.0f;
    sinew_world_create(&d, &w);
    SinewVec3 h[4] = {{-0.5f, 0, 0}, {0.5f, 0, 0}, {0, 1, 0}, {0, -cosf(1.0f), sinf(1.0f)}};
    float hinv[4] = {0, 0, 10, 10};
    sinew_world_add_particles(w, h, hinv, 4, &first);
    uint32_t links[8] = {0, 2, 1, 2, 0, 3, 1, 3};
    sinew_world_add_distance_constraints(w, links, NULL, 4, 0.0f, &first);
    uint32_t hinge[4] = {0, 1, 2, 3};
    float rest = 0.0f;
    check_status(sinew_world_add_dihedral_bending(w, hinge, &rest, 1, 0.01f, &first), SINEW_OK,
                 "dihedral hinge added");
    steps(w, 600);
    SinewVec3 x[4];
    sinew_world_read_positions(w, 0, 4, x, sizeof(SinewVec3));
    /* Flat: the wings, seen along the edge (x), point in opposite directions. */
    float ay = x[2].y, az = x[2].z, by = x[3].y, bz = x[3].z;
    float c = (ay * by + az * bz) / sqrtf((ay * ay + az * az) * (by * by + bz * bz));
    snprintf(detail, sizeof detail, "cos of the wing angle %.5f (flat = -1)", c);
    check(c < -0.9995f, "dihedral hinge returns to its rest angle", detail);
    uint32_t n = 0;
    sinew_world_family_constraint_count(w, SINEW_FAMILY_DIHEDRAL_BENDING, &n);
    check(n == 1, "one dihedral constraint", "");
    sinew_world_destroy(w);
}

static void attachments(void)
{
    SinewWorld w = make_world(10, 9.81f);
    SinewVec3 p = {0.0f, 1.0f, 0.0f};
    float inv = 2.0f;
    uint32_t first = 0, host = 99;
    sinew_world_add_particles(w, &p, &inv, 1, &first);
    SinewTransform t = {{0.0f, 1.0f, 0.0f}, {0.0f, 0.0f, 0.0f, 1.0f}};
    check_status(sinew_world_add_attachment_host(w, &t, &host), SINEW_OK, "host added");
    SinewTransform bad = t;
    bad.position.x = NAN;
    check_status(sinew_world_set_attachment_host_transform(w, host, &bad),
                 SINEW_ERROR_INVALID_ARGUMENT, "NaN transform refused");
    check_message("sinew_world_set_attachment_host_transform", "finite", "message");
    uint32_t particle = 0, id = 99;
    check_status(sinew_world_add_attachments(w, host, &particle, NULL, 1, -1.0f, &id),
                 SINEW_ERROR_INVALID_ARGUMENT, "negative compliance refused");
    check_status(sinew_world_add_attachments(w, host, &particle, NULL, 1, 0.0f, &id), SINEW_OK,
                 "hard attachment added");
    steps(w, 60);
    SinewVec3 f = {0, 0, 0};
    check_status(sinew_world_read_attachment_forces(w, id, 1, &f), SINEW_OK, "force read");
    char detail[96];
    snprintf(detail, sizeof detail, "(%.4f, %.4f, %.4f) N", f.x, f.y, f.z);
    check(fabsf(f.y + 4.905f) < 0.03f && fabsf(f.x) < 1e-4f, "host feels (0, -m g, 0)", detail);
    t.position.x = 0.5f;
    sinew_world_set_attachment_host_transform(w, host, &t);
    steps(w, 1);
    SinewVec3 q;
    sinew_world_read_positions(w, 0, 1, &q, sizeof q);
    snprintf(detail, sizeof detail, "x %.5f m", q.x);
    check(fabsf(q.x - 0.5f) < 1e-5f, "pinned particle follows its host", detail);
    sinew_world_destroy(w);
}

static void removal(void)
{
    SinewWorld w = make_world(8, 9.81f);
    SinewBody a = grid_cloth(w, 0.0f, 6);
    SinewRopeDesc rd = sinew_rope_desc_default();
    rd.start = (SinewVec3){2.0f, 2.0f, 0.0f};
    rd.end = (SinewVec3){3.0f, 2.0f, 0.0f};
    SinewBody r = {0};
    check_status(sinew_world_add_rope(w, &rd, &r), SINEW_OK, "rope added between cloths");
    SinewBody c = grid_cloth(w, 4.0f, 6);
    uint32_t fa = 0, na = 0, fc = 0, nc = 0, fa2 = 0, na2 = 0, fc2 = 0, nc2 = 0;
    sinew_body_particle_range(w, a, &fa, &na);
    sinew_body_particle_range(w, c, &fc, &nc);
    steps(w, 30);
    check_status(sinew_world_remove_body(w, r), SINEW_OK, "rope removed");
    check_status(sinew_world_remove_body(w, r), SINEW_ERROR_INVALID_HANDLE, "removed twice");
    check_message("sinew_world_remove_body", "removed", "message says removed");
    sinew_body_particle_range(w, a, &fa2, &na2);
    sinew_body_particle_range(w, c, &fc2, &nc2);
    check(fa == fa2 && na == na2 && fc == fc2 && nc == nc2, "cloth indices unchanged", "");
    uint32_t bodies = 0;
    sinew_world_body_count(w, &bodies);
    check(bodies == 2, "two bodies left", "");
    steps(w, 30);
    sinew_world_destroy(w);
}

/* Strain, unilateral area, 2D ring and shape matching. */
static void families2(void)
{
    char detail[128];
    /* Triangle strain: x edge pinned, 0.5 kg below: stretch = alpha_yy m g. */
    SinewWorldDesc d = sinew_world_desc_default();
    d.substeps = 20;
    d.damping = 5.0f;
    SinewWorld w;
    sinew_world_create(&d, &w);
    SinewVec3 t[3] = {{0, 0, 0}, {1, 0, 0}, {0, -1, 0}};
    float inv[3] = {0, 0, 2};
    uint32_t first = 0, tri[3] = {0, 1, 2};
    sinew_world_add_particles(w, t, inv, 3, &first);
    check_status(sinew_world_add_triangle_strain(w, tri, 1, 1.0f, 0.01f, 0.0f, &first), SINEW_OK,
                 "triangle strain added");
    steps(w, 300);
    SinewVec3 q[3];
    sinew_world_read_positions(w, 0, 3, q, sizeof(SinewVec3));
    float stretch = dist(q[0], q[2]) - 1.0f;
    snprintf(detail, sizeof detail, "%.5f m (alpha m g = 0.04905 m)", stretch);
    check(fabsf(stretch - 0.04905f) < 0.001f, "triangle strain stretches by alpha_yy m g", detail);
    sinew_world_destroy(w);

    /* 2D ring of 12 particles squashed to half its area regains it; unilateral area. */
    d = sinew_world_desc_default();
    d.gravity = (SinewVec3){0.0f, 0.0f, -5.0f};
    d.damping = 3.0f;
    d.substeps = 10;
    sinew_world_create(&d, &w);
    SinewVec3 ring[12];
    uint32_t ids[12];
    for (int i = 0; i < 12; i++) {
        float a = 6.2831853f * (float)i / 12.0f;
        ring[i] = (SinewVec3){0.5f * cosf(a), 0.5f * sinf(a), 0.0f};
        ids[i] = (uint32_t)i;
    }
    sinew_world_add_particles(w, ring, NULL, 12, &first);
    check_status(sinew_world_set_planar(w, 1, 0.0f), SINEW_OK, "world made 2D");
    uint32_t rid = 99;
    check_status(sinew_world_add_ring_area(w, ids, 12, 1.0f, 0.0f, &rid), SINEW_OK, "ring added");
    float a0 = 0.0f, a = 0.0f;
    sinew_world_ring_area(w, rid, &a0);
    for (int i = 0; i < 12; i++) ring[i].y *= 0.5f;
    sinew_world_write_positions(w, 0, 12, ring, sizeof(SinewVec3));
    steps(w, 120);
    sinew_world_ring_area(w, rid, &a);
    SinewVec3 r0;
    sinew_world_read_positions(w, 0, 1, &r0, sizeof r0);
    snprintf(detail, sizeof detail, "area %.4f m2 (rest %.4f), z %.6f", a, a0, r0.z);
    check(fabsf(a - a0) < 0.01f * a0 && r0.z == 0.0f, "2D ring regains its area in its plane",
          detail);
    sinew_world_destroy(w);

    /* Unilateral area: a vertex thrown through the opposite edge stops there. */
    d = sinew_world_desc_default();
    d.gravity.y = 0.0f;
    sinew_world_create(&d, &w);
    SinewVec3 u[3] = {{0, 0, 0}, {1, 0, 0}, {0.5f, 0.5f, 0}};
    float uinv[3] = {0, 0, 1};
    sinew_world_add_particles(w, u, uinv, 3, &first);
    sinew_world_set_planar(w, 1, 0.0f);
    check_status(sinew_world_add_unilateral_areas(w, tri, NULL, 1, 0.0f, &first), SINEW_OK,
                 "unilateral area added");
    SinewVec3 down = {0.0f, -3.0f, 0.0f};
    sinew_world_write_velocities(w, 2, 1, &down, sizeof down);
    steps(w, 60);
    sinew_world_read_positions(w, 2, 1, &r0, sizeof r0);
    snprintf(detail, sizeof detail, "vertex y %.6f m", r0.y);
    check(r0.y > -1e-4f, "unilateral area stops the inversion", detail);
    sinew_world_destroy(w);

    /* Shape matching: a deformed rigid cluster returns to its rest shape. */
    d = sinew_world_desc_default();
    d.gravity.y = 0.0f;
    sinew_world_create(&d, &w);
    SinewVec3 cube[8];
    uint32_t members[8];
    for (int i = 0; i < 8; i++) {
        cube[i] = (SinewVec3){0.4f * (float)(i & 1), 0.4f * (float)((i >> 1) & 1),
                              0.4f * (float)(i >> 2)};
        members[i] = (uint32_t)i;
    }
    sinew_world_add_particles(w, cube, NULL, 8, &first);
    uint32_t cid = 99;
    check_status(sinew_world_add_shape_cluster(w, members, 8, 1.0f, INFINITY, 0.0f, &cid),
                 SINEW_OK, "shape cluster added");
    SinewVec3 bent[8];
    memcpy(bent, cube, sizeof bent);
    bent[7].x += 0.1f;
    bent[3].y -= 0.05f;
    sinew_world_write_positions(w, 0, 8, bent, sizeof(SinewVec3));
    steps(w, 1);
    SinewVec3 x[8];
    sinew_world_read_positions(w, 0, 8, x, sizeof(SinewVec3));
    float worst = 0.0f;
    for (int i = 0; i < 8; i++)
        for (int j = i + 1; j < 8; j++)
            worst = fmaxf(worst, fabsf(dist(x[i], x[j]) - dist(cube[i], cube[j])));
    snprintf(detail, sizeof detail, "worst pair distance error %.2e m", worst);
    check(worst < 1e-4f, "shape matching restores the rest shape", detail);
    check_status(sinew_world_add_shape_cluster(w, members, 1, 1.0f, INFINITY, 0.0f, &cid),
                 SINEW_ERROR_INVALID_ARGUMENT, "one-particle cluster refused");
    check_message("sinew_world_add_shape_cluster", "at least 2", "its message");
    sinew_world_destroy(w);
}

int main(void)
{
    check(SINEW_MATERIAL_RUBBER == 1.0e-6 && SINEW_MATERIAL_FAT == 1.0e-3 &&
              SINEW_MATERIAL_LEATHER == 1.0e-8,
          "material presets are Nakagawa's CEDEC 2017 values", "");
    rope();
    cloth();
    tet_cube(SINEW_TET_EDGES_AND_VOLUME);
    tet_cube(SINEW_TET_STRAIN);
    pressure();
    families();
    attachments();
    removal();
    families2();
    printf("%d checks, %d failed\n", checks, failures);
    return failures == 0 ? 0 : 1;
}

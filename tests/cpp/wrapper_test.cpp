// Tests of bindings/cpp: the RAII wrapper sinew.hpp against the real library, and the
// engine-neutral helpers the Unreal plugin uses (units, tube mesh, rope shape, cloth
// welding, Scene over the library's bodies: removal, in-place compliance, grab/release).
//
// Built and run by tests/bindings/cpp_wrapper.rs with g++ -std=c++17 -Wall -Wextra -Werror
// -pedantic, once plain and once under -fsanitize=address,undefined, linked to the
// libsinew.so of the same `cargo test`. Prints every check; exits 1 on any failure.
#include <algorithm>
#include <array>
#include <cmath>
#include <cstdio>
#include <cstring>
#include <limits>
#include <map>
#include <string>
#include <thread>
#include <vector>

#include "sinew.hpp"
#include "sinew_cloth.hpp"
#include "sinew_rope.hpp"
#include "sinew_scene.hpp"
#include "sinew_tube.hpp"
#include "sinew_units.hpp"

namespace {

int g_checks = 0;
int g_failures = 0;

void check(bool ok, const std::string& what, const std::string& detail = "") {
    ++g_checks;
    if (!ok) ++g_failures;
    std::printf("[%s] %s%s%s\n", ok ? "PASS" : "FAIL", what.c_str(), detail.empty() ? "" : ": ", detail.c_str());
}

bool near(double a, double b, double tol) { return std::fabs(a - b) <= tol; }

std::string fmt(double a, double b) { return "got " + std::to_string(a) + ", expected " + std::to_string(b); }

template <class T>
T must(sinew::Result<T> r, const char* what) {
    if (!r) {
        check(false, what, r.error().message);
        std::printf("aborting: cannot continue without %s\n", what);
        std::exit(1);
    }
    return std::move(r).value();
}
void must(sinew::Result<void> r, const char* what) {
    if (!r) {
        check(false, what, r.error().message);
        std::printf("aborting: cannot continue without %s\n", what);
        std::exit(1);
    }
}
/// A read into a fresh vector (the wrapper's reads fill a caller's vector, resized):
/// `got([&](auto& o) { return w.read_positions(range, o); }, "what")`.
template <class T = sinew::Vec3, class Read>
std::vector<T> got(Read read, const char* what) {
    std::vector<T> out;
    (void)must(read(out), what);
    return out;
}

// Stand-ins for engine vector types: UE's FVector3f (X, Y, Z) and glm::vec3 (x, y, z).
struct FVector3fLike {
    float X, Y, Z;
};
struct GlmVec3Like {
    float x, y, z;
};
struct DoubleVector {
    double X, Y, Z;
};
static_assert(sinew::is_vec3_like_v<FVector3fLike> && sinew::is_vec3_like_v<GlmVec3Like>, "12-byte types accepted");
static_assert(!sinew::is_vec3_like_v<DoubleVector> && !sinew::is_vec3_like_v<double[3]>,
              "UE5's double FVector is not a Vec3");
static_assert(!std::is_copy_constructible_v<sinew::World> && std::is_nothrow_move_constructible_v<sinew::World>,
              "World is move-only");

constexpr float kG = 9.81f;

// ---------------------------------------------------------------------------------

void test_abi_and_results() {
    check(sinew::check_abi().ok(), "check_abi accepts the library the test links");
    check(std::strlen(sinew::version()) >= 5, "version string", sinew::version());
    sinew::Result<int> good = 3;
    sinew::Result<int> bad = sinew::Error{sinew::Status::OutOfRange, "x: y"};
    check(good.ok() && *good == 3 && good.value_or(7) == 3 && good.status() == sinew::Status::Ok, "Result holds a value");
    check(!bad && bad.value_or(7) == 7 && bad.status() == sinew::Status::OutOfRange && bad.error().message == "x: y",
          "Result holds an error");
    check(std::string(sinew::to_string(sinew::Status::InvalidHandle)) == "invalid handle", "status names");
}

void test_raii() {
    SinewWorld raw{0};
    {
        sinew::World w = must(sinew::World::create(), "create a world");
        raw = w.handle();
        check(w.valid() && raw.id != 0, "created world has a handle");
        sinew::World moved = std::move(w);
        check(!w.valid() && moved.valid() && moved.handle().id == raw.id, "move transfers the handle"); // NOLINT
        auto r = w.step(0.01f); // NOLINT: use after move is the point
        check(r.status() == sinew::Status::InvalidHandle && !r.error().message.empty(),
              "an empty World reports InvalidHandle with a message", r.ok() ? "" : r.error().message);
        sinew::World other = must(sinew::World::create(), "create a second world");
        const SinewWorld other_raw = other.handle();
        other = std::move(moved); // destroys `other`'s own world
        check(sinew_world_step(other_raw, 0.01f) == SINEW_ERROR_INVALID_HANDLE,
              "move assignment destroys the overwritten world");
        check(other.step(0.01f).ok(), "the moved-in world still steps");
    }
    check(sinew_world_step(raw, 0.01f) == SINEW_ERROR_INVALID_HANDLE, "destructor destroys the handle");
    SinewWorld released{0};
    {
        sinew::World w = must(sinew::World::create(), "create a world to release");
        released = w.release();
    }
    check(sinew_world_step(released, 0.01f) == SINEW_OK, "release() hands the handle over");
    check(sinew_world_destroy(released) == SINEW_OK, "released handle destroyed by the caller");
}

/// Free fall with semi-implicit Euler: after n substeps of h from rest,
/// z = z0 - g h² n (n + 1) / 2 and v = -g h n (closed form of the integrator).
void test_free_fall_z_up() {
    sinew::WorldDesc desc;
    desc.with_gravity(0, 0, -kG).with_substeps(10);
    sinew::World w = must(sinew::World::create(desc), "create a Z-up world");
    std::vector<sinew::Vec3> p{{0, 0, 100}};
    sinew::Range r = must(w.add_particles(p), "add one particle");
    for (int i = 0; i < 30; ++i) must(w.step(1.0f / 60.0f), "step");
    auto pos = got([&](auto& o) { return w.read_positions(r, o); }, "read position");
    auto vel = got([&](auto& o) { return w.read_velocities(r, o); }, "read velocity");
    const double h = 1.0 / 600.0, n = 300;
    const double z = 100.0 - kG * h * h * n * (n + 1) / 2;
    check(near(pos[0].z, z, 1e-4) && pos[0].x == 0 && pos[0].y == 0, "free fall along -Z (gravity from WorldDesc)",
          fmt(pos[0].z, z));
    check(near(vel[0].z, -kG * h * n, 1e-4), "free-fall velocity", fmt(vel[0].z, -kG * h * n));
}

/// A 20-link rope (5 cm links, 50 g particles) pinned at the top hangs straight down;
/// the top link carries the weight of the 20 particles below it.
void test_hanging_rope_and_vector_types() {
    sinew::WorldDesc desc;
    desc.with_substeps(20).with_damping(4.0f);
    sinew::World w = must(sinew::World::create(desc), "create");
    constexpr int kLinks = 20;
    std::vector<sinew::Vec3> p;
    std::vector<float> inv;
    std::vector<uint32_t> pairs;
    for (int i = 0; i <= kLinks; ++i) {
        p.push_back({0.05f * static_cast<float>(i), 2.0f, 0.0f});
        inv.push_back(i == 0 ? 0.0f : 20.0f);
    }
    for (uint32_t i = 0; i < kLinks; ++i) {
        pairs.push_back(i);
        pairs.push_back(i + 1);
    }
    sinew::Range parts = must(w.add_particles(p, inv), "add rope particles");
    sinew::Range links = must(w.add_distance_constraints(pairs, {}, 0.0f), "add rope links");
    check(parts.first == 0 && parts.count == 21 && links.count == 20, "ranges of particles and links");
    check(must(w.particle_count(), "count") == 21 && must(w.distance_constraint_count(), "count") == 20, "counts");
    for (int f = 0; f < 180; ++f) must(w.step(1.0f / 60.0f), "step");

    std::vector<sinew::Vec3> v(21);
    std::vector<FVector3fLike> fv(21);
    std::vector<GlmVec3Like> gv(21);
    float arr[21][3];
    must(w.read_positions(sinew::Range{0, 21}, v), "read Vec3");
    must(w.read_positions(sinew::Range{0, 21}, fv), "read FVector3f-like");
    must(w.read_positions(sinew::Range{0, 21}, gv), "read glm-like");
    must(w.read_positions(0, sinew::Span<float[3]>(arr)), "read float[3]");
    struct Vertex {
        float pos[3];
        uint32_t color;
    };
    std::vector<Vertex> vb(21, Vertex{{0, 0, 0}, 0xdeadbeef});
    must(w.read_positions_strided(0, 21, vb.data(), sizeof(Vertex)), "read into a vertex buffer");
    bool same = true, padding = true;
    for (int i = 0; i < 21; ++i) {
        same = same && v[i].x == fv[i].X && v[i].y == fv[i].Y && v[i].z == fv[i].Z && v[i].x == gv[i].x &&
               v[i].y == gv[i].y && v[i].z == gv[i].z && v[i].x == arr[i][0] && v[i].y == arr[i][1] &&
               v[i].z == arr[i][2] && vb[i].pos[0] == v[i].x && vb[i].pos[1] == v[i].y && vb[i].pos[2] == v[i].z;
        padding = padding && vb[i].color == 0xdeadbeef;
    }
    check(same, "Vec3, FVector3f-like, glm-like, float[3] and strided reads agree");
    check(padding, "strided read leaves the rest of the vertex untouched");
    check(near(v[20].y, 1.0, 0.02) && near(v[20].x, 0.0, 0.02), "rope hangs straight down, 1 m",
          fmt(v[20].y, 1.0));
    auto forces = got<float>([&](auto& o) { return w.read_constraint_forces(links, o); }, "read tensions");
    const double weight = 20 * 0.05 * kG;
    check(near(forces[0], weight, 0.02 * weight), "top link tension = weight below", fmt(forces[0], weight));
    check(near(forces[19], 0.05 * kG, 0.02 * 0.05 * kG), "bottom link tension = one particle",
          fmt(forces[19], 0.05 * kG));

    // Writes: positions, velocities, inverse masses round-trip.
    std::vector<GlmVec3Like> moved{{1, 2, 3}, {4, 5, 6}};
    must(w.write_positions(3, moved), "write positions");
    std::vector<GlmVec3Like> back(2);
    must(w.read_positions(sinew::Range{3, 2}, back), "read back");
    check(back[0].x == 1 && back[0].z == 3 && back[1].y == 5, "write_positions round-trips");
    std::vector<sinew::Vec3> vel{{0.5f, 0, 0}};
    must(w.write_velocities(7, vel), "write velocity");
    std::vector<sinew::Vec3> vback(1);
    must(w.read_velocities(sinew::Range{7, 1}, vback), "read velocity");
    check(vback[0].x == 0.5f, "write_velocities round-trips");
    must(w.set_inverse_mass(20, 0.0f), "pin the end");
    must(w.write_velocities(20, vel), "velocity of a pinned particle");
    must(w.read_velocities(sinew::Range{20, 1}, vback), "read");
    check(vback[0].x == 0.0f, "a pinned particle keeps velocity 0");
    // Strided writes and reads, from and into a 16-byte vertex.
    std::vector<Vertex> src{{{7, 8, 9}, 1u}, {{-1, -2, -3}, 2u}};
    must(w.write_positions_strided(10, 2, src.data(), sizeof(Vertex)), "strided position write");
    must(w.write_velocities_strided(10, 2, src.data(), sizeof(Vertex)), "strided velocity write");
    std::vector<Vertex> dst(2, Vertex{{0, 0, 0}, 0xabcdu});
    must(w.read_velocities_strided(10, 2, dst.data(), sizeof(Vertex)), "strided velocity read");
    std::vector<sinew::Vec3> pback(2);
    must(w.read_positions(sinew::Range{10, 2}, pback), "read");
    check(pback[0].x == 7 && pback[1].z == -3 && dst[0].pos[1] == 8 && dst[1].pos[0] == -1 && dst[1].color == 0xabcdu,
          "strided writes and reads with a 16-byte stride");
    check(w.write_positions_strided(10, 2, src.data(), 8).status() == sinew::Status::InvalidArgument,
          "stride below 12 bytes rejected");
    std::vector<float> ws{10.0f, 10.0f};
    must(w.set_inverse_masses(1, ws), "set inverse masses");
    auto pbd = must(w.add_pbd_distance_constraints(std::vector<uint32_t>{0, 20}, {}, 0.5f), "PBD constraint");
    check(pbd.first == 20 && pbd.count == 1, "PBD ids continue after the XPBD ones");
}

void test_errors_change_nothing() {
    sinew::World w = must(sinew::World::create(), "create");
    std::vector<sinew::Vec3> p{{0, 0, 0}, {1, 0, 0}};
    must(w.add_particles(p), "add");
    auto odd = w.add_distance_constraints(std::vector<uint32_t>{0, 1, 1}, {}, 0.0f);
    check(odd.status() == sinew::Status::InvalidArgument && odd.error().message.find("even") != std::string::npos,
          "odd pair list rejected by the wrapper", odd.ok() ? "" : odd.error().message);
    auto mism = w.add_particles(p, std::vector<float>{1.0f});
    check(mism.status() == sinew::Status::InvalidArgument, "mismatched inverse masses rejected");
    std::vector<sinew::Vec3> out(3);
    auto oob = w.read_positions(0, sinew::Span<sinew::Vec3>(out));
    check(oob.status() == sinew::Status::OutOfRange &&
              oob.error().message.rfind("sinew_world_read_positions", 0) == 0,
          "out-of-range read: status and the library's message", oob.ok() ? "" : oob.error().message);
    auto nan = w.step(NAN);
    check(nan.status() == sinew::Status::InvalidArgument, "NaN dt rejected", nan.ok() ? "" : nan.error().message);
    auto bad_pair = w.add_distance_constraints(std::vector<uint32_t>{0, 5}, {}, 0.0f);
    check(bad_pair.status() == sinew::Status::OutOfRange, "constraint on a missing particle rejected");
    auto neg = w.add_distance_constraints(std::vector<uint32_t>{0, 1}, {}, -1.0f);
    check(neg.status() == sinew::Status::InvalidArgument, "negative compliance rejected");
    check(must(w.particle_count(), "count") == 2 && must(w.distance_constraint_count(), "count") == 0,
          "failed calls changed nothing");
    sinew::WorldDesc desc;
    desc.substeps = 0;
    auto bad_world = sinew::World::create(desc);
    check(bad_world.status() == sinew::Status::InvalidArgument, "bad desc rejected",
          bad_world.ok() ? "" : bad_world.error().message);
}

// ---------------------------------------------------------------------------------

void test_units() {
    using namespace sinew::units;
    Frame f;
    const sinew::Vec3 s = f.to_sim(150.0, -20.0, 980.0);
    check(s.x == 1.5f && s.y == -0.2f && s.z == 9.8f, "cm -> m, no axis swap");
    const Double3 back = f.from_sim(s);
    check(near(back.x, 150.0, 1e-4) && near(back.y, -20.0, 1e-4) && near(back.z, 980.0, 1e-4), "m -> cm");
    const sinew::Vec3 g = gravity_from_unreal(kUnrealDefaultGravityZ);
    check(g.x == 0 && g.y == 0 && near(g.z, -9.8, 1e-6), "UE gravity -980 cm/s² -> (0, 0, -9.8) m/s²");
    check(length_to_sim(250.0) == 2.5f && length_from_sim(2.5f) == 250.0, "lengths");
    // 100 km from the origin a 1 mm offset survives only with a rebased origin.
    const double far = 1.0e7; // cm
    Frame rebased(Double3{far, far, far});
    const sinew::Vec3 a = rebased.to_sim(far + 0.1, far, far);
    const sinew::Vec3 b = f.to_sim(far + 0.1, far, far);
    check(near(a.x, 0.001, 1e-9), "rebased origin keeps a 1 mm offset at 100 km", fmt(a.x, 0.001));
    check(!near(b.x - 100000.0f, 0.001, 1e-4), "without rebasing float loses it (why the origin exists)");
    const Double3 fb = rebased.from_sim(a);
    check(near(fb.x, far + 0.1, 1e-6), "rebased round trip in double", fmt(fb.x, far + 0.1));
    const sinew::Vec3 v = Frame::velocity_to_sim(Double3{100.0, 0.0, -50.0});
    check(v.x == 1.0f && v.z == -0.5f, "velocities cm/s -> m/s");
}

// ---------------------------------------------------------------------------------

using sinew::vec::cross;
using sinew::vec::dot;
using sinew::vec::length;
using sinew::vec::sub;

/// Checks the geometry every tube must have; returns true when all hold.
bool tube_geometry_ok(const std::vector<sinew::Vec3>& pts, const sinew::tube::Params& prm,
                      const sinew::tube::Mesh& m, std::string& why) {
    const uint32_t n = static_cast<uint32_t>(pts.size()), ring = prm.sides + 1;
    if (m.positions.size() != sinew::tube::vertex_count(n, prm.sides) || m.normals.size() != m.positions.size() ||
        m.uvs.size() != m.positions.size() || m.indices.size() != sinew::tube::index_count(n, prm.sides)) {
        why = "counts";
        return false;
    }
    float arc = 0;
    for (uint32_t i = 0; i < n; ++i) {
        if (i) arc += sinew::vec::distance(pts[i], pts[i - 1]);
        for (uint32_t j = 0; j < ring; ++j) {
            const std::size_t k = std::size_t{i} * ring + j;
            const sinew::Vec3 off = sub(m.positions[k], pts[i]);
            if (!near(length(off), prm.radius, 1e-5 * (1 + prm.radius))) {
                why = "ring radius at " + std::to_string(k) + ": " + std::to_string(length(off));
                return false;
            }
            if (!near(length(m.normals[k]), 1.0, 1e-5)) {
                why = "normal not unit";
                return false;
            }
            if (length(sub(sinew::vec::scale(off, 1.0f / prm.radius), m.normals[k])) > 1e-4f) {
                why = "normal is not the radial direction";
                return false;
            }
            if (std::fabs(dot(m.normals[k], m.tangents[k])) > 1e-4f) {
                why = "normal not perpendicular to the tangent";
                return false;
            }
            if (!near(m.uvs[k].u, static_cast<double>(j) / prm.sides, 1e-6) ||
                !near(m.uvs[k].v, arc * prm.v_per_length, 1e-4)) {
                why = "uv at " + std::to_string(k);
                return false;
            }
        }
        // The seam vertex repeats the first one exactly (U 0 and 1 at one position).
        const std::size_t s0 = std::size_t{i} * ring, s1 = s0 + prm.sides;
        if (m.positions[s0].x != m.positions[s1].x || m.positions[s0].y != m.positions[s1].y ||
            m.positions[s0].z != m.positions[s1].z) {
            why = "seam vertex differs";
            return false;
        }
    }
    // Winding: the numeric normal of each triangle against its vertex normals.
    const float want = prm.front_face == sinew::tube::FrontFace::CounterClockwise ? 1.0f : -1.0f;
    for (std::size_t t = 0; t < m.indices.size(); t += 3) {
        const uint32_t a = m.indices[t], b = m.indices[t + 1], c = m.indices[t + 2];
        if (a >= m.positions.size() || b >= m.positions.size() || c >= m.positions.size()) {
            why = "index out of range";
            return false;
        }
        const sinew::Vec3 nrm = cross(sub(m.positions[b], m.positions[a]), sub(m.positions[c], m.positions[a]));
        const sinew::Vec3 avg = sinew::vec::add(sinew::vec::add(m.normals[a], m.normals[b]), m.normals[c]);
        if (!(dot(nrm, avg) * want > 0)) {
            why = "triangle " + std::to_string(t / 3) + " wound the wrong way";
            return false;
        }
    }
    return true;
}

/// Largest angle (radians) between the reference directions (normal at U = 0) of
/// consecutive rings, and the smallest dot product between them.
double max_ring_turn(const sinew::tube::Mesh& m, uint32_t n, uint32_t sides, double* min_dot) {
    double worst = 0;
    *min_dot = 1;
    for (uint32_t i = 0; i + 1 < n; ++i) {
        const double d = dot(m.normals[std::size_t{i} * (sides + 1)], m.normals[std::size_t{i + 1} * (sides + 1)]);
        *min_dot = std::min(*min_dot, d);
        worst = std::max(worst, std::acos(std::min(1.0, std::max(-1.0, d))));
    }
    return worst;
}

void test_tube() {
    using namespace sinew::tube;
    // Straight tube along X.
    std::vector<sinew::Vec3> line;
    for (int i = 0; i < 5; ++i) line.push_back({0.25f * static_cast<float>(i), 0, 0});
    for (FrontFace ff : {FrontFace::CounterClockwise, FrontFace::Clockwise}) {
        Params prm;
        prm.radius = 0.02f;
        prm.sides = 8;
        prm.v_per_length = 2.0f;
        prm.front_face = ff;
        Mesh m;
        must(build(line, prm, m), "build a straight tube");
        std::string why;
        check(tube_geometry_ok(line, prm, m, why),
              std::string("straight tube geometry (") + (ff == FrontFace::Clockwise ? "clockwise" : "ccw") + ")",
              why);
        check(m.positions.size() == 45 && m.indices.size() == 4 * 8 * 6, "straight tube: 5 rings of 9, 192 indices");
    }

    // A planar quarter circle in XY: parallel transport keeps the out-of-plane
    // direction exactly; a Frenet frame would not even be defined on a straight part.
    std::vector<sinew::Vec3> arc;
    for (int i = 0; i <= 48; ++i) {
        const float a = 1.5707963f * static_cast<float>(i) / 48.0f;
        arc.push_back({std::cos(a), std::sin(a), 0});
    }
    Params prm;
    prm.radius = 0.05f;
    prm.sides = 12;
    Mesh m;
    m.start_normal = sinew::Vec3{0, 0, 1};
    must(build(arc, prm, m), "build an arc tube");
    std::string why;
    check(tube_geometry_ok(arc, prm, m, why), "arc tube geometry", why);
    bool in_z = true;
    for (uint32_t i = 0; i < arc.size(); ++i) in_z = in_z && near(m.normals[i * 13].z, 1.0, 1e-4);
    check(in_z, "planar curve: the reference direction stays the plane normal (no twist)");

    // A helix: no twist flips, the frame turns smoothly from ring to ring.
    std::vector<sinew::Vec3> helix;
    for (int i = 0; i <= 200; ++i) {
        const float t = 0.1f * static_cast<float>(i);
        helix.push_back({0.3f * std::cos(t), 0.3f * std::sin(t), 0.05f * t});
    }
    Mesh hm;
    must(build(helix, prm, hm), "build a helix tube");
    check(tube_geometry_ok(helix, prm, hm, why), "helix tube geometry", why);
    double min_dot = 0;
    const double turn = max_ring_turn(hm, static_cast<uint32_t>(helix.size()), prm.sides, &min_dot);
    // Consecutive tangents differ by ~0.1 rad; a rotation-minimising frame turns by
    // no more than that, a flip would be ~pi.
    check(turn < 0.12 && min_dot > 0.99, "helix: no twist flips", "max turn " + std::to_string(turn) + " rad");

    // Over time: the same rope rotated by 1 degree keeps its start frame (no popping).
    const sinew::Vec3 before = hm.start_normal;
    std::vector<sinew::Vec3> rotated = helix;
    const float c = std::cos(0.01745f), s = std::sin(0.01745f);
    for (auto& p : rotated) p = {c * p.x - s * p.z, p.y, s * p.x + c * p.z};
    must(build(rotated, prm, hm), "rebuild after a small rotation");
    check(dot(before, hm.start_normal) > 0.999f, "frame continuous from one build to the next",
          std::to_string(dot(before, hm.start_normal)));

    // Degenerate input: repeated points give finite geometry, no NaN.
    std::vector<sinew::Vec3> dup{{0, 0, 0}, {0, 0, 0}, {0, 0, 1}, {0, 0, 1}, {0, 1, 1}};
    Mesh dm;
    must(build(dup, prm, dm), "build with repeated points");
    bool finite = true;
    for (std::size_t k = 0; k < dm.positions.size(); ++k)
        finite = finite && sinew::vec::is_finite(dm.positions[k]) && near(length(dm.normals[k]), 1.0, 1e-4);
    check(finite, "repeated points: finite positions, unit normals");

    // Errors.
    Mesh em;
    check(build(std::vector<sinew::Vec3>{{0, 0, 0}}, prm, em).status() == sinew::Status::InvalidArgument,
          "one point rejected");
    Params bad = prm;
    bad.sides = 2;
    check(build(line, bad, em).status() == sinew::Status::InvalidArgument, "2 sides rejected");
    bad = prm;
    bad.radius = NAN;
    check(build(line, bad, em).status() == sinew::Status::InvalidArgument, "NaN radius rejected");
    std::vector<sinew::Vec3> nanpts = line;
    nanpts[2].y = INFINITY;
    check(build(nanpts, prm, em).status() == sinew::Status::InvalidArgument, "infinite point rejected");
}

// ---------------------------------------------------------------------------------

/// A q x q grid of quads in the XY plane (size 1), each quad with its OWN four render
/// vertices (as a mesh with split UVs has), two triangles (i,j)-(i+1,j)-(i+1,j+1) and
/// (i,j)-(i+1,j+1)-(i,j+1): counter-clockwise seen from +Z.
void split_grid(int q, std::vector<sinew::Vec3>& v, std::vector<uint32_t>& idx, float jitter = 0) {
    v.clear();
    idx.clear();
    const float d = 1.0f / static_cast<float>(q);
    for (int j = 0; j < q; ++j)
        for (int i = 0; i < q; ++i) {
            const uint32_t b = static_cast<uint32_t>(v.size());
            const float x = d * static_cast<float>(i), y = d * static_cast<float>(j);
            const float e = jitter * static_cast<float>((i + j) % 2);
            v.push_back({x + e, y, 0});
            v.push_back({x + d, y + e, 0});
            v.push_back({x + d, y + d, e});
            v.push_back({x, y + d, 0});
            for (uint32_t k : {0u, 1u, 2u, 0u, 2u, 3u}) idx.push_back(b + k);
        }
}

void test_cloth_weld() {
    std::vector<sinew::Vec3> v;
    std::vector<uint32_t> idx;
    split_grid(2, v, idx);
    auto lay = must(sinew::cloth::weld(v, idx, 0.0f), "weld a 2x2 grid");
    check(lay.particles.size() == 9, "16 split render vertices weld to 9 particles",
          std::to_string(lay.particles.size()));
    check(lay.triangles.size() == idx.size(), "all 8 triangles kept");
    bool mapped = true;
    for (std::size_t i = 0; i < v.size(); ++i) {
        const sinew::Vec3 p = lay.particles[lay.render_to_particle[i]];
        mapped = mapped && p.x == v[i].x && p.y == v[i].y && p.z == v[i].z;
    }
    check(mapped, "each render vertex maps to the particle at its position");
    bool reindexed = true;
    for (std::size_t k = 0; k < idx.size(); ++k)
        reindexed = reindexed && lay.triangles[k] == lay.render_to_particle[idx[k]];
    check(reindexed, "triangles re-indexed onto the particles");

    // Welding tolerance.
    split_grid(2, v, idx, 1e-5f);
    auto exact = must(sinew::cloth::weld(v, idx, 0.0f), "no welding tolerance");
    auto welded = must(sinew::cloth::weld(v, idx, 1e-4f), "welding tolerance");
    check(exact.particles.size() > 9 && welded.particles.size() == 9, "weld_distance merges near vertices",
          std::to_string(exact.particles.size()) + " vs " + std::to_string(welded.particles.size()));
    // A triangle whose corners weld together is dropped; none left is an error.
    std::vector<sinew::Vec3> sliver{{0, 0, 0}, {1, 0, 0}, {0, 1, 0}, {1e-6f, 0, 0}};
    auto dropped = must(sinew::cloth::weld(sliver, std::vector<uint32_t>{0, 1, 2, 0, 3, 2}, 1e-4f), "sliver");
    check(dropped.triangles.size() == 3, "the welded-flat triangle is dropped");
    check(sinew::cloth::weld(sliver, std::vector<uint32_t>{0, 3, 2}, 1e-4f).status() ==
              sinew::Status::InvalidArgument,
          "only degenerate triangles rejected");

    // Normals of the flat grid: +Z counter-clockwise, -Z clockwise (Unreal).
    split_grid(2, v, idx);
    std::vector<sinew::Vec3> n;
    sinew::cloth::normals(v, idx, sinew::tube::FrontFace::CounterClockwise, n);
    bool up = true;
    for (auto& x : n) up = up && near(x.z, 1.0, 1e-6);
    sinew::cloth::normals(v, idx, sinew::tube::FrontFace::Clockwise, n);
    bool down = true;
    for (auto& x : n) down = down && near(x.z, -1.0, 1e-6);
    check(up && down, "vertex normals follow the winding convention");
    // A folded pair of triangles: the shared vertices get the normalised average.
    std::vector<sinew::Vec3> fold{{0, 0, 0}, {1, 0, 0}, {0, 1, 0}, {0, 0, 1}};
    std::vector<uint32_t> ft{0, 1, 2, 0, 3, 1};
    sinew::cloth::normals(fold, ft, sinew::tube::FrontFace::CounterClockwise, n);
    const double r2 = std::sqrt(0.5);
    check(near(n[0].y, r2, 1e-6) && near(n[0].z, r2, 1e-6) && near(n[2].z, 1.0, 1e-6) && near(n[3].y, 1.0, 1e-6),
          "area-weighted normals at a fold");

    // Errors.
    check(sinew::cloth::weld(v, std::vector<uint32_t>{0, 1}, 0).status() == sinew::Status::InvalidArgument,
          "index count not a multiple of 3 rejected");
    check(sinew::cloth::weld(v, std::vector<uint32_t>{0, 1, 99}, 0).status() == sinew::Status::OutOfRange,
          "index out of range rejected");
    check(sinew::cloth::weld(v, idx, -1.0f).status() == sinew::Status::InvalidArgument,
          "negative weld distance rejected");
}

// ---------------------------------------------------------------------------------

void test_rope_polyline() {
    sinew::rope::Params p;
    p.start = {0, 0, 2};
    p.end = {1, 0, 2};
    p.length = 1.5f;
    p.segments = 10;
    auto pts = must(sinew::rope::polyline(p), "sagging polyline");
    check(pts.size() == 11, "segments + 1 points");
    double arc = 0;
    for (std::size_t i = 1; i < pts.size(); ++i) arc += sinew::vec::distance(pts[i - 1], pts[i]);
    // The V's apex lies h = sqrt((L/2)² - (D/2)²) below the midpoint; 10 even links
    // put it on point 5, so the polyline is exactly L long.
    const double h = std::sqrt(0.75 * 0.75 - 0.5 * 0.5);
    check(near(arc, 1.5, 1e-5) && near(pts[5].z, 2.0 - h, 1e-5) && near(pts[5].x, 0.5, 1e-6),
          "a rope longer than the gap sags in a V of its own length", fmt(arc, 1.5));
    check(pts[0].x == 0 && pts[0].z == 2 && pts[10].x == 1 && pts[10].z == 2, "ends at start and end");
    p.length = 0.5f;
    pts = must(sinew::rope::polyline(p), "short polyline");
    check(near(pts[10].x, 0.5, 1e-6) && near(pts[4].x, 0.2, 1e-6) && pts[10].z == 2.0f,
          "a rope shorter than the gap starts straight towards the end, its own length long");
    p.end = p.start;
    pts = must(sinew::rope::polyline(p), "no gap");
    check(near(pts[10].z, 1.5, 1e-6) && pts[10].x == 0.0f, "start = end: hangs along down");
    p.segments = 0;
    check(sinew::rope::polyline(p).status() == sinew::Status::InvalidArgument, "0 segments rejected");
    p.segments = 4;
    p.length = 0;
    check(sinew::rope::polyline(p).status() == sinew::Status::InvalidArgument, "0 m rejected");
}

/// A vertical rope of n = 10 links, 1.1 kg over its 11 particles, hanging from a pinned
/// top, built by the library (bend links negligible, no tethers): the top link carries
/// the weight of the 10 particles below it; after set_compliance(α) in place each link k
/// stretches by α T_k, so the rope lengthens by α m g n (n + 1) / 2.
sinew::RopeDesc hanging_rope(float x, uint32_t segments, float compliance) {
    sinew::RopeDesc d;
    d.with_ends({x, 0, 0}, {x, 0, -1})
        .with_segments(segments)
        .with_mass(0.1f * static_cast<float>(segments + 1))
        .with_compliance(compliance, 1e3f)
        .with_pins(true, false)
        .with_tethers(false);
    return d;
}

void test_scene_rope_tension_and_compliance() {
    sinew::WorldDesc desc;
    desc.with_gravity(0, 0, -kG).with_substeps(20).with_damping(4.0f);
    auto scene = must(sinew::Scene::create(desc), "scene");
    const sinew::BodyId rope = must(scene.add_rope(hanging_rope(0, 10, 0.0f)), "add rope");
    check(scene.body_count() == 1 && *scene.world().body_count() == 1 && *scene.world().particle_count() == 11 &&
              *scene.world().distance_constraint_count() == 0,
          "the library built the rope: one body, 11 particles, no loose constraints");
    for (int f = 0; f < 120; ++f) must(scene.step(1.0f / 60.0f), "step");
    std::vector<float> t;
    must(scene.read_forces(rope, sinew::BodyConstraints::Stretch, t), "tension");
    const double w = 10 * 0.1 * kG;
    check(t.size() == 10 && near(t[0], w, 0.02 * w), "Scene: top tension = weight of 10 particles", fmt(t[0], w));
    check(near(t[9], 0.1 * kG, 0.02 * 0.1 * kG), "bottom link carries one particle", fmt(t[9], 0.1 * kG));

    std::vector<sinew::Vec3> before(11), after(11);
    must(scene.read_positions(rope, before), "positions");
    const float alpha = 1e-3f;
    must(scene.set_compliance(rope, sinew::BodyConstraints::Stretch, 5e-4f), "set compliance");
    must(scene.set_compliance(rope, sinew::BodyConstraints::Stretch, alpha), "set compliance again");
    must(scene.read_positions(rope, after), "positions after the change");
    check(std::memcmp(before.data(), after.data(), sizeof(sinew::Vec3) * 11) == 0,
          "a compliance change in place moves nothing");
    for (int f = 0; f < 240; ++f) must(scene.step(1.0f / 60.0f), "step");
    must(scene.read_positions(rope, after), "positions");
    const double stretch = -after[10].z - 1.0;
    const double expect = alpha * 0.1 * kG * 10 * 11 / 2;
    check(near(stretch, expect, 0.05 * expect), "softer rope stretches by alpha * sum of tensions",
          fmt(stretch, expect));
    must(scene.read_forces(rope, sinew::BodyConstraints::Stretch, t), "tension");
    check(near(t[0], w, 0.03 * w), "tension still the weight below", fmt(t[0], w));

    // A rope the library rejects (negative compliance) is not added, and the world
    // keeps exactly the rope.
    check(scene.add_rope(hanging_rope(1, 10, -1.0f)).status() == sinew::Status::InvalidArgument,
          "rope with a bad compliance rejected");
    must(scene.step(1.0f / 60.0f), "step after the rejected rope");
    check(scene.body_count() == 1 && *scene.world().particle_count() == 11 && *scene.world().body_count() == 1,
          "the rejected rope left nothing in the world");
    check(scene.set_compliance(rope, sinew::BodyConstraints::Stretch, -1.0f).status() ==
              sinew::Status::InvalidArgument,
          "negative compliance rejected");
    check(scene.remove_body(999).status() == sinew::Status::InvalidHandle, "unknown body rejected");
    std::vector<sinew::Vec3> wrong(3);
    check(scene.read_positions(rope, sinew::Span<sinew::Vec3>(wrong)).status() == sinew::Status::InvalidArgument,
          "wrong span size rejected");
    must(scene.read_positions(rope, wrong), "a vector is resized to the body");
    check(wrong.size() > 3, "read_positions resized the vector");
}

/// rope::pieces: the runs of particles a rope component draws, split at broken links
/// and starting at a winch's paying link.
void test_rope_pieces() {
    using sinew::rope::Piece;
    auto same = [](const std::vector<Piece>& got, const std::vector<Piece>& want) { return got == want; };
    check(same(sinew::rope::pieces(11, 0, {}), {Piece{0, 11}}), "an intact rope is one piece");
    std::vector<bool> broken(10, false);
    broken[3] = true;
    check(same(sinew::rope::pieces(11, 0, broken), {Piece{0, 4}, Piece{4, 7}}), "link 3 splits after particle 3");
    check(same(sinew::rope::pieces(11, 2, broken), {Piece{2, 2}, Piece{4, 7}}), "a winch's parked particles left out");
    check(same(sinew::rope::pieces(11, 3, broken), {Piece{4, 7}}), "the paying link itself broken");
    broken.assign(10, false);
    broken[0] = broken[9] = true;
    check(same(sinew::rope::pieces(11, 0, broken), {Piece{1, 9}}), "single particles at broken ends left out");
    check(sinew::rope::pieces(1, 0, {}).empty() && sinew::rope::pieces(11, 11, {}).empty() &&
              sinew::rope::pieces(11, 10, {}).empty(),
          "nothing to draw");
}

/// What a game engine does when one component's rope changes (the Unreal plugin on a
/// property edit or unregister): remove that body, add the new one, change another's
/// compliance in place. The remaining rope is not reset: it continues exactly as the
/// same rope in a scene that never had the other bodies.
void test_scene_changing_one_rope_does_not_reset_another() {
    sinew::WorldDesc desc;
    desc.with_gravity(0, 0, -kG).with_substeps(8).with_threads(1);
    auto a = must(sinew::Scene::create(desc), "scene a");
    auto b = must(sinew::Scene::create(desc), "scene b");
    sinew::RopeDesc swing;
    swing.with_ends({0, 0, 0}, {1, 0, 0}).with_segments(16).with_compliance(1e-4f, 0.01f);
    sinew::RopeDesc other = swing;
    other.with_ends({10, 0, 0}, {11, 0, 0}); // far away: no contact with the swinging rope
    const sinew::BodyId ra = must(a.add_rope(swing), "rope a");
    const sinew::BodyId first_other = must(b.add_rope(other), "other rope in b");
    const sinew::BodyId rb = must(b.add_rope(swing), "rope b");
    check(ra != 0 && rb != first_other, "body ids");
    for (int f = 0; f < 20; ++f) {
        must(a.step(1.0f / 60.0f), "step a");
        must(b.step(1.0f / 60.0f), "step b");
    }
    // The other component changes: its rope is removed and a longer one added.
    must(b.remove_body(first_other), "remove");
    check(!b.contains(first_other) && b.body_count() == 1 && *b.world().body_count() == 1, "body removed");
    check(b.remove_body(first_other).status() == sinew::Status::InvalidHandle, "removing twice rejected");
    other.with_segments(24);
    const sinew::BodyId second_other = must(b.add_rope(other), "changed rope");
    must(b.set_compliance(second_other, sinew::BodyConstraints::Stretch, 1e-3f), "its compliance in place");
    check(second_other != first_other && b.body_count() == 2, "new id for the new rope");
    for (int f = 0; f < 20; ++f) {
        must(a.step(1.0f / 60.0f), "step a");
        must(b.step(1.0f / 60.0f), "step b");
    }
    std::vector<sinew::Vec3> pa(17), pb(17), va, vb;
    must(a.read_positions(ra, pa), "a");
    must(b.read_positions(rb, pb), "b");
    must(a.read_velocities(ra, va), "va");
    must(b.read_velocities(rb, vb), "vb");
    check(std::memcmp(pa.data(), pb.data(), sizeof(sinew::Vec3) * 17) == 0 &&
              std::memcmp(va.data(), vb.data(), sizeof(sinew::Vec3) * 17) == 0,
          "the untouched rope continues bit-identically to the same rope alone");
    std::vector<sinew::Vec3> po(25);
    must(b.read_positions(second_other, po), "changed rope");
    check(po[24].z < -0.1f && po[0].x == 10.0f, "the changed rope swings from its pin");
}

/// What the game-engine components do when a player or a Blueprint edits one rope
/// while the game runs (the Unreal rope component's SetLength, SetWinchSpeed,
/// SetBreakForce, Cut, SetCompliance): the Scene edits that body in place. Another
/// rope in the same Scene is never reset: it continues bit for bit as the same rope in
/// a Scene that never had the edited ones. The break events name the edited rope and
/// the link that broke; bad edits are refused and change nothing.
void test_scene_edits_of_one_rope_never_reset_another() {
    sinew::WorldDesc desc;
    desc.with_gravity(0, 0, -kG).with_substeps(16).with_threads(1);
    auto a = must(sinew::Scene::create(desc), "scene a");
    auto b = must(sinew::Scene::create(desc), "scene b");
    sinew::RopeDesc swing;
    swing.with_ends({0, 0, 0}, {1, 0, 0}).with_segments(16).with_compliance(1e-4f, 0.01f);
    // Two ropes far away from it (no contact): one that will snap, one to winch and cut.
    sinew::RopeDesc snapping;
    snapping.with_ends({10, 0, 0}, {10, 0, -1})
        .with_segments(10)
        .with_mass(1.1f)
        .with_pins(true, false)
        .with_tethers(false);
    sinew::RopeDesc winched;
    winched.with_ends({14, 0, 0}, {14, 0, -2}).with_segments(20).with_pins(true, false);
    const sinew::BodyId ra = must(a.add_rope(swing), "rope a");
    const sinew::BodyId snap = must(b.add_rope(snapping), "snapping rope");
    const sinew::BodyId crane = must(b.add_rope(winched), "winched rope");
    const sinew::BodyId rb = must(b.add_rope(swing), "rope b");
    for (int f = 0; f < 10; ++f) {
        must(a.step(1.0f / 60.0f), "step a");
        must(b.step(1.0f / 60.0f), "step b");
    }
    // Link k of the snapping rope holds its 10 - k lowest particles (0.1 kg each):
    // 9.81 N on the top link, 8.83 N on the next. 9.3 N breaks the top link only.
    must(b.set_break_force(snap, 9.3f), "break force");
    must(b.add_winch(crane, sinew::RopeEnd::Start, 1.5f), "winch");
    must(b.set_winch_target(crane, 1.0f, 2.0f), "winch target");
    must(b.set_compliance(crane, sinew::BodyConstraints::Stretch, 1e-6f), "compliance in place");
    // Refused edits: nothing changes.
    check(b.set_break_force(snap, std::nanf("")).status() == sinew::Status::InvalidArgument, "NaN break force refused");
    check(b.set_break_force(999, 10.0f).status() == sinew::Status::InvalidHandle, "unknown body refused");
    check(b.cut(crane, 20).status() == sinew::Status::OutOfRange, "cut past the last link refused");
    check(b.set_winch_speed(crane, std::numeric_limits<float>::infinity()).status() == sinew::Status::InvalidArgument,
          "infinite winch speed refused");
    check(b.add_winch(crane, sinew::RopeEnd::Start, 1.0f).status() == sinew::Status::InvalidArgument,
          "a second winch refused");
    check(!b.winch_state(snap), "no winch on the snapping rope");
    std::vector<sinew::Scene::Break> breaks;
    std::vector<sinew::Scene::Break> all;
    uint64_t lost = 0;
    for (int f = 0; f < 60; ++f) {
        if (f == 30) {
            const sinew::WinchState ws = must(b.winch_state(crane), "winch state");
            check(near(ws.length, 1.0, 1e-4) && ws.speed == 0.0f, "the winch reached 1 m in 0.25 s",
                  fmt(ws.length, 1.0));
            check(must(b.cut_along(crane, sinew::Vec3{13.0f, 0.0f, -0.55f}, sinew::Vec3{15.0f, 0.0f, -0.55f}),
                       "swipe") == 15,
                  "a swipe 0.55 m below the drum cuts the active link there (links 10..19 hang)");
        }
        must(a.step(1.0f / 60.0f), "step a");
        must(b.step(1.0f / 60.0f), "step b");
        lost += must(b.take_break_events(breaks), "break events");
        all.insert(all.end(), breaks.begin(), breaks.end());
    }
    check(lost == 0, "no break event lost");
    check(all.size() == 1, "one link broke", fmt(static_cast<double>(all.size()), 1));
    if (!all.empty()) {
        check(all[0].body == snap, "the event names the snapping rope");
        check(all[0].link == 0, "the top link broke", fmt(all[0].link, 0));
        check(all[0].force > 9.3f && all[0].force < 9.81f * 1.1f, "force just past the break force",
              fmt(all[0].force, 9.3));
        check(std::fabs(all[0].position.x - 10.0f) < 0.01f && all[0].position.z < 0.0f, "where it broke");
    }
    std::vector<sinew::Vec3> tail(11);
    must(b.read_positions(snap, tail), "snapped rope");
    check(tail[10].z < -3.0f, "the snapped piece fell", fmt(tail[10].z, -3.0));
    tail.resize(21);
    must(b.read_positions(crane, tail), "cut rope");
    check(tail[20].z < -1.5f, "the cut piece fell", fmt(tail[20].z, -1.5));
    std::vector<sinew::Vec3> pa(17), pb(17), va, vb;
    must(a.read_positions(ra, pa), "a");
    must(b.read_positions(rb, pb), "b");
    must(a.read_velocities(ra, va), "va");
    must(b.read_velocities(rb, vb), "vb");
    check(std::memcmp(pa.data(), pb.data(), sizeof(sinew::Vec3) * 17) == 0 &&
              std::memcmp(va.data(), vb.data(), sizeof(sinew::Vec3) * 17) == 0,
          "the untouched rope continues bit-identically to the same rope alone");
}

/// Grab = pin + drive, release = restore the inverse mass the library gave the particle.
void test_scene_grab_release() {
    sinew::WorldDesc desc;
    desc.with_gravity(0, 0, -kG).with_substeps(10);
    auto scene = must(sinew::Scene::create(desc), "scene");
    sinew::RopeDesc d;
    d.with_ends({0, 0, 1}, {1, 0, 1}).with_segments(10).with_compliance(0.0f, 0.01f).with_pins(true, true);
    const sinew::BodyId rope = must(scene.add_rope(d), "rope");
    check(*scene.nearest_free_particle(rope, sinew::Vec3{0.52f, 0.1f, 1.0f}) == 5, "nearest free particle");
    check(*scene.nearest_free_particle(rope, sinew::Vec3{-1.0f, 0.0f, 1.0f}) == 1,
          "nearest free particle skips the pinned end");
    check(*scene.is_pinned(rope, 0) && *scene.is_pinned(rope, 10) && !*scene.is_pinned(rope, 1),
          "the library's pins are known");
    must(scene.pin(rope, 5), "grab particle 5");
    check(*scene.is_pinned(rope, 5), "grabbed particle is pinned");
    const uint32_t grabbed[1] = {5};
    const sinew::Vec3 target[1] = {{0.5f, 0.2f, 1.1f}};
    for (int f = 0; f < 60; ++f) {
        must(scene.move_particles(rope, grabbed, target), "drive");
        must(scene.step(1.0f / 60.0f), "step");
    }
    std::vector<sinew::Vec3> pos(11);
    must(scene.read_positions(rope, pos), "positions");
    check(pos[5].x == 0.5f && pos[5].y == 0.2f && pos[5].z == 1.1f, "grabbed particle stays where it is driven");
    check(pos[0].x == 0 && pos[0].z == 1 && pos[10].x == 1 && pos[10].z == 1, "pinned ends stay");
    check(pos[3].z < 1.1f, "free particles hang below the grab");
    must(scene.unpin(rope, 5), "release");
    check(!*scene.is_pinned(rope, 5) && !*scene.is_pinned(rope, 4), "released");
    // A compliance change in place keeps the pin state: pin again, change, the pin holds.
    must(scene.pin(rope, 5), "grab again");
    must(scene.set_compliance(rope, sinew::BodyConstraints::Stretch, 1e-5f), "compliance in place");
    for (int f = 0; f < 10; ++f) must(scene.step(1.0f / 60.0f), "step");
    must(scene.read_positions(rope, pos), "positions");
    check(pos[5].x == 0.5f && pos[5].z == 1.1f, "pin holds across a compliance change");
    must(scene.unpin(rope, 5), "release");
    for (int f = 0; f < 30; ++f) must(scene.step(1.0f / 60.0f), "step");
    must(scene.read_positions(rope, pos), "positions");
    check(pos[5].z < 1.05f, "released particle falls back into the taut rope", std::to_string(pos[5].z));
    check(scene.pin(rope, 11).status() == sinew::Status::OutOfRange, "pin out of range rejected");
    for (uint32_t i = 0; i < 11; ++i) must(scene.pin(rope, i), "pin all");
    check(scene.nearest_free_particle(rope, sinew::Vec3{0, 0, 0}).status() == sinew::Status::OutOfRange,
          "no free particle to grab");
    const uint32_t bad_idx[1] = {42};
    check(scene.move_particles(rope, bad_idx, target).status() == sinew::Status::OutOfRange,
          "move out of range rejected");
}

/// A 6 x 6 quad render mesh, welded and built by the library as cloth (distance bending,
/// tethers to the two pinned top corners), hangs without stretching much.
void test_scene_cloth() {
    std::vector<sinew::Vec3> v;
    std::vector<uint32_t> idx;
    split_grid(6, v, idx);
    for (auto& x : v) x = {x.x, 0.0f, x.y}; // vertical sheet in XZ, top at z = 1
    auto lay = must(sinew::cloth::weld(v, idx, 1e-5f), "welded render mesh");
    const std::size_t n = lay.particles.size();
    std::vector<float> inverse_masses(n, 1.0f / 0.01f), free(n, 1.0f / 0.01f);
    for (std::size_t i = 0; i < n; ++i)
        if (lay.particles[i].z == 1.0f && (lay.particles[i].x == 0.0f || lay.particles[i].x == 1.0f))
            inverse_masses[i] = 0.0f;
    sinew::ClothDesc cd;
    cd.with_bending(sinew::BendingModel::Distance, 1e-2f).with_tethers(true);
    cd.stretch_compliance = 0.0f;
    sinew::WorldDesc desc;
    desc.with_gravity(0, -kG, 0).with_substeps(20).with_damping(2.0f);
    auto scene = must(sinew::Scene::create(desc), "scene");
    const sinew::BodyId cloth = must(scene.add_cloth_mesh(cd, lay.particles, lay.triangles, inverse_masses, 0.01f, free),
                                     "cloth");
    std::size_t pinned = 0;
    for (uint32_t i = 0; i < n; ++i) pinned += *scene.is_pinned(cloth, i) == (inverse_masses[i] == 0.0f) ? 0 : 1000;
    for (uint32_t i = 0; i < n; ++i) pinned += inverse_masses[i] == 0.0f ? 1 : 0;
    check(pinned == 2, "the two pinned corners are known", std::to_string(pinned));
    for (int f = 0; f < 120; ++f) must(scene.step(1.0f / 60.0f), "step");
    std::vector<sinew::Vec3> pos(n);
    must(scene.read_positions(cloth, pos), "positions");
    // Edges of the welded mesh, and those shared by two triangles (interior).
    std::map<std::pair<uint32_t, uint32_t>, int> edges;
    for (std::size_t t = 0; t < lay.triangles.size(); t += 3)
        for (int e = 0; e < 3; ++e) {
            uint32_t a = lay.triangles[t + e], b = lay.triangles[t + (e + 1) % 3];
            if (a > b) std::swap(a, b);
            ++edges[{a, b}];
        }
    double worst = 0;
    std::size_t interior = 0;
    for (const auto& [e, count] : edges) {
        const double rest = sinew::vec::distance(lay.particles[e.first], lay.particles[e.second]);
        worst = std::max(worst, std::fabs(sinew::vec::distance(pos[e.first], pos[e.second]) - rest) / rest);
        interior += count == 2 ? 1 : 0;
    }
    check(worst < 0.03, "cloth edges within 3% of rest length", std::to_string(worst));
    double min_y = 0;
    for (auto& x : pos) min_y = std::min<double>(min_y, x.y);
    check(min_y < -0.1, "cloth swung down under gravity (-Y here)", std::to_string(min_y));
    std::vector<float> f;
    must(scene.read_forces(cloth, sinew::BodyConstraints::Stretch, f), "edge forces");
    check(f.size() == edges.size(), "a link per edge", std::to_string(f.size()) + " vs " + std::to_string(edges.size()));
    must(scene.read_forces(cloth, sinew::BodyConstraints::Bend, f), "bend forces");
    check(f.size() == interior, "a distance-bending link per interior edge",
          std::to_string(f.size()) + " vs " + std::to_string(interior));
    must(scene.read_forces(cloth, sinew::BodyConstraints::Tether, f), "tether forces");
    check(f.size() == 2 * (n - 2), "tethers from both pins to every free particle", std::to_string(f.size()));
    check(scene.add_cloth_mesh(cd, lay.particles, lay.triangles, inverse_masses, 0.01f, std::vector<float>(3))
                  .status() == sinew::Status::InvalidArgument,
          "free inverse masses of the wrong size rejected");
}

/// Tearing through the Scene and cloth::torn, as the Unreal cloth component uses them:
/// a 4 x 4 render mesh split at every quad (UV seams everywhere), welded, built with
/// every particle pinned, then stretched by 1.2 along x. One step tears it with a
/// threshold of 1.19 (a stretch ratio) and leaves it whole with 1.21; the torn render
/// mesh keeps every corner on its particle, adds one vertex per (render vertex, new
/// particle) and copies the UV source.
void test_cloth_tearing() {
    for (const float threshold : {1.19f, 1.21f}) {
        std::vector<sinew::Vec3> v;
        std::vector<uint32_t> idx;
        split_grid(4, v, idx);
        auto lay = must(sinew::cloth::weld(v, idx, 1e-5f), "welded render mesh");
        check(lay.render_triangles.size() == lay.triangles.size(), "render corners kept per triangle");
        const std::size_t n = lay.particles.size();
        std::vector<float> pinned(n, 0.0f), free(n, 25.0f);
        auto scene = must(sinew::Scene::create(sinew::WorldDesc()), "scene");
        const sinew::BodyId cloth =
            must(scene.add_cloth_mesh(sinew::ClothDesc(), lay.particles, lay.triangles, pinned, 0.0f, free), "cloth");
        const uint32_t first = must(scene.first_particle(cloth), "first particle");
        std::vector<sinew::Vec3> stretched = lay.particles;
        for (auto& x : stretched) x.x *= 1.2f;
        must(scene.world().write_positions(first, stretched), "stretch");
        check(scene.set_tear_threshold(cloth, 0.5f).status() == sinew::Status::InvalidArgument,
              "a threshold below 1 is refused");
        must(scene.set_tear_threshold(cloth, threshold, 16), "tearing on");
        check(must(scene.topology_version(cloth), "version") == 0, "no split before the step");
        must(scene.step(1.0f / 60.0f), "step");
        const uint64_t version = must(scene.topology_version(cloth), "version");
        const auto topo = must(scene.topology(cloth), "topology");
        check(topo.vertex_particles.size() == n + version, "one render vertex per split");
        auto mesh = must(sinew::cloth::torn(lay, first, topo), "torn render mesh");
        if (threshold > 1.2f) {
            check(version == 0 && mesh.source.empty() && mesh.triangles == lay.render_triangles,
                  "below the threshold nothing tears", std::to_string(version));
            continue;
        }
        check(version > 0, "past the threshold the cloth splits", std::to_string(version));
        check(!mesh.source.empty(), "the render mesh gains vertices");
        const auto base = static_cast<uint32_t>(v.size());
        bool corners = true;
        for (std::size_t i = 0; i < mesh.triangles.size(); ++i) {
            const uint32_t r = mesh.triangles[i];
            const uint32_t p = topo.vertex_particles[topo.triangles[i]];
            const uint32_t mine = r < base ? first + lay.render_to_particle[r] : mesh.particle[r - base];
            corners = corners && mine == p;
            if (r >= base) corners = corners && mesh.source[r - base] == lay.render_triangles[i];
        }
        check(corners, "every render corner sits on the library's particle and copies its own UV");
        auto again = must(sinew::cloth::torn(lay, first, topo, &mesh), "torn again");
        check(again.triangles == mesh.triangles && again.source == mesh.source, "re-reading keeps the new vertices");
    }
}

// Collisions through the wrapper: a ball bouncing on a box collider keeps e² of its
// energy, the contact readback names the box, a ray picks the ball, a grab lifts it,
// and bad input fails with the native message.
void test_collisions() {
    auto w = must(sinew::World::create(), "create world for collisions");
    SinewColliderDesc box = sinew::collider_desc();
    box.shape = SINEW_SHAPE_BOX;
    box.half_extents = SinewVec3{2.0f, 0.05f, 2.0f};
    box.position = SinewVec3{0.0f, -0.05f, 0.0f};
    box.restitution = 0.5f;
    sinew::Collider c = must(w.add_collider(box), "add_collider");
    std::vector<FVector3fLike> p{{0.0f, 1.1f, 0.0f}};
    auto range = must(w.add_particles(p), "add ball");
    const float radius = 0.1f;
    must(w.set_particle_radii(range.first, sinew::Span<const float>(&radius, 1)), "set_particle_radii");
    // Fall 1 m, bounce: the next apex is e² = 0.25 m above the contact height.
    float apex = 0.0f, prev_vy = 0.0f;
    bool bounced = false, contact_seen = false;
    for (int i = 0; i < 120; ++i) {
        must(w.step(1.0f / 60.0f), "step");
        auto contacts = got<SinewContact>([&](auto& o) { return w.read_contacts(o); }, "contacts");
        if (!contacts.empty()) {
            contact_seen = c.is(contacts[0].collider) && contacts[0].particle == range.first &&
                           near(contacts[0].normal.y, 1.0, 1e-5) && contacts[0].impulse > 0.0f;
            bounced = true;
        }
        auto v = got([&](auto& o) { return w.read_velocities(range, o); }, "velocities");
        auto x = got([&](auto& o) { return w.read_positions(range, o); }, "positions");
        if (bounced && prev_vy > 0.0f && v[0].y <= 0.0f) {
            apex = x[0].y - radius + v[0].y * v[0].y / (2.0f * kG);
            break;
        }
        prev_vy = v[0].y;
    }
    check(contact_seen, "contact readback names the box, +Y and an impulse");
    check(near(apex, 0.25, 0.0125), "bounce keeps e^2 of the energy", fmt(apex, 0.25));

    auto pick = must(w.pick_particle(SinewVec3{0.0f, 0.2f, -3.0f}, SinewVec3{0.0f, 0.0f, 1.0f}, 1.0f), "pick");
    check(pick.hit() && pick.particle == range.first, "ray picks the ball");
    auto miss = must(w.pick_particle(SinewVec3{5.0f, 5.0f, 5.0f}, SinewVec3{1.0f, 0.0f, 0.0f}, 0.1f), "pick miss");
    check(!miss.hit() && miss.distance == -1.0f, "a missing ray reports no particle");
    must(w.grab_particle(range.first, SinewVec3{0.0f, 1.0f, 0.0f}, 0.0f), "grab");
    for (int i = 0; i < 30; ++i) must(w.step(1.0f / 60.0f), "step grabbed");
    auto x = got([&](auto& o) { return w.read_positions(range, o); }, "positions grabbed");
    check(near(x[0].y, 1.0, 1e-3), "grabbed ball held at the target", fmt(x[0].y, 1.0));
    must(w.release_particle(range.first), "release");

    SinewQuat bad{0.0f, 0.0f, 0.0f, 2.0f};
    auto r = c.set_transform(SinewVec3{0.0f, 0.0f, 0.0f}, bad);
    check(!r && r.status() == sinew::Status::InvalidArgument &&
              r.error().message.find("unit quaternion") != std::string::npos,
          "non-unit rotation refused with the native message", r ? "" : r.error().message);
    const SinewCollider raw = c.handle();
    must(c.remove(), "remove");
    check(w.remove_collider(raw).status() == sinew::Status::InvalidHandle, "removed collider handle refused");
}

// --- bodies, families, attachments (the issue-4 ABI) --------------------------------

sinew::World make_world(float gravity, uint32_t substeps, float damping = 0.0f) {
    return must(sinew::World::create(sinew::WorldDesc()
                                         .with_gravity(0, -gravity, 0)
                                         .with_substeps(substeps)
                                         .with_damping(damping)
                                         .with_threads(1)),
                "World::create");
}

float dist(sinew::Vec3 a, sinew::Vec3 b) {
    const float dx = a.x - b.x, dy = a.y - b.y, dz = a.z - b.z;
    return std::sqrt(dx * dx + dy * dy + dz * dz);
}

double signed_volume(sinew::Vec3 a, sinew::Vec3 b, sinew::Vec3 c, sinew::Vec3 d) {
    const double bx = b.x - a.x, by = b.y - a.y, bz = b.z - a.z;
    const double cx = c.x - a.x, cy = c.y - a.y, cz = c.z - a.z;
    const double dx = d.x - a.x, dy = d.y - a.y, dz = d.z - a.z;
    return (bx * (cy * dz - cz * dy) - by * (cx * dz - cz * dx) + bz * (cx * dy - cy * dx)) / 6.0;
}

// The 8 corners of a unit cube (index x + 2y + 4z) and its 12 outward triangles.
void unit_cube(std::vector<sinew::Vec3>& v, std::vector<uint32_t>& t) {
    v.clear();
    for (uint32_t i = 0; i < 8; ++i)
        v.push_back(sinew::Vec3{float(i & 1), float((i >> 1) & 1), float(i >> 2)});
    t = {0, 2, 1, 1, 2, 3, 4, 5, 6, 5, 7, 6, 0, 1, 4, 1, 5, 4, 2, 6, 3, 3, 6, 7, 0, 4, 2, 2, 4, 6, 1, 3, 5, 3, 7, 5};
}

// A 1 kg rope body hanging from an attachment host: length 1 m and the force on the host
// is its whole weight; RAII removal, release, remove twice, setters.
void test_body_rope_and_raii() {
    sinew::World w = make_world(kG, 16);
    sinew::RopeDesc desc;
    desc.with_ends({0, 2, 0}, {1, 2, 0}).with_pins(false, false).with_tethers(false).with_damping(1.0f);
    desc.radius = 0.02f;
    sinew::Body rope = must(w.add_rope(desc), "add_rope");
    const sinew::Range range = must(rope.particles(), "Body::particles");
    check(range.first == 0 && range.count == 21, "rope body: 21 particles from 0");
    check(must(rope.kind(), "kind") == sinew::BodyKind::Rope, "rope body: kind");
    check(must(rope.info(), "info").radius == 0.02f, "rope body: radius from the desc");
    const uint32_t host = must(w.add_attachment_host(sinew::make_transform({0, 2, 0})), "host");
    const uint32_t top[] = {0};
    const sinew::Range att = must(w.add_attachments(host, top, 0.0f), "add_attachments");
    check(att.first == 0 && att.count == 1, "attachment range");
    for (int i = 0; i < 600; ++i) must(w.step(1.0f / 60.0f), "step");
    std::vector<FVector3fLike> p(21);
    must(rope.read_positions(p), "Body::read_positions into FVector3f-like");
    float length = 0;
    for (size_t i = 1; i < p.size(); ++i)
        length += dist({p[i].X, p[i].Y, p[i].Z}, {p[i - 1].X, p[i - 1].Y, p[i - 1].Z});
    check(near(length, 1.0, 0.01), "rope body: inextensible", fmt(length, 1.0));
    const auto f = got([&](auto& o) { return w.read_attachment_forces(att, o); }, "attachment_forces");
    check(near(f[0].y, -kG, 0.01 * kG), "rope body: top tension = its weight (N)", fmt(f[0].y, -kG));
    must(rope.set_compliance(sinew::BodyConstraints::Stretch, 1e-3f), "set_compliance");
    must(rope.set_compliance(sinew::BodyConstraints::Bend, 1e6f), "set_compliance bend");
    for (int i = 0; i < 600; ++i) must(w.step(1.0f / 60.0f), "step");
    auto q = got([&](auto& o) { return rope.read_positions(o); }, "Body::positions");
    {
        // One convention for vectors: a body's read resizes the vector to the body
        // (an empty one is fine) and reuses it afterwards without reallocating.
        std::vector<sinew::Vec3> reused;
        must(rope.read_positions(reused), "Body::read_positions into an empty vector");
        check(reused.size() == q.size() && reused[q.size() - 1].y == q[q.size() - 1].y,
              "read_positions resizes an empty vector to the body");
        const sinew::Vec3* data = reused.data();
        must(rope.read_interpolated_positions(0.5f, reused), "read_interpolated_positions reused");
        std::vector<float> tensions;
        must(rope.read_forces(sinew::BodyConstraints::Stretch, tensions), "read_forces");
        const float* tdata = tensions.data();
        must(rope.read_forces(sinew::BodyConstraints::Stretch, tensions), "read_forces again");
        check(reused.data() == data && tensions.data() == tdata, "reused vectors are not reallocated");
    }
    float soft = 0;
    for (size_t i = 1; i < q.size(); ++i) soft += dist(q[i], q[i - 1]);
    const double expected = 1.0 + 1e-3 * kG * (1.0 / 21.0) * 210.0;
    check(near(soft, expected, 0.1 * (expected - 1.0)), "rope body: stretch under its own weight", fmt(soft, expected));
    check(rope.set_damping(-1.0f).status() == sinew::Status::InvalidArgument, "negative damping refused");
    // Level of detail: set and read back; bad modes and rates refused, nothing changed.
    must(rope.set_sim_mode(SINEW_SIM_REDUCED, 4), "set_sim_mode reduced");
    auto lod = must(rope.sim_mode(), "sim_mode");
    check(lod.mode == SINEW_SIM_REDUCED && lod.every == 4, "sim mode reads back");
    check(rope.set_sim_mode(SINEW_SIM_REDUCED, 0).status() == sinew::Status::OutOfRange, "rate 0 refused");
    check(rope.set_sim_mode(static_cast<SinewSimMode>(9)).status() == sinew::Status::InvalidArgument,
          "unknown mode refused");
    check(must(rope.sim_mode(), "sim_mode").every == 4, "refused modes change nothing");
    must(rope.set_sim_mode(SINEW_SIM_PAUSED), "pause");
    must(w.step(1.0f / 60.0f), "step paused");
    must(rope.set_sim_mode(SINEW_SIM_FULL), "resume");
    check(must(rope.sim_mode(), "sim_mode").mode == SINEW_SIM_FULL, "resumed");
    check(rope.set_pressure(1.2f).status() == sinew::Status::InvalidArgument, "pressure on a rope refused");
    check(rope.volume().status() == sinew::Status::InvalidArgument, "volume of a rope refused");
    std::vector<sinew::Vec3> small(20);
    check(rope.read_positions(sinew::Span<sinew::Vec3>(small)).status() == sinew::Status::OutOfRange,
          "read into too few elements");

    // RAII: a Body removes its body when it goes out of scope; release() keeps it.
    check(must(w.body_count(), "body_count") == 1, "one body");
    {
        sinew::Body scoped = must(w.add_rope(sinew::RopeDesc()), "add_rope");
        check(must(w.body_count(), "body_count") == 2, "two bodies");
        sinew::Body moved = std::move(scoped);
        check(!scoped.valid() && moved.valid(), "moved-from Body is empty");
    }
    check(must(w.body_count(), "body_count") == 1, "the scoped body was removed by its destructor");
    SinewBody kept{0};
    {
        sinew::Body b = must(w.add_rope(sinew::RopeDesc()), "add_rope");
        kept = b.release();
    }
    check(must(w.body_count(), "body_count") == 2, "a released body stays");
    sinew::Body again(w.handle(), kept);
    must(again.remove(), "Body::remove");
    check(!again.valid(), "a removed Body is empty");
    sinew::Body stale(w.handle(), kept);
    auto twice = stale.remove();
    check(twice.status() == sinew::Status::InvalidHandle, "removing twice: invalid handle", twice.error().message);
    check(stale.particles().status() == sinew::Status::InvalidHandle, "calls on a removed body fail");
    (void)stale.release();
    rope.reset();
    check(must(w.body_count(), "body_count") == 0, "reset removed the rope");
    sinew::Body orphan = must(w.add_rope(sinew::RopeDesc()), "add_rope");
    w.reset();
    check(orphan.particles().status() == sinew::Status::InvalidHandle, "a body of a destroyed world fails");
    // ~orphan after its world: harmless (generation-checked handles).
}

void test_soft_bodies_and_cloth() {
    {
        // Tet cube 2×2×2 cells, 0.5 m: rest volume 0.125 m³, squashed to 70%, recovers.
        sinew::World w = make_world(0.0f, 10);
        const uint32_t n = 2, c = n + 1;
        std::vector<sinew::Vec3> v;
        for (uint32_t k = 0; k < c; ++k)
            for (uint32_t j = 0; j < c; ++j)
                for (uint32_t i = 0; i < c; ++i)
                    v.push_back(sinew::Vec3{0.25f * float(i), 0.25f * float(j), 0.25f * float(k)});
        std::vector<uint32_t> tets;
        const uint32_t fan[6][2] = {{1, 3}, {3, 2}, {2, 6}, {6, 4}, {4, 5}, {5, 1}};
        for (uint32_t k = 0; k < n; ++k)
            for (uint32_t j = 0; j < n; ++j)
                for (uint32_t i = 0; i < n; ++i) {
                    auto corner = [&](uint32_t b) {
                        return (i + (b & 1)) + c * ((j + ((b >> 1) & 1)) + c * (k + (b >> 2)));
                    };
                    for (auto& ab : fan) {
                        uint32_t t[4] = {corner(0), corner(ab[0]), corner(ab[1]), corner(7)};
                        if (signed_volume(v[t[0]], v[t[1]], v[t[2]], v[t[3]]) < 0) std::swap(t[1], t[2]);
                        tets.insert(tets.end(), t, t + 4);
                    }
                }
        sinew::Body b = must(w.add_tet_body(sinew::TetBodyDesc().with_damping(3.0f), v, tets), "add_tet_body");
        const float v0 = must(b.volume(), "volume");
        check(near(v0, 0.125, 1e-5), "tet body: rest volume", fmt(v0, 0.125));
        auto p = got([&](auto& o) { return b.read_positions(o); }, "positions");
        for (auto& x : p) x.y *= 0.7f;
        must(w.write_positions(0, p), "squash");
        for (int i = 0; i < 120; ++i) must(w.step(1.0f / 60.0f), "step");
        const float end = must(b.volume(), "volume") / v0;
        check(end >= 0.95f, "tet body: recovers 95% of its volume in 2 s", fmt(end, 1.0));
        const std::vector<uint32_t> inverted = {0, 3, 1, 9};
        check(w.add_tet_body(sinew::TetBodyDesc(), v, inverted).status() == sinew::Status::InvalidArgument,
              "an inverted tet is refused");
        check(w.add_tet_body(sinew::TetBodyDesc(), v, std::vector<uint32_t>{0, 1, 2}).status() ==
                  sinew::Status::InvalidArgument,
              "tet indices not a multiple of 4 (local check)");
        check(must(w.body_count(), "count") == 1, "refused bodies add nothing");
    }
    {
        sinew::World w = make_world(0.0f, 10, 5.0f);
        std::vector<sinew::Vec3> v;
        std::vector<uint32_t> t;
        unit_cube(v, t);
        sinew::Body b = must(w.add_pressure_body(sinew::PressureBodyDesc(), v, t), "add_pressure_body");
        check(must(b.kind(), "kind") == sinew::BodyKind::PressureSoftBody, "pressure body: kind");
        check(near(must(b.volume(), "volume"), 1.0, 1e-5), "pressure body: unit cube volume");
        for (auto& x : v) x.y *= 0.5f;
        must(w.write_positions(0, v), "squash");
        for (int i = 0; i < 120; ++i) must(w.step(1.0f / 60.0f), "step");
        const float vol = must(b.volume(), "volume");
        check(near(vol, 1.0, 0.02), "pressure body: volume recovered", fmt(vol, 1.0));
        must(b.set_pressure(1.2f), "set_pressure");
        check(b.set_pressure(0.0f).status() == sinew::Status::InvalidArgument, "pressure 0 refused");
        t[5] = 8;
        check(w.add_pressure_body(sinew::PressureBodyDesc(), v, t).status() == sinew::Status::OutOfRange,
              "pressure body: vertex index out of range");
    }
    {
        // 20 × 20 cloth hanging from two corners with tethers: every edge within 2%.
        sinew::World w = make_world(kG, 20);
        sinew::ClothGridDesc grid;
        grid.with_frame({0, 2, 0}, {1, 0, 0}, {0, 0, 1}).with_mass(0.2f).with_pinned_corners(
            sinew::ClothGridDesc::corner_origin | sinew::ClothGridDesc::corner_u);
        sinew::Body cloth = must(w.add_cloth_grid(sinew::ClothDesc(), grid), "add_cloth_grid");
        std::vector<sinew::Vec3> p(441);
        float worst = 0;
        for (int s = 0; s < 300; ++s) {
            must(w.step(1.0f / 60.0f), "step");
            must(cloth.read_positions(p), "read");
            for (uint32_t j = 0; j <= 20; ++j)
                for (uint32_t i = 0; i <= 20; ++i) {
                    const uint32_t k = j * 21 + i;
                    if (i < 20) worst = std::max(worst, dist(p[k], p[k + 1]) / 0.05f - 1.0f);
                    if (j < 20) worst = std::max(worst, dist(p[k], p[k + 21]) / 0.05f - 1.0f);
                }
        }
        check(worst < 0.02f, "tethered cloth: max edge stretch below 2%", fmt(worst, 0.02));
        // A vertex buffer of 24-byte vertices (position then normal), strided read.
        struct Vertex {
            float px, py, pz, nx, ny, nz;
        };
        std::vector<Vertex> vb(441, Vertex{0, 0, 0, 0, 1, 0});
        must(cloth.read_positions_strided(vb.data(), 441, sizeof(Vertex)), "read_positions_strided");
        check(vb[440].px == p[440].x && vb[440].ny == 1.0f, "strided read keeps the normals");
        // Mesh cloth: a quad from two triangles, top edge pinned.
        const sinew::Vec3 quad[] = {{0, 1, 0}, {1, 1, 0}, {0, 0, 0}, {1, 0, 0}};
        const uint32_t tris[] = {0, 2, 1, 1, 2, 3};
        const float masses[] = {0, 0, 2, 2};
        const sinew::Span<const sinew::Vec3> quad_span(quad);
        sinew::Body mesh =
            must(w.add_cloth_mesh(sinew::ClothDesc().with_tethers(false), quad_span, tris, masses), "add_cloth_mesh");
        check(must(mesh.particles(), "particles").first == 441, "mesh cloth after the grid");
        const uint32_t bad[] = {0, 1, 1};
        check(w.add_cloth_mesh(sinew::ClothDesc(), sinew::Span<const sinew::Vec3>(quad), bad, masses).status() ==
                  sinew::Status::InvalidArgument,
              "a triangle repeating a vertex is refused");
        const sinew::Vec3 line[] = {{0, 3, 0}, {0.5f, 3, 0}, {0.5f, 2.5f, 0}};
        sinew::Body poly =
            must(w.add_rope_polyline(sinew::RopeDesc(), sinew::Span<const sinew::Vec3>(line)), "polyline");
        auto lp = got([&](auto& o) { return poly.read_positions(o); }, "polyline positions");
        check(lp.size() == 3 && lp[2].y == 2.5f, "polyline rope: one particle per point");
    }
}

void test_families_and_attachments() {
    {
        // Tether: slack then holding 0.5 kg at its max length with tension m g.
        sinew::World w = make_world(kG, 20, 2.0f);
        must(w.add_particles(std::vector<sinew::Vec3>{{0, 0, 0}, {0, -0.2f, 0}}, std::vector<float>{0, 2}),
             "particles");
        const uint32_t pair[] = {0, 1};
        const float max_len[] = {1.0f};
        const sinew::Range t = must(w.add_tethers(pair, max_len, 0.0f), "add_tethers");
        check(t.first == 0 && t.count == 1, "tether range");
        must(w.step(0.1f), "step");
        check(got<float>([&](auto& o) { return w.read_family_forces(sinew::Family::Tether, t, o); }, "family_forces")[0] == 0.0f, "slack tether: no force");
        for (int i = 0; i < 300; ++i) must(w.step(1.0f / 60.0f), "step");
        const auto p = got([&](auto& o) { return w.read_positions(sinew::Range{1, 1}, o); }, "positions");
        const auto f = got<float>([&](auto& o) { return w.read_family_forces(sinew::Family::Tether, t, o); }, "family_forces");
        check(near(-p[0].y, 1.0, 1e-3), "tether: hangs at its max length", fmt(-p[0].y, 1.0));
        check(near(f[0], 0.5 * kG, 0.01 * 0.5 * kG), "tether: tension m g", fmt(f[0], 0.5 * kG));
        const uint32_t odd[] = {0, 1, 1};
        check(w.add_tethers(odd, {}, 0.0f).status() == sinew::Status::InvalidArgument, "odd tether list (local)");
        check(must(w.family_constraint_count(sinew::Family::Tether), "count") == 1, "refused tethers add nothing");
        float two[2];
        check(w.read_family_forces(sinew::Family::Tether, 0, two).status() == sinew::Status::OutOfRange,
              "force readback past the end");
    }
    {
        // Closed unit cube with overpressure 1.5 inflates to 1.5 m³.
        sinew::World w = make_world(0.0f, 10, 5.0f);
        std::vector<sinew::Vec3> v;
        std::vector<uint32_t> t;
        unit_cube(v, t);
        must(w.add_particles(v), "particles");
        const uint32_t id = must(w.add_pressure_volume(t, 1.5f, 0.0f), "add_pressure_volume");
        for (int i = 0; i < 60; ++i) must(w.step(1.0f / 60.0f), "step");
        const float vol = must(w.pressure_volume(id), "pressure_volume");
        check(near(vol, 1.5, 0.015), "pressure volume: 1.5 × rest", fmt(vol, 1.5));
        // Tet volume, strain, unilateral volume and shape matching on a unit tet.
        const std::vector<sinew::Vec3> unit_tet{{5, 0, 0}, {6, 0, 0}, {5, 1, 0}, {5, 0, 1}};
        const uint32_t base = must(w.add_particles(unit_tet), "tet particles").first;
        const uint32_t tet[] = {base, base + 1, base + 2, base + 3};
        must(w.add_tet_volumes(tet, {}, 0.0f), "add_tet_volumes");
        const sinew::Range strain = must(w.add_tet_strain(tet, 0, 0, 0, 0), "add_tet_strain");
        check(strain.count == 6, "six strain constraints per tet");
        must(w.add_unilateral_volumes(tet, {}, 0.0f), "add_unilateral_volumes");
        const uint32_t cluster = must(w.add_shape_cluster(tet, 1.0f), "add_shape_cluster");
        must(w.set_shape_cluster_stiffness(cluster, 0.5f), "set_shape_cluster_stiffness");
        check(w.set_shape_cluster_stiffness(cluster, 2.0f).status() == sinew::Status::InvalidArgument,
              "stiffness 2 refused");
        must(w.write_positions(base + 2, std::vector<sinew::Vec3>{{5, 0.5f, 0}}), "squash");
        for (int i = 0; i < 30; ++i) must(w.step(1.0f / 60.0f), "step");
        const auto q = got([&](auto& o) { return w.read_positions(sinew::Range{base, 4}, o); }, "tet positions");
        const double tv = signed_volume(q[0], q[1], q[2], q[3]);
        check(near(tv, 1.0 / 6.0, 0.01 / 6.0), "tet volume recovered", fmt(tv, 1.0 / 6.0));
        const uint32_t tri[] = {0, 1, 2};
        check(must(w.add_triangle_strain(tri, 0, 0, 0), "add_triangle_strain").count == 3, "three per triangle");
        const uint32_t hinge[] = {0, 1, 2, 4};
        must(w.add_isometric_bending(hinge, 1.0f), "add_isometric_bending");
        const float rest[] = {0.0f};
        must(w.add_dihedral_bending(hinge, rest, 1.0f), "add_dihedral_bending");
        check(must(w.family_constraint_count(sinew::Family::DihedralBending), "count") == 1, "dihedral count");
    }
    {
        // Planar world, unilateral area and a ring at pressure 1.5.
        sinew::World w = make_world(0.0f, 10, 5.0f);
        std::vector<sinew::Vec3> ring;
        std::vector<uint32_t> ids;
        for (uint32_t i = 0; i < 16; ++i) {
            const double th = 2.0 * 3.14159265358979323846 * i / 16.0;
            ring.push_back(sinew::Vec3{0.5f * float(std::cos(th)), 0.5f * float(std::sin(th)), 0.3f});
            ids.push_back(i);
        }
        must(w.add_particles(ring), "ring particles");
        must(w.set_planar(true, 0.0f), "set_planar");
        const auto moved = got([&](auto& o) { return w.read_positions(sinew::Range{0, 1}, o); }, "positions");
        check(moved[0].z == 0.0f, "planar: moved onto z = 0");
        const uint32_t id = must(w.add_ring_area(ids, 1.5f, 0.0f), "add_ring_area");
        const double a0 = 0.5 * 16 * 0.25 * std::sin(2.0 * 3.14159265358979323846 / 16.0);
        for (int i = 0; i < 60; ++i) must(w.step(1.0f / 60.0f), "step");
        const float area = must(w.ring_area(id), "ring_area");
        check(near(area, 1.5 * a0, 0.01 * 1.5 * a0), "ring area: 1.5 × rest", fmt(area, 1.5 * a0));
        const uint32_t tri[] = {0, 4, 8};
        must(w.add_unilateral_areas(tri, {}, 0.0f), "add_unilateral_areas");
        check(w.ring_area(id + 1).status() == sinew::Status::OutOfRange, "unknown ring id");
    }
    {
        // Attachments: a soft one sags α m g; a pinned one follows a moving host.
        const float alpha = 0.01f;
        sinew::World w = make_world(kG, 10, 4.0f);
        must(w.add_particles(std::vector<sinew::Vec3>{{0, 0, 0}, {1, 0, 0}}, std::vector<float>{2, 1}), "particles");
        const uint32_t h0 = must(w.add_attachment_host(sinew::make_transform({0, 0, 0})), "host 0");
        const uint32_t h1 = must(w.add_attachment_host(sinew::make_transform({0, 0, 0})), "host 1");
        check(h0 == 0 && h1 == 1, "hosts numbered 0, 1");
        const uint32_t first[] = {0}, second[] = {1};
        const sinew::Range soft = must(w.add_attachments(h0, first, alpha), "soft attachment");
        const FVector3fLike offset[] = {{0, 0, 0.5f}};
        const sinew::Range pin =
            must(w.add_attachments(h1, second, sinew::Span<const FVector3fLike>(offset), 0.0f), "pinned attachment");
        check(pin.first == 1, "attachment ids consecutive");
        for (int k = 1; k <= 300; ++k) {
            const float s = 0.5f * 0.01f * float(k);
            const sinew::Quat rot{std::sin(s), 0, 0, std::cos(s)}; // 0.01·k rad about x
            must(w.set_attachment_host_transform(h1, sinew::make_transform({0.01f * float(k), 0, 0}, rot)), "move");
            must(w.step(1.0f / 60.0f), "step");
        }
        const auto p = got([&](auto& o) { return w.read_positions(sinew::Range{0, 2}, o); }, "positions");
        const float ang = 3.0f;
        const sinew::Vec3 target{3.0f, -0.5f * std::sin(ang), 0.5f * std::cos(ang)};
        check(dist(p[1], target) < 1e-4f, "pinned particle on the host's target", fmt(dist(p[1], target), 0));
        check(near(-p[0].y, alpha * 0.5 * kG, 0.01 * alpha * 0.5 * kG), "soft attachment sags α m g",
              fmt(-p[0].y, alpha * 0.5 * kG));
        std::vector<GlmVec3Like> f(1);
        must(w.read_attachment_forces(soft, f), "read_attachment_forces");
        check(near(f[0].y, -0.5 * kG, 0.01 * 0.5 * kG), "host feels −m g", fmt(f[0].y, -0.5 * kG));
        must(w.set_attachment_compliance(soft, 0.0f), "set_attachment_compliance");
        check(w.set_attachment_compliance(sinew::Range{0, 3}, 0.0f).status() == sinew::Status::OutOfRange,
              "compliance of unknown attachments");
        check(w.set_attachment_host_transform(7, sinew::make_transform({0, 0, 0})).status() ==
                  sinew::Status::OutOfRange,
              "unknown host");
        check(w.set_attachment_host_transform(h0, sinew::make_transform({0, 0, 0}, sinew::Quat{0, 0, 0, 0})).status() ==
                  sinew::Status::InvalidArgument,
              "zero quaternion refused");
        const FVector3fLike two[] = {{0, 0, 0}, {0, 0, 0}};
        check(w.add_attachments(h0, first, sinew::Span<const FVector3fLike>(two), 0.0f).status() ==
                  sinew::Status::InvalidArgument,
              "offset count mismatch (local)");
    }
    check(sinew::material::rubber == 1.0e-6f && sinew::material::concrete == 0.04e-9f &&
              sinew::material::fat == 1.0e-3f,
          "material presets as floats");
}

} // namespace

void test_wind_and_skinning() {
    {
        // A flat 1 m² cloth of 0.1 kg, C_d 1, falls at sqrt(2 m g / (rho C_d A)).
        sinew::World w = make_world(kG, 16);
        sinew::ClothGridDesc grid;
        grid.with_frame({-0.5f, 10, -0.5f}, {1, 0, 0}, {0, 0, 1}).with_segments(4, 4).with_mass(0.1f);
        sinew::ClothDesc cloth;
        cloth.bend_compliance = 0.0f;
        cloth.shear_compliance = 0.0f;
        sinew::Body c = must(w.add_cloth_grid(cloth, grid), "add_cloth_grid");
        must(c.set_aerodynamics(1.0f, 0.0f), "set_aerodynamics");
        for (int i = 0; i < 120; ++i) must(w.step(1.0f / 60.0f), "step");
        std::vector<sinew::Vec3> v(25);
        must(w.read_velocities(0, sinew::Span<sinew::Vec3>(v)), "velocities");
        double vy = 0;
        for (auto& x : v) vy += x.y / 25.0;
        const double expected = std::sqrt(2 * 0.1 * 9.81 / 1.225);
        check(near(-vy, expected, 0.01 * expected), "cloth terminal speed", fmt(float(-vy), expected));
        check(c.set_aerodynamics(-1.0f, 0.0f).status() == sinew::Status::InvalidArgument, "negative drag refused");
        SinewWindZoneDesc zone = sinew::World::wind_zone_defaults();
        zone.shape = SINEW_WIND_ZONE_SPHERE;
        zone.radius = 2.0f;
        zone.strength = 4.0f;
        const uint32_t id = must(w.add_wind_zone(zone), "add_wind_zone");
        SinewWindDesc air = sinew::World::wind_defaults();
        air.velocity = sinew::Vec3{0, 0, 1};
        must(w.set_wind(air), "set_wind");
        const sinew::Vec3 u = must(w.wind_at(sinew::Vec3{0.5f, 0, 0}), "wind_at");
        check(u.x == 4.0f && u.z == 1.0f, "zone + world wind", fmt(u.x, 4.0));
        must(w.remove_wind_zone(id), "remove_wind_zone");
        check(w.remove_wind_zone(id).status() == sinew::Status::InvalidArgument, "removed zone");
    }
    {
        // Max distance 0.2 m: a skinned patch hangs 0.2 m below its targets.
        sinew::World w = make_world(kG, 8, 2.0f);
        sinew::ClothGridDesc grid;
        grid.with_frame({0, 1, 0}, {0.4f, 0, 0}, {0, 0, 0.4f}).with_segments(2, 2).with_mass(0.9f);
        sinew::Body c = must(w.add_cloth_grid(sinew::ClothDesc(), grid), "add_cloth_grid");
        std::vector<sinew::Vec3> rest = got([&](auto& o) { return c.read_positions(o); }, "positions");
        std::vector<SinewSkinWeights> weights(rest.size(), sinew::Body::no_skinning());
        for (auto& x : weights) x.max_distance = 0.2f;
        must(c.set_skin_weights(weights), "set_skin_weights");
        std::vector<sinew::Vec3> up(rest.size(), sinew::Vec3{0, 1, 0});
        must(c.set_skin_targets(sinew::Span<const sinew::Vec3>(rest), sinew::Span<const sinew::Vec3>(up)),
             "set_skin_targets");
        must(c.set_skin_root(sinew::Transform{{0, 0, 0}, {0, 0, 0, 1}}, 0.5f, 0.5f), "set_skin_root");
        for (int i = 0; i < 240; ++i) must(w.step(1.0f / 60.0f), "step");
        std::vector<sinew::Vec3> p = got([&](auto& o) { return c.read_positions(o); }, "positions");
        check(near(rest[4].y - p[4].y, 0.2, 1e-5), "max distance: r below the target", fmt(rest[4].y - p[4].y, 0.2));
        must(c.teleport_to_skin(), "teleport_to_skin");
        p = got([&](auto& o) { return c.read_positions(o); }, "positions");
        check(p[4].y == rest[4].y, "teleport lands on the target", fmt(p[4].y, rest[4].y));
        weights[0].backstop_radius = -1.0f;
        check(c.set_skin_weights(weights).status() == sinew::Status::InvalidArgument, "negative backstop refused");
    }
}

// Granular materials: a grain on a pinned grain, the contact 20° from the vertical, holds
// with static friction 0.6 and slides off without; the material reads back; dynamic above
// static friction is refused.
void test_granular() {
    const float r = 0.01f, tilt = 20.0f * 3.14159265f / 180.0f;
    auto moved = [&](const sinew::ParticleMaterial& m) {
        sinew::World w = make_world(kG, 16);
        std::vector<sinew::Vec3> at = {{0, 0, 0}, {2 * r * std::sin(tilt), 2 * r * std::cos(tilt), 0}};
        std::vector<float> inv = {0.0f, 100.0f}, radii = {r, r};
        const sinew::Range g = must(w.add_particles(sinew::Span<const sinew::Vec3>(at), sinew::Span<const float>(inv)),
                                    "add_particles");
        must(w.set_particle_radii(g.first, sinew::Span<const float>(radii)), "set_particle_radii");
        must(w.set_particle_material(g.first, 2, m), "set_particle_material");
        for (int i = 0; i < 60; ++i) must(w.step(1.0f / 60.0f), "step");
        std::vector<sinew::Vec3> p;
        must(w.read_positions(g, p), "read_positions");
        const SinewParticleMaterial back = must(w.particle_material(g.first + 1), "particle_material");
        check(back.static_friction == m.static_friction, "material reads back");
        return std::hypot(p[1].x - at[1].x, p[1].y - at[1].y);
    };
    const double held = moved(sinew::ParticleMaterial().with_static_friction(0.6f).with_dynamic_friction(0.5f));
    check(held < 1e-4, "static friction 0.6 holds at 20 degrees", fmt(float(held), 0.0));
    check(moved(sinew::ParticleMaterial()) > 0.01, "frictionless, the grain slides off");
    sinew::World w = make_world(kG, 8);
    std::vector<sinew::Vec3> one = {{0, 1, 0}};
    must(w.add_particles(sinew::Span<const sinew::Vec3>(one)), "add_particles");
    const auto bad = sinew::ParticleMaterial().with_static_friction(0.2f).with_dynamic_friction(0.5f);
    check(w.set_particle_material(0, 1, bad).status() == sinew::Status::InvalidArgument,
          "dynamic above static friction refused");
    // A grain emitter: 20 grains of 1 cm from a point nozzle, then its budget stops it.
    sinew::World p = make_world(kG, 8);
    SinewEmitterDesc stream = sinew_emitter_desc_default();
    stream.radius = 0.0f;
    stream.speed = 1.0f;
    stream.rate = 40.0f;
    const auto grains = sinew::GrainEmitterDesc().with_budget(20).with_grain_radius(0.01f);
    const SinewGrainEmitter pour = must(
        p.add_grain_emitter(grains, stream, sinew::ParticleMaterial().with_static_friction(0.6f)),
        "add_grain_emitter");
    for (int i = 0; i < 60; ++i) must(p.step(1.0f / 60.0f), "step");
    const SinewGrainEmitterStats s = must(p.grain_emitter_stats(pour), "grain_emitter_stats");
    check(s.emitted == 20 && s.budget == 20, "the grain emitter stops at its budget");
    check(must(p.particle_material(s.first + 19), "particle_material").static_friction == 0.6f,
          "the grains have the material");
    must(p.remove_grain_emitter(pour), "remove_grain_emitter");
    check(p.grain_emitter_stats(pour).status() == sinew::Status::InvalidHandle, "a removed emitter is refused");
}

// In-place edits, breaking, cutting and winches through the wrapper.
void test_edits_breaks_cuts_and_winches() {
    sinew::World w = make_world(kG, 32, 2.0f);
    // A pendulum on one distance constraint: new rest length, then removal.
    const sinew::Vec3 pts[] = {{0, 0, 0}, {0, -1, 0}};
    const float inv[] = {0.0f, 1.0f};
    must(w.add_particles(sinew::Span<const sinew::Vec3>(pts), sinew::Span<const float>(inv)), "add_particles");
    const uint32_t pair[] = {0, 1};
    must(w.add_distance_constraints(pair, {}, 0.0f), "add_distance_constraints");
    const float half[] = {0.5f};
    must(w.set_constraint_rest(sinew::Family::Distance, 0, half), "set_constraint_rest");
    float rest[1] = {0};
    must(w.read_constraint_rest(sinew::Family::Distance, 0, rest), "read_constraint_rest");
    check(rest[0] == 0.5f, "rest length read back");
    const float nan_rest[] = {std::nanf("")};
    check(w.set_constraint_rest(sinew::Family::Distance, 0, nan_rest).status() == sinew::Status::InvalidArgument,
          "NaN rest refused");
    for (int i = 0; i < 240; ++i) must(w.step(1.0f / 60.0f), "step");
    auto p = got([&](auto& o) { return w.read_positions(sinew::Range{0, 2}, o); }, "positions");
    check(near(dist(p[0], p[1]), 0.5, 2e-3), "pendulum at the new rest length", fmt(dist(p[0], p[1]), 0.5));
    must(w.remove_constraints(sinew::Family::Distance, 0, 1), "remove_constraints");
    check(must(w.constraint_removed(sinew::Family::Distance, 0), "constraint_removed"), "removed reads back");
    check(w.remove_constraints(sinew::Family::Distance, 0, 1).status() == sinew::Status::InvalidArgument,
          "removing twice refused");

    // A rope that snaps under a weight above its break force.
    sinew::RopeDesc desc;
    desc.with_ends({2, 0, 0}, {2, -1, 0}).with_tethers(false);
    desc.segments = 10;
    sinew::Body rope = must(w.add_rope(desc), "add_rope");
    const sinew::Range r = must(rope.particles(), "particles");
    const float heavy[] = {1.0f / 10.0f};
    must(w.set_inverse_masses(r.first + r.count - 1, heavy), "heavy end");
    must(rope.set_break_force(50.0f), "set_break_force");
    std::vector<sinew::BreakEvent> events;
    uint64_t lost = 1;
    for (int i = 0; i < 30 && events.empty(); ++i) {
        must(w.step(1.0f / 60.0f), "step");
        lost = must(w.take_break_events(events), "take_break_events");
    }
    check(!events.empty() && lost == 0, "a 10 kg load snaps a 50 N rope");
    if (!events.empty())
        check(events[0].body.id == rope.handle().id && events[0].force > 50.0f, "event names the rope and force",
              fmt(events[0].force, 98.1));

    // Cutting and winching a second rope.
    sinew::RopeDesc d2;
    d2.with_ends({4, 0, 0}, {4, -2, 0});
    d2.segments = 20;
    sinew::Body crane = must(w.add_rope(d2), "add_rope");
    must(crane.add_winch(sinew::RopeEnd::Start, 1.0f), "add_winch");
    must(crane.set_winch_target(0.5f, 1.0f), "set_winch_target");
    for (int i = 0; i < 60; ++i) must(w.step(1.0f / 60.0f), "step");
    const sinew::WinchState ws = must(crane.winch_state(), "winch_state");
    check(near(ws.length, 0.5, 1e-4) && ws.speed == 0.0f, "winch reached its target", fmt(ws.length, 0.5));
    check(crane.set_winch_speed(std::nanf("")).status() == sinew::Status::InvalidArgument, "NaN speed refused");
    check(crane.cut(99).status() == sinew::Status::OutOfRange, "cut past the end refused");
    const uint32_t link = must(crane.cut_along({3, -1.9f, 0}, {5, -1.9f, 0}), "cut_along");
    check(link >= 15, "swipe near the bottom cuts a low link", std::to_string(link));
    must(crane.set_rest_scale(0.9f), "set_rest_scale");
    must(crane.set_mass(2.0f), "set_mass");
    check(crane.set_mass(-1.0f).status() == sinew::Status::InvalidArgument, "negative mass refused");
}

void test_snapshots() {
    sinew::World w = make_world(kG, 8);
    sinew::RopeDesc desc;
    desc.with_ends({0, 2, 0}, {1, 2, 0});
    sinew::Body rope = must(w.add_rope(desc), "add_rope");
    std::vector<uint64_t> hashes{must(w.state_hash(), "state_hash")};
    std::vector<uint8_t> at60;
    for (int k = 1; k <= 120; ++k) {
        must(w.step(1.0f / 60.0f), "step");
        hashes.push_back(must(w.state_hash(), "state_hash"));
        if (k == 60) must(w.save(at60), "save into a vector");
    }
    check(hashes[60] != hashes[120], "snapshots: the rope swings");
    check(at60.size() == must(w.snapshot_size(), "snapshot_size"), "snapshots: size");
    must(w.restore(at60), "restore");
    sinew::World four = must(sinew::World::from_snapshot(at60, 4), "from_snapshot");
    bool same = must(w.state_hash(), "hash") == hashes[60];
    for (int k = 61; k <= 120; ++k) {
        must(w.step(1.0f / 60.0f), "step");
        must(four.step(1.0f / 60.0f), "step");
        same = same && must(w.state_hash(), "hash") == hashes[k] && must(four.state_hash(), "hash") == hashes[k];
    }
    check(same, "snapshots: rollback to frame 60 replays 61..120 bit for bit, on 4 threads too");
    check(must(w.save(), "save") == must(four.save(), "save"), "snapshots: both worlds save the same bytes");
    std::vector<uint8_t> bad = at60;
    bad[bad.size() / 2] ^= 1;
    const uint64_t before = must(w.state_hash(), "hash");
    check(w.restore(bad).status() == sinew::Status::InvalidArgument, "snapshots: a flipped bit is refused");
    bad.assign(at60.begin(), at60.end() - 1);
    check(w.restore(bad).status() == sinew::Status::InvalidArgument, "snapshots: a truncation is refused");
    check(sinew::World::from_snapshot({}).status() == sinew::Status::InvalidArgument, "snapshots: empty refused");
    check(must(w.state_hash(), "hash") == before, "snapshots: refusals change nothing");
}

/// A host for World::set_task_system: every range of a task on its own std::thread;
/// finish joins them.
struct ThreadPerRange {
    int enqueues = 0;
    void* enqueue(SinewTaskFn task, uint32_t n, uint32_t min_range, void* context) {
        ++enqueues;
        auto* threads = new std::vector<std::thread>();
        for (uint32_t b = 0; b < n; b += min_range)
            threads->emplace_back(task, b, std::min(n, b + min_range), context);
        return threads;
    }
    void finish(void* handle) {
        auto* threads = static_cast<std::vector<std::thread>*>(handle);
        for (auto& t : *threads) t.join();
        delete threads;
    }
};

/// Runs every range inside enqueue (backwards) and returns nullptr.
struct Inline {
    void* enqueue(SinewTaskFn task, uint32_t n, uint32_t, void* context) {
        for (uint32_t i = n; i-- > 0;) task(i, i + 1, context);
        return nullptr;
    }
    void finish(void*) { std::abort(); }
};

void test_task_system() {
    // A 128 x 128 cloth (16,384 particles, ~97,000 links): every pass runs in parallel.
    auto scene = [](uint32_t threads) {
        sinew::World w = must(sinew::World::create(sinew::WorldDesc().with_substeps(10).with_threads(threads)),
                              "World::create");
        sinew::ClothGridDesc grid;
        grid.with_segments(127, 127).with_pinned_corners(sinew::ClothGridDesc::corner_origin |
                                                         sinew::ClothGridDesc::corner_u);
        must(w.add_cloth_grid(sinew::ClothDesc(), grid), "add_cloth_grid");
        return w;
    };
    auto run = [](sinew::World& w) {
        std::vector<uint64_t> h;
        for (int f = 0; f < 4; ++f) {
            must(w.step(1.0f / 60.0f), "step");
            h.push_back(must(w.state_hash(), "state_hash"));
        }
        return h;
    };
    sinew::World one = scene(1), two = scene(2);
    const std::vector<uint64_t> reference = run(one);
    check(run(two) == reference, "tasks: 1 and 2 built-in threads agree");

    ThreadPerRange threads;
    sinew::World w = scene(1);
    must(w.set_task_system(threads, 4), "set_task_system(runner)");
    const bool same = run(w) == reference;
    check(same && threads.enqueues > 0, "tasks: std::thread per range, same bits",
          std::to_string(threads.enqueues) + " enqueues");

    Inline inl;
    sinew::World w2 = scene(1);
    must(w2.set_task_system(inl, 3), "set_task_system(inline)");
    std::vector<uint64_t> h = run(w2);
    must(w2.set_task_system(nullptr), "back to the built-in pool");
    check(h == reference, "tasks: inline in enqueue (nullptr), same bits");

    SinewTaskSystem bad{};
    bad.worker_count = 2;
    check(w2.set_task_system(bad).status() == sinew::Status::InvalidArgument, "tasks: NULL callbacks refused");
    check(w2.set_task_system(threads, 0).status() == sinew::Status::InvalidArgument, "tasks: worker_count 0 refused");
    check(w2.set_task_system(threads, 257).status() == sinew::Status::InvalidArgument,
          "tasks: worker_count 257 refused");
}

// Every read follows one convention: a Span is the caller's memory, checked (too short is
// OutOfRange and nothing is written); a std::vector is resized by the read (to the body,
// the Range, the group or the contact count), so an empty one is fine.
void test_one_read_convention() {
    sinew::World w = must(sinew::World::create(), "world");
    const sinew::Body body = must(w.add_rope(sinew::RopeDesc().with_segments(4)), "rope");
    must(w.step(1.0f / 60.0f), "step");
    std::vector<float> forces;
    must(body.read_forces(sinew::BodyConstraints::Stretch, forces), "forces into a vector");
    check(forces.size() == 4, "the vector is resized to the group");
    std::vector<float> room(6, -1.0f), short_room(3, -1.0f);
    check(must(body.read_forces(sinew::BodyConstraints::Stretch, sinew::Span<float>(room)), "span") == 4 &&
              room[0] == forces[0] && room[4] == -1.0f,
          "a span read returns the group's size and writes only it");
    auto too_short = body.read_forces(sinew::BodyConstraints::Stretch, sinew::Span<float>(short_room));
    check(too_short.status() == sinew::Status::OutOfRange && short_room[0] == -1.0f, "a short span is refused");
    auto scene = must(sinew::Scene::create(), "scene");
    const sinew::BodyId rope = must(scene.add_rope(sinew::RopeDesc().with_segments(4)), "scene rope");
    must(scene.step(1.0f / 60.0f), "scene step");
    std::vector<sinew::Vec3> v;
    must(scene.read_velocities(rope, v), "velocities into a vector");
    check(v.size() == 5, "resized to the body");
    std::vector<sinew::Vec3> v5(5), v4(4);
    must(scene.read_velocities(rope, sinew::Span<sinew::Vec3>(v5)), "velocities into a span");
    check(v5[4].z == v[4].z, "span and vector reads agree");
    check(scene.read_velocities(rope, sinew::Span<sinew::Vec3>(v4)).status() == sinew::Status::InvalidArgument,
          "a span of the wrong size is refused");
    std::vector<SinewContact> contacts(3);
    check(must(w.read_contacts(contacts), "contacts") == 0 && contacts.empty(),
          "read_contacts resizes to the contact count");
}

int main() {
    test_abi_and_results();
    test_raii();
    test_free_fall_z_up();
    test_hanging_rope_and_vector_types();
    test_errors_change_nothing();
    test_units();
    test_tube();
    test_cloth_weld();
    test_rope_polyline();
    test_rope_pieces();
    test_scene_rope_tension_and_compliance();
    test_scene_changing_one_rope_does_not_reset_another();
    test_scene_edits_of_one_rope_never_reset_another();
    test_scene_grab_release();
    test_scene_cloth();
    test_cloth_tearing();
    test_collisions();
    test_body_rope_and_raii();
    test_soft_bodies_and_cloth();
    test_families_and_attachments();
    test_wind_and_skinning();
    test_granular();
    test_edits_breaks_cuts_and_winches();
    test_snapshots();
    test_task_system();
    test_one_read_convention();
    std::printf("%d checks, %d failed\n", g_checks, g_failures);
    return g_failures == 0 ? 0 : 1;
}

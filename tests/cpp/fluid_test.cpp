// Fluids through the C++ wrapper (sinew_fluid.hpp, included by sinew.hpp) against the
// real library: descs at the library's defaults, emission and the readback into
// vectors and into an interleaved vertex buffer, a lone particle in free fall
// (y = y0 - g h² N(N+1)/2 after N substeps of h), an emitter's rate, a kill plane,
// settings round trip, a body's coupling switch and force, the anisotropy readback and
// the surface mesh, and bad input as Result errors that change nothing.
//
// Built and run by tests/bindings/cpp_wrapper.rs (cpp_fluids, cpp_fluids_asan_ubsan) with the
// same strict flags as wrapper_test.cpp. Prints every check; exits 1 on failure.
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <vector>

#include "sinew.hpp"

namespace {

int g_checks = 0;
int g_failures = 0;

void check(bool ok, const std::string& what, const std::string& detail = "") {
    ++g_checks;
    if (!ok) ++g_failures;
    std::printf("[%s] %s%s%s\n", ok ? "PASS" : "FAIL", what.c_str(), detail.empty() ? "" : ": ", detail.c_str());
}

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

template <class T>
void check_error(const sinew::Result<T>& r, sinew::Status expected, const std::string& what,
                 const std::string& fragment) {
    if (r) {
        check(false, what, "succeeded, expected an error");
        return;
    }
    check(r.error().status == expected, what + " status", r.error().message);
    check(r.error().message.find(fragment) != std::string::npos, what + " message names " + fragment,
          r.error().message);
}

constexpr float kG = 9.81f;
constexpr float kDt = 1.0f / 60.0f;

sinew::World make_world(uint32_t substeps) {
    return must(sinew::World::create(sinew::WorldDesc().with_threads(1).with_substeps(substeps)), "create a world");
}

std::vector<sinew::Vec3> block(uint32_t n, float y) {
    std::vector<sinew::Vec3> p;
    for (uint32_t k = 0; k < n; ++k)
        p.push_back(sinew::Vec3{0.05f * static_cast<float>(k % 2), y + 0.05f * static_cast<float>((k / 2) % 2),
                                0.05f * static_cast<float>(k / 4)});
    return p;
}

struct Vertex {
    sinew::Vec3 position;
    sinew::Vec3 velocity;
    float density;
    float pad;
};

void descs_and_settings() {
    const sinew::FluidDesc d;
    check(d.rest_density == 1000.0f && d.capacity == 4096 && d.recycle_oldest == 0, "FluidDesc defaults");
    const sinew::EmitterDesc e;
    check(e.shape == SINEW_EMITTER_NOZZLE && e.rate == 500.0f, "EmitterDesc defaults");
    const auto kv = sinew::KillVolumeDesc::half_space(sinew::Vec3{0, -1, 0}, sinew::Vec3{0, 1, 0});
    check(kv.shape == SINEW_KILL_VOLUME_HALF_SPACE && kv.center.y == -1.0f, "KillVolumeDesc::half_space");

    sinew::World w = make_world(4);
    sinew::Fluid f = must(w.add_fluid(sinew::FluidDesc().with_capacity(32).with_viscosity(0.05f)), "add a fluid");
    check(must(w.fluid_count(), "fluid count") == 1, "one fluid");
    const sinew::Range r = must(f.particles(), "range");
    check(r.first == 0 && r.count == 32, "reserved range", std::to_string(r.first) + " + " + std::to_string(r.count));
    sinew::FluidDesc back = must(f.desc(), "desc");
    check(back.viscosity == 0.05f && back.capacity == 32, "desc round trip");
    must(f.set_desc(back.with_cohesion(0.25f)), "set desc");
    check(must(f.desc(), "desc").cohesion == 0.25f, "cohesion set");
    check_error(f.set_desc(sinew::FluidDesc(back).with_capacity(64)), sinew::Status::InvalidArgument,
                "capacity change", "capacity");
    check_error(w.add_fluid(sinew::FluidDesc().with_rest_density(-1.0f)), sinew::Status::InvalidArgument,
                "negative rest density", "rest_density");
    check_error(w.add_fluid(sinew::FluidDesc().with_capacity(0)), sinew::Status::InvalidArgument, "capacity 0",
                "capacity");
    check(must(w.fluid_count(), "fluid count") == 1, "refusals added nothing");
}

void emit_and_read() {
    sinew::World w = make_world(4);
    sinew::Fluid f = must(w.add_fluid(sinew::FluidDesc().with_capacity(16)), "add a fluid");
    const std::vector<sinew::Vec3> p = block(8, 1.0f);
    std::vector<sinew::Vec3> v;
    for (uint32_t k = 0; k < 8; ++k) v.push_back(sinew::Vec3{static_cast<float>(k), 0.0f, 0.0f});
    check(must(f.emit(p, v), "emit") == 0, "first index 0");
    check(must(f.emit(block(4, 2.0f)), "emit at rest") == 8, "second batch at 8");
    const sinew::FluidStats s = must(f.stats(), "stats");
    check(s.count == 12 && s.emitted == 12 && s.capacity == 16, "stats after emission");

    std::vector<sinew::Vec3> pos;
    check(must(f.read_particles(1.0f, pos), "read positions") == 12, "12 live");
    check(pos.size() == 12, "a vector is resized to the live count");
    bool same = true;
    for (uint32_t k = 0; k < 8; ++k) same = same && pos[k].x == p[k].x && pos[k].y == p[k].y && pos[k].z == p[k].z;
    check(same, "positions read back as emitted");

    std::vector<Vertex> verts(12, Vertex{{-7, -7, -7}, {-7, -7, -7}, -7.0f, 42.0f});
    const uint32_t n = must(f.read_particles_strided(1.0f, 12, &verts[0].position, sizeof(Vertex), &verts[0].velocity,
                                                     sizeof(Vertex), &verts[0].density, sizeof(Vertex)),
                            "interleaved read");
    check(n == 12, "interleaved count");
    check(verts[5].velocity.x == 5.0f && verts[10].velocity.x == 0.0f, "velocities interleaved");
    check(verts[3].position.z == p[3].z && verts[11].pad == 42.0f, "positions interleaved, padding untouched");
    check(verts[0].density >= 0.0f && std::isfinite(verts[0].density), "density ratio");

    std::vector<sinew::Vec3> short_buf(11, sinew::Vec3{7, 7, 7});
    check_error(f.read_particles(1.0f, sinew::Span<sinew::Vec3>(short_buf)), sinew::Status::OutOfRange, "short buffer",
                "11");
    check(short_buf[0].x == 7.0f, "short buffer untouched");
    check_error(f.emit(block(5, 3.0f)), sinew::Status::OutOfRange, "past capacity", "sinew_fluid_emit");
    std::vector<sinew::Vec3> nan = block(2, 3.0f);
    nan[1].y = std::nanf("");
    check_error(f.emit(nan), sinew::Status::InvalidArgument, "NaN position", "sinew_fluid_emit");
    check_error(f.emit(block(2, 3.0f), block(1, 0.0f)), sinew::Status::InvalidArgument, "velocity count",
                "velocities");
    check(must(f.count(), "count") == 12, "refusals emitted nothing");
    must(f.clear(), "clear");
    const sinew::FluidStats c = must(f.stats(), "stats");
    check(c.count == 0 && c.removed == 12, "cleared");
}

void free_fall() {
    const uint32_t substeps = 8;
    sinew::World w = make_world(substeps);
    sinew::Fluid f = must(w.add_fluid(sinew::FluidDesc().with_capacity(2)), "add a fluid");
    must(f.emit(std::vector<sinew::Vec3>{sinew::Vec3{0.0f, 10.0f, 0.0f}}), "emit one");
    const int steps = 30;
    for (int i = 0; i < steps; ++i) must(w.step(kDt), "step");
    std::vector<sinew::Vec3> pos(1), vel(1);
    must(f.read_particles(1.0f, sinew::Span<sinew::Vec3>(pos), sinew::Span<sinew::Vec3>(vel)), "read");
    const double h = static_cast<double>(kDt) / substeps;
    const double n = steps * substeps;
    const double y = 10.0 - kG * h * h * n * (n + 1.0) / 2.0;
    check(std::fabs(vel[0].y + kG * h * n) < 1e-3, "free-fall velocity -g h N", std::to_string(vel[0].y));
    check(std::fabs(pos[0].y - y) < 1e-3, "free-fall height y0 - g h² N(N+1)/2",
          std::to_string(pos[0].y) + " vs " + std::to_string(y));
}

void emitter_and_kill_volume() {
    sinew::World w = make_world(4);
    sinew::Fluid f = must(w.add_fluid(sinew::FluidDesc().with_capacity(2000)), "add a fluid");
    sinew::EmitterDesc e;
    e.at(sinew::Vec3{0.0f, 2.0f, 0.0f}).with_rate(600.0f).with_speed(3.0f); // passes up to 780/s
    sinew::Emitter em = must(f.add_emitter(e), "add an emitter");
    for (int i = 0; i < 30; ++i) must(w.step(kDt), "step");
    const sinew::FluidStats s = must(f.stats(), "stats");
    check(s.emitted >= 299 && s.emitted <= 301 && s.refused == 0, "600 particles/s for 0.5 s",
          std::to_string(s.emitted));
    must(em.remove(), "remove the emitter");
    check_error(em.set(e), sinew::Status::InvalidHandle, "removed emitter", "sinew_emitter_set");
    sinew::KillVolume kv =
        must(f.add_kill_volume(sinew::KillVolumeDesc::half_space(sinew::Vec3{0, -1, 0}, sinew::Vec3{0, 1, 0})),
             "add a kill plane");
    for (int i = 0; i < 120; ++i) must(w.step(kDt), "step");
    const sinew::FluidStats k = must(f.stats(), "stats");
    check(k.count == 0 && k.removed == k.emitted, "everything fell through the kill plane",
          std::to_string(k.count) + " live");
    must(kv.remove(), "remove the kill plane");
    check_error(kv.remove(), sinew::Status::InvalidHandle, "removed kill volume", "sinew_kill_volume_remove");
    check_error(f.add_kill_volume(sinew::KillVolumeDesc::sphere(sinew::Vec3{0, 0, 0}, -1.0f)),
                sinew::Status::InvalidArgument, "negative sphere radius", "sinew_fluid_add_kill_volume");
}

void bodies_and_removal() {
    sinew::World w = make_world(4);
    sinew::Body rope = must(w.add_rope(sinew::RopeDesc().with_segments(4)), "add a rope");
    sinew::Fluid f = must(w.add_fluid(sinew::FluidDesc().with_capacity(8)), "add a fluid");
    must(rope.set_fluid_coupling(false), "coupling off");
    must(rope.set_fluid_coupling(true), "coupling on");
    must(w.step(kDt), "step");
    const sinew::Vec3 force = must(rope.fluid_force(), "fluid force");
    check(std::isfinite(force.x) && std::isfinite(force.y) && std::isfinite(force.z), "finite force");
    must(f.remove(), "remove the fluid");
    check(must(w.fluid_count(), "count") == 0, "no fluid left");
    check_error(f.stats(), sinew::Status::InvalidHandle, "removed fluid", "sinew_fluid_stats");
    check_error(f.remove(), sinew::Status::InvalidHandle, "removed twice", "sinew_fluid_remove");
    must(rope.remove(), "remove the rope");
    check_error(rope.fluid_force(), sinew::Status::InvalidHandle, "removed body", "sinew_body_fluid_force");
}

// The anisotropy readback: a flat sheet reads flat into a vector of a bigger instance
// type (the ellipsoid, then a colour left untouched); a short span is refused.
void anisotropy() {
    constexpr uint32_t n = 12;
    constexpr float s = 0.05f;
    sinew::World w = must(sinew::World::create(sinew::WorldDesc().with_threads(1).with_gravity(0.0f, 0.0f, 0.0f)),
                          "create a world");
    sinew::Fluid f = must(w.add_fluid(sinew::FluidDesc().with_spacing(s).with_capacity(n * n)), "add a fluid");
    std::vector<sinew::Vec3> at;
    for (uint32_t k = 0; k < n * n; ++k) at.push_back(sinew::Vec3{(k % n) * s, 1.0f, (k / n) * s});
    must(f.emit(at), "emit a sheet");
    must(w.step(kDt), "step");
    struct Instance {
        SinewFluidEllipsoid e;
        float rgba[4];
    };
    std::vector<Instance> out(n * n);
    for (auto& i : out) i.rgba[3] = 7.0f;
    const sinew::AnisotropyDesc desc = sinew::AnisotropyDesc().with_smoothing(0.5f);
    check(must(f.read_anisotropy(desc, 1.0f, out), "read anisotropy") == n * n, "ellipsoid count");
    std::vector<SinewFluidEllipsoid> fitted;
    check(must(f.read_anisotropy(desc, 1.0f, fitted), "read anisotropy") == n * n && fitted.size() == n * n,
          "an empty vector is resized to the live count");
    bool flat = true, untouched = true;
    for (uint32_t k = 0; k < n * n; ++k) {
        untouched = untouched && out[k].rgba[3] == 7.0f;
        const uint32_t x = k % n, z = k / n;
        if (x < 3 || z < 3 || x > n - 4 || z > n - 4) continue;
        const SinewVec3 a = out[k].e.axis0, c = out[k].e.axis2;
        const float lc = std::sqrt(c.x * c.x + c.y * c.y + c.z * c.z);
        const float la = std::sqrt(a.x * a.x + a.y * a.y + a.z * a.z);
        flat = flat && std::fabs(c.y) > 0.999f * lc && 3.0f * lc < la;
    }
    check(flat, "the sheet is flat along its normal");
    check(untouched, "the colour between ellipsoids untouched");
    std::vector<SinewFluidEllipsoid> short_span(n * n - 1);
    check_error(f.read_anisotropy(desc, 1.0f, sinew::Span<SinewFluidEllipsoid>(short_span)), sinew::Status::OutOfRange,
                "short span",
                "sinew_fluid_read_anisotropy");
}

// The surface mesh: a block of particles into vectors resized by read_surface and into
// an interleaved vertex buffer (the same bits), closed (the signed volume is the same
// from two origins), normals outward; a short span and a bad cell size are refused.
void surface() {
    constexpr uint32_t n = 8;
    constexpr float s = 0.05f;
    sinew::World w = must(sinew::World::create(sinew::WorldDesc().with_threads(2).with_gravity(0.0f, 0.0f, 0.0f)),
                          "create a world");
    sinew::Fluid f = must(w.add_fluid(sinew::FluidDesc().with_spacing(s).with_capacity(n * n * n)), "add a fluid");
    std::vector<sinew::Vec3> at;
    for (uint32_t k = 0; k < n * n * n; ++k)
        at.push_back(sinew::Vec3{(k % n) * s, 1.0f + ((k / n) % n) * s, (k / (n * n)) * s});
    must(f.emit(at), "emit a block");
    const sinew::SurfaceDesc desc = sinew::SurfaceDesc().with_threshold(0.5f);
    const SinewSurfaceCounts c = must(f.build_surface(desc), "build the surface");
    check(c.vertices > 100u && c.indices % 3u == 0u, "a mesh");
    std::vector<sinew::Vec3> positions, normals;
    std::vector<uint32_t> indices;
    const SinewSurfaceCounts r = must(f.read_surface(positions, normals, indices), "read the surface");
    check(r.vertices == c.vertices && positions.size() == c.vertices && indices.size() == c.indices,
          "vectors resized to the counts");
    const sinew::Vec3 mid{3.5f * s, 1.0f + 3.5f * s, 3.5f * s};
    bool outward = true;
    for (uint32_t k = 0; k < r.vertices; ++k) {
        const sinew::Vec3 d{positions[k].x - mid.x, positions[k].y - mid.y, positions[k].z - mid.z};
        outward = outward && d.x * normals[k].x + d.y * normals[k].y + d.z * normals[k].z > 0.0f;
    }
    check(outward, "normals point out of the block");
    double v0 = 0.0, v1 = 0.0;
    for (uint32_t k = 0; k + 2 < r.indices; k += 3) {
        for (int o = 0; o < 2; ++o) {
            sinew::Vec3 p[3];
            for (int j = 0; j < 3; ++j) {
                p[j] = positions[indices[k + j]];
                if (o == 1) p[j].x += 3.0f, p[j].y -= 2.0f;
            }
            const double vol = (p[0].x * (p[1].y * p[2].z - p[1].z * p[2].y) +
                                p[0].y * (p[1].z * p[2].x - p[1].x * p[2].z) +
                                p[0].z * (p[1].x * p[2].y - p[1].y * p[2].x)) / 6.0;
            (o == 0 ? v0 : v1) += vol;
        }
    }
    const double particles = n * n * n * double(s) * s * s;
    check(v0 > 0.8 * particles && v0 < particles, "the mesh encloses the particles' volume, less its rounded edges");
    check(std::fabs(v0 - v1) < 1e-3 * v0, "the same volume from another origin (closed)");
    struct Vertex {
        sinew::Vec3 position, normal;
    };
    std::vector<Vertex> buffer(r.vertices);
    must(f.read_surface_strided(r.vertices, &buffer[0].position, sizeof(Vertex), &buffer[0].normal, sizeof(Vertex), 0,
                                nullptr),
         "read interleaved");
    check(buffer[5].position.y == positions[5].y && buffer[5].normal.z == normals[5].z, "interleaved, the same bits");
    std::vector<sinew::Vec3> short_span(r.vertices - 1);
    check_error(f.read_surface(sinew::Span<sinew::Vec3>(short_span), sinew::Span<sinew::Vec3>(),
                               sinew::Span<uint32_t>()),
                sinew::Status::OutOfRange, "short span", "sinew_fluid_read_surface");
    check_error(f.build_surface(sinew::SurfaceDesc().with_cell_size(0.1f * s)), sinew::Status::OutOfRange,
                "a cell below radius / 8", "sinew_fluid_build_surface");
}

} // namespace

int main() {
    descs_and_settings();
    emit_and_read();
    free_fall();
    emitter_and_kill_volume();
    bodies_and_removal();
    anisotropy();
    surface();
    std::printf("%d checks, %d failed\n", g_checks, g_failures);
    return g_failures == 0 ? 0 : 1;
}

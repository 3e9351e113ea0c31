// Tests of bindings/cpp/sinew_soft.hpp (welding, tetrahedralising and embedding a closed
// render mesh through the library) and of the Scene's soft bodies (Scene::add_tet_body,
// add_pressure_body, set_pressure, set_mass, volume), which the Unreal plugin's soft body
// component is built on: a seamed box welds to 8 corners, its tet mesh holds its volume
// exactly, embedded vertices are reproduced and follow a falling tet body, a pressure
// body inflates when its pressure is raised, an open mesh is refused with a reason, and
// the lumped inverse masses match the library's lumping (same fall under gravity).
//
// Built and run by tests/bindings/cpp_wrapper.rs (cpp_soft, cpp_soft_asan_ubsan) with the
// same strict flags as wrapper_test.cpp. Prints every check; exits 1 on failure.
#include <cmath>
#include <cstdio>
#include <string>
#include <vector>

#include "sinew_scene.hpp"
#include "sinew_soft.hpp"

namespace {

int g_checks = 0;
int g_failures = 0;

void check(bool ok, const std::string& what) {
    ++g_checks;
    if (!ok) ++g_failures;
    std::printf("[%s] %s\n", ok ? "PASS" : "FAIL", what.c_str());
}

using sinew::Vec3;

/// A box of half-extents (hx, hy, hz) centred at (0, cy, 0) as a render mesh: four
/// vertices per face (24), two triangles per face, counter-clockwise from outside.
void render_box(float hx, float hy, float hz, float cy, std::vector<Vec3>& v, std::vector<uint32_t>& t) {
    v.clear();
    t.clear();
    const float h[3] = {hx, hy, hz};
    for (int axis = 0; axis < 3; ++axis) {
        for (int sign = -1; sign <= 1; sign += 2) {
            const int u = (axis + 1) % 3, w = (axis + 2) % 3;
            const auto base = static_cast<uint32_t>(v.size());
            const float corners[4][2] = {{-1.0f, -1.0f}, {1.0f, -1.0f}, {1.0f, 1.0f}, {-1.0f, 1.0f}};
            for (const auto& c : corners) {
                float p[3] = {0.0f, 0.0f, 0.0f};
                p[axis] = static_cast<float>(sign) * h[axis];
                // u × w = axis: counter-clockwise seen from +axis; mirrored for -axis.
                p[u] = c[0] * h[u];
                p[w] = static_cast<float>(sign) * c[1] * h[w];
                v.push_back(Vec3{p[0], p[1] + cy, p[2]});
            }
            const uint32_t tri[6] = {base, base + 1, base + 2, base, base + 2, base + 3};
            t.insert(t.end(), tri, tri + 6);
        }
    }
}

float dist(const Vec3& a, const Vec3& b) {
    const float dx = a.x - b.x, dy = a.y - b.y, dz = a.z - b.z;
    return std::sqrt(dx * dx + dy * dy + dz * dz);
}

double tet_volume(const sinew::soft::TetMesh& m) {
    double sum = 0.0;
    for (std::size_t j = 0; j < m.tet_count(); ++j) {
        const Vec3 a = m.vertices[m.tets[4 * j]], b = m.vertices[m.tets[4 * j + 1]];
        const Vec3 c = m.vertices[m.tets[4 * j + 2]], d = m.vertices[m.tets[4 * j + 3]];
        const double ux = double(b.x) - a.x, uy = double(b.y) - a.y, uz = double(b.z) - a.z;
        const double vx = double(c.x) - a.x, vy = double(c.y) - a.y, vz = double(c.z) - a.z;
        const double wx = double(d.x) - a.x, wy = double(d.y) - a.y, wz = double(d.z) - a.z;
        sum += (ux * (vy * wz - vz * wy) - uy * (vx * wz - vz * wx) + uz * (vx * wy - vy * wx)) / 6.0;
    }
    return sum;
}

} // namespace

int main() {
    std::vector<Vec3> v;
    std::vector<uint32_t> t;
    render_box(0.5f, 0.25f, 0.25f, 1.0f, v, t);

    auto welded = sinew::soft::weld(v, t);
    check(welded && welded->particles.size() == 8 && welded->triangles.size() == 36,
          "weld: 24 seamed vertices -> 8 corners, 12 triangles");
    check(welded && welded->render_to_particle.size() == 24, "weld: one particle per render vertex");

    auto tets = sinew::soft::tetrahedralize(v, t, 4);
    check(bool(tets), "tetrahedralize a seamed box");
    if (!tets) {
        std::printf("%s\n", tets.error().message.c_str());
        return 1;
    }
    check(tets->tet_count() == 5 * 4 * 2 * 2, "5 tets per cell, 4 x 2 x 2 cells");
    check(std::fabs(tet_volume(*tets) - 0.25) < 1e-5, "the tets hold the box's volume (0.25 m^3)");

    std::vector<uint32_t> open(t.begin(), t.end() - 3);
    auto refused = sinew::soft::tetrahedralize(v, open, 4);
    check(!refused && refused.error().status == sinew::Status::InvalidArgument &&
              refused.error().message.find("not closed") != std::string::npos,
          "an open mesh is refused: " + (refused ? std::string("accepted") : refused.error().message));
    auto bad_res = sinew::soft::tetrahedralize(v, t, SINEW_MAX_TET_RESOLUTION + 1);
    check(!bad_res && bad_res.error().status == sinew::Status::OutOfRange, "resolution past the limit refused");

    auto embedding = sinew::soft::embed(tets->vertices, tets->tets, v);
    check(embedding && embedding->size() == v.size(), "embed every render vertex");
    std::vector<Vec3> back;
    check(embedding && embedding->apply(tets->vertices, back) && back.size() == v.size(),
          "apply into a vector resized to the points");
    float worst = 0.0f;
    for (std::size_t i = 0; i < v.size(); ++i) worst = std::fmax(worst, dist(v[i], back[i]));
    check(worst < 1e-5f, "embedded vertices reproduced at rest (worst " + std::to_string(worst) + " m)");

    // A tet body in a Scene falls under gravity; its render vertices follow.
    auto scene = sinew::Scene::create();
    check(bool(scene), "scene");
    if (!scene) return 1;
    sinew::TetBodyDesc td;
    td.with_total_mass(2.0f);
    auto tet_body = scene->add_tet_body(td, tets->vertices, tets->tets, 0.01f);
    check(bool(tet_body), "Scene::add_tet_body");
    auto lumped = sinew::soft::lumped_inverse_masses(tets->vertices, tets->tets, 4, 2.0f);
    double mass = 0.0;
    for (float w : lumped) mass += 1.0 / double(w);
    check(std::fabs(mass - 2.0) < 1e-4, "lumped inverse masses sum to the total mass");
    auto pressure = welded ? scene->add_pressure_body(sinew::PressureBodyDesc().with_stretch_compliance(1e-3f),
                                                      welded->particles, welded->triangles, 0.0f)
                           : sinew::Result<sinew::BodyId>(sinew::Error{sinew::Status::Internal, "no weld"});
    check(bool(pressure), "Scene::add_pressure_body");
    if (!tet_body || !pressure) return 1;
    const float v0 = scene->volume(*pressure).value_or(0.0f);
    check(std::fabs(v0 - 0.25f) < 1e-5f, "pressure body rest volume 0.25 m^3");
    check(bool(scene->set_pressure(*pressure, 1.5f)), "Scene::set_pressure");
    check(bool(scene->set_mass(*tet_body, 3.0f)), "Scene::set_mass");
    for (int s = 0; s < 30; ++s) (void)scene->step(1.0f / 60.0f);
    const float v1 = scene->volume(*pressure).value_or(0.0f);
    check(v1 > 1.3f * v0, "raised pressure inflates the body: " + std::to_string(v1) + " m^3");
    std::vector<Vec3> x(tets->vertices.size());
    check(bool(scene->read_positions(*tet_body, sinew::Span<Vec3>(x))), "read the tet body");
    check(embedding && embedding->apply(x, back), "apply to the particles");
    const float fall = 0.5f * 9.81f * 0.5f * 0.5f; // 0.5 s of free fall
    float lowest = 1e9f;
    for (const Vec3& p : back) lowest = std::fmin(lowest, p.y);
    check(std::fabs((0.75f - lowest) - fall) < 0.05f,
          "render vertices fell with the body (" + std::to_string(0.75f - lowest) + " m)");
    check(bool(scene->remove_body(*tet_body)), "remove");

    std::printf("%d checks, %d failed\n", g_checks, g_failures);
    return g_failures == 0 ? 0 : 1;
}

// Tests of bindings/cpp/sinew_render.hpp, the engine-neutral render data the Unreal
// plugin's scene proxy draws from: the simulation -> local transform, the bounds, a
// rope's tubes (one per piece, indices rebuilt only when the pieces change) and a
// cloth's render vertices (shared normals across UV seams, tangents perpendicular to
// them, the vertices a tear added), against closed forms.
//
// Built and run by tests/bindings/cpp_wrapper.rs (cpp_render, cpp_render_asan_ubsan) with the
// same strict flags as wrapper_test.cpp. Prints every check; exits 1 on failure.
#include <cmath>
#include <cstdio>
#include <string>
#include <vector>

#include "sinew_render.hpp"
#include "sinew_scene.hpp"

namespace {

int g_checks = 0;
int g_failures = 0;

void check(bool ok, const std::string& what) {
    ++g_checks;
    if (!ok) ++g_failures;
    std::printf("[%s] %s\n", ok ? "PASS" : "FAIL", what.c_str());
}

bool near(double a, double b, double tol) { return std::fabs(a - b) <= tol; }

using sinew::Vec3;
namespace vec = sinew::vec;
namespace render = sinew::render;

void affine_and_bounds() {
    // Simulation metres -> local centimetres of a component at (10, 20, 30) cm turned
    // 90 degrees about Z: local = R^-1 (100 p - (10, 20, 30)).
    render::Affine a;
    a.x = Vec3{0, -100, 0}; // R^-1 e_x * 100
    a.y = Vec3{100, 0, 0};
    a.z = Vec3{0, 0, 100};
    a.t = Vec3{-20, 10, -30}; // R^-1 (-(10, 20, 30))
    const Vec3 p = render::apply(a, Vec3{0.5f, 0.25f, 1.0f});
    check(near(p.x, 25.0 - 20.0, 1e-5) && near(p.y, -50.0 + 10.0, 1e-5) && near(p.z, 100.0 - 30.0, 1e-5),
          "Affine::apply: columns times coordinates plus translation");
    std::vector<Vec3> out;
    const std::vector<Vec3> in = {{0, 0, 0}, {1, 0, 0}};
    render::transform(a, sinew::Span<const Vec3>(in), out);
    check(out.size() == 2 && near(out[1].y, -100.0 + 10.0, 1e-5), "transform applies to every point");

    const std::vector<Vec3> pts = {{1, 2, 3}, {-4, 5, 0.5f}, {2, -1, 7}, {NAN, 0, 0}};
    const render::Box b = render::bounds(sinew::Span<const Vec3>(pts), 0.25f);
    check(b.valid, "bounds of points are valid");
    bool contains = true;
    for (std::size_t i = 0; i < 3; ++i) {
        const Vec3 q = pts[i];
        contains = contains && q.x - 0.25f >= b.min.x && q.x + 0.25f <= b.max.x && q.y - 0.25f >= b.min.y &&
                   q.y + 0.25f <= b.max.y && q.z - 0.25f >= b.min.z && q.z + 0.25f <= b.max.z;
    }
    check(contains, "bounds hold every particle plus its radius");
    check(b.min.x == -4.25f && b.max.x == 2.25f && b.min.y == -1.25f && b.max.y == 5.25f && b.min.z == 0.25f &&
              b.max.z == 7.25f,
          "bounds are tight: min - r and max + r per axis (the NaN point left out)");
    check(!render::bounds(sinew::Span<const Vec3>(), 1.0f).valid, "no points: no bounds");
}

void rope() {
    // A straight rope along X: every tube vertex lies on the circle of the tube's
    // radius around its particle, in the plane normal to the rope.
    std::vector<Vec3> points;
    for (int i = 0; i <= 10; ++i) points.push_back(Vec3{10.0f * static_cast<float>(i), 5.0f, -3.0f});
    sinew::tube::Params params;
    params.radius = 1.5f;
    params.sides = 6;
    params.front_face = sinew::tube::FrontFace::Clockwise;
    render::RopeBuilder builder;
    render::Mesh mesh;
    std::vector<sinew::rope::Piece> whole = sinew::rope::pieces(11, 0, {});
    auto first = builder.build(sinew::Span<const Vec3>(points), whole, params, mesh);
    check(first && *first, "the first build makes the indices");
    check(mesh.positions.size() == 11u * 7u && mesh.indices.size() == 10u * 6u * 6u,
          "one ring of sides + 1 vertices per particle, 2 triangles per side and link");
    bool on_circle = true, radial = true, along = true;
    for (std::size_t v = 0; v < mesh.positions.size(); ++v) {
        const Vec3 q = mesh.positions[v];
        const Vec3 centre = points[v / 7];
        const double r = std::hypot(q.y - centre.y, q.z - centre.z);
        on_circle = on_circle && near(r, 1.5, 1e-4) && near(q.x, centre.x, 1e-4);
        const Vec3 n = mesh.normals[v];
        radial = radial && near(n.x, 0.0, 1e-5) && near(n.y, (q.y - centre.y) / 1.5, 1e-4) &&
                 near(n.z, (q.z - centre.z) / 1.5, 1e-4);
        along = along && near(mesh.tangents[v].x, 1.0, 1e-6);
    }
    check(on_circle, "straight rope: tube vertices lie on circles of the tube's radius around each particle");
    check(radial, "straight rope: normals point radially out");
    check(along, "straight rope: tangents along the rope");
    bool in_range = true;
    for (uint32_t i : mesh.indices) in_range = in_range && i < mesh.positions.size();
    check(in_range, "indices name existing vertices");

    // Moving the rope keeps the indices.
    for (Vec3& p : points) p.z += 2.0f;
    const std::vector<uint32_t> before = mesh.indices;
    auto moved = builder.build(sinew::Span<const Vec3>(points), whole, params, mesh);
    check(moved && !*moved && mesh.indices == before, "a moved rope keeps its index buffer");
    check(near(mesh.positions[0].z, -1.0 + 1.5 * mesh.normals[0].z, 1e-4), "the vertices followed");

    // A cut at link 4 (between particles 4 and 5): two tubes, new indices.
    std::vector<bool> broken(10, false);
    broken[4] = true;
    const auto cut = sinew::rope::pieces(11, 0, broken);
    auto split = builder.build(sinew::Span<const Vec3>(points), cut, params, mesh);
    check(split && *split, "a cut rope rebuilds its indices");
    check(cut.size() == 2 && mesh.positions.size() == (5u + 6u) * 7u &&
              mesh.indices.size() == (4u + 5u) * 6u * 6u,
          "two tubes: 5 and 6 particles");
    bool separate = true;
    for (std::size_t i = 0; i < mesh.indices.size(); i += 3) {
        const bool a = mesh.indices[i] < 35u, b = mesh.indices[i + 1] < 35u, c = mesh.indices[i + 2] < 35u;
        separate = separate && a == b && b == c;
    }
    check(separate, "no triangle joins the two pieces");
    check(near(mesh.positions[35].x, 50.0, 1e-4), "the second tube starts at particle 5");

    // Bad pieces are refused and leave the mesh alone.
    const render::Mesh kept = mesh;
    auto bad = builder.build(sinew::Span<const Vec3>(points), {sinew::rope::Piece{9, 5}}, params, mesh);
    check(!bad && bad.status() == sinew::Status::InvalidArgument && mesh.indices == kept.indices &&
              mesh.positions.size() == kept.positions.size(),
          "a piece past the end is refused, the mesh unchanged");
    params.sides = 8;
    auto sides = builder.build(sinew::Span<const Vec3>(points), cut, params, mesh);
    check(sides && *sides && mesh.positions.size() == 11u * 9u, "more sides: new indices");
}

void cloth() {
    // A 3 x 3 grid of particles in the XY plane (cm), drawn from 10 render vertices:
    // vertex 9 is a UV-seam copy of vertex 4 (the centre).
    std::vector<Vec3> grid;
    for (int j = 0; j < 3; ++j)
        for (int i = 0; i < 3; ++i) grid.push_back(Vec3{10.0f * static_cast<float>(i), 10.0f * static_cast<float>(j), 0});
    std::vector<Vec3> render_vertices = grid;
    render_vertices.push_back(grid[4]);
    std::vector<uint32_t> tris;
    for (uint32_t j = 0; j < 2; ++j)
        for (uint32_t i = 0; i < 2; ++i) {
            const uint32_t a = j * 3 + i, b = a + 1, c = a + 3, d = a + 4;
            // counter-clockwise seen from +Z; the upper-right quad uses the seam copy
            const uint32_t centre = (i == 1 && j == 1) ? 9u : 4u;
            auto at = [&](uint32_t v) { return v == 4 ? centre : v; };
            tris.insert(tris.end(), {at(a), at(b), at(d), at(a), at(d), at(c)});
        }
    auto layout = sinew::cloth::weld(sinew::Span<const Vec3>(render_vertices), sinew::Span<const uint32_t>(tris), 0.01f);
    check(layout && layout->particles.size() == 9 && layout->render_to_particle[9] == layout->render_to_particle[4],
          "the seam copy welds onto the centre particle");
    if (!layout) return;
    std::vector<sinew::tube::Uv> uvs(10);
    for (std::size_t v = 0; v < 10; ++v)
        uvs[v] = sinew::tube::Uv{render_vertices[v].x / 20.0f, render_vertices[v].y / 20.0f};
    uvs[9] = sinew::tube::Uv{2.0f, 2.0f}; // the other side of the seam
    const std::vector<Vec3> tangents(10, Vec3{1, 0.5f, 0});
    auto source = render::cloth_source(*layout, 100, nullptr, sinew::Span<const sinew::tube::Uv>(uvs),
                                       sinew::Span<const Vec3>(tangents), 0);
    check(source && source->key_count == 9 && source->vertex_key.size() == 10 && source->extra_particles.empty(),
          "an untorn cloth: one key per particle, one vertex per render vertex");
    if (!source) return;
    std::vector<Vec3> keys(9);
    for (std::size_t p = 0; p < 9; ++p) keys[p] = layout->particles[p];
    std::vector<Vec3> scratch;
    render::Mesh mesh;
    auto built = render::cloth_vertices(*source, sinew::Span<const Vec3>(keys), sinew::tube::FrontFace::Clockwise,
                                        true, scratch, mesh);
    check(static_cast<bool>(built) && mesh.positions.size() == 10 && mesh.indices == tris,
          "the render mesh keeps the source's triangles");
    bool flat = true, perpendicular = true;
    for (std::size_t v = 0; v < 10; ++v) {
        // Counter-clockwise from +Z, drawn with Unreal's clockwise front faces: the
        // front (the normal) faces -Z.
        flat = flat && near(mesh.normals[v].x, 0, 1e-6) && near(mesh.normals[v].y, 0, 1e-6) &&
               near(mesh.normals[v].z, -1, 1e-6);
        perpendicular = perpendicular && near(vec::dot(mesh.tangents[v], mesh.normals[v]), 0, 1e-6) &&
                        near(vec::length(mesh.tangents[v]), 1, 1e-6) &&
                        near(mesh.tangents[v].y / mesh.tangents[v].x, 0.5, 1e-6);
    }
    check(flat, "a flat cloth: every normal is the plane's");
    check(perpendicular, "tangents: the source's, unit and perpendicular to the normal");
    check(mesh.uvs[9].u == 2.0f && mesh.uvs[4].u == 0.5f, "UV seams keep their UVs");

    // Fold the far row up by 90 degrees about the line y = 10: the seam vertices share
    // one normal, the average of the flat and the folded faces' (a closed form).
    keys[6] = Vec3{0, 10, 10};
    keys[7] = Vec3{10, 10, 10};
    keys[8] = Vec3{20, 10, 10};
    auto folded = render::cloth_vertices(*source, sinew::Span<const Vec3>(keys), sinew::tube::FrontFace::Clockwise,
                                         false, scratch, mesh);
    const Vec3 n4 = mesh.normals[4], n9 = mesh.normals[9];
    check(static_cast<bool>(folded) && n4.x == n9.x && n4.y == n9.y && n4.z == n9.z,
          "render vertices of one particle share its normal (no seam shows)");
    check(near(n4.x, 0, 1e-6) && near(n4.y, std::sqrt(0.5), 1e-5) && near(n4.z, -std::sqrt(0.5), 1e-5),
          "a fold: the centre's normal halves the angle between the faces");
    check(mesh.positions[9].z == 0.0f && mesh.positions[7].z == 10.0f, "positions follow the keys");

    // A tear: render vertex 4's corner of the last triangle moves to a spare particle
    // 500 (not the body's), and render vertex 9's to the body's particle 100 + 2.
    sinew::cloth::TornMesh torn;
    torn.triangles = tris;
    torn.source = {4, 9};
    torn.particle = {500, 102};
    torn.triangles[tris.size() - 3] = 10; // the last triangle's first two corners -> the new vertices
    torn.triangles[tris.size() - 2] = 11;
    auto tore = render::cloth_source(*layout, 100, &torn, sinew::Span<const sinew::tube::Uv>(uvs),
                                     sinew::Span<const Vec3>(tangents), 3);
    check(tore && tore->key_count == 10 && tore->extra_particles.size() == 1 && tore->extra_particles[0] == 500,
          "a tear onto a spare particle adds one key, read from that particle");
    if (!tore) return;
    check(tore->vertex_key[10] == 9 && tore->vertex_key[11] == 2 && tore->uvs[10].u == uvs[4].u &&
              tore->uvs[11].u == 2.0f && tore->topology_version == 3,
          "new vertices: their own key, the UV of the vertex they copy");
    keys.push_back(Vec3{5, 5, 5});
    auto torn_mesh = render::cloth_vertices(*tore, sinew::Span<const Vec3>(keys), sinew::tube::FrontFace::Clockwise,
                                            true, scratch, mesh);
    check(static_cast<bool>(torn_mesh) && mesh.positions.size() == 12 && mesh.positions[10].x == 5.0f &&
              mesh.indices == torn.triangles && mesh.uvs.size() == 12,
          "the torn mesh: 12 vertices, the tear's triangles");
    keys.pop_back();
    auto short_keys = render::cloth_vertices(*tore, sinew::Span<const Vec3>(keys), sinew::tube::FrontFace::Clockwise,
                                             true, scratch, mesh);
    check(!short_keys && short_keys.status() == sinew::Status::InvalidArgument, "too few key positions are refused");
    torn.source = {40};
    torn.particle = {500};
    check(!render::cloth_source(*layout, 100, &torn, sinew::Span<const sinew::tube::Uv>(uvs),
                                sinew::Span<const Vec3>(tangents), 4),
          "a new vertex copying a vertex that does not exist is refused");
}

void interpolated_reads() {
    // What the Unreal components draw between fixed steps: Scene's interpolated read is
    // the straight line between the positions before and after the last step.
    sinew::WorldDesc world;
    world.gravity = Vec3{0, 0, -9.8f};
    auto scene = sinew::Scene::create(world);
    if (!scene) {
        check(false, "a scene");
        return;
    }
    const std::vector<Vec3> line = {{0, 0, 1}, {0.5f, 0, 1}, {1, 0, 1}};
    sinew::RopeDesc desc;
    desc.with_pins(true, false).with_tethers(false);
    auto rope = scene->add_rope_polyline(desc, sinew::Span<const Vec3>(line));
    check(static_cast<bool>(rope), "a rope in the scene");
    if (!rope) return;
    std::vector<Vec3> before(3), after(3), half(3), bad(2);
    check(scene->step(0.02f) && scene->read_positions(*rope, before) && scene->step(0.02f) &&
              scene->read_positions(*rope, after),
          "two steps");
    auto r = scene->read_interpolated_positions(*rope, 0.5f, sinew::Span<Vec3>(half));
    bool midway = static_cast<bool>(r);
    for (std::size_t i = 0; midway && i < 3; ++i)
        midway = near(half[i].z, 0.5 * before[i].z + 0.5 * after[i].z, 1e-6) && near(half[i].x, 0.5 * before[i].x + 0.5 * after[i].x, 1e-6);
    check(midway && after[2].z < before[2].z, "alpha 0.5: halfway between the last step's start and end");
    std::vector<Vec3> end(3);
    check(scene->read_interpolated_positions(*rope, 1.0f, sinew::Span<Vec3>(end)) && end[2].z == after[2].z &&
              end[1].x == after[1].x,
          "alpha 1: the current positions");
    check(!scene->read_interpolated_positions(*rope, 0.5f, sinew::Span<Vec3>(bad)), "a short output is refused");
}

bool near3(Vec3 a, Vec3 b, double tol) { return near(a.x, b.x, tol) && near(a.y, b.y, tol) && near(a.z, b.z, tol); }

// sinew_vec.hpp's rotations and transforms against closed forms: a quarter turn about
// +y takes +x to -z (right-handed), products compose, from_to aims +z along any
// direction (the opposite one included), and a transform's inverse undoes it.
void rotations_and_transforms() {
    const float pi = 3.14159265f;
    const sinew::Quat qy = vec::axis_angle(Vec3{0, 2, 0}, 0.5f * pi);
    check(near3(vec::rotate(qy, Vec3{1, 0, 0}), Vec3{0, 0, -1}, 1e-6), "quarter turn about +y: +x -> -z");
    const sinew::Quat qx = vec::axis_angle(Vec3{1, 0, 0}, 0.5f * pi);
    // qx qy: y first (+x -> -z), then x (-z -> +y).
    check(near3(vec::rotate(vec::mul(qx, qy), Vec3{1, 0, 0}), Vec3{0, 1, 0}, 1e-6), "mul(a, b) turns by b, then a");
    check(near3(vec::rotate(vec::conjugate(qy), vec::rotate(qy, Vec3{0.3f, -2, 5})), Vec3{0.3f, -2, 5}, 1e-5),
          "conjugate undoes");
    const sinew::Quat id = vec::axis_angle(Vec3{0, 0, 0}, 1.0f);
    check(id.w == 1.0f && id.x == 0.0f, "zero axis -> identity");
    const Vec3 dirs[] = {Vec3{1, 2, 3}, Vec3{0, 0, -4}, Vec3{0, 0, 2}, Vec3{-1, 0, 0}};
    for (const Vec3& d : dirs) {
        const sinew::Quat q = vec::from_to(Vec3{0, 0, 1}, d);
        const float n = std::sqrt(q.x * q.x + q.y * q.y + q.z * q.z + q.w * q.w);
        check(near(n, 1.0, 1e-6), "from_to is a unit quaternion");
        check(near3(vec::rotate(q, Vec3{0, 0, 1}), vec::normalize_or(d, Vec3{}), 1e-6),
              "from_to aims +z along (" + std::to_string(d.x) + ", " + std::to_string(d.y) + ", " +
                  std::to_string(d.z) + ")");
    }
    const sinew::Transform t = sinew::make_transform(Vec3{1, 2, 3}, qy);
    check(near3(vec::transform_point(t, Vec3{1, 0, 0}), Vec3{1, 2, 2}, 1e-6), "transform_point: rotate, then move");
    check(near3(vec::inverse_transform_point(t, Vec3{1, 2, 2}), Vec3{1, 0, 0}, 1e-6), "inverse_transform_point");
    const sinew::Transform u = sinew::make_transform(Vec3{0, 1, 0}, qx);
    const sinew::Transform tu = vec::compose(t, u);
    const Vec3 p{0.5f, -1, 2};
    check(near3(vec::transform_point(tu, p), vec::transform_point(t, vec::transform_point(u, p)), 1e-5),
          "compose(t, u) = t after u");
    check(near3(vec::transform_point(vec::inverse(t), vec::transform_point(t, p)), p, 1e-5), "inverse(t) undoes t");
}

void library_normals() {
    // A unit square in the XZ plane, wound counter-clockwise seen from +Y: every normal
    // is +Y; with UVs u = x, v = z the tangent is +X and the bitangent +Z: sign
    // cross((0,1,0), (1,0,0)) = (0,0,-1), so w = -1.
    const std::vector<Vec3> p{Vec3{0, 0, 0}, Vec3{1, 0, 0}, Vec3{1, 0, 1}, Vec3{0, 0, 1}};
    const std::vector<uint32_t> tri{0, 2, 1, 0, 3, 2};
    const std::vector<float> uv{0, 0, 1, 0, 1, 1, 0, 1};
    std::vector<Vec3> n(4);
    std::vector<render::TangentW> t(4);
    const auto r = render::normals(sinew::Span<const Vec3>(p), sinew::Span<const uint32_t>(tri),
                                   sinew::Span<const float>(uv), sinew::Span<Vec3>(n),
                                   sinew::Span<render::TangentW>(t));
    check(static_cast<bool>(r), "render::normals over a square");
    bool up = true, along_x = true;
    for (size_t k = 0; k < 4; ++k) {
        up = up && near3(n[k], Vec3{0, 1, 0}, 1e-6);
        along_x = along_x && near3(Vec3{t[k].x, t[k].y, t[k].z}, Vec3{1, 0, 0}, 1e-6) && t[k].w == -1.0f;
    }
    check(up, "every normal +Y");
    check(along_x, "every tangent +X, bitangent sign -1 (+V is +Z)");
    std::vector<Vec3> short_out(3);
    const auto bad = render::normals(sinew::Span<const Vec3>(p), sinew::Span<const uint32_t>(tri), {},
                                     sinew::Span<Vec3>(short_out), {});
    check(!bad && bad.error().status == sinew::Status::InvalidArgument, "too few normals: refused");
}

} // namespace

int main() {
    rotations_and_transforms();
    interpolated_reads();
    affine_and_bounds();
    rope();
    cloth();
    library_normals();
    std::printf("%d checks, %d failed\n", g_checks, g_failures);
    return g_failures == 0 ? 0 : 1;
}

// Tests of the engine-neutral collision helpers the Unreal plugin uses:
// bindings/cpp/sinew_colliders.hpp (UE shape + cm/Z-up transform -> SinewColliderDesc)
// and the collider / radius / pick / grab parts of sinew::Scene (sinew_scene.hpp), and
// World's heightfield and distance field colliders, contact readback, contact wrench and contact events,
// against the real library, with closed-form expectations.
//
// Built and run by tests/bindings/cpp_wrapper.rs (cpp_colliders, cpp_colliders_asan_ubsan) with
// the same strict flags as wrapper_test.cpp. Prints every check; exits 1 on failure.
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <vector>

#include "sinew.hpp"
#include "sinew_colliders.hpp"
#include "sinew_scene.hpp"
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

std::string fmt3(sinew::Vec3 v) {
    return "(" + std::to_string(v.x) + ", " + std::to_string(v.y) + ", " + std::to_string(v.z) + ")";
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

namespace sc = sinew::colliders;
using sinew::units::Double3;

bool near3(sinew::Vec3 a, sinew::Vec3 b, float tol) {
    return near(a.x, b.x, tol) && near(a.y, b.y, tol) && near(a.z, b.z, tol);
}

sc::DQuat about(double ax, double ay, double az, double degrees) {
    const double h = 0.5 * degrees * 3.14159265358979323846 / 180.0;
    const double s = std::sin(h);
    return sc::DQuat{ax * s, ay * s, az * s, std::cos(h)};
}

sinew::Scene z_up_scene() {
    sinew::WorldDesc d;
    d.with_gravity(0.0f, 0.0f, -9.8f).with_substeps(8).with_iterations(4);
    d.damping = 0.0f;
    return must(sinew::Scene::create(d), "Scene::create");
}

/// A "ball": the library's smallest body, a rope of two 1 kg particles `radius` m in
/// radius, particle 0 at `p` and particle 1 0.05 m straight above it (`up` = 1) or
/// below it (`up` = -1); gravity is along Z and nothing pushes sideways, so the pair
/// stays vertical. Links rigid, no tethers.
sinew::BodyId add_ball(sinew::Scene& scene, sinew::Vec3 p, float radius, float up = 1.0f) {
    sinew::RopeDesc d;
    d.with_mass(2.0f).with_compliance(0.0f, 0.01f).with_pins(false, false).with_tethers(false);
    d.radius = radius;
    const sinew::Vec3 pts[2] = {p, sinew::Vec3{p.x, p.y, p.z + 0.05f * up}};
    return must(scene.add_rope_polyline(d, sinew::Span<const sinew::Vec3>(pts)), "add a two-particle body");
}

/// A row of `n` particles 0.1 m apart along X from `at`, 1 kg each, joined by links of
/// the largest compliance (1e10 m/N: they exert no force to speak of), so each particle
/// moves as if alone.
sinew::BodyId add_row(sinew::Scene& scene, sinew::Vec3 at, int n, float radius) {
    sinew::RopeDesc d;
    d.with_mass(float(n)).with_compliance(1e10f, 1e10f).with_pins(false, false).with_tethers(false);
    d.radius = radius;
    std::vector<sinew::Vec3> pts;
    for (int i = 0; i < n; ++i) pts.push_back(sinew::Vec3{at.x + 0.1f * float(i), at.y, at.z});
    return must(scene.add_rope_polyline(d, sinew::Span<const sinew::Vec3>(pts)), "add a row");
}

sinew::Vec3 position_of(sinew::Scene& scene, sinew::BodyId id, uint32_t i = 0) {
    std::vector<sinew::Vec3> p(must(scene.particle_count(id), "particle_count"));
    must(scene.read_positions(id, p), "read_positions");
    return p[i];
}

void run(sinew::Scene& scene, int steps) {
    for (int k = 0; k < steps; ++k) must(scene.step(1.0f / 60.0f), "step");
}

void test_rotations() {
    const sinew::Vec3 y{0, 1, 0}, z{0, 0, 1};
    // Identity UE rotation: the Sinew capsule axis (local Y) must be UE's local Z.
    auto q = must(sc::to_sim_rotation(sc::DQuat{}, sc::Shape::Capsule), "capsule rotation");
    check(near3(sc::rotate(q, y), z, 1e-6f), "capsule: Sinew local Y maps to UE local Z", fmt3(sc::rotate(q, y)));
    // A UE capsule pitched 90° about Y lies along world X.
    const sc::DQuat pitch = about(0, 1, 0, 90);
    q = must(sc::to_sim_rotation(pitch, sc::Shape::Capsule), "pitched capsule rotation");
    check(near3(sc::rotate(q, y), sinew::Vec3{1, 0, 0}, 1e-6f), "pitched capsule lies along world X",
          fmt3(sc::rotate(q, y)));
    // Planes: normal = UE's local +Z.
    q = must(sc::to_sim_rotation(about(1, 0, 0, 30), sc::Shape::Plane), "plane rotation");
    const sinew::Vec3 n = sc::rotate(q, y);
    check(near3(n, sinew::Vec3{0, -0.5f, 0.8660254f}, 1e-6f), "plane normal is the rotated local +Z", fmt3(n));
    // Spheres and boxes: rotation unchanged (but normalised).
    q = must(sc::to_sim_rotation(sc::DQuat{0, 0, 2, 2}, sc::Shape::Box), "box rotation");
    check(near(q.z, std::sqrt(0.5), 1e-6) && near(q.w, std::sqrt(0.5), 1e-6) && q.x == 0 && q.y == 0,
          "box rotation passes through, normalised");
    auto bad = sc::to_sim_rotation(sc::DQuat{0, 0, 0, 0}, sc::Shape::Sphere);
    check(!bad && bad.error().status == sinew::Status::InvalidArgument, "zero quaternion rejected");
}

void test_descs() {
    const sinew::units::Frame frame(Double3{100.0, 0.0, 0.0});
    sc::UeTransform xf;
    xf.location_cm = Double3{100.0, 200.0, 300.0};
    xf.scale = Double3{2.0, 3.0, -1.5};
    sc::ShapeParams cap;
    cap.shape = sc::Shape::Capsule;
    cap.radius_cm = 20.0;
    cap.half_height_cm = 60.0;
    sc::Material mat{0.4f, 0.3f, 0.5f};
    auto d = must(sc::to_collider_desc(frame, cap, xf, mat), "capsule desc");
    // Shape scale = min |scale| = 1.5: radius 30 cm, half height 90 cm, segment half 60 cm.
    check(d.shape == SINEW_SHAPE_CAPSULE, "capsule stays a capsule");
    check(near(d.radius, 0.30, 1e-6), "capsule radius scaled by the smallest axis, cm -> m", fmt(d.radius, 0.30));
    check(near(d.half_height, 0.60, 1e-6), "capsule half height excludes the caps", fmt(d.half_height, 0.60));
    check(near3(d.position, sinew::Vec3{0.0f, 2.0f, 3.0f}, 1e-6f), "position through the frame", fmt3(d.position));
    check(d.static_friction == 0.4f && d.dynamic_friction == 0.3f && d.restitution == 0.5f, "material copied");

    cap.half_height_cm = 20.0; // all caps: a sphere
    d = must(sc::to_collider_desc(frame, cap, xf), "round capsule desc");
    check(d.shape == SINEW_SHAPE_SPHERE && near(d.radius, 0.30, 1e-6), "capsule with half height = radius is a sphere");

    sc::ShapeParams box;
    box.shape = sc::Shape::Box;
    box.box_extent_cm = Double3{10.0, 20.0, 30.0};
    xf.scale = Double3{1.0, 2.0, -3.0};
    d = must(sc::to_collider_desc(frame, box, xf), "box desc");
    check(d.shape == SINEW_SHAPE_BOX && near3(d.half_extents, sinew::Vec3{0.1f, 0.4f, 0.9f}, 1e-6f),
          "box extent scaled per axis by |scale|", fmt3(d.half_extents));

    sc::ShapeParams sphere;
    sphere.radius_cm = 50.0;
    xf.scale = Double3{4.0, 0.5, 2.0};
    d = must(sc::to_collider_desc(frame, sphere, xf), "sphere desc");
    check(d.shape == SINEW_SHAPE_SPHERE && near(d.radius, 0.25, 1e-6), "sphere radius scaled by the smallest axis",
          fmt(d.radius, 0.25));

    // Bad input: a readable InvalidArgument, never a desc.
    sphere.radius_cm = 0.0;
    auto e = sc::to_collider_desc(frame, sphere, xf);
    check(!e && e.error().status == sinew::Status::InvalidArgument &&
              e.error().message.find("radius") != std::string::npos,
          "zero sphere radius rejected", e ? "" : e.error().message);
    sphere.radius_cm = 10.0;
    xf.scale.y = 0.0;
    e = sc::to_collider_desc(frame, sphere, xf);
    check(!e && e.error().message.find("scale") != std::string::npos, "zero scale rejected");
    xf.scale.y = 1.0;
    xf.location_cm.x = std::nan("");
    e = sc::to_collider_desc(frame, sphere, xf);
    check(!e && e.error().message.find("location") != std::string::npos, "NaN location rejected");
    xf.location_cm.x = 0.0;
    box.box_extent_cm.z = -1.0;
    e = sc::to_collider_desc(frame, box, xf);
    check(!e && e.error().message.find("box") != std::string::npos, "negative box extent rejected");
    // The library validates the material of the desc when it is added.
    sinew::Scene scene = z_up_scene();
    sphere.radius_cm = 10.0;
    d = must(sc::to_collider_desc(frame, sphere, xf, sc::Material{0.0f, 0.0f, 2.0f}), "desc with bad restitution");
    auto added = scene.add_collider(d);
    check(!added && added.error().status == sinew::Status::InvalidArgument && scene.collider_count() == 0,
          "restitution 2 rejected by the library, nothing added");
}

/// A UE capsule lying along world X (pitched 90° about Y), radius 20 cm, half height
/// 100 cm: balls dropped over its axis rest on top of it at z = 0.20 + r, balls dropped
/// beside it (y = 0.5 m > 0.2 m) fall past. A missing or wrong Y -> Z fix fails both.
void test_capsule_catches_particles() {
    sinew::Scene scene = z_up_scene();
    sc::ShapeParams cap;
    cap.shape = sc::Shape::Capsule;
    cap.radius_cm = 20.0;
    cap.half_height_cm = 100.0;
    sc::UeTransform xf;
    xf.rotation = about(0, 1, 0, 90);
    const sinew::units::Frame frame;
    const auto desc = must(sc::to_collider_desc(frame, cap, xf), "capsule desc");
    must(scene.add_collider(desc), "add capsule");
    const float r = 0.05f;
    const auto on_axis = add_ball(scene, sinew::Vec3{0.6f, 0.0f, 1.0f}, r);
    const auto beside = add_ball(scene, sinew::Vec3{0.0f, 0.5f, 1.0f}, r);
    run(scene, 120);
    const sinew::Vec3 a = position_of(scene, on_axis), b = position_of(scene, beside);
    check(near(a.z, 0.20 + r, 2e-3) && near(a.x, 0.6, 1e-3), "ball over the capsule axis rests at z = R + r",
          fmt(a.z, 0.20 + r));
    check(b.z < -1.0f, "ball beside the capsule falls past it", fmt3(b));
}

/// Removing a body (the library's removal, no rebuild) leaves colliders (at their latest
/// transform), radii and other bodies' grabs as they are.
void test_removal_keeps_colliders_radii_and_grabs() {
    sinew::Scene scene = z_up_scene();
    sc::ShapeParams sphere;
    sphere.radius_cm = 30.0;
    sc::UeTransform xf;
    xf.location_cm = Double3{0.0, 0.0, -500.0};
    const sinew::units::Frame frame;
    const auto id = must(scene.add_collider(must(sc::to_collider_desc(frame, sphere, xf), "sphere")), "add sphere");
    // Move it (teleport) to the origin.
    must(scene.set_collider_transform(id, sinew::Vec3{0, 0, 0}, sinew::Quat{0, 0, 0, 1}, true), "move sphere");
    const auto ball = add_ball(scene, sinew::Vec3{0.0f, 0.0f, 0.6f}, 0.1f);
    const auto other = add_ball(scene, sinew::Vec3{5.0f, 0.0f, 0.0f}, 0.1f);
    // Grab particle 0 of a third body, its partner hanging below, with compliance alpha:
    // static sag = (2 kg) g alpha.
    const float alpha = 1e-3f;
    const auto hung = add_ball(scene, sinew::Vec3{-3.0f, 0.0f, 0.0f}, 0.0f, -1.0f);
    must(scene.grab(hung, 0, sinew::Vec3{-3.0f, 0.0f, 0.0f}, alpha), "grab");
    run(scene, 30);
    must(scene.remove_body(other), "remove a body");
    check(scene.body_count() == 2 && *scene.world().body_count() == 2, "the library removed it");
    run(scene, 80);
    // The grabbed pair swings on the grab's spring (period 2π sqrt(2 kg α) = 0.28 s):
    // average its height over 69 frames, four periods.
    double mean_z = 0.0;
    for (int f = 0; f < 69; ++f) {
        run(scene, 1);
        mean_z += position_of(scene, hung).z / 69.0;
    }
    check(scene.collider_count() == 1 && scene.contains_collider(id), "collider id still valid after the removal");
    const sinew::Vec3 p = position_of(scene, ball);
    check(near(p.z, 0.3 + 0.1, 2e-3), "ball rests on the moved sphere (R + r)", fmt(p.z, 0.4));
    const double sag = 2.0 * 9.8 * alpha;
    check(near(mean_z, -sag, 0.1 * sag), "grabbed particle sags (2 kg) g alpha below its target on average",
          fmt(mean_z, -sag));
    // Material updates land, and bad ones change nothing.
    auto bad = scene.set_collider_material(id, -1.0f, 0.0f, 0.0f);
    check(!bad && bad.error().status == sinew::Status::InvalidArgument, "negative friction rejected");
    must(scene.set_collider_material(id, 0.5f, 0.4f, 0.0f), "set material");
    must(scene.remove_collider(id), "remove collider");
    check(scene.collider_count() == 0, "collider removed");
    auto gone = scene.remove_collider(id);
    check(!gone && gone.error().status == sinew::Status::InvalidHandle, "removing it twice: InvalidHandle");
    run(scene, 60);
    check(position_of(scene, ball).z < 0.0f, "without the sphere the ball falls");
}

/// A body's own particles do not collide (group = BodyId); different bodies do.
void test_radii_and_groups() {
    sinew::WorldDesc d;
    d.with_gravity(0.0f, 0.0f, 0.0f);
    d.damping = 0.0f;
    sinew::Scene scene = must(sinew::Scene::create(d), "Scene::create");
    // One body of two particles 0.05 m apart, radius 0.05: they overlap by 0.05 m.
    sinew::RopeDesc rd;
    rd.with_mass(2.0f).with_compliance(1e10f, 1e10f).with_pins(false, false).with_tethers(false);
    rd.radius = 0.05f;
    const sinew::Vec3 a_pts[2] = {{0.0f, 0.0f, 0.0f}, {0.05f, 0.0f, 0.0f}};
    const auto a = must(scene.add_rope_polyline(rd, sinew::Span<const sinew::Vec3>(a_pts)), "one body, overlapping");
    const sinew::Vec3 b_pts[2] = {{10.0f, 1.0f, 0.0f}, {10.2f, 1.0f, 0.0f}};
    const auto b = must(scene.add_rope_polyline(rd, sinew::Span<const sinew::Vec3>(b_pts)), "second body");
    const sinew::Vec3 c_pts[2] = {{10.0f, 1.09f, 0.0f}, {10.2f, 1.09f, 0.0f}};
    const auto c = must(scene.add_rope_polyline(rd, sinew::Span<const sinew::Vec3>(c_pts)), "third, overlapping b");
    run(scene, 1);
    // Bodies b and c overlap by 0.01 m at both ends; equal masses push each other apart
    // (at least to touching, r_b + r_c = 0.10 m) about their fixed centre of mass,
    // y = (1 + 1.09) / 2 = 1.045 (the links exert nothing to speak of).
    const sinew::Vec3 b0 = position_of(scene, b, 0), c0 = position_of(scene, c, 0);
    check(c0.y - b0.y >= 0.10f - 1e-4f, "particles of different bodies are pushed apart to >= r_a + r_b",
          fmt(c0.y - b0.y, 0.10));
    check(near(0.5 * (double(b0.y) + double(c0.y)), 1.045, 1e-4) && near(b0.x, 10.0, 1e-5),
          "equal masses: the midpoint stays (momentum conserved)", fmt(0.5 * (b0.y + c0.y), 1.045));
    run(scene, 30);
    const sinew::Vec3 a0 = position_of(scene, a, 0), a1 = position_of(scene, a, 1);
    check(near(a1.x - a0.x, 0.05, 1e-6) && near(a0.x, 0.0, 1e-6),
          "particles of one body (group = BodyId) overlap undisturbed", fmt(a1.x - a0.x, 0.05));
    rd.radius = -1.0f;
    auto bad = scene.add_rope_polyline(rd, sinew::Span<const sinew::Vec3>(a_pts));
    check(!bad && bad.error().status == sinew::Status::InvalidArgument && scene.body_count() == 3 &&
              *scene.world().particle_count() == 6,
          "negative radius rejected by the library, nothing added");
}

/// pick() names the body and its local particle; grab / move / release.
void test_pick_and_grab() {
    sinew::WorldDesc d;
    d.with_gravity(0.0f, 0.0f, -9.8f).with_substeps(8).with_iterations(4);
    d.damping = 0.0f;
    sinew::Scene scene = must(sinew::Scene::create(d), "Scene::create");
    // Two rows, every particle pinned: the pick sees them where they are.
    const auto first = add_row(scene, sinew::Vec3{0, 0, 0}, 5, 0.0f);
    const auto second = add_row(scene, sinew::Vec3{0, 1, 0}, 5, 0.0f);
    for (uint32_t i = 0; i < 5; ++i) {
        must(scene.pin(first, i), "pin");
        must(scene.pin(second, i), "pin");
    }
    // Straight down onto particle 3 of the second row, from 2 m above, direction not unit.
    auto hit = must(scene.pick(sinew::Vec3{0.31f, 1.0f, 2.0f}, sinew::Vec3{0, 0, -5.0f}, 0.02f), "pick");
    check(hit.hit() && hit.body == second && hit.particle == 3, "pick names the body and its local particle",
          "body " + std::to_string(hit.body) + " particle " + std::to_string(hit.particle));
    check(near(hit.distance, 2.0, 1e-4), "pick distance in m along the normalised ray", fmt(hit.distance, 2.0));
    hit = must(scene.pick(sinew::Vec3{0.31f, 0.5f, 2.0f}, sinew::Vec3{0, 0, -1.0f}, 0.02f), "pick between rows");
    check(!hit.hit() && hit.body == 0, "a ray between the rows misses");
    auto bad = scene.pick(sinew::Vec3{0, 0, 0}, sinew::Vec3{0, 0, 0}, 0.1f);
    check(!bad && bad.error().status == sinew::Status::InvalidArgument, "zero ray direction rejected");
    auto pinned = scene.grab(first, 2, sinew::Vec3{0, 0, 0}, 0.0f);
    check(!pinned && !scene.is_grabbed(first, 2), "a pinned particle cannot be grabbed");
    must(scene.unpin(first, 2), "unpin");
    must(scene.grab(first, 2, sinew::Vec3{0.2f, 0.0f, 0.0f}, 0.0f), "grab rigidly");
    must(scene.move_grab(first, 2, sinew::Vec3{0.2f, 0.0f, 0.5f}), "move grab");
    run(scene, 60);
    sinew::Vec3 p = position_of(scene, first, 2);
    check(near3(p, sinew::Vec3{0.2f, 0.0f, 0.5f}, 2e-3f), "rigidly grabbed particle follows its target", fmt3(p));
    auto oob = scene.grab(first, 9, sinew::Vec3{0, 0, 0}, 0.0f);
    check(!oob && oob.error().status == sinew::Status::OutOfRange, "grab of particle 9 of 5: OutOfRange");
    auto not_grabbed = scene.move_grab(first, 1, sinew::Vec3{0, 0, 0});
    check(!not_grabbed && not_grabbed.error().status == sinew::Status::InvalidArgument,
          "move_grab of a particle not grabbed rejected");
    must(scene.release(first, 2), "release");
    check(!scene.is_grabbed(first, 2), "released");
    run(scene, 30); // 0.5 s of free fall from rest: 1/2 g t² = 1.225 m
    p = position_of(scene, first, 2);
    check(near(p.z, 0.5 - 1.225, 0.03), "released particle falls freely", fmt(p.z, 0.5 - 1.225));
    auto twice = scene.release(first, 2);
    check(!twice, "releasing twice rejected");
    // A grab goes with its body.
    must(scene.unpin(second, 0), "unpin second");
    must(scene.grab(second, 0, sinew::Vec3{0, 1, 0}, 0.0f), "grab on the second row");
    must(scene.remove_body(second), "remove the second row");
    check(!scene.is_grabbed(second, 0), "removing a body drops its grabs");
    run(scene, 1);
}

/// A ball resting on a flat heightfield carries its weight into the collider's wrench,
/// reports one begin then persists, and a ball over a hole cell falls through unseen.
void test_heightfield_contacts_and_events() {
    sinew::WorldDesc wd;
    wd.with_gravity(0.0f, -9.8f, 0.0f).with_substeps(8).with_iterations(4);
    wd.damping = 0.0f;
    sinew::Scene scene = must(sinew::Scene::create(wd), "Scene::create (Y up)");
    sinew::World& world = scene.world();
    // 3 x 3 samples 1 m apart at height 0.5 m, corner at (-1, 0, -1); cell (0, 0) (x and
    // z in [-1, 0]) is a hole.
    SinewColliderDesc desc = sinew::collider_desc();
    desc.position = sinew::Vec3{-1.0f, 0.0f, -1.0f};
    const std::vector<float> heights(9, 0.5f);
    const std::vector<uint8_t> holes = {1, 0, 0, 0};
    auto short_heights = world.add_heightfield_collider(desc, 3, 3, 1.0f, 1.0f, sinew::Span<const float>(heights.data(), 8));
    check(!short_heights && short_heights.error().status == sinew::Status::InvalidArgument,
          "8 heights for 3 x 3 samples rejected");
    auto bad_holes = world.add_heightfield_collider(desc, 3, 3, 1.0f, 1.0f, heights,
                                                    sinew::Span<const uint8_t>(holes.data(), 3));
    check(!bad_holes && bad_holes.error().status == sinew::Status::InvalidArgument, "3 hole flags for 4 cells rejected");
    const sinew::Collider ground = must(world.add_heightfield_collider(desc, 3, 3, 1.0f, 1.0f, heights, holes),
                                        "add_heightfield_collider");
    check(ground.shape() == SINEW_SHAPE_MESH, "a heightfield is a mesh collider");
    must(world.set_contact_events(true), "set_contact_events");
    const float r = 0.05f;
    const auto resting = add_ball(scene, sinew::Vec3{0.5f, 0.7f, 0.5f}, r);
    const auto holed = add_ball(scene, sinew::Vec3{-0.5f, 0.7f, -0.5f}, r);
    int begins = 0, persists = 0, ends = 0, others = 0;
    uint64_t body = 0, lost = 0;
    sinew::ContactEvent buffer[2]; // small on purpose: drained in several takes
    for (int k = 0; k < 120; ++k) {
        must(scene.step(1.0f / 60.0f), "step");
        for (;;) {
            const auto taken = must(world.take_contact_events(buffer), "take_contact_events");
            lost += taken.lost;
            for (uint32_t i = 0; i < taken.count; ++i) {
                const sinew::ContactEvent& e = buffer[i];
                if (!ground.is(e.collider) || (body != 0 && e.body.id != body)) {
                    ++others;
                    continue;
                }
                body = e.body.id;
                if (e.kind == SINEW_CONTACT_BEGIN) ++begins;
                else if (e.kind == SINEW_CONTACT_PERSIST) ++persists;
                else ++ends;
            }
            if (taken.count < 2) break;
        }
    }
    check(must(world.contact_event_count(), "contact_event_count") == 0, "every event taken");
    const sinew::Vec3 a = position_of(scene, resting), b = position_of(scene, holed);
    check(near(a.y, 0.5 + r, 2e-3), "ball rests on the heightfield at y = h + r", fmt(a.y, 0.5 + r));
    check(b.y < -1.0f, "ball over the hole cell falls through", fmt3(b));
    check(begins == 1 && ends == 0 && others == 0 && lost == 0 && body != 0,
          "one begin for the resting ball's body, no end, nothing for the other",
          std::to_string(begins) + " begins, " + std::to_string(ends) + " ends, " + std::to_string(others) +
              " others, " + std::to_string(lost) + " lost");
    check(persists > 60, "persist events while it rests", std::to_string(persists));
    // Readback into caller memory. add_ball puts the second particle 0.05 m along +Z
    // (the other tests' up): here both particles rest on the ground side by side.
    const uint32_t n = must(world.contact_count(), "contact_count");
    SinewContact contacts[4];
    const uint32_t written = must(world.read_contacts(contacts), "read_contacts");
    check(n == 2 && written == 2, "two contacts (the resting ball's two particles)", std::to_string(n));
    for (uint32_t i = 0; i < written && i < 2; ++i) {
        const SinewContact& c = contacts[i];
        check(ground.is(c.collider) && near3(c.normal, sinew::Vec3{0, 1, 0}, 1e-4f),
              "contact on the heightfield with normal +Y", fmt3(c.normal));
        check(near(c.point.x, 0.5, 1e-3) && near(c.point.y, 0.5, 1e-3) && near(c.point.z, 0.5 + 0.05 * i, 1e-3),
              "contact point on the surface under the particle", fmt3(c.point));
    }
    SinewContact one[1];
    check(must(world.read_contacts(one), "read_contacts into one") == 1, "read_contacts stops at the span's size");
    check(must(world.read_contacts(sinew::Span<SinewContact>()), "read_contacts into nothing") == 0,
          "read_contacts into an empty span writes nothing");
    // The 2 kg ball's weight on the ground, half under each particle: no torque about
    // their midpoint, 9.8 N x 0.05 m = 0.49 N m about particle 0's contact.
    const sinew::Wrench w = must(ground.contact_wrench(), "contact_wrench");
    check(near(w.force.y, -2.0 * 9.8, 0.02 * 2.0 * 9.8) && near(w.force.x, 0.0, 0.05) && near(w.force.z, 0.0, 0.05),
          "the ground carries the ball's weight (N, downward)", fmt3(w.force));
    const sinew::Wrench mid = must(ground.contact_wrench(sinew::Vec3{0.5f, 0.5f, 0.525f}), "contact_wrench about");
    check(near3(mid.torque, sinew::Vec3{0, 0, 0}, 0.01f), "no torque about the contacts' midpoint", fmt3(mid.torque));
    const sinew::Wrench end = must(ground.contact_wrench(sinew::Vec3{0.5f, 0.5f, 0.5f}), "contact_wrench about");
    check(near3(end.torque, sinew::Vec3{0.49f, 0, 0}, 0.01f), "(0.05 m along z) x (9.8 N down) about particle 0's contact",
          fmt3(end.torque));
    // Off forgets the pairs: on again, the next step begins the resting pair afresh. The
    // Scene names the body and the particle within it (the heightfield was added to the
    // World directly: no Scene collider).
    must(scene.set_contact_events(false), "contact events off");
    must(scene.set_contact_events(true), "contact events on");
    must(scene.step(1.0f / 60.0f), "step");
    std::vector<sinew::Scene::ContactEvent> events;
    must(scene.take_contact_events(events), "Scene::take_contact_events");
    check(events.size() == 1 && events[0].kind == SINEW_CONTACT_BEGIN && events[0].body == resting &&
              events[0].particle == 0 && events[0].collider == 0 && events[0].impulse > 0.0f,
          "Scene: one begin, the resting ball's particle 0", std::to_string(events.size()) + " events");
}

/// A Z-up "landscape" sampled into a heightfield: ground 1 m up, none where X < 0 and
/// Y < 0; a ball rests on it at 1 m + r, a ball over the missing quarter falls through.
void test_heightfield_from_samples() {
    sinew::Scene scene = z_up_scene();
    const sinew::units::Frame frame;
    auto ground = [](double x, double y, double& z) {
        if (x < 0.0 && y < 0.0) return false;
        z = 100.0;
        return true;
    };
    auto bad = sc::heightfield_from_samples(frame, -200.0, 200.0, 0.0, 100.0, 1, 5, ground);
    check(!bad && bad.error().status == sinew::Status::InvalidArgument, "heightfield of 1 column rejected");
    const sc::Heightfield h = must(sc::heightfield_from_samples(frame, -200.0, 200.0, 0.0, 100.0, 5, 5, ground),
                                   "heightfield_from_samples");
    check(h.columns == 5 && h.rows == 5 && near(h.cell, 1.0, 1e-6) && near(h.heights[0], 1.0, 1e-6),
          "5 x 5 samples 1 m apart, 1 m above the corner");
    // Cells (row j from Y = 2 m down, column i from X = -2 m): a cell touching a sample
    // with X < 0 and Y < 0 is a hole, i.e. columns 0-1 of rows 2-3.
    int holes = 0;
    for (uint8_t f : h.holes) holes += f;
    check(h.holes.size() == 16 && holes == 4 && h.holes[2 * 4 + 0] == 1 && h.holes[3 * 4 + 1] == 1 &&
              h.holes[1 * 4 + 1] == 0 && h.holes[2 * 4 + 2] == 0,
          "holes where a corner has no ground", std::to_string(holes) + " holes");
    check(near3(sc::rotate(h.desc.rotation, sinew::Vec3{0, 1, 0}), sinew::Vec3{0, 0, 1}, 1e-6f) &&
              near3(sc::rotate(h.desc.rotation, sinew::Vec3{0, 0, 1}), sinew::Vec3{0, -1, 0}, 1e-6f),
          "grid up is world +Z, rows run along world -Y");
    must(scene.add_heightfield_collider(h.desc, h.columns, h.rows, h.cell, h.cell, h.heights, h.holes),
         "Scene::add_heightfield_collider");
    const float r = 0.05f;
    const auto on = add_ball(scene, sinew::Vec3{0.5f, 0.5f, 1.5f}, r);
    const auto over = add_ball(scene, sinew::Vec3{-0.5f, -0.5f, 1.5f}, r);
    run(scene, 120);
    const sinew::Vec3 a = position_of(scene, on), b = position_of(scene, over);
    check(near(a.z, 1.0 + r, 2e-3) && near(a.x, 0.5, 1e-3), "ball rests on the sampled ground at 1 m + r",
          fmt(a.z, 1.0 + r));
    check(b.z < 0.0f, "ball over the groundless quarter falls through", fmt3(b));
}

} // namespace

/// A world without gravity or damping, 8 substeps of 4 iterations.
sinew::World zero_gravity_world() {
    sinew::WorldDesc wd;
    wd.with_gravity(0.0f, 0.0f, 0.0f).with_substeps(8).with_iterations(4);
    wd.damping = 0.0f;
    return must(sinew::World::create(wd), "World::create");
}

/// A free dynamic box of half extent 0.2 m and mass `mass` (kg) at the origin with
/// restitution `e`.
sinew::Collider free_box(sinew::World& world, float mass, float e) {
    SinewColliderDesc desc = sinew::collider_desc();
    desc.shape = SINEW_SHAPE_BOX;
    desc.half_extents = sinew::Vec3{0.2f, 0.2f, 0.2f};
    desc.restitution = e;
    sinew::Collider box = must(world.add_collider(desc), "add_collider");
    const float moment = mass * 0.16f / 6.0f;
    SinewColliderDynamics d{};
    d.mass = mass;
    d.inertia = sinew::Vec3{moment, moment, moment};
    d.inertia_rotation = SinewQuat{0.0f, 0.0f, 0.0f, 1.0f};
    must(box.set_dynamics(d), "set_dynamics");
    return box;
}

// A particle pinned to a free box in zero gravity, thrown outwards, pulls it: the momentum of rope + box
// stays the initial one (within 1%), and mass x velocity change is the wrench's impulse.
void test_dynamic_collider_and_pins() {
    sinew::World world = zero_gravity_world();
    const float mass = 2.0f;
    sinew::Collider box = free_box(world, mass, 0.0f);
    std::vector<sinew::Vec3> pts;
    std::vector<float> inv;
    for (int i = 0; i < 5; ++i) {
        pts.push_back(sinew::Vec3{0.25f + 0.1f * float(i), 0.0f, 0.0f});
        inv.push_back(5.0f);
    }
    const sinew::Range r = must(world.add_particles(sinew::Span<const sinew::Vec3>(pts.data(), pts.size()),
                                                    sinew::Span<const float>(inv.data(), inv.size())),
                                "add_particles");
    std::vector<uint32_t> pinned = {r.first};
    std::vector<sinew::Vec3> offsets = {sinew::Vec3{0.25f, 0.0f, 0.0f}};
    const uint32_t pin = must(box.pin_particles(pinned, offsets), "pin_particles");
    check(pin == 0, "first pin is 0");
    auto bad = box.pin_particles(pinned, sinew::Span<const sinew::Vec3>());
    check(!bad && bad.error().status == sinew::Status::InvalidArgument, "1 particle, 0 offsets rejected");
    // The pinned particle thrown outwards at 3 m/s: 0.6 kg m/s in all (the others
    // are free and at rest).
    std::vector<sinew::Vec3> v(5, sinew::Vec3{0.0f, 0.0f, 0.0f});
    v[0] = sinew::Vec3{3.0f, 0.0f, 0.0f};
    must(world.write_velocities(r.first, sinew::Span<const sinew::Vec3>(v.data(), v.size())), "write_velocities");
    for (int k = 0; k < 60; ++k) must(world.step(1.0f / 60.0f), "step");
    std::vector<sinew::Vec3> out(5);
    must(world.read_velocities(r.first, sinew::Span<sinew::Vec3>(out.data(), out.size())), "read_velocities");
    float p = 0.0f;
    for (const auto& u : out) p += 0.2f * u.x;
    const SinewColliderMotion m = must(box.motion(), "motion");
    p += mass * m.velocity.x;
    check(std::fabs(p - 0.6f) < 0.006f, "momentum of rope + box kept", std::to_string(p));
    check(m.velocity.x > 0.0f, "the pin drags the box", std::to_string(m.velocity.x));
    const sinew::Wrench w = must(box.contact_wrench(), "contact_wrench");
    check(std::fabs(w.force.x / 60.0f - mass * m.velocity_change.x) < 1e-4f, "wrench impulse = m dv");
    std::vector<sinew::Vec3> f(1);
    must(world.read_pin_forces(0, sinew::Span<sinew::Vec3>(f.data(), 1)), "read_pin_forces");
    must(world.remove_pins(0, 1), "remove_pins");
    must(box.clear_dynamics(), "clear_dynamics");
    check(!box.motion(), "a kinematic collider has no motion");
    check(!world.collider_motion(box.handle()), "nor through the World's raw-handle call");
}

/// A particle falling head-on onto a free dynamic box (zero gravity) with restitution
/// 0.5: the relative normal speed afterwards is half the approach and the momentum is
/// kept (closed form v_box = (1 + e) m v0 / (m + M)).
void test_dynamic_collider_restitution() {
    sinew::World world = zero_gravity_world();
    const float mass = 2.0f, mp = 0.5f, v0 = -3.0f;
    sinew::Collider box = free_box(world, mass, 0.5f);
    const std::vector<sinew::Vec3> pts = {sinew::Vec3{0.0f, 0.6f, 0.0f}};
    const std::vector<float> inv = {1.0f / mp};
    const sinew::Range r = must(world.add_particles(sinew::Span<const sinew::Vec3>(pts.data(), 1),
                                                    sinew::Span<const float>(inv.data(), 1)),
                                "add_particles");
    const float radius = 0.05f;
    must(world.set_particle_radii(r.first, sinew::Span<const float>(&radius, 1)), "set_particle_radii");
    const std::vector<sinew::Vec3> v = {sinew::Vec3{0.0f, v0, 0.0f}};
    must(world.write_velocities(r.first, sinew::Span<const sinew::Vec3>(v.data(), 1)), "write_velocities");
    for (int k = 0; k < 30; ++k) must(world.step(1.0f / 60.0f), "step");
    std::vector<sinew::Vec3> out(1);
    must(world.read_velocities(r.first, sinew::Span<sinew::Vec3>(out.data(), 1)), "read_velocities");
    const SinewColliderMotion m = must(box.motion(), "motion");
    check(near(out[0].y - m.velocity.y, 1.5, 2e-3), "relative normal speed = -e x approach",
          fmt(out[0].y - m.velocity.y, 1.5));
    check(near(m.velocity.y, 1.5 * mp * v0 / (mp + mass), 2e-3), "box velocity (1 + e) m v0 / (m + M)",
          fmt(m.velocity.y, 1.5 * mp * v0 / (mp + mass)));
}

/// A Collider owns its handle: destroying it removes the collider, release() keeps it
/// in the world, a moved-from Collider is empty, remove() empties it and a second
/// removal through the raw handle is refused; after its world is gone the destructor
/// is harmless.
void test_collider_ownership() {
    sinew::World world = must(sinew::World::create(), "World::create");
    auto count = [&] { return must(world.collider_count(), "collider_count"); };
    {
        sinew::Collider a = must(world.add_collider(sinew::collider_desc()), "add_collider");
        check(a.valid() && a.shape() == SINEW_SHAPE_PLANE, "a plane collider");
        check(count() == 1, "one collider");
        sinew::Collider b = std::move(a);
        check(!a.valid() && b.valid(), "moved: the source is empty");
        check(count() == 1, "a move removes nothing");
    }
    check(count() == 0, "the destructor removed it");
    sinew::Collider kept = must(world.add_collider(sinew::collider_desc()), "add_collider");
    const SinewCollider raw = kept.release();
    check(!kept.valid() && count() == 1, "release() keeps it in the world");
    must(world.remove_collider(raw), "remove_collider (raw)");
    sinew::Collider c = must(world.add_collider(sinew::collider_desc()), "add_collider");
    const SinewCollider handle = c.handle();
    must(c.remove(), "remove");
    check(!c.valid() && count() == 0, "remove() empties it");
    check(world.remove_collider(handle).status() == sinew::Status::InvalidHandle, "removed handle refused");
    check(!c.set_material(0.0f, 0.0f, 0.0f), "an empty Collider's calls fail");
    sinew::Collider orphan = must(world.add_collider(sinew::collider_desc()), "add_collider");
    world.reset();
    check(orphan.set_material(0.0f, 0.0f, 0.0f).status() == sinew::Status::InvalidHandle,
          "its world destroyed: InvalidHandle");
}

/// A closed box mesh turned into a distance field holds a ball at its radius; an open
/// mesh and a grid that does not match its node counts are refused.
void test_sdf_collider() {
    sinew::WorldDesc wd;
    wd.with_gravity(0.0f, -9.8f, 0.0f).with_substeps(8).with_iterations(4);
    wd.damping = 0.0f;
    sinew::Scene scene = must(sinew::Scene::create(wd), "Scene::create (Y up)");
    sinew::World& world = scene.world();
    std::vector<sinew::Vec3> v(8);
    for (int i = 0; i < 8; ++i)
        v[i] = sinew::Vec3{(i & 1) ? 0.5f : -0.5f, (i & 2) ? 0.1f : -0.1f, (i & 4) ? 0.5f : -0.5f};
    const std::vector<uint32_t> t = {0, 2, 3, 0, 3, 1, 4, 5, 7, 4, 7, 6, 0, 1, 5, 0, 5, 4,
                                     2, 6, 7, 2, 7, 3, 0, 4, 6, 0, 6, 2, 1, 3, 7, 1, 7, 5};
    const sc::SdfGrid grid = must(sc::sdf_from_mesh(v, t, 0.05f, 0.1f), "sdf_from_mesh");
    check(grid.distances.size() == std::size_t(grid.nx) * grid.ny * grid.nz && grid.nx >= 25 && grid.ny >= 9,
          "field of the box: at least 25 x 9 x 25 nodes", std::to_string(grid.nx) + " x " + std::to_string(grid.ny));
    auto open = sc::sdf_from_mesh(v, sinew::Span<const uint32_t>(t.data(), 33), 0.05f, 0.1f);
    check(!open && open.error().status == sinew::Status::InvalidArgument, "an open mesh is refused");
    sc::SdfGrid short_grid = grid;
    short_grid.distances.pop_back();
    auto bad = sc::add_sdf_collider(world, sinew::collider_desc(), short_grid);
    check(!bad && bad.error().status == sinew::Status::InvalidArgument, "a short grid is refused");
    const sinew::Collider field = must(sc::add_sdf_collider(world, sinew::collider_desc(), grid), "add_sdf_collider");
    check(field.shape() == SINEW_SHAPE_SDF, "its shape reads as SINEW_SHAPE_SDF");
    const float r = 0.05f;
    const auto ball = add_ball(scene, sinew::Vec3{0.1f, 0.5f, 0.0f}, r);
    run(scene, 120);
    const sinew::Vec3 a = position_of(scene, ball);
    check(near(a.y, 0.1 + r, 2e-3), "ball rests on the field box at y = 0.1 + r", fmt(a.y, 0.1 + r));
}

int main() {
    test_rotations();
    test_descs();
    test_capsule_catches_particles();
    test_removal_keeps_colliders_radii_and_grabs();
    test_radii_and_groups();
    test_pick_and_grab();
    test_heightfield_contacts_and_events();
    test_heightfield_from_samples();
    test_dynamic_collider_and_pins();
    test_dynamic_collider_restitution();
    test_collider_ownership();
    test_sdf_collider();
    std::printf("%d checks, %d failed\n", g_checks, g_failures);
    return g_failures == 0 ? 0 : 1;
}

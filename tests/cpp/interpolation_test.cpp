// Fixed step and interpolation through the C++ wrapper (sinew.hpp) against the real
// library: World::advance step counts and alphas (2.5 fixed steps per frame: 2 then
// 3), the max_steps cap dropping time, jittery frames bit-identical to fixed steps,
// and the interpolated reads (world, body, strided vertex buffer) equal to the lerp of
// the two states, with a teleport leaving no streak.
//
// Built and run by tests/bindings/cpp_wrapper.rs (cpp_interpolation, cpp_interpolation_asan_ubsan)
// with the same strict flags as wrapper_test.cpp. Prints every check; exits 1 on failure.
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
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

/// A power of two: multiples and halves are exact.
constexpr float kFixed = 1.0f / 64.0f;

bool same_bits(const sinew::Vec3& a, const sinew::Vec3& b) { return std::memcmp(&a, &b, sizeof a) == 0; }

/// The library's expression, operation for operation.
sinew::Vec3 lerp(const sinew::Vec3& a, const sinew::Vec3& b, float t) {
    const float u = 1.0f - t;
    return sinew::Vec3{a.x * u + b.x * t, a.y * u + b.y * t, a.z * u + b.z * t};
}

std::string fmt3(const sinew::Vec3& v) {
    return "(" + std::to_string(v.x) + ", " + std::to_string(v.y) + ", " + std::to_string(v.z) + ")";
}

struct RopeWorld {
    sinew::World world;
    sinew::Body rope;
};

RopeWorld make_rope_world() {
    sinew::World w = must(sinew::World::create(sinew::WorldDesc().with_threads(1)), "create a world");
    sinew::Body rope = must(w.add_rope(sinew::RopeDesc()
                                           .with_ends(sinew::Vec3{0.0f, 2.0f, 0.0f}, sinew::Vec3{1.5f, 2.0f, 0.3f})
                                           .with_segments(8)),
                            "add a rope");
    return RopeWorld{std::move(w), std::move(rope)};
}

std::vector<sinew::Vec3> state(const sinew::World& w, uint32_t n) {
    std::vector<sinew::Vec3> p, v;
    must(w.read_positions(sinew::Range{0, n}, p), "read positions");
    must(w.read_velocities(sinew::Range{0, n}, v), "read velocities");
    p.insert(p.end(), v.begin(), v.end());
    return p;
}

bool same_state(const std::vector<sinew::Vec3>& a, const std::vector<sinew::Vec3>& b) {
    return a.size() == b.size() && std::memcmp(a.data(), b.data(), a.size() * sizeof(sinew::Vec3)) == 0;
}

void step_counts_and_alpha() {
    RopeWorld r = make_rope_world();
    const std::pair<uint32_t, float> expected[] = {{2, 0.5f}, {3, 0.0f}, {2, 0.5f}, {3, 0.0f}};
    int frame = 0;
    for (const auto& e : expected) {
        const sinew::AdvanceResult a = must(r.world.advance(2.5f * kFixed, kFixed, 8), "advance");
        check(a.steps == e.first && a.alpha == e.second, "frame " + std::to_string(frame++) + " of 2.5 steps",
              std::to_string(a.steps) + " steps, alpha " + std::to_string(a.alpha));
    }
    // 10.25 steps capped at 4: the 6 whole steps beyond are dropped, the quarter kept.
    sinew::AdvanceResult a = must(r.world.advance(10.25f * kFixed, kFixed, 4), "advance capped");
    check(a.steps == 4 && a.alpha == 0.25f, "max_steps caps and keeps the fraction",
          std::to_string(a.steps) + " steps, alpha " + std::to_string(a.alpha));
    a = must(r.world.advance(0.5f * kFixed, kFixed, 4), "advance half a step");
    check(a.steps == 0 && a.alpha == 0.75f, "the dropped time does not come back",
          std::to_string(a.steps) + " steps, alpha " + std::to_string(a.alpha));
}

void jittery_frames_match_fixed_steps() {
    RopeWorld j = make_rope_world();
    RopeWorld f = make_rope_world();
    const uint32_t n = must(j.world.particle_count(), "count");
    uint32_t seed = 12345u, total = 0;
    bool alphas_ok = true;
    for (int frame = 0; frame < 90; ++frame) {
        seed = seed * 1664525u + 1013904223u;
        const float dt = 0.005f + 0.04f * static_cast<float>(seed >> 8) / 16777216.0f;
        const sinew::AdvanceResult a = must(j.world.advance(dt, kFixed, 8), "advance");
        alphas_ok = alphas_ok && a.alpha >= 0.0f && a.alpha < 1.0f;
        for (uint32_t k = 0; k < a.steps; ++k) must(f.world.step(kFixed), "step");
        total += a.steps;
    }
    check(alphas_ok, "every alpha in [0, 1)");
    check(total > 100, "the frames ran steps", std::to_string(total));
    check(same_state(state(j.world, n), state(f.world, n)), "jittery frames end bit-identical to fixed steps");
}

void interpolated_reads() {
    RopeWorld r = make_rope_world();
    const sinew::Range range = must(r.rope.particles(), "range");
    const uint32_t n = range.count;
    std::vector<sinew::Vec3> start(n), got(n);
    must(r.rope.read_positions(start), "read");
    must(r.rope.read_interpolated_positions(0.5f, got), "read interpolated");
    check(same_state(start, got), "before the first step previous = current");

    const sinew::AdvanceResult a = must(r.world.advance(3.5f * kFixed, kFixed, 8), "advance");
    std::vector<sinew::Vec3> before, after;
    must(r.world.read_interpolated_positions(range, 0.0f, before), "alpha 0");
    must(r.world.read_interpolated_positions(range, 1.0f, after), "alpha 1");
    std::vector<sinew::Vec3> current(n);
    must(r.rope.read_positions(current), "read");
    check(same_state(after, current), "alpha 1 is the current state");
    check(before[n - 1].y != after[n - 1].y, "the free end moves");

    struct Vertex {
        sinew::Vec3 position;
        uint32_t colour;
    };
    std::vector<Vertex> verts(n + 1, Vertex{sinew::Vec3{0, 0, 0}, 0xDEADBEEFu});
    must(r.rope.read_interpolated_positions_strided(a.alpha, verts.data(), n + 1, sizeof(Vertex)),
         "strided body read");
    bool lerp_ok = true, colour_ok = true;
    for (uint32_t i = 0; i < n; ++i) {
        const sinew::Vec3 want = lerp(before[i], after[i], a.alpha);
        if (!same_bits(want, verts[i].position)) {
            lerp_ok = false;
            check(false, "vertex " + std::to_string(i), fmt3(verts[i].position) + " vs " + fmt3(want));
        }
        colour_ok = colour_ok && verts[i].colour == 0xDEADBEEFu;
    }
    check(lerp_ok, "body read into a vertex buffer is (1 - alpha) previous + alpha current");
    check(colour_ok && verts[n].position.y == 0.0f, "the rest of the vertex buffer is untouched");

    std::vector<sinew::Vec3> strided(n);
    must(r.world.read_interpolated_positions_strided(range.first, n, 0.25f, strided.data(), 12), "strided");
    bool quarter_ok = true;
    for (uint32_t i = 0; i < n; ++i) quarter_ok = quarter_ok && same_bits(lerp(before[i], after[i], 0.25f), strided[i]);
    check(quarter_ok, "world strided read at alpha 0.25");

    // A write is a teleport: no streak from the old place.
    std::vector<sinew::Vec3> moved = current;
    for (auto& p : moved) p.x += 5.0f;
    must(r.world.write_positions(range.first, moved), "write");
    must(r.rope.read_interpolated_positions(0.5f, got), "read after write");
    check(same_state(moved, got), "a position write sets the previous state too");

    // Bad input: an error, nothing written.
    std::vector<sinew::Vec3> sentinel(n, sinew::Vec3{7, 7, 7});
    auto bad = r.rope.read_interpolated_positions(1.5f, sentinel);
    check(!bad && bad.error().status == sinew::Status::InvalidArgument &&
              bad.error().message.find("alpha") != std::string::npos,
          "alpha 1.5 is refused", bad ? "" : bad.error().message);
    auto nan = r.world.advance(NAN, kFixed, 4);
    check(!nan && nan.error().message.find("frame_dt") != std::string::npos, "frame_dt NaN is refused");
    auto zero = r.world.advance(0.1f, kFixed, 0);
    check(!zero && zero.error().message.find("max_steps") != std::string::npos, "max_steps 0 is refused");
    bool untouched = true;
    for (const auto& p : sentinel) untouched = untouched && p.x == 7.0f && p.y == 7.0f && p.z == 7.0f;
    check(untouched, "a refused read writes nothing");
}

}  // namespace

int main() {
    step_counts_and_alpha();
    jittery_frames_match_fixed_steps();
    interpolated_reads();
    std::printf("%d checks, %d failed\n", g_checks, g_failures);
    return g_failures == 0 ? 0 : 1;
}

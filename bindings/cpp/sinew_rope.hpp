// sinew_rope.hpp: the starting shape of a rope of a given length between two points,
// for the library's rope builder (World::add_rope_polyline / Scene::add_rope_polyline,
// which makes the particles, links, bend links and tethers); engine-neutral.
//
// Like Unreal's CableComponent, a rope of `segments` links has its own rest `length`:
// longer than the start-end distance it starts sagging in a V (apex straight below the
// midpoint, along `down`), so that its polyline is `length` long; shorter or equal, it
// starts straight from `start` towards `end` and `length` long (a pinned end driven to
// its attachment then stretches it). The points are evenly spaced along the polyline;
// the library takes the distances between them as the links' rest lengths (length /
// segments, a little less for a link across the apex).
//
// rope::pieces splits a rope that broke, was cut or is partly reeled in into the runs
// of particles to draw.
#ifndef SINEW_ROPE_HPP
#define SINEW_ROPE_HPP

#include <cmath>
#include <cstdint>
#include <string>
#include <vector>

#include "sinew.hpp"
#include "sinew_vec.hpp"

namespace sinew {
namespace rope {

struct Params {
    Vec3 start{0, 0, 0};    ///< m
    Vec3 end{1, 0, 0};      ///< m
    float length = 1.0f;    ///< rest length, m (> 0)
    uint32_t segments = 10; ///< links, 1..=100000
    Vec3 down{0, 0, -1};    ///< unit direction of the sag (gravity's), and of the rope when start = end
};

/// The segments + 1 points (m) of the starting polyline.
inline Result<std::vector<Vec3>> polyline(const Params& p) {
    if (p.segments < 1 || p.segments > 100000)
        return Error{Status::InvalidArgument, "rope::polyline: segments must be in 1..=100000, got " +
                                                  std::to_string(p.segments)};
    if (!(p.length > 0.0f) || !std::isfinite(p.length))
        return Error{Status::InvalidArgument, "rope::polyline: length must be finite and > 0 m"};
    if (!vec::is_finite(p.start) || !vec::is_finite(p.end) || !vec::is_finite(p.down))
        return Error{Status::InvalidArgument, "rope::polyline: start, end and down must be finite"};
    const Vec3 down = vec::normalize_or(p.down, Vec3{0, 0, -1});
    const float gap = vec::distance(p.start, p.end);
    // The corners of the polyline: start, (apex,) end.
    std::vector<Vec3> corners;
    if (p.length > gap && gap > 0.0f) {
        const float h = std::sqrt(std::fmax(0.25f * p.length * p.length - 0.25f * gap * gap, 0.0f));
        corners = {p.start, vec::add(vec::lerp(p.start, p.end, 0.5f), vec::scale(down, h)), p.end};
    } else {
        const Vec3 dir = gap > 0.0f ? vec::scale(vec::sub(p.end, p.start), 1.0f / gap) : down;
        corners = {p.start, vec::add(p.start, vec::scale(dir, p.length))};
    }
    // Even spacing along the corners' arc length.
    std::vector<float> arc(corners.size(), 0.0f);
    for (std::size_t k = 1; k < corners.size(); ++k) arc[k] = arc[k - 1] + vec::distance(corners[k - 1], corners[k]);
    std::vector<Vec3> out(std::size_t{p.segments} + 1);
    std::size_t k = 0;
    for (uint32_t i = 0; i <= p.segments; ++i) {
        const float s = arc.back() * static_cast<float>(i) / static_cast<float>(p.segments);
        while (k + 2 < corners.size() && s > arc[k + 1]) ++k;
        const float len = arc[k + 1] - arc[k];
        const float t = len > 0.0f ? (s - arc[k]) / len : 0.0f;
        out[i] = vec::lerp(corners[k], corners[k + 1], std::fmin(std::fmax(t, 0.0f), 1.0f));
    }
    out.front() = corners.front();
    out.back() = corners.back();
    return out;
}

/// A run of consecutive particles `first .. first + count` (count >= 2) joined by
/// intact links: one tube to draw.
struct Piece {
    uint32_t first = 0;
    uint32_t count = 0;
    bool operator==(const Piece& o) const noexcept { return first == o.first && count == o.count; }
    bool operator!=(const Piece& o) const noexcept { return !(*this == o); }
};

/// The pieces of a rope of `particles` particles to draw: links `first_link ..` only
/// (a winch at the start parks the particles before its paying link at the drum), split
/// wherever `broken[k]` (link k, between particles k and k + 1, broke or was cut; links
/// past broken.size() are intact). Pieces of a single particle are left out.
inline std::vector<Piece> pieces(uint32_t particles, uint32_t first_link, const std::vector<bool>& broken) {
    std::vector<Piece> out;
    if (particles < 2) return out;
    uint32_t start = first_link < particles ? first_link : particles - 1;
    for (uint32_t k = start; k + 1 < particles; ++k) {
        if (k < broken.size() && broken[k]) {
            if (k > start) out.push_back(Piece{start, k - start + 1});
            start = k + 1;
        }
    }
    if (particles - start >= 2) out.push_back(Piece{start, particles - start});
    return out;
}

} // namespace rope
} // namespace sinew

#endif // SINEW_ROPE_HPP

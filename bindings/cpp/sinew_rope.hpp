// sinew_rope.hpp: rope parameters -> particles and distance constraints; engine-neutral.
//
// Like Unreal's CableComponent, a rope of `segments` links starts as a straight line
// from `start` to `end`; its rest length is `length` (it sags if longer than the
// start-end distance, and is stretched towards its rest length if shorter). The total
// `mass` (kg) is split evenly over the segments + 1 particles; pinned ends get inverse
// mass 0 and are driven by writing their positions (the attachments).
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
    Vec3 start{0, 0, 0};       ///< m
    Vec3 end{1, 0, 0};         ///< m
    float length = 1.0f;       ///< rest length, m (> 0)
    uint32_t segments = 10;    ///< links, 1..=100000
    float mass = 1.0f;         ///< total mass, kg (> 0)
    bool pin_start = true;     ///< first particle pinned (inverse mass 0)
    bool pin_end = false;      ///< last particle pinned
};

struct Layout {
    std::vector<Vec3> positions;       ///< segments + 1, m
    std::vector<float> inverse_masses; ///< 1/kg; 0 at pinned ends
    std::vector<float> free_inverse_masses; ///< 1/kg of every particle if it were free
    std::vector<uint32_t> pairs;       ///< (i, i + 1) per link
    std::vector<float> rest_lengths;   ///< length / segments, m
};

inline Result<Layout> layout(const Params& p) {
    if (p.segments < 1 || p.segments > 100000)
        return Error{Status::InvalidArgument, "rope::layout: segments must be in 1..=100000, got " +
                                                  std::to_string(p.segments)};
    if (!(p.length > 0.0f) || !std::isfinite(p.length))
        return Error{Status::InvalidArgument, "rope::layout: length must be finite and > 0 m"};
    if (!(p.mass > 0.0f) || !std::isfinite(p.mass))
        return Error{Status::InvalidArgument, "rope::layout: mass must be finite and > 0 kg"};
    if (!vec::is_finite(p.start) || !vec::is_finite(p.end))
        return Error{Status::InvalidArgument, "rope::layout: start and end must be finite"};
    Layout out;
    const uint32_t n = p.segments + 1;
    const float w = static_cast<float>(n) / p.mass;
    out.positions.resize(n);
    out.inverse_masses.assign(n, w);
    out.free_inverse_masses.assign(n, w);
    for (uint32_t i = 0; i < n; ++i)
        out.positions[i] = vec::lerp(p.start, p.end, static_cast<float>(i) / static_cast<float>(p.segments));
    if (p.pin_start) out.inverse_masses[0] = 0.0f;
    if (p.pin_end) out.inverse_masses[n - 1] = 0.0f;
    out.pairs.reserve(2 * std::size_t{p.segments});
    for (uint32_t i = 0; i < p.segments; ++i) {
        out.pairs.push_back(i);
        out.pairs.push_back(i + 1);
    }
    out.rest_lengths.assign(p.segments, p.length / static_cast<float>(p.segments));
    return out;
}

} // namespace rope
} // namespace sinew

#endif // SINEW_ROPE_HPP

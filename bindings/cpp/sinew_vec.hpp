// sinew_vec.hpp: the few vector operations the engine-neutral helpers (tube mesh,
// cloth, rope) need, on sinew::Vec3 (three floats). Not a maths library.
#ifndef SINEW_VEC_HPP
#define SINEW_VEC_HPP

#include <cmath>

#include "sinew.hpp"

namespace sinew {
namespace vec {

inline Vec3 add(Vec3 a, Vec3 b) noexcept { return Vec3{a.x + b.x, a.y + b.y, a.z + b.z}; }
inline Vec3 sub(Vec3 a, Vec3 b) noexcept { return Vec3{a.x - b.x, a.y - b.y, a.z - b.z}; }
inline Vec3 scale(Vec3 a, float s) noexcept { return Vec3{a.x * s, a.y * s, a.z * s}; }
inline float dot(Vec3 a, Vec3 b) noexcept { return a.x * b.x + a.y * b.y + a.z * b.z; }
inline Vec3 cross(Vec3 a, Vec3 b) noexcept {
    return Vec3{a.y * b.z - a.z * b.y, a.z * b.x - a.x * b.z, a.x * b.y - a.y * b.x};
}
inline float length(Vec3 a) noexcept { return std::sqrt(dot(a, a)); }
inline float distance(Vec3 a, Vec3 b) noexcept { return length(sub(a, b)); }
inline bool is_finite(Vec3 a) noexcept { return std::isfinite(a.x) && std::isfinite(a.y) && std::isfinite(a.z); }
/// a / |a|, or `fallback` when |a| is (nearly) zero or not finite.
inline Vec3 normalize_or(Vec3 a, Vec3 fallback) noexcept {
    const float len = length(a);
    if (!(len > 1e-20f) || !std::isfinite(len)) return fallback;
    return scale(a, 1.0f / len);
}
/// Linear interpolation a + (b - a) t.
inline Vec3 lerp(Vec3 a, Vec3 b, float t) noexcept { return add(a, scale(sub(b, a), t)); }

} // namespace vec
} // namespace sinew

#endif // SINEW_VEC_HPP

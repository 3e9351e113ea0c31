// sinew_vec.hpp: the few vector operations the engine-neutral helpers (tube mesh,
// cloth, rope) need, on sinew::Vec3 (three floats), and the rotation and transform
// helpers a host needs to place things (a nozzle's direction, a collider's pose, a
// point in a body's frame) on sinew::Quat and sinew::Transform, the C ABI's own
// types. Not a maths library: an engine's own types convert field by field.
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

// Rotations: unit quaternions (x, y, z, w), Hamilton product, the convention of the C
// ABI, Unity and Unreal. `mul(a, b)` turns by b first, then by a.

/// The rotation of `radians` about `axis` (any length; a zero or non-finite axis gives the
/// identity), right-handed.
inline Quat axis_angle(Vec3 axis, float radians) noexcept {
    const Vec3 u = normalize_or(axis, Vec3{0.0f, 0.0f, 0.0f});
    const float s = std::sin(0.5f * radians);
    if (u.x == 0.0f && u.y == 0.0f && u.z == 0.0f) return identity_quat();
    return Quat{u.x * s, u.y * s, u.z * s, std::cos(0.5f * radians)};
}
/// a b: the rotation b followed by a.
inline Quat mul(Quat a, Quat b) noexcept {
    return Quat{a.w * b.x + a.x * b.w + a.y * b.z - a.z * b.y, a.w * b.y - a.x * b.z + a.y * b.w + a.z * b.x,
                a.w * b.z + a.x * b.y - a.y * b.x + a.z * b.w, a.w * b.w - a.x * b.x - a.y * b.y - a.z * b.z};
}
/// The inverse of a unit quaternion.
inline Quat conjugate(Quat q) noexcept { return Quat{-q.x, -q.y, -q.z, q.w}; }
/// q / |q| (what the C ABI's unit check wants after arithmetic), or the identity when q
/// is (nearly) zero or not finite.
inline Quat normalize(Quat q) noexcept {
    const float n = std::sqrt(q.x * q.x + q.y * q.y + q.z * q.z + q.w * q.w);
    if (!(n > 1e-20f) || !std::isfinite(n)) return identity_quat();
    const float k = 1.0f / n;
    return Quat{q.x * k, q.y * k, q.z * k, q.w * k};
}
/// v turned by the unit quaternion q.
inline Vec3 rotate(Quat q, Vec3 v) noexcept {
    const Vec3 u{q.x, q.y, q.z};
    const Vec3 t = scale(cross(u, v), 2.0f);
    return add(add(v, scale(t, q.w)), cross(u, t));
}
/// The shortest rotation that turns the direction `from` onto the direction `to` (any
/// lengths): e.g. a nozzle, which pours along its local +z, aimed along `d` is
/// `from_to(Vec3{0, 0, 1}, d)`. Opposite directions turn half a turn about an axis
/// perpendicular to `from`; a zero direction gives the identity.
inline Quat from_to(Vec3 from, Vec3 to) noexcept {
    const Vec3 zero{0.0f, 0.0f, 0.0f};
    const Vec3 a = normalize_or(from, zero), b = normalize_or(to, zero);
    if (dot(a, a) == 0.0f || dot(b, b) == 0.0f) return identity_quat();
    const float c = dot(a, b);
    if (c < -0.999999f) {
        // Half a turn about any axis perpendicular to a.
        Vec3 axis = cross(Vec3{1.0f, 0.0f, 0.0f}, a);
        if (dot(axis, axis) < 1e-6f) axis = cross(Vec3{0.0f, 1.0f, 0.0f}, a);
        axis = normalize_or(axis, Vec3{0.0f, 0.0f, 1.0f});
        return Quat{axis.x, axis.y, axis.z, 0.0f};
    }
    const Vec3 axis = cross(a, b);
    return normalize(Quat{axis.x, axis.y, axis.z, 1.0f + c});
}

// Rigid transforms (position m, rotation): local -> world.

/// The world position of the local point p.
inline Vec3 transform_point(const Transform& t, Vec3 p) noexcept { return add(t.position, rotate(t.rotation, p)); }
/// The local position of the world point p.
inline Vec3 inverse_transform_point(const Transform& t, Vec3 p) noexcept {
    return rotate(conjugate(t.rotation), sub(p, t.position));
}
/// The world direction of the local direction d (rotation only).
inline Vec3 transform_direction(const Transform& t, Vec3 d) noexcept { return rotate(t.rotation, d); }
/// parent ∘ child: the world transform of a frame placed at `child` inside `parent`.
inline Transform compose(const Transform& parent, const Transform& child) noexcept {
    return Transform{transform_point(parent, child.position), mul(parent.rotation, child.rotation)};
}
/// The transform that undoes t.
inline Transform inverse(const Transform& t) noexcept {
    const Quat r = conjugate(t.rotation);
    return Transform{rotate(r, scale(t.position, -1.0f)), r};
}

} // namespace vec
} // namespace sinew

#endif // SINEW_VEC_HPP

// sinew_tube.hpp: a tube mesh around a polyline (a rope's particles), engine-neutral.
//
// Rings of `sides + 1` vertices (the seam vertex is duplicated so that U runs 0..1)
// around every centreline point, oriented by parallel-transport (rotation-minimising)
// frames computed with the double-reflection method (Wang, Jüttler, Zheng, Liu 2008,
// "Computation of rotation minimizing frames", ACM TOG 27(1)), so the tube never
// twists or flips where the rope bends. Frames are also continuous from one frame of
// animation to the next: the first ring's reference direction is kept in the Mesh and
// re-used (projected) on the next build.
//
// Output per vertex: position (same units as the input), unit outward normal, UV
// (U = around, 0..1; V = arc length * v_per_length), unit tangent along the rope.
// Triangles: `(points - 1) * sides * 2`. Winding: FrontFace::CounterClockwise means the
// numeric cross product (b - a) x (c - a) of every triangle (a, b, c) points out of the
// tube (OpenGL, glTF); FrontFace::Clockwise means it points in, which is what Unreal
// Engine (and Direct3D, Unity) treat as front-facing.
#ifndef SINEW_TUBE_HPP
#define SINEW_TUBE_HPP

#include <cmath>
#include <cstdint>
#include <string>
#include <vector>

#include "sinew.hpp"
#include "sinew_vec.hpp"

namespace sinew {
namespace tube {

enum class FrontFace { CounterClockwise, Clockwise };

struct Params {
    float radius = 0.01f;          ///< tube radius, in the units of the points
    uint32_t sides = 8;            ///< vertices around (>= 3)
    float v_per_length = 1.0f;     ///< texture V per unit of arc length (texture tiling)
    FrontFace front_face = FrontFace::CounterClockwise;
};

struct Uv {
    float u = 0.0f, v = 0.0f;
};

/// The generated mesh. Re-use one Mesh across frames: its vectors keep their capacity
/// and `start_normal` keeps the frame continuous over time.
struct Mesh {
    std::vector<Vec3> positions;
    std::vector<Vec3> normals;
    std::vector<Vec3> tangents;
    std::vector<Uv> uvs;
    std::vector<uint32_t> indices;
    /// The first ring's reference direction of the previous build ((0,0,0) = none).
    Vec3 start_normal{0.0f, 0.0f, 0.0f};
};

inline uint32_t vertex_count(uint32_t points, uint32_t sides) { return points * (sides + 1); }
inline uint32_t index_count(uint32_t points, uint32_t sides) { return points < 2 ? 0 : (points - 1) * sides * 6; }

namespace detail {
/// A unit vector perpendicular to unit `t`: `hint` projected on the plane of `t` if it
/// is not (nearly) parallel to `t`, otherwise the world axis least aligned with `t`.
inline Vec3 perpendicular(Vec3 t, Vec3 hint) {
    Vec3 p = vec::sub(hint, vec::scale(t, vec::dot(hint, t)));
    if (vec::length(p) > 1e-3f) return vec::normalize_or(p, Vec3{1, 0, 0});
    const float ax = std::fabs(t.x), ay = std::fabs(t.y), az = std::fabs(t.z);
    Vec3 axis = ax <= ay && ax <= az ? Vec3{1, 0, 0} : (ay <= az ? Vec3{0, 1, 0} : Vec3{0, 0, 1});
    p = vec::sub(axis, vec::scale(t, vec::dot(axis, t)));
    return vec::normalize_or(p, Vec3{1, 0, 0});
}
} // namespace detail

/// Unit tangents of a polyline: central differences inside, one-sided at the ends;
/// a zero-length neighbourhood re-uses the previous tangent.
inline void tangents(Span<const Vec3> points, std::vector<Vec3>& out) {
    const std::size_t n = points.size();
    out.resize(n);
    Vec3 previous{0, 0, 1};
    // Find a usable first direction so that a leading run of coincident points does
    // not fall back to an arbitrary axis.
    for (std::size_t i = 1; i < n; ++i) {
        const Vec3 d = vec::sub(points[i], points[0]);
        if (vec::length(d) > 1e-12f) {
            previous = vec::normalize_or(d, previous);
            break;
        }
    }
    for (std::size_t i = 0; i < n; ++i) {
        const Vec3 a = points[i == 0 ? 0 : i - 1];
        const Vec3 b = points[i + 1 < n ? i + 1 : n - 1];
        previous = vec::normalize_or(vec::sub(b, a), previous);
        out[i] = previous;
    }
}

/// Builds the tube around `points` (>= 2, finite) into `mesh`.
inline Result<void> build(Span<const Vec3> points, const Params& params, Mesh& mesh) {
    if (points.size() < 2)
        return Error{Status::InvalidArgument, "tube::build: needs at least 2 points, got " +
                                                  std::to_string(points.size())};
    if (params.sides < 3 || params.sides > 256)
        return Error{Status::InvalidArgument, "tube::build: sides must be in 3..=256, got " +
                                                  std::to_string(params.sides)};
    if (!(params.radius > 0.0f) || !std::isfinite(params.radius) || !std::isfinite(params.v_per_length))
        return Error{Status::InvalidArgument, "tube::build: radius must be finite and > 0, v_per_length finite"};
    for (std::size_t i = 0; i < points.size(); ++i)
        if (!vec::is_finite(points[i]))
            return Error{Status::InvalidArgument, "tube::build: point " + std::to_string(i) + " is not finite"};
    if (points.size() > (std::size_t{1} << 24))
        return Error{Status::OutOfRange, "tube::build: too many points"};

    const uint32_t n = static_cast<uint32_t>(points.size());
    const uint32_t ring = params.sides + 1;
    std::vector<Vec3> t;
    tangents(points, t);

    // Reference directions r[i] by double reflection.
    std::vector<Vec3> r(n);
    r[0] = detail::perpendicular(t[0], mesh.start_normal);
    for (uint32_t i = 0; i + 1 < n; ++i) {
        const Vec3 v1 = vec::sub(points[i + 1], points[i]);
        const float c1 = vec::dot(v1, v1);
        Vec3 rl = r[i], tl = t[i];
        if (c1 > 1e-24f) {
            rl = vec::sub(r[i], vec::scale(v1, 2.0f / c1 * vec::dot(v1, r[i])));
            tl = vec::sub(t[i], vec::scale(v1, 2.0f / c1 * vec::dot(v1, t[i])));
        }
        const Vec3 v2 = vec::sub(t[i + 1], tl);
        const float c2 = vec::dot(v2, v2);
        Vec3 next = c2 > 1e-24f ? vec::sub(rl, vec::scale(v2, 2.0f / c2 * vec::dot(v2, rl))) : rl;
        // Re-orthonormalise against float drift.
        r[i + 1] = detail::perpendicular(t[i + 1], next);
    }
    mesh.start_normal = r[0];

    mesh.positions.resize(std::size_t{n} * ring);
    mesh.normals.resize(mesh.positions.size());
    mesh.tangents.resize(mesh.positions.size());
    mesh.uvs.resize(mesh.positions.size());
    const float two_pi = 6.283185307179586f;
    float arc = 0.0f;
    for (uint32_t i = 0; i < n; ++i) {
        if (i > 0) arc += vec::distance(points[i], points[i - 1]);
        const Vec3 b = vec::cross(t[i], r[i]);
        for (uint32_t j = 0; j < ring; ++j) {
            const uint32_t jj = j == params.sides ? 0 : j; // the seam repeats angle 0 exactly
            const float a = two_pi * static_cast<float>(jj) / static_cast<float>(params.sides);
            const Vec3 normal = vec::add(vec::scale(r[i], std::cos(a)), vec::scale(b, std::sin(a)));
            const std::size_t k = std::size_t{i} * ring + j;
            mesh.positions[k] = vec::add(points[i], vec::scale(normal, params.radius));
            mesh.normals[k] = normal;
            mesh.tangents[k] = t[i];
            mesh.uvs[k] = Uv{static_cast<float>(j) / static_cast<float>(params.sides), arc * params.v_per_length};
        }
    }

    mesh.indices.clear();
    mesh.indices.reserve(index_count(n, params.sides));
    const bool ccw = params.front_face == FrontFace::CounterClockwise;
    for (uint32_t i = 0; i + 1 < n; ++i) {
        for (uint32_t j = 0; j < params.sides; ++j) {
            const uint32_t a = i * ring + j, b = a + 1, c = a + ring, d = c + 1;
            // (a, b, c) and (b, d, c): (b - a) runs around, (c - a) along the tangent,
            // and around x along = outward for a right-handed (t, r, t x r) frame.
            const uint32_t tri[6] = {a, b, c, b, d, c};
            for (int q = 0; q < 6; q += 3) {
                mesh.indices.push_back(tri[q]);
                mesh.indices.push_back(ccw ? tri[q + 1] : tri[q + 2]);
                mesh.indices.push_back(ccw ? tri[q + 2] : tri[q + 1]);
            }
        }
    }
    return {};
}

} // namespace tube
} // namespace sinew

#endif // SINEW_TUBE_HPP

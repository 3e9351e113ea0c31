// sinew_colliders.hpp: Unreal-style collider shapes (centimetres, Z up, capsules along
// local Z, scale on the transform) -> SinewColliderDesc (metres, capsules along local Y).
// Engine-neutral: the Unreal plugin's USinewColliderComponent calls it every frame.
//
// Conventions (see sinew_units.hpp for positions):
//   * Rotations pass through unchanged (the simulation runs in UE's axes, only scaled).
//   * A Sinew capsule lies along its local Y axis, a UE capsule along local Z: the Sinew
//     rotation is q_ue * q_fix with q_fix = 90° about X (local Y -> local Z). The same
//     fix turns a Sinew plane (normal local Y) into one whose normal is UE's local +Z.
//   * UE's capsule half height INCLUDES the hemispherical caps; Sinew's half_height is
//     half the axis segment: half_height = ue_half_height - radius. A capsule whose
//     half height is <= its radius is a sphere and becomes a Sinew sphere.
//   * Scale as UE applies it: spheres and capsules scale by the smallest |axis scale|
//     (UShapeComponent::GetShapeScale), boxes per axis by |scale|.
#ifndef SINEW_COLLIDERS_HPP
#define SINEW_COLLIDERS_HPP

#include <algorithm>
#include <cmath>
#include <string>
#include <vector>

#include "sinew.hpp"
#include "sinew_units.hpp"

namespace sinew {
namespace colliders {

/// A rotation quaternion in double precision (UE's FQuat: x, y, z, w).
struct DQuat {
    double x = 0.0, y = 0.0, z = 0.0, w = 1.0;
};

/// The shapes a UE scene can mirror.
enum class Shape { Sphere, Capsule, Box, Plane };

/// Shape parameters the way UE stores them, unscaled, in cm.
struct ShapeParams {
    Shape shape = Shape::Sphere;
    double radius_cm = 50.0;      ///< sphere / capsule radius
    double half_height_cm = 50.0; ///< capsule: UE half height, caps included (>= radius)
    units::Double3 box_extent_cm{50.0, 50.0, 50.0}; ///< box half extents
};

/// A UE world transform: location (cm), rotation, 3D scale.
struct UeTransform {
    units::Double3 location_cm{};
    DQuat rotation{};
    units::Double3 scale{1.0, 1.0, 1.0};
};

/// The collider's settings that are not its shape or pose (friction coefficients,
/// restitution, ...), as the ColliderDesc declares them; validated by the library.
struct Material {
    // BEGIN GENERATED ColliderDesc material fields
    /// Coulomb coefficient below which a contact sticks. In [0, SINEW_MAX_FRICTION]. Default 0.
    float static_friction = 0.0f;
    /// Coulomb coefficient of sliding. In [0, SINEW_MAX_FRICTION]. Default 0.
    float dynamic_friction = 0.0f;
    /// Normal velocity kept after an impact, as a fraction of the approach speed (0 = no
    /// bounce, 1 = elastic). In [0, 1]. Default 0.
    float restitution = 0.0f;
    /// Whether the contact readback (`World::contacts`, sinew_world_read_contacts) lists this
    /// collider's contacts. Off, the collider still acts on the particles, only its contacts
    /// are left out (a host world that handles some colliders' contacts itself, or none).
    /// Default 1 (0 or 1).
    bool report_contacts = true;
    // END GENERATED ColliderDesc material fields
};

/// Hamilton product a * b (apply b, then a).
inline DQuat multiply(const DQuat& a, const DQuat& b) noexcept {
    return DQuat{a.w * b.x + a.x * b.w + a.y * b.z - a.z * b.y, a.w * b.y - a.x * b.z + a.y * b.w + a.z * b.x,
                 a.w * b.z + a.x * b.y - a.y * b.x + a.z * b.w, a.w * b.w - a.x * b.x - a.y * b.y - a.z * b.z};
}

/// Rotates v by the unit quaternion q.
inline Vec3 rotate(const Quat& q, const Vec3& v) noexcept {
    // v' = v + 2 w (u x v) + 2 u x (u x v), u = (x, y, z)
    const float cx = q.y * v.z - q.z * v.y, cy = q.z * v.x - q.x * v.z, cz = q.x * v.y - q.y * v.x;
    const float dx = q.y * cz - q.z * cy, dy = q.z * cx - q.x * cz, dz = q.x * cy - q.y * cx;
    return Vec3{v.x + 2.0f * (q.w * cx + dx), v.y + 2.0f * (q.w * cy + dy), v.z + 2.0f * (q.w * cz + dz)};
}

/// 90° about X: maps local +Y to local +Z (Sinew capsule axis / plane normal -> UE's).
inline DQuat y_to_z() noexcept {
    const double h = std::sqrt(0.5);
    return DQuat{h, 0.0, 0.0, h};
}

/// The Sinew rotation of a collider of `shape` whose UE rotation is `ue`: normalised,
/// with the Y -> Z fix for capsules and planes. InvalidArgument for a zero or
/// non-finite quaternion.
inline Result<Quat> to_sim_rotation(const DQuat& ue, Shape shape) {
    const double n = std::sqrt(ue.x * ue.x + ue.y * ue.y + ue.z * ue.z + ue.w * ue.w);
    if (!std::isfinite(n) || !(n > 1e-12))
        return Error{Status::InvalidArgument, "sinew::colliders: rotation quaternion is zero or not finite"};
    DQuat q{ue.x / n, ue.y / n, ue.z / n, ue.w / n};
    if (shape == Shape::Capsule || shape == Shape::Plane) q = multiply(q, y_to_z());
    return Quat{static_cast<float>(q.x), static_cast<float>(q.y), static_cast<float>(q.z), static_cast<float>(q.w)};
}

namespace detail {
inline bool positive(double v) noexcept { return std::isfinite(v) && v > 0.0; }
inline Error bad(const std::string& what) { return Error{Status::InvalidArgument, "sinew::colliders: " + what}; }
} // namespace detail

/// The SinewColliderDesc (m) of a UE shape at a UE transform (cm, Z up), seen through
/// `frame`. InvalidArgument (naming the field) for non-positive or non-finite sizes,
/// scales or a bad rotation; materials are checked by the library when added.
inline Result<SinewColliderDesc> to_collider_desc(const units::Frame& frame, const ShapeParams& params,
                                                  const UeTransform& xf, const Material& material = Material()) {
    const units::Double3 s{std::fabs(xf.scale.x), std::fabs(xf.scale.y), std::fabs(xf.scale.z)};
    if (!detail::positive(s.x) || !detail::positive(s.y) || !detail::positive(s.z))
        return detail::bad("scale must be finite and non-zero on every axis");
    const units::Double3& l = xf.location_cm;
    if (!std::isfinite(l.x) || !std::isfinite(l.y) || !std::isfinite(l.z))
        return detail::bad("location must be finite");
    const double shape_scale = std::min(s.x, std::min(s.y, s.z));
    SinewColliderDesc d = collider_desc();
    Shape effective = params.shape;
    switch (params.shape) {
    case Shape::Sphere:
        if (!detail::positive(params.radius_cm)) return detail::bad("sphere radius must be > 0 cm");
        d.shape = SINEW_SHAPE_SPHERE;
        d.radius = units::length_to_sim(params.radius_cm * shape_scale);
        break;
    case Shape::Capsule: {
        if (!detail::positive(params.radius_cm)) return detail::bad("capsule radius must be > 0 cm");
        if (!std::isfinite(params.half_height_cm) || params.half_height_cm < 0.0)
            return detail::bad("capsule half height must be finite and >= 0 cm");
        const double radius = params.radius_cm * shape_scale;
        const double segment_half = params.half_height_cm * shape_scale - radius;
        d.radius = units::length_to_sim(radius);
        if (segment_half * units::kMetresPerUnrealUnit > 1e-6) {
            d.shape = SINEW_SHAPE_CAPSULE;
            d.half_height = units::length_to_sim(segment_half);
        } else {
            d.shape = SINEW_SHAPE_SPHERE; // all caps, no cylinder: a sphere
            effective = Shape::Sphere;
        }
        break;
    }
    case Shape::Box: {
        const units::Double3& e = params.box_extent_cm;
        if (!detail::positive(e.x) || !detail::positive(e.y) || !detail::positive(e.z))
            return detail::bad("box extent must be > 0 cm on every axis");
        d.shape = SINEW_SHAPE_BOX;
        d.half_extents = Vec3{units::length_to_sim(e.x * s.x), units::length_to_sim(e.y * s.y),
                              units::length_to_sim(e.z * s.z)};
        break;
    }
    case Shape::Plane:
        d.shape = SINEW_SHAPE_PLANE;
        break;
    default:
        return detail::bad("unknown shape");
    }
    auto q = to_sim_rotation(xf.rotation, effective);
    if (!q) return q.error();
    d.rotation = *q;
    d.position = frame.to_sim(xf.location_cm);
    // BEGIN GENERATED ColliderDesc material copy
    d.static_friction = material.static_friction;
    d.dynamic_friction = material.dynamic_friction;
    d.restitution = material.restitution;
    d.report_contacts = material.report_contacts ? 1u : 0u;
    // END GENERATED ColliderDesc material copy
    return d;
}

/// True when `a` and `b` have the same shape and sizes (then only the transform or the
/// material changed and the collider can be moved instead of re-created).
inline bool same_geometry(const SinewColliderDesc& a, const SinewColliderDesc& b) noexcept {
    return a.shape == b.shape && a.radius == b.radius && a.half_height == b.half_height &&
           a.half_extents.x == b.half_extents.x && a.half_extents.y == b.half_extents.y &&
           a.half_extents.z == b.half_extents.z;
}

/// A heightfield sampled from a Z-up world (a Landscape): what
/// World::add_heightfield_collider takes.
struct Heightfield {
    SinewColliderDesc desc{};  ///< the corner sample's position, the rotation, the material
    uint32_t columns = 0;      ///< samples along world +X
    uint32_t rows = 0;         ///< samples along world -Y
    float cell = 0.0f;         ///< m between samples, both ways
    std::vector<float> heights; ///< m above the corner, row by row
    std::vector<uint8_t> holes; ///< per cell, row by row: 1 where a corner had no ground; empty when none
};

/// Samples `columns` x `rows` (each >= 2) ground heights `cell_cm` apart over the
/// world rectangle whose top-left corner (smallest X, largest Y) is (`x_cm`, `y_top_cm`):
/// sample (i, j) at X = x_cm + i cell_cm, Y = y_top_cm - j cell_cm, where
/// `sample(X, Y, z_cm)` writes the ground's height (cm) and returns true, or returns
/// false where there is no ground (a hole, or past the terrain's edge: the cells around
/// it become holes). Heights are measured from `base_z_cm`; the grid's local up (Sinew's
/// local Y) is turned onto world +Z and its rows onto world -Y (the plane rotation of
/// to_collider_desc).
template <class Sample>
Result<Heightfield> heightfield_from_samples(const units::Frame& frame, double x_cm, double y_top_cm, double base_z_cm,
                                             double cell_cm, uint32_t columns, uint32_t rows, Sample&& sample,
                                             const Material& material = Material{}) {
    if (columns < 2 || rows < 2) return detail::bad("a heightfield needs at least 2 x 2 samples");
    if (!(cell_cm > 0.0) || !std::isfinite(cell_cm)) return detail::bad("heightfield cell size must be > 0 cm");
    ShapeParams plane;
    plane.shape = Shape::Plane;
    UeTransform corner;
    corner.location_cm = units::Double3{x_cm, y_top_cm, base_z_cm};
    auto desc = to_collider_desc(frame, plane, corner, material);
    if (!desc) return desc.error();
    Heightfield h;
    h.desc = *desc;
    h.columns = columns;
    h.rows = rows;
    h.cell = units::length_to_sim(cell_cm);
    h.heights.assign(std::size_t(columns) * rows, 0.0f);
    std::vector<uint8_t> ground(h.heights.size(), 0);
    bool any_hole = false;
    for (uint32_t j = 0; j < rows; ++j)
        for (uint32_t i = 0; i < columns; ++i) {
            double z = base_z_cm;
            const std::size_t k = std::size_t(j) * columns + i;
            if (sample(x_cm + i * cell_cm, y_top_cm - j * cell_cm, z) && std::isfinite(z)) {
                ground[k] = 1;
                h.heights[k] = units::length_to_sim(z - base_z_cm);
            } else {
                any_hole = true;
            }
        }
    if (any_hole) {
        h.holes.assign(std::size_t(columns - 1) * (rows - 1), 0);
        for (uint32_t j = 0; j + 1 < rows; ++j)
            for (uint32_t i = 0; i + 1 < columns; ++i) {
                const std::size_t k = std::size_t(j) * columns + i;
                const bool solid = ground[k] && ground[k + 1] && ground[k + columns] && ground[k + columns + 1];
                h.holes[std::size_t(j) * (columns - 1) + i] = solid ? 0 : 1;
            }
    }
    return h;
}

/// A grid of signed distances (sinew_world_add_sdf_collider): nx x ny x nz nodes (each
/// >= 2) every `cell` m from the local `origin`, node (i, j, k)'s distance (m, negative
/// inside the solid) at distances[(k ny + j) nx + i]. 4 bytes a node: bake it once (at
/// import) and keep it with the asset.
struct SdfGrid {
    uint32_t nx = 0, ny = 0, nz = 0;
    float cell = 0.0f;
    SinewVec3 origin{0.0f, 0.0f, 0.0f};
    std::vector<float> distances;
};

/// The field of a closed triangle mesh (m, the collider's frame, counter-clockwise seen
/// from outside; seams welded) from sinew_sdf_from_mesh: nodes every `cell` m over its
/// box grown by `margin` m (at least the largest particle radius plus a cell), exact
/// distances to the nearest triangle, negative inside. An open or inside-out mesh is an
/// InvalidArgument naming the edge or triangle.
inline Result<SdfGrid> sdf_from_mesh(Span<const SinewVec3> vertices, Span<const uint32_t> triangles, float cell,
                                     float margin) {
    if (triangles.size() % 3 != 0)
        return sinew::detail::local_error(Status::InvalidArgument,
                                   "sdf_from_mesh: " + std::to_string(triangles.size()) +
                                       " triangle indices, not a multiple of 3");
    SdfGrid g;
    uint32_t dims[3] = {0, 0, 0};
    const auto nv = static_cast<uint32_t>(vertices.size());
    const auto nt = static_cast<uint32_t>(triangles.size() / 3);
    auto counted = sinew::detail::to_result(
        sinew_sdf_from_mesh(vertices.data(), nv, triangles.data(), nt, cell, margin, dims, &g.origin, nullptr, 0));
    if (!counted) return counted.error();
    g.nx = dims[0];
    g.ny = dims[1];
    g.nz = dims[2];
    g.cell = cell;
    g.distances.assign(std::size_t(g.nx) * g.ny * g.nz, 0.0f);
    return sinew::detail::checked(sinew_sdf_from_mesh(vertices.data(), nv, triangles.data(), nt, cell, margin, dims,
                                               &g.origin, g.distances.data(),
                                               static_cast<uint32_t>(g.distances.size())),
                           g);
}

/// Adds `grid` as a static signed distance field collider of `world`
/// (sinew_world_add_sdf_collider): `desc` places it and gives the material; swept,
/// with the friction and restitution of every collider; its shape reads as
/// SINEW_SHAPE_SDF. Returns the Collider that owns it (removed when it is destroyed).
inline Result<Collider> add_sdf_collider(World& world, const SinewColliderDesc& desc, const SdfGrid& grid) {
    if (grid.nx < 2 || grid.ny < 2 || grid.nz < 2 ||
        grid.distances.size() != std::size_t(grid.nx) * grid.ny * grid.nz)
        return sinew::detail::local_error(Status::InvalidArgument,
                                   "add_sdf_collider: " + std::to_string(grid.distances.size()) +
                                       " distances for " + std::to_string(grid.nx) + " x " +
                                       std::to_string(grid.ny) + " x " + std::to_string(grid.nz) +
                                       " nodes (at least 2 per axis)");
    SinewCollider c{0};
    auto added = sinew::detail::to_result(sinew_world_add_sdf_collider(
        world.handle(), &desc, grid.nx, grid.ny, grid.nz, grid.cell, &grid.origin, grid.distances.data(), &c));
    if (!added) return added.error();
    return Collider(world.handle(), c, SINEW_SHAPE_SDF);
}

} // namespace colliders
} // namespace sinew

#endif // SINEW_COLLIDERS_HPP

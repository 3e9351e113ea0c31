// sinew_cloth.hpp: prepares a render mesh (a static mesh section: vertices + triangles)
// for the library's cloth builder, and recomputes render normals; engine-neutral.
//
// Render meshes split vertices at UV seams and hard edges, so coincident vertices are
// welded first (within `weld_distance`): every render vertex maps to one particle, and
// the triangles are re-indexed onto the particles. The cloth itself (edges, bending,
// tethers, strain) is built by the library: pass `particles` and `triangles` to
// World::add_cloth_mesh or Scene::add_cloth_mesh.
#ifndef SINEW_CLOTH_HPP
#define SINEW_CLOTH_HPP

#include <algorithm>
#include <array>
#include <cmath>
#include <cstdint>
#include <string>
#include <unordered_map>
#include <utility>
#include <vector>

#include "sinew.hpp"
#include "sinew_tube.hpp"
#include "sinew_vec.hpp"

namespace sinew {
namespace cloth {

struct Layout {
    std::vector<Vec3> particles;                ///< welded positions (input units)
    std::vector<uint32_t> render_to_particle;   ///< one entry per input vertex
    std::vector<uint32_t> triangles;            ///< input triangles in particle indices, degenerate ones dropped
    std::vector<uint32_t> render_triangles;     ///< the same triangles in input (render) vertex indices
};

/// A torn cloth's render mesh (see cloth::torn).
struct TornMesh {
    std::vector<uint32_t> triangles; ///< render vertex indices: the layout's vertices, then the new ones
    std::vector<uint32_t> source;    ///< per new vertex: the layout's render vertex it copies (UV, colour)
    std::vector<uint32_t> particle;  ///< per new vertex: its world particle
};

namespace detail {
struct CellHash {
    std::size_t operator()(const std::array<int64_t, 3>& c) const noexcept {
        uint64_t h = 1469598103934665603ull;
        for (int64_t v : c) h = (h ^ static_cast<uint64_t>(v)) * 1099511628211ull;
        return static_cast<std::size_t>(h);
    }
};
} // namespace detail

/// Welds a render mesh. `weld_distance` >= 0 (same units as the vertices; 0 welds only
/// exactly equal positions). Degenerate triangles (two corners welded together) are
/// dropped.
inline Result<Layout> weld(Span<const Vec3> vertices, Span<const uint32_t> triangle_indices, float weld_distance) {
    if (vertices.empty() || triangle_indices.empty() || triangle_indices.size() % 3 != 0)
        return Error{Status::InvalidArgument, "cloth::weld: needs vertices and a multiple of 3 indices, got " +
                                                  std::to_string(vertices.size()) + " vertices and " +
                                                  std::to_string(triangle_indices.size()) + " indices"};
    if (!(weld_distance >= 0.0f) || !std::isfinite(weld_distance))
        return Error{Status::InvalidArgument, "cloth::weld: weld_distance must be finite and >= 0"};
    if (vertices.size() >= (std::size_t{1} << 31) || triangle_indices.size() >= (std::size_t{1} << 31))
        return Error{Status::OutOfRange, "cloth::weld: mesh too large"};
    for (std::size_t i = 0; i < vertices.size(); ++i)
        if (!vec::is_finite(vertices[i]))
            return Error{Status::InvalidArgument, "cloth::weld: vertex " + std::to_string(i) + " is not finite"};
    for (std::size_t i = 0; i < triangle_indices.size(); ++i)
        if (triangle_indices[i] >= vertices.size())
            return Error{Status::OutOfRange, "cloth::weld: index " + std::to_string(i) + " = " +
                                                 std::to_string(triangle_indices[i]) + " >= vertex count " +
                                                 std::to_string(vertices.size())};

    Layout out;
    out.render_to_particle.resize(vertices.size());
    // Weld through a grid of cells of size weld_distance (or exact positions).
    const float cell = weld_distance > 0.0f ? weld_distance : 1.0f;
    std::unordered_map<std::array<int64_t, 3>, std::vector<uint32_t>, detail::CellHash> grid;
    auto cell_of = [&](Vec3 p) {
        return std::array<int64_t, 3>{static_cast<int64_t>(std::floor(p.x / cell)),
                                      static_cast<int64_t>(std::floor(p.y / cell)),
                                      static_cast<int64_t>(std::floor(p.z / cell))};
    };
    for (std::size_t i = 0; i < vertices.size(); ++i) {
        const Vec3 p = vertices[i];
        const auto c = cell_of(p);
        uint32_t found = UINT32_MAX;
        for (int dx = -1; dx <= 1 && found == UINT32_MAX; ++dx)
            for (int dy = -1; dy <= 1 && found == UINT32_MAX; ++dy)
                for (int dz = -1; dz <= 1 && found == UINT32_MAX; ++dz) {
                    auto it = grid.find({c[0] + dx, c[1] + dy, c[2] + dz});
                    if (it == grid.end()) continue;
                    for (uint32_t q : it->second) {
                        const Vec3 o = out.particles[q];
                        const bool same = weld_distance > 0.0f ? vec::distance(o, p) <= weld_distance
                                                               : (o.x == p.x && o.y == p.y && o.z == p.z);
                        if (same) {
                            found = q;
                            break;
                        }
                    }
                }
        if (found == UINT32_MAX) {
            found = static_cast<uint32_t>(out.particles.size());
            out.particles.push_back(p);
            grid[c].push_back(found);
        }
        out.render_to_particle[i] = found;
    }

    // Triangles in particle indices; those that welding made degenerate are dropped.
    for (std::size_t t = 0; t < triangle_indices.size(); t += 3) {
        const uint32_t v[3] = {out.render_to_particle[triangle_indices[t]],
                               out.render_to_particle[triangle_indices[t + 1]],
                               out.render_to_particle[triangle_indices[t + 2]]};
        if (v[0] == v[1] || v[1] == v[2] || v[0] == v[2]) continue;
        out.triangles.insert(out.triangles.end(), v, v + 3);
        out.render_triangles.insert(out.render_triangles.end(), triangle_indices.begin() + t,
                                    triangle_indices.begin() + t + 3);
    }
    if (out.triangles.empty())
        return Error{Status::InvalidArgument, "cloth::weld: every triangle is degenerate after welding"};
    return out;
}

/// The render mesh of a cloth built from `layout` (its first particle `first_particle`)
/// after the library tore it (`topology`, from Body::topology). A triangle corner
/// keeps its render vertex while its particle is the one it was built on; a corner the
/// library moved to a new particle gets a new render vertex per (render vertex, new
/// particle) pair, copying that render vertex's UV, so UV seams stay seams. New
/// vertices of an earlier call keep their index when `previous` is that call's result
/// (vertices are only ever appended).
inline Result<TornMesh> torn(const Layout& layout, uint32_t first_particle, const ClothTopology& topology,
                             const TornMesh* previous = nullptr) {
    if (topology.triangles.size() != layout.render_triangles.size())
        return Error{Status::InvalidArgument, "cloth::torn: the topology has " +
                                                  std::to_string(topology.triangles.size() / 3) +
                                                  " triangles, the layout " +
                                                  std::to_string(layout.render_triangles.size() / 3)};
    TornMesh out;
    std::unordered_map<uint64_t, uint32_t> known;
    const auto base = static_cast<uint32_t>(layout.render_to_particle.size());
    auto key = [](uint32_t m, uint32_t p) { return (static_cast<uint64_t>(m) << 32) | p; };
    if (previous) {
        out.source = previous->source;
        out.particle = previous->particle;
        for (std::size_t k = 0; k < out.source.size(); ++k)
            known.emplace(key(out.source[k], out.particle[k]), base + static_cast<uint32_t>(k));
    }
    out.triangles.resize(topology.triangles.size());
    for (std::size_t i = 0; i < topology.triangles.size(); ++i) {
        const uint32_t r = topology.triangles[i];
        if (r >= topology.vertex_particles.size())
            return Error{Status::InvalidArgument, "cloth::torn: triangle corner " + std::to_string(i) +
                                                      " names vertex " + std::to_string(r)};
        const uint32_t p = topology.vertex_particles[r];
        const uint32_t m = layout.render_triangles[i];
        if (first_particle + layout.render_to_particle[m] == p) {
            out.triangles[i] = m;
            continue;
        }
        auto it = known.find(key(m, p));
        if (it == known.end()) {
            it = known.emplace(key(m, p), base + static_cast<uint32_t>(out.source.size())).first;
            out.source.push_back(m);
            out.particle.push_back(p);
        }
        out.triangles[i] = it->second;
    }
    return out;
}

/// Area-weighted unit vertex normals of `triangles` (indices into `positions`). With
/// FrontFace::CounterClockwise a triangle's normal is (b - a) x (c - a) normalised;
/// with FrontFace::Clockwise (Unreal) it is the opposite. Unused vertices get (0,0,1).
inline void normals(Span<const Vec3> positions, Span<const uint32_t> triangles, tube::FrontFace front_face,
                    std::vector<Vec3>& out) {
    out.assign(positions.size(), Vec3{0, 0, 0});
    const float sign = front_face == tube::FrontFace::CounterClockwise ? 1.0f : -1.0f;
    for (std::size_t t = 0; t + 2 < triangles.size(); t += 3) {
        const uint32_t a = triangles[t], b = triangles[t + 1], c = triangles[t + 2];
        if (a >= positions.size() || b >= positions.size() || c >= positions.size()) continue;
        // |cross| = twice the area: summing unnormalised crosses weights by area.
        const Vec3 n = vec::scale(vec::cross(vec::sub(positions[b], positions[a]), vec::sub(positions[c], positions[a])),
                                  sign);
        out[a] = vec::add(out[a], n);
        out[b] = vec::add(out[b], n);
        out[c] = vec::add(out[c], n);
    }
    for (Vec3& n : out) n = vec::normalize_or(n, Vec3{0, 0, 1});
}

} // namespace cloth
} // namespace sinew

#endif // SINEW_CLOTH_HPP

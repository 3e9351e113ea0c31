// sinew_render.hpp: the render data of a rope or cloth, engine-neutral. What a render
// thread needs to draw a body from the positions the game thread read out of the
// library (one strided read into a plain array of Vec3), without touching the library:
//
// * Affine: simulation space (m) -> the component's local space (cm, rotated, scaled),
//   computed once per frame on the game thread and applied on the render thread.
// * bounds: the box around every particle grown by a radius (the tube's or the
//   cloth's thickness), for the engine's culling.
// * RopeBuilder: one tube (sinew_tube.hpp) per piece of a rope (sinew_rope.hpp's
//   pieces: broken, cut, partly reeled in), concatenated in one vertex and one index
//   buffer; the indices are rebuilt only when the pieces (or the tube's sides) change.
// * ClothSource + cloth_vertices: a cloth's render vertices (the source mesh's, welded
//   at UV seams onto particles by sinew_cloth.hpp, plus the vertices a tear added), their
//   triangles, UVs and tangents, made again only when the library's topology version
//   changes; each frame, positions, area-weighted normals (shared by every render
//   vertex of one particle, so seams do not show) and tangents follow the particles.
//
// * normals: area-weighted vertex normals and tangents of any triangle mesh, computed
//   by the library (sinew_render_normals) into caller memory.
//
// Unreal's scene proxy (unreal-sample/Plugins/Sinew/Source/Sinew/Private/
// SinewMeshSceneProxy.cpp) uploads the Mesh these fill into its vertex and index
// buffers; tests/cpp/render_test.cpp checks them against closed forms.
#ifndef SINEW_RENDER_HPP
#define SINEW_RENDER_HPP

#include <cmath>
#include <cstdint>
#include <string>
#include <unordered_map>
#include <vector>

#include "sinew.hpp"
#include "sinew_cloth.hpp"
#include "sinew_rope.hpp"
#include "sinew_tube.hpp"
#include "sinew_vec.hpp"

namespace sinew {
namespace render {

/// local = x * p.x + y * p.y + z * p.z + t: the columns of a 3x3 matrix and a translation.
struct Affine {
    Vec3 x{1, 0, 0};
    Vec3 y{0, 1, 0};
    Vec3 z{0, 0, 1};
    Vec3 t{0, 0, 0};
};

inline Vec3 apply(const Affine& a, Vec3 p) noexcept {
    return vec::add(vec::add(vec::scale(a.x, p.x), vec::scale(a.y, p.y)), vec::add(vec::scale(a.z, p.z), a.t));
}

/// out[i] = apply(a, in[i]); out is resized to in.size().
inline void transform(const Affine& a, Span<const Vec3> in, std::vector<Vec3>& out) {
    out.resize(in.size());
    for (std::size_t i = 0; i < in.size(); ++i) out[i] = apply(a, in[i]);
}

/// An axis-aligned box; `valid` is false for an empty input.
struct Box {
    Vec3 min{0, 0, 0};
    Vec3 max{0, 0, 0};
    bool valid = false;
};

/// The smallest box holding a ball of `radius` (>= 0; a negative radius counts as 0)
/// around every finite point; non-finite points are left out.
inline Box bounds(Span<const Vec3> points, float radius) noexcept {
    Box b;
    const float r = radius > 0.0f && std::isfinite(radius) ? radius : 0.0f;
    for (std::size_t i = 0; i < points.size(); ++i) {
        const Vec3 p = points[i];
        if (!vec::is_finite(p)) continue;
        if (!b.valid) {
            b.min = p;
            b.max = p;
            b.valid = true;
            continue;
        }
        b.min = Vec3{std::fmin(b.min.x, p.x), std::fmin(b.min.y, p.y), std::fmin(b.min.z, p.z)};
        b.max = Vec3{std::fmax(b.max.x, p.x), std::fmax(b.max.y, p.y), std::fmax(b.max.z, p.z)};
    }
    if (b.valid) {
        b.min = vec::sub(b.min, Vec3{r, r, r});
        b.max = vec::add(b.max, Vec3{r, r, r});
    }
    return b;
}

/// A triangle mesh for a vertex factory: per vertex a position, a unit normal, a unit
/// tangent perpendicular to it (along the rope for a tube, the source mesh's for a
/// cloth) and a UV; indices three per triangle.
struct Mesh {
    std::vector<Vec3> positions;
    std::vector<Vec3> normals;
    std::vector<Vec3> tangents;
    std::vector<tube::Uv> uvs;
    std::vector<uint32_t> indices;
};

/// Builds a rope's tubes, one per piece, into one Mesh. Keep one builder per rope (on
/// the render thread): it keeps each piece's frame continuous from frame to frame and
/// knows when the index buffer must change.
class RopeBuilder {
  public:
    /// Fills mesh.positions/normals/tangents/uvs with the tube of every piece of
    /// `points` (piece k's vertices after piece k-1's). Returns true when mesh.indices
    /// (and the UVs' layout) were rebuilt: on the first build, and when the pieces or
    /// params.sides changed; false when only the vertices moved. Pieces that do not fit
    /// `points` are refused (InvalidArgument) and the mesh is left as it was.
    Result<bool> build(Span<const Vec3> points, const std::vector<rope::Piece>& pieces, const tube::Params& params,
                       Mesh& mesh) {
        for (const rope::Piece& p : pieces)
            if (p.count < 2 || p.first > points.size() || p.count > points.size() - p.first)
                return Error{Status::InvalidArgument, "render::RopeBuilder: piece " + std::to_string(p.first) + " + " +
                                                          std::to_string(p.count) + " does not fit " +
                                                          std::to_string(points.size()) + " points"};
        const bool topology = !built_ || pieces != pieces_ || params.sides != sides_;
        if (topology) tubes_.assign(pieces.size(), tube::Mesh{});
        std::size_t vertices = 0;
        for (std::size_t k = 0; k < pieces.size(); ++k) {
            const rope::Piece& p = pieces[k];
            if (auto r = tube::build(Span<const Vec3>(points.data() + p.first, p.count), params, tubes_[k]); !r)
                return r.error();
            vertices += tubes_[k].positions.size();
        }
        mesh.positions.resize(vertices);
        mesh.normals.resize(vertices);
        mesh.tangents.resize(vertices);
        mesh.uvs.resize(vertices);
        if (topology) mesh.indices.clear();
        std::size_t base = 0;
        for (const tube::Mesh& t : tubes_) {
            for (std::size_t i = 0; i < t.positions.size(); ++i) {
                mesh.positions[base + i] = t.positions[i];
                mesh.normals[base + i] = t.normals[i];
                mesh.tangents[base + i] = t.tangents[i];
                mesh.uvs[base + i] = t.uvs[i];
            }
            if (topology)
                for (uint32_t index : t.indices) mesh.indices.push_back(static_cast<uint32_t>(base) + index);
            base += t.positions.size();
        }
        pieces_ = pieces;
        sides_ = params.sides;
        built_ = true;
        return topology;
    }

  private:
    std::vector<rope::Piece> pieces_;
    std::vector<tube::Mesh> tubes_;
    uint32_t sides_ = 0;
    bool built_ = false;
};

/// What a cloth's render mesh is made of between two tears: render vertices mapped to
/// "keys" (the points whose positions the game thread reads: the body's particles,
/// then one per distinct particle a tear added), triangles over render vertices, and
/// per render vertex the source's UV and tangent. Immutable once made, so one copy
/// can be shared by the game and render threads.
struct ClothSource {
    uint64_t topology_version = 0;          ///< the library's, when this was made
    uint32_t key_count = 0;                 ///< body particles + extra_particles.size()
    std::vector<uint32_t> vertex_key;       ///< per render vertex
    std::vector<uint32_t> triangles;        ///< render vertex indices
    std::vector<uint32_t> key_triangles;    ///< the same triangles over keys (normals)
    std::vector<tube::Uv> uvs;              ///< per render vertex
    std::vector<Vec3> tangents;             ///< per render vertex, the source mesh's
    std::vector<uint32_t> extra_particles;  ///< world particle index of each extra key
};

/// The ClothSource of a cloth built from `layout` (sinew::cloth::weld) whose first world
/// particle is `first_particle`, torn as `torn` describes (nullptr or empty = not torn;
/// sinew::cloth::torn). `uvs` and `tangents` are the source's per render vertex (as
/// many as layout.render_to_particle, or empty: UV (0, 0) and tangent (1, 0, 0)).
inline Result<ClothSource> cloth_source(const cloth::Layout& layout, uint32_t first_particle,
                                        const cloth::TornMesh* torn, Span<const tube::Uv> uvs,
                                        Span<const Vec3> tangents, uint64_t topology_version) {
    const std::size_t base = layout.render_to_particle.size();
    if (!uvs.empty() && uvs.size() != base)
        return Error{Status::InvalidArgument, "render::cloth_source: " + std::to_string(uvs.size()) + " UVs for " +
                                                  std::to_string(base) + " vertices"};
    if (!tangents.empty() && tangents.size() != base)
        return Error{Status::InvalidArgument, "render::cloth_source: " + std::to_string(tangents.size()) +
                                                  " tangents for " + std::to_string(base) + " vertices"};
    const std::size_t extra = torn ? torn->source.size() : 0;
    if (torn && torn->particle.size() != extra)
        return Error{Status::InvalidArgument, "render::cloth_source: the torn mesh's source and particle lists differ"};
    const auto particles = static_cast<uint32_t>(layout.particles.size());
    ClothSource out;
    out.topology_version = topology_version;
    out.vertex_key.resize(base + extra);
    out.uvs.resize(base + extra);
    out.tangents.resize(base + extra);
    std::unordered_map<uint32_t, uint32_t> extra_key;
    for (std::size_t v = 0; v < base + extra; ++v) {
        const uint32_t source = v < base ? static_cast<uint32_t>(v) : torn->source[v - base];
        if (source >= base)
            return Error{Status::InvalidArgument,
                         "render::cloth_source: new vertex " + std::to_string(v) + " copies vertex " + std::to_string(source)};
        out.uvs[v] = uvs.empty() ? tube::Uv{} : uvs[source];
        out.tangents[v] = tangents.empty() ? Vec3{1, 0, 0} : tangents[source];
        if (v < base) {
            out.vertex_key[v] = layout.render_to_particle[v];
            continue;
        }
        const uint32_t particle = torn->particle[v - base];
        if (particle >= first_particle && particle - first_particle < particles) {
            out.vertex_key[v] = particle - first_particle; // a split onto another body particle
            continue;
        }
        auto it = extra_key.find(particle);
        if (it == extra_key.end()) {
            it = extra_key.emplace(particle, particles + static_cast<uint32_t>(out.extra_particles.size())).first;
            out.extra_particles.push_back(particle);
        }
        out.vertex_key[v] = it->second;
    }
    out.key_count = particles + static_cast<uint32_t>(out.extra_particles.size());
    out.triangles = (torn && !torn->triangles.empty()) ? torn->triangles : layout.render_triangles;
    out.key_triangles.resize(out.triangles.size());
    for (std::size_t i = 0; i < out.triangles.size(); ++i) {
        if (out.triangles[i] >= out.vertex_key.size())
            return Error{Status::InvalidArgument, "render::cloth_source: triangle corner " + std::to_string(i) +
                                                      " names vertex " + std::to_string(out.triangles[i])};
        out.key_triangles[i] = out.vertex_key[out.triangles[i]];
    }
    return out;
}

/// Fills mesh.positions, normals and tangents (one per render vertex of `source`) from
/// the keys' positions (`keys`, source.key_count of them, in the space to draw in):
/// positions are the key's, normals the area-weighted normal of the key's triangles
/// (shared across UV seams), tangents the source tangent made perpendicular to the
/// normal (Gram-Schmidt; any perpendicular where they are parallel). With
/// `with_topology`, mesh.indices and mesh.uvs are set too (after a tear or the first
/// time). `key_normals` is scratch, kept by the caller between frames.
inline Result<void> cloth_vertices(const ClothSource& source, Span<const Vec3> keys, tube::FrontFace front_face,
                                   bool with_topology, std::vector<Vec3>& key_normals, Mesh& mesh) {
    if (keys.size() != source.key_count)
        return Error{Status::InvalidArgument, "render::cloth_vertices: " + std::to_string(keys.size()) +
                                                  " key positions for " + std::to_string(source.key_count) + " keys"};
    cloth::normals(keys, Span<const uint32_t>(source.key_triangles), front_face, key_normals);
    const std::size_t n = source.vertex_key.size();
    mesh.positions.resize(n);
    mesh.normals.resize(n);
    mesh.tangents.resize(n);
    for (std::size_t v = 0; v < n; ++v) {
        const uint32_t k = source.vertex_key[v];
        const Vec3 normal = key_normals[k];
        mesh.positions[v] = keys[k];
        mesh.normals[v] = normal;
        const Vec3 t = source.tangents[v];
        mesh.tangents[v] = tube::detail::perpendicular(normal, t);
    }
    if (with_topology) {
        mesh.indices = source.triangles;
        mesh.uvs = source.uvs;
    }
    return {};
}

/// Per vertex, a unit tangent (x, y, z) and the sign w of the bitangent
/// cross(normal, tangent) * w, which points along +V.
struct TangentW {
    float x = 1.0f, y = 0.0f, z = 0.0f, w = 1.0f;
};
static_assert(sizeof(TangentW) == 16, "four packed floats: the library writes them in place");

/// sinew_render_normals: area-weighted unit vertex normals of `triangles` (three indices
/// into `positions` each, counter-clockwise seen from the front) into `normals` (one per
/// position), and with `tangents` non-empty and `uvs` given (two floats per position),
/// each vertex's tangent along +U made perpendicular to its normal, with the
/// bitangent's sign. Never NaN (a vertex of no proper triangle gets (0, 1, 0));
/// allocates nothing. The outputs must hold one element per position (`tangents` may be
/// empty; with `uvs` empty the tangents follow +X).
inline Result<void> normals(Span<const Vec3> positions, Span<const uint32_t> triangles,
                            Span<const float> uvs, Span<Vec3> normals, Span<TangentW> tangents) {
    const size_t n = positions.size();
    if (triangles.size() % 3 != 0 || normals.size() != n || (!tangents.empty() && tangents.size() != n) ||
        (!uvs.empty() && uvs.size() != 2 * n)) {
        return Error{Status::InvalidArgument,
                     "render::normals: the normals, tangents and UVs must match the positions, "
                     "the triangles come in threes"};
    }
    if (n == 0) return {};
    return detail::to_result(sinew_render_normals(
        positions.data(), static_cast<uint32_t>(n), triangles.data(), static_cast<uint32_t>(triangles.size() / 3),
        uvs.empty() ? nullptr : uvs.data(), normals.data(), static_cast<uint32_t>(sizeof(Vec3)),
        tangents.empty() ? nullptr : tangents.data(), static_cast<uint32_t>(sizeof(TangentW))));
}

} // namespace render
} // namespace sinew

#endif // SINEW_RENDER_HPP

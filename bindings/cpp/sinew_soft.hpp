// sinew_soft.hpp: prepares a closed render mesh for a soft body, through the library
// (sinew_weld_mesh, sinew_tetrahedralize_mesh, sinew_embed_points_in_tets);
// engine-neutral.
//
// * soft::weld: seams (vertices at identical positions) merged; a pressure body is built
//   from the welded mesh and render vertex i follows particle `render_to_particle[i]`.
// * soft::tetrahedralize: the closed mesh cut into tets (a grid of `resolution` cells
//   across its longest side, 5 tets per cell inside, boundary nodes moved to the
//   surface); the input of World::add_tet_body / Scene::add_tet_body.
// * soft::embed: each render vertex's tet and barycentric weights, as four particle
//   indices and four weights; Embedding::apply moves the render vertices with the tet
//   body's particles, allocating nothing.
// * soft::lumped_inverse_masses: the inverse masses the library lumps by volume (tets)
//   or area (a surface) for a total mass, for hosts that keep their own copy (Scene's
//   pin / unpin).
#ifndef SINEW_SOFT_HPP
#define SINEW_SOFT_HPP

#include <cmath>
#include <cstdint>
#include <string>
#include <vector>

#include "sinew.hpp"

namespace sinew {
namespace soft {

/// A mesh with its seams welded (soft::weld).
struct Welded {
    std::vector<Vec3> particles;              ///< welded vertices, in order of first occurrence
    std::vector<uint32_t> triangles;          ///< three welded indices per triangle (collapsed ones dropped)
    std::vector<uint32_t> render_to_particle; ///< per input vertex, its welded vertex
};

/// A tet mesh (soft::tetrahedralize): a tet body's particles are `vertices` in order.
struct TetMesh {
    std::vector<Vec3> vertices; ///< same units as the input mesh
    std::vector<uint32_t> tets; ///< four vertex indices per tet, positive volume
    std::size_t tet_count() const noexcept { return tets.size() / 4; }
};

/// Points embedded in a tet mesh (soft::embed): point i = Σₖ weights[4i+k] ·
/// x[particles[4i+k]], x the tet mesh's vertices or the tet body's particles (body order).
struct Embedding {
    std::vector<uint32_t> particles; ///< four tet-mesh vertex (body particle) indices per point
    std::vector<float> weights;      ///< four barycentric weights per point (sum 1)
    std::size_t size() const noexcept { return weights.size() / 4; }

    /// Writes each embedded point moved with `x` (the body's positions, body order) to
    /// `out` (size() elements). InvalidArgument when the sizes do not fit.
    Result<void> apply(Span<const Vec3> x, Span<Vec3> out) const {
        if (out.size() < size())
            return Error{Status::InvalidArgument, "soft::Embedding::apply: out holds " + std::to_string(out.size()) +
                                                      " points, not " + std::to_string(size())};
        for (std::size_t i = 0; i < size(); ++i) {
            float px = 0.0f, py = 0.0f, pz = 0.0f;
            for (std::size_t k = 0; k < 4; ++k) {
                const uint32_t v = particles[4 * i + k];
                if (v >= x.size())
                    return Error{Status::InvalidArgument, "soft::Embedding::apply: particle " + std::to_string(v) +
                                                              " >= " + std::to_string(x.size()) + " positions"};
                const float w = weights[4 * i + k];
                px += w * x[v].x;
                py += w * x[v].y;
                pz += w * x[v].z;
            }
            out[i] = Vec3{px, py, pz};
        }
        return {};
    }
    /// The same into `out`, resized to size() (reuse one vector: no allocation per frame).
    Result<void> apply(Span<const Vec3> x, std::vector<Vec3>& out) const {
        out.resize(size());
        return apply(x, Span<Vec3>(out));
    }
};

namespace detail {
inline Result<uint32_t> index_count(std::size_t n, std::size_t per, const char* what) {
    if (n % per != 0)
        return Error{Status::InvalidArgument, std::string(what) + ": " + std::to_string(n) +
                                                  " indices, not a multiple of " + std::to_string(per)};
    return sinew::detail::to_count(n / per, what);
}
} // namespace detail

/// Merges vertices closer than `tolerance` (0 = identical positions only) and drops the
/// triangles that collapse.
inline Result<Welded> weld(Span<const Vec3> vertices, Span<const uint32_t> triangles, float tolerance = 0.0f) {
    auto nv = sinew::detail::to_count(vertices.size(), "soft::weld");
    if (!nv) return nv.error();
    auto nt = detail::index_count(triangles.size(), 3, "soft::weld");
    if (!nt) return nt.error();
    Welded out;
    out.particles.resize(vertices.size());
    out.triangles.resize(triangles.size());
    out.render_to_particle.resize(vertices.size());
    uint32_t wv = 0, wt = 0;
    const SinewStatus s = sinew_weld_mesh(vertices.data(), *nv, triangles.data(), *nt, tolerance,
                                          out.render_to_particle.data(), out.particles.data(), out.triangles.data(),
                                          &wv, &wt);
    if (s != SINEW_OK) return sinew::detail::to_result(s).error();
    out.particles.resize(wv);
    out.triangles.resize(3 * std::size_t{wt});
    return out;
}

/// Cuts a closed mesh (counter-clockwise seen from outside; seams welded by the library)
/// into tets, `resolution` (1..SINEW_MAX_TET_RESOLUTION) cells across its longest side.
/// An open, inside-out or degenerate mesh is refused naming the edge or triangle.
inline Result<TetMesh> tetrahedralize(Span<const Vec3> vertices, Span<const uint32_t> triangles,
                                      uint32_t resolution) {
    auto nv = sinew::detail::to_count(vertices.size(), "soft::tetrahedralize");
    if (!nv) return nv.error();
    auto nt = detail::index_count(triangles.size(), 3, "soft::tetrahedralize");
    if (!nt) return nt.error();
    uint32_t mv = 0, mt = 0;
    SinewStatus s = sinew_tetrahedralize_mesh(vertices.data(), *nv, triangles.data(), *nt, resolution, nullptr, 0,
                                              nullptr, 0, &mv, &mt);
    if (s != SINEW_OK) return sinew::detail::to_result(s).error();
    TetMesh out;
    out.vertices.resize(mv);
    out.tets.resize(4 * std::size_t{mt});
    s = sinew_tetrahedralize_mesh(vertices.data(), *nv, triangles.data(), *nt, resolution, out.vertices.data(), mv,
                                  out.tets.data(), mt, &mv, &mt);
    if (s != SINEW_OK) return sinew::detail::to_result(s).error();
    return out;
}

/// Embeds `points` in the tet mesh (tets of positive volume): each point's tet and
/// barycentric weights. A point outside every tet follows its nearest tet
/// (extrapolated weights).
inline Result<Embedding> embed(Span<const Vec3> vertices, Span<const uint32_t> tets, Span<const Vec3> points) {
    auto nv = sinew::detail::to_count(vertices.size(), "soft::embed");
    if (!nv) return nv.error();
    auto nt = detail::index_count(tets.size(), 4, "soft::embed");
    if (!nt) return nt.error();
    auto np = sinew::detail::to_count(points.size(), "soft::embed");
    if (!np) return np.error();
    std::vector<uint32_t> which(points.size());
    Embedding out;
    out.weights.resize(4 * points.size());
    const SinewStatus s = sinew_embed_points_in_tets(vertices.data(), *nv, tets.data(), *nt, points.data(), *np,
                                                     which.data(), out.weights.data());
    if (s != SINEW_OK) return sinew::detail::to_result(s).error();
    out.particles.resize(4 * points.size());
    for (std::size_t i = 0; i < points.size(); ++i)
        for (std::size_t k = 0; k < 4; ++k) out.particles[4 * i + k] = tets[4 * std::size_t{which[i]} + k];
    return out;
}

/// The inverse masses (1/kg) the library gives a body of `total_mass` (kg) when it lumps
/// the mass itself: each vertex's share of the elements' measure (a tet's volume in
/// quarters when `per` is 4, a triangle's area in thirds when `per` is 3). Empty when
/// a vertex belongs to no element or the mass is not positive (the library refuses both).
inline std::vector<float> lumped_inverse_masses(Span<const Vec3> vertices, Span<const uint32_t> elements,
                                                std::size_t per, float total_mass) {
    if (!(total_mass > 0.0f) || (per != 3 && per != 4) || elements.size() % per != 0) return {};
    std::vector<double> share(vertices.size(), 0.0);
    for (std::size_t e = 0; e < elements.size(); e += per) {
        for (std::size_t k = 0; k < per; ++k)
            if (elements[e + k] >= vertices.size()) return {};
        const Vec3 a = vertices[elements[e]], b = vertices[elements[e + 1]], c = vertices[elements[e + 2]];
        const double ux = double(b.x) - double(a.x), uy = double(b.y) - double(a.y), uz = double(b.z) - double(a.z);
        const double vx = double(c.x) - double(a.x), vy = double(c.y) - double(a.y), vz = double(c.z) - double(a.z);
        const double nx = uy * vz - uz * vy, ny = uz * vx - ux * vz, nz = ux * vy - uy * vx;
        double measure;
        if (per == 3) {
            measure = 0.5 * std::sqrt(nx * nx + ny * ny + nz * nz);
        } else {
            const Vec3 d = vertices[elements[e + 3]];
            measure = std::fabs(nx * (double(d.x) - double(a.x)) + ny * (double(d.y) - double(a.y)) +
                                nz * (double(d.z) - double(a.z))) /
                      6.0;
        }
        for (std::size_t k = 0; k < per; ++k) share[elements[e + k]] += measure / static_cast<double>(per);
    }
    double total = 0.0;
    for (double s : share) total += s;
    std::vector<float> w(vertices.size());
    for (std::size_t i = 0; i < w.size(); ++i) {
        if (!(share[i] > 0.0)) return {};
        w[i] = static_cast<float>(total / (share[i] * static_cast<double>(total_mass)));
    }
    return w;
}

} // namespace soft
} // namespace sinew

#endif // SINEW_SOFT_HPP

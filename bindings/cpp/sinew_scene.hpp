// sinew_scene.hpp: bodies (ropes, cloths) that come and go in one sinew::World;
// engine-neutral. The Unreal subsystem owns one Scene per UWorld.
//
// The C ABI can add particles and constraints but not remove them or change a
// constraint's compliance, so a Scene REBUILDS its world when a body is removed, a
// compliance changes or the world settings change: it creates a fresh world and
// re-adds every remaining body with the positions and velocities it has now (read from
// the old world) and its current inverse masses. Rebuilds are lazy: many changes in
// one frame cost one rebuild, done by the next call that touches the world (step, read,
// write, pin). Constraint multipliers λ are reset every substep anyway, so a rebuild
// loses no solver state; positions are re-added as single floats (base + in-step
// displacement rounded once), so a rebuild that changes nothing continues to within
// float rounding (~1e-7 m on a 1 m rope), not bit-identically.
//
// Colliders, particle radii and grabs (sinew_world_grab_particle) are world state too:
// the Scene keeps them (colliders at their latest transform and material) and re-adds
// them on every rebuild, so ids handed out by the Scene stay valid. Every body's
// particles get collision group = its BodyId, so a body's own particles never push each
// other apart (neighbouring rope particles closer than 2 radii stay put).
//
// Pin / unpin: pin(body, i) sets particle i's inverse mass to 0 (it then moves only
// where move_particles puts it); unpin restores the body's own inverse mass.
#ifndef SINEW_SCENE_HPP
#define SINEW_SCENE_HPP

#include <cmath>
#include <cstdint>
#include <map>
#include <string>
#include <utility>
#include <vector>

#include "sinew.hpp"

namespace sinew {

/// A group of XPBD distance constraints of one compliance, on a body's own particles.
struct ConstraintGroup {
    std::vector<uint32_t> pairs;     ///< body-local particle indices (a0, b0, a1, b1, ...)
    std::vector<float> rest_lengths; ///< m; empty = the distances at creation
    float compliance = 0.0f;         ///< m/N
};

/// What a body is made of.
struct BodyDesc {
    std::vector<Vec3> positions;            ///< m
    std::vector<float> inverse_masses;      ///< 1/kg as added (0 = pinned); empty = all 1
    std::vector<float> free_inverse_masses; ///< 1/kg restored by unpin; empty = inverse_masses
    std::vector<ConstraintGroup> groups;
    std::vector<float> radii;               ///< collision radius per particle, m; empty = all 0
};

using ColliderId = uint32_t; ///< 0 is never a collider

/// A ray pick over the whole Scene: `body` is 0 when the ray hits no particle.
struct ScenePick {
    uint32_t body = 0;      ///< BodyId of the hit particle, 0 = miss
    uint32_t particle = 0;  ///< body-local index
    float distance = -1.0f; ///< m along the (normalised) ray
    bool hit() const noexcept { return body != 0; }
};

using BodyId = uint32_t; ///< 0 is never a body

class Scene {
  public:
    static Result<Scene> create(const WorldDesc& desc = WorldDesc()) {
        auto w = World::create(desc);
        if (!w) return w.error();
        return Scene(desc, std::move(w).value());
    }

    const WorldDesc& desc() const noexcept { return desc_; }
    /// Changes the world settings (e.g. gravity); the world is rebuilt.
    Result<void> set_desc(const WorldDesc& desc) {
        WorldDesc old = desc_;
        desc_ = desc;
        dirty_ = true;
        auto r = ensure_built();
        if (!r) {
            desc_ = old; // the old world is still there, unchanged
            dirty_ = true;
        }
        return r;
    }

    /// Adds a body; its particles get ids 0..positions.size() local to the body.
    Result<BodyId> add_body(BodyDesc desc) {
        const std::size_t n = desc.positions.size();
        if (n == 0) return Error{Status::InvalidArgument, "Scene::add_body: a body needs particles"};
        if (desc.inverse_masses.empty()) desc.inverse_masses.assign(n, 1.0f);
        if (desc.free_inverse_masses.empty()) desc.free_inverse_masses = desc.inverse_masses;
        if (desc.inverse_masses.size() != n || desc.free_inverse_masses.size() != n)
            return Error{Status::InvalidArgument, "Scene::add_body: inverse mass arrays must match positions"};
        if (!desc.radii.empty() && desc.radii.size() != n)
            return Error{Status::InvalidArgument, "Scene::add_body: radii must be empty or match positions"};
        for (const auto& g : desc.groups)
            for (uint32_t i : g.pairs)
                if (i >= n)
                    return Error{Status::OutOfRange, "Scene::add_body: constraint index " + std::to_string(i) +
                                                         " >= particle count " + std::to_string(n)};
        if (auto r = ensure_built(); !r) return r.error();
        Body body;
        body.desc = std::move(desc);
        if (auto r = add_to(world_, next_id_, body, body.desc.positions, {}); !r) {
            // Adding is all-or-nothing per call, but an earlier group may have landed:
            // rebuild without this body so the world holds exactly the bodies listed.
            dirty_ = true;
            return r.error();
        }
        const BodyId id = next_id_++;
        bodies_.emplace(id, std::move(body));
        return id;
    }

    /// Removes a body (the world is rebuilt lazily).
    Result<void> remove_body(BodyId id) {
        if (bodies_.erase(id) == 0) return unknown("Scene::remove_body", id);
        for (auto it = grabs_.begin(); it != grabs_.end();) it = it->first.first == id ? grabs_.erase(it) : ++it;
        dirty_ = true;
        return {};
    }

    bool contains(BodyId id) const noexcept { return bodies_.count(id) != 0; }
    std::size_t body_count() const noexcept { return bodies_.size(); }
    /// How many times the world was rebuilt (diagnostics).
    uint32_t rebuild_count() const noexcept { return rebuilds_; }

    /// Particles of a body.
    Result<uint32_t> particle_count(BodyId id) const {
        const Body* b = find(id);
        if (!b) return unknown("Scene::particle_count", id);
        return static_cast<uint32_t>(b->desc.positions.size());
    }

    /// Sets the compliance (m/N) of a body's constraint group (the world is rebuilt lazily).
    Result<void> set_compliance(BodyId id, std::size_t group, float compliance) {
        Body* b = find(id);
        if (!b) return unknown("Scene::set_compliance", id);
        if (group >= b->desc.groups.size())
            return Error{Status::OutOfRange, "Scene::set_compliance: body has " +
                                                 std::to_string(b->desc.groups.size()) + " groups, asked for " +
                                                 std::to_string(group)};
        if (!(compliance >= 0.0f) || !std::isfinite(compliance))
            return Error{Status::InvalidArgument, "Scene::set_compliance: compliance must be finite and >= 0 m/N"};
        if (b->desc.groups[group].compliance != compliance) {
            b->desc.groups[group].compliance = compliance;
            dirty_ = true;
        }
        return {};
    }
    Result<float> compliance(BodyId id, std::size_t group) const {
        const Body* b = find(id);
        if (!b) return unknown("Scene::compliance", id);
        if (group >= b->desc.groups.size()) return Error{Status::OutOfRange, "Scene::compliance: no such group"};
        return b->desc.groups[group].compliance;
    }

    /// Grab: particle `i` of the body gets inverse mass 0 (kept in rebuilds).
    Result<void> pin(BodyId id, uint32_t i) { return set_inverse_mass(id, i, true, "Scene::pin"); }
    /// Release: particle `i` gets back its free inverse mass.
    Result<void> unpin(BodyId id, uint32_t i) { return set_inverse_mass(id, i, false, "Scene::unpin"); }
    Result<bool> is_pinned(BodyId id, uint32_t i) const {
        const Body* b = find(id);
        if (!b) return unknown("Scene::is_pinned", id);
        if (i >= b->desc.inverse_masses.size()) return Error{Status::OutOfRange, "Scene::is_pinned: no such particle"};
        return b->desc.inverse_masses[i] == 0.0f;
    }

    /// The body's free (not pinned) particle nearest to `target` (m): what a grab
    /// takes. OutOfRange when every particle is pinned.
    Result<uint32_t> nearest_free_particle(BodyId id, Vec3 target) {
        if (auto r = ensure_built(); !r) return r.error();
        const Body* b = find(id);
        if (!b) return unknown("Scene::nearest_free_particle", id);
        std::vector<Vec3> pos(b->particles.count);
        if (auto r = world_.read_positions(b->particles.first, Span<Vec3>(pos)); !r) return r.error();
        uint32_t best = UINT32_MAX;
        float best_d2 = 0.0f;
        for (uint32_t i = 0; i < pos.size(); ++i) {
            if (b->desc.inverse_masses[i] == 0.0f) continue;
            const float dx = pos[i].x - target.x, dy = pos[i].y - target.y, dz = pos[i].z - target.z;
            const float d2 = dx * dx + dy * dy + dz * dz;
            if (best == UINT32_MAX || d2 < best_d2) {
                best = i;
                best_d2 = d2;
            }
        }
        if (best == UINT32_MAX)
            return Error{Status::OutOfRange, "Scene::nearest_free_particle: every particle of body " +
                                                 std::to_string(id) + " is pinned"};
        return best;
    }

    /// Moves particles `particles[k]` of the body to `positions[k]` (m): the kinematic
    /// drive of pinned ends and grabbed particles.
    Result<void> move_particles(BodyId id, Span<const uint32_t> particles, Span<const Vec3> positions) {
        if (particles.size() != positions.size())
            return Error{Status::InvalidArgument, "Scene::move_particles: index and position counts differ"};
        if (auto r = ensure_built(); !r) return r;
        Body* b = find(id);
        if (!b) return unknown("Scene::move_particles", id);
        for (uint32_t i : particles)
            if (i >= b->particles.count)
                return Error{Status::OutOfRange, "Scene::move_particles: particle " + std::to_string(i) +
                                                     " >= body particle count " + std::to_string(b->particles.count)};
        for (std::size_t k = 0; k < particles.size(); ++k) {
            if (auto r = world_.write_positions(b->particles.first + particles[k], Span<const Vec3>(&positions[k], 1));
                !r)
                return r;
        }
        return {};
    }

    // --- colliders --------------------------------------------------------------

    /// Adds a collider (plane, sphere, capsule or box; start from sinew::collider_desc()).
    Result<ColliderId> add_collider(const SinewColliderDesc& desc) {
        if (auto r = ensure_built(); !r) return r.error();
        auto c = world_.add_collider(desc);
        if (!c) return c.error();
        const ColliderId id = next_collider_++;
        colliders_.emplace(id, ColliderEntry{desc, *c});
        return id;
    }
    /// Removes a collider.
    Result<void> remove_collider(ColliderId id) {
        auto it = colliders_.find(id);
        if (it == colliders_.end()) return unknown_collider("Scene::remove_collider", id);
        if (!dirty_) {
            if (auto r = world_.remove_collider(it->second.handle); !r) return r;
        }
        colliders_.erase(it);
        return {};
    }
    /// Moves a collider (m, unit quaternion); it sweeps there over the next step unless
    /// `teleport`.
    Result<void> set_collider_transform(ColliderId id, Vec3 position, Quat rotation, bool teleport = false) {
        if (auto r = ensure_built(); !r) return r;
        auto it = colliders_.find(id);
        if (it == colliders_.end()) return unknown_collider("Scene::set_collider_transform", id);
        if (auto r = world_.set_collider_transform(it->second.handle, position, rotation, teleport); !r) return r;
        it->second.desc.position = position;
        it->second.desc.rotation = rotation;
        return {};
    }
    /// Sets a collider's friction coefficients (>= 0) and restitution ([0, 1]).
    Result<void> set_collider_material(ColliderId id, float static_friction, float dynamic_friction,
                                       float restitution) {
        if (auto r = ensure_built(); !r) return r;
        auto it = colliders_.find(id);
        if (it == colliders_.end()) return unknown_collider("Scene::set_collider_material", id);
        if (auto r = world_.set_collider_material(it->second.handle, static_friction, dynamic_friction, restitution);
            !r)
            return r;
        it->second.desc.static_friction = static_friction;
        it->second.desc.dynamic_friction = dynamic_friction;
        it->second.desc.restitution = restitution;
        return {};
    }
    bool contains_collider(ColliderId id) const noexcept { return colliders_.count(id) != 0; }
    std::size_t collider_count() const noexcept { return colliders_.size(); }

    // --- picking and grabbing ----------------------------------------------------

    /// The particle nearest along origin + t·direction (t >= 0, m; direction is
    /// normalised here) within `radius` (m) + its own radius of the ray.
    Result<ScenePick> pick(Vec3 origin, Vec3 direction, float radius) {
        if (auto r = ensure_built(); !r) return r.error();
        const float len = std::sqrt(direction.x * direction.x + direction.y * direction.y + direction.z * direction.z);
        if (!std::isfinite(len) || !(len > 0.0f))
            return Error{Status::InvalidArgument, "Scene::pick: direction must be finite and non-zero"};
        const Vec3 unit{direction.x / len, direction.y / len, direction.z / len};
        auto p = world_.pick_particle(origin, unit, radius);
        if (!p) return p.error();
        ScenePick out;
        if (!p->hit()) return out;
        for (const auto& [id, b] : bodies_) {
            if (p->particle >= b.particles.first && p->particle - b.particles.first < b.particles.count) {
                out.body = id;
                out.particle = p->particle - b.particles.first;
                out.distance = p->distance;
                return out;
            }
        }
        return out; // not reachable: every particle of the world belongs to a body
    }
    /// Attaches particle `i` of the body to `target` (m) with `compliance` (m/N, 0 =
    /// rigid) until release(); the library's grab constraint, kept across rebuilds.
    /// Pinned particles cannot be grabbed.
    Result<void> grab(BodyId id, uint32_t i, Vec3 target, float compliance) {
        if (auto r = ensure_built(); !r) return r;
        const Body* b = find(id);
        if (!b) return unknown("Scene::grab", id);
        if (i >= b->particles.count)
            return Error{Status::OutOfRange, "Scene::grab: particle " + std::to_string(i) +
                                                 " >= body particle count " + std::to_string(b->particles.count)};
        if (auto r = world_.grab_particle(b->particles.first + i, target, compliance); !r) return r;
        grabs_[{id, i}] = GrabEntry{target, compliance};
        return {};
    }
    /// Moves the target (m) of the grab on particle `i` of the body.
    Result<void> move_grab(BodyId id, uint32_t i, Vec3 target) {
        if (auto r = ensure_built(); !r) return r;
        auto it = grabs_.find({id, i});
        if (it == grabs_.end())
            return Error{Status::InvalidArgument, "Scene::move_grab: particle " + std::to_string(i) + " of body " +
                                                      std::to_string(id) + " is not grabbed"};
        if (auto r = world_.move_grab(find(id)->particles.first + i, target); !r) return r;
        it->second.target = target;
        return {};
    }
    /// Releases the grab on particle `i` of the body.
    Result<void> release(BodyId id, uint32_t i) {
        if (auto r = ensure_built(); !r) return r;
        auto it = grabs_.find({id, i});
        if (it == grabs_.end())
            return Error{Status::InvalidArgument, "Scene::release: particle " + std::to_string(i) + " of body " +
                                                      std::to_string(id) + " is not grabbed"};
        if (auto r = world_.release_particle(find(id)->particles.first + i); !r) return r;
        grabs_.erase(it);
        return {};
    }
    bool is_grabbed(BodyId id, uint32_t i) const noexcept { return grabs_.count({id, i}) != 0; }

    /// Advances the world by dt seconds.
    Result<void> step(float dt) {
        if (auto r = ensure_built(); !r) return r;
        return world_.step(dt);
    }

    /// Positions (m) of all particles of a body into `out` (size = particle count).
    template <class V>
    Result<void> read_positions(BodyId id, Span<V> out) {
        if (auto r = ensure_built(); !r) return r;
        const Body* b = find(id);
        if (!b) return unknown("Scene::read_positions", id);
        if (out.size() != b->particles.count)
            return Error{Status::InvalidArgument, "Scene::read_positions: output holds " + std::to_string(out.size()) +
                                                      ", body has " + std::to_string(b->particles.count)};
        return world_.read_positions(b->particles.first, out);
    }
    template <class V>
    Result<void> read_positions(BodyId id, std::vector<V>& out) {
        return read_positions(id, Span<V>(out));
    }
    /// Velocities (m/s) of all particles of a body.
    template <class V>
    Result<void> read_velocities(BodyId id, std::vector<V>& out) {
        if (auto r = ensure_built(); !r) return r;
        const Body* b = find(id);
        if (!b) return unknown("Scene::read_velocities", id);
        out.resize(b->particles.count);
        return world_.read_velocities(b->particles.first, Span<V>(out));
    }

    /// Force magnitudes (N) of the constraints of a body's group in the last substep.
    Result<void> read_forces(BodyId id, std::size_t group, std::vector<float>& out_newtons) {
        if (auto r = ensure_built(); !r) return r;
        const Body* b = find(id);
        if (!b) return unknown("Scene::read_forces", id);
        if (group >= b->groups.size()) return Error{Status::OutOfRange, "Scene::read_forces: no such group"};
        out_newtons.resize(b->groups[group].count);
        if (out_newtons.empty()) return {};
        return world_.read_constraint_forces(b->groups[group].first, Span<float>(out_newtons));
    }

    /// The world (for calls the Scene does not wrap). Valid until the next rebuild.
    World& world() noexcept { return world_; }

  private:
    struct Body {
        BodyDesc desc;
        Range particles;
        std::vector<Range> groups;
    };

    struct ColliderEntry {
        SinewColliderDesc desc; ///< at the latest transform and material
        SinewCollider handle;
    };
    struct GrabEntry {
        Vec3 target;
        float compliance;
    };
    Scene(const WorldDesc& desc, World world) : desc_(desc), world_(std::move(world)) {}
    static Error unknown_collider(const char* what, ColliderId id) {
        return Error{Status::InvalidHandle, std::string(what) + ": no collider " + std::to_string(id)};
    }

    static Error unknown(const char* what, BodyId id) {
        return Error{Status::InvalidHandle, std::string(what) + ": no body " + std::to_string(id)};
    }
    Body* find(BodyId id) {
        auto it = bodies_.find(id);
        return it == bodies_.end() ? nullptr : &it->second;
    }
    const Body* find(BodyId id) const {
        auto it = bodies_.find(id);
        return it == bodies_.end() ? nullptr : &it->second;
    }

    Result<void> set_inverse_mass(BodyId id, uint32_t i, bool pinned, const char* what) {
        if (auto r = ensure_built(); !r) return r;
        Body* b = find(id);
        if (!b) return unknown(what, id);
        if (i >= b->desc.inverse_masses.size())
            return Error{Status::OutOfRange, std::string(what) + ": particle " + std::to_string(i) +
                                                 " >= body particle count " +
                                                 std::to_string(b->desc.inverse_masses.size())};
        const float w = pinned ? 0.0f : b->desc.free_inverse_masses[i];
        if (auto r = world_.set_inverse_mass(b->particles.first + i, w); !r) return r;
        b->desc.inverse_masses[i] = w;
        return {};
    }

    /// Adds `body` to `world` at `positions` with `velocities` (empty = at rest) and
    /// records where its particles and constraints landed.
    static Result<void> add_to(World& world, BodyId id, Body& body, const std::vector<Vec3>& positions,
                               const std::vector<Vec3>& velocities) {
        auto p = world.add_particles(Span<const Vec3>(positions), Span<const float>(body.desc.inverse_masses));
        if (!p) return p.error();
        body.particles = *p;
        SinewCollisionFilter filter{};
        filter.group = id;
        filter.layers = 1u;
        filter.mask = 0xFFFFFFFFu;
        filter.self_collision = 0u;
        std::vector<SinewCollisionFilter> filters(positions.size(), filter);
        if (auto r = world.set_collision_filters(body.particles.first, Span<const SinewCollisionFilter>(filters)); !r)
            return r;
        if (!body.desc.radii.empty()) {
            if (auto r = world.set_particle_radii(body.particles.first, Span<const float>(body.desc.radii)); !r)
                return r;
        }
        body.groups.clear();
        for (const auto& g : body.desc.groups) {
            if (g.pairs.empty()) {
                body.groups.push_back(Range{0, 0});
                continue;
            }
            std::vector<uint32_t> global(g.pairs.size());
            for (std::size_t k = 0; k < g.pairs.size(); ++k) global[k] = g.pairs[k] + body.particles.first;
            auto c = world.add_distance_constraints(Span<const uint32_t>(global), Span<const float>(g.rest_lengths),
                                                    g.compliance);
            if (!c) return c.error();
            body.groups.push_back(*c);
        }
        if (!velocities.empty()) {
            if (auto r = world.write_velocities(body.particles.first, Span<const Vec3>(velocities)); !r) return r;
        }
        return {};
    }

    /// Re-creates the world with the current bodies if anything changed.
    Result<void> ensure_built() {
        if (!dirty_) return {};
        auto created = World::create(desc_);
        if (!created) return created.error();
        World fresh = std::move(created).value();
        std::map<BodyId, Body> rebuilt;
        for (auto& [id, old] : bodies_) {
            Body body{old.desc, {}, {}};
            std::vector<Vec3> pos(old.particles.count), vel(old.particles.count);
            if (old.particles.count != 0) {
                if (auto r = world_.read_positions(old.particles.first, Span<Vec3>(pos)); !r) return r;
                if (auto r = world_.read_velocities(old.particles.first, Span<Vec3>(vel)); !r) return r;
            } else {
                pos = old.desc.positions;
                vel.clear();
            }
            if (auto r = add_to(fresh, id, body, pos, vel); !r) return r;
            rebuilt.emplace(id, std::move(body));
        }
        std::map<ColliderId, ColliderEntry> colliders;
        for (const auto& [id, c] : colliders_) {
            auto h = fresh.add_collider(c.desc);
            if (!h) return h.error();
            colliders.emplace(id, ColliderEntry{c.desc, *h});
        }
        for (const auto& [key, g] : grabs_) {
            auto it = rebuilt.find(key.first);
            if (it == rebuilt.end()) continue; // removed with its body
            if (auto r = fresh.grab_particle(it->second.particles.first + key.second, g.target, g.compliance); !r)
                return r;
        }
        world_ = std::move(fresh);
        bodies_ = std::move(rebuilt);
        colliders_ = std::move(colliders);
        dirty_ = false;
        ++rebuilds_;
        return {};
    }

    WorldDesc desc_;
    World world_;
    std::map<BodyId, Body> bodies_;
    BodyId next_id_ = 1;
    std::map<ColliderId, ColliderEntry> colliders_;
    ColliderId next_collider_ = 1;
    std::map<std::pair<BodyId, uint32_t>, GrabEntry> grabs_;
    bool dirty_ = false;
    uint32_t rebuilds_ = 0;
};

} // namespace sinew

#endif // SINEW_SCENE_HPP

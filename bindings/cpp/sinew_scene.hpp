// sinew_scene.hpp: the bodies (ropes, cloths) of one sinew::World, by small integer id;
// engine-neutral. The Unreal subsystem owns one Scene per UWorld.
//
// The library builds every body (sinew_world_add_rope, sinew_world_add_cloth_mesh, ...:
// particles, links, bending, tethers) and removes it (sinew_world_remove_body: its
// constraints stop acting, its particles become inert and keep their indices, so other
// bodies are untouched); compliances and damping change in place
// (sinew_body_set_compliance), ropes are winched, cut and break in place
// (sinew_body_add_winch, sinew_body_cut_rope, sinew_body_set_break_force, with the break
// events routed to the Scene's body ids). The Scene never rebuilds its world: it only
// adds what a game engine needs on top, namely
//
// * ids that stay valid and a body per id (the library's Body handle, owned: removing a
//   body or destroying the Scene removes it from the world);
// * collision setup: every body's particles get collision group = its id, so a body's
//   own particles never push each other apart (neighbouring rope particles closer than
//   2 radii stay put), and the collision radius the caller asks for (a rope's is its
//   desc's radius, which the library gives its particles itself);
// * pin / unpin of single particles (inverse mass 0, then back to the body's own);
// * particle picking over all bodies, grabs keyed by (body, particle), colliders by id.
#ifndef SINEW_SCENE_HPP
#define SINEW_SCENE_HPP

#include <cmath>
#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "sinew.hpp"
#include "sinew_soft.hpp"

namespace sinew {

using ColliderId = uint32_t; ///< 0 is never a collider
using BodyId = uint32_t;     ///< 0 is never a body

/// A ray pick over the whole Scene: `body` is 0 when the ray hits no particle.
struct ScenePick {
    uint32_t body = 0;      ///< BodyId of the hit particle, 0 = miss
    uint32_t particle = 0;  ///< body-local index
    float distance = -1.0f; ///< m along the (normalised) ray
    bool hit() const noexcept { return body != 0; }
};

class Scene {
  public:
    static Result<Scene> create(const WorldDesc& desc = WorldDesc()) {
        auto w = World::create(desc);
        if (!w) return w.error();
        return Scene(desc, std::move(w).value());
    }

    const WorldDesc& desc() const noexcept { return desc_; }

    // --- bodies, built by the library ----------------------------------------------

    /// Adds a straight rope (desc.segments + 1 particles, start to end); its particles
    /// collide with radius desc.radius (m), which the library sets.
    Result<BodyId> add_rope(const RopeDesc& desc) {
        const uint32_t n = desc.segments + 1;
        return adopt(world_.add_rope(desc), rope_inverse_masses(desc, n, false), rope_inverse_masses(desc, n, true),
                     std::nullopt);
    }
    /// Adds a rope through `points` (m, at least 2), one particle each.
    Result<BodyId> add_rope_polyline(const RopeDesc& desc, Span<const Vec3> points) {
        const auto n = static_cast<uint32_t>(points.size());
        return adopt(world_.add_rope_polyline(desc, points), rope_inverse_masses(desc, n, false),
                     rope_inverse_masses(desc, n, true), std::nullopt);
    }
    /// Adds a cloth from a triangle mesh: one particle per vertex (m), one inverse mass
    /// per vertex (1/kg, 0 = pinned; the library tethers free vertices to pinned ones
    /// when desc.tethers), particles colliding with radius `collision_radius` (m).
    /// `free_inverse_masses` (one per vertex; empty = `inverse_masses`) is what unpin
    /// restores.
    Result<BodyId> add_cloth_mesh(const ClothDesc& desc, Span<const Vec3> vertices, Span<const uint32_t> triangles,
                                  Span<const float> inverse_masses, float collision_radius,
                                  Span<const float> free_inverse_masses = {}) {
        if (!free_inverse_masses.empty() && free_inverse_masses.size() != inverse_masses.size())
            return Error{Status::InvalidArgument, "Scene::add_cloth_mesh: free_inverse_masses must be empty or one "
                                                  "per vertex"};
        const Span<const float> free = free_inverse_masses.empty() ? inverse_masses : free_inverse_masses;
        return adopt(world_.add_cloth_mesh(desc, vertices, triangles, inverse_masses),
                     std::vector<float>(free.begin(), free.end()),
                     std::vector<float>(inverse_masses.begin(), inverse_masses.end()), collision_radius);
    }

    /// Adds a tet soft body (bindings/cpp/sinew_soft.hpp: soft::tetrahedralize makes one
    /// from a closed mesh): a link per tet edge, a volume constraint per tet, desc.total_mass
    /// lumped by volume by the library; particles collide with radius `collision_radius` (m).
    Result<BodyId> add_tet_body(const TetBodyDesc& desc, Span<const Vec3> vertices, Span<const uint32_t> tets,
                                float collision_radius) {
        std::vector<float> w = soft::lumped_inverse_masses(vertices, tets, 4, desc.total_mass);
        return adopt(world_.add_tet_body(desc, vertices, tets), w, w, collision_radius);
    }
    /// Adds a pressure soft body from a closed surface (soft::weld welds a render mesh's
    /// seams): a link per edge and one volume constraint keeping desc.pressure × the rest
    /// volume, desc.total_mass lumped by area; particles collide with radius
    /// `collision_radius` (m).
    Result<BodyId> add_pressure_body(const PressureBodyDesc& desc, Span<const Vec3> vertices,
                                     Span<const uint32_t> triangles, float collision_radius) {
        std::vector<float> w = soft::lumped_inverse_masses(vertices, triangles, 3, desc.total_mass);
        return adopt(world_.add_pressure_body(desc, vertices, triangles), w, w, collision_radius);
    }

    /// Removes a body from the world (the library's removal; other bodies are untouched)
    /// and forgets its grabs.
    Result<void> remove_body(BodyId id) {
        auto it = bodies_.find(id);
        if (it == bodies_.end()) return unknown("Scene::remove_body", id);
        for (auto g = grabs_.begin(); g != grabs_.end();) {
            if (g->first.first == id) {
                (void)world_.release_particle(it->second.particles.first + g->first.second);
                g = grabs_.erase(g);
            } else {
                ++g;
            }
        }
        auto r = it->second.body.remove();
        bodies_.erase(it);
        return r;
    }

    bool contains(BodyId id) const noexcept { return bodies_.count(id) != 0; }
    std::size_t body_count() const noexcept { return bodies_.size(); }

    /// Particles of a body.
    Result<uint32_t> particle_count(BodyId id) const {
        const Entry* b = find(id);
        if (!b) return unknown("Scene::particle_count", id);
        return b->particles.count;
    }
    /// The library's handle of a body (for calls the Scene does not wrap).
    Result<SinewBody> body_handle(BodyId id) const {
        const Entry* b = find(id);
        if (!b) return unknown("Scene::body_handle", id);
        return b->body.handle();
    }

    /// Sets the compliance of one of a body's constraint groups in place, from the next
    /// step on (units per group: m/N for links and tethers, the bending model's units).
    Result<void> set_compliance(BodyId id, BodyConstraints which, float compliance) {
        Entry* b = find(id);
        if (!b) return unknown("Scene::set_compliance", id);
        return b->body.set_compliance(which, compliance);
    }
    /// Sets a body's extra velocity damping (1/s, >= 0) in place.
    Result<void> set_damping(BodyId id, float per_second) {
        Entry* b = find(id);
        if (!b) return unknown("Scene::set_damping", id);
        return b->body.set_damping(per_second);
    }
    /// Level of detail: how a body is simulated from the next step on (Body::set_sim_mode:
    /// SINEW_SIM_FULL, SINEW_SIM_REDUCED with `every` in 1..=substeps, SINEW_SIM_PAUSED).
    Result<void> set_sim_mode(BodyId id, SinewSimMode mode, uint32_t every = 1) {
        Entry* b = find(id);
        if (!b) return unknown("Scene::set_sim_mode", id);
        return b->body.set_sim_mode(mode, every);
    }
    /// How a body is simulated (Body::sim_mode).
    Result<Body::SimMode> sim_mode(BodyId id) const {
        const Entry* b = find(id);
        if (!b) return unknown("Scene::sim_mode", id);
        return b->body.sim_mode();
    }
    /// Sets a pressure body's overpressure factor ((0, SINEW_MAX_PRESSURE]: it keeps
    /// pressure × its rest volume) in place.
    Result<void> set_pressure(BodyId id, float pressure) {
        Entry* b = find(id);
        if (!b) return unknown("Scene::set_pressure", id);
        return b->body.set_pressure(pressure);
    }
    /// Sets the total mass (kg) of a body's movable particles in place, keeping their
    /// ratios; what unpin restores is scaled alike.
    Result<void> set_mass(BodyId id, float kg) {
        Entry* b = find(id);
        if (!b) return unknown("Scene::set_mass", id);
        double free_mass = 0.0;
        for (float w : b->free_inverse_masses)
            if (w > 0.0f) free_mass += 1.0 / double(w);
        if (auto r = b->body.set_mass(kg); !r) return r;
        if (free_mass > 0.0) {
            const double scale = free_mass / double(kg);
            for (float& w : b->free_inverse_masses) w = static_cast<float>(double(w) * scale);
            for (float& w : b->inverse_masses) w = static_cast<float>(double(w) * scale);
        }
        return {};
    }
    /// The current volume (m³) of a soft body (tet or pressure).
    Result<float> volume(BodyId id) const {
        const Entry* b = find(id);
        if (!b) return unknown("Scene::volume", id);
        return b->body.volume();
    }
    /// Turns the two-way coupling of a body's particles with every fluid on (the
    /// default for particles with a radius) or off, in place.
    Result<void> set_fluid_coupling(BodyId id, bool enabled) {
        Entry* b = find(id);
        if (!b) return unknown("Scene::set_fluid_coupling", id);
        return b->body.set_fluid_coupling(enabled);
    }
    /// The force (N) the fluids exerted on a body in the last substep: buoyancy plus drag.
    Result<Vec3> fluid_force(BodyId id) const {
        const Entry* b = find(id);
        if (!b) return unknown("Scene::fluid_force", id);
        return b->body.fluid_force();
    }

    // --- sleeping (World::set_sleeping turns it on) ----------------------------------

    /// Whether a body sleeps (its island is frozen until something wakes it).
    Result<bool> is_asleep(BodyId id) const {
        const Entry* b = find(id);
        if (!b) return unknown("Scene::is_asleep", id);
        return b->body.is_asleep();
    }
    /// Wakes a body and its island.
    Result<void> wake(BodyId id) {
        Entry* b = find(id);
        if (!b) return unknown("Scene::wake", id);
        return b->body.wake();
    }
    /// Puts a body and its island to sleep now, at rest (sleeping must be on).
    Result<void> sleep(BodyId id) {
        Entry* b = find(id);
        if (!b) return unknown("Scene::sleep", id);
        return b->body.sleep();
    }

    // --- ropes edited while they run (in place; other bodies untouched) ------------

    /// A rope's links break when their tension exceeds `newtons` (+inf: never); each
    /// break is reported once by take_break_events().
    Result<void> set_break_force(BodyId id, float newtons) {
        Entry* b = find(id);
        if (!b) return unknown("Scene::set_break_force", id);
        return b->body.set_break_force(newtons);
    }
    /// Cuts a rope at link `link` (0 = at its start): the two pieces fall apart.
    Result<void> cut(BodyId id, uint32_t link) {
        Entry* b = find(id);
        if (!b) return unknown("Scene::cut", id);
        return b->body.cut(link);
    }
    /// Cuts a rope at the link nearest the segment a–b (m; a sword swipe); returns it.
    Result<uint32_t> cut_along(BodyId id, Vec3 a, Vec3 b) {
        Entry* e = find(id);
        if (!e) return unknown("Scene::cut_along", id);
        return e->body.cut_along(a, b);
    }
    /// Attaches a winch at the rope's pinned `end` and reels it in at once to `length`
    /// m (at most its built length). The parked particles follow the pinned end.
    Result<void> add_winch(BodyId id, RopeEnd end, float length) {
        Entry* b = find(id);
        if (!b) return unknown("Scene::add_winch", id);
        return b->body.add_winch(end, length);
    }
    /// Drives the winch at `meters_per_second` (> 0 pays out, < 0 reels in, 0 stops).
    Result<void> set_winch_speed(BodyId id, float meters_per_second) {
        Entry* b = find(id);
        if (!b) return unknown("Scene::set_winch_speed", id);
        return b->body.set_winch_speed(meters_per_second);
    }
    /// Drives the winch to `length` m at `meters_per_second` (> 0); it stops there.
    Result<void> set_winch_target(BodyId id, float length, float meters_per_second) {
        Entry* b = find(id);
        if (!b) return unknown("Scene::set_winch_target", id);
        return b->body.set_winch_target(length, meters_per_second);
    }
    /// The winch's length (m), speed (m/s) and paying link.
    Result<WinchState> winch_state(BodyId id) const {
        const Entry* b = find(id);
        if (!b) return unknown("Scene::winch_state", id);
        return b->body.winch_state();
    }

    /// One break of a Scene body (see take_break_events).
    struct Break {
        BodyId body = 0;           ///< 0: a constraint of no Scene body
        uint32_t link = UINT32_MAX; ///< the rope's link (Stretch index from its start); UINT32_MAX: not a rope link
        float force = 0.0f;        ///< N
        Vec3 position{0, 0, 0};    ///< m, where it broke
    };
    /// Moves the break events of the last steps (oldest first) into `out`, with the
    /// Scene body each belongs to; returns how many were lost to a full queue. A rope's
    /// link is the one whose midpoint is nearest the break now (its two particles'
    /// mean moves on smoothly after the break).
    /// `out` is cleared first and its capacity reused, as is the Scene's own buffer of
    /// raw events: nothing is allocated once both have grown.
    Result<uint64_t> take_break_events(std::vector<Break>& out) {
        auto lost = world_.take_break_events(raw_break_events_);
        if (!lost) return lost.error();
        out.clear();
        for (const BreakEvent& e : raw_break_events_) {
            Break k;
            k.force = e.force;
            k.position = e.position;
            for (const auto& [id, b] : bodies_) {
                if (b.body.handle().id == e.body.id && e.body.id != 0) {
                    k.body = id;
                    if (e.family == SINEW_FAMILY_BODY_LINK) k.link = nearest_rope_link(b, e.position);
                    break;
                }
            }
            out.push_back(k);
        }
        return *lost;
    }

    /// One contact event of a Scene collider (see take_contact_events).
    struct ContactEvent {
        SinewContactEventKind kind = SINEW_CONTACT_BEGIN;
        ColliderId collider = 0;    ///< 0: a collider not added through the Scene, or removed
        BodyId body = 0;            ///< 0: particles of no Scene body
        uint32_t particle = 0;      ///< the body's first touching particle (index in the body)
        Vec3 point{0, 0, 0};        ///< m, that particle's contact point
        Vec3 normal{0, 0, 0};       ///< the collider's outward normal there
        float impulse = 0.0f;       ///< N·s (>= 0), normal impulse on the body over the step; 0 for an end
        Vec3 friction_impulse{0, 0, 0}; ///< N·s; zero for an end
    };
    /// Turns the contact events on or off (off by default; see World::set_contact_events).
    Result<void> set_contact_events(bool enabled) { return world_.set_contact_events(enabled); }
    /// Moves every waiting contact event (oldest first) into `out` (cleared first, its
    /// capacity reused: nothing is allocated once it has grown), with the Scene
    /// collider and body each is about; returns how many a full queue lost.
    Result<uint64_t> take_contact_events(std::vector<ContactEvent>& out) {
        out.clear();
        uint64_t lost = 0;
        for (;;) {
            auto taken = world_.take_contact_events(Span<sinew::ContactEvent>(raw_contact_events_, kContactChunk));
            if (!taken) return taken.error();
            lost += taken->lost;
            for (uint32_t i = 0; i < taken->count; ++i) {
                const sinew::ContactEvent& e = raw_contact_events_[i];
                ContactEvent c;
                c.kind = static_cast<SinewContactEventKind>(e.kind);
                c.particle = e.particle;
                c.point = e.point;
                c.normal = e.normal;
                c.impulse = e.impulse;
                c.friction_impulse = e.friction_impulse;
                for (const auto& [id, handle] : colliders_) {
                    if (handle.id == e.collider.id) {
                        c.collider = id;
                        break;
                    }
                }
                for (const auto& [id, b] : bodies_) {
                    if (e.body.id != 0 && b.body.handle().id == e.body.id) {
                        c.body = id;
                        c.particle = e.particle - b.particles.first;
                        break;
                    }
                }
                out.push_back(c);
            }
            if (taken->count < kContactChunk) return lost;
        }
    }

    /// Pin: particle `i` of the body gets inverse mass 0.
    Result<void> pin(BodyId id, uint32_t i) { return set_inverse_mass(id, i, true, "Scene::pin"); }
    /// Release: particle `i` gets back the inverse mass the body was built with.
    Result<void> unpin(BodyId id, uint32_t i) { return set_inverse_mass(id, i, false, "Scene::unpin"); }
    Result<bool> is_pinned(BodyId id, uint32_t i) const {
        const Entry* b = find(id);
        if (!b) return unknown("Scene::is_pinned", id);
        if (i >= b->inverse_masses.size()) return Error{Status::OutOfRange, "Scene::is_pinned: no such particle"};
        return b->inverse_masses[i] == 0.0f;
    }

    /// The body's free (not pinned) particle nearest to `target` (m): what a grab
    /// takes. OutOfRange when every particle is pinned.
    Result<uint32_t> nearest_free_particle(BodyId id, Vec3 target) {
        const Entry* b = find(id);
        if (!b) return unknown("Scene::nearest_free_particle", id);
        std::vector<Vec3> pos(b->particles.count);
        if (auto r = world_.read_positions(b->particles.first, Span<Vec3>(pos)); !r) return r.error();
        uint32_t best = UINT32_MAX;
        float best_d2 = 0.0f;
        for (uint32_t i = 0; i < pos.size(); ++i) {
            if (b->inverse_masses[i] == 0.0f) continue;
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
    /// drive of pinned ends and pinned vertices.
    Result<void> move_particles(BodyId id, Span<const uint32_t> particles, Span<const Vec3> positions) {
        if (particles.size() != positions.size())
            return Error{Status::InvalidArgument, "Scene::move_particles: index and position counts differ"};
        Entry* b = find(id);
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
        auto c = world_.add_collider(desc);
        if (!c) return c.error();
        const ColliderId id = next_collider_++;
        colliders_.emplace(id, c->release()); // the scene removes it (remove_collider)
        return id;
    }
    /// Adds a static heightfield collider (see World::add_heightfield_collider).
    Result<ColliderId> add_heightfield_collider(const SinewColliderDesc& desc, uint32_t columns, uint32_t rows,
                                                float cell_x, float cell_z, Span<const float> heights,
                                                Span<const uint8_t> holes = {}) {
        auto c = world_.add_heightfield_collider(desc, columns, rows, cell_x, cell_z, heights, holes);
        if (!c) return c.error();
        const ColliderId id = next_collider_++;
        colliders_.emplace(id, c->release()); // the scene removes it (remove_collider)
        return id;
    }
    /// Takes over a collider made on this scene's world outside it (a distance field's,
    /// colliders::add_sdf_collider): from now on the scene removes it (remove_collider),
    /// its calls take the returned id and its contact events name it. A null collider
    /// is an InvalidArgument.
    Result<ColliderId> adopt_collider(Collider&& c) {
        if (!c) return Error{Status::InvalidArgument, "Scene::adopt_collider: a null collider"};
        const ColliderId id = next_collider_++;
        colliders_.emplace(id, c.release()); // the scene removes it (remove_collider)
        return id;
    }
    /// Removes a collider.
    Result<void> remove_collider(ColliderId id) {
        auto it = colliders_.find(id);
        if (it == colliders_.end()) return unknown_collider("Scene::remove_collider", id);
        if (auto r = world_.remove_collider(it->second); !r) return r;
        colliders_.erase(it);
        return {};
    }
    /// Moves a collider (m, unit quaternion); it sweeps there over the next step unless
    /// `teleport`.
    Result<void> set_collider_transform(ColliderId id, Vec3 position, Quat rotation, bool teleport = false) {
        auto it = colliders_.find(id);
        if (it == colliders_.end()) return unknown_collider("Scene::set_collider_transform", id);
        return world_.set_collider_transform(it->second, position, rotation, teleport);
    }
    /// Sets a collider's friction coefficients (>= 0) and restitution ([0, 1]).
    Result<void> set_collider_material(ColliderId id, float static_friction, float dynamic_friction,
                                       float restitution) {
        auto it = colliders_.find(id);
        if (it == colliders_.end()) return unknown_collider("Scene::set_collider_material", id);
        return world_.set_collider_material(it->second, static_friction, dynamic_friction, restitution);
    }
    /// Makes collider `id` dynamic: the host body behind it (sinew_collider_set_dynamics;
    /// SI units in the simulation's axes).
    Result<void> set_collider_dynamics(ColliderId id, const SinewColliderDynamics& d) {
        auto it = colliders_.find(id);
        if (it == colliders_.end()) return unknown_collider("Scene::set_collider_dynamics", id);
        return world_.set_collider_dynamics(it->second, d);
    }
    /// Makes collider `id` kinematic again.
    Result<void> clear_collider_dynamics(ColliderId id) {
        auto it = colliders_.find(id);
        if (it == colliders_.end()) return unknown_collider("Scene::clear_collider_dynamics", id);
        return world_.clear_collider_dynamics(it->second);
    }
    /// What dynamic collider `id`'s proxy did over the last step (sinew_collider_read_motion).
    Result<SinewColliderMotion> collider_motion(ColliderId id) const {
        auto it = colliders_.find(id);
        if (it == colliders_.end()) return unknown_collider("Scene::collider_motion", id);
        return world_.collider_motion(it->second);
    }
    /// The force (N) and torque (N·m, about `about`, m) the particles exerted on
    /// collider `id` over the last step (sinew_collider_contact_wrench).
    Result<Wrench> collider_contact_wrench(ColliderId id, const Vec3& about) const {
        auto it = colliders_.find(id);
        if (it == colliders_.end()) return unknown_collider("Scene::collider_contact_wrench", id);
        return world_.contact_wrench(it->second, about);
    }
    bool contains_collider(ColliderId id) const noexcept { return colliders_.count(id) != 0; }
    std::size_t collider_count() const noexcept { return colliders_.size(); }

    // --- picking and grabbing ----------------------------------------------------

    /// The particle nearest along origin + t·direction (t >= 0, m; direction is
    /// normalised here) within `radius` (m) + its own radius of the ray. Particles of
    /// removed bodies are inert and never reported.
    Result<ScenePick> pick(Vec3 origin, Vec3 direction, float radius) {
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
        return out; // a particle of a removed body or added outside the Scene: no hit
    }
    /// Attaches particle `i` of the body to `target` (m) with `compliance` (m/N, 0 =
    /// rigid) until release(): the library's grab constraint. Pinned particles cannot be
    /// grabbed.
    Result<void> grab(BodyId id, uint32_t i, Vec3 target, float compliance) {
        const Entry* b = find(id);
        if (!b) return unknown("Scene::grab", id);
        if (i >= b->particles.count)
            return Error{Status::OutOfRange, "Scene::grab: particle " + std::to_string(i) +
                                                 " >= body particle count " + std::to_string(b->particles.count)};
        if (auto r = world_.grab_particle(b->particles.first + i, target, compliance); !r) return r;
        grabs_[{id, i}] = target;
        return {};
    }
    /// Moves the target (m) of the grab on particle `i` of the body.
    Result<void> move_grab(BodyId id, uint32_t i, Vec3 target) {
        auto it = grabs_.find({id, i});
        if (it == grabs_.end())
            return Error{Status::InvalidArgument, "Scene::move_grab: particle " + std::to_string(i) + " of body " +
                                                      std::to_string(id) + " is not grabbed"};
        if (auto r = world_.move_grab(find(id)->particles.first + i, target); !r) return r;
        it->second = target;
        return {};
    }
    /// Releases the grab on particle `i` of the body.
    Result<void> release(BodyId id, uint32_t i) {
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
    Result<void> step(float dt) { return world_.step(dt); }

    /// Runs the world's parallel passes on a host task system (World::set_task_system;
    /// results bit-identical to the built-in pool), or back on the built-in pool.
    Result<void> set_task_system(const SinewTaskSystem& tasks) { return world_.set_task_system(tasks); }
    Result<void> set_task_system(std::nullptr_t) { return world_.set_task_system(nullptr); }

    /// Profiling (World::set_profiling, read_stage_times, profile_counts,
    /// set_profile_listener): stage times of the last step, counts, markers.
    Result<void> set_profiling(bool enabled) { return world_.set_profiling(enabled); }
    Result<uint32_t> read_stage_times(Span<SinewStageTime> out) const { return world_.read_stage_times(out); }
    Result<SinewProfileCounts> profile_counts() const { return world_.profile_counts(); }
    template <class Listener>
    Result<void> set_profile_listener(Listener& listener) {
        return world_.set_profile_listener(listener);
    }
    Result<void> set_profile_callback(std::nullptr_t) { return world_.set_profile_callback(nullptr); }

    /// Positions (m) of all particles of a body into `out` (size = particle count).
    template <class V>
    Result<void> read_positions(BodyId id, Span<V> out) {
        const Entry* b = find(id);
        if (!b) return unknown("Scene::read_positions", id);
        if (auto r = fits(*b, out.size(), "Scene::read_positions"); !r) return r;
        return world_.read_positions(b->particles.first, out);
    }
    /// The same into `out`, resized to the body's particle count (reuse one vector: it
    /// allocates only when it grows).
    template <class V>
    Result<void> read_positions(BodyId id, std::vector<V>& out) {
        const Entry* b = find(id);
        if (!b) return unknown("Scene::read_positions", id);
        out.resize(b->particles.count);
        return read_positions(id, Span<V>(out));
    }
    /// Positions (m) of all particles of a body interpolated between the start and the
    /// end of the last step, (1 - alpha) * previous + alpha * current (alpha in [0, 1],
    /// e.g. World::advance's), into `out` (size = particle count), through
    /// sinew_body_read_interpolated_positions: what a renderer draws between fixed steps.
    template <class V>
    Result<void> read_interpolated_positions(BodyId id, float alpha, Span<V> out) const {
        const Entry* b = find(id);
        if (!b) return unknown("Scene::read_interpolated_positions", id);
        if (auto r = fits(*b, out.size(), "Scene::read_interpolated_positions"); !r) return r;
        return b->body.read_interpolated_positions(alpha, out);
    }
    /// The same into `out`, resized to the body's particle count.
    template <class V>
    Result<void> read_interpolated_positions(BodyId id, float alpha, std::vector<V>& out) const {
        const Entry* b = find(id);
        if (!b) return unknown("Scene::read_interpolated_positions", id);
        out.resize(b->particles.count);
        return read_interpolated_positions(id, alpha, Span<V>(out));
    }
    /// Velocities (m/s) of all particles of a body into `out` (size = particle count).
    template <class V>
    Result<void> read_velocities(BodyId id, Span<V> out) const {
        const Entry* b = find(id);
        if (!b) return unknown("Scene::read_velocities", id);
        if (auto r = fits(*b, out.size(), "Scene::read_velocities"); !r) return r;
        return world_.read_velocities(b->particles.first, out);
    }
    /// The same into `out`, resized to the body's particle count.
    template <class V>
    Result<void> read_velocities(BodyId id, std::vector<V>& out) const {
        const Entry* b = find(id);
        if (!b) return unknown("Scene::read_velocities", id);
        out.resize(b->particles.count);
        return read_velocities(id, Span<V>(out));
    }

    /// Force magnitudes (N) of a body's length constraints of one group in the last
    /// substep (a rope's links from start to end for BodyConstraints::Stretch).
    Result<void> read_forces(BodyId id, BodyConstraints which, std::vector<float>& out_newtons) const {
        const Entry* b = find(id);
        if (!b) return unknown("Scene::read_forces", id);
        return b->body.read_forces(which, out_newtons);
    }

    /// The world (for calls the Scene does not wrap).
    World& world() noexcept { return world_; }

    // --- cloth tearing (threshold: a stretch ratio; 0 or +inf = off) ----------------

    /// Turns tearing of a cloth on or changes its threshold (see Body::set_tear_threshold).
    Result<void> set_tear_threshold(BodyId id, float threshold, uint32_t reserve = 0) {
        Entry* b = find(id);
        if (!b) return unknown("Scene::set_tear_threshold", id);
        return b->body.set_tear_threshold(threshold, reserve);
    }
    /// The cloth's topology version (0 until its first split).
    Result<uint64_t> topology_version(BodyId id) const {
        const Entry* b = find(id);
        if (!b) return unknown("Scene::topology_version", id);
        return b->body.topology_version();
    }
    /// The cloth's render topology now (see ClothTopology).
    Result<ClothTopology> topology(BodyId id) const {
        const Entry* b = find(id);
        if (!b) return unknown("Scene::topology", id);
        return b->body.topology();
    }
    /// The first particle of a body (world index).
    Result<uint32_t> first_particle(BodyId id) const {
        const Entry* b = find(id);
        if (!b) return unknown("Scene::first_particle", id);
        return b->particles.first;
    }

    // --- character cloth: aerodynamics, skinned targets, inertia (m, m/N) -----------

    /// Drag and lift coefficients of a cloth (per triangle) or rope (drag per link).
    Result<void> set_aerodynamics(BodyId id, float drag, float lift) {
        Entry* b = find(id);
        if (!b) return unknown("Scene::set_aerodynamics", id);
        return b->body.set_aerodynamics(drag, lift);
    }
    /// One SinewSkinWeights per particle of the body (max distance and backstop in m).
    Result<void> set_skin_weights(BodyId id, Span<const SinewSkinWeights> weights) {
        Entry* b = find(id);
        if (!b) return unknown("Scene::set_skin_weights", id);
        return b->body.set_skin_weights(weights);
    }
    /// This frame's skinned targets (m) and normals, one per particle (empty normals =
    /// keep the last ones).
    Result<void> set_skin_targets(BodyId id, Span<const Vec3> positions, Span<const Vec3> normals) {
        Entry* b = find(id);
        if (!b) return unknown("Scene::set_skin_targets", id);
        return b->body.set_skin_targets(positions, normals);
    }
    /// The root transform (m) the next step reaches and the inertia fractions (0..1).
    Result<void> set_skin_root(BodyId id, const Transform& root, float linear_inertia, float angular_inertia) {
        Entry* b = find(id);
        if (!b) return unknown("Scene::set_skin_root", id);
        return b->body.set_skin_root(root, linear_inertia, angular_inertia);
    }
    /// Puts the body on its skinned pose, at rest.
    Result<void> teleport_to_skin(BodyId id) {
        Entry* b = find(id);
        if (!b) return unknown("Scene::teleport_to_skin", id);
        return b->body.teleport_to_skin();
    }
    /// The world's air and wind (m/s) and its zones.
    Result<void> set_wind(const SinewWindDesc& desc) { return world_.set_wind(desc); }

  private:
    struct Entry {
        Body body;
        Range particles;
        std::vector<float> free_inverse_masses; ///< as built, restored by unpin
        std::vector<float> inverse_masses;      ///< now (0 = pinned)
    };

    Scene(const WorldDesc& desc, World world) : desc_(desc), world_(std::move(world)) {}

    static Error unknown_collider(const char* what, ColliderId id) {
        return Error{Status::InvalidHandle, std::string(what) + ": no collider " + std::to_string(id)};
    }
    static Error unknown(const char* what, BodyId id) {
        return Error{Status::InvalidHandle, std::string(what) + ": no body " + std::to_string(id)};
    }
    /// The Span reads' check: an output of exactly the body's particle count.
    static Result<void> fits(const Entry& b, std::size_t size, const char* what) {
        if (size == b.particles.count) return {};
        return Error{Status::InvalidArgument, std::string(what) + ": output holds " + std::to_string(size) +
                                                  ", body has " + std::to_string(b.particles.count)};
    }
    Entry* find(BodyId id) {
        auto it = bodies_.find(id);
        return it == bodies_.end() ? nullptr : &it->second;
    }
    const Entry* find(BodyId id) const {
        auto it = bodies_.find(id);
        return it == bodies_.end() ? nullptr : &it->second;
    }

    /// The inverse masses the library gives a rope of `n` particles: the total mass
    /// spread evenly (see SinewRopeDesc), with the pinned ends at 0 when `pins`. Empty
    /// when the desc is invalid (the library refuses it then).
    static std::vector<float> rope_inverse_masses(const RopeDesc& desc, uint32_t n, bool pins) {
        if (n < 2 || !(desc.total_mass > 0.0f) || !std::isfinite(desc.total_mass)) return {};
        std::vector<float> w(n, static_cast<float>(n) / desc.total_mass);
        if (pins && desc.pin_start) w.front() = 0.0f;
        if (pins && desc.pin_end) w.back() = 0.0f;
        return w;
    }

    /// Takes a body the library built: sets its particles' collision group and radius
    /// (none: the radius the library built them with, a rope's) and records it. A body
    /// whose collision setup fails is removed again.
    Result<BodyId> adopt(Result<Body> built, std::vector<float> free_inverse_masses,
                         std::vector<float> inverse_masses, std::optional<float> collision_radius) {
        if (!built) return built.error();
        Body body = std::move(built).value();
        auto range = body.particles();
        if (!range) return range.error();
        const BodyId id = next_id_;
        SinewCollisionFilter filter = sinew_collision_filter_default();
        filter.group = id;
        std::vector<SinewCollisionFilter> filters(range->count, filter);
        if (auto r = world_.set_collision_filters(range->first, Span<const SinewCollisionFilter>(filters)); !r)
            return r.error(); // `body` removes itself
        if (collision_radius) {
            std::vector<float> radii(range->count, *collision_radius);
            if (auto r = world_.set_particle_radii(range->first, Span<const float>(radii)); !r) return r.error();
        }
        if (inverse_masses.size() != range->count || free_inverse_masses.size() != range->count)
            return Error{Status::Internal, "Scene: the library built " + std::to_string(range->count) +
                                               " particles, not the expected " + std::to_string(inverse_masses.size())};
        ++next_id_;
        Entry e{std::move(body), *range, std::move(free_inverse_masses), std::move(inverse_masses)};
        bodies_.emplace(id, std::move(e));
        return id;
    }

    /// The rope link (i, i+1) whose midpoint is nearest `at` (a winch's parked links
    /// lie at its drum, half a paying link or more from a break of the paying link);
    /// UINT32_MAX for a body that is not a rope or cannot be read.
    uint32_t nearest_rope_link(const Entry& b, const Vec3& at) {
        auto kind = b.body.kind();
        if (!kind || *kind != BodyKind::Rope || b.particles.count < 2) return UINT32_MAX;
        std::vector<Vec3> pos(b.particles.count);
        if (!world_.read_positions(b.particles.first, Span<Vec3>(pos))) return UINT32_MAX;
        uint32_t best = UINT32_MAX;
        float best_d2 = 0.0f;
        for (uint32_t i = 0; i + 1 < b.particles.count; ++i) {
            const float dx = 0.5f * (pos[i].x + pos[i + 1].x) - at.x;
            const float dy = 0.5f * (pos[i].y + pos[i + 1].y) - at.y;
            const float dz = 0.5f * (pos[i].z + pos[i + 1].z) - at.z;
            const float d2 = dx * dx + dy * dy + dz * dz;
            if (best == UINT32_MAX || d2 < best_d2) {
                best = i;
                best_d2 = d2;
            }
        }
        return best;
    }

    Result<void> set_inverse_mass(BodyId id, uint32_t i, bool pinned, const char* what) {
        Entry* b = find(id);
        if (!b) return unknown(what, id);
        if (i >= b->inverse_masses.size())
            return Error{Status::OutOfRange, std::string(what) + ": particle " + std::to_string(i) +
                                                 " >= body particle count " +
                                                 std::to_string(b->inverse_masses.size())};
        const float w = pinned ? 0.0f : b->free_inverse_masses[i];
        if (auto r = world_.set_inverse_mass(b->particles.first + i, w); !r) return r;
        b->inverse_masses[i] = w;
        return {};
    }

    WorldDesc desc_;
    World world_; // declared before the bodies: they are removed from it first
    std::map<BodyId, Entry> bodies_;
    BodyId next_id_ = 1;
    std::map<ColliderId, SinewCollider> colliders_;
    ColliderId next_collider_ = 1;
    std::map<std::pair<BodyId, uint32_t>, Vec3> grabs_;
    static constexpr uint32_t kContactChunk = 64;
    sinew::ContactEvent raw_contact_events_[kContactChunk] = {};
    std::vector<BreakEvent> raw_break_events_; ///< reused by take_break_events
};

} // namespace sinew

#endif // SINEW_SCENE_HPP

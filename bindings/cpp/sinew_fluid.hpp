// sinew_fluid.hpp: fluids in the C++ wrapper (included by sinew.hpp; include either).
// Position Based Fluids coupled two-way with every solid particle that has a radius.
//
// * sinew::FluidDesc / EmitterDesc / KillVolumeDesc start at the library's defaults
//   (cookie included) and have chainable setters; the library checks every field.
// * sinew::Fluid, Emitter and KillVolume are plain handles (like SinewCollider): no
//   RAII, copyable; remove() gives them back. After their world or fluid is gone every
//   call fails with Status::InvalidHandle (handles are generation-checked).
// * World::add_fluid / fluid_count, Body::set_fluid_coupling / fluid_force are
//   declared in sinew.hpp and defined here.
#ifndef SINEW_FLUID_HPP
#define SINEW_FLUID_HPP

#include "sinew.hpp"

namespace sinew {

/// The shape of an emitter (`SinewEmitterShape`).
enum class EmitterShape : uint32_t {
    Nozzle = SINEW_EMITTER_NOZZLE,
    Box = SINEW_EMITTER_BOX,
};

/// The shape of a kill volume (`SinewKillVolumeShape`).
enum class KillVolumeShape : uint32_t {
    Box = SINEW_KILL_VOLUME_BOX,
    Sphere = SINEW_KILL_VOLUME_SPHERE,
    HalfSpace = SINEW_KILL_VOLUME_HALF_SPACE,
};

/// Counters (live, capacity, emitted, removed, refused) and the mean and largest ρ/ρ₀.
using FluidStats = SinewFluidStats;

/// A fluid's settings: a SinewFluidDesc that starts at sinew_fluid_desc_default()
/// (water: ρ₀ 1000 kg/m³, spacing 5 cm, 4096 particles). One `with_` setter per field,
/// rendered from the Rust declaration (units and ranges in their docs).
struct FluidDesc : detail::DescSetters<FluidDesc, SinewFluidDesc> {
    FluidDesc() noexcept : DescSetters(sinew_fluid_desc_default()) {}
    /// From a desc the library wrote (Fluid::desc()).
    explicit FluidDesc(const SinewFluidDesc& d) noexcept : DescSetters(d) {}
    // BEGIN GENERATED FluidDesc setters
    /// Rest density ρ₀ (per unit thickness in a planar world, in kg/m²); water is 1000. Bodies
    /// lighter than this float. In (0, SINEW_MAX_REST_DENSITY] kg/m³. Default 1000.
    FluidDesc& with_rest_density(float value) noexcept {
        this->rest_density = value;
        return *this;
    }
    /// Particle spacing s: the rest distance between particles. Sets the particle mass ρ₀·s³
    /// (ρ₀·s² in a planar world) and volume s³ (s²). Fixed once the fluid is added. In
    /// [SINEW_MIN_FLUID_SPACING, SINEW_MAX_FLUID_SPACING] m. Default 0.05.
    FluidDesc& with_spacing(float value) noexcept {
        this->spacing = value;
        return *this;
    }
    /// Smoothing radius h; a value other than 0 must also lie in [spacing,
    /// MAX_SMOOTHING_RATIO·spacing]. In [0, 40] m; 0 = 2·spacing. Default 0.
    FluidDesc& with_smoothing_radius(float value) noexcept {
        this->smoothing_radius = value;
        return *this;
    }
    /// Particles reserved up front: emission never allocates; a full fluid refuses emission or
    /// recycles its oldest particle. Fixed once the fluid is added. In
    /// 1..=SINEW_MAX_FLUID_CAPACITY particles. Default 4096.
    FluidDesc& with_capacity(uint32_t value) noexcept {
        this->capacity = value;
        return *this;
    }
    /// Constraint relaxation ε, the CFM term of the density constraint (whose gradient carries
    /// the particle volume, so ε has units of 1/m²); it softens the constraint. 0.04 / spacing²
    /// is 100 m⁻² at spacing 0.02 m. In [0, SINEW_MAX_FLUID_RELAXATION] m⁻²; 0 = 0.04 /
    /// spacing². Default 0.
    FluidDesc& with_relaxation(float value) noexcept {
        this->relaxation = value;
        return *this;
    }
    /// Artificial pressure s_corr = −k·(W(r)/W(Δq))ⁿ: k, dimensionless. Keeps particles from
    /// clumping at the surface. In [0, SINEW_MAX_FLUID_COEFFICIENT]. Default 0.1.
    FluidDesc& with_scorr_k(float value) noexcept {
        this->scorr_k = value;
        return *this;
    }
    /// Artificial pressure exponent n. In 1..=8. Default 4.
    FluidDesc& with_scorr_n(uint32_t value) noexcept {
        this->scorr_n = value;
        return *this;
    }
    /// Artificial pressure Δq, as a fraction of the smoothing radius h. In [0, 0.9]. Default
    /// 0.2.
    FluidDesc& with_scorr_dq(float value) noexcept {
        this->scorr_dq = value;
        return *this;
    }
    /// XSPH viscosity c, dimensionless, applied once per substep (0.01 water; larger is
    /// thicker, like honey). In [0, 1]. Default 0.01.
    FluidDesc& with_viscosity(float value) noexcept {
        this->viscosity = value;
        return *this;
    }
    /// Vorticity confinement ε_vort, dimensionless (scaled by the particle volume and h
    /// internally; 0 = off): puts back the swirl that damping removes. In [0,
    /// SINEW_MAX_FLUID_COEFFICIENT]. Default 0.
    FluidDesc& with_vorticity(float value) noexcept {
        this->vorticity = value;
        return *this;
    }
    /// Cohesion / surface tension γ (Akinci et al. 2013), dimensionless (0 = off): 1 lets a
    /// neighbour at the kernel's peak accelerate a particle at spacing × 3600 s⁻² (a spacing
    /// per 60 Hz frame per frame), for any substep count. In [0, SINEW_MAX_FLUID_COEFFICIENT].
    /// Default 0.
    FluidDesc& with_cohesion(float value) noexcept {
        this->cohesion = value;
        return *this;
    }
    /// Adhesion β to solid particles (Akinci et al. 2013), dimensionless (0 = off): scaled as
    /// cohesion, weighted by the solid's volume over the particle's; water that wets the bodies
    /// it touches. In [0, SINEW_MAX_FLUID_COEFFICIENT]. Default 0.
    FluidDesc& with_adhesion(float value) noexcept {
        this->adhesion = value;
        return *this;
    }
    /// Radius with which the fluid's particles meet colliders; a value of 0 or more must also
    /// be at most the spacing. 0 projects the particle centres onto collider surfaces. In [0,
    /// SINEW_MAX_FLUID_SPACING] m; negative = spacing / 2. Default -1.
    FluidDesc& with_collision_radius(float value) noexcept {
        this->collision_radius = value;
        return *this;
    }
    /// Lifetime of an emitted particle (0 = forever). In [0, SINEW_MAX_FLUID_LIFETIME] s.
    /// Default 0.
    FluidDesc& with_lifetime(float value) noexcept {
        this->lifetime = value;
        return *this;
    }
    /// When an emitter needs a slot and the fluid is full: true removes the oldest particle,
    /// false skips the emission (counted in the stats' `refused`). Default 0 (0 or 1).
    FluidDesc& with_recycle_oldest(bool value) noexcept {
        this->recycle_oldest = value ? 1u : 0u;
        return *this;
    }
    /// The solid particles (with a radius) whose collision layers meet this mask take part in
    /// the fluid's density (two-way coupling: buoyancy and drag); all bits set = every layer.
    /// Default 0xFFFFFFFF.
    FluidDesc& with_coupling_mask(uint32_t value) noexcept {
        this->coupling_mask = value;
        return *this;
    }
    /// The density solves per second of simulated time, at least: a substep of h seconds runs
    /// ⌈rate·h / iterations⌉ Jacobi solves per iteration (at most 16), so long substeps keep
    /// the stiffness of short ones (one solve carries the floor's push only about two rows up
    /// the water; a pool 12 rows deep at 1 substep of 1/60 s and one solve boiled over). 480 is
    /// one solve per substep at the world's default of 8 substeps of 1/60 s. 0: one solve per
    /// iteration, whatever the substep (Macklin & Müller's scheme as published). With several
    /// fluids the largest rate counts. In [0, SINEW_MAX_FLUID_SOLVE_RATE] Hz. Default 480.
    FluidDesc& with_solve_rate(float value) noexcept {
        this->solve_rate = value;
        return *this;
    }
    // END GENERATED FluidDesc setters
};

/// An emitter's settings, from sinew_emitter_desc_default() (a 10 cm nozzle at the
/// origin facing +Z, 2 m/s, 500 particles/s).
struct EmitterDesc : detail::DescSetters<EmitterDesc, SinewEmitterDesc> {
    EmitterDesc() noexcept : DescSetters(sinew_emitter_desc_default()) {}
    /// A round nozzle of `radius_m` facing the emitter's local +Z.
    EmitterDesc& nozzle(float radius_m) noexcept {
        shape = SINEW_EMITTER_NOZZLE;
        radius = radius_m;
        return *this;
    }
    /// A box of `half` extents (m) in the emitter's frame.
    EmitterDesc& box(const Vec3& half) noexcept {
        shape = SINEW_EMITTER_BOX;
        half_extents = half;
        return *this;
    }
    /// Centre (m) and orientation (unit quaternion).
    EmitterDesc& at(const Vec3& centre, const Quat& orientation = Quat{0.0f, 0.0f, 0.0f, 1.0f}) noexcept {
        position = centre;
        rotation = orientation;
        return *this;
    }
    // BEGIN GENERATED EmitterDesc setters
    /// Nozzle: The radius of the disc the particles leave, centred on the emitter and facing
    /// its local +z axis, on a lattice of the fluid's spacing (at most MAX_NOZZLE_SPACINGS
    /// spacings). In [0, SINEW_MAX_COORDINATE] m. Default 0.1.
    EmitterDesc& with_radius(float value) noexcept {
        this->radius = value;
        return *this;
    }
    /// Box: The box's half extents, in the emitter's frame: particles appear at deterministic
    /// pseudo-random points inside. Each component in [0, SINEW_MAX_COORDINATE] m. Default
    /// (0.1, 0.1, 0.1).
    EmitterDesc& with_half_extents(const Vec3& value) noexcept {
        this->half_extents = value;
        return *this;
    }
    /// Centre, in the world. Each component in [-SINEW_MAX_COORDINATE, SINEW_MAX_COORDINATE] m.
    /// Default (0, 0, 0).
    EmitterDesc& with_position(const Vec3& value) noexcept {
        this->position = value;
        return *this;
    }
    /// Speed along the emitter's local +z given to each new particle. In [0,
    /// SINEW_MAX_EMIT_SPEED] m/s. Default 2.
    EmitterDesc& with_speed(float value) noexcept {
        this->speed = value;
        return *this;
    }
    /// Particles per second; 0 pauses the emitter. A nozzle passes at most speed × its lattice
    /// points / spacing per second (520/s for the default 10 cm nozzle at 2 m/s and 5 cm
    /// spacing); a higher rate is capped there. In [0, SINEW_MAX_EMIT_RATE] particles/s.
    /// Default 500.
    EmitterDesc& with_rate(float value) noexcept {
        this->rate = value;
        return *this;
    }
    // END GENERATED EmitterDesc setters
};

/// A kill volume's settings, from sinew_kill_volume_desc_default() (a 2 m box).
struct KillVolumeDesc : detail::DescSetters<KillVolumeDesc, SinewKillVolumeDesc> {
    KillVolumeDesc() noexcept : DescSetters(sinew_kill_volume_desc_default()) {}
    static KillVolumeDesc box(const Vec3& centre, const Vec3& half,
                              const Quat& orientation = Quat{0.0f, 0.0f, 0.0f, 1.0f}) noexcept {
        KillVolumeDesc d;
        d.shape = SINEW_KILL_VOLUME_BOX;
        d.center = centre;
        d.half_extents = half;
        d.rotation = orientation;
        return d;
    }
    static KillVolumeDesc sphere(const Vec3& centre, float radius_m) noexcept {
        KillVolumeDesc d;
        d.shape = SINEW_KILL_VOLUME_SPHERE;
        d.center = centre;
        d.radius = radius_m;
        return d;
    }
    /// Everything on the side of the plane through `point` that `normal` points away from.
    static KillVolumeDesc half_space(const Vec3& point, const Vec3& normal_dir) noexcept {
        KillVolumeDesc d;
        d.shape = SINEW_KILL_VOLUME_HALF_SPACE;
        d.center = point;
        d.normal = normal_dir;
        return d;
    }
    // BEGIN GENERATED KillVolumeDesc setters
    /// The box's or ball's centre, or a point of the half-space's plane, in the world. Each
    /// component in [-SINEW_MAX_COORDINATE, SINEW_MAX_COORDINATE] m. Default (0, 0, 0).
    KillVolumeDesc& with_center(const Vec3& value) noexcept {
        this->center = value;
        return *this;
    }
    /// Box: The box's half extents, along its rotated axes. Each component in [0,
    /// SINEW_MAX_COORDINATE] m. Default (1, 1, 1).
    KillVolumeDesc& with_half_extents(const Vec3& value) noexcept {
        this->half_extents = value;
        return *this;
    }
    /// Sphere: The ball's radius. In [0, SINEW_MAX_COORDINATE] m. Default 1.
    KillVolumeDesc& with_radius(float value) noexcept {
        this->radius = value;
        return *this;
    }
    /// HalfSpace: The half-space's plane normal (length in [0.5, 2], normalised on input): the
    /// particles on the side it points away from are removed. Default (0, 1, 0).
    KillVolumeDesc& with_normal(const Vec3& value) noexcept {
        this->normal = value;
        return *this;
    }
    // END GENERATED KillVolumeDesc setters
};

/// How Fluid::read_anisotropy shapes each particle's ellipsoid (Yu & Turk 2013), from
/// sinew_anisotropy_desc_default() (smoothing 0.9, axes at most 4:1, the bulk at half the
/// spacing).
struct AnisotropyDesc : detail::DescSetters<AnisotropyDesc, SinewAnisotropyDesc> {
    AnisotropyDesc() noexcept : DescSetters(sinew_anisotropy_desc_default()) {}
    // BEGIN GENERATED AnisotropyDesc setters
    /// The radius of a particle inside the bulk (k_s = 1); 0 takes half the fluid's spacing. In
    /// [0, SINEW_MAX_FLUID_SPACING] m; 0 = spacing / 2. Default 0.
    AnisotropyDesc& with_radius(float value) noexcept {
        this->radius = value;
        return *this;
    }
    /// Laplacian smoothing λ of the centres: 0 draws each ellipsoid at its particle, 1 at the
    /// weighted mean of its neighbourhood (Yu & Turk use 0.9 to 1). In [0, 1]. Default 0.9.
    AnisotropyDesc& with_smoothing(float value) noexcept {
        this->smoothing = value;
        return *this;
    }
    /// k_r: the largest ratio of the longest to the shortest axis. In [1,
    /// SINEW_MAX_ELLIPSOID_RATIO]. Default 4.
    AnisotropyDesc& with_max_ratio(float value) noexcept {
        this->max_ratio = value;
        return *this;
    }
    /// k_s: scales every axis (1 draws the bulk's particles at `radius`). In (0,
    /// SINEW_MAX_ELLIPSOID_SCALE]. Default 1.
    AnisotropyDesc& with_scale(float value) noexcept {
        this->scale = value;
        return *this;
    }
    /// k_n: the radius of an isolated particle (fewer than `min_neighbours`), as a fraction of
    /// `radius`. In [0, SINEW_MAX_ELLIPSOID_SCALE]. Default 0.5.
    AnisotropyDesc& with_isolated_scale(float value) noexcept {
        this->isolated_scale = value;
        return *this;
    }
    /// N_ε: neighbours (within the smoothing radius) below which a particle is drawn as a
    /// sphere. A particle in the bulk has about 33 at the default smoothing radius (2 spacings;
    /// 12 in a planar world), one on a flat surface about half. In 0..=1000 particles. Default
    /// 6.
    AnisotropyDesc& with_min_neighbours(uint32_t value) noexcept {
        this->min_neighbours = value;
        return *this;
    }
    // END GENERATED AnisotropyDesc setters
};

/// How Fluid::build_surface samples the fluid for its surface mesh, from
/// sinew_surface_desc_default() (cells of one spacing, a kernel of two, the surface at half
/// the bulk's field).
struct SurfaceDesc : detail::DescSetters<SurfaceDesc, SinewSurfaceDesc> {
    SurfaceDesc() noexcept : DescSetters(sinew_surface_desc_default()) {}
    // BEGIN GENERATED SurfaceDesc setters
    /// Cell size c of the sampling grid; 0 takes the fluid's spacing. At the call it must lie
    /// in [radius / 8, radius]: a smaller cell costs (radius / c)³ node updates per particle.
    /// In [0, 40] m; 0 = spacing. Default 0.
    SurfaceDesc& with_cell_size(float value) noexcept {
        this->cell_size = value;
        return *this;
    }
    /// Kernel radius R of the colour field; 0 takes twice the fluid's spacing. At the call it
    /// must lie in [spacing, 4 spacing]: larger is smoother and rounder. In [0, 40] m; 0 = 2
    /// spacing. Default 0.
    SurfaceDesc& with_radius(float value) noexcept {
        this->radius = value;
        return *this;
    }
    /// The level of the surface, as a fraction of the field inside the fluid (1): lower is
    /// fatter. In (0, 1). Default 0.5.
    SurfaceDesc& with_threshold(float value) noexcept {
        this->threshold = value;
        return *this;
    }
    // END GENERATED SurfaceDesc setters
};

/// A fluid's diffuse particles (spray, foam, bubbles; Ihmsen et al. 2012), from
/// sinew_diffuse_desc_default() (capacity 0: off).
struct DiffuseDesc : detail::DescSetters<DiffuseDesc, SinewDiffuseDesc> {
    DiffuseDesc() noexcept : DescSetters(sinew_diffuse_desc_default()) {}
    // BEGIN GENERATED DiffuseDesc setters
    /// Diffuse particles reserved when set (0 = off): a full set refuses new ones. In
    /// 0..=SINEW_MAX_FLUID_CAPACITY particles. Default 0.
    DiffuseDesc& with_capacity(uint32_t value) noexcept {
        this->capacity = value;
        return *this;
    }
    /// Seconds each diffuse particle lives. In (0, SINEW_MAX_FLUID_LIFETIME] s. Default 2.
    DiffuseDesc& with_lifetime(float value) noexcept {
        this->lifetime = value;
        return *this;
    }
    /// k_ta: particles per second a fluid particle spawns at full trapped air and full kinetic
    /// energy. In [0, SINEW_MAX_DIFFUSE_RATE] 1/s. Default 50.
    DiffuseDesc& with_trapped_air_rate(float value) noexcept {
        this->trapped_air_rate = value;
        return *this;
    }
    /// k_wc: particles per second at a full wave crest and full kinetic energy. In [0,
    /// SINEW_MAX_DIFFUSE_RATE] 1/s. Default 50.
    DiffuseDesc& with_wave_crest_rate(float value) noexcept {
        this->wave_crest_rate = value;
        return *this;
    }
    /// τ_min of the trapped-air potential: below it a particle traps no air. In [0, 10000] m/s.
    /// Default 5.
    DiffuseDesc& with_trapped_air_min(float value) noexcept {
        this->trapped_air_min = value;
        return *this;
    }
    /// τ_max of the trapped-air potential: above it, full. In [0, 10000] m/s. Default 20.
    DiffuseDesc& with_trapped_air_max(float value) noexcept {
        this->trapped_air_max = value;
        return *this;
    }
    /// τ_min of the wave-crest potential (a curvature sum, dimensionless). In [0, 10000].
    /// Default 2.
    DiffuseDesc& with_wave_crest_min(float value) noexcept {
        this->wave_crest_min = value;
        return *this;
    }
    /// τ_max of the wave-crest potential. In [0, 10000]. Default 8.
    DiffuseDesc& with_wave_crest_max(float value) noexcept {
        this->wave_crest_max = value;
        return *this;
    }
    /// τ_min of the kinetic energy per kilogram ½ v²: slower water spawns nothing. In [0,
    /// SINEW_MAX_DIFFUSE_ENERGY] J/kg. Default 5.
    DiffuseDesc& with_energy_min(float value) noexcept {
        this->energy_min = value;
        return *this;
    }
    /// τ_max of the kinetic energy per kilogram. In [0, SINEW_MAX_DIFFUSE_ENERGY] J/kg. Default
    /// 50.
    DiffuseDesc& with_energy_max(float value) noexcept {
        this->energy_max = value;
        return *this;
    }
    /// Fewer fluid neighbours than this: spray. In 0..=1000 particles. Default 6.
    DiffuseDesc& with_spray_neighbours(uint32_t value) noexcept {
        this->spray_neighbours = value;
        return *this;
    }
    /// More fluid neighbours than this: a bubble. In 0..=1000 particles. Default 20.
    DiffuseDesc& with_bubble_neighbours(uint32_t value) noexcept {
        this->bubble_neighbours = value;
        return *this;
    }
    /// k_b: a bubble's buoyancy, in units of gravity (upwards). In [0, 100]. Default 2.
    DiffuseDesc& with_buoyancy(float value) noexcept {
        this->buoyancy = value;
        return *this;
    }
    /// k_d: the fraction of the fluid's velocity a bubble takes per step. In [0, 1]. Default
    /// 0.5.
    DiffuseDesc& with_drag(float value) noexcept {
        this->drag = value;
        return *this;
    }
    /// Seed of the spawning hash (the same seed, the same particles). Default 0x00000001.
    DiffuseDesc& with_seed(uint32_t value) noexcept {
        this->seed = value;
        return *this;
    }
    // END GENERATED DiffuseDesc setters
};

/// An emitter of a fluid (a plain handle).
class Emitter {
  public:
    Emitter() noexcept = default;
    Emitter(SinewWorld world, SinewEmitter emitter) noexcept : world_(world), handle_(emitter) {}
    SinewEmitter handle() const noexcept { return handle_; }
    bool valid() const noexcept { return handle_.id != 0; }
    /// Moves or retunes the emitter; next step on.
    Result<void> set(const SinewEmitterDesc& desc) {
        return detail::to_result(sinew_emitter_set(world_, handle_, &desc));
    }
    /// Removes the emitter; its handle becomes invalid.
    Result<void> remove() { return detail::to_result(sinew_emitter_remove(world_, handle_)); }

  private:
    SinewWorld world_{0};
    SinewEmitter handle_{0};
};

/// A kill volume of a fluid (a plain handle).
class KillVolume {
  public:
    KillVolume() noexcept = default;
    KillVolume(SinewWorld world, SinewKillVolume volume) noexcept : world_(world), handle_(volume) {}
    SinewKillVolume handle() const noexcept { return handle_; }
    bool valid() const noexcept { return handle_.id != 0; }
    /// Removes the kill volume; its handle becomes invalid.
    Result<void> remove() { return detail::to_result(sinew_kill_volume_remove(world_, handle_)); }

  private:
    SinewWorld world_{0};
    SinewKillVolume handle_{0};
};

/// A fluid of a World (a plain handle, copyable; remove() takes it out of its world).
/// Its particles are particles().first .. + capacity; the live ones are the first
/// stats().count of them.
class Fluid {
  public:
    Fluid() noexcept = default;
    Fluid(SinewWorld world, SinewFluid fluid) noexcept : world_(world), handle_(fluid) {}
    SinewFluid handle() const noexcept { return handle_; }
    SinewWorld world_handle() const noexcept { return world_; }
    bool valid() const noexcept { return handle_.id != 0; }

    /// Removes the fluid: its particles become inert for good (indices kept), its
    /// emitters and kill volumes go with it.
    Result<void> remove() { return detail::to_result(sinew_fluid_remove(world_, handle_)); }
    /// The settings.
    Result<FluidDesc> desc() const {
        SinewFluidDesc d = sinew_fluid_desc_default();
        auto r = detail::to_result(sinew_fluid_get_desc(world_, handle_, &d));
        if (!r) return r.error();
        return FluidDesc(d);
    }
    /// Changes the settings from the next step on (capacity and spacing must stay).
    Result<void> set_desc(const SinewFluidDesc& desc) {
        return detail::to_result(sinew_fluid_set_desc(world_, handle_, &desc));
    }
    /// The reserved world particles: {first, capacity}.
    Result<Range> particles() const {
        Range range;
        return detail::checked(sinew_fluid_particle_range(world_, handle_, &range.first, &range.count), range);
    }
    /// Counters and density figures.
    Result<FluidStats> stats() const {
        FluidStats s{};
        return detail::checked(sinew_fluid_stats(world_, handle_, &s), s);
    }
    /// Live particles.
    Result<uint32_t> count() const {
        auto s = stats();
        if (!s) return s.error();
        return s->count;
    }

    /// Emits one particle per position (m) with `velocities` (m/s; empty = at rest), all
    /// or none. Returns the index (among the live particles) of the first new one.
    template <class V>
    Result<uint32_t> emit(Span<const V> positions, Span<const V> velocities = {}) {
        SINEW_ASSERT_VEC3_LIKE(V);
        auto n = detail::to_count(positions.size(), "Fluid::emit");
        if (!n) return n.error();
        if (!velocities.empty() && velocities.size() != positions.size())
            return detail::local_error(Status::InvalidArgument,
                                       "Fluid::emit: " + std::to_string(velocities.size()) + " velocities for " +
                                           std::to_string(positions.size()) + " positions");
        uint32_t first = 0;
        return detail::checked(
            sinew_fluid_emit(world_, handle_, reinterpret_cast<const SinewVec3*>(positions.data()),
                             velocities.empty() ? nullptr : reinterpret_cast<const SinewVec3*>(velocities.data()), *n,
                             &first),
            first);
    }
    template <class V>
    Result<uint32_t> emit(const std::vector<V>& positions, const std::vector<V>& velocities = {}) {
        return emit(Span<const V>(positions), Span<const V>(velocities));
    }
    /// Removes every live particle (slots stay reserved).
    Result<void> clear() { return detail::to_result(sinew_fluid_clear(world_, handle_)); }

    /// Adds an emitter; it emits from the next step on.
    Result<Emitter> add_emitter(const SinewEmitterDesc& desc) {
        SinewEmitter e{0};
        auto r = detail::to_result(sinew_fluid_add_emitter(world_, handle_, &desc, &e));
        if (!r) return r.error();
        return Emitter(world_, e);
    }
    /// Adds a kill volume: particles inside are removed at the end of each step.
    Result<KillVolume> add_kill_volume(const SinewKillVolumeDesc& desc) {
        SinewKillVolume k{0};
        auto r = detail::to_result(sinew_fluid_add_kill_volume(world_, handle_, &desc, &k));
        if (!r) return r.error();
        return KillVolume(world_, k);
    }

    /// Copies the live particles, in order, into the non-empty spans: positions (m,
    /// interpolated by `alpha` in [0, 1] between the start and the end of the last step;
    /// 1 = now), velocities (m/s), density ratios ρ/ρ₀. Returns the live count; a
    /// non-empty span shorter than it gives Status::OutOfRange and nothing is written.
    template <class V>
    Result<uint32_t> read_particles(float alpha, Span<V> positions, Span<V> velocities = {},
                                    Span<float> density_ratios = {}) const {
        SINEW_ASSERT_VEC3_LIKE(V);
        std::size_t capacity = std::numeric_limits<std::size_t>::max();
        for (std::size_t n : {positions.size(), velocities.size(), density_ratios.size()})
            if (n != 0 && n < capacity) capacity = n;
        if (capacity == std::numeric_limits<std::size_t>::max()) capacity = 0;
        auto c = detail::to_count(capacity, "Fluid::read_particles");
        if (!c) return c.error();
        const auto vec = static_cast<uint32_t>(sizeof(V));
        return read_particles_strided(alpha, *c, positions.empty() ? nullptr : positions.data(), vec,
                                      velocities.empty() ? nullptr : velocities.data(), vec,
                                      density_ratios.empty() ? nullptr : density_ratios.data(),
                                      static_cast<uint32_t>(sizeof(float)));
    }
    /// The positions into `positions`, resized to the live count (reuse one vector: it
    /// allocates only when the fluid grows).
    template <class V>
    Result<uint32_t> read_particles(float alpha, std::vector<V>& positions) const {
        auto n = read_particles_strided(alpha, 0, nullptr, 0, nullptr, 0, nullptr, 0);
        if (!n) return n;
        positions.resize(*n);
        return read_particles(alpha, Span<V>(positions));
    }
    /// Straight into strided buffers (a vertex buffer): each may be nullptr (skipped);
    /// `capacity` elements fit in each; strides in bytes (vectors >= 12, densities >= 4).
    Result<uint32_t> read_particles_strided(float alpha, uint32_t capacity, void* positions, uint32_t position_stride,
                                            void* velocities, uint32_t velocity_stride, void* density_ratios,
                                            uint32_t density_stride) const {
        uint32_t n = 0;
        return detail::checked(sinew_fluid_read_particles(world_, handle_, alpha, capacity, positions,
                                                          position_stride, velocities, velocity_stride,
                                                          density_ratios, density_stride, &n),
                               n);
    }

    /// Computes the ellipsoid of each live particle (Yu & Turk 2013: smoothed centre and
    /// three axes, longest first, right-handed: the columns of a unit sphere's instance
    /// transform) into `ellipsoids`, in the order of read_particles, from the last step's
    /// neighbour grid. `E` is SinewFluidEllipsoid or any trivially copyable type of at
    /// least 48 bytes starting with those 12 floats. Returns the live count; a shorter
    /// span gives Status::OutOfRange and nothing is written.
    template <class E>
    Result<uint32_t> read_anisotropy(const SinewAnisotropyDesc& desc, float alpha, Span<E> ellipsoids) const {
        static_assert(std::is_trivially_copyable<E>::value && sizeof(E) >= sizeof(SinewFluidEllipsoid),
                      "an ellipsoid element holds at least a SinewFluidEllipsoid");
        auto c = detail::to_count(ellipsoids.size(), "Fluid::read_anisotropy");
        if (!c) return c.error();
        return read_anisotropy_strided(desc, alpha, *c, ellipsoids.empty() ? nullptr : ellipsoids.data(),
                                       static_cast<uint32_t>(sizeof(E)));
    }
    /// The same into `ellipsoids`, resized to the live count.
    template <class E>
    Result<uint32_t> read_anisotropy(const SinewAnisotropyDesc& desc, float alpha, std::vector<E>& ellipsoids) const {
        auto n = read_particles_strided(alpha, 0, nullptr, 0, nullptr, 0, nullptr, 0);
        if (!n) return n;
        ellipsoids.resize(*n);
        return read_anisotropy(desc, alpha, Span<E>(ellipsoids));
    }
    /// Straight into a strided buffer (an instance buffer; stride >= 48 bytes); nullptr
    /// only counts.
    Result<uint32_t> read_anisotropy_strided(const SinewAnisotropyDesc& desc, float alpha, uint32_t capacity,
                                             void* ellipsoids, uint32_t stride) const {
        uint32_t n = 0;
        return detail::checked(
            sinew_fluid_read_anisotropy(world_, handle_, &desc, alpha, capacity, ellipsoids, stride, &n), n);
    }

    /// Sets the diffuse particles (capacity 0 removes them); room is reserved now.
    Result<void> set_diffuse(const SinewDiffuseDesc& desc) {
        return detail::to_result(sinew_fluid_set_diffuse(world_, handle_, &desc));
    }
    /// The diffuse settings (capacity 0 when the fluid has none).
    Result<SinewDiffuseDesc> diffuse() const {
        SinewDiffuseDesc d = sinew_diffuse_desc_default();
        return detail::checked(sinew_fluid_get_diffuse(world_, handle_, &d), d);
    }
    /// Copies the live diffuse particles into `particles` (SinewDiffuseParticle or any
    /// trivially copyable type of at least 32 bytes starting with its fields). Returns
    /// their number; a shorter span gives Status::OutOfRange and nothing is written.
    template <class P>
    Result<uint32_t> read_diffuse(Span<P> particles) const {
        static_assert(std::is_trivially_copyable<P>::value && sizeof(P) >= sizeof(SinewDiffuseParticle),
                      "a diffuse element holds at least a SinewDiffuseParticle");
        auto c = detail::to_count(particles.size(), "Fluid::read_diffuse");
        if (!c) return c.error();
        uint32_t n = 0;
        return detail::checked(sinew_fluid_read_diffuse(world_, handle_, *c,
                                                        particles.empty() ? nullptr : particles.data(),
                                                        static_cast<uint32_t>(sizeof(P)), &n),
                               n);
    }
    /// The same into `particles`, resized to their number.
    template <class P>
    Result<uint32_t> read_diffuse(std::vector<P>& particles) const {
        uint32_t n = 0;
        const auto stride = static_cast<uint32_t>(sizeof(P));
        if (auto r = detail::to_result(sinew_fluid_read_diffuse(world_, handle_, 0, nullptr, stride, &n)); !r)
            return r.error();
        particles.resize(n);
        return read_diffuse(Span<P>(particles));
    }

    /// Builds the fluid's surface mesh (marching tetrahedra over a narrow band of a smooth
    /// colour field of the particles at the positions interpolated by `alpha`; closed,
    /// normals outward, triangles counter-clockwise seen from outside), replacing the
    /// world's last one. Returns its counts; copy it out with read_surface. Later builds
    /// allocate nothing once the buffers have room.
    Result<SinewSurfaceCounts> build_surface(const SinewSurfaceDesc& desc, float alpha = 1.0f) {
        SinewSurfaceCounts c{};
        return detail::checked(sinew_fluid_build_surface(world_, handle_, &desc, alpha, &c), c);
    }
    /// Copies the mesh of the last build_surface of this fluid: positions and normals into
    /// `positions` and `normals` (V: SinewVec3 or any trivially copyable type whose first
    /// 12 bytes are x, y, z; an empty span is skipped), indices into `indices`. Returns the
    /// counts; a shorter span gives Status::OutOfRange and nothing is written.
    template <class V>
    Result<SinewSurfaceCounts> read_surface(Span<V> positions, Span<V> normals, Span<uint32_t> indices) const {
        static_assert(std::is_trivially_copyable<V>::value && sizeof(V) >= sizeof(SinewVec3),
                      "a vertex element starts with x, y, z");
        size_t vertices = positions.empty() ? normals.size()
                          : normals.empty() ? positions.size()
                                            : (positions.size() < normals.size() ? positions.size() : normals.size());
        auto v = detail::to_count(vertices, "Fluid::read_surface");
        if (!v) return v.error();
        auto i = detail::to_count(indices.size(), "Fluid::read_surface");
        if (!i) return i.error();
        return read_surface_strided(*v, positions.empty() ? nullptr : positions.data(),
                                    static_cast<uint32_t>(sizeof(V)), normals.empty() ? nullptr : normals.data(),
                                    static_cast<uint32_t>(sizeof(V)), *i, indices.empty() ? nullptr : indices.data());
    }
    /// read_surface into vectors resized to the mesh's counts.
    template <class V>
    Result<SinewSurfaceCounts> read_surface(std::vector<V>& positions, std::vector<V>& normals,
                                            std::vector<uint32_t>& indices) const {
        auto c = read_surface_strided(0, nullptr, sizeof(SinewVec3), nullptr, sizeof(SinewVec3), 0, nullptr);
        if (!c) return c;
        positions.resize(c->vertices);
        normals.resize(c->vertices);
        indices.resize(c->indices);
        return read_surface(Span<V>(positions), Span<V>(normals), Span<uint32_t>(indices));
    }
    /// Straight into strided vertex buffers (positions and normals may interleave with
    /// one stride, >= 12 bytes) and a packed index buffer; nullptr skips one.
    Result<SinewSurfaceCounts> read_surface_strided(uint32_t vertex_capacity, void* positions,
                                                    uint32_t position_stride, void* normals, uint32_t normal_stride,
                                                    uint32_t index_capacity, uint32_t* indices) const {
        SinewSurfaceCounts c{};
        return detail::checked(sinew_fluid_read_surface(world_, handle_, vertex_capacity, positions, position_stride,
                                                        normals, normal_stride, index_capacity, indices, &c),
                               c);
    }

  private:
    SinewWorld world_{0};
    SinewFluid handle_{0};
};

inline Result<Fluid> World::add_fluid(const SinewFluidDesc& desc) {
    SinewFluid f{0};
    auto r = detail::to_result(sinew_world_add_fluid(handle_, &desc, &f));
    if (!r) return r.error();
    return Fluid(handle_, f);
}

inline Result<uint32_t> World::fluid_count() const {
    uint32_t n = 0;
    return detail::checked(sinew_world_fluid_count(handle_, &n), n);
}

inline Result<void> Body::set_fluid_coupling(bool enabled) {
    return detail::to_result(sinew_body_set_fluid_coupling(world_, handle_, enabled ? 1u : 0u));
}

inline Result<Vec3> Body::fluid_force() const {
    Vec3 f{};
    return detail::checked(sinew_body_fluid_force(world_, handle_, &f), f);
}

} // namespace sinew

#endif // SINEW_FLUID_HPP

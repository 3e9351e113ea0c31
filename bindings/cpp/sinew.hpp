// sinew.hpp: header-only, engine-neutral C++17 wrapper over the Sinew C ABI (sinew.h).
//
// * Errors are VALUES, not exceptions: every fallible call returns a
//   `sinew::Result<T>` (a small `std::expected`-style type marked [[nodiscard]]) that
//   holds either the value or a `sinew::Error { Status status; std::string message; }`.
//   Unreal Engine builds with exceptions disabled, so the wrapper never throws; it
//   compiles with and without -fno-exceptions. `value()` on an error (or `error()` on a
//   success) is a programming mistake and calls std::abort after printing the error.
// * `sinew::World` owns one world handle (RAII, move-only): the destructor destroys it.
// * Units are the library's: SI (m, s, kg, N, compliance m/N). Engine-specific unit and
//   axis conversion (Unreal's centimetres) lives in sinew_units.hpp, nowhere else.
// * Positions and velocities are read into and written from any trivially copyable
//   12-byte vector type (UE's FVector3f, glm::vec3, float[3], sinew::Vec3 = SinewVec3):
//   a static_assert rejects anything else, e.g. UE5's double-precision FVector.
//
// The wrapper checks what it can see locally (sizes that do not fit uint32_t, odd pair
// lists, mismatched array lengths) and reports it as SINEW_ERROR_INVALID_ARGUMENT /
// OUT_OF_RANGE without calling the library; everything else is the library's check.
//
// Identifiers here and in the other bindings/cpp headers avoid Unreal's function-like
// macros (check, verify, ensure...): tests/cpp/unreal_checks.rs enforces it.
#ifndef SINEW_HPP
#define SINEW_HPP

#include <array>
#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <limits>
#include <string>
#include <type_traits>
#include <utility>
#include <variant>
#include <vector>

#include "sinew.h"

namespace sinew {

/// Status codes of the C ABI (`SinewStatus`).
enum class Status : int32_t {
    Ok = SINEW_OK,
    NullPointer = SINEW_ERROR_NULL_POINTER,
    InvalidHandle = SINEW_ERROR_INVALID_HANDLE,
    OutOfRange = SINEW_ERROR_OUT_OF_RANGE,
    InvalidArgument = SINEW_ERROR_INVALID_ARGUMENT,
    OutOfMemory = SINEW_ERROR_OUT_OF_MEMORY,
    Internal = SINEW_ERROR_INTERNAL,
    NonFinite = SINEW_ERROR_NON_FINITE,
};

/// The name of a status ("invalid argument", ...).
inline const char* to_string(Status s) noexcept {
    switch (s) {
    case Status::Ok: return "ok";
    case Status::NullPointer: return "null pointer";
    case Status::InvalidHandle: return "invalid handle";
    case Status::OutOfRange: return "out of range";
    case Status::InvalidArgument: return "invalid argument";
    case Status::OutOfMemory: return "out of memory";
    case Status::Internal: return "internal error";
    case Status::NonFinite: return "non-finite value met (bodies reset)";
    }
    return "unknown status";
}

/// Why a call failed: the status and the library's message ("function: reason").
struct Error {
    Status status = Status::Internal;
    std::string message;
};

namespace detail {
[[noreturn]] inline void fail(const char* what, const Error* e) noexcept {
    std::fprintf(stderr, "sinew: %s%s%s\n", what, e ? ": " : "", e ? e->message.c_str() : "");
    std::abort();
}
} // namespace detail

/// Either a T or an Error (like C++23 std::expected<T, Error>).
template <class T>
class [[nodiscard]] Result {
  public:
    Result(T value) : v_(std::in_place_index<0>, std::move(value)) {}
    Result(Error error) : v_(std::in_place_index<1>, std::move(error)) {}

    bool ok() const noexcept { return v_.index() == 0; }
    bool has_value() const noexcept { return ok(); }
    explicit operator bool() const noexcept { return ok(); }

    T& value() & {
        check_value();
        return *std::get_if<0>(&v_);
    }
    const T& value() const& {
        check_value();
        return *std::get_if<0>(&v_);
    }
    T&& value() && {
        check_value();
        return std::move(*std::get_if<0>(&v_));
    }
    T& operator*() & { return value(); }
    const T& operator*() const& { return value(); }
    T* operator->() { return &value(); }
    const T* operator->() const { return &value(); }

    template <class U>
    T value_or(U&& fallback) const& {
        return ok() ? *std::get_if<0>(&v_) : static_cast<T>(std::forward<U>(fallback));
    }

    const Error& error() const {
        if (ok()) detail::fail("Result::error() called on a success", nullptr);
        return *std::get_if<1>(&v_);
    }
    Status status() const noexcept { return ok() ? Status::Ok : std::get_if<1>(&v_)->status; }

  private:
    void check_value() const {
        if (!ok()) detail::fail("Result::value() called on an error", std::get_if<1>(&v_));
    }
    std::variant<T, Error> v_;
};

/// Success without a value, or an Error.
template <>
class [[nodiscard]] Result<void> {
  public:
    Result() = default;
    Result(Error error) : error_(std::move(error)), ok_(false) {}

    bool ok() const noexcept { return ok_; }
    bool has_value() const noexcept { return ok_; }
    explicit operator bool() const noexcept { return ok_; }
    /// Aborts if this is an error (for code that treats failure as a bug).
    void value() const {
        if (!ok_) detail::fail("Result<void>::value() called on an error", &error_);
    }
    const Error& error() const {
        if (ok_) detail::fail("Result::error() called on a success", nullptr);
        return error_;
    }
    Status status() const noexcept { return ok_ ? Status::Ok : error_.status; }

  private:
    Error error_;
    bool ok_ = true;
};

/// The library's last error on this thread ("" if none).
inline std::string last_error_message() { return std::string(sinew_last_error_message()); }

namespace detail {
/// Converts a C status into a Result, copying the thread's last error message.
inline Result<void> to_result(SinewStatus s) {
    if (s == SINEW_OK) return {};
    return Error{static_cast<Status>(s), last_error_message()};
}
inline Error local_error(Status s, std::string message) { return Error{s, std::move(message)}; }
/// The value a C call wrote through its out-pointer, or the call's error:
/// `checked(sinew_x(h, &v), v)`. `value` is a reference, read only once the call has
/// returned (the order in which arguments are evaluated does not matter).
template <class T>
Result<T> checked(SinewStatus s, const T& value) {
    if (s != SINEW_OK) return Error{static_cast<Status>(s), last_error_message()};
    return value;
}

template <class T, class = void>
struct has_data_size : std::false_type {};
template <class T>
struct has_data_size<T, std::void_t<decltype(std::declval<T&>().data()),
                                    decltype(std::declval<T&>().size())>> : std::true_type {};
} // namespace detail

/// A pointer and a length (std::span is C++20). Converts from C arrays and from any
/// container with data() and size() (std::vector, std::array, std::string_view...).
/// UE's TArray: `sinew::Span<const FVector3f>(Array.GetData(), Array.Num())`.
template <class T>
class Span {
  public:
    constexpr Span() noexcept = default;
    constexpr Span(T* data, std::size_t size) noexcept : data_(data), size_(size) {}
    template <std::size_t N>
    constexpr Span(T (&array)[N]) noexcept : data_(array), size_(N) {}
    /// From a container; a temporary container only for a Span of const elements
    /// (a call argument, like std::span).
    template <class C, class D = std::remove_reference_t<C>,
              class = std::enable_if_t<
                  detail::has_data_size<D>::value && std::is_convertible_v<decltype(std::declval<D&>().data()), T*> &&
                  (std::is_const_v<T> || std::is_lvalue_reference_v<C>)>>
    constexpr Span(C&& container) noexcept : data_(container.data()), size_(container.size()) {}
    template <class U, class = std::enable_if_t<std::is_convertible_v<U (*)[], T (*)[]>>>
    constexpr Span(Span<U> other) noexcept : data_(other.data()), size_(other.size()) {}

    constexpr T* data() const noexcept { return data_; }
    constexpr std::size_t size() const noexcept { return size_; }
    constexpr bool empty() const noexcept { return size_ == 0; }
    constexpr T& operator[](std::size_t i) const noexcept { return data_[i]; }
    constexpr T* begin() const noexcept { return data_; }
    constexpr T* end() const noexcept { return data_ + size_; }

  private:
    T* data_ = nullptr;
    std::size_t size_ = 0;
};

/// Three floats (m or m/s): the C ABI's SinewVec3.
using Vec3 = SinewVec3;

/// True for the types positions and velocities may be read into or written from:
/// trivially copyable and exactly 12 bytes (three floats): Vec3, float[3], FVector3f,
/// glm::vec3, std::array<float, 3>.
template <class V>
inline constexpr bool is_vec3_like_v =
    sizeof(V) == 3 * sizeof(float) && std::is_trivially_copyable_v<V> && alignof(V) <= alignof(float);

#define SINEW_ASSERT_VEC3_LIKE(V)                                                                    \
    static_assert(sizeof(V) == 12, "sinew: the vector type must be exactly three floats (12 bytes); " \
                                   "UE5's FVector is double: convert to FVector3f");                 \
    static_assert(std::is_trivially_copyable_v<V>, "sinew: the vector type must be trivially copyable"); \
    static_assert(alignof(V) <= alignof(float), "sinew: the vector type must be float-aligned")

static_assert(is_vec3_like_v<Vec3> && is_vec3_like_v<float[3]> && is_vec3_like_v<std::array<float, 3>>,
              "sinew: SinewVec3 must be three packed floats");

/// The solver of a world (`SinewSolver`).
enum class Solver : uint32_t {
    GaussSeidel = SINEW_SOLVER_GAUSS_SEIDEL,
    Jacobi = SINEW_SOLVER_JACOBI,
};

namespace detail {
/// The base of the builder descs (WorldDesc, RopeDesc, ...): the C desc `C`, started by
/// the derived desc at the library's defaults, and the setters several descs share. Each
/// setter is a template that exists only where `C` has its field.
template <class Self, class C>
struct DescSetters : C {
    explicit DescSetters(const C& defaults) noexcept : C(defaults) {}

    /// Total mass (kg).
    template <class D = C, class = decltype(D::total_mass)>
    Self& with_mass(float kg) noexcept {
        this->total_mass = kg;
        return self();
    }
    /// Extra velocity damping (1/s).
    template <class D = C, class = decltype(D::damping)>
    Self& with_damping(float per_second) noexcept {
        this->damping = per_second;
        return self();
    }
    /// Tethers from the pinned particles (on or off).
    template <class D = C, class = decltype(D::tethers)>
    Self& with_tethers(bool on) noexcept {
        this->tethers = on ? 1u : 0u;
        return self();
    }

  protected:
    Self& self() noexcept { return static_cast<Self&>(*this); }
};
} // namespace detail

/// Settings of a new world: a SinewWorldDesc that starts at sinew_world_desc_default()
/// (every field at its default, including the cookie the library checks). One `with_`
/// setter per field, rendered from the Rust declaration; `with_gravity(x, y, z)` and
/// `with_solver` are written here.
struct WorldDesc : detail::DescSetters<WorldDesc, SinewWorldDesc> {
    WorldDesc() noexcept : DescSetters(sinew_world_desc_default()) {}
    WorldDesc& with_gravity(float x, float y, float z) noexcept {
        gravity = Vec3{x, y, z};
        return *this;
    }
    WorldDesc& with_solver(Solver s, float relaxation = 1.0f) noexcept {
        solver = static_cast<uint32_t>(s);
        jacobi_relaxation = relaxation;
        return *this;
    }
    // BEGIN GENERATED WorldDesc setters
    /// Gravity, the acceleration of every particle with mass. Each component in
    /// [-SINEW_MAX_ACCELERATION, SINEW_MAX_ACCELERATION] m/s². Default (0, -9.81, 0).
    WorldDesc& with_gravity(const Vec3& value) noexcept {
        this->gravity = value;
        return *this;
    }
    /// Substeps per step. More substeps with one iteration is usually better than more
    /// iterations. In 1..=SINEW_MAX_SUBSTEPS. Default 8.
    WorldDesc& with_substeps(uint32_t value) noexcept {
        this->substeps = value;
        return *this;
    }
    /// Solver iterations per substep. In 1..=SINEW_MAX_ITERATIONS. Default 1.
    WorldDesc& with_iterations(uint32_t value) noexcept {
        this->iterations = value;
        return *this;
    }
    /// Jacobi only: scale of the averaged correction (1 = plain averaging; above 1
    /// over-relaxes). In (0, SINEW_MAX_JACOBI_RELAXATION). Default 1.
    WorldDesc& with_jacobi_relaxation(float value) noexcept {
        this->jacobi_relaxation = value;
        return *this;
    }
    /// Linear velocity damping: velocities decay as exp(−damping·t). In [0,
    /// SINEW_MAX_ACCELERATION] 1/s. Default 0.
    WorldDesc& with_damping(float value) noexcept {
        this->damping = value;
        return *this;
    }
    /// Worker threads (1 = the calling thread only). Results are bit-identical whatever the
    /// count. In 0..=SINEW_MAX_THREADS; 0 = all cores. Default 0.
    WorldDesc& with_threads(uint32_t value) noexcept {
        this->threads = value;
        return *this;
    }
    /// Time every stage of each step (read back as the last step's stage times; no clock is
    /// read when off). The physics is the same bits on or off. Default 0 (0 or 1).
    WorldDesc& with_profiling(bool value) noexcept {
        this->profiling = value ? 1u : 0u;
        return *this;
    }
    /// Sleeping: islands of particles at rest stop being simulated until something wakes them
    /// (src/world/sleep.rs). Off, the physics is the same bits and costs nothing. Default 0 (0
    /// or 1).
    WorldDesc& with_sleeping(bool value) noexcept {
        this->sleeping = value ? 1u : 0u;
        return *this;
    }
    /// Kinetic energy per mass ½|v|² under which a particle counts as at rest (1e-3 J/kg: about
    /// 4.5 cm/s). In [0, SINEW_MAX_SLEEP_THRESHOLD] J/kg. Default 0.001.
    WorldDesc& with_sleep_threshold(float value) noexcept {
        this->sleep_threshold = value;
        return *this;
    }
    /// How long every particle of an island must stay at rest before it sleeps. In [0,
    /// SINEW_MAX_SLEEP_TIME] s. Default 0.5.
    WorldDesc& with_sleep_time(float value) noexcept {
        this->sleep_time = value;
        return *this;
    }
    // END GENERATED WorldDesc setters
};

/// A granular material (friction, rolling resistance and cohesion between particles): a
/// SinewParticleMaterial that starts at sinew_particle_material_default() (frictionless and
/// dry). One `with_` setter per field, rendered from the Rust declaration.
struct ParticleMaterial : detail::DescSetters<ParticleMaterial, SinewParticleMaterial> {
    ParticleMaterial() noexcept : DescSetters(sinew_particle_material_default()) {}
    // BEGIN GENERATED ParticleMaterial setters
    /// Coulomb coefficient below which a contact between particles sticks (μ_s). In [0,
    /// SINEW_MAX_FRICTION]. Default 0.
    ParticleMaterial& with_static_friction(float value) noexcept {
        this->static_friction = value;
        return *this;
    }
    /// Coulomb coefficient of sliding between particles (μ_k, at most μ_s). In [0,
    /// SINEW_MAX_FRICTION]. Default 0.
    ParticleMaterial& with_dynamic_friction(float value) noexcept {
        this->dynamic_friction = value;
        return *this;
    }
    /// Rolling resistance of round grains (μ_r, the lever arm of the normal force over the
    /// radius): caps both friction coefficients, so a grain rolls over its partner where
    /// rolling is cheaper than sliding. 0 = the grains do not roll. In [0, SINEW_MAX_FRICTION];
    /// 0 = no rolling. Default 0.
    ParticleMaterial& with_rolling_friction(float value) noexcept {
        this->rolling_friction = value;
        return *this;
    }
    /// Tensile strength of the bulk material (wet sand 0.1–1 kPa, snow 1–100 kPa): contacts
    /// within a band of 10% of the radii sum attract with F = σ D² ε/(1 − ε) (Rumpf 1962, ε =
    /// 0.4, D = r_i + r_j). 0 = dry. In [0, SINEW_MAX_COHESION] Pa. Default 0.
    ParticleMaterial& with_cohesion(float value) noexcept {
        this->cohesion = value;
        return *this;
    }
    // END GENERATED ParticleMaterial setters
};

/// A grain emitter's grains (budget, radius, density, collision filter): a
/// SinewGrainEmitterDesc that starts at sinew_grain_emitter_desc_default(). The stream is a
/// fluid emitter's SinewEmitterDesc (sinew_fluid.hpp's EmitterDesc), the friction a
/// ParticleMaterial. One `with_` setter per field, rendered from the Rust declaration.
struct GrainEmitterDesc : detail::DescSetters<GrainEmitterDesc, SinewGrainEmitterDesc> {
    GrainEmitterDesc() noexcept : DescSetters(sinew_grain_emitter_desc_default()) {}
    // BEGIN GENERATED GrainEmitterDesc setters
    /// Grains the emitter may make in all: world particles reserved when it is added (inert
    /// until emitted); it stops when they are used. In 1..=SINEW_MAX_GRAIN_BUDGET grains.
    /// Default 1000.
    GrainEmitterDesc& with_budget(uint32_t value) noexcept {
        this->budget = value;
        return *this;
    }
    /// Radius of every grain (its contact radius). In (0, SINEW_MAX_FLUID_SPACING] m. Default
    /// 0.02.
    GrainEmitterDesc& with_grain_radius(float value) noexcept {
        this->grain_radius = value;
        return *this;
    }
    /// Density of the grain's material (quartz sand 2650): a grain weighs ρ 4/3 π r³. In (0,
    /// SINEW_MAX_REST_DENSITY] kg/m³. Default 2650.
    GrainEmitterDesc& with_grain_density(float value) noexcept {
        this->grain_density = value;
        return *this;
    }
    /// Collision group of the grains (0 = none; see the collision filters). Default 0x00000000.
    GrainEmitterDesc& with_group(uint32_t value) noexcept {
        this->group = value;
        return *this;
    }
    /// Collision layers the grains are on (bits). Default 0x00000001.
    GrainEmitterDesc& with_layers(uint32_t value) noexcept {
        this->layers = value;
        return *this;
    }
    /// Collision layers the grains collide with (bits). Default 0xFFFFFFFF.
    GrainEmitterDesc& with_mask(uint32_t value) noexcept {
        this->mask = value;
        return *this;
    }
    /// Grains of one group collide with each other (only matters with a group). Default 0 (0 or
    /// 1).
    GrainEmitterDesc& with_self_collision(bool value) noexcept {
        this->self_collision = value ? 1u : 0u;
        return *this;
    }
    // END GENERATED GrainEmitterDesc setters
};

/// Consecutive ids `first .. first + count` (particles or constraints).
struct Range {
    uint32_t first = 0;
    uint32_t count = 0;
    constexpr uint32_t end() const noexcept { return first + count; }
    constexpr bool contains(uint32_t i) const noexcept { return i >= first && i - first < count; }
};

/// What one World::advance did: the fixed steps run and the weight of the current
/// state for this frame's interpolated reads.
struct AdvanceResult {
    /// Steps of fixed_dt run, 0..max_steps.
    uint32_t steps = 0;
    /// Leftover time over fixed_dt, in [0, 1): pass it to read_interpolated_positions.
    float alpha = 0.0f;
};

/// The library version ("major.minor.patch").
inline const char* version() noexcept { return sinew_version(); }

/// Fails unless the loaded library speaks the ABI this header was generated for; call
/// it once after loading the library (an engine plugin's StartupModule).
inline Result<void> check_abi() {
    const uint32_t found = sinew_abi_version();
    if (found == SINEW_ABI_VERSION) return {};
    return detail::local_error(Status::InvalidArgument,
                               "sinew ABI mismatch: header expects " + std::to_string(SINEW_ABI_VERSION) +
                                   ", library has " + std::to_string(found));
}

namespace detail {
inline Result<uint32_t> to_count(std::size_t n, const char* what) {
    if (n > std::numeric_limits<uint32_t>::max())
        return local_error(Status::OutOfRange, std::string(what) + ": " + std::to_string(n) +
                                                   " elements do not fit a uint32_t count");
    return static_cast<uint32_t>(n);
}
/// `fn(world, first, count, data)` over the elements of `values`, their number checked to
/// fit a uint32_t count: the per-element setters and readers of one array.
template <class T, class Fn>
Result<void> array_call(Fn fn, SinewWorld world, uint32_t first, Span<T> values, const char* what) {
    auto n = to_count(values.size(), what);
    if (!n) return n.error();
    return to_result(fn(world, first, *n, values.data()));
}
} // namespace detail

/// A collider desc with every field at its default (a plane through the origin facing
/// +Y, no friction, no bounce).
inline SinewColliderDesc collider_desc() noexcept {
    SinewColliderDesc d{};
    (void)sinew_collider_desc_init(&d);
    return d;
}

/// A unit quaternion (x, y, z, w): the C ABI's SinewQuat (layout of UE's FQuat4f).
using Quat = SinewQuat;
/// A rigid transform, position (m) and rotation: the C ABI's SinewTransform.
using Transform = SinewTransform;

/// The identity rotation.
inline constexpr Quat identity_quat() noexcept { return Quat{0.0f, 0.0f, 0.0f, 1.0f}; }
/// A transform at `position` (m) with `rotation` (identity by default).
inline constexpr Transform make_transform(Vec3 position, Quat rotation = identity_quat()) noexcept {
    return Transform{position, rotation};
}

/// Compliance presets (m²/N, the inverse of Young's modulus) of common materials from
/// the XPBD slides of Nakagawa, "Position Based Dynamics Combo", CEDEC 2017: the header's SINEW_MATERIAL_* as floats.
namespace material {
inline constexpr float concrete = static_cast<float>(SINEW_MATERIAL_CONCRETE);
inline constexpr float wood = static_cast<float>(SINEW_MATERIAL_WOOD);
inline constexpr float leather = static_cast<float>(SINEW_MATERIAL_LEATHER);
inline constexpr float tendon = static_cast<float>(SINEW_MATERIAL_TENDON);
inline constexpr float rubber = static_cast<float>(SINEW_MATERIAL_RUBBER);
inline constexpr float muscle = static_cast<float>(SINEW_MATERIAL_MUSCLE);
inline constexpr float fat = static_cast<float>(SINEW_MATERIAL_FAT);
} // namespace material

/// Constraint families with their own ids and force readback (`SinewFamily`); the unit
/// of each family's |λ|/h² is in its comment.
enum class Family : uint32_t {
    Tether = SINEW_FAMILY_TETHER,                        ///< N
    DihedralBending = SINEW_FAMILY_DIHEDRAL_BENDING,     ///< N·m
    IsometricBending = SINEW_FAMILY_ISOMETRIC_BENDING,   ///< N·m
    TetVolume = SINEW_FAMILY_TET_VOLUME,                 ///< N·m
    PressureVolume = SINEW_FAMILY_PRESSURE_VOLUME,       ///< Pa
    TriangleStrain = SINEW_FAMILY_TRIANGLE_STRAIN,       ///< N·m
    TetStrain = SINEW_FAMILY_TET_STRAIN,                 ///< N·m
    UnilateralArea = SINEW_FAMILY_UNILATERAL_AREA,       ///< N/m
    UnilateralVolume = SINEW_FAMILY_UNILATERAL_VOLUME,   ///< Pa
    RingArea = SINEW_FAMILY_RING_AREA,                   ///< N/m
    Distance = SINEW_FAMILY_DISTANCE,                    ///< N (the host's distance constraints)
    ShapeCluster = SINEW_FAMILY_SHAPE_CLUSTER,           ///< no force (PBD stiffness)
    Attachment = SINEW_FAMILY_ATTACHMENT,                ///< N
    BodyLink = SINEW_FAMILY_BODY_LINK,                   ///< N (rope links, cloth edges)
    Grab = SINEW_FAMILY_GRAB,                            ///< N (id = the grabbed particle's index)
};

/// The end of a rope a winch pays from (`SinewRopeEnd`).
enum class RopeEnd : uint32_t {
    Start = SINEW_ROPE_START, ///< the rope's first particle
    End = SINEW_ROPE_END,     ///< the rope's last particle
};

/// A winched rope's state: active length (m), speed (m/s), paying link (index into the
/// Stretch group of Body::read_forces).
struct WinchState {
    float length = 0.0f;
    float speed = 0.0f;
    uint32_t paying_link = 0;
};

/// One broken constraint (`SinewBreakEvent`).
using BreakEvent = SinewBreakEvent;

/// One contact event (`SinewContactEvent`): a (collider, body) pair began, kept or
/// stopped touching in the last step.
using ContactEvent = SinewContactEvent;

/// The force (N) and torque (N·m) the particles exerted on a collider over the last step.
struct Wrench {
    SinewVec3 force{0.0f, 0.0f, 0.0f};
    SinewVec3 torque{0.0f, 0.0f, 0.0f};
};

/// What World::take_contact_events moved: how many events, how many a full queue lost.
struct ContactEventsTaken {
    uint32_t count = 0;
    uint64_t lost = 0;
};

/// A cloth's tearing state (`SinewTearStatus`): threshold (stretch ratio, +inf = off),
/// spare particles left, splits refused for want of them, topology version.
using TearStatus = SinewTearStatus;

/// A cloth's render topology (sinew_cloth_read_topology): triangles over render
/// vertices (3 each), the world particle of each render vertex, and the vertex of the
/// built cloth each descends from (itself for those; the split vertex for one a split
/// added: give it that vertex's UV).
struct ClothTopology {
    std::vector<uint32_t> triangles;
    std::vector<uint32_t> vertex_particles;
    std::vector<uint32_t> vertex_sources;
};

/// Bending model of a cloth (`SinewBendingModel`).
enum class BendingModel : uint32_t {
    None = SINEW_BENDING_NONE,           ///< no bending constraints
    Distance = SINEW_BENDING_DISTANCE,   ///< wing-to-wing links, m/N
    Dihedral = SINEW_BENDING_DIHEDRAL,   ///< dihedral angle, rad/(N·m) (default)
    Isometric = SINEW_BENDING_ISOMETRIC, ///< Bergou 2006, 1/(N·m); flat rest shape
};

/// A body's constraint group for Body::set_compliance (`SinewBodyConstraints`).
enum class BodyConstraints : uint32_t {
    Stretch = SINEW_BODY_STRETCH, ///< rope links, cloth and soft-body edges (m/N)
    Shear = SINEW_BODY_SHEAR,     ///< cloth grid diagonals (m/N)
    Bend = SINEW_BODY_BEND,       ///< bending (units of the model)
    Tether = SINEW_BODY_TETHER,   ///< tethers (m/N)
    Volume = SINEW_BODY_VOLUME,   ///< tet volumes (1/(N·m)) or the pressure surface (m⁵/N)
};

/// Model of a tet soft body (`SinewTetModel`).
enum class TetModel : uint32_t {
    EdgesAndVolume = SINEW_TET_EDGES_AND_VOLUME, ///< a link per tet edge plus volume (default)
    Strain = SINEW_TET_STRAIN,                   ///< strain-based stretch and shear plus volume
};

/// Model of a cloth (`SinewClothModel`).
enum class ClothModel : uint32_t {
    Edges = SINEW_CLOTH_EDGES,   ///< a link per edge, grid diagonals as shear links (default)
    Strain = SINEW_CLOTH_STRAIN, ///< strain-based warp, weft and shear per triangle
};

/// What a body is (`SinewBodyKind`).
enum class BodyKind : uint32_t {
    Rope = SINEW_BODY_ROPE,
    Cloth = SINEW_BODY_CLOTH,
    TetSoftBody = SINEW_BODY_TET_SOFT_BODY,
    PressureSoftBody = SINEW_BODY_PRESSURE_SOFT_BODY,
};

/// A rope (World::add_rope): a SinewRopeDesc starting at sinew_rope_desc_default(). One
/// `with_` setter per field, rendered from the Rust declaration; the combined setters
/// (`with_ends`, `with_compliance`, `with_pins`) are written here, as are the enum setters
/// of the other body descs.
struct RopeDesc : detail::DescSetters<RopeDesc, SinewRopeDesc> {
    RopeDesc() noexcept : DescSetters(sinew_rope_desc_default()) {}
    RopeDesc& with_ends(Vec3 from, Vec3 to) noexcept {
        start = from;
        end = to;
        return *this;
    }
    RopeDesc& with_compliance(float stretch, float bend) noexcept {
        stretch_compliance = stretch;
        bend_compliance = bend;
        return *this;
    }
    RopeDesc& with_pins(bool first, bool last) noexcept {
        pin_start = first ? 1u : 0u;
        pin_end = last ? 1u : 0u;
        return *this;
    }
    // BEGIN GENERATED RopeDesc setters
    /// First end, where the straight rope starts. Ignored by the polyline builder. Each
    /// component in [-SINEW_MAX_COORDINATE, SINEW_MAX_COORDINATE] m. Default (0, 0, 0).
    RopeDesc& with_start(const Vec3& value) noexcept {
        this->start = value;
        return *this;
    }
    /// Second end. Ignored by the polyline builder. Each component in [-SINEW_MAX_COORDINATE,
    /// SINEW_MAX_COORDINATE] m. Default (1, 0, 0).
    RopeDesc& with_end(const Vec3& value) noexcept {
        this->end = value;
        return *this;
    }
    /// Segments between start and end (segments + 1 particles). Ignored by the polyline
    /// builder. In 1..SINEW_MAX_BODY_PARTICLES. Default 20.
    RopeDesc& with_segments(uint32_t value) noexcept {
        this->segments = value;
        return *this;
    }
    /// Total mass, spread evenly over the particles. In (0, SINEW_MAX_BODY_MASS] kg. Default 1.
    RopeDesc& with_total_mass(float value) noexcept {
        this->total_mass = value;
        return *this;
    }
    /// Radius for rendering and collision: each particle's collision radius against colliders
    /// and other particles (not the rope's own). 0 = a thin line for colliders and no part in
    /// particle contacts, whose neighbour search then costs nothing. In [0, SINEW_MAX_LENGTH]
    /// m. Default 0.01.
    RopeDesc& with_radius(float value) noexcept {
        this->radius = value;
        return *this;
    }
    /// Compliance of the links (0 = inextensible). In [0, SINEW_MAX_BODY_COMPLIANCE] m/N.
    /// Default 0.
    RopeDesc& with_stretch_compliance(float value) noexcept {
        this->stretch_compliance = value;
        return *this;
    }
    /// Compliance of the (i, i+2) bend links. In [0, SINEW_MAX_BODY_COMPLIANCE] m/N. Default
    /// 0.01.
    RopeDesc& with_bend_compliance(float value) noexcept {
        this->bend_compliance = value;
        return *this;
    }
    /// Tethers from each pinned end to every particle (Kim et al. 2012; max length = the arc
    /// length along the rope). Default 1 (0 or 1).
    RopeDesc& with_tethers(bool value) noexcept {
        this->tethers = value ? 1u : 0u;
        return *this;
    }
    /// Pin the first particle (inverse mass 0). Default 1 (0 or 1).
    RopeDesc& with_pin_start(bool value) noexcept {
        this->pin_start = value ? 1u : 0u;
        return *this;
    }
    /// Pin the last particle (inverse mass 0). Default 0 (0 or 1).
    RopeDesc& with_pin_end(bool value) noexcept {
        this->pin_end = value ? 1u : 0u;
        return *this;
    }
    /// Extra velocity damping of the rope's particles. In [0, SINEW_MAX_ACCELERATION] 1/s.
    /// Default 0.
    RopeDesc& with_damping(float value) noexcept {
        this->damping = value;
        return *this;
    }
    // END GENERATED RopeDesc setters
};

/// The material of a cloth: a SinewClothDesc starting at sinew_cloth_desc_default().
struct ClothDesc : detail::DescSetters<ClothDesc, SinewClothDesc> {
    ClothDesc() noexcept : DescSetters(sinew_cloth_desc_default()) {}
    ClothDesc& with_model(ClothModel m) noexcept {
        model = static_cast<uint32_t>(m);
        return *this;
    }
    ClothDesc& with_bending(BendingModel m, float compliance) noexcept {
        bending = static_cast<uint32_t>(m);
        bend_compliance = compliance;
        return *this;
    }
    // BEGIN GENERATED ClothDesc setters
    /// Edges: compliance of the edges (m/N). Strain: of the warp stretch (1/(N·m)). In [0,
    /// SINEW_MAX_BODY_COMPLIANCE]. Default 0.
    ClothDesc& with_stretch_compliance(float value) noexcept {
        this->stretch_compliance = value;
        return *this;
    }
    /// Strain model only: compliance of the weft stretch (1/(N·m)). In [0,
    /// SINEW_MAX_BODY_COMPLIANCE]. Default 0.
    ClothDesc& with_weft_compliance(float value) noexcept {
        this->weft_compliance = value;
        return *this;
    }
    /// Edges: compliance of the grid diagonals (m/N; unused for meshes). Strain: of the shear
    /// components (1/(N·m)). In [0, SINEW_MAX_BODY_COMPLIANCE]. Default 1e-4.
    ClothDesc& with_shear_compliance(float value) noexcept {
        this->shear_compliance = value;
        return *this;
    }
    /// Strain model: the warp direction, finite and non-zero (projected onto each triangle; a
    /// grid uses its u edge). Default (1, 0, 0).
    ClothDesc& with_warp(const Vec3& value) noexcept {
        this->warp = value;
        return *this;
    }
    /// Compliance of the bending constraints, in the units of the bending model (distance m/N,
    /// dihedral rad/(N·m), isometric 1/(N·m)). In [0, SINEW_MAX_BODY_COMPLIANCE]. Default 1.
    ClothDesc& with_bend_compliance(float value) noexcept {
        this->bend_compliance = value;
        return *this;
    }
    /// Tether every free vertex to its nearest pinned vertices. Default 1 (0 or 1).
    ClothDesc& with_tethers(bool value) noexcept {
        this->tethers = value ? 1u : 0u;
        return *this;
    }
    /// Extra velocity damping of the cloth's particles. In [0, SINEW_MAX_ACCELERATION] 1/s.
    /// Default 0.
    ClothDesc& with_damping(float value) noexcept {
        this->damping = value;
        return *this;
    }
    // END GENERATED ClothDesc setters
};

/// A rectangular cloth grid: a SinewClothGridDesc starting at its default. Vertex (i, j)
/// at origin + u·i/segments_u + v·j/segments_v, particle j·(segments_u+1) + i.
struct ClothGridDesc : detail::DescSetters<ClothGridDesc, SinewClothGridDesc> {
    /// pin_corners bits.
    static constexpr uint32_t corner_origin = 1, corner_u = 2, corner_v = 4, corner_uv = 8;
    ClothGridDesc() noexcept : DescSetters(sinew_cloth_grid_desc_default()) {}
    ClothGridDesc& with_frame(Vec3 at, Vec3 edge_u, Vec3 edge_v) noexcept {
        origin = at;
        u = edge_u;
        v = edge_v;
        return *this;
    }
    ClothGridDesc& with_segments(uint32_t nu, uint32_t nv) noexcept {
        segments_u = nu;
        segments_v = nv;
        return *this;
    }
    ClothGridDesc& with_pinned_corners(uint32_t bits) noexcept {
        pin_corners = bits;
        return *this;
    }
    // BEGIN GENERATED ClothGridDesc setters
    /// The corner of vertex (0, 0). Each component in [-SINEW_MAX_COORDINATE,
    /// SINEW_MAX_COORDINATE] m. Default (0, 0, 0).
    ClothGridDesc& with_origin(const Vec3& value) noexcept {
        this->origin = value;
        return *this;
    }
    /// Full width edge. Each component in [-SINEW_MAX_COORDINATE, SINEW_MAX_COORDINATE] m.
    /// Default (1, 0, 0).
    ClothGridDesc& with_u(const Vec3& value) noexcept {
        this->u = value;
        return *this;
    }
    /// Full height edge. Each component in [-SINEW_MAX_COORDINATE, SINEW_MAX_COORDINATE] m.
    /// Default (0, 0, 1).
    ClothGridDesc& with_v(const Vec3& value) noexcept {
        this->v = value;
        return *this;
    }
    /// Cells along u. In 1..=SINEW_MAX_GRID_SEGMENTS. Default 20.
    ClothGridDesc& with_segments_u(uint32_t value) noexcept {
        this->segments_u = value;
        return *this;
    }
    /// Cells along v. In 1..=SINEW_MAX_GRID_SEGMENTS. Default 20.
    ClothGridDesc& with_segments_v(uint32_t value) noexcept {
        this->segments_v = value;
        return *this;
    }
    /// Total mass, spread evenly over the vertices. In (0, SINEW_MAX_BODY_MASS] kg. Default 1.
    ClothGridDesc& with_total_mass(float value) noexcept {
        this->total_mass = value;
        return *this;
    }
    /// Pinned corners, bits: 1 = (0, 0), 2 = (u, 0), 4 = (0, v), 8 = (u, v). In 0..=15. Default
    /// 0.
    ClothGridDesc& with_pin_corners(uint32_t value) noexcept {
        this->pin_corners = value;
        return *this;
    }
    // END GENERATED ClothGridDesc setters
};

/// A tet soft body: a SinewTetBodyDesc starting at sinew_tet_body_desc_default().
struct TetBodyDesc : detail::DescSetters<TetBodyDesc, SinewTetBodyDesc> {
    TetBodyDesc() noexcept : DescSetters(sinew_tet_body_desc_default()) {}
    TetBodyDesc& with_model(TetModel m) noexcept {
        model = static_cast<uint32_t>(m);
        return *this;
    }
    // BEGIN GENERATED TetBodyDesc setters
    /// Total mass, lumped to the vertices by tet volume when no inverse masses are given
    /// (ignored when they are). In (0, SINEW_MAX_BODY_MASS] kg. Default 1.
    TetBodyDesc& with_total_mass(float value) noexcept {
        this->total_mass = value;
        return *this;
    }
    /// Edges model: compliance of the tet edges (m/N). Strain model: of the stretch components
    /// (1/(N·m)). In [0, SINEW_MAX_BODY_COMPLIANCE]. Default 1e-4.
    TetBodyDesc& with_stretch_compliance(float value) noexcept {
        this->stretch_compliance = value;
        return *this;
    }
    /// Strain model only: compliance of the shear components (1/(N·m)). In [0,
    /// SINEW_MAX_BODY_COMPLIANCE]. Default 1e-4.
    TetBodyDesc& with_shear_compliance(float value) noexcept {
        this->shear_compliance = value;
        return *this;
    }
    /// Compliance of the tet volumes (0 = incompressible). In [0, SINEW_MAX_BODY_COMPLIANCE]
    /// 1/(N·m). Default 0.
    TetBodyDesc& with_volume_compliance(float value) noexcept {
        this->volume_compliance = value;
        return *this;
    }
    /// Extra velocity damping of the body's particles. In [0, SINEW_MAX_ACCELERATION] 1/s.
    /// Default 0.
    TetBodyDesc& with_damping(float value) noexcept {
        this->damping = value;
        return *this;
    }
    // END GENERATED TetBodyDesc setters
};

/// A closed-surface soft body: a SinewPressureBodyDesc starting at its default.
struct PressureBodyDesc : detail::DescSetters<PressureBodyDesc, SinewPressureBodyDesc> {
    PressureBodyDesc() noexcept : DescSetters(sinew_pressure_body_desc_default()) {}
    // BEGIN GENERATED PressureBodyDesc setters
    /// Total mass, lumped to the vertices by triangle area when no inverse masses are given
    /// (ignored when they are). In (0, SINEW_MAX_BODY_MASS] kg. Default 1.
    PressureBodyDesc& with_total_mass(float value) noexcept {
        this->total_mass = value;
        return *this;
    }
    /// Compliance of the surface edges. In [0, SINEW_MAX_BODY_COMPLIANCE] m/N. Default 1e-4.
    PressureBodyDesc& with_stretch_compliance(float value) noexcept {
        this->stretch_compliance = value;
        return *this;
    }
    /// Overpressure factor k: the body keeps k × its rest volume. In (0, SINEW_MAX_PRESSURE].
    /// Default 1.
    PressureBodyDesc& with_pressure(float value) noexcept {
        this->pressure = value;
        return *this;
    }
    /// Compliance of the volume constraint. In [0, SINEW_MAX_BODY_COMPLIANCE] m⁵/N. Default 0.
    PressureBodyDesc& with_volume_compliance(float value) noexcept {
        this->volume_compliance = value;
        return *this;
    }
    /// Extra velocity damping of the body's particles. In [0, SINEW_MAX_ACCELERATION] 1/s.
    /// Default 0.
    PressureBodyDesc& with_damping(float value) noexcept {
        this->damping = value;
        return *this;
    }
    // END GENERATED PressureBodyDesc setters
};

class Fluid; // sinew_fluid.hpp

namespace detail {
/// What World and Body share: the move-only owner of one library handle `H` (`id` 0 =
/// empty), which `Self::destroy(H)` gives back to the library. The derived destructor
/// calls reset().
template <class Self, class H>
class OwnedHandle {
  public:
    OwnedHandle(const OwnedHandle&) = delete;
    OwnedHandle& operator=(const OwnedHandle&) = delete;

    bool valid() const noexcept { return handle_.id != 0; }
    explicit operator bool() const noexcept { return valid(); }
    H handle() const noexcept { return handle_; }
    /// Gives up ownership: the handle stays alive in the library.
    H release() noexcept {
        H h = handle_;
        handle_.id = 0;
        return h;
    }
    /// Gives the handle back to the library now if owned (no-op when empty; errors
    /// ignored, e.g. a body whose world is already destroyed).
    void reset() noexcept {
        if (valid()) static_cast<Self*>(this)->destroy(release());
    }

  protected:
    OwnedHandle() noexcept = default;
    explicit OwnedHandle(H h) noexcept : handle_(h) {}
    ~OwnedHandle() = default;
    OwnedHandle(OwnedHandle&& other) noexcept : handle_(other.release()) {}
    OwnedHandle& operator=(OwnedHandle&& other) noexcept {
        if (this != &other) {
            reset();
            handle_ = other.release();
        }
        return *this;
    }

    H handle_{0};
};
} // namespace detail

/// A body (rope, cloth, tet or pressure soft body) built by a World (RAII, move-only):
/// the destructor removes it from its world; release() keeps it there. After its world
/// is destroyed every call fails with Status::InvalidHandle (handles are
/// generation-checked) and the destructor does nothing harmful. A default-constructed,
/// moved-from, released or removed Body is empty.
class Body : public detail::OwnedHandle<Body, SinewBody> {
  public:
    Body() noexcept = default;
    /// Takes ownership of a raw body handle of `world`.
    Body(SinewWorld world, SinewBody body) noexcept : OwnedHandle(body), world_(world) {}
    ~Body() { reset(); }
    Body(Body&& other) noexcept : OwnedHandle(std::move(other)), world_(other.world_) {}
    Body& operator=(Body&& other) noexcept {
        if (this != &other) {
            OwnedHandle::operator=(std::move(other)); // removes this body with its own world
            world_ = other.world_;
        }
        return *this;
    }

    // valid(), operator bool, handle(), release() (the body stays in its world) and reset()
    // (removes it now if owned) come from OwnedHandle.
    SinewWorld world_handle() const noexcept { return world_; }
    /// Removes the body: its particles keep their indices but become inert (inverse mass
    /// 0); its constraints and the attachments on its particles stop acting. Fails with
    /// Status::InvalidHandle on an empty Body or a body already gone.
    Result<void> remove() {
        auto r = detail::to_result(sinew_world_remove_body(world_, handle_));
        if (r) handle_.id = 0;
        return r;
    }

    /// Kind, particle range, rope radius (m) and damping (1/s).
    Result<SinewBodyInfo> info() const {
        SinewBodyInfo i{};
        return detail::checked(sinew_body_info(world_, handle_, &i), i);
    }
    Result<BodyKind> kind() const {
        auto i = info();
        if (!i) return i.error();
        return static_cast<BodyKind>(i->kind);
    }
    /// The body's world particle indices.
    Result<Range> particles() const {
        Range range;
        return detail::checked(sinew_body_particle_range(world_, handle_, &range.first, &range.count), range);
    }
    /// Copies the positions (m) of all the body's particles into `out` (at least as many
    /// elements as particles), in one call straight into the caller's memory.
    template <class V>
    Result<void> read_positions(Span<V> out) const {
        SINEW_ASSERT_VEC3_LIKE(V);
        auto n = detail::to_count(out.size(), "Body::read_positions");
        if (!n) return n.error();
        return detail::to_result(
            sinew_body_read_positions(world_, handle_, out.data(), *n, static_cast<uint32_t>(sizeof(V))));
    }
    /// The same into `out`, resized to the body's particle count: reuse one vector from
    /// frame to frame and it allocates only when the body grows (an empty vector is fine).
    template <class V>
    Result<void> read_positions(std::vector<V>& out) const {
        if (auto r = fit(out); !r) return r;
        return read_positions(Span<V>(out));
    }
    /// Copies positions into a vertex buffer: one Vec3 every `stride_bytes` (>= 12);
    /// `capacity` elements fit at `out`.
    Result<void> read_positions_strided(void* out, uint32_t capacity, uint32_t stride_bytes) const {
        return detail::to_result(sinew_body_read_positions(world_, handle_, out, capacity, stride_bytes));
    }
    /// Copies the positions (m) of all the body's particles, interpolated between the
    /// start and the end of the last step ((1 - alpha) * previous + alpha * current,
    /// alpha in [0, 1], the one World::advance returned), into `out` (at least as many
    /// elements as particles).
    template <class V>
    Result<void> read_interpolated_positions(float alpha, Span<V> out) const {
        SINEW_ASSERT_VEC3_LIKE(V);
        auto n = detail::to_count(out.size(), "Body::read_interpolated_positions");
        if (!n) return n.error();
        return detail::to_result(sinew_body_read_interpolated_positions(world_, handle_, alpha, out.data(), *n,
                                                                       static_cast<uint32_t>(sizeof(V))));
    }
    /// The same into `out`, resized to the body's particle count (as read_positions).
    template <class V>
    Result<void> read_interpolated_positions(float alpha, std::vector<V>& out) const {
        if (auto r = fit(out); !r) return r;
        return read_interpolated_positions(alpha, Span<V>(out));
    }
    /// Interpolated positions into a vertex buffer: one Vec3 every `stride_bytes`
    /// (>= 12); `capacity` elements fit at `out`.
    Result<void> read_interpolated_positions_strided(float alpha, void* out, uint32_t capacity,
                                                     uint32_t stride_bytes) const {
        return detail::to_result(
            sinew_body_read_interpolated_positions(world_, handle_, alpha, out, capacity, stride_bytes));
    }
    /// Sets the compliance of a constraint group from the next step on (units per group).
    Result<void> set_compliance(BodyConstraints which, float compliance) {
        return detail::to_result(sinew_body_set_compliance(world_, handle_, static_cast<uint32_t>(which), compliance));
    }
    /// Sets the body's extra velocity damping (1/s, >= 0).
    Result<void> set_damping(float per_second) {
        return detail::to_result(sinew_body_set_damping(world_, handle_, per_second));
    }
    /// Level of detail: how the body is simulated from the next step on. `mode`:
    /// SINEW_SIM_FULL (every substep), SINEW_SIM_REDUCED (one substep in `every`, in
    /// 1..=the world's substeps, with a substep that many times longer) or
    /// SINEW_SIM_PAUSED (not simulated, kinematic to others; resuming moves it onto its
    /// attachments at rest). A bad mode or rate changes nothing.
    Result<void> set_sim_mode(SinewSimMode mode, uint32_t every = 1) {
        return detail::to_result(sinew_body_set_sim_mode(world_, handle_, static_cast<uint32_t>(mode), every));
    }
    /// The body's simulation mode and its rate (`every`, 1 unless reduced).
    struct SimMode {
        SinewSimMode mode;
        uint32_t every;
    };
    /// How the body is simulated (set_sim_mode).
    Result<SimMode> sim_mode() const {
        uint32_t mode = 0, every = 0;
        SinewStatus s = sinew_body_get_sim_mode(world_, handle_, &mode, &every);
        return detail::checked(s, SimMode{static_cast<SinewSimMode>(mode), every});
    }
    /// Turns the two-way coupling of the body's particles with every fluid on (the
    /// default for particles with a radius) or off (sinew_fluid.hpp).
    Result<void> set_fluid_coupling(bool enabled);
    /// The force (N) the fluids exerted on the body in the last substep: buoyancy plus
    /// drag (sinew_fluid.hpp).
    Result<Vec3> fluid_force() const;
    /// Sets the overpressure factor ((0, 100]) of a pressure soft body.
    Result<void> set_pressure(float overpressure) {
        return detail::to_result(sinew_body_set_pressure(world_, handle_, overpressure));
    }
    /// |λ|/h² (N) of the body's length constraints of group `which` (Stretch: a rope's
    /// links from start to end, cloth edges; Shear: grid diagonals; Bend: a rope's (i, i+2)
    /// links, distance bending; Tether) in the last substep, written to `out`, which is
    /// resized to the group's size (reuse one vector: it allocates only when it grows).
    /// `out` keeps its contents when the body or group is refused.
    Result<void> read_forces(BodyConstraints which, std::vector<float>& out) const {
        uint32_t n = 0;
        const uint32_t w = static_cast<uint32_t>(which);
        if (auto r = detail::to_result(sinew_body_read_forces(world_, handle_, w, nullptr, 0, &n)); !r) return r;
        out.resize(n);
        if (n == 0) return {};
        return detail::to_result(sinew_body_read_forces(world_, handle_, w, out.data(), n, &n));
    }
    /// The same into `out` (at least the group's size; shorter is Status::OutOfRange and
    /// nothing is written); returns the group's size.
    Result<uint32_t> read_forces(BodyConstraints which, Span<float> out) const {
        auto cap = detail::to_count(out.size(), "Body::read_forces");
        if (!cap) return cap.error();
        uint32_t n = 0;
        return detail::checked(sinew_body_read_forces(world_, handle_, static_cast<uint32_t>(which),
                                                      out.empty() ? nullptr : out.data(), *cap, &n),
                               n);
    }
    /// The current volume (m³) of a tet or pressure soft body.
    Result<float> volume() const {
        float v = 0.0f;
        return detail::checked(sinew_body_volume(world_, handle_, &v), v);
    }

    // --- sleeping --------------------------------------------------------------------

    /// Whether the body sleeps (its island is frozen; sinew_body_is_asleep).
    Result<bool> is_asleep() const {
        uint32_t r = 0;
        return detail::checked(sinew_body_is_asleep(world_, handle_, &r), r != 0);
    }
    /// Wakes the body and its island (sinew_body_wake).
    Result<void> wake() { return detail::to_result(sinew_body_wake(world_, handle_)); }
    /// Puts the body and its island to sleep now, at rest (sinew_body_sleep; sleeping
    /// must be on).
    Result<void> sleep() { return detail::to_result(sinew_body_sleep(world_, handle_)); }

    // --- character cloth: aerodynamics, skinned targets, inertia --------------------

    /// Weights that skin nothing (no max distance, no backstop, no drive).
    static SinewSkinWeights no_skinning() noexcept { return SinewSkinWeights{-1.0f, 0.0f, 0.0f, -1.0f}; }
    /// Drag and lift coefficients ([0, 10]; both 0 = none): per triangle on cloth, drag
    /// per link on ropes (lift must be 0).
    Result<void> set_aerodynamics(float drag, float lift) {
        return detail::to_result(sinew_body_set_aerodynamics(world_, handle_, drag, lift));
    }
    /// One SinewSkinWeights per particle, in order.
    Result<void> set_skin_weights(Span<const SinewSkinWeights> weights) {
        auto n = detail::to_count(weights.size(), "Body::set_skin_weights");
        if (!n) return n.error();
        return detail::to_result(sinew_body_set_skin_weights(world_, handle_, weights.data(), *n));
    }
    /// This frame's skinned targets: one position (m) per particle and one normal each
    /// (an empty `normals` keeps the last ones).
    template <class V>
    Result<void> set_skin_targets(Span<const V> positions, Span<const V> normals) {
        SINEW_ASSERT_VEC3_LIKE(V);
        auto n = detail::to_count(positions.size(), "Body::set_skin_targets");
        if (!n) return n.error();
        if (!normals.empty() && normals.size() != positions.size())
            return detail::local_error(Status::InvalidArgument,
                                       "Body::set_skin_targets: " + std::to_string(positions.size()) +
                                           " positions but " + std::to_string(normals.size()) + " normals");
        const auto stride = static_cast<uint32_t>(sizeof(V));
        return set_skin_targets_strided(positions.data(), stride, normals.empty() ? nullptr : normals.data(),
                                        stride, *n);
    }
    /// This frame's skinned targets straight from a vertex buffer: `count` positions
    /// every `position_stride` bytes, normals (nullptr = keep) every `normal_stride`.
    Result<void> set_skin_targets_strided(const void* positions, uint32_t position_stride, const void* normals,
                                          uint32_t normal_stride, uint32_t count) {
        return detail::to_result(sinew_body_set_skin_targets(world_, handle_, positions, position_stride, normals,
                                                             normal_stride, count));
    }
    /// The reference transform (character root) the next step reaches, and the fractions
    /// in [0, 1] of its linear and angular acceleration passed on (1 = world space).
    Result<void> set_skin_root(const Transform& root, float linear_inertia, float angular_inertia) {
        return detail::to_result(sinew_body_set_skin_root(world_, handle_, &root, linear_inertia, angular_inertia));
    }
    /// Puts every movable particle on its latest target, at rest.
    Result<void> teleport_to_skin() { return detail::to_result(sinew_body_teleport_to_skin(world_, handle_)); }
    // --- in-place edits (take effect at the next step; other bodies untouched) ---

    /// Scales a rope's or distance-model cloth's rest lengths to `scale` (in (0, 1000])
    /// times their built lengths. Change it gradually to shorten a rope smoothly.
    Result<void> set_rest_scale(float scale) {
        return detail::to_result(sinew_body_set_rest_scale(world_, handle_, scale));
    }
    /// Sets the total mass (kg) of the body's movable particles, keeping their ratios.
    Result<void> set_mass(float kg) { return detail::to_result(sinew_body_set_mass(world_, handle_, kg)); }
    /// A rope's links break when their tension exceeds `newtons` (+inf: never).
    Result<void> set_break_force(float newtons) {
        return detail::to_result(sinew_body_set_break_force(world_, handle_, newtons));
    }
    /// Cuts a rope at link `link` (0 = at its start): the two pieces fall apart.
    Result<void> cut(uint32_t link) { return detail::to_result(sinew_body_cut_rope(world_, handle_, link)); }
    /// Cuts a rope at the link nearest the segment a–b (a sword swipe); returns the link.
    Result<uint32_t> cut_along(const Vec3& a, const Vec3& b) {
        uint32_t link = 0;
        return detail::checked(sinew_body_cut_rope_along(world_, handle_, &a, &b, &link), link);
    }
    /// Attaches a winch at the rope's pinned `end` and reels it in at once to `length` m.
    Result<void> add_winch(RopeEnd end, float length) {
        return detail::to_result(sinew_body_add_winch(world_, handle_, static_cast<uint32_t>(end), length));
    }
    /// Drives the winch at `meters_per_second` (> 0 pays out, < 0 reels in).
    Result<void> set_winch_speed(float meters_per_second) {
        return detail::to_result(sinew_body_set_winch_speed(world_, handle_, meters_per_second));
    }
    /// Drives the winch to `length` m at `meters_per_second` (> 0); it stops there.
    Result<void> set_winch_target(float length, float meters_per_second) {
        return detail::to_result(sinew_body_set_winch_target(world_, handle_, length, meters_per_second));
    }
    /// The winch's length, speed and paying link.
    Result<WinchState> winch_state() const {
        WinchState s;
        return detail::checked(
            sinew_body_winch_state(world_, handle_, &s.length, &s.speed, &s.paying_link), s);
    }
    // --- cloth tearing ---

    /// Turns tearing of a cloth on or changes its threshold: an edge longer than
    /// `threshold` times its rest length (a stretch ratio above 1; 0 or +inf: off) splits
    /// the cloth there. The first call adds `reserve` spare particles (0: a quarter of the
    /// cloth's particles, at least 16); later calls pass 0 or the same count.
    Result<void> set_tear_threshold(float threshold, uint32_t reserve = 0) {
        return detail::to_result(sinew_body_set_tear_threshold(world_, handle_, threshold, reserve));
    }
    /// The cloth's tearing state.
    Result<TearStatus> tear_status() const {
        TearStatus s{};
        return detail::checked(sinew_cloth_tear_status(world_, handle_, &s), s);
    }
    /// The cloth's topology version (0 until the first split): re-read topology() when it
    /// changes.
    Result<uint64_t> topology_version() const {
        uint64_t v = 0;
        return detail::checked(sinew_cloth_topology_version(world_, handle_, &v), v);
    }
    /// The cloth's render topology now.
    Result<ClothTopology> topology() const {
        uint32_t nv = 0, nt = 0;
        if (auto r = detail::to_result(sinew_cloth_topology_counts(world_, handle_, &nv, &nt)); !r) return r.error();
        ClothTopology t;
        t.triangles.resize(std::size_t{3} * nt);
        t.vertex_particles.resize(nv);
        t.vertex_sources.resize(nv);
        if (auto r = detail::to_result(sinew_cloth_read_topology(world_, handle_, t.triangles.data(), nt,
                                                                 t.vertex_particles.data(), t.vertex_sources.data(),
                                                                 nv));
            !r)
            return r.error();
        return t;
    }

  private:
    friend class detail::OwnedHandle<Body, SinewBody>;
    void destroy(SinewBody body) noexcept { (void)sinew_world_remove_body(world_, body); }
    /// Resizes `out` to the body's particle count (the vector overloads' convention).
    template <class V>
    Result<void> fit(std::vector<V>& out) const {
        auto range = particles();
        if (!range) return range.error();
        out.resize(range->count);
        return {};
    }

    SinewWorld world_{0};
};

namespace detail {
/// sinew_collider_pin_particles with the spans' lengths checked (World::pin_particles,
/// Collider::pin_particles).
inline Result<uint32_t> pin_particles(SinewWorld world, SinewCollider c, Span<const uint32_t> particles,
                                      Span<const SinewVec3> offsets, float compliance) {
    const char* fn = "pin_particles";
    if (particles.size() != offsets.size())
        return local_error(Status::InvalidArgument, std::string(fn) + ": " + std::to_string(particles.size()) +
                                                        " particles and " + std::to_string(offsets.size()) +
                                                        " offsets");
    auto n = to_count(particles.size(), fn);
    if (!n) return n.error();
    uint32_t first = 0;
    return checked(sinew_collider_pin_particles(world, c, particles.data(), offsets.data(), *n, compliance, &first),
                   first);
}
} // namespace detail

/// A collider of a World (RAII, move-only; World::add_collider, add_mesh_collider,
/// add_heightfield_collider, colliders::add_sdf_collider): its pose and material, the
/// host body behind it when dynamic, and what the particles did to it. The destructor
/// removes it from its world; release() keeps it there (the raw handle is then the
/// caller's to remove, World::remove_collider). After its world is destroyed every call
/// fails with Status::InvalidHandle and the destructor does nothing harmful. A
/// default-constructed, moved-from, released or removed Collider is empty. Contacts and
/// contact events name colliders by raw handle: is() tells whether one is this.
class Collider : public detail::OwnedHandle<Collider, SinewCollider> {
  public:
    Collider() noexcept = default;
    /// Takes ownership of a raw collider handle of `world`, added with `shape`.
    Collider(SinewWorld world, SinewCollider collider, SinewShape shape) noexcept
        : OwnedHandle(collider), world_(world), shape_(shape) {}
    ~Collider() { reset(); }
    Collider(Collider&& other) noexcept
        : OwnedHandle(std::move(other)), world_(other.world_), shape_(other.shape_) {}
    Collider& operator=(Collider&& other) noexcept {
        if (this != &other) {
            OwnedHandle::operator=(std::move(other)); // removes this collider from its own world
            world_ = other.world_;
            shape_ = other.shape_;
        }
        return *this;
    }

    // valid(), operator bool, handle(), release() (the collider stays in its world) and
    // reset() (removes it now if owned) come from OwnedHandle.
    SinewWorld world_handle() const noexcept { return world_; }
    /// The shape it was added with (a heightfield is SINEW_SHAPE_MESH).
    SinewShape shape() const noexcept { return shape_; }
    /// Whether `c` (a contact's or a contact event's collider) is this collider.
    bool is(SinewCollider c) const noexcept { return valid() && c.id == handle_.id; }
    /// Removes the collider from its world now. Fails with Status::InvalidHandle on an
    /// empty Collider or a collider already gone.
    Result<void> remove() {
        auto r = detail::to_result(sinew_collider_remove(world_, handle_));
        if (r) handle_.id = 0;
        return r;
    }
    /// Moves the collider (m, unit quaternion): it sweeps there over the next step, or
    /// jumps there when `teleport`.
    Result<void> set_transform(const SinewVec3& position, const SinewQuat& rotation, bool teleport = false) {
        return detail::to_result(sinew_collider_set_transform(world_, handle_, &position, &rotation, teleport ? 1u : 0u));
    }
    /// Sets the Coulomb friction coefficients (>= 0) and the restitution ([0, 1]; a
    /// dynamic collider bounces particles off its body's material velocity, keeping the
    /// momentum).
    Result<void> set_material(float static_friction, float dynamic_friction, float restitution) {
        return detail::to_result(
            sinew_collider_set_material(world_, handle_, static_friction, dynamic_friction, restitution));
    }
    /// The force (N) and torque (N·m, about the collider's position) the particles
    /// exerted on the collider over the last step.
    Result<Wrench> contact_wrench() const {
        Wrench w;
        return detail::checked(sinew_collider_contact_wrench(world_, handle_, nullptr, &w.force, &w.torque), w);
    }
    /// As contact_wrench(), the torque about `about` (world, m; a body's centre of mass).
    Result<Wrench> contact_wrench(const SinewVec3& about) const {
        Wrench w;
        return detail::checked(sinew_collider_contact_wrench(world_, handle_, &about, &w.force, &w.torque), w);
    }
    /// Makes the collider dynamic: the host body behind it (sinew_collider_set_dynamics:
    /// mass, principal inertia and its rotation in the collider's frame, centre of mass,
    /// velocities, gravity flag). Call it every step before stepping; motion() and
    /// contact_wrench() then say what the particles did to it.
    Result<void> set_dynamics(const SinewColliderDynamics& d) {
        return detail::to_result(sinew_collider_set_dynamics(world_, handle_, &d));
    }
    /// Makes the collider kinematic again (moved by the host alone).
    Result<void> clear_dynamics() { return detail::to_result(sinew_collider_clear_dynamics(world_, handle_)); }
    /// What the dynamic collider's proxy did over the last step: end velocities and the
    /// velocity change the particles, pins and fluids made (gravity and the gyroscopic
    /// turn left out).
    Result<SinewColliderMotion> motion() const {
        SinewColliderMotion m{};
        return detail::checked(sinew_collider_read_motion(world_, handle_, &m), m);
    }
    /// Pins `particles` to the points `offsets` (m, the collider's frame) with
    /// `compliance` (m/N, 0 = rigid); a dynamic collider takes the reaction. Returns the
    /// first pin's index (World::remove_pins, World::read_pin_forces).
    Result<uint32_t> pin_particles(Span<const uint32_t> particles, Span<const SinewVec3> offsets,
                                   float compliance = 0.0f) {
        return detail::pin_particles(world_, handle_, particles, offsets, compliance);
    }

  private:
    friend class detail::OwnedHandle<Collider, SinewCollider>;
    void destroy(SinewCollider c) noexcept { (void)sinew_collider_remove(world_, c); }

    SinewWorld world_{0};
    SinewShape shape_ = SINEW_SHAPE_PLANE;
};

/// One simulation world (RAII, move-only). A default-constructed or moved-from World
/// is empty (`valid()` false) and its calls fail with Status::InvalidHandle.
class World : public detail::OwnedHandle<World, SinewWorld> {
  public:
    World() noexcept = default;
    /// Takes ownership of a raw handle (destroyed by this World).
    explicit World(SinewWorld handle) noexcept : OwnedHandle(handle) {}
    ~World() { reset(); }
    World(World&&) noexcept = default;
    World& operator=(World&&) noexcept = default;

    /// Creates a world.
    static Result<World> create(const WorldDesc& desc = WorldDesc()) {
        SinewWorld h{0};
        auto r = detail::to_result(sinew_world_create(&desc, &h));
        if (!r) return r.error();
        return World(h);
    }

    // valid(), operator bool, handle(), release() (the caller must then
    // sinew_world_destroy the handle) and reset() (destroys the world now; no-op when
    // empty) come from OwnedHandle.

    /// Advances by dt seconds (finite, in [1e-6, 10]) in the desc's substeps.
    Result<void> step(float dt) { return detail::to_result(sinew_world_step(handle_, dt)); }

    /// Fixed step with an accumulator: adds `frame_dt` seconds of real time (finite, in
    /// [0, 3600]) and runs as many steps of exactly `fixed_dt` (in [1e-6, 10]) as fit,
    /// each the same as step(fixed_dt), at most `max_steps` (1..=1024; whole steps
    /// beyond are dropped, the fraction kept). Returns the steps run and alpha =
    /// leftover / fixed_dt in [0, 1) for read_interpolated_positions.
    Result<AdvanceResult> advance(float frame_dt, float fixed_dt, uint32_t max_steps) {
        AdvanceResult r;
        return detail::checked(sinew_world_advance(handle_, frame_dt, fixed_dt, max_steps, &r.steps, &r.alpha), r);
    }

    // --- host-supplied parallelism ---------------------------------------------------

    /// Runs the world's parallel passes on a host task system (sinew_world_set_task_system:
    /// Box2D v3 enqueue / finish; results bit-identical to the built-in pool). NULL
    /// function pointers or a worker_count outside [1, 256] give InvalidArgument and
    /// change nothing. The callbacks must not throw.
    Result<void> set_task_system(const SinewTaskSystem& tasks) {
        return detail::to_result(sinew_world_set_task_system(handle_, &tasks));
    }

    /// Back to the library's built-in thread pool (the default).
    Result<void> set_task_system(std::nullptr_t) {
        return detail::to_result(sinew_world_set_task_system(handle_, nullptr));
    }

    /// Runs the passes on `runner`, any object with
    ///   void* enqueue(SinewTaskFn task, uint32_t item_count, uint32_t min_range, void* task_context)
    ///   void finish(void* host_task)
    /// (the C callbacks' contract without user_context; `runner` must outlive its use
    /// by the world). An exception thrown by `enqueue` is caught: the task then runs on
    /// the calling thread (harmless, every item takes Sinew's work from a shared counter)
    /// and enqueue returns nullptr; `finish` must not throw (std::terminate otherwise,
    /// as it could not wait for the task).
    template <class Runner>
    Result<void> set_task_system(Runner& runner, uint32_t worker_count) {
        SinewTaskSystem t{};
        t.worker_count = worker_count;
        t.enqueue = [](SinewTaskFn task, uint32_t n, uint32_t min_range, void* task_context,
                       void* user) noexcept -> void* {
            try {
                return static_cast<Runner*>(user)->enqueue(task, n, min_range, task_context);
            } catch (...) {
                task(0, n, task_context);
                return nullptr;
            }
        };
        t.finish = [](void* host_task, void* user) noexcept { static_cast<Runner*>(user)->finish(host_task); };
        t.user_context = &runner;
        return set_task_system(t);
    }

    // --- sleeping --------------------------------------------------------------------

    /// Turns sleeping on or off (sinew_world_set_sleeping; off by default, or the desc's
    /// `sleeping`). Off wakes everything.
    Result<void> set_sleeping(bool enabled) {
        return detail::to_result(sinew_world_set_sleeping(handle_, enabled ? 1u : 0u));
    }
    /// Sets the sleep threshold (J/kg, kinetic energy per mass) and time (s)
    /// (sinew_world_set_sleep_threshold).
    Result<void> set_sleep_threshold(float joules_per_kg, float seconds) {
        return detail::to_result(sinew_world_set_sleep_threshold(handle_, joules_per_kg, seconds));
    }
    /// Wakes every sleeping island (sinew_world_wake_all).
    Result<void> wake_all() { return detail::to_result(sinew_world_wake_all(handle_)); }

    // --- profiling -----------------------------------------------------------------

    /// Times every stage of each step from the next one on (sinew_world_set_profiling;
    /// off by default, or the desc's `profiling`). The physics is the same bits either way.
    Result<void> set_profiling(bool enabled) {
        return detail::to_result(sinew_world_set_profiling(handle_, enabled ? 1u : 0u));
    }

    /// The stages of the last profiled step into `out` (entry k for stage k, at least
    /// SINEW_PROFILE_STAGE_COUNT entries: a std::array kept by the caller; nothing is
    /// allocated). The leaves (all but STEP and SUBSTEP) sum to the step time.
    Result<uint32_t> read_stage_times(Span<SinewStageTime> out) const {
        auto n = detail::to_count(out.size(), "World::read_stage_times");
        if (!n) return n.error();
        SinewStageTime none{};
        uint32_t count = 0;
        return detail::checked(
            sinew_world_read_stage_times(handle_, out.empty() ? &none : out.data(), *n, &count), count);
    }

    /// The world's counts (bodies, particles, contacts, fluid neighbours, ...).
    Result<SinewProfileCounts> profile_counts() const {
        SinewProfileCounts c{};
        return detail::checked(sinew_world_profile_counts(handle_, &c), c);
    }

    /// The name of a profile stage ("collision_detection"; a static string).
    static Result<const char*> stage_name(uint32_t stage) {
        const char* name = nullptr;
        return detail::checked(sinew_profile_stage_name(stage, &name), name);
    }

    /// Calls `hook.callback(stage, begin, hook.user_data)` at each stage boundary of
    /// every step, on the stepping thread, in nested pairs (sinew_world_set_profile_callback).
    /// The callback must not throw nor call this world.
    Result<void> set_profile_callback(const SinewProfileHook& hook) {
        return detail::to_result(sinew_world_set_profile_callback(handle_, &hook));
    }

    /// Removes the profile callback.
    Result<void> set_profile_callback(std::nullptr_t) {
        return detail::to_result(sinew_world_set_profile_callback(handle_, nullptr));
    }

    /// Calls `listener.begin(stage)` and `listener.end(stage)` (stage a SinewProfileStage
    /// value) at each stage boundary; `listener` must outlive its use by the world and
    /// must not throw (std::terminate otherwise: the callback is noexcept).
    template <class Listener>
    Result<void> set_profile_listener(Listener& listener) {
        SinewProfileHook h{};
        h.callback = [](uint32_t stage, uint32_t begin, void* user) noexcept {
            auto* l = static_cast<Listener*>(user);
            if (begin) {
                l->begin(stage);
            } else {
                l->end(stage);
            }
        };
        h.user_data = &listener;
        return set_profile_callback(h);
    }

    // --- snapshots -----------------------------------------------------------------

    /// Bytes a snapshot of the world takes now.
    Result<uint64_t> snapshot_size() const {
        uint64_t n = 0;
        return detail::checked(sinew_world_snapshot_size(handle_, &n), n);
    }

    /// Saves the whole simulation state into `out`, resized to the snapshot (reuse one
    /// vector across frames: it reallocates only when the snapshot grows).
    Result<void> save(std::vector<uint8_t>& out) const {
        for (int attempt = 0;; ++attempt) {
            auto size = snapshot_size();
            if (!size) return size.error();
            if (*size > out.max_size())
                return detail::local_error(Status::OutOfRange, "World::save: the snapshot exceeds a vector");
            out.resize(static_cast<std::size_t>(*size));
            uint8_t none = 0;
            uint64_t written = 0;
            auto r = detail::to_result(
                sinew_world_save_snapshot(handle_, out.empty() ? &none : out.data(), *size, &written));
            // Another thread may have grown the world between the two calls: ask again.
            if (!r && r.status() == Status::OutOfRange && attempt < 8) continue;
            if (r) out.resize(static_cast<std::size_t>(written));
            return r;
        }
    }

    /// The snapshot in a new vector.
    Result<std::vector<uint8_t>> save() const {
        std::vector<uint8_t> out;
        auto r = save(out);
        if (!r) return r.error();
        return out;
    }

    /// Replaces the simulation state by the snapshot's. The world keeps its thread
    /// count; its body and collider handles from when the snapshot was saved are valid
    /// again. A truncated, corrupt, foreign or newer snapshot fails with
    /// Status::InvalidArgument and changes nothing.
    Result<void> restore(const uint8_t* data, std::size_t size) {
        uint8_t none = 0;
        return detail::to_result(sinew_world_restore_snapshot(handle_, data ? data : &none, size));
    }
    Result<void> restore(const std::vector<uint8_t>& snapshot) { return restore(snapshot.data(), snapshot.size()); }

    /// A new world from a snapshot with `threads` worker threads (0 = all cores; the
    /// results do not depend on it). Its body and collider handles are the saved ones.
    static Result<World> from_snapshot(const std::vector<uint8_t>& snapshot, uint32_t threads = 0) {
        uint8_t none = 0;
        SinewWorld h{0};
        auto r = detail::to_result(sinew_world_create_from_snapshot(
            snapshot.empty() ? &none : snapshot.data(), snapshot.size(), threads, &h));
        if (!r) return r.error();
        return World(h);
    }

    /// A 64-bit hash of the simulation state: equal on every machine, thread count and
    /// CPU for equal states (lockstep desync checks). Allocation-free.
    Result<uint64_t> state_hash() const {
        uint64_t h = 0;
        return detail::checked(sinew_world_state_hash(handle_, &h), h);
    }

    // --- particles ---------------------------------------------------------------

    /// Adds particles at rest at `positions` (m) with `inverse_masses` (1/kg, 0 =
    /// pinned; empty = all 1 kg). Returns the new particles' range.
    template <class V>
    Result<Range> add_particles(Span<const V> positions, Span<const float> inverse_masses = {}) {
        SINEW_ASSERT_VEC3_LIKE(V);
        auto n = detail::to_count(positions.size(), "World::add_particles");
        if (!n) return n.error();
        if (!inverse_masses.empty() && inverse_masses.size() != positions.size())
            return detail::local_error(Status::InvalidArgument,
                                       "World::add_particles: " + std::to_string(positions.size()) +
                                           " positions but " + std::to_string(inverse_masses.size()) +
                                           " inverse masses");
        uint32_t first = 0;
        auto r = detail::to_result(sinew_world_add_particles(
            handle_, reinterpret_cast<const SinewVec3*>(positions.data()),
            inverse_masses.empty() ? nullptr : inverse_masses.data(), *n, &first));
        if (!r) return r.error();
        return Range{first, *n};
    }
    template <class V>
    Result<Range> add_particles(const std::vector<V>& positions, const std::vector<float>& inverse_masses = {}) {
        return add_particles(Span<const V>(positions), Span<const float>(inverse_masses));
    }

    /// The number of particles.
    Result<uint32_t> particle_count() const {
        uint32_t n = 0;
        return detail::checked(sinew_world_particle_count(handle_, &n), n);
    }

    /// Copies positions (m) of particles `first .. first + out.size()` into `out`.
    template <class V>
    Result<void> read_positions(uint32_t first, Span<V> out) const {
        SINEW_ASSERT_VEC3_LIKE(V);
        return read_strided(&sinew_world_read_positions, first, out.data(), out.size(), sizeof(V),
                            "World::read_positions");
    }
    /// The positions of particles `range` into `out`, resized to range.count (reuse one
    /// vector from frame to frame: it allocates only when it grows).
    template <class V>
    Result<void> read_positions(Range range, std::vector<V>& out) const {
        out.resize(range.count);
        return read_positions(range.first, Span<V>(out));
    }
    /// Copies positions into a vertex buffer: one Vec3 every `stride_bytes` (>= 12)
    /// starting at `out`, which must hold (count - 1) * stride_bytes + 12 bytes.
    Result<void> read_positions_strided(uint32_t first, uint32_t count, void* out, uint32_t stride_bytes) const {
        return detail::to_result(sinew_world_read_positions(handle_, first, count, out, stride_bytes));
    }

    /// Copies positions (m) of particles `first .. first + out.size()`, interpolated
    /// between the start and the end of the last step: (1 - alpha) * previous + alpha *
    /// current, alpha in [0, 1] (the one advance returned). Before the first step and
    /// after a position write (a teleport) previous = current.
    template <class V>
    Result<void> read_interpolated_positions(uint32_t first, float alpha, Span<V> out) const {
        SINEW_ASSERT_VEC3_LIKE(V);
        auto n = detail::to_count(out.size(), "World::read_interpolated_positions");
        if (!n) return n.error();
        return detail::to_result(sinew_world_read_interpolated_positions(handle_, first, *n, alpha, out.data(),
                                                                        static_cast<uint32_t>(sizeof(V))));
    }
    /// The same for particles `range` into `out`, resized to range.count.
    template <class V>
    Result<void> read_interpolated_positions(Range range, float alpha, std::vector<V>& out) const {
        out.resize(range.count);
        return read_interpolated_positions(range.first, alpha, Span<V>(out));
    }
    /// Interpolated positions into a vertex buffer, as read_positions_strided.
    Result<void> read_interpolated_positions_strided(uint32_t first, uint32_t count, float alpha, void* out,
                                                     uint32_t stride_bytes) const {
        return detail::to_result(
            sinew_world_read_interpolated_positions(handle_, first, count, alpha, out, stride_bytes));
    }

    /// Moves particles `first .. first + positions.size()` to `positions` (m);
    /// velocities are kept. Pinned particles (inverse mass 0) are moved this way.
    template <class V>
    Result<void> write_positions(uint32_t first, Span<const V> positions) {
        SINEW_ASSERT_VEC3_LIKE(V);
        return write_strided(&sinew_world_write_positions, first, positions.data(), positions.size(),
                             "World::write_positions");
    }
    template <class V>
    Result<void> write_positions(uint32_t first, const std::vector<V>& positions) {
        return write_positions(first, Span<const V>(positions));
    }

    /// Moves particles to positions (m) read every `stride_bytes` (>= 12) from `in`,
    /// e.g. straight out of a vertex buffer ((count - 1) * stride_bytes + 12 bytes).
    Result<void> write_positions_strided(uint32_t first, uint32_t count, const void* in, uint32_t stride_bytes) {
        return detail::to_result(sinew_world_write_positions(handle_, first, count, in, stride_bytes));
    }

    /// Copies velocities (m/s) of particles `first .. first + out.size()` into `out`.
    template <class V>
    Result<void> read_velocities(uint32_t first, Span<V> out) const {
        SINEW_ASSERT_VEC3_LIKE(V);
        return read_strided(&sinew_world_read_velocities, first, out.data(), out.size(), sizeof(V),
                            "World::read_velocities");
    }
    /// The velocities of particles `range` into `out`, resized to range.count.
    template <class V>
    Result<void> read_velocities(Range range, std::vector<V>& out) const {
        out.resize(range.count);
        return read_velocities(range.first, Span<V>(out));
    }

    /// Copies velocities (m/s) into a strided buffer, as read_positions_strided.
    Result<void> read_velocities_strided(uint32_t first, uint32_t count, void* out, uint32_t stride_bytes) const {
        return detail::to_result(sinew_world_read_velocities(handle_, first, count, out, stride_bytes));
    }
    /// Sets velocities (m/s) read from a strided buffer, as write_positions_strided.
    Result<void> write_velocities_strided(uint32_t first, uint32_t count, const void* in, uint32_t stride_bytes) {
        return detail::to_result(sinew_world_write_velocities(handle_, first, count, in, stride_bytes));
    }

    /// Sets velocities (m/s); pinned particles keep velocity 0.
    template <class V>
    Result<void> write_velocities(uint32_t first, Span<const V> velocities) {
        SINEW_ASSERT_VEC3_LIKE(V);
        return write_strided(&sinew_world_write_velocities, first, velocities.data(), velocities.size(),
                             "World::write_velocities");
    }
    template <class V>
    Result<void> write_velocities(uint32_t first, const std::vector<V>& velocities) {
        return write_velocities(first, Span<const V>(velocities));
    }

    /// Sets inverse masses (1/kg; 0 = pinned) of particles `first .. first + size`.
    Result<void> set_inverse_masses(uint32_t first, Span<const float> inverse_masses) {
        return detail::array_call(&sinew_world_set_inverse_masses, handle_, first, inverse_masses,
                                  "World::set_inverse_masses");
    }
    Result<void> set_inverse_masses(uint32_t first, const std::vector<float>& inverse_masses) {
        return set_inverse_masses(first, Span<const float>(inverse_masses));
    }
    /// Sets one particle's inverse mass (1/kg; 0 = pinned).
    Result<void> set_inverse_mass(uint32_t particle, float inverse_mass) {
        return detail::to_result(sinew_world_set_inverse_masses(handle_, particle, 1, &inverse_mass));
    }

    // --- distance constraints ---------------------------------------------------

    /// Adds XPBD distance constraints between particle pairs (a0, b0, a1, b1, ...):
    /// `rest_lengths` in m (empty = current distances), `compliance` α in m/N (0 = rigid).
    Result<Range> add_distance_constraints(Span<const uint32_t> particle_pairs,
                                           Span<const float> rest_lengths, float compliance) {
        return add_pairs(&sinew_world_add_distance_constraints, particle_pairs, rest_lengths, compliance,
                         "World::add_distance_constraints");
    }
    Result<Range> add_distance_constraints(const std::vector<uint32_t>& particle_pairs,
                                           const std::vector<float>& rest_lengths, float compliance) {
        return add_distance_constraints(Span<const uint32_t>(particle_pairs), Span<const float>(rest_lengths),
                                        compliance);
    }
    /// Adds PBD distance constraints with stiffness k in [0, 1] (iteration-count corrected).
    Result<Range> add_pbd_distance_constraints(Span<const uint32_t> particle_pairs,
                                               Span<const float> rest_lengths, float stiffness) {
        return add_pairs(&sinew_world_add_pbd_distance_constraints, particle_pairs, rest_lengths, stiffness,
                         "World::add_pbd_distance_constraints");
    }
    Result<Range> add_pbd_distance_constraints(const std::vector<uint32_t>& particle_pairs,
                                               const std::vector<float>& rest_lengths, float stiffness) {
        return add_pbd_distance_constraints(Span<const uint32_t>(particle_pairs), Span<const float>(rest_lengths),
                                            stiffness);
    }

    /// The number of distance constraints (both flavours).
    Result<uint32_t> distance_constraint_count() const {
        uint32_t n = 0;
        return detail::checked(sinew_world_distance_constraint_count(handle_, &n), n);
    }

    /// Force magnitudes |λ|/h² (N) of distance constraints `first .. first + out.size()`
    /// in the last substep of the last step (0 before the first step): rope tension.
    Result<void> read_constraint_forces(uint32_t first, Span<float> out_newtons) const {
        return detail::array_call(&sinew_world_read_constraint_forces, handle_, first, out_newtons,
                                  "World::read_constraint_forces");
    }
    /// The forces of constraints `range` (as add_distance_constraints returned it) into
    /// `out_newtons`, resized to range.count.
    Result<void> read_constraint_forces(Range range, std::vector<float>& out_newtons) const {
        out_newtons.resize(range.count);
        return read_constraint_forces(range.first, Span<float>(out_newtons));
    }

    // --- collisions and interaction (README "Collisions and interaction") --------

    /// Adds a collider; start `desc` from sinew::collider_desc(). Returns the Collider
    /// that owns it (removed when it is destroyed; release() keeps it).
    Result<Collider> add_collider(const SinewColliderDesc& desc) {
        SinewCollider c{0};
        return made_collider(sinew_world_add_collider(handle_, &desc, &c), c, static_cast<SinewShape>(desc.shape));
    }
    /// Adds a static two-sided triangle-mesh collider: vertices (m, local frame) and
    /// three vertex indices per triangle; `desc` gives transform and material.
    template <class V>
    Result<Collider> add_mesh_collider(const SinewColliderDesc& desc, Span<const V> vertices,
                                       Span<const uint32_t> indices) {
        SINEW_ASSERT_VEC3_LIKE(V);
        static_assert(sizeof(V) == sizeof(SinewVec3), "mesh vertices must be packed Vec3-like structs");
        auto nv = detail::to_count(vertices.size(), "World::add_mesh_collider");
        if (!nv) return nv.error();
        if (indices.size() % 3 != 0)
            return detail::local_error(Status::InvalidArgument,
                                       "World::add_mesh_collider: " + std::to_string(indices.size()) +
                                           " indices is not a multiple of 3");
        auto nt = detail::to_count(indices.size() / 3, "World::add_mesh_collider");
        if (!nt) return nt.error();
        SinewCollider c{0};
        return made_collider(sinew_world_add_mesh_collider(handle_, &desc,
                                                           reinterpret_cast<const SinewVec3*>(vertices.data()), *nv,
                                                           indices.data(), *nt, &c),
                             c, SINEW_SHAPE_MESH);
    }
    /// Number of colliders in the world.
    Result<uint32_t> collider_count() const {
        uint32_t n = 0;
        return detail::checked(sinew_world_collider_count(handle_, &n), n);
    }
    /// Removes a collider by its raw handle (Collider::remove for a Collider); the
    /// handle becomes invalid.
    Result<void> remove_collider(SinewCollider c) { return detail::to_result(sinew_collider_remove(handle_, c)); }
    /// Moves a collider (m, unit quaternion): it sweeps there over the next step, or
    /// jumps there when `teleport`.
    Result<void> set_collider_transform(SinewCollider c, const SinewVec3& position, const SinewQuat& rotation,
                                        bool teleport = false) {
        return detail::to_result(sinew_collider_set_transform(handle_, c, &position, &rotation, teleport ? 1u : 0u));
    }
    /// Sets Coulomb friction coefficients (>= 0) and restitution ([0, 1]).
    Result<void> set_collider_material(SinewCollider c, float static_friction, float dynamic_friction,
                                       float restitution) {
        return detail::to_result(
            sinew_collider_set_material(handle_, c, static_friction, dynamic_friction, restitution));
    }
    /// Sets collision radii (m, >= 0) of particles `first .. first + radii.size()`.
    Result<void> set_particle_radii(uint32_t first, Span<const float> radii) {
        return detail::array_call(&sinew_world_set_particle_radii, handle_, first, radii, "World::set_particle_radii");
    }
    /// Sets collision filters (group, layers, mask, self_collision) of particles.
    Result<void> set_collision_filters(uint32_t first, Span<const SinewCollisionFilter> filters) {
        return detail::array_call(&sinew_world_set_collision_filters, handle_, first, filters,
                                  "World::set_collision_filters");
    }
    /// Sets unyielding factors ([0, 1]; the UE 4.26 Niagara Advanced PBD sample (Epic Games, 2020)) of particles.
    Result<void> set_unyielding(uint32_t first, Span<const float> factors) {
        return detail::array_call(&sinew_world_set_unyielding, handle_, first, factors, "World::set_unyielding");
    }
    /// Limits every particle's speed (m/s; 0 = unlimited) at each substep.
    Result<void> set_max_speed(float max_speed) {
        return detail::to_result(sinew_world_set_max_speed(handle_, max_speed));
    }
    /// Number of particle-collider contacts of the last step.
    Result<uint32_t> contact_count() const {
        uint32_t n = 0;
        return detail::checked(sinew_world_contact_count(handle_, &n), n);
    }
    /// Copies the last step's contacts (particle order) into `out`, up to its size, and
    /// returns how many: reuse one buffer from frame to frame and nothing is allocated.
    Result<uint32_t> read_contacts(Span<SinewContact> out) const {
        auto cap = detail::to_count(out.size(), "World::read_contacts");
        if (!cap) return cap.error();
        if (*cap == 0) return uint32_t{0};
        uint32_t written = 0;
        return detail::checked(sinew_world_read_contacts(handle_, out.data(), *cap, &written), written);
    }
    /// The last step's contacts (particle order) into `out`, resized to their number
    /// (reuse one vector: it allocates only when it grows); returns it.
    Result<uint32_t> read_contacts(std::vector<SinewContact>& out) const {
        auto n = contact_count();
        if (!n) return n;
        out.resize(*n);
        return read_contacts(Span<SinewContact>(out));
    }
    /// Adds a static heightfield collider (a terrain): `columns` x `rows` samples (each
    /// >= 2) of `heights` (m, row by row: row j at local z = j cell_z, sample i at local
    /// x = i cell_x; the corner sample at desc.position, turned by desc.rotation) and,
    /// unless `holes` is empty, one flag per cell ((rows-1)(columns-1), row by row; 1 =
    /// a hole particles pass through). Friction and restitution are `desc`'s; its
    /// shape reads as SINEW_SHAPE_MESH (two triangles per solid cell).
    Result<Collider> add_heightfield_collider(const SinewColliderDesc& desc, uint32_t columns, uint32_t rows,
                                              float cell_x, float cell_z, Span<const float> heights,
                                              Span<const uint8_t> holes = {}) {
        const char* fn = "World::add_heightfield_collider";
        if (columns < 2 || rows < 2 || heights.size() != std::size_t(columns) * rows)
            return detail::local_error(Status::InvalidArgument, std::string(fn) + ": " +
                                                                   std::to_string(heights.size()) + " heights for " +
                                                                   std::to_string(columns) + " x " +
                                                                   std::to_string(rows) + " samples");
        if (!holes.empty() && holes.size() != std::size_t(columns - 1) * (rows - 1))
            return detail::local_error(Status::InvalidArgument, std::string(fn) + ": " +
                                                                   std::to_string(holes.size()) +
                                                                   " hole flags for " +
                                                                   std::to_string(std::size_t(columns - 1) *
                                                                                  (rows - 1)) +
                                                                   " cells");
        SinewCollider c{0};
        return made_collider(sinew_world_add_heightfield_collider(handle_, &desc, columns, rows, cell_x, cell_z,
                                                                  heights.data(),
                                                                  holes.empty() ? nullptr : holes.data(), &c),
                             c, SINEW_SHAPE_MESH);
    }
    /// The force (N) and torque (N·m, about the collider's position) the particles
    /// exerted on `c` over the last step (the means of its reported contacts' impulses).
    Result<Wrench> contact_wrench(SinewCollider c) const {
        Wrench w;
        return detail::checked(sinew_collider_contact_wrench(handle_, c, nullptr, &w.force, &w.torque), w);
    }
    /// As contact_wrench(c), the torque about `about` (world, m).
    Result<Wrench> contact_wrench(SinewCollider c, const SinewVec3& about) const {
        Wrench w;
        return detail::checked(sinew_collider_contact_wrench(handle_, c, &about, &w.force, &w.torque), w);
    }
    /// Makes `c` dynamic: the host body behind it (sinew_collider_set_dynamics: mass,
    /// principal inertia and its rotation in the collider's frame, centre of mass,
    /// velocities, gravity flag). Call it every step before stepping; the particles'
    /// effect then reads back with collider_motion() and contact_wrench().
    Result<void> set_collider_dynamics(SinewCollider c, const SinewColliderDynamics& d) {
        return detail::to_result(sinew_collider_set_dynamics(handle_, c, &d));
    }
    /// Makes `c` kinematic again.
    Result<void> clear_collider_dynamics(SinewCollider c) {
        return detail::to_result(sinew_collider_clear_dynamics(handle_, c));
    }
    /// What dynamic collider `c`'s proxy did over the last step: end velocities and the
    /// velocity change the particles, pins and fluids made (gravity and the gyroscopic
    /// turn left out).
    Result<SinewColliderMotion> collider_motion(SinewCollider c) const {
        SinewColliderMotion m{};
        return detail::checked(sinew_collider_read_motion(handle_, c, &m), m);
    }
    /// Pins `particles` to the points `offsets` (m, the collider's frame) of `c` with
    /// `compliance` (m/N, 0 = rigid); a dynamic collider takes the reaction. Returns the
    /// first pin's index.
    Result<uint32_t> pin_particles(SinewCollider c, Span<const uint32_t> particles, Span<const SinewVec3> offsets,
                                   float compliance = 0.0f) {
        return detail::pin_particles(handle_, c, particles, offsets, compliance);
    }
    /// Removes pins `first..first + count`.
    Result<void> remove_pins(uint32_t first, uint32_t count) {
        return detail::to_result(sinew_world_remove_pins(handle_, first, count));
    }
    /// The force (N) each pin from `first` exerted on its particle in the last substep
    /// (its collider received the opposite), into `out`.
    Result<void> read_pin_forces(uint32_t first, Span<SinewVec3> out) const {
        auto n = detail::to_count(out.size(), "World::read_pin_forces");
        if (!n) return n.error();
        return detail::to_result(sinew_world_read_pin_forces(handle_, first, *n, out.data()));
    }
    /// Turns the contact events on or off (off by default): while on, each step queues
    /// a begin, persist or end event per (collider, body) pair of the reported contacts.
    Result<void> set_contact_events(bool enabled) {
        return detail::to_result(sinew_world_set_contact_events(handle_, enabled ? 1u : 0u));
    }
    /// Number of contact events waiting to be taken.
    Result<uint32_t> contact_event_count() const {
        uint32_t n = 0;
        return detail::checked(sinew_world_contact_event_count(handle_, &n), n);
    }
    /// Moves the oldest waiting contact events (up to out.size()) into `out`, oldest
    /// first; returns how many and how many a full queue lost since the last call.
    /// Allocates nothing: call it until count < out.size() to drain the queue.
    Result<ContactEventsTaken> take_contact_events(Span<ContactEvent> out) {
        auto cap = detail::to_count(out.size(), "World::take_contact_events");
        if (!cap) return cap.error();
        ContactEventsTaken t;
        ContactEvent none{};
        return detail::checked(sinew_world_take_contact_events(handle_, *cap == 0 ? &none : out.data(), *cap,
                                                               &t.count, &t.lost),
                               t);
    }
    /// A ray pick: `particle` is UINT32_MAX (and `hit()` false) when the ray misses.
    struct Pick {
        uint32_t particle;
        float distance;
        bool hit() const noexcept { return particle != UINT32_MAX; }
    };
    /// The particle nearest along the ray origin + t direction (t >= 0) within
    /// `radius` (m) + its own radius of it, and t (m).
    Result<Pick> pick_particle(const SinewVec3& origin, const SinewVec3& direction, float radius) const {
        Pick p{UINT32_MAX, -1.0f};
        return detail::checked(
            sinew_world_pick_particle(handle_, &origin, &direction, radius, &p.particle, &p.distance), p);
    }
    /// Attaches a particle to `target` (m) with `compliance` (m/N) until released.
    Result<void> grab_particle(uint32_t particle, const SinewVec3& target, float compliance) {
        return detail::to_result(sinew_world_grab_particle(handle_, particle, &target, compliance));
    }
    /// Moves the target (m) of the grab on `particle`.
    Result<void> move_grab(uint32_t particle, const SinewVec3& target) {
        return detail::to_result(sinew_world_move_grab(handle_, particle, &target));
    }
    /// Releases the grab on `particle`.
    Result<void> release_particle(uint32_t particle) {
        return detail::to_result(sinew_world_release_particle(handle_, particle));
    }


    // --- bodies -------------------------------------------------------------------

    /// Adds a straight rope (desc.segments + 1 particles, start to end).
    Result<Body> add_rope(const RopeDesc& desc = RopeDesc()) {
        SinewBody b{0};
        return made_body(sinew_world_add_rope(handle_, &desc, &b), b);
    }
    /// Adds a rope through `points` (m, at least 2), one particle each; desc.start, end
    /// and segments are ignored.
    template <class V>
    Result<Body> add_rope_polyline(const RopeDesc& desc, Span<const V> points) {
        SINEW_ASSERT_VEC3_LIKE(V);
        auto n = detail::to_count(points.size(), "World::add_rope_polyline");
        if (!n) return n.error();
        SinewBody b{0};
        return made_body(
            sinew_world_add_rope_polyline(handle_, &desc, reinterpret_cast<const SinewVec3*>(points.data()), *n, &b),
            b);
    }
    template <class V>
    Result<Body> add_rope_polyline(const RopeDesc& desc, const std::vector<V>& points) {
        return add_rope_polyline(desc, Span<const V>(points));
    }
    /// Adds a rectangular grid cloth ((segments_u+1)·(segments_v+1) particles).
    Result<Body> add_cloth_grid(const ClothDesc& desc, const ClothGridDesc& grid) {
        SinewBody b{0};
        return made_body(sinew_world_add_cloth_grid(handle_, &desc, &grid, &b), b);
    }
    /// Adds a cloth from a triangle mesh: `vertices` (m), three indices per triangle, one
    /// inverse mass (1/kg, 0 = pinned) per vertex. Malformed meshes are refused by name.
    template <class V>
    Result<Body> add_cloth_mesh(const ClothDesc& desc, Span<const V> vertices, Span<const uint32_t> triangles,
                                Span<const float> inverse_masses) {
        return add_mesh_body<SinewClothDesc, V>(&sinew_world_add_cloth_mesh, desc, vertices, triangles, 3,
                                                inverse_masses, true, "World::add_cloth_mesh");
    }
    template <class V>
    Result<Body> add_cloth_mesh(const ClothDesc& desc, const std::vector<V>& vertices,
                                const std::vector<uint32_t>& triangles, const std::vector<float>& inverse_masses) {
        return add_cloth_mesh(desc, Span<const V>(vertices), Span<const uint32_t>(triangles),
                              Span<const float>(inverse_masses));
    }
    /// Adds a tet soft body: four indices per tet of positive volume; `inverse_masses`
    /// (1/kg, one per vertex) empty = desc.total_mass lumped by volume.
    template <class V>
    Result<Body> add_tet_body(const TetBodyDesc& desc, Span<const V> vertices, Span<const uint32_t> tets,
                              Span<const float> inverse_masses = {}) {
        return add_mesh_body<SinewTetBodyDesc, V>(&sinew_world_add_tet_body, desc, vertices, tets, 4,
                                                  inverse_masses, false, "World::add_tet_body");
    }
    template <class V>
    Result<Body> add_tet_body(const TetBodyDesc& desc, const std::vector<V>& vertices,
                              const std::vector<uint32_t>& tets, const std::vector<float>& inverse_masses = {}) {
        return add_tet_body(desc, Span<const V>(vertices), Span<const uint32_t>(tets),
                            Span<const float>(inverse_masses));
    }
    /// Adds a pressure soft body from a closed surface (three indices per triangle,
    /// counter-clockwise seen from outside); `inverse_masses` empty = lumped by area.
    template <class V>
    Result<Body> add_pressure_body(const PressureBodyDesc& desc, Span<const V> vertices,
                                   Span<const uint32_t> triangles, Span<const float> inverse_masses = {}) {
        return add_mesh_body<SinewPressureBodyDesc, V>(&sinew_world_add_pressure_body, desc, vertices, triangles, 3,
                                                       inverse_masses, false, "World::add_pressure_body");
    }
    template <class V>
    Result<Body> add_pressure_body(const PressureBodyDesc& desc, const std::vector<V>& vertices,
                                   const std::vector<uint32_t>& triangles,
                                   const std::vector<float>& inverse_masses = {}) {
        return add_pressure_body(desc, Span<const V>(vertices), Span<const uint32_t>(triangles),
                                 Span<const float>(inverse_masses));
    }
    /// The number of live bodies.
    Result<uint32_t> body_count() const {
        uint32_t n = 0;
        return detail::checked(sinew_world_body_count(handle_, &n), n);
    }

    // --- constraint families ------------------------------------------------------

    /// Tethers (Kim et al. 2012): pairs (anchor, particle), each particle at most
    /// max_lengths[j] m from its anchor (empty = current distances); only a stretched
    /// tether acts. Compliance m/N.
    Result<Range> add_tethers(Span<const uint32_t> anchor_particle_pairs, Span<const float> max_lengths,
                              float compliance) {
        return add_valued(&sinew_world_add_tethers, anchor_particle_pairs, 2, max_lengths, compliance,
                          "World::add_tethers");
    }
    /// Dihedral bending (Müller et al. 2007): four indices per hinge (edge e0, e1, then
    /// wings w0, w1); rest angles in rad (empty = current). Compliance rad/(N·m).
    Result<Range> add_dihedral_bending(Span<const uint32_t> hinges, Span<const float> rest_angles,
                                       float compliance) {
        return add_valued(&sinew_world_add_dihedral_bending, hinges, 4, rest_angles, compliance,
                          "World::add_dihedral_bending");
    }
    /// Isometric bending (Bergou et al. 2006) over hinges as above; flat rest shape.
    /// Compliance 1/(N·m).
    Result<Range> add_isometric_bending(Span<const uint32_t> hinges, float compliance) {
        const auto add = [&](uint32_t n, uint32_t* first) {
            return sinew_world_add_isometric_bending(handle_, hinges.data(), n, compliance, first);
        };
        return add_elements(hinges, 4, {}, 1, "World::add_isometric_bending", add);
    }
    /// Tet volume constraints C = V/V0 − 1: four indices per tet of positive volume;
    /// rest volumes in m³ (empty = current). Compliance 1/(N·m).
    Result<Range> add_tet_volumes(Span<const uint32_t> tets, Span<const float> rest_volumes, float compliance) {
        return add_valued(&sinew_world_add_tet_volume_constraints, tets, 4, rest_volumes, compliance,
                          "World::add_tet_volumes");
    }
    /// One closed-surface volume constraint keeping `pressure` ((0, 100]) × the current
    /// enclosed volume; compliance m⁵/N. Returns its id.
    Result<uint32_t> add_pressure_volume(Span<const uint32_t> triangles, float pressure, float compliance) {
        auto n = elements(triangles, 3, {}, "World::add_pressure_volume");
        if (!n) return n.error();
        uint32_t id = 0;
        const SinewStatus s = sinew_world_add_pressure_volume(handle_, triangles.data(), *n, pressure, compliance,
                                                              &id);
        return detail::checked(s, id);
    }
    /// The enclosed volume (m³) of pressure constraint `id`.
    Result<float> pressure_volume(uint32_t id) const {
        float v = 0.0f;
        return detail::checked(sinew_world_pressure_volume(handle_, id, &v), v);
    }
    /// Strain-based triangles (Müller et al. 2014): three constraints per triangle (ids
    /// first + 3j + 0 along the rest edge 0→1, 1 across it, 2 shear); compliances 1/(N·m).
    Result<Range> add_triangle_strain(Span<const uint32_t> triangles, float compliance_xx, float compliance_yy,
                                      float compliance_shear) {
        const auto add = [&](uint32_t n, uint32_t* first) {
            return sinew_world_add_triangle_strain(handle_, triangles.data(), n, compliance_xx, compliance_yy,
                                                   compliance_shear, first);
        };
        return add_elements(triangles, 3, {}, 3, "World::add_triangle_strain", add);
    }
    /// Strain-based tets: six constraints per tet (stretch x, y, z, shear xy, xz, yz);
    /// compliances 1/(N·m).
    Result<Range> add_tet_strain(Span<const uint32_t> tets, float compliance_xx, float compliance_yy,
                                 float compliance_zz, float compliance_shear) {
        const auto add = [&](uint32_t n, uint32_t* first) {
            return sinew_world_add_tet_strain(handle_, tets.data(), n, compliance_xx, compliance_yy, compliance_zz,
                                              compliance_shear, first);
        };
        return add_elements(tets, 4, {}, 6, "World::add_tet_strain", add);
    }
    /// Unilateral XY areas (air mesh, 2D): each triangle's signed area stays >=
    /// min_areas[j] (m²; empty = 0). Compliance m³/N.
    Result<Range> add_unilateral_areas(Span<const uint32_t> triangles, Span<const float> min_areas,
                                       float compliance) {
        return add_valued(&sinew_world_add_unilateral_areas, triangles, 3, min_areas, compliance,
                          "World::add_unilateral_areas");
    }
    /// Unilateral tet volumes (air mesh, 3D): each tet's signed volume stays >=
    /// min_volumes[j] (m³; empty = 0). Compliance m⁵/N.
    Result<Range> add_unilateral_volumes(Span<const uint32_t> tets, Span<const float> min_volumes,
                                         float compliance) {
        return add_valued(&sinew_world_add_unilateral_volumes, tets, 4, min_volumes, compliance,
                          "World::add_unilateral_volumes");
    }
    /// Makes the world 2D (motion in the plane z = `z`, m) or 3D again.
    Result<void> set_planar(bool enabled, float z = 0.0f) {
        return detail::to_result(sinew_world_set_planar(handle_, enabled ? 1u : 0u, z));
    }
    /// A ring of at least 3 particles (counter-clockwise from +z) keeping `pressure`
    /// ((0, 100]) × its current XY area; compliance m³/N. Returns its id.
    Result<uint32_t> add_ring_area(Span<const uint32_t> particles, float pressure, float compliance) {
        auto n = detail::to_count(particles.size(), "World::add_ring_area");
        if (!n) return n.error();
        uint32_t id = 0;
        const SinewStatus s = sinew_world_add_ring_area(handle_, particles.data(), *n, pressure, compliance, &id);
        return detail::checked(s, id);
    }
    /// The enclosed XY area (m²) of ring `id`.
    Result<float> ring_area(uint32_t id) const {
        float a = 0.0f;
        return detail::checked(sinew_world_ring_area(handle_, id, &a), a);
    }
    /// A shape-matching cluster (Müller 2005) over at least 2 particles, rest shape = now;
    /// stiffness in [0, 1]; plastic beyond `yield_distance` (m; infinity = elastic), the
    /// rest shape creeping by `creep` in [0, 1] per substep. Returns its id.
    Result<uint32_t> add_shape_cluster(Span<const uint32_t> particles, float stiffness,
                                       float yield_distance = std::numeric_limits<float>::infinity(),
                                       float creep = 0.0f) {
        auto n = detail::to_count(particles.size(), "World::add_shape_cluster");
        if (!n) return n.error();
        uint32_t id = 0;
        const SinewStatus s = sinew_world_add_shape_cluster(handle_, particles.data(), *n, stiffness, yield_distance,
                                                            creep, &id);
        return detail::checked(s, id);
    }
    /// Sets the stiffness ([0, 1]) of shape-matching cluster `id`.
    Result<void> set_shape_cluster_stiffness(uint32_t id, float stiffness) {
        return detail::to_result(sinew_world_set_shape_cluster_stiffness(handle_, id, stiffness));
    }
    /// The number of constraints of `family` (ids never shift).
    Result<uint32_t> family_constraint_count(Family family) const {
        uint32_t n = 0;
        return detail::checked(sinew_world_family_constraint_count(handle_, static_cast<uint32_t>(family), &n), n);
    }
    /// |λ|/h² of constraints `first .. first + out.size()` of `family` in the last
    /// substep (unit per Family; 0 before the first step).
    Result<void> read_family_forces(Family family, uint32_t first, Span<float> out) const {
        const auto read = [family](SinewWorld w, uint32_t from, uint32_t n, float* to) {
            return sinew_world_read_family_forces(w, static_cast<uint32_t>(family), from, n, to);
        };
        return detail::array_call(read, handle_, first, out, "World::read_family_forces");
    }
    /// The same for constraints `range` of `family` into `out`, resized to range.count.
    Result<void> read_family_forces(Family family, Range range, std::vector<float>& out) const {
        out.resize(range.count);
        return read_family_forces(family, range.first, Span<float>(out));
    }

    // --- fluids (sinew_fluid.hpp) ----------------------------------------------------

    /// Adds a fluid (start `desc` from sinew::FluidDesc) and reserves desc.capacity
    /// particles for it, inert until emitted.
    Result<Fluid> add_fluid(const SinewFluidDesc& desc);
    /// Number of fluids.
    Result<uint32_t> fluid_count() const;

    // --- wind ----------------------------------------------------------------------

    /// The library's default air and wind (start from it).
    static SinewWindDesc wind_defaults() noexcept { return sinew_wind_desc_default(); }
    /// The library's default wind zone.
    static SinewWindZoneDesc wind_zone_defaults() noexcept { return sinew_wind_zone_desc_default(); }
    /// Air density, uniform wind and turbulence, next step on.
    Result<void> set_wind(const SinewWindDesc& desc) { return detail::to_result(sinew_world_set_wind(handle_, &desc)); }
    /// Adds a wind zone; returns its id.
    Result<uint32_t> add_wind_zone(const SinewWindZoneDesc& desc) {
        uint32_t id = 0;
        return detail::checked(sinew_world_add_wind_zone(handle_, &desc, &id), id);
    }
    Result<void> set_wind_zone(uint32_t zone, const SinewWindZoneDesc& desc) {
        return detail::to_result(sinew_world_set_wind_zone(handle_, zone, &desc));
    }
    Result<void> remove_wind_zone(uint32_t zone) { return detail::to_result(sinew_world_remove_wind_zone(handle_, zone)); }
    /// The air velocity (m/s) at `position` (m) now.
    Result<Vec3> wind_at(const Vec3& position) const {
        Vec3 v{};
        return detail::checked(sinew_world_wind_at(handle_, &position, &v), v);
    }

    // --- granular materials ---------------------------------------------------------

    /// Gives particles `first .. first + count` the granular material `material`
    /// (friction, rolling resistance, cohesion in their contacts with other particles).
    Result<void> set_particle_material(uint32_t first, uint32_t count, const SinewParticleMaterial& material) {
        return detail::to_result(sinew_world_set_particle_material(handle_, first, count, &material));
    }
    /// The granular material of particle `index`.
    Result<SinewParticleMaterial> particle_material(uint32_t index) const {
        SinewParticleMaterial m{};
        return detail::checked(sinew_world_particle_material(handle_, index, &m), m);
    }
    /// Adds a grain emitter: `grains.budget` particles reserved, poured from the shape of
    /// `stream` at its rate and speed with `material`, next step on (deterministic).
    Result<SinewGrainEmitter> add_grain_emitter(const SinewGrainEmitterDesc& grains,
                                                const SinewEmitterDesc& stream,
                                                const SinewParticleMaterial& material) {
        SinewGrainEmitter e{};
        return detail::checked(sinew_world_add_grain_emitter(handle_, &grains, &stream, &material, &e), e);
    }
    /// Moves or retunes a grain emitter's stream (a rate of 0 pauses it).
    Result<void> set_grain_emitter(SinewGrainEmitter emitter, const SinewEmitterDesc& stream) {
        return detail::to_result(sinew_grain_emitter_set(handle_, emitter, &stream));
    }
    /// Removes a grain emitter; its grains stay.
    Result<void> remove_grain_emitter(SinewGrainEmitter emitter) {
        return detail::to_result(sinew_grain_emitter_remove(handle_, emitter));
    }
    /// A grain emitter's particles: its grains are `first .. first + emitted`.
    Result<SinewGrainEmitterStats> grain_emitter_stats(SinewGrainEmitter emitter) const {
        SinewGrainEmitterStats s{};
        return detail::checked(sinew_grain_emitter_stats(handle_, emitter, &s), s);
    }

    // --- in-place edits of any family (ids never shift; effective next step) -----

    /// Removes constraints `first .. first + count` of `family` (removed ones stay so).
    Result<void> remove_constraints(Family family, uint32_t first, uint32_t count) {
        return detail::to_result(sinew_constraints_remove(handle_, static_cast<uint32_t>(family), first, count));
    }
    /// Whether constraint `id` of `family` was removed.
    Result<bool> constraint_removed(Family family, uint32_t id) const {
        uint32_t r = 0;
        auto s = sinew_constraints_is_removed(handle_, static_cast<uint32_t>(family), id, &r);
        return detail::checked(s, r != 0);
    }
    /// Sets the rest values (length m, angle rad, area m², volume m³ per family) of
    /// constraints `first .. first + values.size()`.
    Result<void> set_constraint_rest(Family family, uint32_t first, Span<const float> values) {
        const auto set = [family](SinewWorld w, uint32_t from, uint32_t n, const float* v) {
            return sinew_constraints_set_rest(w, static_cast<uint32_t>(family), from, n, v);
        };
        return detail::array_call(set, handle_, first, values, "World::set_constraint_rest");
    }
    /// Reads the rest values of constraints `first .. first + out.size()` (NaN: removed).
    Result<void> read_constraint_rest(Family family, uint32_t first, Span<float> out) const {
        const auto read = [family](SinewWorld w, uint32_t from, uint32_t n, float* to) {
            return sinew_constraints_read_rest(w, static_cast<uint32_t>(family), from, n, to);
        };
        return detail::array_call(read, handle_, first, out, "World::read_constraint_rest");
    }
    /// Sets the compliance (family units) of constraints `first .. first + count`.
    Result<void> set_constraint_compliance(Family family, uint32_t first, uint32_t count, float compliance) {
        return detail::to_result(
            sinew_constraints_set_compliance(handle_, static_cast<uint32_t>(family), first, count, compliance));
    }
    /// Sets the PBD stiffness ([0, 1]) of distance constraints or shape clusters.
    Result<void> set_constraint_stiffness(Family family, uint32_t first, uint32_t count, float stiffness) {
        return detail::to_result(
            sinew_constraints_set_stiffness(handle_, static_cast<uint32_t>(family), first, count, stiffness));
    }
    /// Constraints whose force exceeds `force` (family units; +inf: never) in a substep
    /// break: they are removed and reported by take_break_events().
    Result<void> set_constraint_break_force(Family family, uint32_t first, uint32_t count, float force) {
        return detail::to_result(
            sinew_constraints_set_break_force(handle_, static_cast<uint32_t>(family), first, count, force));
    }
    /// Moves the waiting break events (oldest first) into `out` (resized to their number)
    /// and returns how many were lost to a full queue since the last call.
    Result<uint64_t> take_break_events(std::vector<BreakEvent>& out) {
        uint32_t waiting = 0;
        if (auto r = detail::to_result(sinew_world_break_event_count(handle_, &waiting)); !r) return r.error();
        // Reuses `out`'s capacity: no allocation once it has held as many events.
        out.resize(waiting == 0 ? 1 : waiting);
        uint32_t n = 0;
        uint64_t lost = 0;
        auto s = sinew_world_take_break_events(handle_, out.data(), waiting, &n, &lost);
        out.resize(s == SINEW_OK ? n : 0);
        if (s != SINEW_OK) return detail::to_result(s).error();
        return lost;
    }

    // --- attachments --------------------------------------------------------------

    /// Adds an attachment host (a rigid body, bone, hand) at `transform`; returns its
    /// index (0, 1, ...).
    Result<uint32_t> add_attachment_host(const Transform& transform) {
        uint32_t id = 0;
        return detail::checked(sinew_world_add_attachment_host(handle_, &transform, &id), id);
    }
    /// Sets the transform `host` reaches at the end of the next step (once per frame,
    /// before step()); the substeps follow it interpolated.
    Result<void> set_attachment_host_transform(uint32_t host, const Transform& transform) {
        return detail::to_result(sinew_world_set_attachment_host_transform(handle_, host, &transform));
    }
    /// Attaches `particles` (inverse mass > 0) to `host` where they are now. Compliance
    /// α in m/N: 0 pins, above 0 a zero-length spring of stiffness 1/α.
    Result<Range> add_attachments(uint32_t host, Span<const uint32_t> particles, float compliance) {
        return add_attachments(host, particles, Span<const Vec3>(), compliance);
    }
    /// As above, at `local_offsets` (m, in the host's frame; one per particle).
    template <class V>
    Result<Range> add_attachments(uint32_t host, Span<const uint32_t> particles, Span<const V> local_offsets,
                                  float compliance) {
        SINEW_ASSERT_VEC3_LIKE(V);
        auto n = detail::to_count(particles.size(), "World::add_attachments");
        if (!n) return n.error();
        if (!local_offsets.empty() && local_offsets.size() != particles.size())
            return detail::local_error(Status::InvalidArgument,
                                       "World::add_attachments: " + std::to_string(particles.size()) +
                                           " particles but " + std::to_string(local_offsets.size()) +
                                           " local offsets");
        uint32_t first = 0;
        const SinewVec3* offsets =
            local_offsets.empty() ? nullptr : reinterpret_cast<const SinewVec3*>(local_offsets.data());
        const SinewStatus s =
            sinew_world_add_attachments(handle_, host, particles.data(), offsets, *n, compliance, &first);
        return added(s, first, *n);
    }
    /// Sets the compliance (m/N) of attachments `range` from the next step on.
    Result<void> set_attachment_compliance(Range range, float compliance) {
        return detail::to_result(sinew_world_set_attachment_compliance(handle_, range.first, range.count, compliance));
    }
    /// The force (N, world frame) each attachment `first .. first + out.size()` exerted on
    /// its host in the last substep: apply it to the host's rigid body.
    template <class V>
    Result<void> read_attachment_forces(uint32_t first, Span<V> out) const {
        SINEW_ASSERT_VEC3_LIKE(V);
        return detail::array_call(&sinew_world_read_attachment_forces, handle_, first,
                                  Span<SinewVec3>(reinterpret_cast<SinewVec3*>(out.data()), out.size()),
                                  "World::read_attachment_forces");
    }
    /// The same for attachments `range` (as add_attachments returned it) into `out`,
    /// resized to range.count.
    template <class V>
    Result<void> read_attachment_forces(Range range, std::vector<V>& out) const {
        out.resize(range.count);
        return read_attachment_forces(range.first, Span<V>(out));
    }

  private:
    using ReadFn = SinewStatus (*)(SinewWorld, uint32_t, uint32_t, void*, uint32_t);
    using WriteFn = SinewStatus (*)(SinewWorld, uint32_t, uint32_t, const void*, uint32_t);
    using PairFn = SinewStatus (*)(SinewWorld, const uint32_t*, const float*, uint32_t, float, uint32_t*);

    Result<void> read_strided(ReadFn fn, uint32_t first, void* out, std::size_t count, std::size_t stride,
                              const char* what) const {
        auto n = detail::to_count(count, what);
        if (!n) return n.error();
        return detail::to_result(fn(handle_, first, *n, out, static_cast<uint32_t>(stride)));
    }
    Result<void> write_strided(WriteFn fn, uint32_t first, const void* in, std::size_t count,
                               const char* what) {
        auto n = detail::to_count(count, what);
        if (!n) return n.error();
        return detail::to_result(fn(handle_, first, *n, in, static_cast<uint32_t>(sizeof(Vec3))));
    }
    Result<Range> add_pairs(PairFn fn, Span<const uint32_t> pairs, Span<const float> rest, float param,
                            const char* what) {
        if (pairs.size() % 2 != 0)
            return detail::local_error(Status::InvalidArgument, std::string(what) + ": " +
                                                                    std::to_string(pairs.size()) +
                                                                    " pair indices (must be even)");
        auto n = detail::to_count(pairs.size() / 2, what);
        if (!n) return n.error();
        if (!rest.empty() && rest.size() != *n)
            return detail::local_error(Status::InvalidArgument, std::string(what) + ": " + std::to_string(*n) +
                                                                    " pairs but " + std::to_string(rest.size()) +
                                                                    " rest lengths");
        uint32_t first = 0;
        auto r = detail::to_result(fn(handle_, pairs.data(), rest.empty() ? nullptr : rest.data(), *n, param, &first));
        if (!r) return r.error();
        return Range{first, *n};
    }

    /// Checks a flat index list of `per` indices per element and an optional
    /// per-element value list; returns the element count.
    static Result<uint32_t> elements(Span<const uint32_t> indices, std::size_t per, Span<const float> values,
                                     const char* what) {
        if (indices.size() % per != 0)
            return detail::local_error(Status::InvalidArgument, std::string(what) + ": " +
                                                                    std::to_string(indices.size()) +
                                                                    " indices, not a multiple of " +
                                                                    std::to_string(per));
        auto n = detail::to_count(indices.size() / per, what);
        if (!n) return n.error();
        if (!values.empty() && values.size() != *n)
            return detail::local_error(Status::InvalidArgument, std::string(what) + ": " + std::to_string(*n) +
                                                                    " elements but " +
                                                                    std::to_string(values.size()) + " values");
        return *n;
    }
    static const float* data_or_null(Span<const float> values) noexcept {
        return values.empty() ? nullptr : values.data();
    }
    /// The Range of `count` new ids from `first`, or the call's error.
    static Result<Range> added(SinewStatus s, uint32_t first, uint32_t count) {
        auto r = detail::to_result(s);
        if (!r) return r.error();
        return Range{first, count};
    }
    /// A family builder with one value per element (rest lengths, angles, volumes; empty =
    /// the library's default) and one compliance: tethers, dihedral bending, tet volumes,
    /// unilateral areas and volumes.
    Result<Range> add_valued(PairFn fn, Span<const uint32_t> indices, std::size_t per, Span<const float> values,
                             float compliance, const char* what) {
        const auto add = [&](uint32_t n, uint32_t* first) {
            return fn(handle_, indices.data(), data_or_null(values), n, compliance, first);
        };
        return add_elements(indices, per, values, 1, what, add);
    }
    /// A family builder over a flat index list (`per` indices per element, optional
    /// per-element `values`): `call(count, &first)` adds `ids_per` constraints per element.
    template <class Call>
    Result<Range> add_elements(Span<const uint32_t> indices, std::size_t per, Span<const float> values,
                               uint32_t ids_per, const char* what, Call call) {
        auto n = elements(indices, per, values, what);
        if (!n) return n.error();
        uint32_t first = 0;
        const SinewStatus s = call(*n, &first);
        return added(s, first, ids_per * *n);
    }
    template <class Desc>
    using MeshBodyFn = SinewStatus (*)(SinewWorld, const Desc*, const SinewVec3*, uint32_t, const uint32_t*,
                                       uint32_t, const float*, SinewBody*);
    /// A body over a mesh: vertices, `per` indices per element and one inverse mass per
    /// vertex (or none, unless `masses_required`).
    template <class Desc, class V>
    Result<Body> add_mesh_body(MeshBodyFn<Desc> fn, const Desc& desc, Span<const V> vertices,
                               Span<const uint32_t> elems, std::size_t per, Span<const float> inverse_masses,
                               bool masses_required, const char* what) {
        SINEW_ASSERT_VEC3_LIKE(V);
        auto nv = detail::to_count(vertices.size(), what);
        if (!nv) return nv.error();
        auto ne = elements(elems, per, {}, what);
        if (!ne) return ne.error();
        if ((masses_required || !inverse_masses.empty()) && inverse_masses.size() != vertices.size())
            return detail::local_error(Status::InvalidArgument, std::string(what) + ": " +
                                                                    std::to_string(vertices.size()) +
                                                                    " vertices but " +
                                                                    std::to_string(inverse_masses.size()) +
                                                                    " inverse masses");
        SinewBody b{0};
        const float* masses = masses_required ? inverse_masses.data() : data_or_null(inverse_masses);
        return made_body(fn(handle_, &desc, reinterpret_cast<const SinewVec3*>(vertices.data()), *nv, elems.data(),
                            *ne, masses, &b),
                         b);
    }
    /// The Body a builder wrote to `body` (read once the call has returned), or its error.
    Result<Body> made_body(SinewStatus s, const SinewBody& body) const {
        auto r = detail::to_result(s);
        if (!r) return r.error();
        return Body(handle_, body);
    }
    Result<Collider> made_collider(SinewStatus s, const SinewCollider& c, SinewShape shape) const {
        auto r = detail::to_result(s);
        if (!r) return r.error();
        return Collider(handle_, c, shape);
    }

    friend class detail::OwnedHandle<World, SinewWorld>;
    void destroy(SinewWorld world) noexcept { (void)sinew_world_destroy(world); }
};

} // namespace sinew

#include "sinew_fluid.hpp"

#endif // SINEW_HPP

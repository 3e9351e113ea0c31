// sinew_units.hpp: the ONE place where Unreal Engine units meet Sinew units.
//
// Sinew is unit-agnostic in its maths but its parameters are documented in SI (metres,
// seconds, kilograms, compliance in m/N, forces in N). Unreal Engine works in
// centimetres with Z up. The convention used by the Unreal plugin (and any other
// centimetre, Z-up engine):
//
//   * Positions are scaled by 0.01 (cm -> m) and rebased on a double-precision origin
//     before they become floats: sim = float((ue - origin) * 0.01). Going back:
//     ue = origin + double(sim) * 100. UE5's FVector is double; nothing else converts.
//   * Axes are NOT swapped: the simulation runs Z-up, and gravity is set to
//     (0, 0, GravityZ * 0.01) m/s² (UE's default GravityZ -980 cm/s² -> -9.8 m/s²).
//     Distance constraints do not depend on handedness, so no mirroring is needed.
//   * Velocities: cm/s <-> m/s with the same factor (no origin).
//   * Compliance (m/N), mass (kg), force/tension (N) and time (s) are SI on both sides
//     and pass through unchanged; Blueprint properties name their unit.
#ifndef SINEW_UNITS_HPP
#define SINEW_UNITS_HPP

#include <cmath>

#include "sinew.hpp"

namespace sinew {
namespace units {

/// Metres per Unreal unit (1 uu = 1 cm).
inline constexpr double kMetresPerUnrealUnit = 0.01;
/// Unreal units (cm) per metre.
inline constexpr double kUnrealUnitsPerMetre = 100.0;
/// UE's default world gravity, cm/s² along Z.
inline constexpr double kUnrealDefaultGravityZ = -980.0;

/// Three doubles: an Unreal position (cm) or velocity (cm/s).
struct Double3 {
    double x = 0.0, y = 0.0, z = 0.0;
};

/// Length: cm -> m.
inline float length_to_sim(double centimetres) noexcept {
    return static_cast<float>(centimetres * kMetresPerUnrealUnit);
}
/// Length: m -> cm.
inline double length_from_sim(float metres) noexcept { return static_cast<double>(metres) * kUnrealUnitsPerMetre; }

/// Gravity vector (m/s²) for a Z-up simulation from UE's GravityZ (cm/s², negative).
inline Vec3 gravity_from_unreal(double gravity_z_cm_per_s2) noexcept {
    return Vec3{0.0f, 0.0f, static_cast<float>(gravity_z_cm_per_s2 * kMetresPerUnrealUnit)};
}

/// Maps Unreal world positions (cm, double) to simulation positions (m, float) and
/// back, around a double-precision origin (cm) so that a rope far from the world
/// origin keeps full float precision in the simulation.
class Frame {
  public:
    Frame() noexcept = default;
    explicit Frame(Double3 origin_cm) noexcept : origin_(origin_cm) {}

    Double3 origin() const noexcept { return origin_; }

    /// Position: cm (Unreal world) -> m (simulation).
    Vec3 to_sim(double x_cm, double y_cm, double z_cm) const noexcept {
        return Vec3{static_cast<float>((x_cm - origin_.x) * kMetresPerUnrealUnit),
                    static_cast<float>((y_cm - origin_.y) * kMetresPerUnrealUnit),
                    static_cast<float>((z_cm - origin_.z) * kMetresPerUnrealUnit)};
    }
    Vec3 to_sim(Double3 p) const noexcept { return to_sim(p.x, p.y, p.z); }

    /// Position: m (simulation) -> cm (Unreal world).
    Double3 from_sim(Vec3 p) const noexcept {
        return Double3{origin_.x + static_cast<double>(p.x) * kUnrealUnitsPerMetre,
                       origin_.y + static_cast<double>(p.y) * kUnrealUnitsPerMetre,
                       origin_.z + static_cast<double>(p.z) * kUnrealUnitsPerMetre};
    }

    /// Velocity: cm/s -> m/s (no origin).
    static Vec3 velocity_to_sim(Double3 v) noexcept {
        return Vec3{static_cast<float>(v.x * kMetresPerUnrealUnit), static_cast<float>(v.y * kMetresPerUnrealUnit),
                    static_cast<float>(v.z * kMetresPerUnrealUnit)};
    }
    /// Velocity: m/s -> cm/s.
    static Double3 velocity_from_sim(Vec3 v) noexcept {
        return Double3{static_cast<double>(v.x) * kUnrealUnitsPerMetre, static_cast<double>(v.y) * kUnrealUnitsPerMetre,
                       static_cast<double>(v.z) * kUnrealUnitsPerMetre};
    }

  private:
    Double3 origin_{};
};

} // namespace units
} // namespace sinew

#endif // SINEW_UNITS_HPP

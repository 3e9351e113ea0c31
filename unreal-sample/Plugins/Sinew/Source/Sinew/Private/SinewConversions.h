// Unreal <-> Sinew conversions, in one place: FVector (double, cm, Z-up) becomes
// sinew::Vec3 (float, m, Z-up) through sinew::units::Frame (bindings/cpp/
// sinew_units.hpp, which documents and tests the convention). No other plugin file
// scales lengths or touches gravity.
#pragma once

#include "CoreMinimal.h"

THIRD_PARTY_INCLUDES_START
#include "sinew.hpp"
#include "sinew_colliders.hpp"
#include "sinew_render.hpp"
#include "sinew_units.hpp"
THIRD_PARTY_INCLUDES_END

#include <utility>
#include <vector>

// FVector3f can be read straight from the library; UE5's double FVector cannot.
static_assert(sinew::is_vec3_like_v<FVector3f>, "FVector3f must be three packed floats");
static_assert(!sinew::is_vec3_like_v<FVector>, "FVector is double in UE5: convert explicitly");

namespace SinewUE
{
/** World position (cm, double) -> simulation position (m, float). */
inline sinew::Vec3 ToSim(const sinew::units::Frame& Frame, const FVector& Location)
{
	return Frame.to_sim(Location.X, Location.Y, Location.Z);
}

/** Simulation position (m, float) -> world position (cm, double). */
inline FVector FromSim(const sinew::units::Frame& Frame, const sinew::Vec3& Position)
{
	const sinew::units::Double3 P = Frame.from_sim(Position);
	return FVector(P.x, P.y, P.z);
}

/** A component-local position (cm) as three floats for the engine-neutral mesh code. */
inline sinew::Vec3 ToMeshSpace(const FVector& Local)
{
	const FVector3f F(Local); // explicit double -> float at the boundary
	return sinew::Vec3{F.X, F.Y, F.Z};
}

inline FVector FromMeshSpace(const sinew::Vec3& V)
{
	return FVector(FVector3f(V.x, V.y, V.z));
}

/** World gravity (UWorld::GetGravityZ, cm/s²) as the simulation's gravity (m/s²). */
inline sinew::Vec3 Gravity(double GravityZ)
{
	return sinew::units::gravity_from_unreal(GravityZ);
}

/** A world transform (cm, FQuat, scale) for sinew::colliders::to_collider_desc. */
inline sinew::colliders::UeTransform ColliderTransform(const FTransform& T)
{
	const FVector L = T.GetLocation();
	const FQuat Q = T.GetRotation();
	const FVector S = T.GetScale3D();
	sinew::colliders::UeTransform Out;
	Out.location_cm = sinew::units::Double3{L.X, L.Y, L.Z};
	Out.rotation = sinew::colliders::DQuat{Q.X, Q.Y, Q.Z, Q.W};
	Out.scale = sinew::units::Double3{S.X, S.Y, S.Z};
	return Out;
}

/** A direction (any length; the axes are not swapped, so no unit applies) as floats. */
inline sinew::Vec3 Direction(const FVector& D)
{
	const FVector3f F(D.GetSafeNormal());
	return sinew::Vec3{F.X, F.Y, F.Z};
}

/** A force (N) as UE's kg·cm/s² (AddForce). */
inline FVector ForceFromSim(const sinew::Vec3& F)
{
	const double K = sinew::units::kUnrealUnitsPerMetre;
	return FVector(F.x * K, F.y * K, F.z * K);
}

/** A torque (N·m) as UE's kg·cm²/s² (AddTorqueInRadians). */
inline FVector TorqueFromSim(const sinew::Vec3& T)
{
	const double K = sinew::units::kUnrealUnitsPerMetre * sinew::units::kUnrealUnitsPerMetre;
	return FVector(T.x * K, T.y * K, T.z * K);
}

/** Moments of inertia: UE's kg·cm² as kg·m². */
inline sinew::Vec3 InertiaToSim(const FVector& I)
{
	const double K = sinew::units::kMetresPerUnrealUnit * sinew::units::kMetresPerUnrealUnit;
	return sinew::Vec3{float(I.X * K), float(I.Y * K), float(I.Z * K)};
}

/** Length: cm -> m and back, through sinew_units.hpp. */
inline float LengthToSim(float Centimetres) { return sinew::units::length_to_sim(Centimetres); }
inline float LengthFromSim(float Metres) { return (float)sinew::units::length_from_sim(Metres); }

/**
 * Simulation space (m) -> the local space (cm) of a component at ToWorld, as the columns
 * and translation the render thread applies (sinew::render::apply): each column is the
 * image of a unit simulation axis, so rotation, scale and the cm <-> m factor all come
 * from Frame and ToWorld.
 */
inline sinew::render::Affine SimToLocal(const sinew::units::Frame& Frame, const FTransform& ToWorld)
{
	const FVector Origin = ToWorld.InverseTransformPosition(FromSim(Frame, sinew::Vec3{0.0f, 0.0f, 0.0f}));
	auto Column = [&](const sinew::Vec3& Axis)
	{
		return ToMeshSpace(ToWorld.InverseTransformPosition(FromSim(Frame, Axis)) - Origin);
	};
	sinew::render::Affine Out;
	Out.x = Column(sinew::Vec3{1.0f, 0.0f, 0.0f});
	Out.y = Column(sinew::Vec3{0.0f, 1.0f, 0.0f});
	Out.z = Column(sinew::Vec3{0.0f, 0.0f, 1.0f});
	Out.t = ToMeshSpace(Origin);
	return Out;
}

/** Velocity: cm/s (world) -> m/s (no origin). */
inline sinew::Vec3 VelocityToSim(const FVector& CentimetresPerSecond)
{
	return sinew::units::Frame::velocity_to_sim(sinew::units::Double3{CentimetresPerSecond.X, CentimetresPerSecond.Y, CentimetresPerSecond.Z});
}

/** Velocity: m/s -> cm/s (world). */
inline FVector VelocityFromSim(const sinew::Vec3& MetresPerSecond)
{
	const sinew::units::Double3 V = sinew::units::Frame::velocity_from_sim(MetresPerSecond);
	return FVector(V.x, V.y, V.z);
}

/** Half extents (or any length triple): cm -> m, per axis. */
inline sinew::Vec3 ExtentToSim(const FVector& Centimetres)
{
	return sinew::Vec3{sinew::units::length_to_sim(Centimetres.X), sinew::units::length_to_sim(Centimetres.Y), sinew::units::length_to_sim(Centimetres.Z)};
}

/** A rotation (the axes are not swapped, so it passes through) as floats. */
inline sinew::Quat Rotation(const FQuat& Q)
{
	return sinew::Quat{(float)Q.X, (float)Q.Y, (float)Q.Z, (float)Q.W};
}

/**
 * The rotation whose local +Z is Q's forward (+X) axis: Q * (90 degrees about Y). The
 * library's nozzles pour along their local +Z; Unreal's emitters face +X.
 */
inline sinew::Quat ForwardToZ(const FQuat& Q)
{
	const double S = 0.70710678118654752; // sin 45° = cos 45°
	return sinew::Quat{(float)(S * (Q.X - Q.Z)), (float)(S * (Q.W + Q.Y)), (float)(S * (Q.X + Q.Z)), (float)(S * (Q.W - Q.Y))};
}

/** Compliance, mass and force are SI on both sides (m/N, kg, N): no conversion. */
inline float Compliance(float MetresPerNewton) { return MetresPerNewton; }

/**
 * Winding: the library's closed surfaces (pressure bodies, tetrahedralisation, distance
 * fields) are wound counter-clockwise seen from outside, so that they enclose a positive
 * volume; Unreal's meshes are wound the other way (its front faces are clockwise) and a
 * negative scale mirrors either. Turns Triangles over as a whole where they enclose a
 * negative volume over Vertices, so that both windings are accepted. Indices out of range
 * are skipped here and named by the library, as are open or inconsistent surfaces.
 */
inline void WindOutward(const std::vector<sinew::Vec3>& Vertices, std::vector<uint32_t>& Triangles)
{
	double SixVolume = 0.0;
	for (size_t t = 0; t + 2 < Triangles.size(); t += 3)
	{
		if (Triangles[t] >= Vertices.size() || Triangles[t + 1] >= Vertices.size() || Triangles[t + 2] >= Vertices.size())
		{
			continue;
		}
		const sinew::Vec3 A = Vertices[Triangles[t]], B = Vertices[Triangles[t + 1]], C = Vertices[Triangles[t + 2]];
		SixVolume += (double)A.x * ((double)B.y * C.z - (double)B.z * C.y) - (double)A.y * ((double)B.x * C.z - (double)B.z * C.x) + (double)A.z * ((double)B.x * C.y - (double)B.y * C.x);
	}
	if (SixVolume < 0.0)
	{
		for (size_t t = 0; t + 2 < Triangles.size(); t += 3)
		{
			std::swap(Triangles[t + 1], Triangles[t + 2]);
		}
	}
}
} // namespace SinewUE

// The arithmetic of USinewFluidComponent's instances, in one place: a particle's
// ellipsoid (Yu & Turk 2013, from sinew_fluid_read_anisotropy: centre and three
// orthogonal axes, each a direction times the radius along it, longest first,
// right-handed) as an instance transform of a sphere mesh (rotation from the unit axes,
// a non-uniform scale from their radii, the centre in world space), a sphere's
// transform, and a diffuse particle's opacity. Simulation and world share their axes
// (SinewConversions.h: Z-up, only lengths scale and the origin moves), so a right-handed
// triple of simulation axes is a proper rotation of world axes.
#pragma once

#include "CoreMinimal.h"
#include "SinewConversions.h"

#include <cmath>

namespace SinewUE
{
/**
 * The rotation that takes the unit axes X, Y, Z to the orthonormal, right-handed U0,
 * U1, U2 (Shepperd's method on the matrix whose columns they are).
 */
inline FQuat RotationOfAxes(const FVector& U0, const FVector& U1, const FVector& U2)
{
	// R(row, column): column k is Uk.
	const double R00 = U0.X, R10 = U0.Y, R20 = U0.Z;
	const double R01 = U1.X, R11 = U1.Y, R21 = U1.Z;
	const double R02 = U2.X, R12 = U2.Y, R22 = U2.Z;
	const double Trace = R00 + R11 + R22;
	if (Trace > 0.0)
	{
		const double S = 0.5 / std::sqrt(Trace + 1.0);
		return FQuat((R21 - R12) * S, (R02 - R20) * S, (R10 - R01) * S, 0.25 / S);
	}
	if (R00 > R11 && R00 > R22)
	{
		const double S = 2.0 * std::sqrt(1.0 + R00 - R11 - R22);
		return FQuat(0.25 * S, (R01 + R10) / S, (R02 + R20) / S, (R21 - R12) / S);
	}
	if (R11 > R22)
	{
		const double S = 2.0 * std::sqrt(1.0 + R11 - R00 - R22);
		return FQuat((R01 + R10) / S, 0.25 * S, (R12 + R21) / S, (R02 - R20) / S);
	}
	const double S = 2.0 * std::sqrt(1.0 + R22 - R00 - R11);
	return FQuat((R02 + R20) / S, (R12 + R21) / S, 0.25 * S, (R10 - R01) / S);
}

/**
 * The world-space instance transform that draws a sphere mesh of diameter MeshDiameter
 * (cm, centred at its origin; the engine's sphere: 100) as the ellipsoid E: rotated so
 * that the mesh's X, Y, Z axes lie along E's axes, scaled by their radii (cm) over the
 * mesh's radius, at E's centre. An axis of length zero (an isolated particle drawn at
 * size 0) keeps the world axes and scales to nothing.
 */
inline FTransform EllipsoidTransform(const sinew::units::Frame& Frame, const SinewFluidEllipsoid& E, double MeshDiameter)
{
	const SinewVec3 A[3] = {E.axis0, E.axis1, E.axis2};
	double Radius[3];
	FVector U[3];
	bool bDegenerate = false;
	for (int K = 0; K < 3; ++K)
	{
		const double L = std::sqrt((double)A[K].x * A[K].x + (double)A[K].y * A[K].y + (double)A[K].z * A[K].z);
		Radius[K] = L;
		bDegenerate = bDegenerate || !(L > 0.0) || !std::isfinite(L);
		U[K] = bDegenerate ? FVector(0, 0, 0) : FVector(A[K].x / L, A[K].y / L, A[K].z / L);
	}
	FQuat Rotation = FQuat::Identity;
	if (!bDegenerate)
	{
		// Right-handed by the library's contract; a left-handed triple would be a
		// reflection, which no rotation is: turning the last axis over draws the same
		// ellipsoid.
		const FVector C(U[0].Y * U[1].Z - U[0].Z * U[1].Y, U[0].Z * U[1].X - U[0].X * U[1].Z, U[0].X * U[1].Y - U[0].Y * U[1].X);
		if (C.X * U[2].X + C.Y * U[2].Y + C.Z * U[2].Z < 0.0)
		{
			U[2] = FVector(-U[2].X, -U[2].Y, -U[2].Z);
		}
		Rotation = RotationOfAxes(U[0], U[1], U[2]);
	}
	const double K = bDegenerate ? 0.0 : 2.0 * sinew::units::length_from_sim(1.0f) / FMath::Max(MeshDiameter, 0.001);
	const FVector Scale(Radius[0] * K, Radius[1] * K, Radius[2] * K);
	return FTransform(Rotation, FromSim(Frame, E.center), Scale);
}

/**
 * How opaque a diffuse particle is drawn (per-instance custom data 0 of the diffuse
 * instances): spray 0.9, foam 1, bubbles 0.5 (seen through the water), fading out over
 * its last FadeSeconds.
 */
inline float DiffuseOpacity(const SinewDiffuseParticle& P, float FadeSeconds)
{
	const float Kind = P.kind == SINEW_DIFFUSE_SPRAY ? 0.9f : P.kind == SINEW_DIFFUSE_FOAM ? 1.0f : 0.5f;
	const float Left = FadeSeconds > 0.0f ? P.lifetime / FadeSeconds : 1.0f;
	if (!(Left > 0.0f))
	{
		return 0.0f;
	}
	return Kind * (Left < 1.0f ? Left : 1.0f);
}
} // namespace SinewUE

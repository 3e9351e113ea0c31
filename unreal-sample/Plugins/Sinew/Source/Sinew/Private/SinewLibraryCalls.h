// The library's C calls that bindings/cpp does not wrap yet, each wrapped once here in
// the wrapper's style (a sinew::Result, no exceptions), so that the rest of the plugin
// keeps going through sinew.hpp: the only plugin file that calls a sinew_* function
// directly (tests/cpp/unreal_checks.rs enforces it). When bindings/cpp gains a wrapper
// for one of these, the plugin should call that instead and this one goes.
#pragma once

#include "CoreMinimal.h"

#include <cstdint>

THIRD_PARTY_INCLUDES_START
#include "sinew.hpp"
THIRD_PARTY_INCLUDES_END

namespace SinewUE
{
/** Per vertex, a unit tangent (x, y, z) and the sign w of the bitangent cross(normal, tangent) * w, which points along +V. */
struct FTangentW
{
	float X = 1.0f, Y = 0.0f, Z = 0.0f, W = 1.0f;
};
static_assert(sizeof(FTangentW) == 16, "four packed floats: the library writes them in place");

/**
 * sinew_render_normals: area-weighted unit vertex normals of Triangles (three indices
 * into Positions each, counter-clockwise seen from the front) into Normals (one per
 * position), and with Tangents non-null and UVs given, each vertex's tangent along +U
 * made perpendicular to its normal, with the bitangent's sign (FTangentW). Never NaN
 * (a vertex of no proper triangle gets (0, 1, 0)); allocates nothing. The spans must
 * hold one element per position (UVs: or be empty, and then the tangents follow +X).
 */
inline sinew::Result<void> RenderNormals(sinew::Span<const sinew::Vec3> Positions, sinew::Span<const uint32_t> Triangles, sinew::Span<const float> UVs, sinew::Span<sinew::Vec3> Normals, sinew::Span<FTangentW> Tangents)
{
	const size_t N = Positions.size();
	if (Triangles.size() % 3 != 0 || Normals.size() != N || (!Tangents.empty() && Tangents.size() != N) || (!UVs.empty() && UVs.size() != 2 * N))
	{
		return sinew::Error{sinew::Status::InvalidArgument, "RenderNormals: the normals, tangents and UVs must match the positions, the triangles come in threes"};
	}
	if (N == 0)
	{
		return {};
	}
	return sinew::detail::to_result(sinew_render_normals(Positions.data(), (uint32_t)N, Triangles.data(), (uint32_t)(Triangles.size() / 3), UVs.empty() ? nullptr : UVs.data(), Normals.data(), (uint32_t)sizeof(sinew::Vec3), Tangents.empty() ? nullptr : Tangents.data(), (uint32_t)sizeof(FTangentW)));
}
} // namespace SinewUE

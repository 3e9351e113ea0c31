// What the game thread hands to the render thread each frame for a rope or a cloth
// (USinewRopeComponent, USinewClothComponent -> FSinewMeshSceneProxy). The positions
// are the library's, read by one call straight into SimPositions (simulation space, m);
// the render thread turns them into local vertices (sinew_render.hpp) and uploads them.
// Once enqueued with ENQUEUE_RENDER_COMMAND, the render thread owns the struct.
#pragma once

#include "CoreMinimal.h"

#include <memory>
#include <vector>

THIRD_PARTY_INCLUDES_START
#include "sinew_render.hpp"
THIRD_PARTY_INCLUDES_END

/** A rope's frame: its particles, the pieces to draw (broken, cut or reeled in) and the tube. */
struct FSinewRopeRenderData
{
	/** Particle positions, simulation space (m), interpolated for this frame. */
	std::vector<sinew::Vec3> SimPositions;
	/** Simulation space (m) -> the component's local space (cm). */
	sinew::render::Affine SimToLocal;
	/** Runs of particles drawn as one tube each (sinew::rope::pieces). */
	std::vector<sinew::rope::Piece> Pieces;
	/** Radius (cm), sides, texture tiling, Unreal's clockwise front faces. */
	sinew::tube::Params Tube;
};

/** A cloth's frame: the positions of its keys and the render topology they map onto. */
struct FSinewClothRenderData
{
	/** Key positions (the body's particles, then the spare particles a tear moved vertices to), simulation space (m). */
	std::vector<sinew::Vec3> SimPositions;
	/** Simulation space (m) -> the component's local space (cm). */
	sinew::render::Affine SimToLocal;
	/** Render vertices, triangles and UVs: made again only when the tear topology version changes; shared, never modified. */
	std::shared_ptr<const sinew::render::ClothSource> Source;
};

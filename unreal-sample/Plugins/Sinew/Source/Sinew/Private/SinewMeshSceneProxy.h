// The scene proxy of Sinew's ropes and cloths, in the manner of CableComponent's: the
// game thread hands each frame's positions (an immutable FSinewRopeRenderData /
// FSinewClothRenderData behind a shared pointer) to the render thread with
// ENQUEUE_RENDER_COMMAND; the render thread builds the
// vertices (sinew_render.hpp: tubes per rope piece; a cloth's vertices with the
// library's normals and tangents, sinew_render_normals) and
// writes them into its own vertex buffers (FStaticMeshVertexBuffers behind an
// FLocalVertexFactory) and index buffer, which GetDynamicMeshElements draws. Nothing is
// rebuilt on the game thread: the index buffer (and the UVs) change only when a rope's
// pieces or a cloth's tear topology change, and the buffers are re-created only when a
// frame needs more room than they have.
//
// Motion vectors (opt-in, the components' bOutputMotionVectors): the local vertex
// factory has no previous-position stream, so the proxy writes each vertex's
// displacement since the frame it drew before (previous - current, local space, cm)
// into texture coordinates 1 (x, y) and 2 (z; its second component is 0), stored as
// full-precision floats, and reports that it always has velocity (bAlwaysHasVelocity,
// bHasWorldPositionOffsetVelocity). A material that feeds that displacement, turned to
// world space, into the Previous Frame input of a Previous Frame Switch on World
// Position Offset (docs/unreal.md, "Motion vectors") then gives UE's velocity pass the
// previous position of every vertex. The first frame, a frame after the topology
// changed (new pieces, a tear, a cut) and a frame after nothing was drawn write 0.
#pragma once

#include "CoreMinimal.h"
#include "DynamicMeshBuilder.h"
#include "LocalVertexFactory.h"
#include "MaterialShared.h"
#include "PrimitiveSceneProxy.h"
#include "SinewRenderData.h"
#include "StaticMeshResources.h"

#include <memory>
#include <vector>

class UMeshComponent;
class UMaterialInterface;
class FRHICommandListImmediate;

class FSinewMeshSceneProxy final : public FPrimitiveSceneProxy
{
public:
	/**
	 * Game thread: the component's material 0 (the engine's default surface material if none).
	 * With bOutputMotionVectors, every frame also writes each vertex's displacement since the
	 * frame drawn before into texture coordinates 1 and 2, and the proxy draws velocity.
	 */
	FSinewMeshSceneProxy(const UMeshComponent* Component, bool bOutputMotionVectors);
	virtual ~FSinewMeshSceneProxy() override;

	virtual SIZE_T GetTypeHash() const override;
	virtual void GetDynamicMeshElements(const TArray<const FSceneView*>& Views, const FSceneViewFamily& ViewFamily, uint32 VisibilityMap, FMeshElementCollector& Collector) const override;
	virtual FPrimitiveViewRelevance GetViewRelevance(const FSceneView* View) const override;
	virtual bool CanBeOccluded() const override;
	virtual uint32 GetMemoryFootprint() const override;

	/** Render thread: a rope's frame (shared with the component, never modified). */
	void SetRopeData_RenderThread(FRHICommandListImmediate& RHICmdList, const std::shared_ptr<const FSinewRopeRenderData>& Data);
	/** Render thread: a cloth's frame (shared with the component, never modified). */
	void SetClothData_RenderThread(FRHICommandListImmediate& RHICmdList, const std::shared_ptr<const FSinewClothRenderData>& Data);

	/** Vertices and indices drawn now (0 before the first frame). */
	uint32 GetNumVertices() const { return NumVertices; }
	uint32 GetNumIndices() const { return NumIndices; }
	/** Times the index buffer was written (first frame, new pieces, a tear). */
	uint32 GetTopologyUploads() const { return TopologyUploads; }
	/** Times the buffers were (re-)created because a frame needed more room. */
	uint32 GetAllocations() const { return Allocations; }
	/** The vertex buffers (CPU copies of what was uploaded). */
	const FStaticMeshVertexBuffers& GetVertexBuffers() const { return VertexBuffers; }
	const FDynamicMeshIndexBuffer32& GetIndexBuffer() const { return IndexBuffer; }
	/** Whether texture coordinates 1 and 2 carry the displacement since the frame drawn before. */
	bool OutputsMotionVectors() const { return bMotionVectors; }

	/** Texture coordinate channels: 0 the material's UVs; with motion vectors 1 = (dx, dy) and 2 = (dz, 0), cm, local space. */
	static constexpr uint32 MotionTexCoordXY = 1;
	static constexpr uint32 MotionTexCoordZ = 2;

private:
	/** After a cloth's topology changed: the front-facing windings and UVs the library's normals read. */
	void PrepareClothTopology_RenderThread();
	/** Writes Mesh into the buffers: positions and tangents (bitangent signs from TangentSigns, +1 when empty), the UVs with bUVs, the indices (and UVs) with bTopology; grows them when needed. */
	void Upload_RenderThread(FRHICommandListImmediate& RHICmdList, bool bTopology, bool bUVs);
	void Allocate_RenderThread(FRHICommandListImmediate& RHICmdList, uint32 Vertices, uint32 Indices);
	void ReleaseBuffers();

	UMaterialInterface* Material = nullptr;
	FMaterialRelevance MaterialRelevance;
	FStaticMeshVertexBuffers VertexBuffers;
	FDynamicMeshIndexBuffer32 IndexBuffer;
	FLocalVertexFactory VertexFactory;
	uint32 VertexCapacity = 0;
	uint32 IndexCapacity = 0;
	uint32 NumVertices = 0;
	uint32 NumIndices = 0;
	uint32 TopologyUploads = 0;
	uint32 Allocations = 0;
	/** Texture coordinate channels per vertex: 1, or 3 with motion vectors. */
	uint32 NumTexCoords = 1;
	bool bMotionVectors = false;

	// Render-thread state.
	sinew::render::Mesh Mesh;
	sinew::render::RopeBuilder Rope;
	std::vector<sinew::Vec3> LocalPoints;
	std::shared_ptr<const sinew::render::ClothSource> ClothSource;
	// A cloth's normals and tangents (sinew::render::normals): Unreal's
	// front faces are clockwise, the library's counter-clockwise, so it reads each
	// triangle with two corners swapped. Normals over the keys (particles) are shared by
	// every render vertex of one particle (no crease at UV seams); tangents come from the
	// render vertices' own UVs.
	std::vector<uint32_t> FrontKeyTriangles;     // ClothSource->key_triangles, counter-clockwise
	std::vector<uint32_t> FrontTriangles;        // ClothSource->triangles, counter-clockwise
	std::vector<float> ClothUVs;                 // u, v per render vertex
	std::vector<sinew::Vec3> KeyNormals;         // per key
	std::vector<sinew::Vec3> VertexNormals;      // per render vertex (scratch of the tangent pass)
	std::vector<sinew::render::TangentW> Tangents;    // per render vertex
	std::vector<float> TangentSigns;             // per vertex of Mesh; empty = +1 (rope tubes)
	// Motion vectors: the local positions drawn the frame before (empty when that frame
	// drew nothing, or before the first frame); compared with Mesh.positions only when
	// the topology is unchanged.
	std::vector<sinew::Vec3> PreviousPositions;
};

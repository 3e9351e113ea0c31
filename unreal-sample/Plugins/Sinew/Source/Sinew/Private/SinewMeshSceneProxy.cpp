#include "SinewMeshSceneProxy.h"

#include "Components/MeshComponent.h"
#include "Materials/Material.h"
#include "Materials/MaterialRenderProxy.h"
#include "RHICommandList.h"
#include "SceneManagement.h"
#include "SinewModule.h"

FSinewMeshSceneProxy::FSinewMeshSceneProxy(const UMeshComponent* Component, bool bOutputMotionVectors)
	: FPrimitiveSceneProxy(Component)
	, MaterialRelevance(Component->GetMaterialRelevance(GetScene().GetFeatureLevel()))
	, VertexFactory(GetScene().GetFeatureLevel(), "FSinewMeshSceneProxy")
	, NumTexCoords(bOutputMotionVectors ? 3u : 1u)
	, bMotionVectors(bOutputMotionVectors)
{
	if (bMotionVectors)
	{
		// The vertices move every frame without the transform moving: the velocity pass
		// must draw this primitive every frame, and its material's World Position Offset
		// (the Previous Frame Switch) is what moves each vertex back to where it was.
		bAlwaysHasVelocity = true;
		bHasWorldPositionOffsetVelocity = true;
	}
	Material = Component->GetMaterial(0);
	if (!Material)
	{
		Material = UMaterial::GetDefaultMaterial(MD_Surface);
	}
}

FSinewMeshSceneProxy::~FSinewMeshSceneProxy()
{
	ReleaseBuffers();
}

void FSinewMeshSceneProxy::ReleaseBuffers()
{
	if (VertexCapacity == 0)
	{
		return;
	}
	VertexBuffers.PositionVertexBuffer.ReleaseResource();
	VertexBuffers.StaticMeshVertexBuffer.ReleaseResource();
	VertexBuffers.ColorVertexBuffer.ReleaseResource();
	IndexBuffer.ReleaseResource();
	VertexFactory.ReleaseResource();
	VertexCapacity = 0;
	IndexCapacity = 0;
}

SIZE_T FSinewMeshSceneProxy::GetTypeHash() const
{
	static size_t UniquePointer;
	return reinterpret_cast<size_t>(&UniquePointer);
}

void FSinewMeshSceneProxy::Allocate_RenderThread(FRHICommandListImmediate& RHICmdList, uint32 Vertices, uint32 Indices)
{
	ReleaseBuffers();
	VertexBuffers.PositionVertexBuffer.Init(Vertices);
	// Displacements need floats: UE stores UVs as half floats by default (11 significant
	// bits: a relative error up to 1/2048, and nothing below 6e-8 cm).
	VertexBuffers.StaticMeshVertexBuffer.SetUseFullPrecisionUVs(bMotionVectors);
	VertexBuffers.StaticMeshVertexBuffer.Init(Vertices, NumTexCoords);
	VertexBuffers.ColorVertexBuffer.InitFromSingleColor(FColor::White, Vertices);
	IndexBuffer.Indices.SetNumZeroed((int32)Indices);
	VertexBuffers.PositionVertexBuffer.InitResource(RHICmdList);
	VertexBuffers.StaticMeshVertexBuffer.InitResource(RHICmdList);
	VertexBuffers.ColorVertexBuffer.InitResource(RHICmdList);
	IndexBuffer.InitResource(RHICmdList);

	FLocalVertexFactory::FDataType Data;
	VertexBuffers.PositionVertexBuffer.BindPositionVertexBuffer(&VertexFactory, Data);
	VertexBuffers.StaticMeshVertexBuffer.BindTangentVertexBuffer(&VertexFactory, Data);
	VertexBuffers.StaticMeshVertexBuffer.BindPackedTexCoordVertexBuffer(&VertexFactory, Data);
	VertexBuffers.StaticMeshVertexBuffer.BindLightMapVertexBuffer(&VertexFactory, Data, 0);
	VertexBuffers.ColorVertexBuffer.BindColorVertexBuffer(&VertexFactory, Data);
	VertexFactory.SetData(RHICmdList, Data);
	VertexFactory.InitResource(RHICmdList);
	VertexCapacity = Vertices;
	IndexCapacity = Indices;
	++Allocations;
}

void FSinewMeshSceneProxy::Upload_RenderThread(FRHICommandListImmediate& RHICmdList, bool bTopology, bool bUVs)
{
	const uint32 Vertices = (uint32)Mesh.positions.size();
	const uint32 Indices = (uint32)Mesh.indices.size();
	if (Vertices == 0 || Indices == 0)
	{
		NumVertices = 0;
		NumIndices = 0;
		PreviousPositions.clear();
		return; // nothing to draw (a rope reeled in, all of it parked at the drum)
	}
	if (Vertices > VertexCapacity || Indices > IndexCapacity)
	{
		// Room for growth (a rope cut again, a cloth tearing further) without a new
		// allocation every frame; the new buffers get every attribute.
		Allocate_RenderThread(RHICmdList, FMath::Max(Vertices, VertexCapacity + VertexCapacity / 2), FMath::Max(Indices, IndexCapacity + IndexCapacity / 2));
		bTopology = true;
	}
	bUVs = bUVs || bTopology || bMotionVectors; // displacements change every frame
	// The frame before drew the same vertices (same topology, same count): each vertex's
	// displacement is where it was minus where it is; otherwise 0 (nothing to compare).
	const bool bDisplaced = bMotionVectors && !bTopology && PreviousPositions.size() == Vertices;
	FPositionVertexBuffer& Positions = VertexBuffers.PositionVertexBuffer;
	FStaticMeshVertexBuffer& Attributes = VertexBuffers.StaticMeshVertexBuffer;
	for (uint32 i = 0; i < Vertices; ++i)
	{
		const sinew::Vec3& P = Mesh.positions[i];
		const sinew::Vec3& N = Mesh.normals[i];
		const sinew::Vec3& T = Mesh.tangents[i];
		const float Sign = i < TangentSigns.size() ? TangentSigns[i] : 1.0f;
		const sinew::Vec3 B = sinew::vec::scale(sinew::vec::cross(N, T), Sign);
		Positions.VertexPosition(i) = FVector3f(P.x, P.y, P.z);
		Attributes.SetVertexTangents(i, FVector3f(T.x, T.y, T.z), FVector3f(B.x, B.y, B.z), FVector3f(N.x, N.y, N.z));
		if (bUVs)
		{
			Attributes.SetVertexUV(i, 0, FVector2f(Mesh.uvs[i].u, Mesh.uvs[i].v));
		}
		if (bMotionVectors)
		{
			const sinew::Vec3 D = bDisplaced ? sinew::vec::sub(PreviousPositions[i], P) : sinew::Vec3{0.0f, 0.0f, 0.0f};
			Attributes.SetVertexUV(i, MotionTexCoordXY, FVector2f(D.x, D.y));
			Attributes.SetVertexUV(i, MotionTexCoordZ, FVector2f(D.z, 0.0f));
		}
	}
	if (bMotionVectors)
	{
		PreviousPositions.assign(Mesh.positions.begin(), Mesh.positions.end());
	}
	auto Copy = [&RHICmdList](FRHIBuffer* Buffer, const void* Source, uint32 Bytes)
	{
		void* Target = RHICmdList.LockBuffer(Buffer, 0, Bytes, RLM_WriteOnly);
		FMemory::Memcpy(Target, Source, Bytes);
		RHICmdList.UnlockBuffer(Buffer);
	};
	Copy(Positions.VertexBufferRHI, Positions.GetVertexData(), Vertices * Positions.GetStride());
	Copy(Attributes.TangentsVertexBuffer.VertexBufferRHI, Attributes.GetTangentData(), Attributes.GetTangentSize());
	if (bUVs)
	{
		Copy(Attributes.TexCoordVertexBuffer.VertexBufferRHI, Attributes.GetTexCoordData(), Attributes.GetTexCoordSize());
	}
	if (bTopology)
	{
		FMemory::Memcpy(IndexBuffer.Indices.GetData(), Mesh.indices.data(), Indices * sizeof(uint32));
		Copy(IndexBuffer.IndexBufferRHI, IndexBuffer.Indices.GetData(), Indices * sizeof(uint32));
		++TopologyUploads;
	}
	NumVertices = Vertices;
	NumIndices = Indices;
}

void FSinewMeshSceneProxy::SetRopeData_RenderThread(FRHICommandListImmediate& RHICmdList, const std::shared_ptr<const FSinewRopeRenderData>& Data)
{
	if (!Data)
	{
		return;
	}
	sinew::render::transform(Data->SimToLocal, sinew::Span<const sinew::Vec3>(Data->SimPositions), LocalPoints);
	const sinew::Result<bool> Built = Rope.build(sinew::Span<const sinew::Vec3>(LocalPoints), Data->Pieces, Data->Tube, Mesh);
	if (!Built)
	{
		UE_LOG(LogSinew, Warning, TEXT("Rope render data refused: %s"), UTF8_TO_TCHAR(Built.error().message.c_str()));
		NumIndices = 0;
		PreviousPositions.clear();
		return;
	}
	// A rope's V coordinate is its arc length, which changes as it stretches: its UVs go up every frame.
	TangentSigns.clear(); // a tube's bitangent is cross(normal, tangent)
	Upload_RenderThread(RHICmdList, *Built, true);
}

void FSinewMeshSceneProxy::SetClothData_RenderThread(FRHICommandListImmediate& RHICmdList, const std::shared_ptr<const FSinewClothRenderData>& Data)
{
	if (!Data || !Data->Source)
	{
		return;
	}
	sinew::render::transform(Data->SimToLocal, sinew::Span<const sinew::Vec3>(Data->SimPositions), LocalPoints);
	const bool bTopology = Data->Source != ClothSource;
	ClothSource = Data->Source;
	if (bTopology)
	{
		PrepareClothTopology_RenderThread();
	}
	const sinew::render::ClothSource& Source = *ClothSource;
	const size_t Vertices = Source.vertex_key.size();
	sinew::Result<void> Built;
	if (LocalPoints.size() != Source.key_count)
	{
		Built = sinew::Error{sinew::Status::InvalidArgument, "cloth: " + std::to_string(LocalPoints.size()) + " positions for " + std::to_string(Source.key_count) + " keys"};
	}
	else
	{
		Mesh.positions.resize(Vertices);
		for (size_t v = 0; v < Vertices; ++v)
		{
			Mesh.positions[v] = LocalPoints[Source.vertex_key[v]];
		}
		KeyNormals.resize(LocalPoints.size());
		VertexNormals.resize(Vertices);
		Tangents.resize(Vertices);
		Built = sinew::render::normals(sinew::Span<const sinew::Vec3>(LocalPoints), sinew::Span<const uint32_t>(FrontKeyTriangles), {}, sinew::Span<sinew::Vec3>(KeyNormals), {});
		if (Built)
		{
			Built = sinew::render::normals(sinew::Span<const sinew::Vec3>(Mesh.positions), sinew::Span<const uint32_t>(FrontTriangles), sinew::Span<const float>(ClothUVs), sinew::Span<sinew::Vec3>(VertexNormals), sinew::Span<sinew::render::TangentW>(Tangents));
		}
	}
	if (!Built)
	{
		UE_LOG(LogSinew, Warning, TEXT("Cloth render data refused: %s"), UTF8_TO_TCHAR(Built.error().message.c_str()));
		ClothSource.reset();
		NumIndices = 0;
		PreviousPositions.clear();
		return;
	}
	Mesh.normals.resize(Vertices);
	Mesh.tangents.resize(Vertices);
	TangentSigns.resize(Vertices);
	for (size_t v = 0; v < Vertices; ++v)
	{
		const sinew::render::TangentW& T = Tangents[v];
		Mesh.normals[v] = KeyNormals[Source.vertex_key[v]];
		Mesh.tangents[v] = sinew::Vec3{T.x, T.y, T.z};
		TangentSigns[v] = T.w;
	}
	if (bTopology)
	{
		Mesh.indices = Source.triangles;
		Mesh.uvs = Source.uvs;
	}
	Upload_RenderThread(RHICmdList, bTopology, false); // a cloth's UVs are its source's: they change with the topology only (motion vectors go up every frame)
}

void FSinewMeshSceneProxy::PrepareClothTopology_RenderThread()
{
	const sinew::render::ClothSource& Source = *ClothSource;
	auto Front = [](const std::vector<uint32_t>& Clockwise, std::vector<uint32_t>& Out)
	{
		Out.resize(Clockwise.size());
		for (size_t t = 0; t + 2 < Clockwise.size(); t += 3)
		{
			Out[t] = Clockwise[t];
			Out[t + 1] = Clockwise[t + 2];
			Out[t + 2] = Clockwise[t + 1];
		}
	};
	Front(Source.key_triangles, FrontKeyTriangles);
	Front(Source.triangles, FrontTriangles);
	ClothUVs.resize(2 * Source.uvs.size());
	for (size_t v = 0; v < Source.uvs.size(); ++v)
	{
		ClothUVs[2 * v] = Source.uvs[v].u;
		ClothUVs[2 * v + 1] = Source.uvs[v].v;
	}
}

void FSinewMeshSceneProxy::GetDynamicMeshElements(const TArray<const FSceneView*>& Views, const FSceneViewFamily& ViewFamily, uint32 VisibilityMap, FMeshElementCollector& Collector) const
{
	if (NumIndices == 0 || !Material)
	{
		return;
	}
	const bool bWireframe = AllowDebugViewmodes() && ViewFamily.EngineShowFlags.Wireframe;
	for (int32 ViewIndex = 0; ViewIndex < Views.Num(); ++ViewIndex)
	{
		if ((VisibilityMap & (1u << ViewIndex)) == 0)
		{
			continue;
		}
		FMeshBatch& Batch = Collector.AllocateMesh();
		FMeshBatchElement& Element = Batch.Elements[0];
		Element.IndexBuffer = &IndexBuffer;
		Element.PrimitiveUniformBuffer = GetUniformBuffer();
		Element.FirstIndex = 0;
		Element.NumPrimitives = NumIndices / 3;
		Element.MinVertexIndex = 0;
		Element.MaxVertexIndex = NumVertices - 1;
		Batch.bWireframe = bWireframe;
		Batch.VertexFactory = &VertexFactory;
		Batch.MaterialRenderProxy = Material->GetRenderProxy();
		Batch.ReverseCulling = IsLocalToWorldDeterminantNegative();
		Batch.Type = PT_TriangleList;
		Batch.DepthPriorityGroup = SDPG_World;
		Batch.bCanApplyViewModeOverrides = false;
		Collector.AddMesh(ViewIndex, Batch);
	}
}

FPrimitiveViewRelevance FSinewMeshSceneProxy::GetViewRelevance(const FSceneView* View) const
{
	FPrimitiveViewRelevance Result;
	Result.bDrawRelevance = IsShown(View);
	Result.bShadowRelevance = IsShadowCast(View);
	Result.bDynamicRelevance = true; // drawn through GetDynamicMeshElements every frame
	Result.bRenderInMainPass = ShouldRenderInMainPass();
	MaterialRelevance.SetPrimitiveViewRelevance(Result);
	// Velocity as UE's own proxies draw it (opaque, in the main pass), with motion vectors
	// only: the vertices are local positions of particles that live in simulation space,
	// so the component's transform alone (all a proxy without them could report) moves
	// with them only where they are attached, and would give wrong motion elsewhere.
	Result.bVelocityRelevance = bMotionVectors && DrawsVelocity() && Result.bOpaque && Result.bRenderInMainPass;
	return Result;
}

bool FSinewMeshSceneProxy::CanBeOccluded() const
{
	return !MaterialRelevance.bDisableDepthTest;
}

uint32 FSinewMeshSceneProxy::GetMemoryFootprint() const
{
	return (uint32)(sizeof(*this) + GetAllocatedSize());
}

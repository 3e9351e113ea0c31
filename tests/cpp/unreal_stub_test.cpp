// The Unreal plugin's rope component, world subsystem, editor preview and scene proxy,
// compiled by g++ against the stand-in engine of tests/cpp/ue_stub (no Unreal on CI)
// and run: ropes edited from "Blueprint" (their setters, the details panel hook, Cut,
// CutAlong) change in place, a link that breaks fires OnRopeBroken, the scene proxy
// draws one tube per piece from the vertex buffers it uploads (the tube's vertices on
// circles of the rope's radius around the particles, the index buffer written only
// when the pieces change), the bounds hold every particle, a rope in another component
// continues bit for bit as it does alone, a cloth's proxy draws its particles (pins in
// place, unit normals, the index buffer written again only when it tears), and an
// editor world previews a rope, and a collider with bContactEvents broadcasts its
// contact delegates with the rope component that touches it, and a landscape collider
// holds a rope up where the (stand-in) landscape has ground and not over its hole.
// Built and run by tests/bindings/cpp_wrapper.rs (`unreal_components_on_a_stub_engine`).

#include "../../unreal-sample/Plugins/Sinew/Source/Sinew/Private/SinewWorldSubsystem.cpp"
#include "../../unreal-sample/Plugins/Sinew/Source/Sinew/Private/SinewRopeComponent.cpp"
#include "../../unreal-sample/Plugins/Sinew/Source/Sinew/Private/SinewMeshSceneProxy.cpp"
#include "../../unreal-sample/Plugins/Sinew/Source/Sinew/Private/SinewClothComponent.cpp"
#include "../../unreal-sample/Plugins/Sinew/Source/Sinew/Private/SinewSkinnedClothComponent.cpp"
#include "../../unreal-sample/Plugins/Sinew/Source/Sinew/Private/SinewEditorPreview.cpp"
#include "../../unreal-sample/Plugins/Sinew/Source/Sinew/Private/SinewTaskGraph.cpp"
#include "../../unreal-sample/Plugins/Sinew/Source/Sinew/Private/SinewProfiling.cpp"
#include "../../unreal-sample/Plugins/Sinew/Source/Sinew/Private/SinewColliderComponent.cpp"
#include "../../unreal-sample/Plugins/Sinew/Source/Sinew/Private/SinewLandscapeColliderComponent.cpp"

#include <cstdio>
#include <cstring>
#include <memory>

#include "unreal_test_game.h"

namespace {
const FSinewMeshSceneProxy* ProxyOf(const UPrimitiveComponent& C) {
    return static_cast<const FSinewMeshSceneProxy*>(C.SceneProxy);
}

/// The vertex positions the proxy uploaded to its GPU buffer (local space, cm).
std::vector<FVector3f> Uploaded(const FSinewMeshSceneProxy& Proxy) {
    const FRHIBuffer* Buffer = Proxy.GetVertexBuffers().PositionVertexBuffer.VertexBufferRHI;
    std::vector<FVector3f> Out(Proxy.GetNumVertices());
    if (Buffer && Buffer->Bytes.size() >= Out.size() * sizeof(FVector3f))
        std::memcpy(Out.data(), Buffer->Bytes.data(), Out.size() * sizeof(FVector3f));
    return Out;
}

/// A 1 m rope of 10 links hanging from `Top` (cm) along `End` (cm, relative), its end free.
std::unique_ptr<USinewRopeComponent> MakeRope(Game& G, FVector Top, FVector End, float Mass, bool Tethers) {
    auto Rope = std::make_unique<USinewRopeComponent>(FObjectInitializer());
    Rope->World = &G.World;
    Rope->Transform = FTransform(Top);
    Rope->EndLocation = End;
    Rope->bAttachEnd = false;
    Rope->RopeLength = 100.0f;
    Rope->NumSegments = 10;
    Rope->Mass = Mass;
    Rope->bTethers = Tethers;
    Rope->Compliance = 1e-5f;
    Rope->RegisterComponent(); // render state: the scene proxy
    G.Primitives.push_back(Rope.get());
    return Rope;
}

bool Same(const TArray<FVector>& A, const TArray<FVector>& B) {
    if (A.Num() != B.Num()) return false;
    for (int32 i = 0; i < A.Num(); ++i)
        if (A[i].X != B[i].X || A[i].Y != B[i].Y || A[i].Z != B[i].Z) return false;
    return true;
}
} // namespace

int main() {
    Game Alone, Shared;
    // The same swinging rope in both games; the shared game also has a rope that is
    // winched and cut and one that snaps, 10 m and 20 m away.
    auto Swing = MakeRope(Alone, FVector(0, 0, 300), FVector(100, 0, 0), 1.0f, true);
    auto Crane = MakeRope(Shared, FVector(1000, 0, 300), FVector(0, 0, -100), 1.0f, true);
    auto Snap = MakeRope(Shared, FVector(2000, 0, 300), FVector(0, 0, -100), 1.1f, false);
    auto Beside = MakeRope(Shared, FVector(0, 0, 300), FVector(100, 0, 0), 1.0f, true);
    Swing->BeginPlay();
    Crane->BeginPlay();
    Snap->BeginPlay();
    Beside->BeginPlay();
    check(Swing->IsSimulating() && Crane->IsSimulating() && Snap->IsSimulating() && Beside->IsSimulating(),
          "every rope joined its world's simulation");
    check(Shared.Sub.GetBodyCount() == 3 && Alone.Sub.GetBodyCount() == 1, "body counts");
    check(std::fabs(Crane->GetCurrentLength() - 100.0f) < 0.1f, "the winch starts at the built length");

    struct Heard {
        USinewRopeComponent* Rope;
        int32 Link;
        FVector Location;
        float Force;
    };
    std::vector<Heard> Breaks;
    Snap->OnRopeBroken.AddLambda([&](USinewRopeComponent* R, int32 Link, FVector At, float Force) {
        Breaks.push_back({R, Link, At, Force});
    });
    Crane->OnRopeBroken.AddLambda([&](USinewRopeComponent* R, int32 Link, FVector At, float Force) {
        Breaks.push_back({R, Link, At, Force});
    });
    Alone.Frames(20);
    Shared.Frames(20);

    // Edits from Blueprint while the game runs.
    Crane->SetWinchSpeed(100.0f); // cm/s
    Crane->SetLength(50.0f);      // cm: 0.5 s
    Crane->SetCompliance(1e-6f);
    Crane->BendCompliance = 0.02f; // a details-panel edit
    FPropertyChangedEvent Edit{FName("BendCompliance")};
    Crane->PostEditChangeProperty(Edit);
    // Link k of the snapping rope holds its 10 - k lowest particles (0.11 kg each,
    // 10.8 N on the top link, 9.7 N on the next): 10.2 N breaks the top link only.
    Snap->SetBreakForce(10.2f);
    const int LogsBefore = GStubLogCount();
    Alone.Frames(40);
    Shared.Frames(40);
    check(std::fabs(Crane->GetCurrentLength() - 50.0f) < 0.01f, "the winch reeled the rope in to 50 cm");
    check(Breaks.size() == 1, "one link broke");
    if (!Breaks.empty()) {
        check(Breaks[0].Rope == Snap.get() && Breaks[0].Link == 0, "OnRopeBroken: the snapping rope's top link");
        check(Breaks[0].Force > 10.2f && Breaks[0].Force < 12.0f, "OnRopeBroken: the force just past the break force");
        check(std::fabs(Breaks[0].Location.X - 2000.0) < 1.0 && Breaks[0].Location.Z < 300.0 &&
                  Breaks[0].Location.Z > 290.0,
              "OnRopeBroken: world location (cm) at the top link");
    }
    check(Snap->IsLinkBroken(0) && !Snap->IsLinkBroken(1), "the component knows which link broke");
    // 6 sides: rings of 7 vertices, 2 triangles per side and link.
    check(ProxyOf(*Snap)->GetNumVertices() == 10 * 7 && ProxyOf(*Snap)->GetNumIndices() == 9 * 6 * 6,
          "the snapped rope draws its falling piece (the pin alone is left out)");
    const uint32 CraneLinksDrawn = ProxyOf(*Crane)->GetNumIndices() / 36;
    check(CraneLinksDrawn >= 4 && CraneLinksDrawn <= 6 && ProxyOf(*Crane)->GetNumVertices() == (CraneLinksDrawn + 1) * 7,
          "the winched rope is one tube, without the links parked at the drum");

    // Cuts: by link and by a swipe.
    check(!Crane->Cut(10) && !Crane->Cut(-1), "cuts out of range refused");
    check(Crane->Cut(8), "cut link 8");
    check(!Crane->Cut(8), "a cut link cannot be cut again");
    Shared.Frames(1);
    Alone.Frames(1);
    check(ProxyOf(*Crane)->GetNumIndices() == (CraneLinksDrawn - 1) * 36 &&
              ProxyOf(*Crane)->GetNumVertices() == (CraneLinksDrawn + 1) * 7,
          "the cut rope draws two tubes (one link fewer, as many rings)");
    const int32 Swiped = Crane->CutAlong(FVector(900, 0, 285), FVector(1100, 0, 285));
    check(Swiped >= 5 && Swiped <= 7 && Crane->IsLinkBroken(Swiped), "a swipe 15 cm under the drum cuts an active link");
    Shared.Frames(30);
    Alone.Frames(30);
    check(Breaks.size() == 1, "cuts fire no OnRopeBroken");
    check(GStubLogCount() == LogsBefore, "nothing was logged (no call failed)");
    check(GStubRHICmdList().BadLocks == 0 && GStubRHICmdList().Locks > 0,
          "every buffer lock was of an existing, unlocked buffer and within its size");
    check(ProxyOf(*Swing)->GetTopologyUploads() == 1 && ProxyOf(*Swing)->GetAllocations() == 1,
          "a swinging rope wrote its index buffer once and never re-created its buffers");
    check(ProxyOf(*Snap)->GetTopologyUploads() == 2, "the snapped rope wrote its indices again once, when it broke");

    TArray<FVector> A, B;
    Swing->GetParticleLocations(A);
    Beside->GetParticleLocations(B);
    check(A.Num() == 11 && A[10].Z < 250.0, "the rope swings down from horizontal");
    check(Same(A, B), "the rope beside the edited ones continues bit for bit as it does alone");

    // What the proxy draws: a tube of radius Width / 2 = 1 cm around the particles as
    // drawn (interpolated between the last two steps with the subsystem's alpha), in the
    // component's space (the rope hangs from (0, 0, 300) cm).
    {
        TArray<FVector> Drawn;
        {
            // A (from GetParticleLocations) moved by the interpolation's offset.
            std::vector<sinew::Vec3> Sim(11), Now(11);
            sinew::Scene& Scene = *Alone.Sub.GetScene();
            check((bool)Scene.read_interpolated_positions(Swing->GetSinewBody(), Alone.Sub.GetInterpolationAlpha(),
                                                          sinew::Span<sinew::Vec3>(Sim)) &&
                      (bool)Scene.read_positions(Swing->GetSinewBody(), sinew::Span<sinew::Vec3>(Now)),
                  "the drawn positions read back");
            for (int32 i = 0; i < 11; ++i)
                Drawn.Add(A[i] + SinewUE::FromSim(Alone.Sub.GetFrame(), Sim[(std::size_t)i]) -
                          SinewUE::FromSim(Alone.Sub.GetFrame(), Now[(std::size_t)i]));
        }
        const std::vector<FVector3f> Vertices = Uploaded(*ProxyOf(*Swing));
        bool OnCircles = Vertices.size() == 11 * 7;
        for (std::size_t v = 0; OnCircles && v < Vertices.size(); ++v) {
            const FVector& P = Drawn[(int32)(v / 7)];
            const double dx = Vertices[v].X - P.X, dy = Vertices[v].Y - P.Y, dz = Vertices[v].Z - (P.Z - 300.0);
            OnCircles = std::fabs(std::sqrt(dx * dx + dy * dy + dz * dz) - 1.0) < 1e-3;
        }
        check(OnCircles, "the uploaded tube's vertices lie 1 cm (Width / 2) from their particles, in local space");
        double Arc = 0.0;
        for (int32 i = 1; i < Drawn.Num(); ++i) {
            const double dx = Drawn[i].X - Drawn[i - 1].X, dy = Drawn[i].Y - Drawn[i - 1].Y, dz = Drawn[i].Z - Drawn[i - 1].Z;
            Arc += std::sqrt(dx * dx + dy * dy + dz * dz);
        }
        const FVector2f EndUV = ProxyOf(*Swing)->GetVertexBuffers().StaticMeshVertexBuffer.GetVertexUV(11 * 7 - 1, 0);
        check(std::fabs(EndUV.Y - Arc / 100.0) < 1e-4,
              "the uploaded V at the rope's end is this frame's arc length over RopeLength (TileMaterial 1)");
        FSceneViewFamily Family;
        FSceneView View;
        TArray<const FSceneView*> Views;
        Views.Add(&View);
        FMeshElementCollector Collector;
        ProxyOf(*Swing)->GetDynamicMeshElements(Views, Family, 1u, Collector);
        check(Collector.Added.size() == 1 && Collector.Added[0].second->Elements[0].NumPrimitives == 10 * 6 * 2 &&
                  Collector.Added[0].second->Elements[0].MaxVertexIndex == 11 * 7 - 1 &&
                  Collector.Added[0].second->VertexFactory != nullptr,
              "GetDynamicMeshElements draws the whole tube with the proxy's vertex factory");
        check(ProxyOf(*Swing)->GetViewRelevance(&View).bDynamicRelevance, "the proxy is dynamic-relevant");
        const FBox Box = Swing->Bounds.GetBox();
        bool Inside = true;
        for (const FVector& P : Drawn)
            Inside = Inside && P.X - 1.0 >= Box.Min.X - 1e-3 && P.X + 1.0 <= Box.Max.X + 1e-3 && P.Z - 1.0 >= Box.Min.Z - 1e-3 &&
                     P.Z + 1.0 <= Box.Max.Z + 1e-3 && P.Y - 1.0 >= Box.Min.Y - 1e-3 && P.Y + 1.0 <= Box.Max.Y + 1e-3;
        check(Inside && Swing->RenderTransformUpdates > 0, "the bounds hold every particle plus the tube's radius");
    }

    // Another component ends play: its body goes, the others continue untouched.
    Crane->EndPlay(EEndPlayReason::Destroyed);
    check(!Crane->IsSimulating() && Shared.Sub.GetBodyCount() == 2, "the ended rope left the simulation");
    Alone.Frames(30);
    Shared.Frames(30);
    Swing->GetParticleLocations(A);
    Beside->GetParticleLocations(B);
    check(Same(A, B), "still bit for bit after another rope ended play");
    Snap->EndPlay(EEndPlayReason::Destroyed);
    Beside->EndPlay(EEndPlayReason::Destroyed);
    Swing->EndPlay(EEndPlayReason::Destroyed);

    // A cloth: an 80 cm square of 9 x 9 vertices hanging in the XZ plane from its top
    // row, drawn by its proxy from the positions of its particles.
    {
        Game Cloths;
        UStaticMesh Sheet;
        for (int j = 0; j < 9; ++j)
            for (int i = 0; i < 9; ++i) {
                Sheet.StubVertices.Add(FVector(10.0 * i, 0, 10.0 * j));
                Sheet.StubUVs.Add(FVector2D(i / 8.0, j / 8.0));
            }
        for (int j = 0; j < 8; ++j)
            for (int i = 0; i < 8; ++i) {
                const int32 a = j * 9 + i, b = a + 1, c = a + 9, d = a + 10;
                for (int32 v : {a, b, d, a, d, c}) Sheet.StubTriangles.Add(v);
            }
        auto MakeCloth = [&](float Threshold, double X) {
            auto C = std::make_unique<USinewClothComponent>(FObjectInitializer());
            C->World = &Cloths.World;
            C->Transform = FTransform(FVector(X, 500, 100));
            C->SourceMesh = &Sheet;
            C->TearThreshold = Threshold;
            C->RegisterComponent();
            Cloths.Primitives.push_back(C.get());
            C->BeginPlay();
            return C;
        };
        auto Cloth = MakeCloth(0.0f, 0.0);
        auto Tearing = MakeCloth(1.2f, 300.0);
        Cloths.Frames(60);
        const FSinewMeshSceneProxy& Proxy = *ProxyOf(*Cloth);
        check(Cloth->IsSimulating() && Proxy.GetNumVertices() == 81 && Proxy.GetNumIndices() == 8 * 8 * 6,
              "the cloth's proxy draws every source vertex and triangle");
        const std::vector<FVector3f> Vertices = Uploaded(Proxy);
        bool PinsStay = true;
        for (int i = 0; i < 9; ++i) {
            const FVector3f& V = Vertices[(std::size_t)(72 + i)];
            PinsStay = PinsStay && std::fabs(V.X - 10.0f * i) < 1e-3f && std::fabs(V.Y) < 1e-3f && std::fabs(V.Z - 80.0f) < 1e-3f;
        }
        check(PinsStay, "the pinned top row is drawn where the source mesh has it (local space)");
        bool Frames = true;
        const FStaticMeshVertexBuffer& Attributes = Proxy.GetVertexBuffers().StaticMeshVertexBuffer;
        for (uint32 v = 0; v < 81; ++v) {
            const FVector4f N = Attributes.VertexTangentZ(v), T = Attributes.VertexTangentX(v);
            Frames = Frames && std::fabs(N.X * N.X + N.Y * N.Y + N.Z * N.Z - 1.0f) < 1e-4f &&
                     std::fabs(N.X * T.X + N.Y * T.Y + N.Z * T.Z) < 1e-4f && std::fabs(N.Y) > 0.99f;
        }
        check(Frames, "a hanging sheet: unit normals across its plane, tangents perpendicular to them");
        // The normals come from the library (sinew_render_normals over the particles,
        // Unreal's clockwise front faces): the area-weighted rule of the wrapper's own
        // sinew::cloth::normals, to float rounding. The tangents follow +U (+X here) and
        // the bitangents, cross(normal, tangent) times the stored sign, +V (+Z).
        {
            std::vector<sinew::Vec3> Drawn, Expected;
            for (const FVector3f& P : Vertices) Drawn.push_back(sinew::Vec3{P.X, P.Y, P.Z});
            std::vector<uint32_t> Triangles(Sheet.StubTriangles.begin(), Sheet.StubTriangles.end());
            sinew::cloth::normals(sinew::Span<const sinew::Vec3>(Drawn), sinew::Span<const uint32_t>(Triangles),
                                  sinew::tube::FrontFace::Clockwise, Expected);
            bool Library = Expected.size() == 81;
            bool Basis = true;
            for (uint32 v = 0; Library && v < 81; ++v) {
                const FVector4f N = Attributes.VertexTangentZ(v), T = Attributes.VertexTangentX(v);
                const FVector3f B = Attributes.VertexTangentY(v);
                const sinew::Vec3 E = Expected[v];
                Library = std::fabs(N.X - E.x) < 1e-5f && std::fabs(N.Y - E.y) < 1e-5f && std::fabs(N.Z - E.z) < 1e-5f;
                Basis = Basis && T.X > 0.99f && B.Z > 0.99f;
            }
            check(Library, "cloth normals from the library match the wrapper's area-weighted rule (1e-5)");
            check(Basis, "cloth tangents along +U, bitangents along +V (the library's signs)");
        }
        check(std::fabs(Attributes.GetVertexUV(80, 0).X - 1.0f) < 1e-6f, "the source's UVs are uploaded");
        check(Proxy.GetTopologyUploads() == 1, "an untorn cloth writes its index buffer once");
        check(Tearing->GetTopologyVersion() == 0 && ProxyOf(*Tearing)->GetTopologyUploads() == 1,
              "the tearing cloth hangs untorn under its own weight");
        // Pull the tearing cloth's bottom corner 2 m down: edges pass 1.2 x their rest length.
        check(Tearing->GrabParticle(0), "grab the tearing cloth's bottom corner");
        Tearing->SetGrabLocation(FVector(300, 500, -100));
        Cloths.Frames(60);
        const FSinewMeshSceneProxy& Torn = *ProxyOf(*Tearing);
        std::printf("the pulled cloth: topology version %lld, %u index uploads, %u vertices\n",
                    (long long)Tearing->GetTopologyVersion(), Torn.GetTopologyUploads(), Torn.GetNumVertices());
        check(Tearing->GetTopologyVersion() > 0 && Torn.GetTopologyUploads() >= 2 && Torn.GetNumVertices() > 81,
              "a tear: new vertices, the index buffer written again");
        check(Torn.GetTopologyUploads() <= (uint32)Tearing->GetTopologyVersion() + 1,
              "the index buffer is written only when the topology version changes");
        check(GStubRHICmdList().BadLocks == 0, "the cloths' buffer locks were all valid");
        Cloth->EndPlay(EEndPlayReason::Destroyed);
        Tearing->EndPlay(EEndPlayReason::Destroyed);
    }

    // Character cloth: a skeletal mesh's section (the same sheet, in its reference pose)
    // simulated on its skinned targets and drawn by the proxy instead of the skeletal mesh.
    {
        Game Character;
        FSkeletalMeshRenderData RenderData;
        FSkeletalMeshLODRenderData LOD;
        FSkelMeshRenderSection Section;
        Section.NumTriangles = 128;
        Section.NumVertices = 81;
        LOD.RenderSections.Add(Section);
        USkeletalMeshComponent Skeletal;
        for (int j = 0; j < 9; ++j)
            for (int i = 0; i < 9; ++i) {
                FFinalSkinVertex V;
                V.Position = FVector3f(10.0f * i, 0.0f, 10.0f * j);
                Skeletal.Skinned.Add(V);
            }
        for (int j = 0; j < 8; ++j)
            for (int i = 0; i < 8; ++i) {
                const uint32 a = (uint32)(j * 9 + i), b = a + 1, c = a + 9, d = a + 10;
                for (uint32 v : {a, b, d, a, d, c}) LOD.MultiSizeIndexContainer.Indices.Add(v);
            }
        LOD.StaticVertexBuffers.StaticMeshVertexBuffer.Init(81, 1);
        LOD.StaticVertexBuffers.StaticMeshVertexBuffer.SetVertexUV(80, 0, FVector2f(1.0f, 1.0f));
        LOD.StaticVertexBuffers.ColorVertexBuffer.InitFromSingleColor(FColor::White, 81);
        RenderData.LODRenderData.Add(LOD);
        Skeletal.RenderData = &RenderData;
        Skeletal.Transform = FTransform(FVector(0, -500, 100));
        auto Cape = std::make_unique<USinewSkinnedClothComponent>(FObjectInitializer());
        Cape->World = &Character.World;
        Cape->AttachParent = &Skeletal;
        Cape->Transform = Skeletal.Transform;
        Cape->bUseSceneWind = false;
        Cape->RegisterComponent();
        Character.Primitives.push_back(Cape.get());
        Cape->BeginPlay();
        Character.Frames(30);
        const FSinewMeshSceneProxy* CapeProxy = ProxyOf(*Cape);
        check(Character.Sub.GetBodyCount() == 1 && CapeProxy->GetNumVertices() == 81 && CapeProxy->GetNumIndices() == 8 * 8 * 6 &&
                  Skeletal.HiddenSection == 0,
              "character cloth: the proxy draws the section the skeletal mesh no longer draws");
        check(std::fabs(CapeProxy->GetVertexBuffers().StaticMeshVertexBuffer.GetVertexUV(80, 0).X - 1.0f) < 1e-6f,
              "character cloth: the section's UVs are uploaded");
        const std::vector<FVector3f> CapeVertices = Uploaded(*CapeProxy);
        bool Near = CapeVertices.size() == 81;
        for (std::size_t v = 0; Near && v < CapeVertices.size(); ++v) {
            const FVector3f& Target = Skeletal.Skinned[(int32)v].Position;
            const double dx = CapeVertices[v].X - Target.X, dy = CapeVertices[v].Y - Target.Y, dz = CapeVertices[v].Z - Target.Z;
            Near = std::sqrt(dx * dx + dy * dy + dz * dz) <= 30.0 + 1e-3; // MaxDistance with a white colour channel
        }
        check(Near, "character cloth: every drawn vertex within MaxDistance of its skinned position");
        Cape->EndPlay(EEndPlayReason::Destroyed);
    }

    // The editor preview: in an editor world a rope with bPreviewInEditor joins when it
    // is registered (no BeginPlay there), swings in the realtime viewport's tick
    // (LEVELTICK_ViewportsOnly) and leaves when it is unregistered; without it, it waits.
    {
        Game Editor(EWorldType::Editor);
        auto Preview = std::make_unique<USinewRopeComponent>(FObjectInitializer());
        Preview->World = &Editor.World;
        Preview->Transform = FTransform(FVector(0, 0, 300));
        Preview->bAttachEnd = false;
        auto Still = std::make_unique<USinewRopeComponent>(FObjectInitializer());
        Still->World = &Editor.World;
        Still->bPreviewInEditor = false;
        const int TicksBefore = FTickFunction::GStubTickRegistrations();
        Preview->RegisterComponent();
        Still->RegisterComponent();
        check(FTickFunction::GStubTickRegistrations() == TicksBefore + 1, "the editor world's tick was registered once");
        FSinewWorldTickFunction ViewportTick; // what the editor runs: the subsystem's tick in realtime viewports
        ViewportTick.Subsystem = &Editor.Sub;
        Editor.Primitives = {Preview.get(), Still.get()};
        check(Preview->IsSimulating() && !Still->IsSimulating() && Editor.Sub.GetBodyCount() == 1,
              "editor world: the previewed rope joined at registration, the other did not");
        check(Editor.Sub.IsEditorPreview() && !Shared.Sub.IsEditorPreview(), "only the editor world previews");
        TArray<FVector> Before, After;
        Preview->GetParticleLocations(Before);
        for (int i = 0; i < 30; ++i) {
            ViewportTick.ExecuteTick(1.0f / 60.0f, LEVELTICK_ViewportsOnly, ENamedThreads::GameThread, FGraphEventRef());
            Editor.EndOfFrame();
        }
        Preview->GetParticleLocations(After);
        check(After.Num() == 11 && After[10].Z < Before[10].Z - 10.0, "the previewed rope swings in the viewport's tick");
        check(ProxyOf(*Preview)->GetNumVertices() == 11 * 7, "and draws through its proxy");
        Preview->UnregisterComponent();
        check(!Preview->IsSimulating() && Editor.Sub.GetBodyCount() == 0, "unregistering ends the preview (its body goes)");
        Still->UnregisterComponent();
    }
    // USinewSettings::bUseTaskGraph: the world's passes on FSinewTaskGraphTaskSystem
    // (ParallelFor; the stub's runs serially) step a large cloth to the same bits as one
    // thread, and a game with the setting on runs its rope as the game without.
    {
        auto Cloth = [](uint32 Threads) {
            sinew::World W = sinew::World::create(sinew::WorldDesc().with_substeps(10).with_threads(Threads)).value();
            sinew::ClothGridDesc Grid;
            Grid.with_segments(127, 127).with_pinned_corners(3);
            (void)W.add_cloth_grid(sinew::ClothDesc(), Grid).value();
            return W;
        };
        sinew::World One = Cloth(1), OnGraph = Cloth(1);
        check(FSinewTaskGraphTaskSystem::WorkerCount() == 4, "task graph: 3 workers + the calling thread");
        check((bool)OnGraph.set_task_system(FSinewTaskGraphTaskSystem::Get()), "task graph: installed");
        bool SameBits = true;
        for (int F = 0; F < 3; ++F) {
            (void)One.step(1.0f / 60.0f).value();
            (void)OnGraph.step(1.0f / 60.0f).value();
            SameBits = SameBits && One.state_hash().value() == OnGraph.state_hash().value();
        }
        check(SameBits, "task graph: a 128 x 128 cloth steps to the same state hashes as one thread");

        USinewSettings* Settings = const_cast<USinewSettings*>(GetDefault<USinewSettings>());
        Game Plain, Graph;
        auto R1 = MakeRope(Plain, FVector(0, 0, 300), FVector(100, 0, 0), 1.0f, true);
        auto R2 = MakeRope(Graph, FVector(0, 0, 300), FVector(100, 0, 0), 1.0f, true);
        const int LogsBeforeGraph = GStubLogCount();
        R1->BeginPlay(); // Plain's scene is made now, with the setting off
        Settings->bUseTaskGraph = true;
        R2->BeginPlay(); // Graph's scene, with the setting on
        Settings->bUseTaskGraph = false;
        Plain.Frames(30);
        Graph.Frames(30);
        R1->GetParticleLocations(A);
        R2->GetParticleLocations(B);
        check(GStubLogCount() == LogsBeforeGraph && Same(A, B),
              "task graph: bUseTaskGraph installs without a warning, the rope moves bit for bit as without");
        R1->EndPlay(EEndPlayReason::Destroyed);
        R2->EndPlay(EEndPlayReason::Destroyed);
    }
    {
        // Level of detail: a rope far from the only view runs reduced, one not rendered
        // is paused (it does not move), and back near and rendered it runs at full rate.
        Game G;
        auto Far = MakeRope(G, FVector(0, 0, 300), FVector(100, 0, 0), 1.0f, true);
        Far->Lod.bEnabled = true;
        Far->BeginPlay();
        G.World.ViewLocationsRenderedLastFrame.Add(FVector(5000, 0, 0));
        G.Frames(2);
        sinew::Scene* Scene = G.Sub.GetScene();
        auto Mode = Scene->sim_mode(G.Sub.GetSinewBodyOf(Far.get()));
        check(Mode && Mode.value().mode == SINEW_SIM_REDUCED && Mode.value().every == 4,
              "level of detail: 50 m away the rope runs at a quarter of the substeps");
        Far->bRenderedForStub = false;
        G.Frames(1);
        TArray<FVector> Before, After;
        Far->GetParticleLocations(Before);
        G.Frames(10);
        Far->GetParticleLocations(After);
        Mode = Scene->sim_mode(G.Sub.GetSinewBodyOf(Far.get()));
        check(Mode && Mode.value().mode == SINEW_SIM_PAUSED && Same(Before, After),
              "level of detail: a rope not rendered is paused and does not move");
        Far->bRenderedForStub = true;
        G.World.ViewLocationsRenderedLastFrame[0] = FVector(100, 0, 0);
        G.Frames(10);
        Far->GetParticleLocations(After);
        Mode = Scene->sim_mode(G.Sub.GetSinewBodyOf(Far.get()));
        check(Mode && Mode.value().mode == SINEW_SIM_FULL && !Same(Before, After),
              "level of detail: near and rendered the rope runs at full rate again");
        Far->EndPlay(EEndPlayReason::Destroyed);
    }
    {
        // A floor plane 1 m up; a rope hanging from 1.5 m along +X swings down onto it.
        Game G;
        auto Floor = std::make_unique<USinewColliderComponent>(FObjectInitializer());
        Floor->World = &G.World;
        Floor->Transform = FTransform(FVector(0, 0, 100));
        Floor->bMirrorParentShape = false;
        Floor->Shape = ESinewColliderShape::Plane;
        Floor->bContactEvents = true;
        auto Hanging = MakeRope(G, FVector(0, 0, 150), FVector(100, 0, 0), 1.0f, true);
        Floor->BeginPlay();
        Hanging->BeginPlay();
        struct Hit {
            int Kind;
            USinewColliderComponent* Collider;
            USceneComponent* Body;
            FVector Location, Normal;
            float Impulse;
        };
        std::vector<Hit> Hits;
        Floor->OnSinewContactBegin.AddLambda([&](USinewColliderComponent* C, USceneComponent* B, FVector L, FVector N, float J) {
            Hits.push_back({0, C, B, L, N, J});
        });
        Floor->OnSinewContactPersist.AddLambda([&](USinewColliderComponent* C, USceneComponent* B, FVector L, FVector N, float J) {
            Hits.push_back({1, C, B, L, N, J});
        });
        Floor->OnSinewContactEnd.AddLambda([&](USinewColliderComponent* C, USceneComponent* B, FVector L, FVector N, float J) {
            Hits.push_back({2, C, B, L, N, J});
        });
        G.Frames(90);
        check(!Hits.empty() && Hits[0].Kind == 0, "contact delegates: a begin first");
        bool AllOurs = !Hits.empty(), OnFloor = true, Persisted = false;
        for (const Hit& H : Hits) {
            AllOurs = AllOurs && H.Collider == Floor.get() && H.Body == Hanging.get();
            OnFloor = OnFloor && std::fabs(H.Location.Z - 100.0) < 0.5 && std::fabs(H.Normal.Z - 1.0) < 1e-4;
            Persisted = Persisted || (H.Kind == 1 && H.Impulse > 0.0f);
        }
        check(AllOurs, "contact delegates: the collider and the rope component");
        check(OnFloor, "contact delegates: location on the plane (cm), normal +Z");
        check(Persisted, "contact delegates: persists with a normal impulse while the rope lies on it");
        Floor->bContactEvents = false;
        G.Frames(1); // the collider stops listening before this step
        const std::size_t Heard = Hits.size();
        G.Frames(5);
        check(Hits.size() == Heard, "contact delegates: bContactEvents off, nothing more");
        Hanging->EndPlay(EEndPlayReason::Destroyed);
        Floor->EndPlay(EEndPlayReason::Destroyed);
    }
    {
        // A box body simulating physics under a pinned rope, coupled two-way: the rope
        // swinging down onto it pushes it (AddForce down, in UE units); in the velocity
        // change mode the push is added to its velocity.
        Game G;
        UBoxComponent Box;
        Box.Transform = FTransform(FVector(0, 0, 80));
        Box.BoxExtent = FVector(150, 150, 20);
        Box.bSimulatePhysics = true;
        Box.Mass = 5.0f;
        Box.BodyInstance.CenterOfMass = FVector(0, 0, 80);
        Box.BodyInstance.Inertia = FVector(1e5, 1e5, 1e5);
        auto Coupled = std::make_unique<USinewColliderComponent>(FObjectInitializer());
        Coupled->World = &G.World;
        Coupled->AttachParent = &Box;
        Coupled->BodyCoupling = ESinewBodyCoupling::ForceAndTorque;
        auto Hanging = MakeRope(G, FVector(0, 0, 150), FVector(100, 0, 0), 1.0f, true);
        Coupled->BeginPlay();
        Hanging->BeginPlay();
        G.Frames(60);
        check(Box.ForceAdded.Z < 0.0, "body coupling: the rope pushes the body down (AddForce)");
        check(Box.LinearVelocity.Z == 0.0, "body coupling: ForceAndTorque leaves the velocity to the engine");
        Coupled->BodyCoupling = ESinewBodyCoupling::VelocityChange;
        G.Frames(30);
        check(Box.LinearVelocity.Z < 0.0, "body coupling: VelocityChange adds the proxy's velocity change");
        Hanging->EndPlay(EEndPlayReason::Destroyed);
        Coupled->EndPlay(EEndPlayReason::Destroyed);
    }
    {
        // Ground 1 m up, with a hole where X < 0: one rope hangs over ground, one over the hole.
        Game G;
        ALandscapeProxy Land;
        Land.HeightForStub = [](FVector At) { return At.X < 0.0 ? TOptional<float>() : TOptional<float>(100.0f); };
        USinewLandscapeColliderComponent Terrain{FObjectInitializer()};
        Terrain.World = &G.World;
        Terrain.Transform = FTransform(FVector(0, 0, 0));
        Terrain.Landscape = &Land;
        Terrain.Extent = FVector2D(500.0, 500.0);
        Terrain.CellSize = 50.0f;
        Terrain.BeginPlay();
        check(Terrain.IsSimulating(), "landscape collider: in the simulation");
        auto OnGround = MakeRope(G, FVector(200, 0, 150), FVector(100, 0, 0), 1.0f, true);
        auto OverHole = MakeRope(G, FVector(-300, 0, 150), FVector(-100, 0, 0), 1.0f, true);
        OnGround->BeginPlay();
        OverHole->BeginPlay();
        // The lowest any particle of each rope gets over 2 s (they swing down and about).
        TArray<FVector> P1, P2;
        double Low1 = 1e9, Low2 = 1e9;
        for (int F = 0; F < 120; ++F) {
            G.Frames(1);
            OnGround->GetParticleLocations(P1);
            OverHole->GetParticleLocations(P2);
            for (int32 i = 0; i < P1.Num(); ++i) Low1 = std::fmin(Low1, P1[i].Z);
            for (int32 i = 0; i < P2.Num(); ++i) Low2 = std::fmin(Low2, P2[i].Z);
        }
        check(P1.Num() > 0 && Low1 > 99.0 && Low1 < 102.5, "landscape collider: the rope never goes below the ground (1 m + radius)");
        check(P2.Num() > 0 && Low2 < 60.0, "landscape collider: the rope over the hole swings down through it");
        OnGround->EndPlay(EEndPlayReason::Destroyed);
        OverHole->EndPlay(EEndPlayReason::Destroyed);
        Terrain.EndPlay(EEndPlayReason::Destroyed);
        check(!Terrain.IsSimulating(), "landscape collider: EndPlay removes it");
    }
    return Finish();
}

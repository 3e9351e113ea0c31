// Each body is built one way, by World, and comes back typed: AddRope / AddRopePolyline
// a Rope, AddClothGrid / AddClothMesh a Cloth (both Bodies), AddTetBody /
// AddPressureBody a Body. A grid or an unwelded mesh cloth maps vertex i to particle i
// and its MeshTriangles are the library's triangles.

using System;
using Sinew;
using Sinew.Native;

namespace SinewTests
{
    public static class TypedBodyTests
    {
        static SinewVec3 V(float x, float y, float z) { return new SinewVec3(x, y, z); }

        static World NewWorld()
        {
            var s = WorldSettings.Default;
            s.Threads = 1;
            return new World(s);
        }

        public static void TestGridClothIsACloth()
        {
            using (var w = NewWorld())
            {
                var g = ClothGridSettings.Default;
                g.SegmentsU = 4;
                g.SegmentsV = 3;
                g.PinCorners = ClothGridSettings.CornerOrigin;
                Cloth cloth = w.AddClothGrid(ClothSettings.Default, g);
                Body body = cloth;
                Check.Equal(SinewBodyKind.Cloth, body.Kind, "kind");
                Check.Equal(20, cloth.ParticleCount, "(4+1)·(3+1) particles");
                Check.Equal(20, cloth.VertexCount, "one vertex per particle");
                Check.Equal(20, cloth.MeshVertexCount, "no torn vertex");
                Check.Equal(24, cloth.TriangleCount, "two triangles a cell");
                ClothTopology t = cloth.ReadTopology();
                int[] mesh = cloth.MeshTriangles;
                Check.Equal(t.Triangles.Length, mesh.Length, "triangle corners");
                for (int i = 0; i < mesh.Length; i++)
                    Check.Equal(t.VertexParticles[t.Triangles[i]], cloth.ParticleOfVertex(mesh[i]), "corner " + i);
                for (int s = 0; s < 10; s++)
                    w.Step(1f / 60f);
                var vertices = new SinewVec3[cloth.VertexCount];
                var particles = new SinewVec3[cloth.ParticleCount];
                cloth.ReadVertices(vertices);
                cloth.ReadPositions(particles);
                for (int i = 0; i < vertices.Length; i++)
                    Check.Equal(particles[i], vertices[i], "vertex " + i + " is particle " + i);
                Check.True(vertices[19].y < -0.01f, "the free corner falls");
                Check.Equal(V(0, 0, 0), vertices[0], "the pinned corner stays");
            }
        }

        public static void TestMeshClothWithInverseMassesIsNotWelded()
        {
            using (var w = NewWorld())
            {
                // Two triangles that share an edge by position only (a seam): four
                // particles each, not welded.
                var v = new[] { V(0, 0, 0), V(1, 0, 0), V(0, 0, 1), V(1, 0, 0), V(1, 0, 1), V(0, 0, 1) };
                var tris = new[] { 0, 1, 2, 3, 4, 5 };
                var inverseMasses = new[] { 0f, 1f, 1f, 1f, 1f, 1f };
                Cloth cloth = w.AddClothMesh(ClothSettings.Default, v, tris, inverseMasses);
                Check.Equal(6, cloth.ParticleCount, "particles as given");
                Check.Equal(6, cloth.VertexCount, "vertices");
                Check.Equal(2, cloth.TriangleCount, "triangles");
                Check.Equal(cloth.FirstParticle + 3, cloth.ParticleOfVertex(3), "vertex 3 is its own particle");
                Cloth welded = w.AddClothMesh(ClothSettings.Default, v, tris, 1f, new[] { 0 });
                Check.Equal(4, welded.ParticleCount, "the seam welded");
                Check.Equal(6, welded.VertexCount, "every vertex mapped");
                Check.Equal(welded.ParticleOfVertex(1), welded.ParticleOfVertex(3), "seam vertices share a particle");
            }
        }

        public static void TestRopesAreRopes()
        {
            using (var w = NewWorld())
            {
                var s = RopeSettings.Default;
                s.PinEnd = true;
                var points = new[] { V(0, 0, 0), V(3, 0, 0), V(3, 4, 0) };
                Rope poly = w.AddRopePolyline(s, points);
                Check.Equal(SinewBodyKind.Rope, poly.Kind, "kind");
                Check.Equal(2, poly.Segments, "a link between points");
                Check.Near(7.0, poly.RestLength, 1e-6, "the polyline's length");
                Check.True(poly.StartPinned && poly.EndPinned, "pins from the settings");
                Rope straight = w.AddRope(V(0, 5, 0), V(2, 5, 0), 4, 1f, 0f, true, false);
                Check.Equal(4, straight.Segments, "segments");
                Check.Near(2.0, straight.RestLength, 1e-6, "start-end distance");
                Check.Equal(2, w.BodyCount, "two bodies");
                straight.Dispose();
                Check.True(straight.IsRemoved, "Dispose removes the rope");
                Check.Equal(1, w.BodyCount, "one left");
            }
        }
    }
}

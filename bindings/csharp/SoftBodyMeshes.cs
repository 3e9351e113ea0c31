// Sinew.SoftBodyMeshes: preparing a game's render mesh for a soft body, in the library
// (sinew_weld_mesh, sinew_tetrahedralize_mesh, sinew_embed_points_in_tets): weld its
// seams (pressure bodies), cut it into tets (tet bodies), embed its vertices in the tets
// so they follow the particles (TetEmbedding.Apply, no allocation per frame).
// Vertex arrays are any blittable struct whose first 12 bytes are x, y, z (Vector3,
// SinewVec3, a vertex struct), in metres; index arrays are int.

using Sinew.Native;

namespace Sinew
{
    /// <summary>A triangle mesh with coincident vertices merged (<see cref="SoftBodyMeshes.Weld"/>).</summary>
    public sealed class WeldedMesh
    {
        /// <summary>One vertex per group of merged vertices (its first one's position), in
        /// order of first occurrence: a pressure body's particles.</summary>
        public SinewVec3[] Vertices;
        /// <summary>Three welded-vertex indices per triangle (collapsed triangles dropped).</summary>
        public int[] Triangles;
        /// <summary>For each input vertex, its welded vertex (the particle it follows).</summary>
        public int[] Map;
    }

    /// <summary>A tetrahedral mesh (<see cref="SoftBodyMeshes.Tetrahedralize"/>): the input of
    /// <see cref="World.AddTetBody{T}"/>, whose particles are the vertices in order.</summary>
    public sealed class TetMesh
    {
        /// <summary>Vertices, m.</summary>
        public SinewVec3[] Vertices;
        /// <summary>Four vertex indices per tet, positive volume.</summary>
        public int[] Tets;
        /// <summary>Number of tets.</summary>
        public int TetCount { get { return Tets.Length / 4; } }
    }

    /// <summary>Points (render vertices) embedded in a tet mesh: point i is
    /// Σₖ Weights[4i+k] · x[Vertices[4i+k]], x the tet mesh's vertices or, once the mesh is
    /// a tet body, its particles (body-local order).</summary>
    public sealed class TetEmbedding
    {
        /// <summary>Four tet-mesh vertex (body particle) indices per point.</summary>
        public int[] Vertices;
        /// <summary>Four barycentric weights per point (sum 1; one negative for a point
        /// outside the tet mesh).</summary>
        public float[] Weights;
        /// <summary>Number of points.</summary>
        public int Count { get { return Weights.Length / 4; } }

        /// <summary>Writes the embedded points moved with <paramref name="particles"/> (the tet
        /// body's positions in body order, e.g. from <see cref="Body.ReadPositions{T}(T[])"/>)
        /// to <paramref name="points"/> (at least Count elements; only their first 12 bytes
        /// are written, so a vertex struct keeps its other fields). Allocates nothing.</summary>
        public unsafe void Apply<TIn, TOut>(TIn[] particles, TOut[] points) where TIn : struct where TOut : struct
        {
            const string F = "TetEmbedding.Apply";
            Args.NotNull(particles, F, "particles");
            Args.NotNull(points, F, "points");
            Args.Vec3Element<TIn>(F);
            Args.Vec3Element<TOut>(F);
            int n = Count;
            Args.Range(points.Length, 0, n, F, "points");
            int inStride = Element<TIn>.Size, outStride = Element<TOut>.Size;
            using (var pin = new Pin(particles))
            using (var pout = new Pin(points))
            {
                for (int i = 0; i < n; i++)
                {
                    float x = 0f, y = 0f, z = 0f;
                    for (int k = 0; k < 4; k++)
                    {
                        int v = Vertices[4 * i + k];
                        if ((uint)v >= (uint)particles.Length)
                            throw SinewException.Argument(F, "particle " + v + " is outside particles (length " +
                                particles.Length + ")");
                        float w = Weights[4 * i + k];
                        var p = (SinewVec3*)(pin.Ptr + (long)v * inStride);
                        x += w * p->x;
                        y += w * p->y;
                        z += w * p->z;
                    }
                    var o = (SinewVec3*)(pout.Ptr + (long)i * outStride);
                    o->x = x;
                    o->y = y;
                    o->z = z;
                }
            }
        }
    }

    /// <summary>Mesh preparation for soft bodies, computed by the library.</summary>
    public static class SoftBodyMeshes
    {
        /// <summary>Merges vertices closer than <paramref name="tolerance"/> (m; 0 = only
        /// identical positions, as the UV and normal seams of a render mesh duplicate them)
        /// and drops the triangles that collapse: a render mesh becomes the closed surface of
        /// a pressure body, render vertex i following particle Map[i].</summary>
        public static unsafe WeldedMesh Weld<T>(T[] vertices, int[] triangles, float tolerance = 0f) where T : struct
        {
            const string F = "SoftBodyMeshes.Weld";
            Args.NotNull(triangles, F, "triangles");
            if (triangles.Length % 3 != 0)
                throw SinewException.Argument(F, "triangles has " + triangles.Length + " indices, not a multiple of 3");
            var map = new int[vertices == null ? 0 : vertices.Length];
            var outVertices = new SinewVec3[map.Length];
            var outTriangles = new int[triangles.Length];
            uint nv, nt;
            using (var v = World.PackVec3(vertices, F, "vertices"))
            using (var t = new Pin(triangles))
            using (var m = new Pin(map))
            using (var ov = new Pin(outVertices))
            using (var ot = new Pin(outTriangles))
                SinewException.Check(SinewNative.sinew_weld_mesh((SinewVec3*)v.Ptr, (uint)vertices.Length, (uint*)t.Ptr,
                    (uint)(triangles.Length / 3), tolerance, (uint*)m.Ptr, (SinewVec3*)ov.Ptr, (uint*)ot.Ptr, &nv, &nt));
            System.Array.Resize(ref outVertices, (int)nv);
            System.Array.Resize(ref outTriangles, 3 * (int)nt);
            return new WeldedMesh { Vertices = outVertices, Triangles = outTriangles, Map = map };
        }

        /// <summary>Cuts a closed mesh (counter-clockwise seen from outside; seams welded
        /// first) into tets on a grid of <paramref name="resolution"/> (1..128) cubic cells
        /// across its longest side: 5 tets per cell inside, boundary nodes moved toward the
        /// surface. An open, inside-out or degenerate mesh throws, naming the edge or
        /// triangle.</summary>
        public static unsafe TetMesh Tetrahedralize<T>(T[] vertices, int[] triangles, int resolution) where T : struct
        {
            const string F = "SoftBodyMeshes.Tetrahedralize";
            Args.NotNull(triangles, F, "triangles");
            if (triangles.Length % 3 != 0)
                throw SinewException.Argument(F, "triangles has " + triangles.Length + " indices, not a multiple of 3");
            uint nv, nt;
            uint res = unchecked((uint)resolution);
            using (var v = World.PackVec3(vertices, F, "vertices"))
            using (var t = new Pin(triangles))
            {
                uint count = (uint)vertices.Length, tris = (uint)(triangles.Length / 3);
                SinewException.Check(SinewNative.sinew_tetrahedralize_mesh((SinewVec3*)v.Ptr, count, (uint*)t.Ptr, tris,
                    res, null, 0, null, 0, &nv, &nt));
                var mesh = new TetMesh { Vertices = new SinewVec3[nv], Tets = new int[4 * nt] };
                using (var ov = new Pin(mesh.Vertices))
                using (var ot = new Pin(mesh.Tets))
                    SinewException.Check(SinewNative.sinew_tetrahedralize_mesh((SinewVec3*)v.Ptr, count, (uint*)t.Ptr,
                        tris, res, (SinewVec3*)ov.Ptr, nv, (uint*)ot.Ptr, nt, &nv, &nt));
                return mesh;
            }
        }

        /// <summary>Embeds <paramref name="points"/> (m) in the tet mesh: each point's tet and
        /// barycentric weights, as four vertex indices and four weights per point. A point
        /// outside every tet follows its nearest tet (extrapolated weights).</summary>
        public static unsafe TetEmbedding Embed<T, U>(T[] tetVertices, int[] tets, U[] points) where T : struct where U : struct
        {
            const string F = "SoftBodyMeshes.Embed";
            Args.NotNull(tets, F, "tets");
            if (tets.Length % 4 != 0)
                throw SinewException.Argument(F, "tets has " + tets.Length + " indices, not a multiple of 4");
            int n = points == null ? 0 : points.Length;
            var which = new int[n];
            var e = new TetEmbedding { Vertices = new int[4 * n], Weights = new float[4 * n] };
            using (var v = World.PackVec3(tetVertices, F, "tetVertices"))
            using (var t = new Pin(tets))
            using (var p = World.PackVec3(points, F, "points"))
            using (var ow = new Pin(which))
            using (var w = new Pin(e.Weights))
                SinewException.Check(SinewNative.sinew_embed_points_in_tets((SinewVec3*)v.Ptr, (uint)tetVertices.Length,
                    (uint*)t.Ptr, (uint)(tets.Length / 4), (SinewVec3*)p.Ptr, (uint)n, (uint*)ow.Ptr, (float*)w.Ptr));
            for (int i = 0; i < n; i++)
                for (int k = 0; k < 4; k++)
                    e.Vertices[4 * i + k] = tets[4 * which[i] + k];
            return e;
        }
    }
}

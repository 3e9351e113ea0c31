// Render normals and tangents computed by the library (sinew_render_normals,
// sinew_body_render_normals), written into caller arrays or vertex buffers, in place of
// Unity's Mesh.RecalculateNormals / RecalculateTangents each frame:
//
//     RenderNormals.Compute(vertices, triangles, uv, normals, tangents);  // Vector3[], int[], Vector2[], Vector3[], Vector4[]
//     mesh.SetVertices(vertices); mesh.SetNormals(normals); mesh.SetTangents(tangents);
//
// Normals: the normalised area-weighted sum of each vertex's triangle normals, as
// RecalculateNormals computes for vertices shared by their triangles; (0, 1, 0) for a
// vertex with only degenerate triangles. Tangents: +U, perpendicular to the normal,
// w = +-1 so that cross(normal, tangent) * w runs along +V (without UVs: +X made
// perpendicular, w = 1). Never NaN; nothing allocated per call (arrays are pinned).

using Sinew.Native;

namespace Sinew
{
    public static class RenderNormals
    {
        /// <summary>Writes the normal (and, when <paramref name="tangents"/> is not null,
        /// the tangent) of every vertex of <paramref name="positions"/> (12-byte elements:
        /// Vector3, SinewVec3) over <paramref name="triangles"/> (3 indices each), with
        /// <paramref name="uvs"/> (8-byte elements: Vector2; null = the no-UV tangent rule).
        /// <paramref name="normals"/> and <paramref name="tangents"/> (16-byte elements:
        /// Vector4) hold at least positions.Length elements.</summary>
        public static void Compute<TP, TU, TN, TT>(TP[] positions, int[] triangles, TU[] uvs, TN[] normals, TT[] tangents)
            where TP : struct where TU : struct where TN : struct where TT : struct
        {
            const string F = "RenderNormals.Compute";
            Args.NotNull(positions, F, "positions");
            Args.NotNull(triangles, F, "triangles");
            Compute(positions, positions.Length, triangles, triangles.Length, uvs, normals, tangents);
        }

        /// <summary><see cref="Compute{TP, TU, TN, TT}(TP[], int[], TU[], TN[], TT[])"/> over
        /// the first <paramref name="vertexCount"/> vertices and the first
        /// <paramref name="indexCount"/> (a multiple of 3) triangle indices, for arrays kept
        /// larger than this frame's mesh.</summary>
        public static unsafe void Compute<TP, TU, TN, TT>(TP[] positions, int vertexCount, int[] triangles, int indexCount,
            TU[] uvs, TN[] normals, TT[] tangents)
            where TP : struct where TU : struct where TN : struct where TT : struct
        {
            const string F = "RenderNormals.Compute";
            Args.NotNull(positions, F, "positions");
            Args.NotNull(triangles, F, "triangles");
            Args.NotNull(normals, F, "normals");
            CheckElement<TP>(F, "positions", 12, true);
            CheckElement<TN>(F, "normals", 12, false);
            Args.Range(positions.Length, 0, vertexCount, F, "positions");
            Args.Range(normals.Length, 0, vertexCount, F, "normals");
            CheckTriangles(triangles, indexCount, F);
            if (uvs != null)
            {
                CheckElement<TU>(F, "uvs", 8, true);
                Args.Range(uvs.Length, 0, vertexCount, F, "uvs");
            }
            if (tangents != null)
            {
                CheckElement<TT>(F, "tangents", 16, false);
                Args.Range(tangents.Length, 0, vertexCount, F, "tangents");
            }
            using (var p = new Pin(positions))
            using (var t = new Pin(triangles))
            using (var u = new Pin(uvs))
            using (var n = new Pin(normals))
            using (var g = new Pin(tangents))
                Compute(p.Ptr, vertexCount, (int*)t.Ptr, indexCount / 3, (float*)u.Ptr, n.Ptr, Element<TN>.Size,
                    g.Ptr, tangents != null ? Element<TT>.Size : 16);
        }

        /// <summary>The raw call: <paramref name="positions"/> packed (12 bytes each),
        /// <paramref name="uvs"/> packed (8 bytes each) or null, normals every
        /// <paramref name="normalStride"/> (>= 12) bytes and tangents (or null) every
        /// <paramref name="tangentStride"/> (>= 16) bytes, e.g. into one interleaved
        /// vertex buffer (a NativeArray's GetUnsafePtr()).</summary>
        public static unsafe void Compute(void* positions, int vertexCount, int* triangles, int triangleCount, float* uvs,
            void* normals, int normalStride, void* tangents, int tangentStride)
        {
            SinewException.Check(SinewNative.sinew_render_normals((SinewVec3*)positions, unchecked((uint)vertexCount),
                (uint*)triangles, unchecked((uint)triangleCount), uvs, normals, unchecked((uint)normalStride),
                tangents, unchecked((uint)tangentStride)));
        }

        internal static void CheckElement<T>(string function, string name, int size, bool exact) where T : struct
        {
            if (!Element<T>.Blittable)
                throw SinewException.Argument(function, name + ": " + typeof(T).Name + " is not blittable (it holds references)");
            if (exact ? Element<T>.Size != size : Element<T>.Size < size)
                throw SinewException.Argument(function, name + ": " + typeof(T).Name + " is " + Element<T>.Size +
                    " bytes, " + (exact ? "not " : "below ") + size);
        }

        internal static void CheckTriangles(int[] triangles, int indexCount, string function)
        {
            Args.Range(triangles.Length, 0, indexCount, function, "triangles");
            if (indexCount % 3 != 0)
                throw SinewException.Argument(function, indexCount + " triangle indices is not a multiple of 3");
        }
    }

    public partial class Body
    {
        /// <summary><see cref="RenderNormals.Compute{TP, TU, TN, TT}(TP[], int[], TU[], TN[], TT[])"/>
        /// over the body's particles interpolated at <paramref name="alpha"/> (in [0, 1], as
        /// <see cref="ReadInterpolatedPositions{T}(float, T[])"/>), in simulation space:
        /// vertex k is world particle <paramref name="vertexParticles"/>[k] (e.g. a torn
        /// cloth's render vertices), or, when it is null, the body's particle k
        /// (ParticleCount vertices).</summary>
        public unsafe void ComputeRenderNormals<TU, TN, TT>(float alpha, int[] vertexParticles, int[] triangles, TU[] uvs,
            TN[] normals, TT[] tangents) where TU : struct where TN : struct where TT : struct
        {
            const string F = "Body.ComputeRenderNormals";
            Args.NotNull(triangles, F, "triangles");
            Args.NotNull(normals, F, "normals");
            int vertexCount = vertexParticles != null ? vertexParticles.Length : ParticleCount;
            RenderNormals.CheckElement<TN>(F, "normals", 12, false);
            Args.Range(normals.Length, 0, vertexCount, F, "normals");
            RenderNormals.CheckTriangles(triangles, triangles.Length, F);
            if (uvs != null)
            {
                RenderNormals.CheckElement<TU>(F, "uvs", 8, true);
                Args.Range(uvs.Length, 0, vertexCount, F, "uvs");
            }
            if (tangents != null)
            {
                RenderNormals.CheckElement<TT>(F, "tangents", 16, false);
                Args.Range(tangents.Length, 0, vertexCount, F, "tangents");
            }
            using (var v = new Pin(vertexParticles))
            using (var t = new Pin(triangles))
            using (var u = new Pin(uvs))
            using (var n = new Pin(normals))
            using (var g = new Pin(tangents))
                SinewException.Check(SinewNative.sinew_body_render_normals(World.Handle, Handle, alpha, (uint*)v.Ptr,
                    unchecked((uint)vertexCount), (uint*)t.Ptr, unchecked((uint)(triangles.Length / 3)), (float*)u.Ptr,
                    n.Ptr, unchecked((uint)Element<TN>.Size), g.Ptr,
                    tangents != null ? unchecked((uint)Element<TT>.Size) : 16u));
        }
    }
}

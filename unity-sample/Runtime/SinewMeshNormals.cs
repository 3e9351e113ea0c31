// The normals and tangents of a mesh that follows Sinew particles, computed by the library
// (Sinew.RenderNormals: area-weighted normals as Mesh.RecalculateNormals computes them,
// tangents along +U with the handedness in w) into arrays kept between frames, in place of
// mesh.RecalculateNormals() every frame: no allocation per frame, and tangents for
// normal-mapped materials.

using Unity.Collections;
using Unity.Collections.LowLevel.Unsafe;
using UnityEngine;

namespace Sinew.Unity
{
    public sealed class SinewMeshNormals
    {
        int[] triangles = new int[0];
        Vector2[] uv;
        Vector3[] normals = new Vector3[0];
        Vector4[] tangents = new Vector4[0];

        /// <summary>The mesh's triangles and UVs (null, or not one per vertex: tangents by
        /// the no-UV rule, +X made perpendicular to the normal); call again when they
        /// change (a tear).</summary>
        public void SetTopology(int[] meshTriangles, Vector2[] meshUV, int vertexCount)
        {
            triangles = meshTriangles;
            uv = meshUV != null && meshUV.Length == vertexCount ? meshUV : null;
            if (normals.Length != vertexCount)
            {
                normals = new Vector3[vertexCount];
                tangents = new Vector4[vertexCount];
            }
        }

        /// <summary>Computes the normals and tangents of <paramref name="vertices"/> (this
        /// frame's, in the mesh's space) and sets them on <paramref name="mesh"/>.</summary>
        public void Apply(Mesh mesh, Vector3[] vertices)
        {
            RenderNormals.Compute(vertices, vertices.Length, triangles, triangles.Length, uv, normals, tangents);
            mesh.SetNormals(normals);
            mesh.SetTangents(tangents);
        }

        /// <summary><see cref="Apply(Mesh, Vector3[])"/> for vertices in a NativeArray.</summary>
        public unsafe void Apply(Mesh mesh, NativeArray<Vector3> vertices)
        {
            if (vertices.Length != normals.Length)
                throw new System.ArgumentException("SinewMeshNormals.Apply: " + vertices.Length + " vertices, " +
                    normals.Length + " set by SetTopology");
            fixed (int* t = triangles)
            fixed (Vector2* u = uv)
            fixed (Vector3* n = normals)
            fixed (Vector4* g = tangents)
                RenderNormals.Compute(vertices.GetUnsafePtr(), vertices.Length, t, triangles.Length / 3,
                    (float*)u, n, 12, g, 16);
            mesh.SetNormals(normals);
            mesh.SetTangents(tangents);
        }
    }
}

// Tearing of a Cloth (Body.SetTearThreshold): when the library splits a vertex, the
// mesh gets new vertices. UpdateTopology rebuilds the mesh's triangles over the mesh's
// own vertices plus one new vertex per (mesh vertex, new particle) pair, so UV seams
// stay seams and every new vertex copies the UV of the mesh vertex it came from
// (MeshVertexSource).

using System.Collections.Generic;
using Sinew.Native;

namespace Sinew
{
    public sealed partial class Cloth
    {
        int[] meshCorners;                      // mesh vertex of each corner of the library's triangles
        int[] meshTriangles;                    // current triangles over mesh vertices (null: untorn)
        readonly List<int> extraSource = new List<int>();   // mesh vertex each added vertex copies
        readonly List<int> extraParticle = new List<int>(); // and its world particle
        ClothTopology topology;
        long topologyVersion;
        // The spares the added vertices read lie in one span of world particles (splits
        // take the reserve's particles in order): its first particle and a buffer of its
        // length, so a read of the torn vertices is one library call.
        int extraFirst;
        SinewVec3[] extraSpan;

        /// <summary>Mesh vertices: the mesh's own, then those tearing added.</summary>
        public int MeshVertexCount { get { return vertexToParticle.Length + extraSource.Count; } }

        /// <summary>The mesh's triangles now (3 mesh vertex indices each, TriangleCount of
        /// them): the mesh's own until the first tear.</summary>
        public int[] MeshTriangles
        {
            get
            {
                if (meshTriangles == null)
                    meshTriangles = (int[])meshCorners.Clone();
                return meshTriangles;
            }
        }

        /// <summary>The mesh vertex that mesh vertex <paramref name="vertex"/> copies (its
        /// UV, colour): itself for the mesh's own.</summary>
        public int MeshVertexSource(int vertex)
        {
            Args.Range(MeshVertexCount, vertex, 1, "Cloth.MeshVertexSource", "vertices");
            return vertex < vertexToParticle.Length ? vertex : extraSource[vertex - vertexToParticle.Length];
        }

        /// <summary>Re-reads the library's topology when its version changed and returns
        /// whether it did: then <see cref="MeshVertexCount"/>, <see cref="MeshTriangles"/>
        /// and <see cref="MeshVertexSource"/> describe the new mesh (vertices only ever
        /// get appended).</summary>
        public bool UpdateTopology()
        {
            long version = TopologyVersion;
            if (version == topologyVersion)
                return false;
            topologyVersion = version;
            topology = ReadTopology(topology);
            var known = new Dictionary<long, int>();
            for (int k = 0; k < extraSource.Count; k++)
                known[((long)extraSource[k] << 32) | (uint)extraParticle[k]] = vertexToParticle.Length + k;
            var tris = new int[topology.Triangles.Length];
            for (int i = 0; i < tris.Length; i++)
            {
                int m = meshCorners[i];
                int p = topology.VertexParticles[topology.Triangles[i]];
                if (FirstParticle + vertexToParticle[m] == p)
                {
                    tris[i] = m;
                    continue;
                }
                long key = ((long)m << 32) | (uint)p;
                int v;
                if (!known.TryGetValue(key, out v))
                {
                    v = vertexToParticle.Length + extraSource.Count;
                    extraSource.Add(m);
                    extraParticle.Add(p);
                    known.Add(key, v);
                }
                tris[i] = v;
            }
            meshTriangles = tris;
            if (extraParticle.Count > 0)
            {
                int lo = int.MaxValue, hi = int.MinValue;
                foreach (int p in extraParticle)
                {
                    lo = System.Math.Min(lo, p);
                    hi = System.Math.Max(hi, p);
                }
                extraFirst = lo;
                if (extraSpan == null || extraSpan.Length != hi - lo + 1)
                    extraSpan = new SinewVec3[hi - lo + 1];
            }
            return true;
        }

        unsafe void ReadTornVertices(byte* dst, int strideBytes)
        {
            if (extraParticle.Count == 0)
                return;
            World.ReadPositions(extraFirst, extraSpan);
            CopyTornVertices(dst, strideBytes);
        }

        /// <summary>Copies each added vertex's particle from <c>extraSpan</c> (just read)
        /// to its place after the mesh's own vertices.</summary>
        unsafe void CopyTornVertices(byte* dst, int strideBytes)
        {
            for (int k = 0; k < extraParticle.Count; k++)
                *(SinewVec3*)(dst + (long)(vertexToParticle.Length + k) * strideBytes) = extraSpan[extraParticle[k] - extraFirst];
        }
    }
}

// A cloth: the library's cloth body (World.AddClothGrid, World.AddClothMesh) plus the
// map from a render mesh's vertices to its particles. World.AddClothMesh with a mass
// welds vertices at the same position (UV seams) into one particle first; the edges,
// bending, tethers and strain constraints are the library's. The Unity SinewCloth
// component is a thin shell over it.

using System;
using System.Collections.Generic;
using Sinew.Native;

namespace Sinew
{
    /// <summary>A cloth built by the library: a grid (<see cref="World.AddClothGrid"/>) or a
    /// triangle mesh (<see cref="World.AddClothMesh{T}(ClothSettings, T[], int[], float, int[])"/>,
    /// which welds vertices at exactly the same position (UV seams, hard edges) into one
    /// particle, so the cloth does not tear along seams). <see cref="ReadVertices{T}(T[])"/>
    /// writes every mesh vertex back, welded ones from their shared particle. Particles are
    /// consecutive from <see cref="Body.FirstParticle"/>. Every <see cref="Body"/> member
    /// applies (tearing, skinning, damping); <see cref="Body.Dispose"/> removes the cloth
    /// from its world.</summary>
    public sealed partial class Cloth : Body
    {
        /// <summary>Number of mesh vertices (>= ParticleCount).</summary>
        public int VertexCount { get { return vertexToParticle.Length; } }
        /// <summary>Number of the library's triangles (for a welded mesh, those that welding
        /// made degenerate are dropped).</summary>
        public int TriangleCount { get; private set; }

        int[] vertexToParticle; // mesh vertex -> particle offset from FirstParticle
        bool identity;          // no vertex welded: vertex i is particle i
        SinewVec3[] scratch;    // particle positions, when vertices must be scattered
        readonly SinewVec3[] one = new SinewVec3[1];
        readonly float[] oneMass = new float[1];

        /// <summary>A cloth whose mesh vertex v is particle
        /// FirstParticle + <paramref name="vertexToParticle"/>[v] and whose library triangles'
        /// corners are the mesh vertices <paramref name="meshCorners"/> (null: the library's
        /// triangles, every vertex its own particle).</summary>
        internal Cloth(World world, SinewBodyHandle handle, int[] vertexToParticle, int[] meshCorners)
            : base(world, handle)
        {
            if (vertexToParticle == null)
            {
                vertexToParticle = new int[ParticleCount];
                for (int i = 0; i < vertexToParticle.Length; i++)
                    vertexToParticle[i] = i;
            }
            if (meshCorners == null)
            {
                ClothTopology t = ReadTopology();
                meshCorners = new int[t.Triangles.Length];
                for (int i = 0; i < meshCorners.Length; i++)
                    meshCorners[i] = t.VertexParticles[t.Triangles[i]] - FirstParticle;
            }
            this.vertexToParticle = vertexToParticle;
            this.meshCorners = meshCorners;
            identity = vertexToParticle.Length == ParticleCount;
            TriangleCount = meshCorners.Length / 3;
        }

        /// <summary>A render mesh welded for the library: the particles (bit-identical
        /// positions merged), the triangles over them (degenerate ones dropped), each mesh
        /// vertex's particle, and the mesh vertices at the kept triangles' corners.</summary>
        internal struct Welded
        {
            public SinewVec3[] Particles;
            public int[] Triangles;
            public int[] VertexToParticle;
            public int[] Corners;
        }

        /// <summary>Welds <paramref name="vertices"/> (any struct whose first 12 bytes are x,
        /// y, z) with bit-identical positions and re-indexes <paramref name="triangles"/>
        /// onto the welded particles; errors name <paramref name="function"/>.</summary>
        internal static unsafe Welded Weld<T>(T[] vertices, int[] triangles, string function) where T : struct
        {
            string F = function;
            Args.NotNull(vertices, F, "vertices");
            Args.NotNull(triangles, F, "triangles");
            Args.Vec3Element<T>(F);
            if (vertices.Length == 0 || triangles.Length == 0 || triangles.Length % 3 != 0)
                throw SinewException.Argument(F, "needs vertices and a non-empty multiple of 3 triangle indices (got " +
                    vertices.Length + " vertices, " + triangles.Length + " indices)");

            // Weld vertices with bit-identical positions.
            var map = new int[vertices.Length];
            var positions = new List<SinewVec3>(vertices.Length);
            var seen = new Dictionary<Key, int>(vertices.Length);
            using (var pin = new Pin(vertices))
            {
                for (int i = 0; i < vertices.Length; i++)
                {
                    SinewVec3 p = *(SinewVec3*)(pin.Ptr + (long)i * Element<T>.Size);
                    var key = new Key(p);
                    int particle;
                    if (!seen.TryGetValue(key, out particle))
                    {
                        particle = positions.Count;
                        positions.Add(p);
                        seen.Add(key, particle);
                    }
                    map[i] = particle;
                }
            }

            // The triangles over the welded particles; a triangle that welding (or the mesh)
            // made degenerate has no area and is dropped.
            var welded = new List<int>(triangles.Length);
            var corners = new List<int>(triangles.Length);
            for (int t = 0; t < triangles.Length; t += 3)
            {
                for (int e = 0; e < 3; e++)
                {
                    int v = triangles[t + e];
                    if (v < 0 || v >= map.Length)
                        throw new SinewException(SinewStatus.ErrorOutOfRange, F + ": triangle " + t / 3 +
                            " has vertex index " + v + " outside 0.." + (map.Length - 1));
                }
                int a = map[triangles[t]], b = map[triangles[t + 1]], c = map[triangles[t + 2]];
                if (a == b || b == c || a == c)
                    continue;
                welded.Add(a);
                welded.Add(b);
                welded.Add(c);
                corners.Add(triangles[t]);
                corners.Add(triangles[t + 1]);
                corners.Add(triangles[t + 2]);
            }
            if (welded.Count == 0)
                throw SinewException.Argument(F, "every triangle repeats a vertex: no triangle of non-zero area");
            return new Welded
            {
                Particles = positions.ToArray(),
                Triangles = welded.ToArray(),
                VertexToParticle = map,
                Corners = corners.ToArray(),
            };
        }

        /// <summary>The mesh vertex nearest to <paramref name="point"/> (m) among
        /// <paramref name="vertices"/> (before a cloth is built from them, e.g. to choose the
        /// pinned vertices).</summary>
        public static unsafe int NearestVertex<T>(T[] vertices, SinewVec3 point) where T : struct
        {
            const string F = "Cloth.NearestVertex";
            Args.NotNull(vertices, F, "vertices");
            Args.Vec3Element<T>(F);
            int best = -1;
            float bestD = float.PositiveInfinity;
            using (var pin = new Pin(vertices))
            {
                for (int i = 0; i < vertices.Length; i++)
                {
                    float d = (*(SinewVec3*)(pin.Ptr + (long)i * Element<T>.Size) - point).Length;
                    if (d < bestD)
                    {
                        bestD = d;
                        best = i;
                    }
                }
            }
            if (best < 0)
                throw SinewException.Argument(F, "no vertex with a finite distance to the point");
            return best;
        }

        /// <summary>The world particle index of mesh vertex <paramref name="vertex"/>.</summary>
        public int ParticleOfVertex(int vertex)
        {
            Args.Range(vertexToParticle.Length, vertex, 1, "Cloth.ParticleOfVertex", "vertices");
            return FirstParticle + vertexToParticle[vertex];
        }

        /// <summary>The mesh vertex nearest to <paramref name="point"/> (m) now.</summary>
        public int NearestVertex(SinewVec3 point)
        {
            var positions = new SinewVec3[ParticleCount];
            World.ReadPositions(FirstParticle, positions);
            int best = 0;
            float bestD = float.PositiveInfinity;
            for (int v = 0; v < vertexToParticle.Length; v++)
            {
                float d = (positions[vertexToParticle[v]] - point).Length;
                if (d < bestD)
                {
                    bestD = d;
                    best = v;
                }
            }
            return best;
        }

        /// <summary>Pins (inverse mass 0) or releases (back to the cloth's mass, in 1/kg
        /// <paramref name="inverseMassWhenFree"/>) the particle of a vertex.</summary>
        public void PinVertex(int vertex, bool pinned, float inverseMassWhenFree)
        {
            oneMass[0] = pinned ? 0f : inverseMassWhenFree;
            World.SetInverseMasses(ParticleOfVertex(vertex), oneMass);
        }

        /// <summary>Moves the particle of a vertex to <paramref name="position"/> (m), e.g.
        /// a pinned vertex that follows a transform.</summary>
        public void MoveVertex(int vertex, SinewVec3 position)
        {
            one[0] = position;
            World.WritePositions(ParticleOfVertex(vertex), one);
        }

        /// <summary>Writes every mesh vertex's position (m) into vertices[0..MeshVertexCount]
        /// (the vertices tearing added after the mesh's own).</summary>
        public unsafe void ReadVertices<T>(T[] vertices) where T : struct
        {
            const string F = "Cloth.ReadVertices";
            Args.NotNull(vertices, F, "vertices");
            Args.Vec3Element<T>(F);
            Args.Range(vertices.Length, 0, MeshVertexCount, F, "vertices");
            using (var p = new Pin(vertices))
                ReadVertices(p.Ptr, Element<T>.Size);
        }

        /// <summary>Writes every mesh vertex's position (m) to <paramref name="destination"/>,
        /// one x, y, z every <paramref name="strideBytes"/> (>= 12), e.g. a NativeArray's
        /// memory, MeshVertexCount of them. Without welded vertices this is one library
        /// call straight into it (and one per vertex tearing added).</summary>
        public unsafe void ReadVertices(void* destination, int strideBytes)
        {
            if (identity)
            {
                World.ReadPositions(FirstParticle, ParticleCount, destination, strideBytes);
                ReadTornVertices((byte*)destination, strideBytes);
                return;
            }
            if (destination == null)
                throw new SinewException(SinewStatus.ErrorNullPointer, "Cloth.ReadVertices: destination is NULL");
            if (strideBytes < 12)
                throw SinewException.Argument("Cloth.ReadVertices", "strideBytes " + strideBytes + " is below 12");
            if (scratch == null)
                scratch = new SinewVec3[ParticleCount];
            World.ReadPositions(FirstParticle, scratch);
            byte* dst = (byte*)destination;
            for (int v = 0; v < vertexToParticle.Length; v++)
                *(SinewVec3*)(dst + (long)v * strideBytes) = scratch[vertexToParticle[v]];
            ReadTornVertices(dst, strideBytes);
        }

        /// <summary>Exact position key (bit patterns; -0 and +0 are different, as in the mesh).</summary>
        struct Key : System.IEquatable<Key>
        {
            readonly int x, y, z;

            public Key(SinewVec3 p)
            {
                x = System.BitConverter.ToInt32(System.BitConverter.GetBytes(p.x), 0);
                y = System.BitConverter.ToInt32(System.BitConverter.GetBytes(p.y), 0);
                z = System.BitConverter.ToInt32(System.BitConverter.GetBytes(p.z), 0);
            }

            public bool Equals(Key o) { return x == o.x && y == o.y && z == o.z; }
            public override bool Equals(object o) { return o is Key && Equals((Key)o); }
            public override int GetHashCode() { return (x * 73856093) ^ (y * 19349663) ^ (z * 83492791); }
        }
    }
}

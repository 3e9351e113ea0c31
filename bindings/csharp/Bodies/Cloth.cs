// Cloth over a triangle mesh: a thin convenience over the library's cloth body
// (World.AddClothMesh, sinew_world_add_cloth_mesh). It welds vertices at the same position
// (UV seams) into one particle and maps the mesh's vertices to the body's particles; the
// edges, bending, tethers and strain constraints are the library's. The Unity SinewCloth
// component is a thin shell over it.

using System;
using System.Collections.Generic;
using Sinew.Native;

namespace Sinew
{
    /// <summary>A cloth over a triangle mesh, built by the library. Vertices at exactly the
    /// same position (UV seams, hard edges) are welded into one particle, so the cloth does
    /// not tear along seams; <see cref="ReadVertices{T}(T[])"/> writes every mesh vertex
    /// back, welded ones from their shared particle. Particles are consecutive from
    /// <see cref="FirstParticle"/>. <see cref="Dispose"/> removes the cloth from its world.</summary>
    public sealed partial class Cloth : BodyWrapper
    {
        /// <summary>Number of mesh vertices (>= ParticleCount).</summary>
        public int VertexCount { get { return vertexToParticle.Length; } }
        /// <summary>Number of triangles given to the library (those that welding made
        /// degenerate are dropped).</summary>
        public int TriangleCount { get; private set; }

        int[] vertexToParticle; // mesh vertex -> particle offset from FirstParticle
        bool identity;          // no vertex welded: vertex i is particle i
        SinewVec3[] scratch;    // particle positions, when vertices must be scattered
        readonly SinewVec3[] one = new SinewVec3[1];
        readonly float[] oneMass = new float[1];

        Cloth(World world, Body body) : base(world, body) { }

        /// <summary>Builds a cloth from <paramref name="vertices"/> (m, world space; any
        /// struct whose first 12 bytes are x, y, z) and <paramref name="triangles"/>
        /// (3 vertex indices each), total mass <paramref name="massKg"/> (kg) shared
        /// equally by the particles, edge compliance <paramref name="compliance"/> (m/N);
        /// the rest of the material at the library's defaults
        /// (<see cref="ClothSettings.Default"/>: dihedral bending, tethers).</summary>
        public static Cloth Create<T>(World world, T[] vertices, int[] triangles, float massKg, float compliance)
            where T : struct
        {
            Args.NotNull(world, "Cloth.Create", "world");
            ClothSettings s = ClothSettings.Default;
            s.StretchCompliance = compliance;
            return Create(world, vertices, triangles, massKg, s, null);
        }

        /// <summary>Builds a cloth with every setting of the library's cloth (model,
        /// stretch / shear / bend compliances, bending model, tethers, damping).
        /// <paramref name="pinnedVertices"/> (mesh vertex indices, may be null) start pinned
        /// (inverse mass 0), so that the library's tethers run from them.</summary>
        public static unsafe Cloth Create<T>(World world, T[] vertices, int[] triangles, float massKg,
                                             ClothSettings settings, int[] pinnedVertices)
            where T : struct
        {
            const string F = "Cloth.Create";
            Args.NotNull(world, F, "world");
            Args.NotNull(vertices, F, "vertices");
            Args.NotNull(triangles, F, "triangles");
            Args.Vec3Element<T>(F);
            if (vertices.Length == 0 || triangles.Length == 0 || triangles.Length % 3 != 0)
                throw SinewException.Argument(F, "needs vertices and a non-empty multiple of 3 triangle indices (got " +
                    vertices.Length + " vertices, " + triangles.Length + " indices)");
            if (!(massKg > 0) || float.IsInfinity(massKg))
                throw SinewException.Argument(F, "massKg " + massKg + " is not a positive finite mass");

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

            var inverseMasses = new float[positions.Count];
            float w = positions.Count / massKg;
            for (int i = 0; i < inverseMasses.Length; i++)
                inverseMasses[i] = w;
            if (pinnedVertices != null)
            {
                foreach (int v in pinnedVertices)
                {
                    Args.Range(map.Length, v, 1, F, "pinnedVertices");
                    inverseMasses[map[v]] = 0f;
                }
            }
            Body body = world.AddClothMesh(settings, positions.ToArray(), welded.ToArray(), inverseMasses);
            return new Cloth(world, body)
            {
                TriangleCount = welded.Count / 3,
                vertexToParticle = map,
                identity = positions.Count == vertices.Length,
                meshCorners = corners.ToArray(),
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

// Cloth built from a triangle mesh: one particle per distinct vertex position, one XPBD
// distance constraint per distinct triangle edge (engine-neutral; the Unity SinewCloth
// component is a thin shell over it).

using System.Collections.Generic;
using Sinew.Native;

namespace Sinew
{
    /// <summary>A cloth over a triangle mesh. Vertices at exactly the same position (UV
    /// seams, hard edges) are welded into one particle, so the cloth does not tear along
    /// seams; <see cref="ReadVertices{T}(T[])"/> writes every mesh vertex back, welded ones
    /// from their shared particle. Particles are consecutive from <see cref="FirstParticle"/>,
    /// constraints from <see cref="FirstConstraint"/>.</summary>
    public sealed class Cloth
    {
        public World World { get; private set; }
        public int FirstParticle { get; private set; }
        public int ParticleCount { get; private set; }
        public int FirstConstraint { get; private set; }
        /// <summary>Number of distinct edges = distance constraints.</summary>
        public int EdgeCount { get; private set; }
        /// <summary>Number of mesh vertices (>= ParticleCount).</summary>
        public int VertexCount { get { return vertexToParticle.Length; } }

        int[] vertexToParticle; // mesh vertex -> particle offset from FirstParticle
        bool identity;          // no vertex welded: vertex i is particle i
        SinewVec3[] scratch;    // particle positions, when vertices must be scattered
        readonly SinewVec3[] one = new SinewVec3[1];
        readonly float[] oneMass = new float[1];

        Cloth() { }

        /// <summary>Builds a cloth from <paramref name="vertices"/> (m, world space; any
        /// struct whose first 12 bytes are x, y, z) and <paramref name="triangles"/>
        /// (3 vertex indices each), total mass <paramref name="massKg"/> (kg) shared
        /// equally by the particles, edge compliance <paramref name="compliance"/> (m/N).</summary>
        public static unsafe Cloth Create<T>(World world, T[] vertices, int[] triangles, float massKg, float compliance)
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
            if (!(compliance >= 0 && compliance <= Rope.MaxCompliance))
                throw SinewException.Argument(F, "compliance " + compliance + " is not in [0, 1e10] (m/N)");

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

            // Distinct edges of the triangles, in order of first appearance.
            int first = world.ParticleCount;
            var edges = new HashSet<long>();
            var pairs = new List<int>(triangles.Length * 2);
            for (int t = 0; t < triangles.Length; t += 3)
            {
                for (int e = 0; e < 3; e++)
                {
                    int va = triangles[t + e], vb = triangles[t + (e + 1) % 3];
                    if (va < 0 || va >= map.Length || vb < 0 || vb >= map.Length)
                        throw new SinewException(SinewStatus.ErrorOutOfRange, F + ": triangle " + t / 3 +
                            " has vertex index " + (va < 0 || va >= map.Length ? va : vb) + " outside 0.." + (map.Length - 1));
                    int a = map[va], b = map[vb];
                    if (a == b)
                        continue; // degenerate edge (welded or repeated vertex)
                    long key = a < b ? ((long)a << 32) | (uint)b : ((long)b << 32) | (uint)a;
                    if (edges.Add(key))
                    {
                        pairs.Add(first + a);
                        pairs.Add(first + b);
                    }
                }
            }
            if (pairs.Count == 0)
                throw SinewException.Argument(F, "the triangles have no edge of non-zero length");

            var inverseMasses = new float[positions.Count];
            float w = positions.Count / massKg;
            for (int i = 0; i < inverseMasses.Length; i++)
                inverseMasses[i] = w;
            int p0 = world.AddParticles(positions.ToArray(), inverseMasses);
            int c0 = world.AddDistanceConstraints(pairs.ToArray(), null, compliance);
            return new Cloth
            {
                World = world,
                FirstParticle = p0,
                ParticleCount = positions.Count,
                FirstConstraint = c0,
                EdgeCount = pairs.Count / 2,
                vertexToParticle = map,
                identity = positions.Count == vertices.Length,
            };
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

        /// <summary>Writes every mesh vertex's position (m) into vertices[0..VertexCount].</summary>
        public unsafe void ReadVertices<T>(T[] vertices) where T : struct
        {
            const string F = "Cloth.ReadVertices";
            Args.NotNull(vertices, F, "vertices");
            Args.Vec3Element<T>(F);
            Args.Range(vertices.Length, 0, VertexCount, F, "vertices");
            using (var p = new Pin(vertices))
                ReadVertices(p.Ptr, Element<T>.Size);
        }

        /// <summary>Writes every mesh vertex's position (m) to <paramref name="destination"/>,
        /// one x, y, z every <paramref name="strideBytes"/> (>= 12), e.g. a NativeArray's
        /// memory. Without welded vertices this is one library call straight into it.</summary>
        public unsafe void ReadVertices(void* destination, int strideBytes)
        {
            if (identity)
            {
                World.ReadPositions(FirstParticle, ParticleCount, destination, strideBytes);
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

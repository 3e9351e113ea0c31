// The engine-neutral half of SinewSoftBody: what it hands to the library. The component
// copies its inspector fields into a SoftBodyOptions value and its mesh (world space)
// into arrays; SinewSoftBodyAuthoring builds the soft body in one of three modes:
//
//  * Pressure: the render mesh welded at its seams (SoftBodyMeshes.Weld) is the closed
//    surface of a pressure body (edges + one volume constraint at Pressure × the rest
//    volume); each render vertex follows its welded particle.
//  * Tetrahedral: the mesh is cut into tets in the library (SoftBodyMeshes.Tetrahedralize,
//    Resolution cells across) and becomes a tet body (edges + tet volumes); the render
//    vertices are embedded in the tets (SoftBodyMeshes.Embed) and follow them.
//  * ShapeMatching: the same tet body (give it soft edges and volumes: a large
//    StretchCompliance), plus one shape-matching cluster
//    (Müller et al. 2005) per tet-mesh vertex over the vertices that share a tet with it:
//    the clusters hold the shape (ShapeStiffness), and yield and creep make it plastic.
//
// Later edits of in-place options go into the live body (compliances, pressure, mass,
// damping, stiffness, collision); Mode, Resolution, yield and creep rebuild it
// (RebuildReason). No UnityEngine type is used here, so tests/csharp compiles this file
// into the Mono tests and checks it against the library.

using System;
using System.Collections.Generic;
using Sinew.Native;

namespace Sinew.Unity
{
    /// <summary>How SinewSoftBody turns its mesh into a soft body.</summary>
    public enum SoftBodyMode
    {
        /// <summary>The closed surface itself, inflated: edges + one volume constraint.</summary>
        Pressure = 0,
        /// <summary>A tet mesh cut from the closed mesh by the library: edges + tet volumes.</summary>
        Tetrahedral = 1,
        /// <summary>The tet mesh with soft edges and overlapping shape-matching clusters
        /// (stiffness, plasticity).</summary>
        ShapeMatching = 2,
    }

    /// <summary>Everything SinewSoftBody sets on its body. "Rebuild" fields are read when
    /// the body is built; the others are edited in place.</summary>
    public struct SoftBodyOptions
    {
        /// <summary>Rebuild. Pressure, tet or shape-matched body.</summary>
        public SoftBodyMode Mode;
        /// <summary>Rebuild. Tet and shape modes: grid cells across the mesh's longest side,
        /// 1..128 (5 tets per cell inside the mesh).</summary>
        public int Resolution;
        /// <summary>In place. Total mass, kg (> 0).</summary>
        public float MassKg;
        /// <summary>In place. Compliance of the edges (surface edges of a pressure body, tet
        /// edges otherwise), m/N (0 = rigid).</summary>
        public float StretchCompliance;
        /// <summary>In place. Compliance of the volume: the enclosed volume of a pressure
        /// body (m⁵/N), each tet's volume otherwise (1/(N·m)); 0 = incompressible.</summary>
        public float VolumeCompliance;
        /// <summary>In place. Pressure mode: the body keeps Pressure × its rest volume
        /// (overpressure factor, (0, 100]; 1 = its rest shape).</summary>
        public float Pressure;
        /// <summary>In place. Shape mode: stiffness of the clusters per substep, [0, 1].</summary>
        public float ShapeStiffness;
        /// <summary>Rebuild. Shape mode: mean distance (m) from the goal shape past which a
        /// cluster deforms plastically; +∞ = elastic.</summary>
        public float ShapeYield;
        /// <summary>Rebuild. Shape mode: fraction of the excess deformation the rest shape
        /// takes per substep once yielded, [0, 1].</summary>
        public float ShapeCreep;
        /// <summary>In place. Extra velocity damping, 1/s (>= 0).</summary>
        public float Damping;
        /// <summary>In place. Collision radius and filter of the particles.</summary>
        public CollisionOptions Collision;

        /// <summary>A 1 kg pressure body at its rest volume, resolution 8 for the tet modes,
        /// stiff clusters, elastic.</summary>
        public static SoftBodyOptions Default
        {
            get
            {
                return new SoftBodyOptions
                {
                    Mode = SoftBodyMode.Pressure,
                    Resolution = 8,
                    MassKg = 1f,
                    StretchCompliance = 1e-4f,
                    VolumeCompliance = 0f,
                    Pressure = 1f,
                    ShapeStiffness = 0.5f,
                    ShapeYield = float.PositiveInfinity,
                    ShapeCreep = 0f,
                    Damping = 0.5f,
                    Collision = CollisionOptions.Default,
                };
            }
        }
    }

    /// <summary>A soft body built from a render mesh, with what moves the render mesh:
    /// <see cref="ReadRenderVertices{T}"/> writes each render vertex from the particles.</summary>
    public sealed class BuiltSoftBody : IDisposable
    {
        /// <summary>The library body (pressure or tet).</summary>
        public Body Body { get; internal set; }
        /// <summary>The mode it was built in.</summary>
        public SoftBodyMode Mode { get; internal set; }
        /// <summary>Pressure mode: the particle (body-local) each render vertex follows.</summary>
        public int[] Follow { get; internal set; }
        /// <summary>Tet and shape modes: the render vertices embedded in the tets.</summary>
        public TetEmbedding Embedding { get; internal set; }
        /// <summary>Tet and shape modes: the tet mesh (rest positions); pressure: null.</summary>
        public TetMesh Tets { get; internal set; }
        /// <summary>Pressure mode: the welded surface (body-local particle indices).</summary>
        public int[] Surface { get; internal set; }
        /// <summary>Shape mode: the first cluster id and the number of clusters.</summary>
        public int FirstCluster { get; internal set; }
        public int ClusterCount { get; internal set; }
        /// <summary>Number of render vertices it moves.</summary>
        public int RenderVertexCount { get; internal set; }

        SinewVec3[] particles;

        /// <summary>The body's particle positions (m), read by the last
        /// <see cref="ReadRenderVertices{T}"/> or <see cref="ReadParticles"/>.</summary>
        public SinewVec3[] Particles { get { return particles; } }

        /// <summary>Reads the particles (one library call into a buffer kept between
        /// calls), interpolated between the last two steps by <paramref name="alpha"/> in
        /// [0, 1] (1 = the latest state).</summary>
        public SinewVec3[] ReadParticles(float alpha = 1f)
        {
            if (particles == null || particles.Length != Body.ParticleCount)
                particles = new SinewVec3[Body.ParticleCount];
            if (alpha >= 1f)
                Body.ReadPositions(particles);
            else
                Body.ReadInterpolatedPositions(alpha, particles);
            return particles;
        }

        /// <summary>Writes the render vertices (world space, m) moved with the particles
        /// (interpolated by <paramref name="alpha"/>, see <see cref="ReadParticles"/>) to
        /// <paramref name="vertices"/> (at least RenderVertexCount; only x, y, z of each
        /// element are written). Allocates nothing after the first call.</summary>
        public void ReadRenderVertices<T>(T[] vertices, float alpha = 1f) where T : struct
        {
            ReadParticles(alpha);
            if (Mode == SoftBodyMode.Pressure)
                FollowParticles(vertices);
            else
                Embedding.Apply(particles, vertices);
        }

        unsafe void FollowParticles<T>(T[] vertices) where T : struct
        {
            const string F = "BuiltSoftBody.ReadRenderVertices";
            if (vertices == null)
                throw new ArgumentNullException("vertices", F + ": vertices is null");
            if (vertices.Length < Follow.Length)
                throw new ArgumentException(F + ": vertices has " + vertices.Length + " elements for " +
                    Follow.Length + " render vertices");
            int stride = System.Runtime.InteropServices.Marshal.SizeOf(typeof(T));
            if (stride < 12)
                throw new ArgumentException(F + ": " + typeof(T).Name + " is smaller than three floats");
            var handle = System.Runtime.InteropServices.GCHandle.Alloc(vertices,
                System.Runtime.InteropServices.GCHandleType.Pinned);
            try
            {
                byte* p = (byte*)handle.AddrOfPinnedObject();
                for (int i = 0; i < Follow.Length; i++)
                    *(SinewVec3*)(p + (long)i * stride) = particles[Follow[i]];
            }
            finally
            {
                handle.Free();
            }
        }

        /// <summary>Removes the clusters and the body (nothing when the world is gone).</summary>
        public void Dispose()
        {
            if (Body == null || Body.IsRemoved || Body.World.IsDisposed)
                return;
            if (ClusterCount > 0)
                Body.World.RemoveConstraints(SinewFamily.ShapeCluster, FirstCluster, ClusterCount);
            Body.Dispose();
        }
    }

    /// <summary>Builds and edits SinewSoftBody's body (see the file's header).</summary>
    public static class SinewSoftBodyAuthoring
    {
        /// <summary>Builds the soft body from a closed render mesh (world space, m;
        /// triangles counter-clockwise seen from outside; seams welded by the library).</summary>
        public static BuiltSoftBody Build<T>(World world, T[] vertices, int[] triangles, SoftBodyOptions o)
            where T : struct
        {
            var built = new BuiltSoftBody { Mode = o.Mode, RenderVertexCount = vertices.Length };
            if (o.Mode == SoftBodyMode.Pressure)
            {
                WeldedMesh welded = SoftBodyMeshes.Weld(vertices, triangles);
                var s = PressureBodySettings.Default;
                s.TotalMass = o.MassKg;
                s.StretchCompliance = o.StretchCompliance;
                s.VolumeCompliance = o.VolumeCompliance;
                s.Pressure = o.Pressure;
                s.Damping = o.Damping;
                built.Body = world.AddPressureBody(s, welded.Vertices, welded.Triangles);
                built.Follow = welded.Map;
                built.Surface = welded.Triangles;
            }
            else
            {
                TetMesh tets = SoftBodyMeshes.Tetrahedralize(vertices, triangles, o.Resolution);
                built.Tets = tets;
                built.Embedding = SoftBodyMeshes.Embed(tets.Vertices, tets.Tets, vertices);
                var s = TetBodySettings.Default;
                s.TotalMass = o.MassKg;
                s.StretchCompliance = o.StretchCompliance;
                s.VolumeCompliance = o.VolumeCompliance;
                s.Damping = o.Damping;
                built.Body = world.AddTetBody(s, tets.Vertices, tets.Tets);
            }
            try
            {
                if (o.Mode == SoftBodyMode.ShapeMatching)
                    AddClusters(built, o);
                SinewAuthoring.ApplyCollision(built.Body, o.Collision);
            }
            catch
            {
                built.Dispose();
                throw;
            }
            return built;
        }

        /// <summary>One cluster per tet-mesh vertex: the vertex and every vertex sharing a tet
        /// with it (world particle indices, ascending).</summary>
        static void AddClusters(BuiltSoftBody built, SoftBodyOptions o)
        {
            TetMesh tets = built.Tets;
            int n = tets.Vertices.Length, first = built.Body.FirstParticle;
            var ring = new SortedSet<int>[n];
            for (int i = 0; i < n; i++)
                ring[i] = new SortedSet<int> { i };
            int[] t = tets.Tets;
            for (int j = 0; j < t.Length; j += 4)
                for (int a = 0; a < 4; a++)
                    for (int b = 0; b < 4; b++)
                        ring[t[j + a]].Add(t[j + b]);
            World world = built.Body.World;
            for (int i = 0; i < n; i++)
            {
                var members = new int[ring[i].Count];
                int k = 0;
                foreach (int v in ring[i])
                    members[k++] = first + v;
                int id = world.AddShapeCluster(members, o.ShapeStiffness, o.ShapeYield, o.ShapeCreep);
                if (i == 0)
                    built.FirstCluster = id;
                built.ClusterCount = i + 1;
            }
        }

        /// <summary>The field whose change needs the body built again (empty = none).</summary>
        public static string RebuildReason(SoftBodyOptions built, SoftBodyOptions wanted)
        {
            if (built.Mode != wanted.Mode) return "Mode";
            if (wanted.Mode != SoftBodyMode.Pressure && built.Resolution != wanted.Resolution) return "Resolution";
            if (wanted.Mode == SoftBodyMode.ShapeMatching)
            {
                if (!built.ShapeYield.Equals(wanted.ShapeYield)) return "Shape Yield";
                if (built.ShapeCreep != wanted.ShapeCreep) return "Shape Creep";
            }
            return "";
        }

        /// <summary>Pushes every in-place option that differs from <paramref name="applied"/>
        /// into the live body and records it there.</summary>
        public static void Edit(BuiltSoftBody built, ref SoftBodyOptions applied, SoftBodyOptions wanted)
        {
            Body body = built.Body;
            if (wanted.StretchCompliance != applied.StretchCompliance)
            {
                body.SetCompliance(SinewBodyConstraints.Stretch, wanted.StretchCompliance);
                applied.StretchCompliance = wanted.StretchCompliance;
            }
            if (wanted.VolumeCompliance != applied.VolumeCompliance)
            {
                body.SetCompliance(SinewBodyConstraints.Volume, wanted.VolumeCompliance);
                applied.VolumeCompliance = wanted.VolumeCompliance;
            }
            if (wanted.Pressure != applied.Pressure)
            {
                if (built.Mode == SoftBodyMode.Pressure)
                    body.SetPressure(wanted.Pressure);
                applied.Pressure = wanted.Pressure;
            }
            if (wanted.ShapeStiffness != applied.ShapeStiffness)
            {
                for (int k = 0; k < built.ClusterCount; k++)
                    body.World.SetShapeClusterStiffness(built.FirstCluster + k, wanted.ShapeStiffness);
                applied.ShapeStiffness = wanted.ShapeStiffness;
            }
            if (wanted.MassKg != applied.MassKg)
            {
                body.SetMass(wanted.MassKg);
                applied.MassKg = wanted.MassKg;
            }
            if (wanted.Damping != applied.Damping)
            {
                body.Damping = wanted.Damping;
                applied.Damping = wanted.Damping;
            }
            if (!wanted.Collision.Same(applied.Collision))
            {
                SinewAuthoring.ApplyCollision(body, wanted.Collision);
                applied.Collision = wanted.Collision;
            }
        }
    }
}

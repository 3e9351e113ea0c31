// The signed distance fields SinewCollider bakes from MeshColliders (docs/unity.md,
// "Mesh colliders"): the library's SdfGrid.FromMesh over the mesh's vertices scaled by the
// object's lossy scale (a mirroring scale flips the triangles back), baked once per (mesh,
// scale, cell size, margin) and shared by every collider asking for the same, for the
// editor session or the player's run (ClearSdfCache drops them). A mesh the library
// refuses (open, inconsistently wound, degenerate, or a grid over SINEW_MAX_SDF_SAMPLES
// nodes) is remembered with the library's message, so it is not baked again every step.

using System.Collections.Generic;
using UnityEngine;

namespace Sinew.Unity
{
    public static class SinewSdfCache
    {
        struct Key
        {
            public Mesh mesh;
            public Vector3 scale;
            public float cell, margin;
        }

        sealed class KeyComparer : IEqualityComparer<Key>
        {
            public bool Equals(Key a, Key b)
            {
                return ReferenceEquals(a.mesh, b.mesh) && a.scale.x == b.scale.x && a.scale.y == b.scale.y &&
                       a.scale.z == b.scale.z && a.cell == b.cell && a.margin == b.margin;
            }

            public int GetHashCode(Key k)
            {
                int h = System.Runtime.CompilerServices.RuntimeHelpers.GetHashCode(k.mesh);
                h = h * 31 + k.scale.x.GetHashCode();
                h = h * 31 + k.scale.y.GetHashCode();
                h = h * 31 + k.scale.z.GetHashCode();
                h = h * 31 + k.cell.GetHashCode();
                return h * 31 + k.margin.GetHashCode();
            }
        }

        sealed class Baked
        {
            public SdfGrid grid;
            public string error;
        }

        static readonly Dictionary<Key, Baked> cache = new Dictionary<Key, Baked>(new KeyComparer());

        /// <summary>Fields baked (or refused) and kept.</summary>
        public static int Count { get { return cache.Count; } }

        /// <summary>Drops every baked field (colliders keep the ones they use; the next
        /// request bakes again).</summary>
        public static void ClearSdfCache()
        {
            cache.Clear();
        }

        /// <summary>The field of <paramref name="mesh"/> scaled by <paramref name="scale"/>,
        /// nodes every <paramref name="cellSize"/> m over its box grown by
        /// <paramref name="margin"/> m, in the frame of the object (its position and rotation
        /// place it); null with the library's reason in <paramref name="error"/> when the
        /// mesh cannot be one.</summary>
        public static SdfGrid Get(Mesh mesh, Vector3 scale, float cellSize, float margin, out string error)
        {
            var key = new Key { mesh = mesh, scale = scale, cell = cellSize, margin = margin };
            Baked b;
            if (!cache.TryGetValue(key, out b))
            {
                b = Bake(mesh, scale, cellSize, margin);
                cache[key] = b;
            }
            error = b.error;
            return b.grid;
        }

        static Baked Bake(Mesh mesh, Vector3 scale, float cellSize, float margin)
        {
            Vector3[] v = mesh.vertices;
            int[] t = mesh.triangles;
            if (v == null || t == null || v.Length == 0 || t.Length == 0)
                return new Baked { error = "the mesh has no triangles (or is not readable: tick Read/Write in its import settings)" };
            var scaled = new Vector3[v.Length];
            for (int i = 0; i < v.Length; i++)
                scaled[i] = new Vector3(v[i].x * scale.x, v[i].y * scale.y, v[i].z * scale.z);
            if (scale.x * scale.y * scale.z < 0f)
            {
                // A mirroring scale turns the mesh inside out: wind it back.
                t = (int[])t.Clone();
                for (int i = 0; i + 2 < t.Length; i += 3)
                {
                    int swap = t[i + 1];
                    t[i + 1] = t[i + 2];
                    t[i + 2] = swap;
                }
            }
            try
            {
                return new Baked { grid = SdfGrid.FromMesh(scaled, t, cellSize, margin), error = "" };
            }
            catch (SinewException e)
            {
                return new Baked { error = e.Message };
            }
        }
    }
}

// Scene-view drawing shared by the Sinew components (OnDrawGizmos / OnDrawGizmosSelected):
// one colour per kind of thing, so that particles, constraints, pins, colliders and
// attachment points read the same on a rope, a cloth and a collider. Gizmos only draw in
// the editor; nothing here touches the library.

using UnityEngine;

namespace Sinew.Unity
{
    /// <summary>Colours and shapes of the components' gizmos.</summary>
    public static class SinewGizmos
    {
        /// <summary>Particles (spheres at their collision radius).</summary>
        public static readonly Color Particle = new Color(0.35f, 0.75f, 1f, 0.9f);
        /// <summary>Constraints: rope links, cloth edges.</summary>
        public static readonly Color Constraint = new Color(1f, 0.85f, 0.3f, 0.9f);
        /// <summary>Pinned particles.</summary>
        public static readonly Color Pinned = new Color(1f, 0.25f, 0.2f, 1f);
        /// <summary>Attachment points (the transforms pins follow) and the line to their particle.</summary>
        public static readonly Color Attachment = new Color(0.3f, 1f, 0.4f, 1f);
        /// <summary>A sleeping body's constraints (its island is frozen).</summary>
        public static readonly Color Asleep = new Color(0.45f, 0.45f, 0.55f, 0.9f);
        /// <summary>Collider shapes.</summary>
        public static readonly Color Collider = new Color(0.6f, 1f, 0.6f, 0.8f);

        /// <summary>Smallest sphere drawn for a particle of radius 0, m.</summary>
        public const float PointSize = 0.005f;

        /// <summary>A particle: a wire sphere at its radius (a small one for a point).</summary>
        public static void DrawParticle(Vector3 position, float radius)
        {
            Gizmos.color = Particle;
            Gizmos.DrawWireSphere(position, radius > 0f ? radius : PointSize);
        }

        /// <summary>A pinned particle: a solid cube a little larger than the particle.</summary>
        public static void DrawPin(Vector3 position, float radius)
        {
            float s = 2.5f * System.Math.Max(radius, PointSize * 2f);
            Gizmos.color = Pinned;
            Gizmos.DrawCube(position, new Vector3(s, s, s));
        }

        /// <summary>Most triangles a mesh gizmo draws (larger meshes: the first ones).</summary>
        public const int MaxTriangles = 20000;
        /// <summary>Most particle spheres a mesh gizmo draws.</summary>
        public const int MaxParticles = 4096;

        /// <summary>A cloth: the edges of its triangles (constraints) and, when radius > 0,
        /// a sphere per vertex (particles).</summary>
        public static void DrawMesh(Vector3[] vertices, int[] triangles, float radius)
        {
            Gizmos.color = Constraint;
            int corners = System.Math.Min(triangles.Length, 3 * MaxTriangles);
            for (int t = 0; t + 2 < corners; t += 3)
            {
                int a = triangles[t], b = triangles[t + 1], c = triangles[t + 2];
                if (a >= vertices.Length || b >= vertices.Length || c >= vertices.Length)
                    continue;
                Gizmos.DrawLine(vertices[a], vertices[b]);
                Gizmos.DrawLine(vertices[b], vertices[c]);
                Gizmos.DrawLine(vertices[c], vertices[a]);
            }
            if (radius > 0f && vertices.Length <= MaxParticles)
                for (int i = 0; i < vertices.Length; i++)
                    DrawParticle(vertices[i], radius);
        }

        /// <summary>An attachment point and the line to the particle it drives.</summary>
        public static void DrawAttachment(Vector3 attachment, Vector3 particle)
        {
            Gizmos.color = Attachment;
            Gizmos.DrawWireSphere(attachment, PointSize * 3f);
            Gizmos.DrawLine(attachment, particle);
        }
    }
}

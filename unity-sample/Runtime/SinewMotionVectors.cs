// Per-vertex motion vectors for a mesh whose vertices Sinew moves (cloth, soft bodies, rope
// tubes). Unity computes a renderer's motion vectors from its transform (and a skinned
// mesh's from its previous skinning), never from vertices a script writes, so a flapping
// cloth on a still transform would show no motion at all. HDRP's Lit shaders (and Shader
// Graph with "Add Precomputed Velocity") and URP's object motion-vector pass read, with the
// material keyword _ADD_PRECOMPUTED_VELOCITY, the vertex's displacement since the previous
// frame in object space from TEXCOORD5 and take it off the current position:
// previous = unity_MatrixPreviousM · (positionOS − TEXCOORD5). This writes exactly that into
// UV channel 5, current − previous local position per vertex, into an array kept between
// frames (no allocation per frame), and sets the renderer's motionVectorGenerationMode to
// Object so that the motion-vector pass draws it. The first frame, and the frame after a
// change of vertex count (a tear, a rebuild), write zero. docs/unity.md, "Motion vectors".

using Unity.Collections;
using UnityEngine;

namespace Sinew.Unity
{
    public sealed class SinewMotionVectors
    {
        /// <summary>The UV channel the displacement goes to (TEXCOORD5).</summary>
        public const int Channel = 5;

        Vector3[] previous = new Vector3[0];
        Vector3[] displacement = new Vector3[0];
        bool havePrevious;

        /// <summary>Forgets the previous frame: the next <see cref="Apply(Mesh, Vector3[])"/>
        /// writes zero displacement (after a teleport, a rebuild or a tear).</summary>
        public void Reset()
        {
            havePrevious = false;
        }

        /// <summary>Lets <paramref name="renderer"/>'s motion-vector pass draw the object
        /// even when its transform stands still (motionVectorGenerationMode = Object; set
        /// only when it is not, so it can be called every frame).</summary>
        public static void Enable(Renderer renderer)
        {
            if (renderer != null && renderer.motionVectorGenerationMode != MotionVectorGenerationMode.Object)
                renderer.motionVectorGenerationMode = MotionVectorGenerationMode.Object;
        }

        /// <summary>This frame's vertices (the mesh's space): writes current − previous into
        /// UV channel 5 of <paramref name="mesh"/> and keeps them for the next frame.</summary>
        public void Apply(Mesh mesh, Vector3[] vertices)
        {
            int n = vertices.Length;
            Prepare(n);
            for (int i = 0; i < n; i++)
                Store(i, vertices[i]);
            Finish(mesh);
        }

        /// <summary><see cref="Apply(Mesh, Vector3[])"/> for vertices in a NativeArray.</summary>
        public void Apply(Mesh mesh, NativeArray<Vector3> vertices)
        {
            int n = vertices.Length;
            Prepare(n);
            for (int i = 0; i < n; i++)
                Store(i, vertices[i]);
            Finish(mesh);
        }

        void Prepare(int n)
        {
            if (previous.Length != n)
            {
                previous = new Vector3[n];
                displacement = new Vector3[n];
                havePrevious = false;
            }
        }

        void Store(int i, Vector3 v)
        {
            Vector3 p = previous[i];
            displacement[i] = havePrevious ? new Vector3(v.x - p.x, v.y - p.y, v.z - p.z) : new Vector3(0f, 0f, 0f);
            previous[i] = v;
        }

        void Finish(Mesh mesh)
        {
            havePrevious = true;
            mesh.SetUVs(Channel, displacement);
        }
    }
}

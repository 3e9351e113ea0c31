// Cloth from this object's MeshFilter: one particle per distinct vertex, one XPBD
// distance constraint per edge (Sinew.Cloth). Vertices nearest to the `pins` transforms
// are pinned and follow them; every frame the simulated positions are read straight
// into a NativeArray, turned into local space and handed to the mesh.

using Unity.Collections;
using Unity.Collections.LowLevel.Unsafe;
using UnityEngine;

namespace Sinew.Unity
{
    [RequireComponent(typeof(MeshFilter))]
    [AddComponentMenu("Sinew/Sinew Cloth")]
    public sealed class SinewCloth : MonoBehaviour
    {
        [Tooltip("The world to live in; empty = the first SinewWorldBehaviour in the scene.")]
        public SinewWorldBehaviour world;
        [Tooltip("Total mass of the cloth, kg.")]
        [Min(1e-4f)]
        public float massKg = 0.5f;
        [Tooltip("Edge compliance α, m/N (0 = inextensible).")]
        [Min(0f)]
        public float compliance = 1e-6f;
        [Tooltip("Each transform pins the vertex nearest to it at Start; the vertex then follows it.")]
        public Transform[] pins = new Transform[0];

        /// <summary>The engine-neutral cloth (null before Start).</summary>
        public Cloth Cloth { get; private set; }

        Mesh mesh;
        NativeArray<Vector3> vertices;
        int[] pinnedVertices = new int[0];

        void Start()
        {
            if (world == null)
                world = SinewWorldBehaviour.FindInScene();
            if (world == null)
            {
                Debug.LogError("SinewCloth needs a SinewWorldBehaviour", this);
                enabled = false;
                return;
            }
            mesh = GetComponent<MeshFilter>().mesh; // this object's own copy
            mesh.MarkDynamic();
            Vector3[] local = mesh.vertices;
            var worldSpace = new Vector3[local.Length];
            for (int i = 0; i < local.Length; i++)
                worldSpace[i] = transform.TransformPoint(local[i]);
            Cloth = Cloth.Create(world.World, worldSpace, mesh.triangles, massKg, compliance);
            pinnedVertices = new int[pins.Length];
            for (int i = 0; i < pins.Length; i++)
            {
                pinnedVertices[i] = Cloth.NearestVertex(pins[i].position.ToSinew());
                Cloth.PinVertex(pinnedVertices[i], true, 0f);
            }
            vertices = new NativeArray<Vector3>(local.Length, Allocator.Persistent);
            world.BeforeStep += FollowPins;
        }

        void FollowPins()
        {
            if (Cloth == null || Cloth.World.IsDisposed)
                return;
            for (int i = 0; i < pinnedVertices.Length; i++)
                if (pins[i] != null)
                    Cloth.MoveVertex(pinnedVertices[i], pins[i].position.ToSinew());
        }

        unsafe void LateUpdate()
        {
            if (Cloth == null || Cloth.World.IsDisposed || !vertices.IsCreated)
                return;
            Cloth.ReadVertices(vertices.GetUnsafePtr(), 12);
            Matrix4x4 toLocal = transform.worldToLocalMatrix;
            for (int i = 0; i < vertices.Length; i++)
                vertices[i] = toLocal.MultiplyPoint3x4(vertices[i]);
            mesh.SetVertices(vertices);
            mesh.RecalculateNormals();
            mesh.RecalculateBounds();
        }

        void OnDestroy()
        {
            if (world != null)
                world.BeforeStep -= FollowPins;
            if (vertices.IsCreated)
                vertices.Dispose();
            if (mesh != null)
                Destroy(mesh);
        }
    }
}

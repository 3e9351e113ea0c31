// Cloth from this object's MeshFilter, built by the library (Sinew.Cloth over
// sinew_world_add_cloth_mesh: one particle per distinct vertex, edges, bending and
// tethers to the pinned vertices). Vertices nearest to the `pins` transforms are pinned
// and follow them; every frame the simulated positions are read straight into a
// NativeArray, turned into local space and handed to the mesh. With a tear threshold,
// edges stretched past it split the cloth; when the library's topology version changes
// the mesh gets the new vertices (each with the UV of the vertex it was split from) and
// triangles. Removed from the world when destroyed.

using Sinew.Native;
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
        [Tooltip("Edge compliance α, m/N (0 = inextensible); strain model: warp stretch, 1/(N·m).")]
        [Min(0f)]
        public float compliance = 1e-6f;
        [Tooltip("Edges: a link per edge. Strain: warp, weft and shear strain per triangle.")]
        public SinewClothModel model = SinewClothModel.ClothEdges;
        [Tooltip("Strain model: weft stretch compliance, 1/(N·m).")]
        [Min(0f)]
        public float weftCompliance = 0f;
        [Tooltip("Strain model: shear compliance, 1/(N·m).")]
        [Min(0f)]
        public float shearCompliance = 1e-4f;
        [Tooltip("None, distance links across edges, dihedral angle (rad/(N·m)) or isometric (1/(N·m)).")]
        public SinewBendingModel bending = SinewBendingModel.BendingDihedral;
        [Tooltip("Bending compliance, in the units of the bending model (larger = softer).")]
        [Min(0f)]
        public float bendCompliance = 1f;
        [Tooltip("Tether every free vertex to its nearest pinned one: the cloth does not sag from its pins.")]
        public bool tethers = true;
        [Tooltip("Extra velocity damping of the cloth, 1/s.")]
        [Min(0f)]
        public float damping = 0f;
        [Tooltip("Each transform pins the vertex nearest to it at Start; the vertex then follows it.")]
        public Transform[] pins = new Transform[0];
        [Tooltip("Tear Threshold: stretch ratio (length / rest length, above 1) past which an edge tears and the mesh splits there; 0 = never tears. Edges model only; can change while playing.")]
        [Min(0f)]
        public float tearThreshold = 0f;
        [Tooltip("Spare particles for tearing, taken at the first non-zero threshold (each split takes one); 0 = a quarter of the cloth's particles.")]
        [Min(0f)]
        public int tearReserve = 0;

        /// <summary>The engine-neutral cloth (null before Start).</summary>
        public Cloth Cloth { get; private set; }

        Mesh mesh;
        NativeArray<Vector3> vertices;
        int[] pinnedVertices = new int[0];
        Vector2[] meshUV;
        float appliedTearThreshold;

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
            // Pins are chosen before the build so that the library tethers to them.
            pinnedVertices = new int[pins.Length];
            for (int i = 0; i < pins.Length; i++)
                pinnedVertices[i] = Cloth.NearestVertex(worldSpace, pins[i].position.ToSinew());
            var s = ClothSettings.Default;
            s.Model = model;
            s.StretchCompliance = compliance;
            s.WeftCompliance = weftCompliance;
            s.ShearCompliance = shearCompliance;
            s.Bending = bending;
            s.BendCompliance = bendCompliance;
            s.Tethers = tethers;
            s.Damping = damping;
            Cloth = Cloth.Create(world.World, worldSpace, mesh.triangles, massKg, s, pinnedVertices);
            vertices = new NativeArray<Vector3>(local.Length, Allocator.Persistent);
            meshUV = mesh.uv;
            ApplyTearThreshold();
            world.BeforeStep += FollowPins;
        }

        /// Sends a changed Tear Threshold to the library (an in-place edit; the reserve is
        /// taken with the first non-zero threshold).
        void ApplyTearThreshold()
        {
            if (tearThreshold == appliedTearThreshold)
                return;
            if (appliedTearThreshold == 0f)
                Cloth.EnableTearing(tearThreshold, tearReserve);
            else
                Cloth.TearThreshold = tearThreshold;
            appliedTearThreshold = tearThreshold;
        }

        /// The library split vertices: new vertices (UV of their source) and triangles.
        unsafe void RebuildMesh()
        {
            int n = Cloth.MeshVertexCount;
            if (vertices.Length != n)
            {
                vertices.Dispose();
                vertices = new NativeArray<Vector3>(n, Allocator.Persistent);
            }
            if (n > 65535)
                mesh.indexFormat = UnityEngine.Rendering.IndexFormat.UInt32;
            Cloth.ReadVertices(vertices.GetUnsafePtr(), 12);
            mesh.SetVertices(vertices);
            if (meshUV != null && meshUV.Length == Cloth.VertexCount)
            {
                var uv = new Vector2[n];
                for (int v = 0; v < n; v++)
                    uv[v] = meshUV[Cloth.MeshVertexSource(v)];
                mesh.uv = uv;
            }
            mesh.triangles = Cloth.MeshTriangles;
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
            ApplyTearThreshold();
            if (Cloth.UpdateTopology())
                RebuildMesh();
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
            if (Cloth != null)
                Cloth.Dispose(); // removes the body (nothing to do once the world is gone)
            if (vertices.IsCreated)
                vertices.Dispose();
            if (mesh != null)
                Destroy(mesh);
        }
    }
}

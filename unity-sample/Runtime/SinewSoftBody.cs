// A soft body from this object's MeshFilter (a closed mesh: Unity's sphere, cube or
// capsule, or any watertight model), built by the library through
// SinewSoftBodyAuthoring in one of three modes: Pressure (the welded surface inflated:
// edges + one volume constraint), Tetrahedral (the mesh cut into tets by the library's
// tetrahedraliser, Resolution cells across: edges + tet volumes) or ShapeMatching (that
// tet body plus overlapping shape-matching clusters: stiffness, plasticity). Every frame
// the render mesh follows the particles: a pressure body's vertices are its particles
// (seams welded), a tet body's are embedded in its tets (barycentric weights computed
// once by the library); the vertices are written in local space and the normals and
// tangents computed by the library (SinewMeshNormals). Compliances, pressure, mass, damping, cluster stiffness and collision are
// edited in place while playing; Mode, Resolution, yield and creep rebuild the body
// (Rebuild()). Nothing native is serialized; the body is created in Start and removed in
// OnDestroy (prefab-safe). Selected, the gizmo shows the surface (pressure) or the tet
// mesh (tet modes) the body is or will be made of, also in edit mode (the tet mesh is
// computed by the library from the mesh alone: no world, no native state). In the
// edit-mode preview (SinewWorldBehaviour.Preview.cs) the same Build runs in the preview's
// world and draws into a DontSave copy of the mesh on a hidden object (SinewBodyMesh).
// With Motion Vectors on, each vertex's motion since the last frame goes to UV channel 5
// (SinewMotionVectors).

using Sinew.Native;
using UnityEngine;

namespace Sinew.Unity
{
    [RequireComponent(typeof(MeshFilter))]
    [AddComponentMenu("Sinew/Sinew Soft Body")]
    public sealed class SinewSoftBody : MonoBehaviour, ISinewPreviewed
    {
        [Tooltip("The world to live in; empty = the first SinewWorldBehaviour in the scene.")]
        public SinewWorldBehaviour world;

        [Header("Model (rebuilds the body)")]
        [Tooltip("Pressure: the closed surface inflated. Tetrahedral: tets cut from the mesh by the library. ShapeMatching: those tets plus shape-matching clusters.")]
        public SoftBodyMode mode = SoftBodyMode.Pressure;
        [Tooltip("Tet modes: grid cells across the mesh's longest side (5 tets per cell inside the mesh). 1..SINEW_MAX_TET_RESOLUTION.")]
        [Min(1)]
        public int resolution = 8;
        [Tooltip("Shape mode: the clusters deform plastically past a mean distance from their goal shape.")]
        public bool plastic = false;
        [Tooltip("Shape mode, plastic: the mean distance from the goal shape (m) past which a cluster yields.")]
        [Min(0f)]
        public float yieldDistance = 0.05f;
        [Tooltip("Shape mode, plastic: fraction of the excess deformation the rest shape takes per substep, [0, 1].")]
        [Range(0f, 1f)]
        public float creep = 0.1f;

        [Header("Material (edited in place)")]
        [Tooltip("Total mass, kg.")]
        [Min(0f)]
        public float massKg = 1f;
        [Tooltip("Compliance of the edges (surface edges, or tet edges), m/N; 0 = rigid. Shape mode: make it soft (1e-3 or more) and let the clusters hold the shape.")]
        [Min(0f)]
        public float stretchCompliance = 1e-4f;
        [Tooltip("Compliance of the volume: the enclosed volume of a pressure body (m⁵/N), each tet's volume in the tet modes (1/(N·m)); 0 = incompressible.")]
        [Min(0f)]
        public float volumeCompliance = 0f;
        [Tooltip("Pressure mode: the body keeps Pressure × its rest volume (overpressure factor; 1 = its rest shape).")]
        [Min(0f)]
        public float pressure = 1f;
        [Tooltip("Shape mode: stiffness of the clusters per substep, [0, 1].")]
        [Range(0f, 1f)]
        public float shapeStiffness = 0.5f;
        [Tooltip("Extra velocity damping of the body's particles, 1/s.")]
        [Min(0f)]
        public float damping = 0.5f;

        [Header("Collisions (edited in place)")]
        [Tooltip("Collision radius of every particle, m (0 = points).")]
        [Min(0f)]
        public float radius = 0f;
        [Tooltip("The body's particles collide with each other (keep edges longer than 2 × Radius).")]
        public bool selfCollision = false;
        [Tooltip("Collision group, >= 0: particles of one group only collide with each other when both self-collide. 0 = this body's own group.")]
        [Min(0)]
        public int collisionGroup = 0;
        [Tooltip("Layer bits the body's particles are on.")]
        public int collisionLayers = 1;
        [Tooltip("Layer bits they collide with (-1 = everything).")]
        public int collisionMask = -1;

        [Header("Rendering")]
        [Tooltip("Write each vertex's motion since the last frame into UV channel 5 for HDRP / URP per-vertex motion vectors (the material needs Add Precomputed Velocity; the renderer is set to per-object motion).")]
        public bool motionVectors = false;

        /// <summary>The engine-neutral soft body (null before Start and in edit mode).</summary>
        public BuiltSoftBody SoftBody { get; private set; }

        /// <summary>The options the live body was built with and edited to.</summary>
        public SoftBodyOptions Applied { get { return applied; } }

        /// <summary>The first field that differs from the live body in a way only
        /// <see cref="Rebuild"/> applies (empty = none).</summary>
        public string PendingRebuild
        {
            get { return SoftBody == null ? "" : SinewSoftBodyAuthoring.RebuildReason(applied, Options()); }
        }

        /// <summary>The last build or edit the library refused (empty = none).</summary>
        public string LastError { get; private set; }

        Mesh mesh;
        Vector3[] sourceVertices; // the mesh before the first build, local space
        int[] sourceTriangles;
        Vector3[] vertices;       // the render vertices of this frame
        readonly SinewMeshNormals meshNormals = new SinewMeshNormals();
        SoftBodyOptions applied;
        SinewWorldBehaviour subscribed;
        // The world behaviour the body lives in (`world`, the scene's first, or the
        // previewing one); not serialized: the preview never writes `world`.
        [System.NonSerialized] SinewWorldBehaviour host;
        readonly SinewBodyMesh bodyMesh = new SinewBodyMesh();
        readonly SinewMotionVectors motion = new SinewMotionVectors();
        [System.NonSerialized] bool previewing;

        /// <summary>The fields as the library's options.</summary>
        public SoftBodyOptions Options()
        {
            return new SoftBodyOptions
            {
                Mode = mode,
                Resolution = resolution,
                MassKg = massKg,
                StretchCompliance = stretchCompliance,
                VolumeCompliance = volumeCompliance,
                Pressure = pressure,
                ShapeStiffness = shapeStiffness,
                ShapeYield = plastic ? yieldDistance : float.PositiveInfinity,
                ShapeCreep = plastic ? creep : 0f,
                Damping = damping,
                Collision = new CollisionOptions
                {
                    Radius = radius,
                    SelfCollision = selfCollision,
                    Group = collisionGroup,
                    Layers = collisionLayers,
                    Mask = collisionMask,
                },
            };
        }

        void OnValidate()
        {
            // Clamps only: no native state in edit mode.
            resolution = SinewAuthoring.Clamp(resolution, 1, (int)SinewNative.SINEW_MAX_TET_RESOLUTION);
            yieldDistance = SinewAuthoring.Clamp(yieldDistance, 0f, SinewNative.SINEW_MAX_LENGTH);
            creep = SinewAuthoring.Clamp(creep, 0f, 1f);
            massKg = SinewAuthoring.Clamp(massKg, SinewAuthoring.Above(0f), SinewNative.SINEW_MAX_BODY_MASS);
            stretchCompliance = SinewAuthoring.Clamp(stretchCompliance, 0f, SinewNative.SINEW_MAX_BODY_COMPLIANCE);
            volumeCompliance = SinewAuthoring.Clamp(volumeCompliance, 0f, SinewNative.SINEW_MAX_BODY_COMPLIANCE);
            pressure = SinewAuthoring.Clamp(pressure, SinewAuthoring.Above(0f), SinewNative.SINEW_MAX_PRESSURE);
            shapeStiffness = SinewAuthoring.Clamp(shapeStiffness, 0f, 1f);
            damping = SinewAuthoring.Clamp(damping, 0f, SinewNative.SINEW_MAX_ACCELERATION);
            radius = SinewAuthoring.Clamp(radius, 0f, SinewNative.SINEW_MAX_LENGTH);
            collisionGroup = SinewAuthoring.Clamp(collisionGroup, 0, int.MaxValue);
#if UNITY_EDITOR
            previewKey = null; // the gizmo's tet mesh is computed again
#endif
        }

        void Start()
        {
            if (world == null)
                world = SinewWorldBehaviour.FindInScene();
            if (world == null)
            {
                Debug.LogError("SinewSoftBody needs a SinewWorldBehaviour", this);
                enabled = false;
                return;
            }
            host = world;
            mesh = bodyMesh.Acquire(this, false); // this object's own copy
            TakeMesh();
            Build();
            subscribed = world;
            subscribed.BeforeStep += ApplyEdits;
        }

        /// <summary>Removes the body and builds it again from the fields and the original
        /// mesh where the transform is now: applies Mode, Resolution and plasticity.</summary>
        // The source mesh (local space) and the arrays drawn from it.
        void TakeMesh()
        {
            sourceVertices = mesh.vertices;
            sourceTriangles = mesh.triangles;
            vertices = new Vector3[sourceVertices.Length];
            meshNormals.SetTopology(sourceTriangles, mesh.uv, sourceVertices.Length);
        }

        [ContextMenu("Rebuild")]
        public void Rebuild()
        {
            if (SoftBody == null || host == null)
                return;
            SoftBody.Dispose();
            SoftBody = null;
            mesh.SetVertices(sourceVertices);
            Build();
        }

        void Build()
        {
            var worldSpace = new Vector3[sourceVertices.Length];
            for (int i = 0; i < worldSpace.Length; i++)
                worldSpace[i] = transform.TransformPoint(sourceVertices[i]);
            SoftBodyOptions o = Options();
            try
            {
                SoftBody = SinewSoftBodyAuthoring.Build(host.World, worldSpace, sourceTriangles, o);
                LastError = "";
            }
            catch (SinewException e)
            {
                // An open or degenerate mesh lands here, naming the edge or triangle.
                LastError = e.Message;
                Debug.LogError("SinewSoftBody: " + e.Message, this);
                if (!previewing)
                    enabled = false; // (a serialized field: the preview leaves it)
                return;
            }
            applied = o;
            motion.Reset();
        }

        void ApplyEdits()
        {
            if (SoftBody == null || SoftBody.Body.World.IsDisposed)
                return;
            // Inspector edits apply in place, from this step on.
            try
            {
                SinewSoftBodyAuthoring.Edit(SoftBody, ref applied, Options());
            }
            catch (SinewException e)
            {
                if (LastError != e.Message)
                    Debug.LogError("SinewSoftBody: " + e.Message, this);
                LastError = e.Message;
            }
        }

        void LateUpdate()
        {
            Draw(host != null ? SinewRendering.Alpha(host) : 1f);
        }

        void Draw(float alpha)
        {
            if (SoftBody == null || SoftBody.Body.World.IsDisposed)
                return;
            // World space, between the last two steps, then into this object's space.
            SoftBody.ReadRenderVertices(vertices, alpha);
            Matrix4x4 toLocal = transform.worldToLocalMatrix;
            for (int i = 0; i < vertices.Length; i++)
                vertices[i] = toLocal.MultiplyPoint3x4(vertices[i]);
            mesh.SetVertices(vertices);
            meshNormals.Apply(mesh, vertices); // the library's, into arrays kept between frames
            if (motionVectors)
            {
                SinewMotionVectors.Enable(bodyMesh.Renderer);
                motion.Apply(mesh, vertices);
            }
            mesh.RecalculateBounds();
        }

        void OnDestroy()
        {
            if (subscribed != null)
                subscribed.BeforeStep -= ApplyEdits;
            if (SoftBody != null)
                SoftBody.Dispose(); // removes the clusters and the body (nothing once the world is gone)
            SoftBody = null;
            bodyMesh.Release();
            mesh = null;
        }

        // The edit-mode preview (SinewWorldBehaviour.Preview.cs; its only caller).
        bool ISinewPreviewed.PreviewWants(SinewWorldBehaviour w, SinewWorldBehaviour sceneFirst)
        {
            return SinewEditPreview.Wants(this, world, w, sceneFirst);
        }

        bool ISinewPreviewed.PreviewBegin(SinewWorldBehaviour w)
        {
            previewing = true;
            host = w;
            mesh = bodyMesh.Acquire(this, true);
            if (mesh == null)
            {
                Debug.LogError("SinewSoftBody needs a mesh in its MeshFilter", this);
                ((ISinewPreviewed)this).PreviewEnd();
                return false;
            }
            TakeMesh();
            Build();
            if (SoftBody == null)
            {
                ((ISinewPreviewed)this).PreviewEnd();
                return false;
            }
            subscribed = host;
            subscribed.BeforeStep += ApplyEdits;
            return true;
        }

        void ISinewPreviewed.PreviewDraw()
        {
            bodyMesh.Follow(transform);
            Draw(1f);
        }

        void ISinewPreviewed.PreviewEnd()
        {
            if (subscribed != null)
                subscribed.BeforeStep -= ApplyEdits;
            subscribed = null;
            if (SoftBody != null)
                SoftBody.Dispose();
            SoftBody = null;
            bodyMesh.Release();
            mesh = null;
            host = null;
            previewing = false;
        }

#if UNITY_EDITOR
        // The body in the Scene view, selected: the live surface or tets while playing; in
        // edit mode the welded surface or the tet mesh the library would build (computed
        // once per mesh, transform and resolution; the library keeps no state for it).
        Vector3[] gizmoVertices = new Vector3[0];
        int[] gizmoTriangles = new int[0];
        string previewKey;
        Mesh previewMesh;
        string previewError = "";

        /// <summary>Why the edit-mode preview could not be made (empty = none).</summary>
        public string PreviewError { get { return previewError; } }

        void OnDrawGizmosSelected()
        {
            if (SoftBody != null && !SoftBody.Body.World.IsDisposed)
                LiveGizmo();
            else if (!PreviewGizmo())
                return;
            SinewGizmos.DrawMesh(gizmoVertices, gizmoTriangles, radius);
        }

        void LiveGizmo()
        {
            SinewVec3[] p = SoftBody.ReadParticles();
            if (gizmoVertices.Length != p.Length)
                gizmoVertices = new Vector3[p.Length];
            for (int i = 0; i < p.Length; i++)
                gizmoVertices[i] = new Vector3(p[i].x, p[i].y, p[i].z);
            gizmoTriangles = SoftBody.Mode == SoftBodyMode.Pressure ? SoftBody.Surface : TetFaces(SoftBody.Tets.Tets);
        }

        bool PreviewGizmo()
        {
            var filter = GetComponent<MeshFilter>();
            Mesh shared = filter != null ? filter.sharedMesh : null;
            if (shared == null)
                return false;
            string key = mode + "/" + resolution + "/" + transform.localToWorldMatrix;
            if (key == previewKey && shared == previewMesh)
                return previewError == "" && gizmoVertices.Length > 0;
            previewKey = key;
            previewMesh = shared;
            Vector3[] local = shared.vertices;
            var worldSpace = new Vector3[local.Length];
            for (int i = 0; i < local.Length; i++)
                worldSpace[i] = transform.TransformPoint(local[i]);
            try
            {
                if (mode == SoftBodyMode.Pressure)
                {
                    WeldedMesh w = SoftBodyMeshes.Weld(worldSpace, shared.triangles);
                    gizmoVertices = ToVector3(w.Vertices);
                    gizmoTriangles = w.Triangles;
                }
                else
                {
                    TetMesh t = SoftBodyMeshes.Tetrahedralize(worldSpace, shared.triangles, resolution);
                    gizmoVertices = ToVector3(t.Vertices);
                    gizmoTriangles = TetFaces(t.Tets);
                }
                previewError = "";
            }
            catch (SinewException e)
            {
                previewError = e.Message;
                return false;
            }
            return gizmoVertices.Length > 0;
        }

        static Vector3[] ToVector3(SinewVec3[] p)
        {
            var v = new Vector3[p.Length];
            for (int i = 0; i < p.Length; i++)
                v[i] = new Vector3(p[i].x, p[i].y, p[i].z);
            return v;
        }

        int[] tetFaces = new int[0];
        int[] tetFacesOf;

        /// <summary>Three faces per tet (the fourth's edges are drawn by the others), cached.</summary>
        int[] TetFaces(int[] tets)
        {
            if (tetFacesOf == tets)
                return tetFaces;
            int n = tets.Length / 4;
            tetFaces = new int[9 * n];
            for (int j = 0; j < n; j++)
            {
                int a = tets[4 * j], b = tets[4 * j + 1], c = tets[4 * j + 2], d = tets[4 * j + 3];
                int k = 9 * j;
                tetFaces[k] = a; tetFaces[k + 1] = b; tetFaces[k + 2] = c;
                tetFaces[k + 3] = a; tetFaces[k + 4] = b; tetFaces[k + 5] = d;
                tetFaces[k + 6] = a; tetFaces[k + 7] = c; tetFaces[k + 8] = d;
            }
            tetFacesOf = tets;
            return tetFaces;
        }
#endif
    }
}

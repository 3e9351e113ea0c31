// Cloth from this object's MeshFilter, built by the library (Sinew.Cloth over
// sinew_world_add_cloth_mesh: one particle per distinct vertex, edges or strain
// triangles, bending, tethers to the pinned vertices) through SinewAuthoring. Vertices
// nearest to the `pins` transforms are pinned and follow them; every frame the simulated
// positions are read straight into a NativeArray, turned into local space and handed to
// the mesh. Material, mass, damping, aerodynamics, tearing and the collision filter are
// edited in place while playing; model, bending model, tethers and pins shape the body:
// the inspector greys them out while playing, and Rebuild() builds the cloth again from
// the original mesh. With a tear threshold, edges stretched past it split the cloth; when
// the library's topology version changes the mesh gets the new vertices (each with the UV
// of the vertex it was split from) and triangles. Nothing native is serialized; the cloth
// is created in Start and removed in OnDestroy (prefab-safe). In the edit-mode preview
// (SinewWorldBehaviour.Preview.cs) the same Build runs in the preview's world and draws
// into a DontSave copy of the mesh on a hidden object (SinewBodyMesh): the scene's mesh,
// MeshFilter and fields are never written. With Motion Vectors on, each vertex's motion
// since the last frame goes to UV channel 5 (SinewMotionVectors).

using Sinew.Native;
using Unity.Collections;
using Unity.Collections.LowLevel.Unsafe;
using UnityEngine;

namespace Sinew.Unity
{
    [RequireComponent(typeof(MeshFilter))]
    [AddComponentMenu("Sinew/Sinew Cloth")]
    public sealed class SinewCloth : MonoBehaviour, ISinewPreviewed
    {
        [Tooltip("The world to live in; empty = the first SinewWorldBehaviour in the scene.")]
        public SinewWorldBehaviour world;
        [Tooltip("Each transform pins the vertex nearest to it when the cloth is built; the vertex then follows it. Rebuilds the cloth.")]
        public Transform[] pins = new Transform[0];

        // BEGIN GENERATED ClothDesc fields
        [Header("Model (rebuilds the cloth)")]
        [Tooltip("Edge links on every edge, or strain-based triangles.")]
        public SinewClothModel model = (SinewClothModel)0;
        [Tooltip("Bending model: none, distance links, dihedral angles or isometric.")]
        public SinewBendingModel bending = (SinewBendingModel)2;
        [Tooltip("Tether every free vertex to its nearest pinned vertices.")]
        public bool tethers = true;
        [Tooltip("Strain model: the warp direction, finite and non-zero (projected onto each triangle; a grid uses its u edge).")]
        public Vector3 warp = new Vector3(1.0f, 0.0f, 0.0f);
        [Header("Material (edited in place)")]
        [Tooltip("Edges: compliance of the edges (m/N). Strain: of the warp stretch (1/(N·m)). In [0, 1e10].")]
        [Min(0.0f)]
        public float compliance = 0.0f;
        [Tooltip("Strain model only: compliance of the weft stretch (1/(N·m)). In [0, 1e10].")]
        [Min(0.0f)]
        public float weftCompliance = 0.0f;
        [Tooltip("Edges: compliance of the grid diagonals (m/N; unused for meshes). Strain: of the shear components (1/(N·m)). In [0, 1e10].")]
        [Min(0.0f)]
        public float shearCompliance = 0.0001f;
        [Tooltip("Compliance of the bending constraints, in the units of the bending model (distance m/N, dihedral rad/(N·m), isometric 1/(N·m)). In [0, 1e10].")]
        [Min(0.0f)]
        public float bendCompliance = 1.0f;
        [Tooltip("Extra velocity damping of the cloth's particles. In [0, 1000000] 1/s.")]
        [Min(0.0f)]
        public float damping = 0.0f;
        // END GENERATED ClothDesc fields
        // BEGIN GENERATED ClothGridDesc mass
        [Tooltip("Total mass, spread evenly over the vertices. In (0, 1e12] kg.")]
        [Min(0.0f)]
        public float massKg = 0.5f;
        // END GENERATED ClothGridDesc mass
        // BEGIN GENERATED Tether fields
        [Tooltip("Compliance of the tethers (0 = a vertex never gets further from its pin than at rest). In [0, 1e10] m/N.")]
        [Min(0.0f)]
        public float tetherCompliance = 0.0f;
        // END GENERATED Tether fields

        [Header("Aerodynamics (edited in place)")]
        // BEGIN GENERATED Aerodynamics fields
        [Tooltip("Drag coefficient per triangle (cloth 1-1.2; 0 = none). A cloth with drag or lift cannot tear. In [0, 10].")]
        [Range(0.0f, SinewNative.SINEW_MAX_AERO_COEFFICIENT)]
        public float drag = 0.0f;
        [Tooltip("Lift coefficient per triangle (0.1-0.5 makes flags ripple). In [0, 10].")]
        [Range(0.0f, SinewNative.SINEW_MAX_AERO_COEFFICIENT)]
        public float lift = 0.0f;
        // END GENERATED Aerodynamics fields

        [Header("Tearing (edited in place)")]
        [Tooltip("Tear Threshold: stretch ratio (length / rest length, above 1) past which an edge tears and the mesh splits there; 0 = never tears. Edges model without drag or lift only.")]
        [Min(0f)]
        public float tearThreshold = 0f;
        [Tooltip("Spare particles for tearing, taken at the first non-zero threshold (each split takes one); 0 = a quarter of the cloth's particles.")]
        [Min(0)]
        public int tearReserve = 0;

        [Header("Collisions (edited in place)")]
        [Tooltip("Collision radius of every particle, m (0 = points: colliders touch the vertices, particles never touch each other).")]
        [Min(0f)]
        public float radius = 0f;
        [Tooltip("The cloth's particles collide with each other (keep edges longer than 2 × Radius).")]
        public bool selfCollision = false;
        [Tooltip("Collision group, >= 0: particles of one group only collide with each other when both self-collide. 0 = this cloth's own group.")]
        [Min(0)]
        public int collisionGroup = 0;
        [Tooltip("Layer bits the cloth's particles are on.")]
        public int collisionLayers = 1;
        [Tooltip("Layer bits they collide with (-1 = everything).")]
        public int collisionMask = -1;

        [Header("Rendering")]
        [Tooltip("Write each vertex's motion since the last frame into UV channel 5 for HDRP / URP per-vertex motion vectors (the material needs Add Precomputed Velocity; the renderer is set to per-object motion).")]
        public bool motionVectors = false;

        /// <summary>The engine-neutral cloth (null before Start and in edit mode).</summary>
        public Cloth Cloth { get; private set; }

        /// <summary>Whether the cloth sleeps (the world's <c>Sleeping</c> on: its island came
        /// to rest and is not simulated until something wakes it). False before Start.</summary>
        public bool IsAsleep { get { return Cloth != null && Cloth.IsAsleep; } }

        /// <summary>Wakes the cloth and everything in its island.</summary>
        public void Wake()
        {
            if (Cloth != null)
                Cloth.Wake();
        }

        /// <summary>The options the live cloth was built with and edited to.</summary>
        public ClothOptions Applied { get { return applied; } }

        /// <summary>Why the fields differ from the live cloth in a way only <see cref="Rebuild"/>
        /// applies (the first such field; empty = none).</summary>
        public string PendingRebuild
        {
            get
            {
                if (Cloth == null)
                    return "";
                if (!SamePins())
                    return "Pins";
                return SinewAuthoring.ClothRebuildReason(applied, Options());
            }
        }

        /// <summary>The last edit the library refused (empty = none).</summary>
        public string LastError { get; private set; }

        /// <summary>Mesh vertices pinned (one per pin transform).</summary>
        public int[] PinnedVertices { get { return pinnedVertices; } }

        Mesh mesh;
        NativeArray<Vector3> vertices;
        readonly SinewMeshNormals meshNormals = new SinewMeshNormals();
        int[] pinnedVertices = new int[0];
        Transform[] builtPins = new Transform[0];
        int distinctPins;
        Vector3[] sourceVertices; // the mesh as it was before the first build (local space)
        int[] sourceTriangles;
        Vector2[] meshUV;
        ClothOptions applied;
        SinewWorldBehaviour subscribed;
        // The world behaviour the cloth lives in (`world`, the scene's first, or the
        // previewing one); not serialized: the preview never writes `world`.
        [System.NonSerialized] SinewWorldBehaviour host;
        readonly SinewBodyMesh bodyMesh = new SinewBodyMesh();
        readonly SinewMotionVectors motion = new SinewMotionVectors();
        [System.NonSerialized] bool previewing;

        /// <summary>The fields as the library's options.</summary>
        public ClothOptions Options()
        {
            return new ClothOptions
            {
                MassKg = massKg,
                // BEGIN GENERATED ClothDesc options copy
                Model = model,
                StretchCompliance = compliance,
                WeftCompliance = weftCompliance,
                ShearCompliance = shearCompliance,
                Warp = warp.ToSinew(),
                BendCompliance = bendCompliance,
                Bending = bending,
                Tethers = tethers,
                Damping = damping,
                // END GENERATED ClothDesc options copy
                TetherCompliance = tetherCompliance,
                Drag = drag,
                Lift = lift,
                TearThreshold = tearThreshold,
                TearReserve = tearReserve,
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
            // BEGIN GENERATED ClothDesc clamps
            compliance = SinewAuthoring.Clamp(compliance, 0.0f, SinewNative.SINEW_MAX_BODY_COMPLIANCE);
            weftCompliance = SinewAuthoring.Clamp(weftCompliance, 0.0f, SinewNative.SINEW_MAX_BODY_COMPLIANCE);
            shearCompliance = SinewAuthoring.Clamp(shearCompliance, 0.0f, SinewNative.SINEW_MAX_BODY_COMPLIANCE);
            bendCompliance = SinewAuthoring.Clamp(bendCompliance, 0.0f, SinewNative.SINEW_MAX_BODY_COMPLIANCE);
            damping = SinewAuthoring.Clamp(damping, 0.0f, SinewNative.SINEW_MAX_ACCELERATION);
            // END GENERATED ClothDesc clamps
            // BEGIN GENERATED ClothGridDesc mass clamps
            massKg = SinewAuthoring.Clamp(massKg, SinewAuthoring.Above(0.0f), SinewNative.SINEW_MAX_BODY_MASS);
            // END GENERATED ClothGridDesc mass clamps
            // BEGIN GENERATED Tether clamps
            tetherCompliance = SinewAuthoring.Clamp(tetherCompliance, 0.0f, SinewNative.SINEW_MAX_BODY_COMPLIANCE);
            // END GENERATED Tether clamps
            // BEGIN GENERATED Aerodynamics clamps
            drag = SinewAuthoring.Clamp(drag, 0.0f, SinewNative.SINEW_MAX_AERO_COEFFICIENT);
            lift = SinewAuthoring.Clamp(lift, 0.0f, SinewNative.SINEW_MAX_AERO_COEFFICIENT);
            // END GENERATED Aerodynamics clamps
            // A threshold is a stretch ratio above 1 (0 = never tears).
            tearThreshold = tearThreshold <= 0f ? 0f : SinewAuthoring.Clamp(tearThreshold, SinewAuthoring.Above(1f), float.MaxValue);
            tearReserve = SinewAuthoring.Clamp(tearReserve, 0, (int)SinewNative.SINEW_MAX_TEAR_RESERVE);
            radius = SinewAuthoring.Clamp(radius, 0f, SinewNative.SINEW_MAX_LENGTH);
            collisionGroup = SinewAuthoring.Clamp(collisionGroup, 0, int.MaxValue);
            if (pins == null)
                pins = new Transform[0];
        }

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
            host = world;
            mesh = bodyMesh.Acquire(this, false); // this object's own copy
            sourceVertices = mesh.vertices;
            sourceTriangles = mesh.triangles;
            meshUV = mesh.uv;
            Build();
            subscribed = world;
            subscribed.BeforeStep += FollowPins;
        }

        /// <summary>Removes the cloth and builds it again from the fields and the original
        /// mesh where the transform is now: applies Model, Bending, Tethers, Warp and the
        /// pins while playing.</summary>
        [ContextMenu("Rebuild")]
        public void Rebuild()
        {
            if (Cloth == null || host == null)
                return;
            Cloth.Dispose();
            Cloth = null;
            // Triangles first: they reference only the original vertices, which the torn
            // mesh still has; then the vertex count can shrink back.
            mesh.triangles = sourceTriangles;
            mesh.SetVertices(sourceVertices);
            if (meshUV != null && meshUV.Length == sourceVertices.Length)
                mesh.uv = meshUV;
            Build();
        }

        void Build()
        {
            var worldSpace = new Vector3[sourceVertices.Length];
            for (int i = 0; i < worldSpace.Length; i++)
                worldSpace[i] = transform.TransformPoint(sourceVertices[i]);
            // Pins are chosen before the build so that the library tethers to them.
            builtPins = (Transform[])pins.Clone();
            pinnedVertices = new int[pins.Length];
            var distinct = new System.Collections.Generic.HashSet<int>();
            for (int i = 0; i < pins.Length; i++)
            {
                pinnedVertices[i] = pins[i] != null ? Cloth.NearestVertex(worldSpace, pins[i].position.ToSinew()) : -1;
                if (pinnedVertices[i] >= 0)
                    distinct.Add(pinnedVertices[i]);
            }
            var pinned = new int[distinct.Count];
            distinct.CopyTo(pinned);
            ClothOptions o = Options();
            try
            {
                Cloth = SinewAuthoring.BuildCloth(host.World, worldSpace, sourceTriangles, pinned, o);
                LastError = "";
            }
            catch (SinewException e)
            {
                Debug.LogError("SinewCloth: " + e.Message, this);
                LastError = e.Message;
                if (!previewing)
                    enabled = false; // (a serialized field: the preview leaves it)
                return;
            }
            applied = o;
            // Pinned particles (welded vertices share one), for the mass of the free ones.
            var pinnedParticles = new System.Collections.Generic.HashSet<int>();
            foreach (int v in pinned)
                pinnedParticles.Add(Cloth.ParticleOfVertex(v));
            distinctPins = pinnedParticles.Count;
            if (vertices.IsCreated)
                vertices.Dispose();
            vertices = new NativeArray<Vector3>(sourceVertices.Length, Allocator.Persistent);
            meshNormals.SetTopology(sourceTriangles, meshUV, sourceVertices.Length);
            motion.Reset();
        }

        bool SamePins()
        {
            if (pins.Length != builtPins.Length)
                return false;
            for (int i = 0; i < pins.Length; i++)
                if (pins[i] != builtPins[i])
                    return false;
            return true;
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
                meshNormals.SetTopology(Cloth.MeshTriangles, uv, n);
            }
            else
                meshNormals.SetTopology(Cloth.MeshTriangles, null, n);
            mesh.triangles = Cloth.MeshTriangles;
            motion.Reset(); // new vertices: no previous frame
        }

        void FollowPins()
        {
            if (Cloth == null || Cloth.World.IsDisposed)
                return;
            // Inspector edits apply in place, from this step on.
            try
            {
                SinewAuthoring.EditCloth(Cloth, ref applied, Options(), distinctPins);
            }
            catch (SinewException e)
            {
                if (LastError != e.Message)
                    Debug.LogError("SinewCloth: " + e.Message, this);
                LastError = e.Message;
            }
            for (int i = 0; i < pinnedVertices.Length; i++)
                if (pinnedVertices[i] >= 0 && builtPins[i] != null)
                    Cloth.MoveVertex(pinnedVertices[i], builtPins[i].position.ToSinew());
        }

        void LateUpdate()
        {
            Draw(host != null ? SinewRendering.Alpha(host) : 1f);
        }

        unsafe void Draw(float alpha)
        {
            if (Cloth == null || Cloth.World.IsDisposed || !vertices.IsCreated)
                return;
            if (Cloth.UpdateTopology())
                RebuildMesh();
            // Straight into the NativeArray, between the last two steps.
            Cloth.ReadInterpolatedVertices(alpha, vertices.GetUnsafePtr(), 12);
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
                subscribed.BeforeStep -= FollowPins;
            if (Cloth != null)
                Cloth.Dispose(); // removes the body (nothing to do once the world is gone)
            Cloth = null;
            if (vertices.IsCreated)
                vertices.Dispose();
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
                Debug.LogError("SinewCloth needs a mesh in its MeshFilter", this);
                ((ISinewPreviewed)this).PreviewEnd();
                return false;
            }
            sourceVertices = mesh.vertices;
            sourceTriangles = mesh.triangles;
            meshUV = mesh.uv;
            Build();
            if (Cloth == null)
            {
                ((ISinewPreviewed)this).PreviewEnd();
                return false;
            }
            subscribed = host;
            subscribed.BeforeStep += FollowPins;
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
                subscribed.BeforeStep -= FollowPins;
            subscribed = null;
            if (Cloth != null)
                Cloth.Dispose();
            Cloth = null;
            if (vertices.IsCreated)
                vertices.Dispose();
            bodyMesh.Release();
            mesh = null;
            host = null;
            previewing = false;
        }

#if UNITY_EDITOR
        // The cloth in the Scene view: the mesh's rest shape in edit mode, the live
        // vertices while playing. Selected: edges, particle spheres at Radius, pinned
        // vertices and the pin transforms (attachment points).
        Vector3[] gizmoVertices = new Vector3[0];
        int[] gizmoTriangles = new int[0];

        void OnDrawGizmosSelected()
        {
            if (!GizmoMesh())
                return;
            SinewGizmos.DrawMesh(gizmoVertices, gizmoTriangles, radius);
            for (int i = 0; i < pins.Length; i++)
            {
                if (pins[i] == null)
                    continue;
                int v = Cloth != null && i < pinnedVertices.Length ? pinnedVertices[i]
                        : Cloth.NearestVertex(gizmoVertices, pins[i].position.ToSinew());
                if (v < 0 || v >= gizmoVertices.Length)
                    continue;
                SinewGizmos.DrawPin(gizmoVertices[v], radius);
                SinewGizmos.DrawAttachment(pins[i].position, gizmoVertices[v]);
            }
        }

        bool GizmoMesh()
        {
            if (Cloth != null && !Cloth.World.IsDisposed)
            {
                int n = Cloth.MeshVertexCount;
                if (gizmoVertices.Length != n)
                    gizmoVertices = new Vector3[n];
                Cloth.ReadVertices(gizmoVertices);
                gizmoTriangles = Cloth.MeshTriangles;
                return true;
            }
            var filter = GetComponent<MeshFilter>();
            Mesh shared = filter != null ? filter.sharedMesh : null;
            if (shared == null)
                return false;
            Vector3[] local = shared.vertices;
            if (gizmoVertices.Length != local.Length)
                gizmoVertices = new Vector3[local.Length];
            for (int i = 0; i < local.Length; i++)
                gizmoVertices[i] = transform.TransformPoint(local[i]);
            gizmoTriangles = shared.triangles;
            return gizmoVertices.Length > 0;
        }
#endif
    }
}

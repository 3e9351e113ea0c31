// A rope between two transforms, built by the library (Sinew.Rope over sinew_world_add_rope:
// links, bend links, tethers from pinned ends) through SinewAuthoring, ends pinned to the
// transforms before every step, drawn with a LineRenderer or, with Tube Mesh on, a tube
// (Sinew.Tube: rotation-minimising frames, optional caps, normals, tangents, UVs; the port
// of the C++ sinew_tube.hpp Unreal draws ropes with). Every option of the library's
// rope is a field. Material, mass, damping, drag, winch, break force and the collision
// filter are edited in place while playing (nothing is rebuilt, other ropes are never
// touched); segments, pins, tethers and radius shape the body: the inspector greys them out
// while playing, and Rebuild() builds the rope again from them (it restarts straight).
// Nothing native is serialized: the rope is created in Start and removed in OnDestroy, so
// the component works in prefabs and prefab instances with overrides. In the edit-mode
// preview (SinewWorldBehaviour.Preview.cs) the same Build runs in the preview's world and
// the rope is drawn as its tube on a hidden object the scene does not save (the
// LineRenderer's positions are serialized: the preview hides it with forceRenderingOff
// instead of writing them). With Motion Vectors on, the tube's per-vertex motion goes to
// UV channel 5 (SinewMotionVectors).

using Sinew.Native;
using UnityEngine;

namespace Sinew.Unity
{
    [RequireComponent(typeof(LineRenderer))]
    [AddComponentMenu("Sinew/Sinew Rope")]
    public sealed class SinewRope : MonoBehaviour, ISinewPreviewed
    {
        [Tooltip("The world to live in; empty = the first SinewWorldBehaviour in the scene.")]
        public SinewWorldBehaviour world;
        [Tooltip("Where the rope starts (its first particle follows it when Pin Start is on).")]
        public Transform start;
        [Tooltip("Where the rope ends (its last particle follows it when Pin End is on).")]
        public Transform end;

        // BEGIN GENERATED RopeDesc fields
        [Header("Shape (rebuilds the rope)")]
        [Tooltip("Segments between start and end (segments + 1 particles). Ignored by the polyline builder. In 1..16777216.")]
        [Min(1)]
        public int segments = 20;
        [Tooltip("Pin the first particle (inverse mass 0).")]
        public bool pinStart = true;
        [Tooltip("Pin the last particle (inverse mass 0).")]
        public bool pinEnd = false;
        [Tooltip("Tethers from each pinned end to every particle (Kim et al. 2012; max length = the arc length along the rope).")]
        public bool tethers = true;
        [Tooltip("Radius for rendering and collision: each particle's collision radius against colliders and other particles (not the rope's own). 0 = a thin line for colliders and no part in particle contacts, whose neighbour search then costs nothing. In [0, 1e9] m.")]
        [Min(0.0f)]
        public float radius = 0.01f;
        [Header("Material (edited in place)")]
        [Tooltip("Total mass, spread evenly over the particles. In (0, 1e12] kg.")]
        [Min(0.0f)]
        public float massKg = 1.0f;
        [Tooltip("Compliance of the links (0 = inextensible). In [0, 1e10] m/N.")]
        [Min(0.0f)]
        public float compliance = 0.0f;
        [Tooltip("Compliance of the (i, i+2) bend links. In [0, 1e10] m/N.")]
        [Min(0.0f)]
        public float bendCompliance = 0.01f;
        [Tooltip("Extra velocity damping of the rope's particles. In [0, 1000000] 1/s.")]
        [Min(0.0f)]
        public float damping = 0.0f;
        // END GENERATED RopeDesc fields
        // BEGIN GENERATED Tether and drag fields
        [Tooltip("Compliance of the tethers (0 = the rope never stretches past its length). In [0, 1e10] m/N.")]
        [Min(0.0f)]
        public float tetherCompliance = 0.0f;
        [Tooltip("Aerodynamic drag coefficient per link (a cylinder is about 1.2; 0 = none). Needs Radius > 0. In [0, 10].")]
        [Range(0.0f, SinewNative.SINEW_MAX_AERO_COEFFICIENT)]
        public float drag = 0.0f;
        // END GENERATED Tether and drag fields

        [Header("Winch and breaking (edited in place)")]
        // BEGIN GENERATED Winch fields
        [Tooltip("Rope length paid out of or reeled into the start (a winch; needs Pin Start). 0 = the length it was built with, which is also the most it pays out. In [0, 1e9] m.")]
        [Min(0.0f)]
        public float length = 0.0f;
        [Tooltip("Winch speed at which the rope moves towards Length (0 = the winch holds). In [0, 1000] m/s.")]
        [Min(0.0f)]
        public float winchSpeed = 0.5f;
        // END GENERATED Winch fields

        [Header("Rendering")]
        [Tooltip("Draw a tube mesh around the particles (rotation-minimising frames, normals and tangents) instead of the LineRenderer.")]
        public bool tubeMesh;
        [Tooltip("Tube radius, m (> 0).")]
        [Min(Tube.MinRadius)]
        public float tubeRadius = 0.02f;
        [Tooltip("Vertices around the tube, 3..256.")]
        [Range(Tube.MinSides, Tube.MaxSides)]
        public int tubeSides = 8;
        [Tooltip("Close both ends of the tube with flat caps.")]
        public bool tubeCaps = true;
        [Tooltip("Texture V per metre along the tube.")]
        public float tubeVPerMetre = 1f;
        [Tooltip("The tube's material; empty = the LineRenderer's.")]
        public Material tubeMaterial;
        [Tooltip("Tube only: write each vertex's motion since the last frame into UV channel 5 for HDRP / URP per-vertex motion vectors (the material needs Add Precomputed Velocity; the tube renderer is set to per-object motion).")]
        public bool motionVectors = false;
        [Tooltip("Break force of the links, N (0 = unbreakable), compared with each link's tension (tethers included).")]
        [Min(0f)]
        public float breakForce = 0f;

        [Header("Collisions (edited in place)")]
        [Tooltip("The rope's particles collide with each other (keep link length = distance / Segments above 2 × Radius).")]
        public bool selfCollision = false;
        [Tooltip("Collision group, >= 0: particles of one group only collide with each other when both self-collide. 0 = this rope's own group.")]
        [Min(0)]
        public int collisionGroup = 0;
        [Tooltip("Layer bits the rope's particles are on.")]
        public int collisionLayers = 1;
        [Tooltip("Layer bits they collide with (-1 = everything).")]
        public int collisionMask = -1;

        /// <summary>The engine-neutral rope (null before Start and in edit mode).</summary>
        public Rope Rope { get; private set; }

        /// <summary>Whether the rope sleeps (the world's <c>Sleeping</c> on: its island came
        /// to rest and is not simulated until something wakes it). False before Start.</summary>
        public bool IsAsleep { get { return Rope != null && Rope.IsAsleep; } }

        /// <summary>Wakes the rope and everything in its island.</summary>
        public void Wake()
        {
            if (Rope != null)
                Rope.Wake();
        }

        /// <summary>The options the live rope was built with and edited to.</summary>
        public RopeOptions Applied { get { return applied; } }

        /// <summary>Why the fields differ from the live rope in a way only <see cref="Rebuild"/>
        /// applies (the first such field; empty = none).</summary>
        public string PendingRebuild
        {
            get { return Rope == null ? "" : SinewAuthoring.RopeRebuildReason(applied, Options()); }
        }

        /// <summary>The last edit the library refused (empty = none).</summary>
        public string LastError { get; private set; }

        LineRenderer line;
        Vector3[] points = new Vector3[0];
        // The tube (tubeMesh): world-space vertices on a separate object at the origin,
        // arrays kept between frames, indices rebuilt only when their layout changes.
        readonly Tube tube = new Tube();
        GameObject tubeObject;
        MeshRenderer tubeRenderer;
        Mesh tubeMeshData;
        Vector3[] tubePositions = new Vector3[0], tubeNormals = new Vector3[0];
        Vector4[] tubeTangents = new Vector4[0];
        Vector2[] tubeUV = new Vector2[0];
        int[] tubeIndices = new int[0];
        int tubeLayout = -1;
        RopeOptions applied;
        SinewWorldBehaviour subscribed;
        // The world behaviour the rope lives in: `world`, or the scene's first (Start), or
        // the previewing one. Not serialized: the preview never writes `world`.
        [System.NonSerialized] SinewWorldBehaviour host;
        readonly SinewMotionVectors motion = new SinewMotionVectors();
        [System.NonSerialized] bool previewing;
        [System.NonSerialized] bool lineWasOff;

        /// <summary>The fields as the library's options (ends from the transforms).</summary>
        public RopeOptions Options()
        {
            return new RopeOptions
            {
                Start = start != null ? start.position.ToSinew() : transform.position.ToSinew(),
                End = end != null ? end.position.ToSinew() : transform.position.ToSinew(),
                // BEGIN GENERATED RopeDesc options copy
                Segments = segments,
                MassKg = massKg,
                Radius = radius,
                StretchCompliance = compliance,
                BendCompliance = bendCompliance,
                Tethers = tethers,
                PinStart = pinStart,
                PinEnd = pinEnd,
                Damping = damping,
                // END GENERATED RopeDesc options copy
                TetherCompliance = tetherCompliance,
                Drag = drag,
                Length = length,
                WinchSpeed = winchSpeed,
                BreakForce = breakForce,
                Collision = new CollisionOptions
                {
                    SelfCollision = selfCollision,
                    Group = collisionGroup,
                    Layers = collisionLayers,
                    Mask = collisionMask,
                },
            };
        }

        void OnValidate()
        {
            // Clamps only: no native state in edit mode (edits reach a live rope before its
            // next step).
            // BEGIN GENERATED RopeDesc clamps
            segments = SinewAuthoring.Clamp(segments, 1, (int)SinewNative.SINEW_MAX_BODY_PARTICLES - 1);
            massKg = SinewAuthoring.Clamp(massKg, SinewAuthoring.Above(0.0f), SinewNative.SINEW_MAX_BODY_MASS);
            radius = SinewAuthoring.Clamp(radius, 0.0f, SinewNative.SINEW_MAX_LENGTH);
            compliance = SinewAuthoring.Clamp(compliance, 0.0f, SinewNative.SINEW_MAX_BODY_COMPLIANCE);
            bendCompliance = SinewAuthoring.Clamp(bendCompliance, 0.0f, SinewNative.SINEW_MAX_BODY_COMPLIANCE);
            damping = SinewAuthoring.Clamp(damping, 0.0f, SinewNative.SINEW_MAX_ACCELERATION);
            // END GENERATED RopeDesc clamps
            // BEGIN GENERATED Tether and drag clamps
            tetherCompliance = SinewAuthoring.Clamp(tetherCompliance, 0.0f, SinewNative.SINEW_MAX_BODY_COMPLIANCE);
            drag = SinewAuthoring.Clamp(drag, 0.0f, SinewNative.SINEW_MAX_AERO_COEFFICIENT);
            // END GENERATED Tether and drag clamps
            // BEGIN GENERATED Winch clamps
            length = SinewAuthoring.Clamp(length, 0.0f, SinewNative.SINEW_MAX_LENGTH);
            winchSpeed = SinewAuthoring.Clamp(winchSpeed, 0.0f, SinewNative.SINEW_MAX_WINCH_SPEED);
            // END GENERATED Winch clamps
            breakForce = SinewAuthoring.Clamp(breakForce, 0f, float.MaxValue);
            collisionGroup = SinewAuthoring.Clamp(collisionGroup, 0, int.MaxValue);
        }

        void Start()
        {
            if (world == null)
                world = SinewWorldBehaviour.FindInScene();
            if (world == null || start == null || end == null)
            {
                Debug.LogError("SinewRope needs a SinewWorldBehaviour and start/end transforms", this);
                enabled = false;
                return;
            }
            line = GetComponent<LineRenderer>();
            line.useWorldSpace = true;
            host = world;
            Build();
            subscribed = world;
            subscribed.BeforeStep += FollowEnds;
        }

        /// <summary>Removes the rope and builds it again from the fields (straight between
        /// the transforms): applies Segments, pins, Tethers and Radius while playing.</summary>
        [ContextMenu("Rebuild")]
        public void Rebuild()
        {
            if (Rope == null || host == null)
                return;
            Rope.Dispose();
            Rope = null;
            Build();
        }

        void Build()
        {
            RopeOptions o = Options();
            try
            {
                Rope = SinewAuthoring.BuildRope(host.World, o);
                LastError = "";
            }
            catch (SinewException e)
            {
                Debug.LogError("SinewRope: " + e.Message, this);
                LastError = e.Message;
                if (!previewing)
                    enabled = false; // (a serialized field: the preview leaves it)
                return;
            }
            applied = o;
            points = new Vector3[Rope.ParticleCount];
            Rope.ReadPositions(points);
            motion.Reset();
            if (previewing)
                return;
            line.positionCount = points.Length;
            line.SetPositions(points);
        }

        void FollowEnds()
        {
            if (Rope == null || Rope.World.IsDisposed)
                return;
            // Inspector edits apply in place, from this step on.
            try
            {
                SinewAuthoring.EditRope(Rope, ref applied, Options());
            }
            catch (SinewException e)
            {
                if (LastError != e.Message)
                    Debug.LogError("SinewRope: " + e.Message, this);
                LastError = e.Message;
            }
            // A winched rope's far end hangs free unless pinned; the drum follows start.
            Rope.MoveEnds(start.position.ToSinew(), end.position.ToSinew());
        }

        void LateUpdate()
        {
            if (Rope == null || Rope.World.IsDisposed)
                return;
            Draw(SinewRendering.Alpha(host));
        }

        void Draw(float alpha)
        {
            // In place (Vector3[] has SinewVec3's layout), between the last two steps.
            Rope.ReadInterpolatedPositions(alpha, points);
            // The preview draws the tube always: the LineRenderer's positions are serialized.
            bool drawTube = tubeMesh || previewing;
            if (!previewing)
                line.enabled = !tubeMesh;
            if (drawTube)
                DrawTube();
            else
                line.SetPositions(points);
            if (tubeObject != null)
                tubeObject.SetActive(drawTube);
        }

        /// The tube around this frame's points (world space), into the reused arrays.
        unsafe void DrawTube()
        {
            tube.Radius = tubeRadius > Tube.MinRadius ? tubeRadius : Tube.MinRadius;
            tube.Sides = Mathf.Clamp(tubeSides, Tube.MinSides, Tube.MaxSides);
            tube.Caps = tubeCaps;
            tube.VPerLength = tubeVPerMetre;
            if (tubeObject == null)
            {
                // In the preview neither is saved with the scene nor shown in the hierarchy.
                tubeObject = SinewEditPreview.MeshObject(name + " (Sinew rope tube)", previewing);
                tubeMeshData = new Mesh();
                if (previewing)
                    tubeMeshData.hideFlags = HideFlags.DontSave;
                tubeMeshData.MarkDynamic();
                tubeObject.GetComponent<MeshFilter>().mesh = tubeMeshData;
                tubeRenderer = tubeObject.GetComponent<MeshRenderer>();
                tubeRenderer.sharedMaterial = tubeMaterial != null ? tubeMaterial : line != null ? line.sharedMaterial : null;
            }
            int n = points.Length;
            int layout = (n * 512 + tube.Sides) * 2 + (tube.Caps ? 1 : 0);
            bool indices = layout != tubeLayout;
            if (indices)
            {
                int v = Tube.VertexCount(n, tube.Sides, tube.Caps);
                tubePositions = new Vector3[v];
                tubeNormals = new Vector3[v];
                tubeTangents = new Vector4[v];
                tubeUV = new Vector2[v];
                tubeIndices = new int[Tube.IndexCount(n, tube.Sides, tube.Caps)];
                tubeMeshData.Clear();
                if (v > 65535)
                    tubeMeshData.indexFormat = UnityEngine.Rendering.IndexFormat.UInt32;
            }
            fixed (Vector3* p = points)
            fixed (Vector3* pos = tubePositions)
            fixed (Vector3* nrm = tubeNormals)
            fixed (Vector4* tan = tubeTangents)
            fixed (Vector2* uv = tubeUV)
            fixed (int* idx = tubeIndices)
                tube.Build((SinewVec3*)p, n, (SinewVec3*)pos, (SinewVec3*)nrm, (float*)tan, (float*)uv, indices ? idx : null);
            tubeMeshData.SetVertices(tubePositions);
            tubeMeshData.SetNormals(tubeNormals);
            tubeMeshData.SetTangents(tubeTangents);
            tubeMeshData.SetUVs(0, tubeUV);
            if (indices)
            {
                tubeMeshData.triangles = tubeIndices;
                motion.Reset(); // another vertex layout: no previous frame
            }
            if (motionVectors)
            {
                SinewMotionVectors.Enable(tubeRenderer);
                motion.Apply(tubeMeshData, tubePositions); // world space = the tube object's
            }
            tubeMeshData.RecalculateBounds();
            tubeLayout = layout;
        }

        void OnDestroy()
        {
            if (subscribed != null)
                subscribed.BeforeStep -= FollowEnds;
            if (Rope != null)
                Rope.Dispose(); // removes the body (nothing to do once the world is gone)
            if (tubeObject != null)
                Destroy(tubeObject);
            if (tubeMeshData != null)
                Destroy(tubeMeshData);
            Rope = null;
        }

        // The edit-mode preview (SinewWorldBehaviour.Preview.cs; its only caller).
        bool ISinewPreviewed.PreviewWants(SinewWorldBehaviour w, SinewWorldBehaviour sceneFirst)
        {
            return SinewEditPreview.Wants(this, world, w, sceneFirst) && start != null && end != null;
        }

        bool ISinewPreviewed.PreviewBegin(SinewWorldBehaviour w)
        {
            previewing = true;
            host = w;
            line = GetComponent<LineRenderer>();
            if (line != null)
            {
                lineWasOff = line.forceRenderingOff;
                line.forceRenderingOff = true; // the tube draws the rope
            }
            Build();
            if (Rope == null)
            {
                ((ISinewPreviewed)this).PreviewEnd();
                return false;
            }
            subscribed = host;
            subscribed.BeforeStep += FollowEnds;
            return true;
        }

        void ISinewPreviewed.PreviewDraw()
        {
            if (Rope != null && !Rope.World.IsDisposed)
                Draw(SinewRendering.Alpha(host));
        }

        void ISinewPreviewed.PreviewEnd()
        {
            if (subscribed != null)
                subscribed.BeforeStep -= FollowEnds;
            subscribed = null;
            if (Rope != null)
                Rope.Dispose();
            Rope = null;
            if (tubeObject != null)
                DestroyImmediate(tubeObject);
            if (tubeMeshData != null)
                DestroyImmediate(tubeMeshData);
            tubeObject = null;
            tubeRenderer = null;
            tubeMeshData = null;
            tubeLayout = -1;
            if (line != null && previewing)
                line.forceRenderingOff = lineWasOff;
            lineWasOff = false;
            host = null;
            previewing = false;
        }

#if UNITY_EDITOR
        // The rope in the Scene view: the rest shape (straight, Segments links) in edit
        // mode, the live particles while playing. Selected: particle spheres at Radius,
        // pinned particles and the attachment transforms.
        void OnDrawGizmos()
        {
            int n = GizmoPoints();
            if (n == 0)
                return;
            Gizmos.color = IsAsleep ? SinewGizmos.Asleep : SinewGizmos.Constraint;
            for (int i = 1; i < n; i++)
                Gizmos.DrawLine(gizmoPoints[i - 1], gizmoPoints[i]);
        }

        void OnDrawGizmosSelected()
        {
            int n = GizmoPoints();
            if (n == 0)
                return;
            Gizmos.color = SinewGizmos.Particle;
            for (int i = 0; i < n; i++)
                SinewGizmos.DrawParticle(gizmoPoints[i], radius);
            if (pinStart)
                SinewGizmos.DrawPin(gizmoPoints[0], radius);
            if (pinEnd)
                SinewGizmos.DrawPin(gizmoPoints[n - 1], radius);
            if (start != null)
                SinewGizmos.DrawAttachment(start.position, gizmoPoints[0]);
            if (end != null && pinEnd)
                SinewGizmos.DrawAttachment(end.position, gizmoPoints[n - 1]);
        }

        Vector3[] gizmoPoints = new Vector3[0];

        int GizmoPoints()
        {
            if (Rope != null && !Rope.World.IsDisposed)
            {
                if (gizmoPoints.Length != Rope.ParticleCount)
                    gizmoPoints = new Vector3[Rope.ParticleCount];
                Rope.ReadPositions(gizmoPoints);
                return gizmoPoints.Length;
            }
            if (start == null || end == null)
                return 0;
            // The straight rest shape, at most SinewGizmos.MaxParticles points.
            int n = SinewAuthoring.Clamp(segments, 1, SinewGizmos.MaxParticles - 1) + 1;
            if (gizmoPoints.Length != n)
                gizmoPoints = new Vector3[n];
            Vector3 a = start.position, b = end.position;
            for (int i = 0; i < n; i++)
                gizmoPoints[i] = a + (b - a) * ((float)i / (n - 1));
            return n;
        }
#endif
    }
}

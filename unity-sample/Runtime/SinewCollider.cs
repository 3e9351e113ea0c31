// Mirrors this object's Unity SphereCollider, CapsuleCollider or BoxCollider into a Sinew
// world as a Sinew collider of the same shape (ColliderShapes does the mapping, scale
// included), so that ropes and cloth collide with it; a MeshCollider becomes a signed
// distance field collider, the field baked by the library from its closed sharedMesh
// (scaled by the object's scale, cells of sdfCellSize m) once per mesh, scale and cell
// size and shared (SinewSdfCache); an open mesh is refused with the library's message in
// the console and the inspector (MeshError). The transform is pushed from the
// world's BeforeStep event, i.e. inside SinewWorldBehaviour.FixedUpdate just before each
// step, whatever the script execution order; a change of size or scale re-adds the
// collider. Removed in OnDisable; a world already destroyed (domain reload, play-mode
// exit) is left alone, and a world created again later gets the collider again. The
// material fields apply in place; OnValidate clamps them; the Scene view draws the shape
// Sinew sees (after the scale mapping) as a wireframe. With `contactEvents` on, the
// world's begin/persist/end contact events for this collider arrive, once per fixed step
// right after it, as the C# events OnSinewContactBegin/Persist/End and the matching
// UnityEvents (one per touching body, with its first contact point and the impulses).
// In the edit-mode preview (SinewWorldBehaviour.Preview.cs) the collider is registered in
// the preview's world the same way, kinematic (no Rigidbody coupling) and without contact
// events (no user callback runs in edit mode).

using System;
using Sinew.Native;
using UnityEngine;
using UnityEngine.Events;

namespace Sinew.Unity
{
    /// <summary>One contact event of a <see cref="SinewCollider"/> (a value: nothing is
    /// allocated per event).</summary>
    public struct SinewContactInfo
    {
        /// <summary>The collider component the event is about.</summary>
        public SinewCollider collider;
        /// <summary>The touching body (a rope's or cloth's Body handle; id 0 for a
        /// particle in no body).</summary>
        public SinewBodyHandle body;
        /// <summary>The body's first (lowest-index) particle touching the collider.</summary>
        public int particle;
        /// <summary>That particle's contact point (world, m) and the collider's outward
        /// normal there.</summary>
        public Vector3 point;
        public Vector3 normal;
        /// <summary>The normal impulse (N·s, >= 0) the collider gave all the body's
        /// particles over the step; 0 for an end.</summary>
        public float impulse;
        /// <summary>The friction impulse (N·s, world) over the step; zero for an end.</summary>
        public Vector3 frictionImpulse;
    }

    /// <summary>A serializable UnityEvent carrying a <see cref="SinewContactInfo"/>.</summary>
    [Serializable]
    public sealed class SinewContactUnityEvent : UnityEvent<SinewContactInfo> { }

    [DisallowMultipleComponent]
    [AddComponentMenu("Sinew/Sinew Collider")]
    public sealed class SinewCollider : MonoBehaviour, ISinewPreviewed
    {
        [Tooltip("The world to live in; empty = the first SinewWorldBehaviour in the scene. Read in OnEnable.")]
        public SinewWorldBehaviour world;
        // BEGIN GENERATED ColliderDesc fields
        [Tooltip("Coulomb coefficient below which a contact sticks. In [0, 100].")]
        [Range(0.0f, SinewNative.SINEW_MAX_FRICTION)]
        public float staticFriction = 0.0f;
        [Tooltip("Coulomb coefficient of sliding. In [0, 100].")]
        [Range(0.0f, SinewNative.SINEW_MAX_FRICTION)]
        public float dynamicFriction = 0.0f;
        [Tooltip("Normal velocity kept after an impact, as a fraction of the approach speed (0 = no bounce, 1 = elastic). In [0, 1].")]
        [Range(0.0f, 1.0f)]
        public float restitution = 0.0f;
        [Tooltip("Whether the contact readback (`World::contacts`, sinew_world_read_contacts) lists this collider's contacts. Off, the collider still acts on the particles, only its contacts are left out (a host world that handles some colliders' contacts itself, or none).")]
        public bool reportContacts = true;
        // END GENERATED ColliderDesc fields

        [Header("MeshCollider: signed distance field")]
        [Tooltip("MeshCollider only: the distance field's cell, m (> 0). The field follows edges and corners within about a cell; each halving takes 8 times the memory (4 bytes a node). Baked once per mesh, scale and cell size (a change re-bakes and re-adds the collider).")]
        [Min(0f)]
        public float sdfCellSize = 0.05f;
        [Tooltip("MeshCollider only: how far the field reaches beyond the mesh's box, m: at least the largest particle radius plus a cell.")]
        [Min(0f)]
        public float sdfMargin = 0.1f;

        [Tooltip("Raise OnSinewContactBegin/Persist/End (and the UnityEvents below) for this collider, once per fixed step. Needs Report Contacts. Applies from the next step.")]
        public bool contactEvents = false;
        [Tooltip("A body started touching this collider in the last fixed step.")]
        public SinewContactUnityEvent onContactBegin = new SinewContactUnityEvent();
        [Tooltip("A body kept touching this collider in the last fixed step.")]
        public SinewContactUnityEvent onContactPersist = new SinewContactUnityEvent();
        [Tooltip("A body stopped touching this collider in the last fixed step.")]
        public SinewContactUnityEvent onContactEnd = new SinewContactUnityEvent();

        /// <summary>A body started touching this collider in the last fixed step (raised
        /// in FixedUpdate right after the step; needs <see cref="contactEvents"/>).</summary>
        public event Action<SinewContactInfo> OnSinewContactBegin;
        /// <summary>A body kept touching this collider in the last fixed step.</summary>
        public event Action<SinewContactInfo> OnSinewContactPersist;
        /// <summary>A body stopped touching this collider in the last fixed step.</summary>
        public event Action<SinewContactInfo> OnSinewContactEnd;

        /// <summary>The Sinew collider (null while none is registered).</summary>
        public WorldCollider WorldCollider { get; private set; }

        /// <summary>The Sinew collider's raw handle (id 0 while none is registered).</summary>
        public Sinew.Native.SinewColliderHandle Handle
        {
            get { return WorldCollider != null ? WorldCollider.Handle : default(Sinew.Native.SinewColliderHandle); }
        }

        /// <summary>The world the collider is in (null while none).</summary>
        public World Owner { get; private set; }

        /// <summary>The distance field a MeshCollider is registered with (null for the other
        /// shapes and while none is registered); shared with every collider of the same
        /// mesh, scale, cell size and margin.</summary>
        public SdfGrid Sdf { get; private set; }

        /// <summary>Why the MeshCollider's mesh could not be baked into a distance field (the
        /// library's message: an open edge, a degenerate triangle; empty = none).</summary>
        public string MeshError { get; private set; }

        SinewWorldBehaviour subscribed;
        SinewWorldBehaviour listening;
        [System.NonSerialized] bool previewing;
        ColliderSettings registered;
        ColliderSettings template;
        bool haveTemplate;
        bool teleportNext;
        SdfGrid wantedSdf; // the MeshCollider's field as Describe last found it

        /// <summary>The next transform update jumps instead of sweeping (particles on the
        /// way are not pushed).</summary>
        public void Teleport()
        {
            teleportNext = true;
        }

        void OnEnable()
        {
            if (world == null)
                world = SinewWorldBehaviour.FindInScene();
            if (world == null)
            {
                Debug.LogError("SinewCollider needs a SinewWorldBehaviour", this);
                enabled = false;
                return;
            }
            subscribed = world;
            subscribed.BeforeStep += Push;
            Register();
        }

        void OnDisable()
        {
            if (subscribed != null)
                subscribed.BeforeStep -= Push;
            subscribed = null;
            Unregister();
        }

        void OnDestroy()
        {
            Unregister();
        }

        // Adds the collider to the subscribed behaviour's world (creating it if needed).
        void Register()
        {
            ColliderSettings desc;
            if (!Describe(out desc))
                return;
            try
            {
                World w = subscribed.World;
                WorldCollider = wantedSdf != null ? w.AddSdfCollider(desc, wantedSdf) : w.AddCollider(desc);
                Owner = w;
                registered = desc;
                Sdf = wantedSdf;
                if (contactEvents && !previewing)
                {
                    listening = subscribed;
                    listening.ListenContacts(Handle, this);
                }
            }
            catch (SinewException e)
            {
                Fail(e);
            }
        }

        // Removes the collider unless its world is already gone (its colliders went with it).
        void Unregister()
        {
            World w = Owner;
            WorldCollider c = WorldCollider;
            Owner = null;
            WorldCollider = null;
            Sdf = null;
            if (listening != null && c != null)
                listening.ListenContacts(c.Handle, null);
            listening = null;
            if (w == null || w.IsDisposed || c == null)
                return;
            try
            {
                c.Remove();
            }
            catch (SinewException e)
            {
                Debug.LogError("SinewCollider: " + e.Message, this);
            }
        }

        // BeforeStep: the Unity collider's pose, size and the material fields, into the world.
        void Push()
        {
            if (Owner == null || Owner.IsDisposed)
            {
                Owner = null;
                WorldCollider = null;
                Register();
                return;
            }
            if (!previewing && contactEvents != (listening != null))
            {
                listening = contactEvents ? subscribed : null;
                subscribed.ListenContacts(Handle, contactEvents ? this : null);
            }
            ColliderSettings desc;
            if (!Describe(out desc))
                return;
            try
            {
                if (!ColliderShapes.SameShape(desc, registered) || wantedSdf != Sdf)
                {
                    Unregister();
                    Register();
                    return;
                }
                WorldCollider.SetTransform(desc.Position, desc.Rotation, teleportNext);
                teleportNext = false;
                // A Rigidbody coupled two-way: its mass and velocities for this step.
                var coupling = previewing ? null : GetComponent<SinewRigidbodyCoupling>();
                if (coupling != null)
                    coupling.PushDynamics(WorldCollider, desc.Position, desc.Rotation);
                registered.Position = desc.Position;
                registered.Rotation = desc.Rotation;
                if (desc.StaticFriction != registered.StaticFriction ||
                    desc.DynamicFriction != registered.DynamicFriction ||
                    desc.Restitution != registered.Restitution)
                {
                    WorldCollider.SetMaterial(desc.StaticFriction, desc.DynamicFriction, desc.Restitution);
                    registered.StaticFriction = desc.StaticFriction;
                    registered.DynamicFriction = desc.DynamicFriction;
                    registered.Restitution = desc.Restitution;
                }
            }
            catch (SinewException e)
            {
                Fail(e);
            }
        }

        // From the world behaviour, after a step: one contact event of this collider.
        internal void RaiseContact(ContactEvent e)
        {
            var info = new SinewContactInfo
            {
                collider = this,
                body = e.Body,
                particle = e.Particle,
                point = e.Point.ToUnity(),
                normal = e.Normal.ToUnity(),
                impulse = e.Impulse,
                frictionImpulse = e.FrictionImpulse.ToUnity(),
            };
            switch (e.Kind)
            {
                case SinewContactEventKind.Begin:
                    if (OnSinewContactBegin != null) OnSinewContactBegin(info);
                    onContactBegin.Invoke(info);
                    break;
                case SinewContactEventKind.Persist:
                    if (OnSinewContactPersist != null) OnSinewContactPersist(info);
                    onContactPersist.Invoke(info);
                    break;
                default:
                    if (OnSinewContactEnd != null) OnSinewContactEnd(info);
                    onContactEnd.Invoke(info);
                    break;
            }
        }

        // The settings of the Unity collider on this object, or false (logged, disabled).
        bool Describe(out ColliderSettings desc)
        {
            if (!haveTemplate)
            {
                template = ColliderSettings.Default;
                haveTemplate = true;
            }
            desc = template;
            // BEGIN GENERATED ColliderDesc describe
            desc.StaticFriction = staticFriction;
            desc.DynamicFriction = dynamicFriction;
            desc.Restitution = restitution;
            desc.ReportContacts = reportContacts;
            // END GENERATED ColliderDesc describe
            wantedSdf = null;
            if (Shape(gameObject, ref desc))
                return true;
            var meshCollider = GetComponent<MeshCollider>();
            if (meshCollider != null)
                return DescribeMesh(meshCollider, ref desc);
            Debug.LogError("SinewCollider needs a SphereCollider, CapsuleCollider, BoxCollider or MeshCollider on the same GameObject", this);
            if (!previewing)
                enabled = false;
            return false;
        }

        /// <summary>Writes the shape, pose and size of the Unity collider on
        /// <paramref name="go"/> into <paramref name="desc"/> (its material fields are kept);
        /// false when it has none.</summary>
        public static bool Shape(GameObject go, ref ColliderSettings desc)
        {
            Transform t = go.transform;
            SinewVec3 scale = t.lossyScale.ToSinew();
            SinewQuat rotation = t.rotation.ToSinew();
            var sphere = go.GetComponent<SphereCollider>();
            if (sphere != null)
            {
                desc = ColliderShapes.Sphere(desc, sphere.radius, scale, t.TransformPoint(sphere.center).ToSinew(), rotation);
                return true;
            }
            var capsule = go.GetComponent<CapsuleCollider>();
            if (capsule != null)
            {
                desc = ColliderShapes.Capsule(desc, capsule.radius, capsule.height, capsule.direction, scale,
                                              t.TransformPoint(capsule.center).ToSinew(), rotation);
                return true;
            }
            var box = go.GetComponent<BoxCollider>();
            if (box != null)
            {
                desc = ColliderShapes.Box(desc, box.size.ToSinew(), scale, t.TransformPoint(box.center).ToSinew(), rotation);
                return true;
            }
            return false;
        }

        // A MeshCollider: its field (baked or from the cache) and the object's pose; false
        // (logged once per reason, MeshError set) when the mesh cannot be one.
        bool DescribeMesh(MeshCollider meshCollider, ref ColliderSettings desc)
        {
            Mesh mesh = meshCollider.sharedMesh;
            string error = "the MeshCollider has no mesh";
            SdfGrid grid = null;
            if (mesh != null)
                grid = SinewSdfCache.Get(mesh, transform.lossyScale, sdfCellSize, sdfMargin, out error);
            if (grid == null)
            {
                if (MeshError != error)
                    Debug.LogError("SinewCollider: the MeshCollider's mesh cannot be a distance field: " + error, this);
                MeshError = error;
                if (!previewing)
                    enabled = false;
                return false;
            }
            MeshError = "";
            desc.Shape = SinewShape.Sdf;
            desc.Position = transform.position.ToSinew();
            desc.Rotation = transform.rotation.ToSinew();
            wantedSdf = grid;
            return true;
        }

        /// <summary>Bakes the MeshCollider's field now (or takes it from the cache) and
        /// returns why it cannot be one (empty = it can; also empty without a MeshCollider).
        /// The inspector's check button; no native world is involved.</summary>
        public string CheckMesh()
        {
            var meshCollider = GetComponent<MeshCollider>();
            if (meshCollider == null)
                return "";
            string error = "the MeshCollider has no mesh";
            if (meshCollider.sharedMesh != null)
                SinewSdfCache.Get(meshCollider.sharedMesh, transform.lossyScale, sdfCellSize, sdfMargin, out error);
            MeshError = error;
            return error;
        }

        /// <summary>"SphereCollider", "CapsuleCollider", "BoxCollider" or "MeshCollider":
        /// the Unity collider a SinewCollider on <paramref name="go"/> mirrors; empty when none.</summary>
        public static string ShapeName(GameObject go)
        {
            if (go.GetComponent<SphereCollider>() != null) return "SphereCollider";
            if (go.GetComponent<CapsuleCollider>() != null) return "CapsuleCollider";
            if (go.GetComponent<BoxCollider>() != null) return "BoxCollider";
            if (go.GetComponent<MeshCollider>() != null) return "MeshCollider";
            return "";
        }

        void OnValidate()
        {
            // Clamps only: no native state in edit mode.
            // BEGIN GENERATED ColliderDesc clamps
            staticFriction = SinewAuthoring.Clamp(staticFriction, 0.0f, SinewNative.SINEW_MAX_FRICTION);
            dynamicFriction = SinewAuthoring.Clamp(dynamicFriction, 0.0f, SinewNative.SINEW_MAX_FRICTION);
            restitution = SinewAuthoring.Clamp(restitution, 0.0f, 1.0f);
            // END GENERATED ColliderDesc clamps
            sdfCellSize = SinewAuthoring.Clamp(sdfCellSize, SinewAuthoring.Above(0f), SinewNative.SINEW_MAX_LENGTH);
            sdfMargin = SinewAuthoring.Clamp(sdfMargin, 0f, SinewNative.SINEW_MAX_LENGTH);
        }

#if UNITY_EDITOR
        // The shape Sinew sees (after the scale mapping of ColliderShapes: a squashed
        // sphere stays round, a short capsule is a sphere), as a wireframe.
        void OnDrawGizmos()
        {
            var d = default(ColliderSettings);
            if (!Shape(gameObject, ref d))
            {
                // A MeshCollider: the box of its field once baked (Unity draws the mesh).
                if (Sdf == null)
                    return;
                Gizmos.color = SinewGizmos.Collider;
                Vector3 size = new Vector3(Sdf.Nx - 1, Sdf.Ny - 1, Sdf.Nz - 1) * Sdf.CellSize;
                Vector3 centre = Sdf.Origin.ToUnity() + size * 0.5f;
                DrawBox(transform.position + transform.rotation * centre, transform.rotation, size * 0.5f);
                return;
            }
            Gizmos.color = SinewGizmos.Collider;
            Vector3 c = d.Position.ToUnity();
            Quaternion q = d.Rotation.ToUnity();
            switch (d.Shape)
            {
                case SinewShape.Sphere:
                    Gizmos.DrawWireSphere(c, d.Radius);
                    break;
                case SinewShape.Capsule:
                {
                    Vector3 axis = q * new Vector3(0f, d.HalfHeight, 0f);
                    Vector3 side1 = q * new Vector3(d.Radius, 0f, 0f), side2 = q * new Vector3(0f, 0f, d.Radius);
                    Gizmos.DrawWireSphere(c + axis, d.Radius);
                    Gizmos.DrawWireSphere(c - axis, d.Radius);
                    Gizmos.DrawLine(c + axis + side1, c - axis + side1);
                    Gizmos.DrawLine(c + axis - side1, c - axis - side1);
                    Gizmos.DrawLine(c + axis + side2, c - axis + side2);
                    Gizmos.DrawLine(c + axis - side2, c - axis - side2);
                    break;
                }
                case SinewShape.Box:
                    DrawBox(c, q, d.HalfExtents.ToUnity());
                    break;
            }
        }

        static void DrawBox(Vector3 c, Quaternion q, Vector3 h)
        {
            var corners = new Vector3[8];
            for (int k = 0; k < 8; k++)
                corners[k] = c + q * new Vector3((k & 1) != 0 ? h.x : -h.x, (k & 2) != 0 ? h.y : -h.y,
                                                 (k & 4) != 0 ? h.z : -h.z);
            for (int k = 0; k < 8; k++)
                for (int bit = 1; bit < 8; bit <<= 1)
                    if ((k & bit) == 0)
                        Gizmos.DrawLine(corners[k], corners[k | bit]);
        }
#endif

        // Bad values (a zero scale, a negative friction): the library's message, then off.
        void Fail(SinewException e)
        {
            Debug.LogError("SinewCollider: " + e.Message, this);
            if (!previewing)
                enabled = false; // (a serialized field: the preview leaves it)
        }

        // The edit-mode preview (SinewWorldBehaviour.Preview.cs; its only caller).
        bool ISinewPreviewed.PreviewWants(SinewWorldBehaviour w, SinewWorldBehaviour sceneFirst)
        {
            return SinewEditPreview.Wants(this, world, w, sceneFirst) && ShapeName(gameObject) != "";
        }

        bool ISinewPreviewed.PreviewBegin(SinewWorldBehaviour w)
        {
            previewing = true;
            subscribed = w;
            Register();
            if (Handle.id == 0)
            {
                ((ISinewPreviewed)this).PreviewEnd();
                return false;
            }
            subscribed.BeforeStep += Push;
            return true;
        }

        void ISinewPreviewed.PreviewDraw() { }

        void ISinewPreviewed.PreviewEnd()
        {
            if (subscribed != null)
                subscribed.BeforeStep -= Push;
            subscribed = null;
            Unregister();
            previewing = false;
        }
    }
}

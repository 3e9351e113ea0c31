// Character cloth (a cape, a skirt) on this object's SkinnedMeshRenderer. The library
// builds a cloth from the skinned mesh (one particle per distinct vertex); every
// FixedUpdate the mesh is baked in its animated pose and the skinned positions and
// normals are written as the particles' targets in one call, with the character's root
// for inertia control. Per-vertex weights come from the vertex colours (red = max
// distance, green = backstop, blue = anim drive) or from per-vertex arrays. Unity
// WindZones blow on it (Directional -> the world wind, Spherical -> a sphere zone).
// The simulated mesh is drawn by a separate MeshRenderer in world space; the skinned
// renderer keeps skinning but stops drawing. Removed from the world when destroyed.
// Material, mass, damping, drag/lift, the collision filter and the skinning weights are
// edited in place while playing (SinewAuthoring.EditCloth, Body.SetSkinWeights); the
// bending model shapes the body and is read when the cloth is built (greyed out while
// playing). Nothing native is serialized (prefab-safe).

using System.Collections.Generic;
using Sinew.Native;
using UnityEngine;

namespace Sinew.Unity
{
    /// <summary>Where <see cref="SinewSkinnedCloth"/> reads its per-vertex weights.</summary>
    public enum SkinWeightSource
    {
        /// <summary>Vertex colours: red × maxDistance, green × backstopRadius, blue = drive
        /// (blue 0 = no drive). A mesh without colours: red 1, green 0, blue 0.</summary>
        VertexColors,
        /// <summary>The arrays maxDistances and backstopRadii (one per vertex).</summary>
        PerVertexArrays,
    }

    [RequireComponent(typeof(SkinnedMeshRenderer))]
    [AddComponentMenu("Sinew/Sinew Skinned Cloth")]
    public sealed class SinewSkinnedCloth : MonoBehaviour
    {
        [Tooltip("The world to live in; empty = the first SinewWorldBehaviour in the scene.")]
        public SinewWorldBehaviour world;

        [Header("Model (read when the cloth is built)")]
        [Tooltip("Bending model: none, distance links across edges (m/N), dihedral angle (rad/(N·m)) or isometric (1/(N·m)). Read when the cloth is built.")]
        public SinewBendingModel bending = SinewBendingModel.Dihedral;

        [Header("Material (edited in place)")]
        // BEGIN GENERATED ClothGridDesc mass
        [Tooltip("Total mass, spread evenly over the vertices. In (0, 1e12] kg.")]
        [Min(0.0f)]
        public float massKg = 0.4f;
        // END GENERATED ClothGridDesc mass
        // BEGIN GENERATED ClothDesc preset
        [Tooltip("Compliance of the edges (m/N; 0 = inextensible). In [0, 1e10].")]
        [Min(0.0f)]
        public float compliance = 1E-6f;
        [Tooltip("Compliance of the bending constraints, in the units of the bending model (distance m/N, dihedral rad/(N·m), isometric 1/(N·m)). In [0, 1e10].")]
        [Min(0.0f)]
        public float bendCompliance = 0.5f;
        [Tooltip("Extra velocity damping of the cloth's particles. In [0, 1000000] 1/s.")]
        [Min(0.0f)]
        public float damping = 0.2f;
        // END GENERATED ClothDesc preset

        [Header("Skinning (edited in place)")]
        [Tooltip("Where the per-vertex weights come from: vertex colours scaled by the fields below, or the per-vertex arrays.")]
        public SkinWeightSource weightSource = SkinWeightSource.VertexColors;
        // BEGIN GENERATED Skinning fields
        [Tooltip("Max distance a particle may leave its skinned position where red = 1 (red 0 = fully skinned). In [0, 1e9] m.")]
        [Min(0.0f)]
        public float maxDistance = 0.3f;
        [Tooltip("Backstop sphere radius where green = 1 (0 = no backstop): the cloth may not pass into the body. In [0, 1e9] m.")]
        [Min(0.0f)]
        public float backstopRadius = 0.3f;
        [Tooltip("Distance from the skinned surface to the backstop sphere, along -normal. In [0, 1e9] m.")]
        [Min(0.0f)]
        public float backstopDistance = 0.01f;
        // END GENERATED Skinning fields
        [Tooltip("Anim-drive compliance (m/N) where blue > 0 (divided by blue); negative = no drive anywhere.")]
        public float driveCompliance = -1f;
        [Tooltip("PerVertexArrays: max distance (m) per mesh vertex; negative = no limit.")]
        public float[] maxDistances = new float[0];
        [Tooltip("PerVertexArrays: backstop radius (m) per mesh vertex; empty = none.")]
        public float[] backstopRadii = new float[0];

        [Header("Inertia")]
        [Tooltip("The character's root (empty = the renderer's root bone, else this transform).")]
        public Transform root;
        [Tooltip("Fraction of the root's linear acceleration the cloth feels (1 = world space, 0 = carried).")]
        [Range(0f, 1f)]
        public float linearInertia = 0.3f;
        [Tooltip("Fraction of the root's angular acceleration the cloth feels.")]
        [Range(0f, 1f)]
        public float angularInertia = 0.3f;

        [Header("Wind (edited in place)")]
        // BEGIN GENERATED Aerodynamics fields
        [Tooltip("Drag coefficient per triangle (cloth 1-1.2; 0 = no aerodynamics). In [0, 10].")]
        [Range(0.0f, SinewNative.SINEW_MAX_AERO_COEFFICIENT)]
        public float drag = 1.2f;
        [Tooltip("Lift coefficient per triangle (0.1-0.5 makes flags ripple). In [0, 10].")]
        [Range(0.0f, SinewNative.SINEW_MAX_AERO_COEFFICIENT)]
        public float lift = 0.2f;
        // END GENERATED Aerodynamics fields
        [Tooltip("Read the scene's WindZones every FixedUpdate.")]
        public bool useWindZones = true;
        [Tooltip("Wind speed (m/s) per unit of WindZone.windMain.")]
        [Min(0f)]
        public float windZoneSpeed = 2f;

        [Header("Collisions (edited in place)")]
        [Tooltip("Collision radius of every particle, m (0 = points).")]
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

        /// <summary>The engine-neutral cloth (null before Start).</summary>
        public Cloth Cloth { get; private set; }

        /// <summary>The options the live cloth was built with and edited to.</summary>
        public ClothOptions Applied { get { return applied; } }

        /// <summary>The last edit the library refused (empty = none).</summary>
        public string LastError { get; private set; }

        /// <summary>The fields as the library's options (edges model, no tethers: the
        /// skinning holds the cloth, not pins).</summary>
        public ClothOptions Options()
        {
            return new ClothOptions
            {
                Model = SinewClothModel.Edges,
                Bending = bending,
                Tethers = false,
                Warp = new SinewVec3(1f, 0f, 0f),
                MassKg = massKg,
                StretchCompliance = compliance,
                ShearCompliance = 1e-4f,
                BendCompliance = bendCompliance,
                Damping = damping,
                Drag = drag,
                Lift = lift,
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
            // The cloth desc's ranges (a preset of its fields: see Options).
            // BEGIN GENERATED ClothGridDesc mass clamps
            massKg = SinewAuthoring.Clamp(massKg, SinewAuthoring.Above(0.0f), SinewNative.SINEW_MAX_BODY_MASS);
            // END GENERATED ClothGridDesc mass clamps
            // BEGIN GENERATED ClothDesc preset clamps
            compliance = SinewAuthoring.Clamp(compliance, 0.0f, SinewNative.SINEW_MAX_BODY_COMPLIANCE);
            bendCompliance = SinewAuthoring.Clamp(bendCompliance, 0.0f, SinewNative.SINEW_MAX_BODY_COMPLIANCE);
            damping = SinewAuthoring.Clamp(damping, 0.0f, SinewNative.SINEW_MAX_ACCELERATION);
            // END GENERATED ClothDesc preset clamps
            // BEGIN GENERATED Skinning clamps
            maxDistance = SinewAuthoring.Clamp(maxDistance, 0.0f, SinewNative.SINEW_MAX_LENGTH);
            backstopRadius = SinewAuthoring.Clamp(backstopRadius, 0.0f, SinewNative.SINEW_MAX_LENGTH);
            backstopDistance = SinewAuthoring.Clamp(backstopDistance, 0.0f, SinewNative.SINEW_MAX_LENGTH);
            // END GENERATED Skinning clamps
            linearInertia = SinewAuthoring.Clamp(linearInertia, 0f, 1f);
            angularInertia = SinewAuthoring.Clamp(angularInertia, 0f, 1f);
            // BEGIN GENERATED Aerodynamics clamps
            drag = SinewAuthoring.Clamp(drag, 0.0f, SinewNative.SINEW_MAX_AERO_COEFFICIENT);
            lift = SinewAuthoring.Clamp(lift, 0.0f, SinewNative.SINEW_MAX_AERO_COEFFICIENT);
            // END GENERATED Aerodynamics clamps
            windZoneSpeed = SinewAuthoring.Clamp(windZoneSpeed, 0f, float.MaxValue);
            radius = SinewAuthoring.Clamp(radius, 0f, SinewNative.SINEW_MAX_LENGTH);
            collisionGroup = SinewAuthoring.Clamp(collisionGroup, 0, int.MaxValue);
        }

        SkinnedMeshRenderer skin;
        Mesh baked;
        Mesh output;
        readonly SinewMeshNormals meshNormals = new SinewMeshNormals();
        GameObject display;
        int[] vertexOfParticle = new int[0];
        Vector3[] targets = new Vector3[0];
        Vector3[] normals = new Vector3[0];
        Vector3[] simulated = new Vector3[0];
        Vector3[] vertexNormals = new Vector3[0];
        WindZone[] windZones = new WindZone[0];
        readonly List<int> zoneIds = new List<int>();
        bool teleportNext = true;
        ClothOptions applied;
        SinewWorldBehaviour subscribed;
        // The weight fields the library has (re-sent when one changes).
        SkinWeightSource sentSource;
        float sentMaxDistance, sentBackstopRadius, sentBackstopDistance, sentDrive;
        float[] sentMaxDistances = new float[0], sentBackstopRadii = new float[0];

        void Start()
        {
            if (world == null)
                world = SinewWorldBehaviour.FindInScene();
            skin = GetComponent<SkinnedMeshRenderer>();
            if (world == null || skin == null || skin.sharedMesh == null)
            {
                Debug.LogError("SinewSkinnedCloth needs a SinewWorldBehaviour and a SkinnedMeshRenderer with a mesh", this);
                enabled = false;
                return;
            }
            if (root == null)
                root = skin.rootBone != null ? skin.rootBone : transform;
            baked = new Mesh();
            Vector3[] worldVertices = BakeWorld(null);
            ClothOptions o = Options();
            try
            {
                Cloth = SinewAuthoring.BuildCloth(world.World, worldVertices, skin.sharedMesh.triangles, null, o);
            }
            catch (SinewException e)
            {
                Debug.LogError("SinewSkinnedCloth: " + e.Message, this);
                enabled = false;
                return;
            }
            applied = o;
            LastError = "";
            int n = Cloth.ParticleCount;
            vertexOfParticle = new int[n];
            for (int v = worldVertices.Length - 1; v >= 0; v--)
                vertexOfParticle[Cloth.ParticleOfVertex(v) - Cloth.FirstParticle] = v;
            SendWeights();
            targets = new Vector3[n];
            normals = new Vector3[n];
            simulated = new Vector3[worldVertices.Length];
            vertexNormals = new Vector3[worldVertices.Length];
            display = new GameObject(name + " (Sinew cloth)");
            output = new Mesh();
            output.MarkDynamic();
            output.vertices = worldVertices;
            output.triangles = skin.sharedMesh.triangles;
            meshNormals.SetTopology(output.triangles, skin.sharedMesh.uv, worldVertices.Length);
            display.AddComponent<MeshFilter>().mesh = output;
            display.AddComponent<MeshRenderer>().sharedMaterial = skin.sharedMaterial;
            skin.forceRenderingOff = true;
            if (useWindZones)
#if UNITY_2023_1_OR_NEWER
                windZones = FindObjectsByType<WindZone>(FindObjectsSortMode.None);
#else
                windZones = FindObjectsOfType<WindZone>();
#endif
            subscribed = world;
            subscribed.BeforeStep += FollowSkin;
        }

        // The skinning weights from the fields, into the library; remembers what it sent.
        void SendWeights()
        {
            Cloth.SetSkinWeights(Weights(skin.sharedMesh, Cloth.ParticleCount));
            sentSource = weightSource;
            sentMaxDistance = maxDistance;
            sentBackstopRadius = backstopRadius;
            sentBackstopDistance = backstopDistance;
            sentDrive = driveCompliance;
            sentMaxDistances = (float[])maxDistances.Clone();
            sentBackstopRadii = (float[])backstopRadii.Clone();
        }

        static bool SameArray(float[] a, float[] b)
        {
            if (a.Length != b.Length)
                return false;
            for (int i = 0; i < a.Length; i++)
                if (a[i] != b[i])
                    return false;
            return true;
        }

        bool WeightsChanged()
        {
            return weightSource != sentSource || maxDistance != sentMaxDistance || backstopRadius != sentBackstopRadius ||
                   backstopDistance != sentBackstopDistance || driveCompliance != sentDrive ||
                   !SameArray(maxDistances, sentMaxDistances) || !SameArray(backstopRadii, sentBackstopRadii);
        }

        /// <summary>Puts the cloth on its skinned pose at the next step (after a cut or a
        /// teleport of the character).</summary>
        public void Teleport()
        {
            teleportNext = true;
        }

        SkinWeights[] Weights(Mesh mesh, int particles)
        {
            Color[] colors = mesh.colors;
            var weights = new SkinWeights[particles];
            for (int p = 0; p < particles; p++)
            {
                int v = vertexOfParticle[p];
                var w = SkinWeights.None;
                if (weightSource == SkinWeightSource.PerVertexArrays)
                {
                    w.MaxDistance = v < maxDistances.Length ? maxDistances[v] : -1f;
                    w.BackstopRadius = v < backstopRadii.Length ? backstopRadii[v] : 0f;
                }
                else
                {
                    bool has = colors != null && v < colors.Length;
                    w.MaxDistance = (has ? colors[v].r : 1f) * maxDistance;
                    w.BackstopRadius = (has ? colors[v].g : 0f) * backstopRadius;
                    float blue = has ? colors[v].b : 0f;
                    if (driveCompliance >= 0f && blue > 0f)
                        w.DriveCompliance = driveCompliance / blue;
                }
                w.BackstopDistance = backstopDistance;
                weights[p] = w;
            }
            return weights;
        }

        /// <summary>Bakes the skinned pose and returns its vertices in world space; fills
        /// <paramref name="worldNormals"/> (per vertex) when given.</summary>
        Vector3[] BakeWorld(Vector3[] worldNormals)
        {
            skin.BakeMesh(baked);
            Vector3[] v = baked.vertices;
            Matrix4x4 toWorld = skin.transform.localToWorldMatrix;
            for (int i = 0; i < v.Length; i++)
                v[i] = toWorld.MultiplyPoint3x4(v[i]);
            if (worldNormals != null)
            {
                Vector3[] n = baked.normals;
                for (int i = 0; i < n.Length && i < worldNormals.Length; i++)
                    worldNormals[i] = toWorld.MultiplyVector(n[i]);
            }
            return v;
        }

        void FollowSkin()
        {
            if (Cloth == null || Cloth.World.IsDisposed)
                return;
            // Inspector edits apply in place, from this step on.
            try
            {
                SinewAuthoring.EditCloth(Cloth, ref applied, Options(), 0);
                if (WeightsChanged())
                    SendWeights();
            }
            catch (SinewException e)
            {
                if (LastError != e.Message)
                    Debug.LogError("SinewSkinnedCloth: " + e.Message, this);
                LastError = e.Message;
            }
            Vector3[] v = BakeWorld(vertexNormals);
            for (int p = 0; p < targets.Length; p++)
            {
                targets[p] = v[vertexOfParticle[p]];
                normals[p] = vertexNormals[vertexOfParticle[p]];
            }
            Cloth.SetSkinTargets(targets, normals);
            Cloth.SetSkinRoot(root.position.ToSinew(), root.rotation.ToSinew(), linearInertia, angularInertia);
            if (teleportNext)
            {
                Cloth.TeleportToSkin();
                teleportNext = false;
            }
            if (useWindZones)
                ApplyWindZones();
        }

        void ApplyWindZones()
        {
            var wind = WindSettings.Default;
            int zone = 0;
            foreach (var z in windZones)
            {
                if (z == null)
                    continue;
                float speed = z.windMain * windZoneSpeed;
                float turbulence = z.windTurbulence * windZoneSpeed;
                if (z.mode == WindZoneMode.Directional)
                {
                    wind.Velocity = (wind.Velocity.ToUnity() + z.transform.forward * speed).ToSinew();
                    if (turbulence > wind.Turbulence)
                        wind.Turbulence = turbulence;
                    continue;
                }
                var s = WindZoneSettings.Default;
                s.Shape = SinewWindZoneShape.Sphere;
                s.Position = z.transform.position.ToSinew();
                s.Radius = z.radius;
                s.Direction = new SinewVec3(0f, 0f, 0f); // radial, as Unity's spherical zones
                s.Strength = speed;
                s.Turbulence = turbulence;
                s.Falloff = 1f; // Unity's spherical zones fade from the centre to the edge
                if (zone < zoneIds.Count)
                    Cloth.World.SetWindZone(zoneIds[zone], s);
                else
                    zoneIds.Add(Cloth.World.AddWindZone(s));
                zone++;
            }
            Cloth.World.SetWind(wind);
        }

        void LateUpdate()
        {
            if (Cloth == null || Cloth.World.IsDisposed || output == null)
                return;
            Cloth.ReadInterpolatedVertices(SinewRendering.Alpha(world), simulated);
            output.SetVertices(simulated);
            meshNormals.Apply(output, simulated); // the library's, into arrays kept between frames
            output.RecalculateBounds();
        }

        void OnDestroy()
        {
            if (subscribed != null)
                subscribed.BeforeStep -= FollowSkin;
            if (Cloth != null && !Cloth.World.IsDisposed)
                foreach (int id in zoneIds)
                    Cloth.World.RemoveWindZone(id);
            if (Cloth != null)
                Cloth.Dispose();
            if (skin != null)
                skin.forceRenderingOff = false;
            if (display != null)
                Destroy(display);
            if (output != null)
                Destroy(output);
            if (baked != null)
                Destroy(baked);
        }

#if UNITY_EDITOR
        // Selected: the cloth's edges and particle spheres at Radius, on the bind pose of
        // the shared mesh in edit mode, live while playing.
        Vector3[] gizmoVertices = new Vector3[0];

        void OnDrawGizmosSelected()
        {
            int[] triangles;
            if (Cloth != null && !Cloth.World.IsDisposed)
            {
                if (gizmoVertices.Length != Cloth.MeshVertexCount)
                    gizmoVertices = new Vector3[Cloth.MeshVertexCount];
                Cloth.ReadVertices(gizmoVertices);
                triangles = Cloth.MeshTriangles;
            }
            else
            {
                var renderer = GetComponent<SkinnedMeshRenderer>();
                if (renderer == null || renderer.sharedMesh == null)
                    return;
                Vector3[] local = renderer.sharedMesh.vertices;
                if (gizmoVertices.Length != local.Length)
                    gizmoVertices = new Vector3[local.Length];
                for (int i = 0; i < local.Length; i++)
                    gizmoVertices[i] = transform.TransformPoint(local[i]);
                triangles = renderer.sharedMesh.triangles;
            }
            SinewGizmos.DrawMesh(gizmoVertices, triangles, radius);
        }
#endif
    }
}

// Granular material poured by a grain emitter (Sinew.GrainEmitter over
// sinew_world_add_grain_emitter) in a SinewWorldBehaviour's world: the grains' material
// (static and kinetic friction, rolling resistance, cohesion in Pa), their radius,
// density, budget and collision layers are fields; the emitter follows this transform
// (a nozzle pours along its blue +z axis, a point is a nozzle of radius 0, a box
// scatters grains inside its half extents); the emitted grains are drawn as instanced
// spheres (Graphics.DrawMeshInstanced, 1023 per call) in one colour.
//
// The grains' settings and material are read when the emitter is created (Rebuild()
// pours again from a new budget; the grains already poured stay, ordinary particles);
// the stream (this transform, radius, speed, rate) is applied in place before each
// step. Positions are drawn interpolated with the world's InterpolationAlpha. Nothing
// native is serialized: the emitter is created in Start and removed in OnDestroy (its
// grains stay in the world, like any particle the world holds).

using System;
using Sinew.Native;
using UnityEngine;
using UnityEngine.Rendering;

namespace Sinew.Unity
{
    [DisallowMultipleComponent]
    [AddComponentMenu("Sinew/Sinew Granular")]
    public sealed class SinewGranular : MonoBehaviour
    {
        [Tooltip("The world to live in; empty = the first SinewWorldBehaviour in the scene.")]
        public SinewWorldBehaviour world;

        [Header("Material (read when the emitter is created; Rebuild applies it)")]
        [Tooltip("Coulomb coefficient below which a contact between grains sticks (μ_s): a pile stands up to about atan μ_s. In [0, 100].")]
        [Min(0f)]
        public float staticFriction = 0.6f;
        [Tooltip("Coulomb coefficient of sliding between grains (μ_k, at most μ_s). In [0, 100].")]
        [Min(0f)]
        public float kineticFriction = 0.5f;
        [Tooltip("Rolling resistance of round grains (μ_r): caps both coefficients, so round grains roll where rolling is cheaper than sliding. 0 = the grains do not roll. In [0, 100].")]
        [Min(0f)]
        public float rollingFriction = 0f;
        [Tooltip("Tensile strength of the bulk material (wet sand 100–1000 Pa, snow 1–100 kPa); 0 = dry. In [0, 1e7] Pa.")]
        [Min(0f)]
        public float cohesion = 0f;

        [Header("Grains (read when the emitter is created)")]
        [Tooltip("Grain radius (its contact radius). In (0, 10] m.")]
        [Min(0f)]
        public float grainRadius = 0.02f;
        [Tooltip("Density of the grain's material (quartz sand 2650): a grain weighs ρ 4/3 π r³. In (0, 100000] kg/m³.")]
        [Min(0f)]
        public float grainDensity = 2650f;
        [Tooltip("Grains the emitter makes in all (particles reserved up front; it stops when they are used).")]
        [Min(1)]
        public int budget = 2000;
        [Tooltip("Collision layers the grains are on (bits).")]
        public int layers = 1;
        [Tooltip("Collision layers the grains collide with (bits; -1 = all).")]
        public int mask = -1;

        [Header("Emitter (follows this transform; edited in place)")]
        [Tooltip("Nozzle: a disc facing this object's +z (blue axis); radius 0 = a point. Box: grains inside the box.")]
        public FluidEmitterKind emitter = FluidEmitterKind.Nozzle;
        [Tooltip("Nozzle: the radius of the disc the grains leave, on a lattice of 2.2 grain radii. In [0, 1e9] m.")]
        [Min(0f)]
        public float nozzleRadius = 0.1f;
        [Tooltip("Box: the box's half extents, in this object's frame.")]
        public Vector3 boxHalfExtents = new Vector3(0.1f, 0.1f, 0.1f);
        [Tooltip("Speed along this object's +z given to each grain. In [0, 1000] m/s.")]
        [Min(0f)]
        public float speed = 1f;
        [Tooltip("Grains per second; 0 pauses the pour. A nozzle passes at most speed × its lattice points / 2.2 r per second; a higher rate is capped there.")]
        [Min(0f)]
        public float rate = 200f;

        [Header("Rendering")]
        [Tooltip("Mesh drawn per grain; empty = Unity's Sphere primitive (diameter 1).")]
        public Mesh grainMesh;
        [Tooltip("Material with GPU instancing enabled. Empty = the package's Sinew/Fluid Particle shader (built-in render pipeline).")]
        public Material grainMaterial;
        [Tooltip("Colour of the grains.")]
        public Color color = new Color(0.85f, 0.7f, 0.45f, 1f);
        [Tooltip("Per-instance colour property of the material's shader (_Color in the built-in pipeline, _BaseColor in URP and HDRP).")]
        public string colorProperty = "_Color";
        [Tooltip("Grains cast shadows.")]
        public bool castShadows = true;

        /// <summary>The grain emitter (null before Start).</summary>
        public GrainEmitter Emitter { get; private set; }

        /// <summary>Grains drawn this frame.</summary>
        public int DrawnCount { get; private set; }

        /// <summary>The last edit the library refused (empty = none).</summary>
        public string LastError { get; private set; }

        SinewWorldBehaviour subscribed;
        EmitterSettings appliedStream;
        Vector3[] positions = new Vector3[0];
        Matrix4x4[][] matrices = new Matrix4x4[0][];
        Vector4[] colors = new Vector4[0];
        MaterialPropertyBlock block;
        Mesh drawnMesh;
        Material drawnMaterial;

        /// <summary>The material fields as the library's settings.</summary>
        public ParticleMaterialSettings Material()
        {
            ParticleMaterialSettings m = ParticleMaterialSettings.Default;
            m.StaticFriction = staticFriction;
            m.DynamicFriction = kineticFriction;
            m.RollingFriction = rollingFriction;
            m.Cohesion = cohesion;
            return m;
        }

        /// <summary>The grain fields as the library's settings.</summary>
        public GrainEmitterSettings Grains()
        {
            GrainEmitterSettings g = GrainEmitterSettings.Default;
            g.Budget = budget;
            g.GrainRadius = grainRadius;
            g.GrainDensity = grainDensity;
            g.Layers = unchecked((uint)layers);
            g.Mask = unchecked((uint)mask);
            return g;
        }

        /// <summary>The emitter fields, at this transform.</summary>
        public EmitterSettings Stream()
        {
            EmitterSettings s = EmitterSettings.Default;
            s.Shape = emitter == FluidEmitterKind.Box ? SinewEmitterShape.Box : SinewEmitterShape.Nozzle;
            s.Radius = nozzleRadius;
            s.HalfExtents = boxHalfExtents.ToSinew();
            s.Position = transform.position.ToSinew();
            s.Rotation = transform.rotation.ToSinew();
            s.Speed = emitter == FluidEmitterKind.None ? 0f : speed;
            s.Rate = emitter == FluidEmitterKind.None ? 0f : rate;
            return s;
        }

        void OnValidate()
        {
            // Clamps only (the library's ranges): no native state in edit mode.
            staticFriction = SinewAuthoring.Clamp(staticFriction, 0f, SinewNative.SINEW_MAX_FRICTION);
            kineticFriction = SinewAuthoring.Clamp(kineticFriction, 0f, staticFriction);
            rollingFriction = SinewAuthoring.Clamp(rollingFriction, 0f, SinewNative.SINEW_MAX_FRICTION);
            cohesion = SinewAuthoring.Clamp(cohesion, 0f, SinewNative.SINEW_MAX_COHESION);
            grainRadius = SinewAuthoring.Clamp(grainRadius, SinewAuthoring.Above(0f), SinewNative.SINEW_MAX_FLUID_SPACING);
            grainDensity = SinewAuthoring.Clamp(grainDensity, SinewAuthoring.Above(0f), SinewNative.SINEW_MAX_REST_DENSITY);
            budget = SinewAuthoring.Clamp(budget, 1, (int)SinewNative.SINEW_MAX_GRAIN_BUDGET);
            nozzleRadius = SinewAuthoring.Clamp(nozzleRadius, 0f, SinewNative.SINEW_MAX_NOZZLE_SPACINGS * 2.2f * grainRadius);
            speed = SinewAuthoring.Clamp(speed, 0f, SinewNative.SINEW_MAX_EMIT_SPEED);
            rate = SinewAuthoring.Clamp(rate, 0f, SinewNative.SINEW_MAX_EMIT_RATE);
        }

        void Start()
        {
            if (world == null)
                world = SinewWorldBehaviour.FindInScene();
            if (world == null)
            {
                Debug.LogError("SinewGranular needs a SinewWorldBehaviour", this);
                enabled = false;
                return;
            }
            PrepareDrawing();
            Build();
            subscribed = world;
            subscribed.BeforeStep += Sync;
        }

        /// <summary>Removes the emitter and pours again from a new budget with the fields
        /// (the grains already poured stay).</summary>
        [ContextMenu("Rebuild")]
        public void Rebuild()
        {
            if (Emitter == null || world == null)
                return;
            Release();
            Build();
        }

        void Build()
        {
            try
            {
                appliedStream = Stream();
                Emitter = world.World.AddGrainEmitter(Grains(), appliedStream, Material());
                LastError = "";
            }
            catch (SinewException e)
            {
                Debug.LogError("SinewGranular: " + e.Message, this);
                enabled = false;
                return;
            }
            positions = new Vector3[budget];
            int batches = SinewFluidAuthoring.Batches(budget);
            matrices = new Matrix4x4[batches][];
            for (int b = 0; b < batches; b++)
                matrices[b] = new Matrix4x4[SinewFluidAuthoring.BatchSize];
            colors = new Vector4[SinewFluidAuthoring.BatchSize];
            block = new MaterialPropertyBlock();
        }

        // BeforeStep: the stream at this transform, when it changed.
        void Sync()
        {
            if (Emitter == null || Emitter.World.IsDisposed)
                return;
            EmitterSettings s = Stream();
            if (Same(s, appliedStream))
                return;
            try
            {
                Emitter.Set(s);
                appliedStream = s;
                LastError = "";
            }
            catch (SinewException e)
            {
                if (LastError != e.Message)
                    Debug.LogError("SinewGranular: " + e.Message, this);
                LastError = e.Message;
            }
        }

        static bool Same(EmitterSettings a, EmitterSettings b)
        {
            return a.Shape == b.Shape && a.Radius == b.Radius && a.Speed == b.Speed && a.Rate == b.Rate
                && a.HalfExtents.x == b.HalfExtents.x && a.HalfExtents.y == b.HalfExtents.y && a.HalfExtents.z == b.HalfExtents.z
                && a.Position.x == b.Position.x && a.Position.y == b.Position.y && a.Position.z == b.Position.z
                && a.Rotation.x == b.Rotation.x && a.Rotation.y == b.Rotation.y && a.Rotation.z == b.Rotation.z
                && a.Rotation.w == b.Rotation.w;
        }

        void PrepareDrawing()
        {
            drawnMesh = grainMesh;
            if (drawnMesh == null)
            {
                // Unity's Sphere primitive: take its mesh, drop the object.
                GameObject sphere = GameObject.CreatePrimitive(PrimitiveType.Sphere);
                drawnMesh = sphere.GetComponent<MeshFilter>().sharedMesh;
                Destroy(sphere);
            }
            drawnMaterial = grainMaterial;
            if (drawnMaterial == null)
            {
                Shader shader = Shader.Find("Sinew/Fluid Particle");
                if (shader == null)
                    shader = Shader.Find("Standard");
                drawnMaterial = new Material(shader);
            }
            drawnMaterial.enableInstancing = true;
        }

        unsafe void LateUpdate()
        {
            DrawnCount = 0;
            if (Emitter == null || Emitter.World.IsDisposed || drawnMesh == null || drawnMaterial == null)
                return;
            GrainEmitterStats s = Emitter.Stats;
            int n = Math.Min(unchecked((int)s.Emitted), positions.Length);
            if (n == 0)
                return;
            fixed (Vector3* p = positions)
                Emitter.World.ReadInterpolatedPositions(unchecked((int)s.First), SinewRendering.Alpha(world), n, p, sizeof(Vector3));
            float d = 2f * grainRadius;
            var c = new Vector4(color.r, color.g, color.b, color.a);
            for (int k = 0; k < colors.Length; k++)
                colors[k] = c;
            block.SetVectorArray(Shader.PropertyToID(string.IsNullOrEmpty(colorProperty) ? "_Color" : colorProperty), colors);
            ShadowCastingMode shadows = castShadows ? ShadowCastingMode.On : ShadowCastingMode.Off;
            int batches = SinewFluidAuthoring.Batches(n);
            for (int b = 0; b < batches; b++)
            {
                int start = b * SinewFluidAuthoring.BatchSize;
                int count = Math.Min(SinewFluidAuthoring.BatchSize, n - start);
                Matrix4x4[] m = matrices[b];
                for (int k = 0; k < count; k++)
                {
                    Vector3 x = positions[start + k];
                    Matrix4x4 t = Matrix4x4.identity;
                    t.m00 = d;
                    t.m11 = d;
                    t.m22 = d;
                    t.m03 = x.x;
                    t.m13 = x.y;
                    t.m23 = x.z;
                    m[k] = t;
                }
                Graphics.DrawMeshInstanced(drawnMesh, 0, drawnMaterial, m, count, block, shadows, true, gameObject.layer);
            }
            DrawnCount = n;
        }

        void Release()
        {
            if (Emitter != null && !Emitter.World.IsDisposed)
                Emitter.Remove(); // its grains stay in the world
            Emitter = null;
        }

        void OnDestroy()
        {
            if (subscribed != null)
                subscribed.BeforeStep -= Sync;
            subscribed = null;
            Release();
        }

#if UNITY_EDITOR
        // The emitter: a disc and its direction, or a box.
        void OnDrawGizmos()
        {
            Gizmos.color = SinewGizmos.Particle;
            Transform t = transform;
            Vector3 c = t.position;
            if (emitter == FluidEmitterKind.Nozzle)
            {
                Vector3 x = t.rotation * new Vector3(nozzleRadius, 0f, 0f), y = t.rotation * new Vector3(0f, nozzleRadius, 0f);
                const int Sides = 24;
                for (int i = 0; i < Sides; i++)
                {
                    float a0 = 2f * Mathf.PI * i / Sides, a1 = 2f * Mathf.PI * (i + 1) / Sides;
                    Gizmos.DrawLine(c + x * Mathf.Cos(a0) + y * Mathf.Sin(a0), c + x * Mathf.Cos(a1) + y * Mathf.Sin(a1));
                }
                Gizmos.DrawWireSphere(c, grainRadius);
                Gizmos.DrawLine(c, c + t.rotation * new Vector3(0f, 0f, Math.Max(speed, 0.1f) * 0.25f));
            }
            else if (emitter == FluidEmitterKind.Box)
            {
                var corners = new Vector3[8];
                Vector3 h = boxHalfExtents;
                for (int k = 0; k < 8; k++)
                    corners[k] = c + t.rotation * new Vector3((k & 1) != 0 ? h.x : -h.x, (k & 2) != 0 ? h.y : -h.y, (k & 4) != 0 ? h.z : -h.z);
                for (int k = 0; k < 8; k++)
                    for (int bit = 1; bit < 8; bit <<= 1)
                        if ((k & bit) == 0)
                            Gizmos.DrawLine(corners[k], corners[k | bit]);
            }
        }
#endif
    }
}

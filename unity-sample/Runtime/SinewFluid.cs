// A Position Based Fluid (Sinew.Fluid over sinew_world_add_fluid) in a SinewWorldBehaviour's
// world: its settings are fields (SI units in the tooltips), an emitter follows this
// transform (a nozzle pours along its blue +z axis; a box rains inside its half extents),
// kill volumes come from child BoxColliders and a list, and the live particles are drawn
// instanced (Graphics.DrawMeshInstanced, 1023 per call) coloured by speed: as ellipsoids
// (the default: a unit sphere per particle whose instance matrix is the particle's
// ellipsoid from Fluid.ReadAnisotropy, Yu & Turk 2013, in the package's transparent
// Sinew/Fluid Water shader) or as spheres. Diffuse particles (spray, foam, bubbles;
// Fluid.SetDiffuse, off by default) are drawn as camera-facing quads (Sinew/Fluid
// Diffuse). Every buffer is sized when the fluid or the diffuse capacity is set: a
// frame allocates nothing.
//
// Capacity and Spacing are read when the fluid is created (Rebuild() creates it again,
// empty); every other setting, the emitter and the kill volumes are applied in place
// before the next step (SinewFluidAuthoring: nothing else builds or edits the fluid).
// Positions are drawn interpolated with the world's InterpolationAlpha, like the ropes
// and cloths. Solid bodies float in it through two-way coupling, on by default for
// particles with a radius; SinewFluidCoupling switches it per body and reads the force.
// Nothing native is serialized: the fluid is created in Start and removed in OnDestroy.

using System;
using Sinew.Native;
using UnityEngine;
using UnityEngine.Rendering;

namespace Sinew.Unity
{
    /// <summary>The shape of an entry of <see cref="SinewFluid.killVolumes"/>.</summary>
    public enum SinewKillShape
    {
        /// <summary>An oriented box: centre, rotation, half extents.</summary>
        Box = 0,
        /// <summary>A ball: centre, radius.</summary>
        Sphere = 1,
        /// <summary>Everything on the side of the plane through the centre that the normal
        /// points away from (a floor particles fall through).</summary>
        Below = 2,
    }

    /// <summary>A kill volume of a <see cref="SinewFluid"/>, in world space.</summary>
    [Serializable]
    public struct SinewKillVolumeEntry
    {
        [Tooltip("Box, sphere, or the half-space below a plane.")]
        public SinewKillShape shape;
        [Tooltip("Box rotation, degrees (world).")]
        public Vector3 eulerAngles;
        // BEGIN GENERATED KillVolumeDesc fields
        [Tooltip("The box's or ball's centre, or a point of the half-space's plane, in the world. Each component in [-1e9, 1e9] m.")]
        public Vector3 center;
        [Tooltip("Box: The box's half extents, along its rotated axes. Each component in [0, 1e9] m.")]
        public Vector3 halfExtents;
        [Tooltip("Sphere: The ball's radius. In [0, 1e9] m.")]
        [Min(0.0f)]
        public float radius;
        [Tooltip("HalfSpace: The half-space's plane normal (length in [0.5, 2], normalised on input): the particles on the side it points away from are removed.")]
        public Vector3 normal;
        // END GENERATED KillVolumeDesc fields
    }

    [DisallowMultipleComponent]
    [AddComponentMenu("Sinew/Sinew Fluid")]
    public sealed class SinewFluid : MonoBehaviour
    {
        [Tooltip("The world to live in; empty = the first SinewWorldBehaviour in the scene.")]
        public SinewWorldBehaviour world;

        // BEGIN GENERATED FluidDesc fields
        [Header("Particles (read when the fluid is created; Rebuild applies them)")]
        [Tooltip("Particle spacing s: the rest distance between particles. Sets the particle mass ρ₀·s³ (ρ₀·s² in a planar world) and volume s³ (s²). Fixed once the fluid is added. In [0.001, 10] m.")]
        [Range(SinewNative.SINEW_MIN_FLUID_SPACING, SinewNative.SINEW_MAX_FLUID_SPACING)]
        public float spacing = 0.05f;
        [Tooltip("Particles reserved up front: emission never allocates; a full fluid refuses emission or recycles its oldest particle. Fixed once the fluid is added. In 1..=4194304 particles.")]
        [Min(1)]
        public int capacity = 4096;
        [Header("Fluid (edited in place)")]
        [Tooltip("Rest density ρ₀ (per unit thickness in a planar world, in kg/m²); water is 1000. Bodies lighter than this float. In (0, 100000] kg/m³.")]
        [Min(0.0f)]
        public float restDensity = 1000.0f;
        [Tooltip("Smoothing radius h; a value other than 0 must also lie in [spacing, MAX_SMOOTHING_RATIO·spacing]. In [0, 40] m; 0 = 2·spacing.")]
        [Range(0.0f, 40.0f)]
        public float smoothingRadius = 0.0f;
        [Tooltip("Constraint relaxation ε, the CFM term of the density constraint (whose gradient carries the particle volume, so ε has units of 1/m²); it softens the constraint. 0.04 / spacing² is 100 m⁻² at spacing 0.02 m. In [0, 1e12] m⁻²; 0 = 0.04 / spacing².")]
        [Min(0.0f)]
        public float relaxation = 0.0f;
        [Tooltip("Artificial pressure s_corr = −k·(W(r)/W(Δq))ⁿ: k, dimensionless. Keeps particles from clumping at the surface. In [0, 1000].")]
        [Min(0.0f)]
        public float artificialPressure = 0.1f;
        [Tooltip("Artificial pressure exponent n. In 1..=8.")]
        [Range(1, 8)]
        public int artificialPressureExponent = 4;
        [Tooltip("Artificial pressure Δq, as a fraction of the smoothing radius h. In [0, 0.9].")]
        [Range(0.0f, 0.9f)]
        public float artificialPressureDistance = 0.2f;
        [Tooltip("XSPH viscosity c, dimensionless, applied once per substep (0.01 water; larger is thicker, like honey). In [0, 1].")]
        [Range(0.0f, 1.0f)]
        public float viscosity = 0.01f;
        [Tooltip("Vorticity confinement ε_vort, dimensionless (scaled by the particle volume and h internally; 0 = off): puts back the swirl that damping removes. In [0, 1000].")]
        [Min(0.0f)]
        public float vorticity = 0.0f;
        [Tooltip("Cohesion / surface tension γ (Akinci et al. 2013), dimensionless (0 = off): 1 lets a neighbour at the kernel's peak accelerate a particle at spacing × 3600 s⁻² (a spacing per 60 Hz frame per frame), for any substep count. In [0, 1000].")]
        [Min(0.0f)]
        public float cohesion = 0.0f;
        [Tooltip("Adhesion β to solid particles (Akinci et al. 2013), dimensionless (0 = off): scaled as cohesion, weighted by the solid's volume over the particle's; water that wets the bodies it touches. In [0, 1000].")]
        [Min(0.0f)]
        public float adhesion = 0.0f;
        [Tooltip("Radius with which the fluid's particles meet colliders; a value of 0 or more must also be at most the spacing. 0 projects the particle centres onto collider surfaces. In [0, 10] m; negative = spacing / 2.")]
        public float collisionRadius = -1.0f;
        [Tooltip("Lifetime of an emitted particle (0 = forever). In [0, 1000000] s.")]
        [Min(0.0f)]
        public float lifetime = 0.0f;
        [Tooltip("When an emitter needs a slot and the fluid is full: true removes the oldest particle, false skips the emission (counted in the stats' `refused`).")]
        public bool recycleOldest = false;
        [Tooltip("The solid particles (with a radius) whose collision layers meet this mask take part in the fluid's density (two-way coupling: buoyancy and drag); all bits set = every layer.")]
        public int couplingMask = -1;
        [Tooltip("The density solves per second of simulated time, at least: a substep of h seconds runs ⌈rate·h / iterations⌉ Jacobi solves per iteration (at most 16), so long substeps keep the stiffness of short ones (one solve carries the floor's push only about two rows up the water; a pool 12 rows deep at 1 substep of 1/60 s and one solve boiled over). 480 is one solve per substep at the world's default of 8 substeps of 1/60 s. 0: one solve per iteration, whatever the substep (Macklin & Müller's scheme as published). With several fluids the largest rate counts. In [0, 1000000] Hz.")]
        [Min(0.0f)]
        public float solveRate = 480.0f;
        // END GENERATED FluidDesc fields

        [Header("Emitter (follows this transform; edited in place)")]
        [Tooltip("None: emit from a script (Fluid.Emit). Nozzle: a disc facing this object's +z (blue axis). Box: pseudo-random points inside the box.")]
        public FluidEmitterKind emitter = FluidEmitterKind.Nozzle;
        // BEGIN GENERATED EmitterDesc fields
        [Tooltip("Nozzle: The radius of the disc the particles leave, centred on the emitter and facing its local +z axis, on a lattice of the fluid's spacing (at most MAX_NOZZLE_SPACINGS spacings). In [0, 1e9] m.")]
        [Min(0.0f)]
        public float nozzleRadius = 0.1f;
        [Tooltip("Box: The box's half extents, in the emitter's frame: particles appear at deterministic pseudo-random points inside. Each component in [0, 1e9] m.")]
        public Vector3 boxHalfExtents = new Vector3(0.1f, 0.1f, 0.1f);
        [Tooltip("Speed along the emitter's local +z given to each new particle. In [0, 1000] m/s.")]
        [Min(0.0f)]
        public float speed = 2.0f;
        [Tooltip("Particles per second; 0 pauses the emitter. A nozzle passes at most speed × its lattice points / spacing per second (520/s for the default 10 cm nozzle at 2 m/s and 5 cm spacing); a higher rate is capped there. In [0, 1e7] particles/s.")]
        [Min(0.0f)]
        public float rate = 500.0f;
        // END GENERATED EmitterDesc fields

        [Header("Kill volumes (edited in place)")]
        [Tooltip("Every BoxCollider on a child object (not this one) removes the particles inside it. Leave SinewCollider off those objects, or particles meet the box's surface instead.")]
        public bool killInChildBoxColliders = true;
        [Tooltip("More kill volumes, world space.")]
        public SinewKillVolumeEntry[] killVolumes = new SinewKillVolumeEntry[0];

        [Header("Rendering")]
        [Tooltip("Ellipsoids: each particle drawn as the ellipsoid of its neighbourhood (Yu & Turk 2013), flattened along the surface and stretched along sheets and streams, so the water reads as one body. Spheres: one sphere of Spacing x Particle Scale per particle (cheaper: no anisotropy readback).")]
        public FluidDrawMode drawMode = FluidDrawMode.Ellipsoids;
        [Tooltip("Mesh drawn per particle, a sphere centred at its origin; empty = Unity's Sphere primitive (diameter 1).")]
        public Mesh particleMesh;
        [Tooltip("Radius of Particle Mesh (0.5 for Unity's Sphere primitive).")]
        [Min(0.0001f)]
        public float particleMeshRadius = 0.5f;
        [Tooltip("Material with GPU instancing enabled whose shader declares Color Property as an instanced property. Empty = the package's Sinew/Fluid Water shader for ellipsoids (transparent, Fresnel rim), Sinew/Fluid Particle for spheres (built-in render pipeline).")]
        public Material particleMaterial;
        [Tooltip("Spheres: diameter as a multiple of Spacing.")]
        [Min(0f)]
        public float particleScale = 1f;
        [Tooltip("Ellipsoids: the radius inside the water as a multiple of half the Spacing (k_s); a little over 1 closes the gaps between neighbours.")]
        [Range(0.1f, SinewNative.SINEW_MAX_ELLIPSOID_SCALE)]
        public float ellipsoidScale = 1.25f;
        [Tooltip("Ellipsoids: Laplacian smoothing of the centres, 0 (at the particle) to 1 (at its neighbours' weighted mean); 0.9 smooths the surface.")]
        [Range(0f, 1f)]
        public float ellipsoidSmoothing = 0.9f;
        [Tooltip("Ellipsoids: the longest axis is at most this many times the shortest (k_r).")]
        [Range(1f, SinewNative.SINEW_MAX_ELLIPSOID_RATIO)]
        public float ellipsoidMaxRatio = 4f;
        [Tooltip("Ellipsoids: radius of a particle with few neighbours (a drop), as a fraction of the radius inside the water (k_n).")]
        [Range(0f, SinewNative.SINEW_MAX_ELLIPSOID_SCALE)]
        public float isolatedScale = 0.5f;
        [Tooltip("Colour of particles at rest.")]
        public Color slowColor = new Color(0.1f, 0.35f, 0.85f, 1f);
        [Tooltip("Colour of particles at Fast Speed and above.")]
        public Color fastColor = new Color(0.85f, 0.95f, 1f, 1f);
        [Tooltip("Speed drawn in Fast Color, m/s.")]
        [Min(0.001f)]
        public float fastSpeed = 3f;
        [Tooltip("Per-instance colour property of the material's shader (_Color in the built-in pipeline, _BaseColor in URP and HDRP; declared as an instanced property).")]
        public string colorProperty = "_Color";
        [Tooltip("Particles cast shadows.")]
        public bool castShadows = true;

        [Header("Diffuse particles: spray, foam, bubbles (edited in place)")]
        [Tooltip("Spawns spray, foam and bubbles where fast water traps air or breaks at a crest (Ihmsen et al. 2012), drawn as camera-facing quads. Render state only: the water moves the same without them.")]
        public bool diffuse = false;
        [Tooltip("Diffuse particles reserved (a full set spawns no more). A new value starts them afresh.")]
        [Min(1)]
        public int diffuseCapacity = 4096;
        [Tooltip("Seconds each diffuse particle lives.")]
        [Range(0.01f, 60f)]
        public float diffuseLifetime = 2f;
        [Tooltip("Diffuse particles per fluid particle per second at full potential (trapped air and wave crests each).")]
        [Min(0f)]
        public float diffuseRate = 50f;
        [Tooltip("Water slower than this spawns none, m/s (kinetic energy ½v²; full at ten times it). The library's default is 3.16 m/s; a small tank wants about 1.5.")]
        [Min(0f)]
        public float diffuseMinSpeed = 3.16f;
        [Tooltip("Quad drawn per diffuse particle, facing the camera; empty = Unity's Quad primitive.")]
        public Mesh diffuseMesh;
        [Tooltip("Instanced material for the diffuse particles (declares Color Property instanced); empty = the package's Sinew/Fluid Diffuse shader (camera-facing soft dots).")]
        public Material diffuseMaterial;
        [Tooltip("Diffuse particle size as a multiple of Spacing.")]
        [Min(0f)]
        public float diffuseSize = 0.35f;
        [Tooltip("Colour of the diffuse particles (their opacity follows their kind and fades over their last 0.3 s).")]
        public Color diffuseColor = new Color(0.95f, 0.98f, 1f, 1f);

        /// <summary>The engine-neutral fluid (null before Start).</summary>
        public Fluid Fluid { get; private set; }

        /// <summary>The settings the live fluid was created with and edited to.</summary>
        public FluidSettings Applied { get { return applied; } }

        /// <summary>The emitter (null when <see cref="emitter"/> is None or before Start).</summary>
        public Emitter Emitter { get { return liveEmitter; } }

        /// <summary>Live particles drawn this frame.</summary>
        public int DrawnCount { get; private set; }

        /// <summary>Diffuse particles drawn this frame.</summary>
        public int DrawnDiffuseCount { get; private set; }

        /// <summary>The last edit the library refused (empty = none).</summary>
        public string LastError { get; private set; }

        /// <summary>Why the fields differ from the live fluid in a way only
        /// <see cref="Rebuild"/> applies (Capacity or Spacing; empty = none).</summary>
        public string PendingRebuild
        {
            get { return Fluid == null ? "" : SinewFluidAuthoring.FluidRebuildReason(applied, Settings()); }
        }

        FluidSettings applied;
        Emitter liveEmitter;
        FluidEmitterOptions appliedEmitter;
        KillVolume[] liveVolumes = new KillVolume[0];
        KillVolumeSettings[] appliedVolumes = new KillVolumeSettings[0];
        int appliedVolumeCount;
        KillVolumeSettings[] wantedVolumes = new KillVolumeSettings[0];
        BoxCollider[] killBoxes = new BoxCollider[0];
        SinewWorldBehaviour subscribed;

        // Drawing: positions and velocities read in place (Vector3 has SinewVec3's layout),
        // then one matrix and one colour per instance, 1023 per batch.
        // Ellipsoids read in place as well (48 bytes each), diffuse particles (32 bytes),
        // each with its own batches.
        Vector3[] positions = new Vector3[0];
        Vector3[] velocities = new Vector3[0];
        SinewFluidEllipsoid[] ellipsoids = new SinewFluidEllipsoid[0];
        Matrix4x4[][] matrices = new Matrix4x4[0][];
        Vector4[][] colors = new Vector4[0][];
        MaterialPropertyBlock[] blocks = new MaterialPropertyBlock[0];
        SinewDiffuseParticle[] diffuseParticles = new SinewDiffuseParticle[0];
        Matrix4x4[][] diffuseMatrices = new Matrix4x4[0][];
        Vector4[][] diffuseColors = new Vector4[0][];
        MaterialPropertyBlock[] diffuseBlocks = new MaterialPropertyBlock[0];
        DiffuseSettings appliedDiffuse;
        Mesh drawnMesh;
        Material drawnMaterial;
        FluidDrawMode drawnMode;
        bool ownsMaterial;
        Mesh drawnDiffuseMesh;
        Material drawnDiffuseMaterial;
        int colorId;

        /// <summary>The fields as the library's settings.</summary>
        public FluidSettings Settings()
        {
            FluidSettings s = FluidSettings.Default;
            // BEGIN GENERATED FluidDesc settings
            s.RestDensity = restDensity;
            s.Spacing = spacing;
            s.SmoothingRadius = smoothingRadius;
            s.Capacity = capacity;
            s.Relaxation = relaxation;
            s.ScorrK = artificialPressure;
            s.ScorrN = artificialPressureExponent;
            s.ScorrDq = artificialPressureDistance;
            s.Viscosity = viscosity;
            s.Vorticity = vorticity;
            s.Cohesion = cohesion;
            s.Adhesion = adhesion;
            s.CollisionRadius = collisionRadius;
            s.Lifetime = lifetime;
            s.RecycleOldest = recycleOldest;
            s.CouplingMask = unchecked((uint)couplingMask);
            s.SolveRate = solveRate;
            // END GENERATED FluidDesc settings
            return s;
        }

        /// <summary>The emitter fields, at this transform.</summary>
        public FluidEmitterOptions EmitterOptions()
        {
            return new FluidEmitterOptions
            {
                Kind = emitter,
                NozzleRadius = nozzleRadius,
                BoxHalfExtents = boxHalfExtents.ToSinew(),
                Position = transform.position.ToSinew(),
                Rotation = transform.rotation.ToSinew(),
                Speed = speed,
                Rate = rate,
            };
        }

        void OnValidate()
        {
            // Clamps only: no native state in edit mode.
            // BEGIN GENERATED FluidDesc clamps
            restDensity = SinewAuthoring.Clamp(restDensity, SinewAuthoring.Above(0.0f), SinewNative.SINEW_MAX_REST_DENSITY);
            spacing = SinewAuthoring.Clamp(spacing, SinewNative.SINEW_MIN_FLUID_SPACING, SinewNative.SINEW_MAX_FLUID_SPACING);
            smoothingRadius = SinewAuthoring.Clamp(smoothingRadius, 0.0f, 40.0f);
            capacity = SinewAuthoring.Clamp(capacity, 1, (int)SinewNative.SINEW_MAX_FLUID_CAPACITY);
            relaxation = SinewAuthoring.Clamp(relaxation, 0.0f, SinewNative.SINEW_MAX_FLUID_RELAXATION);
            artificialPressure = SinewAuthoring.Clamp(artificialPressure, 0.0f, SinewNative.SINEW_MAX_FLUID_COEFFICIENT);
            artificialPressureExponent = SinewAuthoring.Clamp(artificialPressureExponent, 1, 8);
            artificialPressureDistance = SinewAuthoring.Clamp(artificialPressureDistance, 0.0f, 0.9f);
            viscosity = SinewAuthoring.Clamp(viscosity, 0.0f, 1.0f);
            vorticity = SinewAuthoring.Clamp(vorticity, 0.0f, SinewNative.SINEW_MAX_FLUID_COEFFICIENT);
            cohesion = SinewAuthoring.Clamp(cohesion, 0.0f, SinewNative.SINEW_MAX_FLUID_COEFFICIENT);
            adhesion = SinewAuthoring.Clamp(adhesion, 0.0f, SinewNative.SINEW_MAX_FLUID_COEFFICIENT);
            if (collisionRadius >= 0f)
                collisionRadius = SinewAuthoring.Clamp(collisionRadius, 0.0f, SinewNative.SINEW_MAX_FLUID_SPACING);
            lifetime = SinewAuthoring.Clamp(lifetime, 0.0f, SinewNative.SINEW_MAX_FLUID_LIFETIME);
            solveRate = SinewAuthoring.Clamp(solveRate, 0.0f, SinewNative.SINEW_MAX_FLUID_SOLVE_RATE);
            // END GENERATED FluidDesc clamps
            // The ranges relative to the spacing (FluidDesc::check_relations).
            if (smoothingRadius > 0f)
                smoothingRadius = SinewAuthoring.Clamp(smoothingRadius, spacing, SinewNative.SINEW_MAX_SMOOTHING_RATIO * spacing);
            if (collisionRadius >= 0f)
                collisionRadius = SinewAuthoring.Clamp(collisionRadius, 0f, spacing);
            // BEGIN GENERATED EmitterDesc clamps
            nozzleRadius = SinewAuthoring.Clamp(nozzleRadius, 0.0f, SinewNative.SINEW_MAX_COORDINATE);
            speed = SinewAuthoring.Clamp(speed, 0.0f, SinewNative.SINEW_MAX_EMIT_SPEED);
            rate = SinewAuthoring.Clamp(rate, 0.0f, SinewNative.SINEW_MAX_EMIT_RATE);
            // END GENERATED EmitterDesc clamps
            particleScale = SinewAuthoring.Clamp(particleScale, 0f, 100f);
            particleMeshRadius = SinewAuthoring.Clamp(particleMeshRadius, 0.0001f, float.MaxValue);
            fastSpeed = SinewAuthoring.Clamp(fastSpeed, 0.001f, float.MaxValue);
            // The anisotropy readback's ranges (AnisotropyDesc).
            ellipsoidScale = SinewAuthoring.Clamp(ellipsoidScale, float.Epsilon, SinewNative.SINEW_MAX_ELLIPSOID_SCALE);
            ellipsoidSmoothing = SinewAuthoring.Clamp(ellipsoidSmoothing, 0f, 1f);
            ellipsoidMaxRatio = SinewAuthoring.Clamp(ellipsoidMaxRatio, 1f, SinewNative.SINEW_MAX_ELLIPSOID_RATIO);
            isolatedScale = SinewAuthoring.Clamp(isolatedScale, 0f, SinewNative.SINEW_MAX_ELLIPSOID_SCALE);
            // The diffuse particles' (DiffuseDesc).
            diffuseCapacity = SinewAuthoring.Clamp(diffuseCapacity, 1, (int)SinewNative.SINEW_MAX_FLUID_CAPACITY);
            diffuseLifetime = SinewAuthoring.Clamp(diffuseLifetime, float.Epsilon, SinewNative.SINEW_MAX_FLUID_LIFETIME);
            diffuseRate = SinewAuthoring.Clamp(diffuseRate, 0f, SinewNative.SINEW_MAX_DIFFUSE_RATE);
            diffuseMinSpeed = SinewAuthoring.Clamp(diffuseMinSpeed, 0f, SinewFluidAuthoring.MaxDiffuseMinSpeed);
            diffuseSize = SinewAuthoring.Clamp(diffuseSize, 0f, 100f);
        }

        /// <summary>The anisotropy readback's settings from the fields.</summary>
        public AnisotropySettings AnisotropyOptions()
        {
            return SinewFluidAuthoring.Anisotropy(ellipsoidScale, ellipsoidSmoothing, ellipsoidMaxRatio, isolatedScale);
        }

        /// <summary>The diffuse particles' settings from the fields (capacity 0 while
        /// Diffuse is off).</summary>
        public DiffuseSettings DiffuseOptions()
        {
            return SinewFluidAuthoring.Diffuse(diffuse, diffuseCapacity, diffuseLifetime, diffuseRate, diffuseMinSpeed);
        }

        void Start()
        {
            if (world == null)
                world = SinewWorldBehaviour.FindInScene();
            if (world == null)
            {
                Debug.LogError("SinewFluid needs a SinewWorldBehaviour", this);
                enabled = false;
                return;
            }
            killBoxes = ChildBoxColliders();
            PrepareDrawing();
            PrepareDiffuseDrawing();
            Build();
            subscribed = world;
            subscribed.BeforeStep += Sync;
        }

        /// <summary>Removes the fluid and creates it again, empty, from the fields (applies
        /// Capacity and Spacing while playing).</summary>
        [ContextMenu("Rebuild")]
        public void Rebuild()
        {
            if (Fluid == null || world == null)
                return;
            Release();
            Build();
        }

        /// <summary>Removes every live particle (the reserved slots stay).</summary>
        [ContextMenu("Clear")]
        public void Clear()
        {
            if (Fluid != null && !Fluid.World.IsDisposed)
                Fluid.Clear();
        }

        void Build()
        {
            FluidSettings s = Settings();
            try
            {
                Fluid = world.World.AddFluid(s);
                LastError = "";
            }
            catch (SinewException e)
            {
                Debug.LogError("SinewFluid: " + e.Message, this);
                enabled = false;
                return;
            }
            applied = s;
            liveEmitter = null;
            appliedEmitter = default(FluidEmitterOptions);
            appliedVolumeCount = 0;
            appliedDiffuse = Fluid.Diffuse; // a new fluid has none (capacity 0)
            positions = new Vector3[s.Capacity];
            velocities = new Vector3[s.Capacity];
            ellipsoids = new SinewFluidEllipsoid[s.Capacity];
            AllocateBatches(s.Capacity, ref matrices, ref colors, ref blocks);
            AllocateDiffuse(0);
            Sync();
        }

        // Room for `count` instances in batches of 1023 (when the fluid is built or the
        // diffuse capacity changes, never per frame).
        static void AllocateBatches(int count, ref Matrix4x4[][] m, ref Vector4[][] c, ref MaterialPropertyBlock[] blocks)
        {
            int batches = SinewFluidAuthoring.Batches(count);
            m = new Matrix4x4[batches][];
            c = new Vector4[batches][];
            blocks = new MaterialPropertyBlock[batches];
            for (int b = 0; b < batches; b++)
            {
                m[b] = new Matrix4x4[SinewFluidAuthoring.BatchSize];
                c[b] = new Vector4[SinewFluidAuthoring.BatchSize];
                blocks[b] = new MaterialPropertyBlock();
            }
        }

        void AllocateDiffuse(int capacity)
        {
            if (diffuseParticles.Length == capacity)
                return;
            diffuseParticles = new SinewDiffuseParticle[capacity];
            AllocateBatches(capacity, ref diffuseMatrices, ref diffuseColors, ref diffuseBlocks);
        }

        // BeforeStep (and once when built): inspector edits, the emitter at this
        // transform, the kill volumes where their colliders are now.
        void Sync()
        {
            if (Fluid == null || Fluid.World.IsDisposed)
                return;
            try
            {
                SinewFluidAuthoring.EditFluid(Fluid, ref applied, Settings());
                SinewFluidAuthoring.SyncEmitter(Fluid, ref liveEmitter, ref appliedEmitter, EmitterOptions());
                int n = DescribeKillVolumes();
                SinewFluidAuthoring.SyncKillVolumes(Fluid, ref liveVolumes, ref appliedVolumes, ref appliedVolumeCount,
                                                    wantedVolumes, n);
                if (SinewFluidAuthoring.SyncDiffuse(Fluid, ref appliedDiffuse, DiffuseOptions()))
                    AllocateDiffuse(appliedDiffuse.Capacity);
                LastError = "";
            }
            catch (SinewException e)
            {
                if (LastError != e.Message)
                    Debug.LogError("SinewFluid: " + e.Message, this);
                LastError = e.Message;
            }
        }

        BoxCollider[] ChildBoxColliders()
        {
            BoxCollider[] all = GetComponentsInChildren<BoxCollider>(true);
            int n = 0;
            foreach (BoxCollider b in all)
                if (b.gameObject != gameObject)
                    n++;
            var boxes = new BoxCollider[n];
            n = 0;
            foreach (BoxCollider b in all)
                if (b.gameObject != gameObject)
                    boxes[n++] = b;
            return boxes;
        }

        // The kill volumes as the library takes them, into wantedVolumes; returns how many.
        int DescribeKillVolumes()
        {
            int boxes = killInChildBoxColliders ? killBoxes.Length : 0;
            int listed = killVolumes != null ? killVolumes.Length : 0;
            if (wantedVolumes.Length < boxes + listed)
                wantedVolumes = new KillVolumeSettings[boxes + listed];
            int n = 0;
            for (int i = 0; i < boxes; i++)
            {
                BoxCollider b = killBoxes[i];
                if (b == null || !b.enabled)
                    continue;
                Transform t = b.transform;
                wantedVolumes[n++] = SinewFluidAuthoring.KillBox(t.TransformPoint(b.center).ToSinew(), t.rotation.ToSinew(),
                                                                 b.size.ToSinew(), t.lossyScale.ToSinew());
            }
            for (int i = 0; i < listed; i++)
            {
                SinewKillVolumeEntry e = killVolumes[i];
                switch (e.shape)
                {
                    case SinewKillShape.Box:
                        wantedVolumes[n++] = SinewFluidAuthoring.KillBox(e.center.ToSinew(),
                                                                         Quaternion.Euler(e.eulerAngles.x, e.eulerAngles.y, e.eulerAngles.z).ToSinew(),
                                                                         (e.halfExtents * 2f).ToSinew(), new SinewVec3(1f, 1f, 1f));
                        break;
                    case SinewKillShape.Sphere:
                        wantedVolumes[n++] = SinewFluidAuthoring.KillSphere(e.center.ToSinew(), e.radius);
                        break;
                    default:
                        wantedVolumes[n++] = SinewFluidAuthoring.KillBelow(e.center.ToSinew(), e.normal.ToSinew());
                        break;
                }
            }
            return n;
        }

        void PrepareDrawing()
        {
            drawnMesh = particleMesh != null ? particleMesh : PrimitiveMesh(PrimitiveType.Sphere);
            drawnMode = drawMode;
            if (ownsMaterial && drawnMaterial != null)
                Destroy(drawnMaterial); // the default material of the previous draw mode
            ownsMaterial = particleMaterial == null;
            drawnMaterial = particleMaterial;
            if (drawnMaterial == null)
            {
                // Runtime/Resources: SinewFluidWater.shader (transparent, Fresnel rim) for
                // ellipsoids, SinewFluidParticle.shader (Standard lighting) for spheres; both
                // with an instanced _Color.
                Shader shader = Shader.Find(drawMode == FluidDrawMode.Ellipsoids ? "Sinew/Fluid Water" : "Sinew/Fluid Particle");
                if (shader == null)
                    shader = Shader.Find("Standard");
                drawnMaterial = new Material(shader);
            }
            drawnMaterial.enableInstancing = true;
            colorId = Shader.PropertyToID(string.IsNullOrEmpty(colorProperty) ? "_Color" : colorProperty);
        }

        // The diffuse particles' quad and material (once, in Start).
        void PrepareDiffuseDrawing()
        {
            drawnDiffuseMesh = diffuseMesh != null ? diffuseMesh : PrimitiveMesh(PrimitiveType.Quad);
            drawnDiffuseMaterial = diffuseMaterial;
            if (drawnDiffuseMaterial == null)
            {
                // Runtime/Resources/SinewFluidDiffuse.shader: camera-facing soft dots.
                Shader shader = Shader.Find("Sinew/Fluid Diffuse");
                if (shader == null)
                    shader = Shader.Find("Standard");
                drawnDiffuseMaterial = new Material(shader);
            }
            drawnDiffuseMaterial.enableInstancing = true;
        }

        // A Unity primitive's mesh (the object is dropped).
        static Mesh PrimitiveMesh(PrimitiveType type)
        {
            GameObject o = GameObject.CreatePrimitive(type);
            Mesh mesh = o.GetComponent<MeshFilter>().sharedMesh;
            Destroy(o);
            return mesh;
        }

        static Matrix4x4 ToMatrix(InstanceTransform t)
        {
            Matrix4x4 m = Matrix4x4.identity;
            m.m00 = t.X.x; m.m10 = t.X.y; m.m20 = t.X.z;
            m.m01 = t.Y.x; m.m11 = t.Y.y; m.m21 = t.Y.z;
            m.m02 = t.Z.x; m.m12 = t.Z.y; m.m22 = t.Z.z;
            m.m03 = t.T.x; m.m13 = t.T.y; m.m23 = t.T.z;
            m.m30 = 0f; m.m31 = 0f; m.m32 = 0f; m.m33 = 1f;
            return m;
        }

        void LateUpdate()
        {
            DrawnCount = 0;
            DrawnDiffuseCount = 0;
            if (Fluid == null || Fluid.World.IsDisposed || drawnMesh == null || drawnMaterial == null)
                return;
            if (drawnMode != drawMode && particleMaterial == null)
                PrepareDrawing(); // the default material follows the draw mode
            // Live particles in slot order, between the last two steps, straight into the arrays.
            float alpha = SinewRendering.Alpha(world);
            int n = Fluid.ReadParticles<Vector3>(alpha, positions, velocities, null);
            bool shaped = drawMode == FluidDrawMode.Ellipsoids;
            if (shaped)
                Fluid.ReadAnisotropy(AnisotropyOptions(), alpha, ellipsoids); // same order, computed now
            float d = spacing * particleScale;
            Vector4 slow = new Vector4(slowColor.r, slowColor.g, slowColor.b, slowColor.a);
            Vector4 fast = new Vector4(fastColor.r, fastColor.g, fastColor.b, fastColor.a);
            ShadowCastingMode shadows = castShadows ? ShadowCastingMode.On : ShadowCastingMode.Off;
            int batches = SinewFluidAuthoring.Batches(n);
            for (int b = 0; b < batches; b++)
            {
                int start = b * SinewFluidAuthoring.BatchSize;
                int count = Math.Min(SinewFluidAuthoring.BatchSize, n - start);
                Matrix4x4[] m = matrices[b];
                Vector4[] c = colors[b];
                for (int k = 0; k < count; k++)
                {
                    int i = start + k;
                    m[k] = ToMatrix(shaped ? SinewFluidAuthoring.Ellipsoid(ellipsoids[i], particleMeshRadius)
                                           : SinewFluidAuthoring.Sphere(positions[i].ToSinew(), d, particleMeshRadius));
                    float f = SinewFluidAuthoring.SpeedFraction(velocities[i].ToSinew(), fastSpeed);
                    c[k] = slow + (fast - slow) * f;
                }
                blocks[b].SetVectorArray(colorId, c);
                Graphics.DrawMeshInstanced(drawnMesh, 0, drawnMaterial, m, count, blocks[b], shadows, true, gameObject.layer);
            }
            DrawnCount = n;
            DrawDiffuse();
        }

        // The diffuse particles as they were at the end of the last step (not
        // interpolated: they are short-lived and fast).
        void DrawDiffuse()
        {
            if (appliedDiffuse.Capacity == 0 || diffuseParticles.Length == 0 || drawnDiffuseMesh == null ||
                drawnDiffuseMaterial == null)
                return;
            int n = Fluid.ReadDiffuse(diffuseParticles);
            float size = spacing * diffuseSize;
            int batches = SinewFluidAuthoring.Batches(n);
            for (int b = 0; b < batches; b++)
            {
                int start = b * SinewFluidAuthoring.BatchSize;
                int count = Math.Min(SinewFluidAuthoring.BatchSize, n - start);
                Matrix4x4[] m = diffuseMatrices[b];
                Vector4[] c = diffuseColors[b];
                for (int k = 0; k < count; k++)
                {
                    SinewDiffuseParticle p = diffuseParticles[start + k];
                    // The quad's half size is 0.5: a mesh radius of 0.5.
                    m[k] = ToMatrix(SinewFluidAuthoring.Sphere(p.position, size, 0.5f));
                    float a = SinewFluidAuthoring.DiffuseOpacity(p, 0.3f);
                    c[k] = new Vector4(diffuseColor.r, diffuseColor.g, diffuseColor.b, diffuseColor.a * a);
                }
                diffuseBlocks[b].SetVectorArray(colorId, c);
                Graphics.DrawMeshInstanced(drawnDiffuseMesh, 0, drawnDiffuseMaterial, m, count, diffuseBlocks[b],
                                           ShadowCastingMode.Off, false, gameObject.layer);
            }
            DrawnDiffuseCount = n;
        }

        void Release()
        {
            if (Fluid != null && !Fluid.World.IsDisposed)
                Fluid.Remove(); // its emitter and kill volumes go with it
            Fluid = null;
            liveEmitter = null;
            appliedVolumeCount = 0;
            for (int i = 0; i < liveVolumes.Length; i++)
                liveVolumes[i] = null;
        }

        void OnDestroy()
        {
            if (subscribed != null)
                subscribed.BeforeStep -= Sync;
            subscribed = null;
            Release();
        }

#if UNITY_EDITOR
        // The emitter (a disc and its direction, or a box) and the listed kill volumes.
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
                Gizmos.DrawLine(c, c + t.rotation * new Vector3(0f, 0f, Math.Max(speed, 0.1f) * 0.25f));
            }
            else if (emitter == FluidEmitterKind.Box)
            {
                DrawBox(c, t.rotation, boxHalfExtents);
            }
            Gizmos.color = SinewGizmos.Pinned;
            if (killVolumes == null)
                return;
            foreach (SinewKillVolumeEntry e in killVolumes)
            {
                if (e.shape == SinewKillShape.Box)
                    DrawBox(e.center, Quaternion.Euler(e.eulerAngles.x, e.eulerAngles.y, e.eulerAngles.z), e.halfExtents);
                else if (e.shape == SinewKillShape.Sphere)
                    Gizmos.DrawWireSphere(e.center, e.radius);
                else
                    Gizmos.DrawLine(e.center, e.center + e.normal);
            }
        }

        static void DrawBox(Vector3 c, Quaternion q, Vector3 h)
        {
            var corners = new Vector3[8];
            for (int k = 0; k < 8; k++)
                corners[k] = c + q * new Vector3((k & 1) != 0 ? h.x : -h.x, (k & 2) != 0 ? h.y : -h.y, (k & 4) != 0 ? h.z : -h.z);
            for (int k = 0; k < 8; k++)
                for (int bit = 1; bit < 8; bit <<= 1)
                    if ((k & bit) == 0)
                        Gizmos.DrawLine(corners[k], corners[k | bit]);
        }
#endif
    }
}

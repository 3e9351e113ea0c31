// Mirrors this object's Unity Terrain (its TerrainCollider's TerrainData) into a Sinew
// world as a heightfield collider, so that ropes, cloth and water lie on the terrain:
// the heightmap's samples (GetHeights, scaled by the terrain's height, in m) on a grid of
// size.x / (resolution - 1) by size.z / (resolution - 1) cells, the corner sample at the
// terrain's position (a terrain has no rotation or scale), and the painted holes
// (GetHoles) as cells particles fall through. The heights are read in OnEnable and by
// Rebuild (call it after editing the TerrainData at run time); a moved terrain follows
// from the world's BeforeStep. Removed in OnDisable, like SinewCollider.

using System;
using Sinew.Native;
using UnityEngine;

namespace Sinew.Unity
{
    [DisallowMultipleComponent]
    [AddComponentMenu("Sinew/Sinew Terrain Collider")]
    [RequireComponent(typeof(TerrainCollider))]
    public sealed class SinewTerrainCollider : MonoBehaviour
    {
        [Tooltip("The world to live in; empty = the first SinewWorldBehaviour in the scene. Read in OnEnable.")]
        public SinewWorldBehaviour world;
        [Tooltip("Coulomb coefficient below which a contact sticks. In [0, 100].")]
        [Range(0.0f, SinewNative.SINEW_MAX_FRICTION)]
        public float staticFriction = 0.5f;
        [Tooltip("Coulomb coefficient of sliding. In [0, 100].")]
        [Range(0.0f, SinewNative.SINEW_MAX_FRICTION)]
        public float dynamicFriction = 0.4f;
        [Tooltip("Normal velocity kept after an impact, as a fraction of the approach speed (0 = no bounce, 1 = elastic). In [0, 1].")]
        [Range(0.0f, 1.0f)]
        public float restitution = 0.0f;
        [Tooltip("Whether the contact readback lists this collider's contacts.")]
        public bool reportContacts = true;
        [Tooltip("Every how many heightmap samples one is kept (1 = all; 2 = a quarter of the samples, for a large terrain under a small scene). Holes are read only at 1. Read in OnEnable and Rebuild.")]
        [Min(1)]
        public int sampleStep = 1;

        /// <summary>The Sinew collider (null while none is registered).</summary>
        public WorldCollider WorldCollider { get; private set; }

        /// <summary>The Sinew collider's raw handle (id 0 while none is registered).</summary>
        public Sinew.Native.SinewColliderHandle Handle
        {
            get { return WorldCollider != null ? WorldCollider.Handle : default(Sinew.Native.SinewColliderHandle); }
        }

        /// <summary>The world the collider is in (null while none).</summary>
        public World Owner { get; private set; }

        SinewWorldBehaviour subscribed;
        Vector3 registeredPosition;

        void OnEnable()
        {
            if (world == null)
                world = SinewWorldBehaviour.FindInScene();
            if (world == null)
            {
                Debug.LogError("SinewTerrainCollider needs a SinewWorldBehaviour", this);
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

        /// <summary>Reads the TerrainData again (heights, holes, size) and replaces the
        /// collider: call it after changing the terrain at run time.</summary>
        public void Rebuild()
        {
            Unregister();
            if (subscribed != null)
                Register();
        }

        /// <summary>The heightfield of <paramref name="data"/>, every
        /// <paramref name="step"/>-th sample: columns x rows heights (m, row j along +z,
        /// sample i along +x), the cell size (m) and, at step 1 when the terrain has
        /// holes, one flag per cell (true = hole; null when none is painted).</summary>
        public static void Heights(TerrainData data, int step, out int columns, out int rows, out float cellX,
                                   out float cellZ, out float[] heights, out bool[] holes)
        {
            if (step < 1)
                step = 1;
            int res = data.heightmapResolution;
            float[,] h = data.GetHeights(0, 0, res, res); // [z, x], in [0, 1] of size.y
            Vector3 size = data.size;
            columns = (res - 1) / step + 1;
            rows = columns;
            cellX = size.x / (res - 1) * step;
            cellZ = size.z / (res - 1) * step;
            heights = new float[columns * rows];
            for (int j = 0; j < rows; j++)
                for (int i = 0; i < columns; i++)
                    heights[j * columns + i] = h[j * step, i * step] * size.y;
            holes = null;
            if (step != 1 || data.holesResolution != res - 1)
                return;
            int cells = res - 1;
            bool[,] solid = data.GetHoles(0, 0, cells, cells); // [z, x], true = surface
            bool any = false;
            var flags = new bool[cells * cells];
            for (int j = 0; j < cells; j++)
                for (int i = 0; i < cells; i++)
                {
                    bool hole = !solid[j, i];
                    flags[j * cells + i] = hole;
                    any |= hole;
                }
            if (any)
                holes = flags;
        }

        void Register()
        {
            var tc = GetComponent<TerrainCollider>();
            TerrainData data = tc != null ? tc.terrainData : null;
            if (data == null)
            {
                Debug.LogError("SinewTerrainCollider needs a TerrainCollider with TerrainData on the same GameObject", this);
                enabled = false;
                return;
            }
            int columns, rows;
            float cellX, cellZ;
            float[] heights;
            bool[] holes;
            Heights(data, sampleStep, out columns, out rows, out cellX, out cellZ, out heights, out holes);
            ColliderSettings desc = ColliderSettings.Default;
            desc.StaticFriction = staticFriction;
            desc.DynamicFriction = dynamicFriction;
            desc.Restitution = restitution;
            desc.ReportContacts = reportContacts;
            registeredPosition = transform.position;
            desc.Position = registeredPosition.ToSinew();
            desc.Rotation = Quaternion.identity.ToSinew();
            try
            {
                World w = subscribed.World;
                WorldCollider = w.AddHeightfieldCollider(desc, columns, rows, cellX, cellZ, heights, holes);
                Owner = w;
            }
            catch (SinewException e)
            {
                Debug.LogError("SinewTerrainCollider: " + e.Message, this);
                enabled = false;
            }
        }

        void Unregister()
        {
            World w = Owner;
            WorldCollider c = WorldCollider;
            Owner = null;
            WorldCollider = null;
            if (w == null || w.IsDisposed || c == null)
                return;
            try
            {
                c.Remove();
            }
            catch (SinewException e)
            {
                Debug.LogError("SinewTerrainCollider: " + e.Message, this);
            }
        }

        // BeforeStep: a world created again gets the terrain again; a moved terrain follows.
        void Push()
        {
            if (Owner == null || Owner.IsDisposed)
            {
                Owner = null;
                WorldCollider = null;
                Register();
                return;
            }
            Vector3 p = transform.position;
            if (p.x == registeredPosition.x && p.y == registeredPosition.y && p.z == registeredPosition.z)
                return;
            try
            {
                WorldCollider.SetTransform(p.ToSinew(), Quaternion.identity.ToSinew());
                registeredPosition = p;
            }
            catch (SinewException e)
            {
                Debug.LogError("SinewTerrainCollider: " + e.Message, this);
                enabled = false;
            }
        }

        void OnValidate()
        {
            staticFriction = SinewAuthoring.Clamp(staticFriction, 0.0f, SinewNative.SINEW_MAX_FRICTION);
            dynamicFriction = SinewAuthoring.Clamp(dynamicFriction, 0.0f, SinewNative.SINEW_MAX_FRICTION);
            restitution = SinewAuthoring.Clamp(restitution, 0.0f, 1.0f);
            sampleStep = Math.Max(1, sampleStep);
        }
    }
}

// A rope between two transforms: particles + XPBD distance constraints (Sinew.Rope),
// ends pinned to the transforms every FixedUpdate, drawn with a LineRenderer.

using UnityEngine;

namespace Sinew.Unity
{
    [RequireComponent(typeof(LineRenderer))]
    [AddComponentMenu("Sinew/Sinew Rope")]
    public sealed class SinewRope : MonoBehaviour
    {
        [Tooltip("The world to live in; empty = the first SinewWorldBehaviour in the scene.")]
        public SinewWorldBehaviour world;
        public Transform start;
        public Transform end;
        [Range(1, 1024)]
        public int segments = 20;
        [Tooltip("Total mass of the rope, kg.")]
        [Min(1e-4f)]
        public float massKg = 1f;
        [Tooltip("Link compliance α, m/N (0 = inextensible; 1e-6 rubbery).")]
        [Min(0f)]
        public float compliance = 0f;
        public bool pinStart = true;
        public bool pinEnd = true;

        /// <summary>The engine-neutral rope (null before Start).</summary>
        public Rope Rope { get; private set; }

        LineRenderer line;
        Vector3[] points;

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
            Rope = Rope.Create(world.World, start.position.ToSinew(), end.position.ToSinew(), segments, massKg,
                               compliance, pinStart, pinEnd);
            points = new Vector3[Rope.ParticleCount];
            line = GetComponent<LineRenderer>();
            line.useWorldSpace = true;
            line.positionCount = points.Length;
            world.BeforeStep += FollowEnds;
        }

        void FollowEnds()
        {
            if (Rope != null && !Rope.World.IsDisposed)
                Rope.MoveEnds(start.position.ToSinew(), end.position.ToSinew());
        }

        void LateUpdate()
        {
            if (Rope == null || Rope.World.IsDisposed)
                return;
            Rope.ReadPositions(points); // in place: Vector3[] has SinewVec3's layout
            line.SetPositions(points);
        }

        void OnDestroy()
        {
            if (world != null)
                world.BeforeStep -= FollowEnds;
        }
    }
}

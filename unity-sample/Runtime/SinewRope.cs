// A rope between two transforms, built by the library (Sinew.Rope over sinew_world_add_rope:
// links, bend links, tethers from pinned ends), ends pinned to the transforms every
// FixedUpdate, drawn with a LineRenderer. Removed from the world when destroyed. Length,
// Winch Speed and Break Force edit the rope in place (a winch at the start, the links'
// break force): nothing is rebuilt, and other ropes are never touched.

using Sinew.Native;
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
        [Tooltip("Compliance of the (i, i+2) bend links, m/N (larger = floppier).")]
        [Min(0f)]
        public float bendCompliance = 0.01f;
        [Tooltip("Tethers from each pinned end to every particle: long ropes do not stretch under their weight.")]
        public bool tethers = true;
        [Tooltip("Radius for collision, m.")]
        [Min(0f)]
        public float radius = 0.01f;
        [Tooltip("Extra velocity damping of the rope, 1/s.")]
        [Min(0f)]
        public float damping = 0f;
        public bool pinStart = true;
        public bool pinEnd = true;
        [Tooltip("Rope length, m, paid out of or reeled into the start (a winch; needs Pin Start). " +
                 "0 = the length it was built with, which is also the most it pays out.")]
        [Min(0f)]
        public float length = 0f;
        [Tooltip("Winch speed, m/s, at which the rope moves towards Length.")]
        [Min(0f)]
        public float winchSpeed = 0.5f;
        [Tooltip("Break force of the links, N (0 = unbreakable). Build breakable ropes without tethers.")]
        [Min(0f)]
        public float breakForce = 0f;

        /// <summary>The engine-neutral rope (null before Start).</summary>
        public Rope Rope { get; private set; }

        LineRenderer line;
        Vector3[] points;
        float appliedCompliance, appliedBend, appliedDamping;
        float appliedLength, appliedWinchSpeed, appliedBreakForce;
        bool winched;

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
            var s = RopeSettings.Default;
            s.Start = start.position.ToSinew();
            s.End = end.position.ToSinew();
            s.Segments = segments;
            s.TotalMass = massKg;
            s.StretchCompliance = compliance;
            s.BendCompliance = bendCompliance;
            s.Tethers = tethers;
            s.Radius = radius;
            s.Damping = damping;
            s.PinStart = pinStart;
            s.PinEnd = pinEnd;
            Rope = Rope.Create(world.World, s);
            appliedCompliance = compliance;
            appliedBend = bendCompliance;
            appliedDamping = damping;
            if (pinStart)
            {
                float built = Vector3.Distance(start.position, end.position);
                Rope.Body.AddWinch(SinewRopeEnd.RopeStart, length > 0f ? Mathf.Min(length, built) : built);
                winched = true;
            }
            appliedLength = length;
            appliedWinchSpeed = winchSpeed;
            if (breakForce > 0f)
                Rope.Body.SetBreakForce(breakForce);
            appliedBreakForce = breakForce;
            points = new Vector3[Rope.ParticleCount];
            line = GetComponent<LineRenderer>();
            line.useWorldSpace = true;
            line.positionCount = points.Length;
            world.BeforeStep += FollowEnds;
        }

        void FollowEnds()
        {
            if (Rope == null || Rope.World.IsDisposed)
                return;
            // Inspector edits of the material apply in place, from this step on.
            if (compliance != appliedCompliance)
            {
                Rope.SetCompliance(SinewBodyConstraints.BodyStretch, compliance);
                appliedCompliance = compliance;
            }
            if (bendCompliance != appliedBend)
            {
                Rope.SetCompliance(SinewBodyConstraints.BodyBend, bendCompliance);
                appliedBend = bendCompliance;
            }
            if (damping != appliedDamping)
            {
                Rope.Body.Damping = damping;
                appliedDamping = damping;
            }
            if (winched && (length != appliedLength || winchSpeed != appliedWinchSpeed))
            {
                if (length > 0f && winchSpeed > 0f)
                    Rope.Body.SetWinchTarget(length, winchSpeed);
                appliedLength = length;
                appliedWinchSpeed = winchSpeed;
            }
            if (breakForce != appliedBreakForce)
            {
                Rope.Body.SetBreakForce(breakForce > 0f ? breakForce : float.PositiveInfinity);
                appliedBreakForce = breakForce;
            }
            // A winched rope's far end hangs free unless pinned; the drum follows start.
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
            if (Rope != null)
                Rope.Dispose(); // removes the body (nothing to do once the world is gone)
        }
    }
}

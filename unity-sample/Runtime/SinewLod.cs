// Level of detail for a SinewRope or SinewCloth on the same GameObject: the body runs at
// full rate near the camera, at a reduced rate (one substep in `reducedEvery`) beyond
// `reducedDistance` or while no camera renders it, and is paused beyond `pausedDistance`
// (or while invisible, with `pauseWhenInvisible`). Visibility comes from the renderer's
// OnBecameVisible / OnBecameInvisible (the rope's LineRenderer, the cloth's mesh
// renderer), distance from the main camera (or `viewer`). The native mode is set only
// when it changes, and again after the body is rebuilt. A resumed body catches up at
// rest on its attachments (docs/concepts.md, "Level of detail").

using Sinew.Native;
using UnityEngine;

namespace Sinew.Unity
{
    [DisallowMultipleComponent]
    [AddComponentMenu("Sinew/Sinew Level Of Detail")]
    public sealed class SinewLod : MonoBehaviour
    {
        [Tooltip("Distance from the viewer (m) beyond which the body runs at a reduced rate.")]
        [Min(0)]
        public float reducedDistance = 20f;
        [Tooltip("Distance from the viewer (m) beyond which the body is paused.")]
        [Min(0)]
        public float pausedDistance = 80f;
        [Tooltip("A reduced body runs one substep in this many (1..the world's substeps; a larger value is clamped to them).")]
        [Min(1)]
        public int reducedEvery = 4;
        [Tooltip("While no camera renders the body: paused (on) or reduced (off).")]
        public bool pauseWhenInvisible = true;
        [Tooltip("Where distances are measured from; empty = the main camera.")]
        public Transform viewer;

        bool visible = true;
        Body applied;
        SinewSimMode appliedMode = SinewSimMode.Full;
        int appliedEvery = 1;

        /// <summary>The mode this component asks for now.</summary>
        public SinewSimMode Mode { get { return appliedMode; } }

        void OnBecameVisible() { visible = true; }
        void OnBecameInvisible() { visible = false; }

        void Start()
        {
            var r = GetComponent<Renderer>();
            if (r != null)
                visible = r.isVisible;
        }

        /// <summary>The body of the rope or cloth beside this component, with its world's
        /// substeps (null when there is none yet).</summary>
        Body TargetBody(out int substeps)
        {
            substeps = 1;
            var rope = GetComponent<SinewRope>();
            if (rope != null && rope.Rope != null && !rope.Rope.World.IsDisposed && rope.world != null)
            {
                substeps = rope.world.substeps;
                return rope.Rope;
            }
            var cloth = GetComponent<SinewCloth>();
            if (cloth != null && cloth.Cloth != null && !cloth.Cloth.World.IsDisposed && cloth.world != null)
            {
                substeps = cloth.world.substeps;
                return cloth.Cloth;
            }
            return null;
        }

        /// <summary>The mode for a body <paramref name="distance"/> metres away, seen or
        /// not (the rule of this component).</summary>
        public static SinewSimMode Choose(float distance, bool seen, float reduced, float paused,
            bool pauseWhenInvisible)
        {
            if (distance > paused || (!seen && pauseWhenInvisible))
                return SinewSimMode.Paused;
            if (distance > reduced || !seen)
                return SinewSimMode.Reduced;
            return SinewSimMode.Full;
        }

        void LateUpdate()
        {
            int substeps;
            var body = TargetBody(out substeps);
            if (body == null || body.IsRemoved)
                return;
            var from = viewer;
            if (from == null && Camera.main != null)
                from = Camera.main.transform;
            float distance = from != null ? Vector3.Distance(from.position, transform.position) : 0f;
            var mode = Choose(distance, visible, reducedDistance, pausedDistance, pauseWhenInvisible);
            int every = mode == SinewSimMode.Reduced ? Mathf.Max(1, reducedEvery) : 1;
            if (mode == SinewSimMode.Reduced)
                every = Mathf.Min(every, Mathf.Max(1, substeps));
            if (body == applied && mode == appliedMode && every == appliedEvery)
                return;
            body.SetSimMode(mode, every);
            applied = body;
            appliedMode = mode;
            appliedEvery = every;
        }

        void OnDisable()
        {
            // Back to full rate while the component is off.
            int substeps;
            var body = TargetBody(out substeps);
            if (body != null && !body.IsRemoved && appliedMode != SinewSimMode.Full)
                body.SetSimMode(SinewSimMode.Full);
            applied = null;
            appliedMode = SinewSimMode.Full;
            appliedEvery = 1;
        }
    }
}

// Two-way coupling of one body with the world's fluids, per body: the body's particles
// (with a radius) take part in the fluids' density, so the water lifts what is lighter
// than it and drags what moves through it, and the body pushes the water aside. It is on
// by default for every body with a particle radius; this component switches it for the
// body of a SinewRope, SinewCloth or SinewSkinnedCloth on the same object (or one built
// in code, given with Attach), in place, and reads the force the fluids exerted on the
// body in the last step (buoyancy plus drag, N), e.g. for a gauge or to push a Unity
// Rigidbody that the body stands in for.

using UnityEngine;

namespace Sinew.Unity
{
    [DisallowMultipleComponent]
    [AddComponentMenu("Sinew/Sinew Fluid Coupling")]
    public sealed class SinewFluidCoupling : MonoBehaviour
    {
        [Tooltip("The world whose steps apply the switch and update the force; empty = the first SinewWorldBehaviour in the scene.")]
        public SinewWorldBehaviour world;
        [Tooltip("The body takes part in the fluids (buoyancy, drag, displacement both ways). Edited in place.")]
        public bool coupled = true;

        /// <summary>The body switched (from a SinewRope / SinewCloth / SinewSkinnedCloth on
        /// this object, or <see cref="Attach"/>); null until one exists.</summary>
        public Body Body { get; private set; }

        /// <summary>The force the fluids exerted on the body in the last substep of the last
        /// step: buoyancy plus drag, N (world axes).</summary>
        public Vector3 FluidForce { get; private set; }

        /// <summary>The last switch the library refused (empty = none).</summary>
        public string LastError { get; private set; }

        SinewWorldBehaviour subscribed;
        Body switched; // the body the applied state belongs to
        bool appliedCoupled;

        /// <summary>Switches this body (one built in code, e.g. World.AddPressureBody) instead
        /// of one found on this object; applied before the next step.</summary>
        public void Attach(Body body)
        {
            Body = body;
        }

        void OnEnable()
        {
            if (world == null)
                world = SinewWorldBehaviour.FindInScene();
            if (world == null)
            {
                Debug.LogError("SinewFluidCoupling needs a SinewWorldBehaviour", this);
                enabled = false;
                return;
            }
            subscribed = world;
            subscribed.BeforeStep += Apply;
            subscribed.AfterStep += ReadForce;
        }

        void OnDisable()
        {
            if (subscribed != null)
            {
                subscribed.BeforeStep -= Apply;
                subscribed.AfterStep -= ReadForce;
            }
            subscribed = null;
        }

        // The body of a Sinew component on this object (they build theirs in Start).
        Body Find()
        {
            var rope = GetComponent<SinewRope>();
            if (rope != null && rope.Rope != null)
                return rope.Rope;
            var cloth = GetComponent<SinewCloth>();
            if (cloth != null && cloth.Cloth != null)
                return cloth.Cloth;
            var skinned = GetComponent<SinewSkinnedCloth>();
            if (skinned != null && skinned.Cloth != null)
                return skinned.Cloth;
            return null;
        }

        // BeforeStep: the switch, when it or the body changed (a rebuilt rope is a new body).
        void Apply()
        {
            if (Body == null || Body.IsRemoved)
                Body = Find();
            if (Body == null || Body.IsRemoved || Body.World.IsDisposed)
                return;
            if (switched == Body && appliedCoupled == coupled)
                return;
            try
            {
                Body.SetFluidCoupling(coupled);
                switched = Body;
                appliedCoupled = coupled;
                LastError = "";
            }
            catch (SinewException e)
            {
                if (LastError != e.Message)
                    Debug.LogError("SinewFluidCoupling: " + e.Message, this);
                LastError = e.Message;
            }
        }

        void ReadForce()
        {
            if (Body == null || Body.IsRemoved || Body.World.IsDisposed)
            {
                FluidForce = Vector3.zero;
                return;
            }
            try
            {
                FluidForce = Body.FluidForce.ToUnity();
            }
            catch (SinewException e)
            {
                FluidForce = Vector3.zero;
                if (LastError != e.Message)
                    Debug.LogError("SinewFluidCoupling: " + e.Message, this);
                LastError = e.Message;
            }
        }
    }
}

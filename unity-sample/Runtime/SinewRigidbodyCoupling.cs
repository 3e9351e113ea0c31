// Two-way coupling of a SinewCollider with the PhysX Rigidbody it stands for: before each
// fixed step of the Sinew world the collider becomes dynamic with the body's mass,
// inertia, centre of mass and velocities (sinew_collider_set_dynamics); within the step
// Sinew moves a proxy of the body with the impulses the particles, pins and fluids
// exchange with it, so a heavy load on a light crate answers within the step; after the
// step the body gets what they did, as a force and torque at its centre of mass
// (AddForce / AddTorque, ForceMode.Force) or as a velocity change (ForceMode.VelocityChange).
// The body's own gravity stays PhysX's (the proxy's is off). Put it on the GameObject of
// the SinewCollider; the Rigidbody is the one found on it or its parents.

using System;
using Sinew;
using Sinew.Native;
using UnityEngine;

namespace Sinew.Unity
{
    [AddComponentMenu("Sinew/Sinew Rigidbody Coupling")]
    [RequireComponent(typeof(SinewCollider))]
    public sealed class SinewRigidbodyCoupling : MonoBehaviour
    {
        /// <summary>How the body gets what the particles did over a step.</summary>
        public enum Apply
        {
            /// <summary>The mean force and torque over the step about the centre of mass
            /// (AddForce, AddTorque with ForceMode.Force): PhysX integrates them with its
            /// own contacts and joints.</summary>
            ForceAndTorque,
            /// <summary>The proxy's velocity change (ForceMode.VelocityChange): the same
            /// momentum, applied at once.</summary>
            VelocityChange,
        }

        [Tooltip("The body this collider stands for; empty = the Rigidbody on this GameObject or its parents.")]
        public Rigidbody body;
        [Tooltip("ForceAndTorque: AddForce/AddTorque of the step's mean wrench. VelocityChange: the proxy's velocity change.")]
        public Apply apply = Apply.ForceAndTorque;

        SinewCollider source;
        WorldCollider coupled;
        SinewWorldBehaviour subscribed;

        void OnEnable()
        {
            source = GetComponent<SinewCollider>();
            if (body == null)
                body = GetComponentInParent<Rigidbody>();
            if (source == null || body == null)
            {
                Debug.LogError("SinewRigidbodyCoupling needs a SinewCollider and a Rigidbody", this);
                enabled = false;
                return;
            }
            subscribed = source.world;
            if (subscribed != null)
                subscribed.AfterStep += Pull;
        }

        void OnDisable()
        {
            if (subscribed != null)
                subscribed.AfterStep -= Pull;
            subscribed = null;
            if (coupled != null && !coupled.World.IsDisposed && !coupled.IsRemoved)
            {
                try
                {
                    coupled.ClearDynamics();
                }
                catch (SinewException)
                {
                    // The collider went with its world or was removed: nothing to undo.
                }
            }
            coupled = null;
        }

        // From SinewCollider.Push (BeforeStep), once its transform is in the world: the
        // body's mass properties and velocities, in the collider's frame.
        internal void PushDynamics(WorldCollider collider, SinewVec3 position, SinewQuat rotation)
        {
            if (!enabled || body == null)
                return;
            Quaternion frame = rotation.ToUnity();
            Quaternion toLocal = Quaternion.Inverse(frame);
            Vector3 com = toLocal * (body.worldCenterOfMass - position.ToUnity());
            Quaternion axes = toLocal * (body.rotation * body.inertiaTensorRotation);
            try
            {
                collider.SetDynamics(body.mass, body.inertiaTensor.ToSinew(), axes.ToSinew(),
                    com.ToSinew(), body.velocity.ToSinew(), body.angularVelocity.ToSinew(), false);
                coupled = collider;
            }
            catch (SinewException e)
            {
                Debug.LogError("SinewRigidbodyCoupling: " + e.Message, this);
                enabled = false;
            }
        }

        // AfterStep: what the particles did to the proxy, onto the body.
        void Pull()
        {
            if (coupled == null || coupled.World.IsDisposed || coupled.IsRemoved || body == null || body.isKinematic)
                return;
            try
            {
                if (apply == Apply.VelocityChange)
                {
                    ColliderMotion m = coupled.ReadMotion();
                    body.AddForce(m.VelocityChange.ToUnity(), ForceMode.VelocityChange);
                    body.AddTorque(m.AngularVelocityChange.ToUnity(), ForceMode.VelocityChange);
                }
                else
                {
                    SinewVec3 force, torque;
                    coupled.ContactWrench(body.worldCenterOfMass.ToSinew(), out force, out torque);
                    body.AddForce(force.ToUnity(), ForceMode.Force);
                    body.AddTorque(torque.ToUnity(), ForceMode.Force);
                }
            }
            catch (SinewException e)
            {
                Debug.LogError("SinewRigidbodyCoupling: " + e.Message, this);
            }
        }
    }
}

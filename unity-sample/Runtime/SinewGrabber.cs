// Mouse pick and drag, on a Camera: on mouse down the ray through the cursor picks the
// nearest particle within `pickRadius` of it (World.PickParticle) and grabs it at the
// point of the ray nearest to it (World.GrabParticle, `compliance`); while the button
// is held the grab target follows the cursor ray across the plane through that point
// facing the camera (the grab depth is kept); mouse up or disabling releases it. Input
// is read with the Input Manager (UnityEngine.Input): set Project Settings → Player →
// Active Input Handling to "Input Manager" or "Both".

using Sinew.Native;
using UnityEngine;

namespace Sinew.Unity
{
    [RequireComponent(typeof(Camera))]
    [DisallowMultipleComponent]
    [AddComponentMenu("Sinew/Sinew Grabber")]
    public sealed class SinewGrabber : MonoBehaviour
    {
        [Tooltip("The world to grab in; empty = the first SinewWorldBehaviour in the scene.")]
        public SinewWorldBehaviour world;
        [Tooltip("0 = left, 1 = right, 2 = middle mouse button.")]
        [Range(0, 2)]
        public int mouseButton = 0;
        [Tooltip("m: a particle whose centre is within this (plus its own radius) of the cursor ray can be picked.")]
        [Min(0f)]
        public float pickRadius = 0.1f;
        [Tooltip("Grab compliance α, m/N (0 = rigid; at most SINEW_MAX_GRAB_COMPLIANCE).")]
        [Min(0f)]
        public float compliance = 1e-4f;

        /// <summary>The particle held, or -1.</summary>
        public int GrabbedParticle { get { return grabbed; } }

        void OnValidate()
        {
            // Clamps only: no native state in edit mode.
            mouseButton = SinewAuthoring.Clamp(mouseButton, 0, 2);
            pickRadius = SinewAuthoring.Clamp(pickRadius, 0f, SinewNative.SINEW_MAX_LENGTH);
            compliance = SinewAuthoring.Clamp(compliance, 0f, SinewNative.SINEW_MAX_GRAB_COMPLIANCE);
        }

        Camera cam;
        World grabWorld;
        int grabbed = -1;
        Vector3 planePoint;
        Vector3 planeNormal;

        void Awake()
        {
            cam = GetComponent<Camera>();
        }

        void Update()
        {
            if (world == null)
                world = SinewWorldBehaviour.FindInScene();
            if (grabbed >= 0 && (grabWorld == null || grabWorld.IsDisposed))
                Forget(); // the world went (domain reload, play-mode exit), and its grab with it
            if (world == null || cam == null)
                return;
            try
            {
                if (Input.GetMouseButtonDown(mouseButton))
                    Grab();
                if (grabbed < 0)
                    return;
                if (Input.GetMouseButton(mouseButton))
                    Drag();
                else
                    Release();
            }
            catch (SinewException e)
            {
                Debug.LogError("SinewGrabber: " + e.Message, this);
                Forget();
            }
        }

        void OnDisable()
        {
            Release();
        }

        void Grab()
        {
            Release();
            if (!world.HasWorld)
                return;
            World w = world.World;
            Ray ray = cam.ScreenPointToRay(Input.mousePosition);
            int particle;
            float distance;
            if (!w.PickParticle(ray.origin.ToSinew(), ray.direction.ToSinew(), pickRadius, out particle, out distance))
                return;
            Vector3 hit = ray.GetPoint(distance);
            w.GrabParticle(particle, hit.ToSinew(), compliance);
            grabWorld = w;
            grabbed = particle;
            planePoint = hit;
            planeNormal = cam.transform.forward;
        }

        // The cursor ray meets the drag plane (through the grab point, facing the camera).
        void Drag()
        {
            Ray ray = cam.ScreenPointToRay(Input.mousePosition);
            float along = Vector3.Dot(ray.direction, planeNormal);
            if (along < 1e-4f)
                return; // the ray runs along or away from the plane
            float s = Vector3.Dot(planePoint - ray.origin, planeNormal) / along;
            if (s < 0f)
                return; // the plane is behind the camera now
            grabWorld.MoveGrab(grabbed, ray.GetPoint(s).ToSinew());
        }

        /// <summary>Lets go of the particle held, if any.</summary>
        public void Release()
        {
            if (grabbed >= 0 && grabWorld != null && !grabWorld.IsDisposed)
            {
                try
                {
                    grabWorld.ReleaseParticle(grabbed);
                }
                catch (SinewException e)
                {
                    Debug.LogError("SinewGrabber: " + e.Message, this);
                }
            }
            Forget();
        }

        void Forget()
        {
            grabbed = -1;
            grabWorld = null;
        }
    }
}

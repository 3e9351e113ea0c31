// Sample: add this component to an empty GameObject in an empty scene and press Play.
// It builds everything in code: a Sinew world, a rope between a fixed anchor and one
// that swings, a 2 m × 2 m cloth (Unity's Plane) hanging from two corner pins, one of
// which moves, over a ball (SinewCollider), and mouse dragging (SinewGrabber on the
// main camera).

using Sinew.Unity;
using UnityEngine;

namespace Sinew.Samples
{
    public sealed class RopeAndClothDemo : MonoBehaviour
    {
        Transform swingingAnchor;
        Transform movingPin;
        Vector3 movingPinHome;

        void Start()
        {
            var worldObject = new GameObject("Sinew World");
            var world = worldObject.AddComponent<SinewWorldBehaviour>();
            world.substeps = 16;

            // Rope: 3 m long, 30 links, 1 kg, nearly inextensible.
            var fixedAnchor = new GameObject("Rope start").transform;
            fixedAnchor.position = new Vector3(-2f, 3f, 0f);
            swingingAnchor = new GameObject("Rope end").transform;
            swingingAnchor.position = new Vector3(1f, 3f, 0f);
            var ropeObject = new GameObject("Rope");
            var line = ropeObject.AddComponent<LineRenderer>();
            line.widthMultiplier = 0.03f;
            line.material = new Material(Shader.Find("Sprites/Default"));
            var rope = ropeObject.AddComponent<SinewRope>();
            rope.world = world;
            rope.start = fixedAnchor;
            rope.end = swingingAnchor;
            rope.segments = 30;
            rope.massKg = 1f;
            rope.compliance = 1e-7f;

            // Cloth: Unity's Plane is 10 × 10 units with 11 × 11 vertices; scale to 2 m.
            var cloth = GameObject.CreatePrimitive(PrimitiveType.Plane);
            cloth.name = "Cloth";
            Destroy(cloth.GetComponent<Collider>());
            cloth.transform.position = new Vector3(3f, 3f, 0f);
            cloth.transform.localScale = new Vector3(0.2f, 1f, 0.2f);
            var pinA = new GameObject("Cloth pin A").transform;
            pinA.position = new Vector3(2f, 3f, 1f);
            movingPin = new GameObject("Cloth pin B").transform;
            movingPin.position = movingPinHome = new Vector3(4f, 3f, 1f);
            var sinewCloth = cloth.AddComponent<SinewCloth>();
            sinewCloth.world = world;
            sinewCloth.massKg = 0.3f;
            sinewCloth.compliance = 1e-6f;
            sinewCloth.pins = new[] { pinA, movingPin };

            // A ball under the cloth: Unity's Sphere primitive keeps its SphereCollider
            // (radius 0.5, scaled to 0.6 m), which SinewCollider mirrors into the world.
            var ball = GameObject.CreatePrimitive(PrimitiveType.Sphere);
            ball.name = "Ball";
            ball.transform.position = new Vector3(3f, 1.9f, 0.4f);
            ball.transform.localScale = new Vector3(1.2f, 1.2f, 1.2f);
            var ballCollider = ball.AddComponent<SinewCollider>();
            ballCollider.world = world;
            ballCollider.staticFriction = 0.6f;
            ballCollider.dynamicFriction = 0.5f;

            // Drag rope and cloth with the left mouse button.
            var cam = Camera.main;
            if (cam != null)
                cam.gameObject.AddComponent<SinewGrabber>().world = world;
        }

        void Update()
        {
            float t = Time.time;
            swingingAnchor.position = new Vector3(1f + 0.5f * Mathf.Sin(2f * t), 3f, 0.5f * Mathf.Cos(2f * t));
            movingPin.position = movingPinHome + new Vector3(0f, 0f, -0.8f * (0.5f - 0.5f * Mathf.Cos(t)));
        }
    }
}

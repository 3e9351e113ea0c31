// Sample: add this component to an empty GameObject in an empty scene and press Play.
// It builds everything in code: a Sinew world, a floor (SinewCollider on a box), and
// the three kinds of SinewSoftBody made from Unity's primitives: a pressure ball (the
// sphere's surface inflated), a tet cube (the cube cut into tets by the library) and a
// shape-matched, plastic capsule (tets plus shape-matching clusters that yield).
// Space: the ball's pressure goes from 1 to 1.6 × its rest volume and back (a live edit).
// R: every body is rebuilt where it started. Left mouse: drag them (SinewGrabber).

using Sinew.Unity;
using UnityEngine;

namespace Sinew.Samples
{
    public sealed class SoftBodiesDemo : MonoBehaviour
    {
        SinewSoftBody ball, cube, capsule;

        void Start()
        {
            var worldObject = new GameObject("Sinew World");
            var world = worldObject.AddComponent<SinewWorldBehaviour>();
            world.substeps = 16;

            // Floor: Unity's cube keeps its BoxCollider, which SinewCollider mirrors.
            var floor = GameObject.CreatePrimitive(PrimitiveType.Cube);
            floor.name = "Floor";
            floor.transform.position = new Vector3(0f, -0.1f, 0f);
            floor.transform.localScale = new Vector3(10f, 0.2f, 10f);
            floor.AddComponent<SinewCollider>().world = world;

            // A 1 kg pressure ball of radius 0.4 m at its rest volume.
            ball = Make(PrimitiveType.Sphere, "Pressure ball", new Vector3(-1.5f, 2f, 0f), new Vector3(0.8f, 0.8f, 0.8f));
            ball.world = world;
            ball.mode = SoftBodyMode.Pressure;
            ball.massKg = 1f;
            ball.stretchCompliance = 1e-3f;
            ball.pressure = 1f;

            // A 2 kg jelly cube of 0.6 m, 6 cells across (1080 tets), slightly compressible.
            cube = Make(PrimitiveType.Cube, "Tet cube", new Vector3(0f, 2.5f, 0f), new Vector3(0.6f, 0.6f, 0.6f));
            cube.transform.rotation = Quaternion.Euler(20f, 30f, 10f);
            cube.world = world;
            cube.mode = SoftBodyMode.Tetrahedral;
            cube.resolution = 6;
            cube.massKg = 2f;
            cube.stretchCompliance = 1e-4f;
            cube.volumeCompliance = 1e-4f;

            // A capsule of clay: soft tets, stiff clusters, yielding past 2 cm.
            capsule = Make(PrimitiveType.Capsule, "Plastic capsule", new Vector3(1.5f, 3f, 0f), new Vector3(0.5f, 0.5f, 0.5f));
            capsule.transform.rotation = Quaternion.Euler(0f, 0f, 70f);
            capsule.world = world;
            capsule.mode = SoftBodyMode.ShapeMatching;
            capsule.resolution = 6;
            capsule.massKg = 1f;
            capsule.stretchCompliance = 1e-2f;
            capsule.volumeCompliance = 1e-2f;
            capsule.shapeStiffness = 0.8f;
            capsule.plastic = true;
            capsule.yieldDistance = 0.02f;
            capsule.creep = 0.2f;

            var cam = Camera.main;
            if (cam != null)
                cam.gameObject.AddComponent<SinewGrabber>().world = world;
        }

        /// <summary>A primitive without its Unity collider, with a SinewSoftBody.</summary>
        static SinewSoftBody Make(PrimitiveType type, string name, Vector3 position, Vector3 scale)
        {
            var go = GameObject.CreatePrimitive(type);
            go.name = name;
            Destroy(go.GetComponent<Collider>());
            go.transform.position = position;
            go.transform.localScale = scale;
            return go.AddComponent<SinewSoftBody>();
        }

        void Update()
        {
            if (Input.GetKeyDown(KeyCode.Space))
                ball.pressure = ball.pressure > 1f ? 1f : 1.6f; // applied before the next step
            if (Input.GetKeyDown(KeyCode.R))
            {
                ball.Rebuild();
                cube.Rebuild();
                capsule.Rebuild();
            }
        }
    }
}

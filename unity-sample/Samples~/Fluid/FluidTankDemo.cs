// Sample: add this component to an empty GameObject in an empty scene and press Play.
// It builds everything in code: a Sinew world, a glass-less tank of five boxes
// (Unity cubes with SinewCollider), a SinewFluid whose nozzle pours water into it from
// above, a kill box under the tank for whatever spills over, and a soft ball (a pressure
// body, World.AddPressureBody) lighter than water that floats on what has been poured
// (SinewFluidCoupling reads the fluid's force on it). Drag the ball under with the mouse
// (SinewGrabber) and let go: it bobs back up. Space toggles the ball's coupling (without
// it the ball falls through the water to the floor); C clears the water.

using System.Collections.Generic;
using Sinew.Unity;
using UnityEngine;

namespace Sinew.Samples
{
    public sealed class FluidTankDemo : MonoBehaviour
    {
        // Tank inside: 1.2 m × 0.8 m, walls 1.2 m high, 0.1 m thick, floor at y = 0.
        const float Width = 1.2f, Depth = 0.8f, Height = 1.2f, Wall = 0.1f;
        // Ball: radius 0.2 m, 10 kg (a third of water's density: it floats about a quarter
        // of its diameter deep); its 162 particles of radius 3 cm take part in the water.
        const float BallRadius = 0.2f, BallMass = 10f, BallParticleRadius = 0.03f;

        SinewWorldBehaviour world;
        SinewFluid water;
        SinewFluidCoupling coupling;
        Body ball;
        Mesh ballMesh;
        Vector3[] ballVertices;

        void Start()
        {
            var worldObject = new GameObject("Sinew World");
            world = worldObject.AddComponent<SinewWorldBehaviour>();
            world.substeps = 8;
            world.iterations = 2;

            // The tank: a floor and four walls, each a cube whose BoxCollider SinewCollider mirrors.
            Box("Floor", new Vector3(0f, -Wall / 2f, 0f), new Vector3(Width + 2f * Wall, Wall, Depth + 2f * Wall));
            Box("Wall -x", new Vector3(-(Width + Wall) / 2f, Height / 2f, 0f), new Vector3(Wall, Height, Depth));
            Box("Wall +x", new Vector3((Width + Wall) / 2f, Height / 2f, 0f), new Vector3(Wall, Height, Depth));
            Box("Wall -z", new Vector3(0f, Height / 2f, -(Depth + Wall) / 2f), new Vector3(Width + 2f * Wall, Height, Wall));
            Box("Wall +z", new Vector3(0f, Height / 2f, (Depth + Wall) / 2f), new Vector3(Width + 2f * Wall, Height, Wall));

            // The water: 5 cm particles, 6000 of them (0.75 m³: 0.78 m deep once poured),
            // from a nozzle 1.6 m up facing down (+z of the emitter turned to -y).
            var waterObject = new GameObject("Water");
            waterObject.transform.position = new Vector3(-0.3f, 1.6f, 0f);
            waterObject.transform.rotation = Quaternion.Euler(90f, 0f, 0f);
            water = waterObject.AddComponent<SinewFluid>();
            water.world = world;
            water.spacing = 0.05f;
            water.capacity = 6000;
            water.restDensity = 1000f;
            water.viscosity = 0.02f;
            water.emitter = FluidEmitterKind.Nozzle;
            water.nozzleRadius = 0.12f; // 21 particles a disc: up to 2.5 m/s × 21 / 5 cm = 1050 particles/s
            water.rate = 1000f;
            water.speed = 2.5f;
            // Whatever spills over the walls falls into this box and is removed (a child
            // BoxCollider without SinewCollider is a kill volume).
            var drain = new GameObject("Drain");
            drain.transform.SetParent(waterObject.transform, false);
            drain.transform.position = new Vector3(0f, -1.5f, 0f);
            drain.transform.rotation = Quaternion.identity;
            drain.AddComponent<BoxCollider>().size = new Vector3(20f, 2f, 20f);

            // The ball: an icosphere pressure body (outward triangles), dropped into the tank.
            List<Vector3> vertices;
            List<int> triangles;
            Icosphere(2, BallRadius, out vertices, out triangles);
            Vector3 centre = new Vector3(0.3f, 1.0f, 0f);
            var placed = new Vector3[vertices.Count];
            for (int i = 0; i < placed.Length; i++)
                placed[i] = vertices[i] + centre;
            var settings = PressureBodySettings.Default;
            settings.TotalMass = BallMass;
            settings.StretchCompliance = 1e-5f;
            settings.Pressure = 1f;
            ball = world.World.AddPressureBody(settings, placed, triangles.ToArray());
            var radii = new float[ball.ParticleCount];
            for (int i = 0; i < radii.Length; i++)
                radii[i] = BallParticleRadius; // the radius the tank's colliders and the water see
            world.World.SetParticleRadii(ball.FirstParticle, radii);

            var ballObject = new GameObject("Ball");
            ballMesh = new Mesh();
            ballMesh.MarkDynamic();
            ballVertices = placed;
            ballMesh.vertices = ballVertices;
            ballMesh.triangles = triangles.ToArray();
            ballMesh.RecalculateNormals();
            ballObject.AddComponent<MeshFilter>().sharedMesh = ballMesh;
            ballObject.AddComponent<MeshRenderer>().sharedMaterial = new Material(Shader.Find("Standard"));
            coupling = ballObject.AddComponent<SinewFluidCoupling>();
            coupling.world = world;
            coupling.Attach(ball);

            var cam = Camera.main;
            if (cam != null)
            {
                cam.transform.position = new Vector3(0f, 1.6f, -2.6f);
                cam.transform.rotation = Quaternion.Euler(20f, 0f, 0f);
                cam.gameObject.AddComponent<SinewGrabber>().world = world;
            }
        }

        void Box(string name, Vector3 position, Vector3 size)
        {
            var box = GameObject.CreatePrimitive(PrimitiveType.Cube);
            box.name = name;
            box.transform.position = position;
            box.transform.localScale = size;
            var c = box.AddComponent<SinewCollider>();
            c.world = world;
            c.staticFriction = 0.2f;
            c.dynamicFriction = 0.1f;
        }

        void Update()
        {
            if (Input.GetKeyDown(KeyCode.Space))
                coupling.coupled = !coupling.coupled;
            if (Input.GetKeyDown(KeyCode.C))
                water.Clear();
        }

        void LateUpdate()
        {
            if (ball == null || ball.IsRemoved || ball.World.IsDisposed)
                return;
            ball.ReadInterpolatedPositions(world.InterpolationAlpha, ballVertices);
            ballMesh.vertices = ballVertices;
            ballMesh.RecalculateNormals();
            ballMesh.RecalculateBounds();
        }

        /// <summary>A sphere of radius <paramref name="r"/> (m) from an icosahedron
        /// subdivided <paramref name="levels"/> times (12, 42, 162, 642 vertices), its
        /// triangles wound with their normal (b − a) × (c − a) pointing out, as pressure
        /// bodies take them.</summary>
        static void Icosphere(int levels, float r, out List<Vector3> v, out List<int> t)
        {
            float g = (1f + Mathf.Sqrt(5f)) / 2f;
            v = new List<Vector3>
            {
                new Vector3(-1f, g, 0f), new Vector3(1f, g, 0f), new Vector3(-1f, -g, 0f), new Vector3(1f, -g, 0f),
                new Vector3(0f, -1f, g), new Vector3(0f, 1f, g), new Vector3(0f, -1f, -g), new Vector3(0f, 1f, -g),
                new Vector3(g, 0f, -1f), new Vector3(g, 0f, 1f), new Vector3(-g, 0f, -1f), new Vector3(-g, 0f, 1f),
            };
            for (int i = 0; i < v.Count; i++)
                v[i] = v[i].normalized;
            t = new List<int>
            {
                0, 11, 5, 0, 5, 1, 0, 1, 7, 0, 7, 10, 0, 10, 11, 1, 5, 9, 5, 11, 4, 11, 10, 2, 10, 7, 6, 7, 1, 8,
                3, 9, 4, 3, 4, 2, 3, 2, 6, 3, 6, 8, 3, 8, 9, 4, 9, 5, 2, 4, 11, 6, 2, 10, 8, 6, 7, 9, 8, 1,
            };
            for (int level = 0; level < levels; level++)
            {
                var mid = new Dictionary<long, int>();
                var next = new List<int>(t.Count * 4);
                var m = new int[3];
                for (int f = 0; f < t.Count; f += 3)
                {
                    for (int k = 0; k < 3; k++)
                    {
                        int a = t[f + k], b = t[f + (k + 1) % 3];
                        long key = a < b ? ((long)a << 32) | (uint)b : ((long)b << 32) | (uint)a;
                        int at;
                        if (!mid.TryGetValue(key, out at))
                        {
                            at = v.Count;
                            v.Add(((v[a] + v[b]) * 0.5f).normalized);
                            mid.Add(key, at);
                        }
                        m[k] = at;
                    }
                    next.AddRange(new[] { t[f], m[0], m[2], t[f + 1], m[1], m[0], t[f + 2], m[2], m[1], m[0], m[1], m[2] });
                }
                t = next;
            }
            for (int f = 0; f < t.Count; f += 3)
            {
                Vector3 a = v[t[f]], b = v[t[f + 1]], c = v[t[f + 2]];
                if (Vector3.Dot(Vector3.Cross(b - a, c - a), a + b + c) < 0f)
                {
                    int s = t[f + 1];
                    t[f + 1] = t[f + 2];
                    t[f + 2] = s;
                }
            }
            for (int i = 0; i < v.Count; i++)
                v[i] = v[i] * r;
        }
    }
}

// Sample: add this component to an empty GameObject in an empty scene and press Play.
// A capsule character walks, turns 180° in half a second, walks back and stops, in a
// gusting WindZone, wearing a cape: a SkinnedMeshRenderer (one bone, the capsule) with
// a SinewSkinnedCloth. The cape's vertex colours paint the weights: red (max distance)
// 0 on the shoulders growing to 1 at the hem, green (backstop) 1 everywhere.

using Sinew.Unity;
using UnityEngine;

namespace Sinew.Samples
{
    public sealed class CharacterCapeDemo : MonoBehaviour
    {
        const int Columns = 9;
        const int Rows = 12;
        const float Width = 0.7f;
        const float Length = 1.1f;

        Transform character;
        WindZone gust;
        float heading;

        void Start()
        {
            var worldObject = new GameObject("Sinew World");
            var world = worldObject.AddComponent<SinewWorldBehaviour>();
            world.substeps = 16;

            var body = GameObject.CreatePrimitive(PrimitiveType.Capsule); // 2 m tall, radius 0.5
            body.name = "Character";
            body.transform.localScale = new Vector3(0.6f, 0.9f, 0.6f);
            body.transform.position = new Vector3(0f, 0.9f, 0f);
            character = body.transform;

            // The cape hangs from the shoulders (0.3 m behind the centre line, 1.5 m high).
            var capeObject = new GameObject("Cape");
            capeObject.transform.SetParent(character, false);
            var mesh = new Mesh();
            var vertices = new Vector3[Columns * Rows];
            var colors = new Color[vertices.Length];
            var weights = new BoneWeight[vertices.Length];
            for (int j = 0; j < Rows; j++)
                for (int i = 0; i < Columns; i++)
                {
                    int k = j * Columns + i;
                    float u = i / (float)(Columns - 1), v = j / (float)(Rows - 1);
                    // Local to the (scaled) capsule: world offset / scale.
                    vertices[k] = new Vector3((u - 0.5f) * Width / 0.6f, (0.65f - v * Length) / 0.9f, -0.32f / 0.6f);
                    colors[k] = new Color(v, 1f, 0f, 1f);
                    weights[k] = new BoneWeight { boneIndex0 = 0, weight0 = 1f };
                }
            var triangles = new int[(Columns - 1) * (Rows - 1) * 6];
            int t = 0;
            for (int j = 0; j + 1 < Rows; j++)
                for (int i = 0; i + 1 < Columns; i++)
                {
                    int a = j * Columns + i;
                    triangles[t++] = a; triangles[t++] = a + 1; triangles[t++] = a + Columns;
                    triangles[t++] = a + 1; triangles[t++] = a + Columns + 1; triangles[t++] = a + Columns;
                }
            mesh.vertices = vertices;
            mesh.triangles = triangles;
            mesh.colors = colors;
            mesh.boneWeights = weights;
            mesh.bindposes = new[] { character.worldToLocalMatrix * character.localToWorldMatrix };
            mesh.RecalculateNormals();
            var skin = capeObject.AddComponent<SkinnedMeshRenderer>();
            skin.sharedMesh = mesh;
            skin.bones = new[] { character };
            skin.rootBone = character;
            skin.sharedMaterial = new Material(Shader.Find("Standard"));
            var cape = capeObject.AddComponent<SinewSkinnedCloth>();
            cape.world = world;
            cape.massKg = 0.4f;
            cape.maxDistance = 0.6f;
            cape.backstopRadius = 0.3f;
            cape.root = character;
            cape.linearInertia = 0.3f;
            cape.angularInertia = 0.3f;

            gust = new GameObject("Gust").AddComponent<WindZone>();
            gust.mode = WindZoneMode.Directional;
            gust.transform.rotation = Quaternion.Euler(0f, 90f, 0f); // blowing along +x
            gust.windTurbulence = 0.5f;
        }

        void Update()
        {
            // 0-2 s walk along +z at 1.5 m/s, 2-2.5 s turn 180°, 2.5-4.5 s walk back, stop.
            float t = Time.time % 8f;
            float speed = t < 2f || (t > 2.5f && t < 4.5f) ? 1.5f : 0f;
            heading = 180f * Mathf.Clamp01((t - 2f) / 0.5f);
            character.rotation = Quaternion.Euler(0f, heading, 0f);
            character.position += character.rotation * new Vector3(0f, 0f, speed * Time.deltaTime);
            // A gust from 5 s to 7 s.
            gust.windMain = t > 5f && t < 7f ? 3f : 0.2f;
        }
    }
}

// SinewCollider on a MeshCollider (a signed distance field baked by the library): a closed
// cube's field is baked once and shared by two colliders of the same mesh, a cloth dropped
// on it comes to rest on its top face, a change of cell size bakes and re-adds the field,
// an open mesh is refused with the library's message and nothing breaks (the preview runs
// on; in Play mode the component turns itself off as for a missing collider), and with a
// Rigidbody and SinewRigidbodyCoupling the field is two-way like the other shapes (the
// body gets the weight of the cloth on it). Driven through the edit-mode preview and, for
// Play mode, OnEnable / Start / OnDisable and the world's step as Unity calls them.

using System;
using System.Reflection;
using Sinew;
using Sinew.Unity;
using UnityEngine;

static class MeshColliderCheck
{
    static void Check(bool ok, string what)
    {
        Checks.Check(ok, what);
    }

    static void Call(object target, string method)
    {
        target.GetType().GetMethod(method, BindingFlags.NonPublic | BindingFlags.Instance).Invoke(target, null);
    }

    static SinewCollider MeshCollider(string name, Mesh mesh, Vector3 position)
    {
        var go = new GameObject(name);
        go.transform.position = position;
        go.AddComponent<MeshCollider>().sharedMesh = mesh;
        return go.AddComponent<SinewCollider>();
    }

    internal static void Run()
    {
        foreach (UnityEngine.Object o in UnityEngine.Object.FindObjectsOfType<UnityEngine.Object>())
            UnityEngine.Object.DestroyImmediate(o); // the previous check's scene
        int baseline = World.LiveCount;

        var world = new GameObject("World").AddComponent<SinewWorldBehaviour>();
        world.previewInEditMode = true;
        world.threads = 1;
        Mesh cube = PreviewCheck.Cube(0.5f, new Vector3(0f, 0f, 0f));
        SinewCollider a = MeshCollider("A", cube, new Vector3(0f, 0f, 0f));
        SinewCollider b = MeshCollider("B", cube, new Vector3(3f, 0f, 0f));
        var openMesh = new Mesh { vertices = cube.vertices, triangles = new int[33] };
        Array.Copy(cube.triangles, openMesh.triangles, 33); // the last triangle missing
        SinewCollider open = MeshCollider("Open", openMesh, new Vector3(-3f, 0f, 0f));
        var clothObject = new GameObject("Cloth");
        clothObject.AddComponent<MeshFilter>().sharedMesh = PreviewCheck.Grid(8, 0.6f, new Vector3(-0.3f, 1f, -0.3f));
        clothObject.AddComponent<MeshRenderer>();
        SinewCloth cloth = clothObject.AddComponent<SinewCloth>();

        world.PreviewPlay();
        Check(a.Handle.id != 0 && b.Handle.id != 0 && a.Sdf != null, "closed MeshColliders are registered as distance fields");
        Check(ReferenceEquals(a.Sdf, b.Sdf), "one mesh, scale and cell size: baked once, the field shared");
        Check(a.Sdf != null && a.Sdf.CellSize == 0.05f, "the field has the default cell size");
        Check(open.Handle.id == 0 && !string.IsNullOrEmpty(open.MeshError) && open.MeshError.Contains("edge"),
              "an open mesh is refused naming its edge (" + open.MeshError + ")");
        Check(open.enabled, "the preview leaves the refused collider's enabled flag alone");
        Check(world.PreviewedCount == 3, "the preview runs on without the open mesh (" + world.PreviewedCount + " previewed)");
        for (int i = 0; i < 60; i++)
            world.PreviewStep();
        var v = new Vector3[cloth.Cloth.ParticleCount];
        cloth.Cloth.ReadVertices(v);
        Vector3 centre = v[4 * 9 + 4];
        float restY = centre.y;
        string dims = a.Sdf.Nx + " x " + a.Sdf.Ny + " x " + a.Sdf.Nz;
        string openError = open.MeshError;
        Check(centre.y > 0.45f && centre.y < 0.56f, "the cloth rests on the cube's top face (centre at y = " + centre.y + ")");

        a.sdfCellSize = 0.1f;
        world.PreviewStep();
        Check(a.Handle.id != 0 && a.Sdf != null && a.Sdf.CellSize == 0.1f && !ReferenceEquals(a.Sdf, b.Sdf),
              "a new cell size bakes a new field and re-adds the collider");
        world.PreviewStop();
        Check(World.LiveCount == baseline && a.Handle.id == 0 && a.Sdf == null, "the preview's end removes the fields' colliders");

        // Play mode: OnEnable registers, OnDisable removes; an open mesh turns the component off.
        a.world = world;
        open.world = world;
        Call(a, "OnEnable");
        Check(a.Handle.id != 0 && a.Owner != null && a.Sdf != null, "Play mode: OnEnable registers the field");
        Call(open, "OnEnable");
        Check(open.Handle.id == 0 && !open.enabled, "Play mode: an open mesh turns the component off");

        // Two-way, as the other shapes: with a Rigidbody and a SinewRigidbodyCoupling the
        // field collider is dynamic, and the body gets the weight of a cloth lying on it.
        var body = a.gameObject.AddComponent<Rigidbody>();
        body.mass = 10f;
        body.inertiaTensor = new Vector3(1.6f, 1.6f, 1.6f);
        body.inertiaTensorRotation = Quaternion.identity;
        body.rotation = Quaternion.identity;
        var coupling = a.gameObject.AddComponent<SinewRigidbodyCoupling>();
        Call(coupling, "OnEnable");
        Call(cloth, "Start");
        MethodInfo step = typeof(SinewWorldBehaviour).GetMethod("StepOnce", BindingFlags.NonPublic | BindingFlags.Instance);
        for (int i = 0; i < 100; i++)
            step.Invoke(world, new object[] { 0.02f });
        float weight = cloth.massKg * 9.81f;
        Check(coupling.enabled && Math.Abs(body.StubLastForce.y + weight) < 0.05f * weight,
              "Play mode: the coupled body gets the cloth's weight, " + body.StubLastForce.y.ToString("0.000") + " N (-" +
              weight.ToString("0.000") + ")");
        string pulled = body.StubLastForce.y.ToString("0.000") + " N on the coupled body (cloth weight " +
                        weight.ToString("0.000") + " N)";
        Call(coupling, "OnDisable");
        Call(cloth, "OnDestroy");
        Call(a, "OnDisable");
        Check(a.Handle.id == 0 && a.Owner == null, "Play mode: OnDisable removes it");
        Call(world, "OnDestroy");
        Check(World.LiveCount == baseline, "no native world left");
        Console.WriteLine("MeshCollider distance fields: baked once and shared; a cloth dropped on a 1 m cube rests at y = " +
                          restY.ToString("0.0000") + " (top face 0.5), its field " + dims + " nodes; " + pulled + "; open mesh: " + openError);
    }
}

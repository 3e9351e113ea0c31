// Drives the Unity package's edit-mode preview (SinewWorldBehaviour.Preview.cs) on Mono
// through the editor events of the compile stub (tests/csharp/UnityStubs), as the editor
// would: a scene of a world, a rope, a cloth, a soft body and a collider; Play, steps, then
// each way a preview must end (before a script reload, a play-mode change, a scene
// closing, OnDisable, the component disabled, Preview In Edit Mode unticked, Stop). After
// each: no native world left (World.LiveCount), no body on any component, every object the
// preview made destroyed, the editor callbacks unhooked, and no serialized field, mesh or
// renderer flag of the scene changed. Also checks the motion vectors: UV channel 5 of the
// drawn mesh is this frame's vertices minus the last frame's. Run by Checks.cs (built and
// run by tests/csharp/run.sh).

using System;
using System.Collections.Generic;
using System.Reflection;
using System.Text;
using Sinew;
using Sinew.Unity;
using UnityEditor;
using UnityEngine;

static class PreviewCheck
{
    static void Check(bool ok, string what)
    {
        Checks.Check(ok, what);
    }

    static SinewWorldBehaviour world;
    static SinewRope rope;
    static SinewCloth cloth;
    static SinewSoftBody soft;
    static SinewCollider collider;
    static MeshFilter clothFilter, softFilter;
    static LineRenderer line;
    static MeshRenderer clothRenderer;

    // n x n quads of a size x size square, corner at `corner`, in the XZ plane.
    internal static Mesh Grid(int n, float size, Vector3 corner)
    {
        var v = new Vector3[(n + 1) * (n + 1)];
        for (int j = 0; j <= n; j++)
            for (int i = 0; i <= n; i++)
                v[j * (n + 1) + i] = corner + new Vector3(size * i / n, 0f, size * j / n);
        var t = new List<int>();
        for (int j = 0; j < n; j++)
            for (int i = 0; i < n; i++)
            {
                int a = j * (n + 1) + i, b = a + 1, c = a + n + 1, d = c + 1;
                t.AddRange(new[] { a, c, b, b, c, d });
            }
        return new Mesh { vertices = v, triangles = t.ToArray() };
    }

    // A closed cube of half size h around `centre` (8 welded vertices).
    internal static Mesh Cube(float h, Vector3 centre)
    {
        var v = new Vector3[8];
        for (int k = 0; k < 8; k++)
            v[k] = centre + new Vector3((k & 1) != 0 ? h : -h, (k & 2) != 0 ? h : -h, (k & 4) != 0 ? h : -h);
        // Counter-clockwise seen from outside.
        int[] t = { 0, 2, 1, 1, 2, 3, 4, 5, 6, 5, 7, 6, 0, 1, 4, 1, 5, 4, 2, 6, 3, 3, 6, 7, 0, 4, 2, 2, 4, 6, 1, 3, 5, 3, 7, 5 };
        return new Mesh { vertices = v, triangles = t };
    }

    static void BuildScene()
    {
        world = new GameObject("World").AddComponent<SinewWorldBehaviour>();
        world.previewInEditMode = true;
        world.threads = 1;
        var a = new GameObject("A");
        a.transform.position = new Vector3(0f, 2f, 0f);
        var b = new GameObject("B");
        b.transform.position = new Vector3(1f, 2f, 0f);
        var ropeObject = new GameObject("Rope");
        line = ropeObject.AddComponent<LineRenderer>();
        rope = ropeObject.AddComponent<SinewRope>();
        rope.start = a.transform;
        rope.end = b.transform;
        rope.segments = 10;
        rope.motionVectors = true;
        var clothObject = new GameObject("Cloth");
        clothFilter = clothObject.AddComponent<MeshFilter>();
        clothFilter.sharedMesh = Grid(4, 1f, new Vector3(0f, 2f, 0f));
        clothRenderer = clothObject.AddComponent<MeshRenderer>();
        cloth = clothObject.AddComponent<SinewCloth>();
        cloth.pins = new[] { a.transform };
        cloth.motionVectors = true;
        var softObject = new GameObject("Soft");
        softFilter = softObject.AddComponent<MeshFilter>();
        softFilter.sharedMesh = Cube(0.2f, new Vector3(0f, 1f, 0f));
        softObject.AddComponent<MeshRenderer>();
        soft = softObject.AddComponent<SinewSoftBody>();
        var ball = new GameObject("Ball");
        ball.transform.position = new Vector3(0.5f, 1f, 0.5f);
        ball.AddComponent<SphereCollider>().radius = 0.3f;
        collider = ball.AddComponent<SinewCollider>();
    }

    // What the scene would save: every public field of the components (Unity serializes
    // them), the enabled flags, the meshes' vertices, the renderers' flags.
    static string Saved()
    {
        var sb = new StringBuilder();
        foreach (MonoBehaviour c in new MonoBehaviour[] { world, rope, cloth, soft, collider })
        {
            sb.Append(c.GetType().Name).Append(" enabled=").Append(c.enabled).Append('\n');
            foreach (FieldInfo f in c.GetType().GetFields(BindingFlags.Public | BindingFlags.Instance))
                sb.Append("  ").Append(f.Name).Append('=').Append(Show(f.GetValue(c))).Append('\n');
        }
        foreach (MeshFilter f in new[] { clothFilter, softFilter })
        {
            sb.Append("filter mesh=").Append(Show(f.sharedMesh)).Append(" instance=").Append(Show(f.mesh)).Append('\n');
            sb.Append("  vertices=").Append(Show(f.sharedMesh.vertices)).Append('\n');
        }
        foreach (Renderer r in new Renderer[] { line, clothRenderer })
            sb.Append(r.GetType().Name).Append(" enabled=").Append(r.enabled).Append(" off=").Append(r.forceRenderingOff)
              .Append(" motion=").Append(r.motionVectorGenerationMode).Append('\n');
        sb.Append("line positions=").Append(line.positionCount).Append(" world=").Append(line.useWorldSpace).Append('\n');
        return sb.ToString();
    }

    static string Show(object v)
    {
        if (v == null)
            return "null";
        if (v is UnityEngine.Object)
            return v.GetType().Name + "#" + System.Runtime.CompilerServices.RuntimeHelpers.GetHashCode(v);
        var array = v as Array;
        if (array != null)
        {
            var sb = new StringBuilder("[");
            foreach (object e in array)
                sb.Append(Show(e)).Append(',');
            return sb.Append(']').ToString();
        }
        if (v is Vector3)
        {
            var p = (Vector3)v;
            return "(" + p.x.ToString("R") + "," + p.y.ToString("R") + "," + p.z.ToString("R") + ")";
        }
        return v.ToString();
    }

    static int Subscribers(Type type, string name)
    {
        FieldInfo f = type.GetField(name, BindingFlags.Public | BindingFlags.NonPublic | BindingFlags.Static);
        var d = (Delegate)f.GetValue(null);
        return d == null ? 0 : d.GetInvocationList().Length;
    }

    static void Raise(Type type, string name, params object[] args)
    {
        FieldInfo f = type.GetField(name, BindingFlags.Public | BindingFlags.NonPublic | BindingFlags.Static);
        var d = (Delegate)f.GetValue(null);
        if (d != null)
            d.DynamicInvoke(args);
    }

    static void Tick()
    {
        if (EditorApplication.update != null)
            EditorApplication.update();
    }

    static HashSet<UnityEngine.Object> Objects()
    {
        return new HashSet<UnityEngine.Object>(UnityEngine.Object.FindObjectsOfType<UnityEngine.Object>());
    }

    static void MotionVectors(string objectName, string what)
    {
        GameObject drawn = null;
        foreach (GameObject g in UnityEngine.Object.FindObjectsOfType<GameObject>())
            if (g.name == objectName)
                drawn = g;
        Check(drawn != null, what + " draws into a preview object");
        if (drawn == null)
            return;
        Check(drawn.GetComponent<MeshRenderer>().motionVectorGenerationMode == MotionVectorGenerationMode.Object,
              what + ": its renderer draws per-object motion vectors");
        Mesh mesh = drawn.GetComponent<MeshFilter>().sharedMesh;
        Vector3[] previous = mesh.vertices;
        world.PreviewStep();
        Vector3[] current = mesh.vertices;
        Vector3[] uv5 = mesh.StubUVs3(SinewMotionVectors.Channel);
        Check(uv5 != null && uv5.Length == current.Length, what + " writes UV channel 5");
        bool exact = uv5 != null && uv5.Length == current.Length, moved = false;
        for (int i = 0; exact && i < current.Length; i++)
        {
            Vector3 d = current[i] - previous[i];
            exact = uv5[i].x == d.x && uv5[i].y == d.y && uv5[i].z == d.z;
            moved |= d.y != 0f;
        }
        Check(exact, what + ": UV channel 5 is exactly the vertices' motion since the last frame");
        Check(moved, what + " moved between the two frames");
    }

    // Play, a few steps, then `end`; everything must be gone after it.
    static void Lifecycle(string how, Action end, int baselineWorlds, HashSet<UnityEngine.Object> before, string saved)
    {
        world.PreviewPlay();
        Check(world.IsPreviewing, how + ": the preview started");
        Check(World.LiveCount == baselineWorlds + 1, how + ": one preview world (" + World.LiveCount + ")");
        Check(world.PreviewedCount == 4, how + ": rope, cloth, soft body and collider previewed (" + world.PreviewedCount + ")");
        Check(rope.Rope != null && cloth.Cloth != null && soft.SoftBody != null && collider.Handle.id != 0,
              how + ": every component built");
        foreach (UnityEngine.Object o in Objects())
            if (!before.Contains(o))
                Check((o.hideFlags & HideFlags.DontSave) == HideFlags.DontSave,
                      how + ": " + o.GetType().Name + " '" + o.name + "' made by the preview is DontSave (" + o.hideFlags + ")");
        Check(line.forceRenderingOff && clothRenderer.forceRenderingOff, how + ": the scene's renderers hidden while previewing");
        for (int i = 0; i < 5; i++)
            world.PreviewStep();
        end();
        Check(!world.IsPreviewing, how + ": the preview stopped");
        Check(World.LiveCount == baselineWorlds, how + ": no native world left (" + World.LiveCount + " live)");
        Check(!world.HasWorld, how + ": the behaviour holds no world");
        Check(rope.Rope == null && cloth.Cloth == null && soft.SoftBody == null && collider.Handle.id == 0,
              how + ": no component holds a body or collider");
        var after = Objects();
        after.ExceptWith(before);
        Check(after.Count == 0, how + ": " + after.Count + " objects made by the preview left");
        Check(Subscribers(typeof(EditorApplication), "update") == 0 &&
              Subscribers(typeof(EditorApplication), "playModeStateChanged") == 0 &&
              Subscribers(typeof(AssemblyReloadEvents), "beforeAssemblyReload") == 0 &&
              Subscribers(typeof(UnityEditor.SceneManagement.EditorSceneManager), "sceneClosing") == 0,
              how + ": the editor callbacks are unhooked");
        string now = Saved();
        Check(now == saved, how + ": the scene's serialized state changed:\n" + saved + "---\n" + now);
    }

    internal static void Run()
    {
        BuildScene();
        int baseline = World.LiveCount;
        HashSet<UnityEngine.Object> before = Objects();
        string saved = Saved();

        // Steps move the bodies; the update callback steps by real time.
        world.PreviewPlay();
        Vector3[] start = new Vector3[rope.Rope.ParticleCount];
        rope.Rope.ReadPositions(start);
        for (int i = 0; i < 20; i++)
            world.PreviewStep();
        Check(world.PreviewStepCount == 20, "20 steps taken (" + world.PreviewStepCount + ")");
        Vector3[] now = new Vector3[start.Length];
        rope.Rope.ReadPositions(now);
        Check(now[now.Length - 1].y < start[start.Length - 1].y - 0.01f, "the rope's free end fell");
        int counted = world.PreviewStepCount;
        for (int i = 0; i < 4; i++)
        {
            System.Threading.Thread.Sleep(30);
            Tick();
        }
        Check(world.PreviewStepCount > counted, "EditorApplication.update steps the preview by real time");

        // Motion vectors: channel 5 = this frame's vertices - the last frame's, for the
        // cloth (local space) and the rope's tube (world space); renderers per-object.
        MotionVectors("Cloth (Sinew preview)", "the cloth");
        MotionVectors("Rope (Sinew rope tube)", "the rope's tube");
        world.PreviewStop();
        Check(World.LiveCount == baseline && !world.IsPreviewing, "Stop releases the world");
        Check(Saved() == saved, "Stop: the scene's serialized state is unchanged");

        Lifecycle("before a script reload", () => Raise(typeof(AssemblyReloadEvents), "beforeAssemblyReload"), baseline, before, saved);
        Lifecycle("entering Play mode", () => Raise(typeof(EditorApplication), "playModeStateChanged", PlayModeStateChange.ExitingEditMode),
                  baseline, before, saved);
        Lifecycle("a scene closing", () => Raise(typeof(UnityEditor.SceneManagement.EditorSceneManager), "sceneClosing",
                  default(UnityEngine.SceneManagement.Scene), true), baseline, before, saved);
        Lifecycle("OnDisable", () => typeof(SinewWorldBehaviour).GetMethod("OnDisable", BindingFlags.NonPublic | BindingFlags.Instance)
                  .Invoke(world, null), baseline, before, saved);
        Lifecycle("OnDestroy", () => typeof(SinewWorldBehaviour).GetMethod("OnDestroy", BindingFlags.NonPublic | BindingFlags.Instance)
                  .Invoke(world, null), baseline, before, saved);
        Lifecycle("Preview In Edit Mode unticked", () => { world.previewInEditMode = false; Tick(); world.previewInEditMode = true; },
                  baseline, before, saved);
        Lifecycle("the world disabled", () => { world.enabled = false; Tick(); world.enabled = true; }, baseline, before, saved);
        Lifecycle("Reset then Stop", () => { world.PreviewReset(); world.PreviewStop(); }, baseline, before, saved);

        // A body disabled while previewing leaves the preview at the next tick; the rest runs on.
        world.PreviewPlay();
        rope.enabled = false;
        Tick();
        Check(world.IsPreviewing && rope.Rope == null && cloth.Cloth != null && world.PreviewedCount == 3,
              "a rope disabled while previewing is removed, the preview runs on");
        rope.enabled = true;
        world.PreviewStop();
        Check(World.LiveCount == baseline, "no native world left at the end");

        Console.WriteLine("edit-mode preview: every way out checked (world, bodies, objects, callbacks, scene); motion vectors checked");
    }
}

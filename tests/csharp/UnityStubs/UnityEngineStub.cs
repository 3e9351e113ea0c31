// COMPILE-CHECK STUB, NOT SHIPPED, NOT UNITY: the handful of UnityEngine / UnityEditor /
// Unity.Collections signatures that unity-sample's scripts use, with empty bodies, so that
// tests/csharp/run.sh can compile those scripts with mcs and catch syntax and type
// errors without a Unity installation. Signatures follow the Unity 2021.3 scripting API.
// Almost nothing here runs: the few bodies that do (GameObject's component list,
// FindObjectsOfType over live objects, DestroyImmediate, Mesh's stored arrays, NativeArray
// over unmanaged memory, Vector3's arithmetic, the editor events) are there so that the
// component checks (tests/csharp/UnityComponents) can drive the package's components
// on Mono as the editor would.

using System;

namespace UnityEngine
{
    [Flags]
    public enum HideFlags { None = 0, HideInHierarchy = 1, HideInInspector = 2, DontSaveInEditor = 4, NotEditable = 8,
                            DontSaveInBuild = 16, DontUnloadUnusedAsset = 32, DontSave = 52, HideAndDontSave = 61 }

    public class Object
    {
        // Every object not yet destroyed, for FindObjectsOfType (the stub's scene).
        static readonly System.Collections.Generic.List<Object> live = new System.Collections.Generic.List<Object>();
        public Object() { live.Add(this); }
        string nameValue;
        HideFlags flags;
        // A component's name is its GameObject's, as in Unity.
        public string name
        {
            get { var c = this as Component; return c != null && c.owner != null ? c.owner.name : nameValue; }
            set { nameValue = value; }
        }
        // A GameObject's flags reach its components, as in Unity.
        public HideFlags hideFlags
        {
            get { return flags; }
            set
            {
                flags = value;
                var go = this as GameObject;
                if (go != null)
                    foreach (var c in go.components)
                        c.hideFlags = value;
            }
        }
        public static void Destroy(Object obj) { DestroyImmediate(obj); }
        public static void DestroyImmediate(Object obj)
        {
            if (obj == null)
                return;
            live.Remove(obj);
            var go = obj as GameObject;
            if (go != null)
                foreach (var c in go.components.ToArray())
                    DestroyImmediate(c);
        }
        public static T Instantiate<T>(T original) where T : Object
        {
            var copy = (T)original.MemberwiseClone();
            live.Add(copy);
            return copy;
        }
        public static T FindObjectOfType<T>() where T : Object { var all = FindObjectsOfType<T>(); return all.Length > 0 ? all[0] : null; }
        public static T FindFirstObjectByType<T>() where T : Object { return FindObjectOfType<T>(); }
        public static T[] FindObjectsOfType<T>() where T : Object
        {
            var found = new System.Collections.Generic.List<T>();
            foreach (var o in live)
                if (o is T)
                    found.Add((T)o);
            return found.ToArray();
        }
        public static T[] FindObjectsByType<T>(FindObjectsSortMode mode) where T : Object { return FindObjectsOfType<T>(); }
        public static implicit operator bool(Object o) { return o != null; }
    }

    public class Component : Object
    {
        internal GameObject owner;
        public Transform transform { get { return owner != null ? owner.transform : null; } }
        public GameObject gameObject { get { return owner; } }
        public T GetComponent<T>() { return owner != null ? owner.GetComponent<T>() : default(T); }
        public T GetComponentInParent<T>() { return GetComponent<T>(); }
        public T[] GetComponentsInChildren<T>(bool includeInactive) { return new T[0]; }
    }

    public class Behaviour : Component
    {
        public bool enabled { get; set; } = true;
        public bool isActiveAndEnabled { get { return enabled; } }
    }

    public class MonoBehaviour : Behaviour { }

    public sealed class GameObject : Object
    {
        internal readonly System.Collections.Generic.List<Component> components = new System.Collections.Generic.List<Component>();
        readonly Transform t;
        public GameObject(string name)
        {
            this.name = name;
            t = new Transform();
            t.owner = this;
            components.Add(t);
        }
        public void SetActive(bool value) { activeSelf = value; }
        public bool activeSelf { get; private set; } = true;
        public Transform transform { get { return t; } }
        public T AddComponent<T>() where T : Component
        {
            var c = Activator.CreateInstance<T>();
            c.owner = this;
            components.Add(c);
            return c;
        }
        public T GetComponent<T>()
        {
            foreach (var c in components)
                if (c is T)
                    return (T)(object)c;
            return default(T);
        }
        public int layer { get; set; }
        public SceneManagement.Scene scene { get { return default(SceneManagement.Scene); } }
        public static GameObject CreatePrimitive(PrimitiveType type) { return null; }
    }

    public enum FindObjectsSortMode { None, InstanceID }

    public enum PrimitiveType { Sphere, Capsule, Cylinder, Cube, Plane, Quad }

    public class Transform : Component
    {
        public Vector3 position { get; set; }
        public Vector3 localScale { get; set; } = new Vector3(1f, 1f, 1f);
        public Quaternion rotation { get; set; } = new Quaternion(0f, 0f, 0f, 1f);
        public Vector3 lossyScale { get { return localScale; } }
        public Vector3 forward { get { return default(Vector3); } }
        public Matrix4x4 worldToLocalMatrix { get { return default(Matrix4x4); } }
        public Matrix4x4 localToWorldMatrix { get { return default(Matrix4x4); } }
        public Vector3 localPosition { get; set; }
        public Quaternion localRotation { get; set; }
        public Transform parent { get { return null; } }
        public void SetParent(Transform parent, bool worldPositionStays) { }
        public void SetPositionAndRotation(Vector3 position, Quaternion rotation) { this.position = position; this.rotation = rotation; }
        public Vector3 TransformPoint(Vector3 p) { return p; }
    }

    public struct Vector3
    {
        public float x, y, z;
        public Vector3(float x, float y, float z) { this.x = x; this.y = y; this.z = z; }
        public static Vector3 operator +(Vector3 a, Vector3 b) { return new Vector3(a.x + b.x, a.y + b.y, a.z + b.z); }
        public static Vector3 operator -(Vector3 a, Vector3 b) { return new Vector3(a.x - b.x, a.y - b.y, a.z - b.z); }
        public static Vector3 operator *(Vector3 a, float s) { return new Vector3(a.x * s, a.y * s, a.z * s); }
        public static Vector3 zero { get { return default(Vector3); } }
        public Vector3 normalized { get { return this; } }
        public static Vector3 Cross(Vector3 a, Vector3 b) { return a; }
        public static float Dot(Vector3 a, Vector3 b) { return 0f; }
        public static float Distance(Vector3 a, Vector3 b) { return 0f; }
    }

    public struct Vector4
    {
        public float x, y, z, w;
        public Vector4(float x, float y, float z, float w) { this.x = x; this.y = y; this.z = z; this.w = w; }
        public static Vector4 operator +(Vector4 a, Vector4 b) { return a; }
        public static Vector4 operator -(Vector4 a, Vector4 b) { return a; }
        public static Vector4 operator *(Vector4 a, float s) { return a; }
    }

    public struct Quaternion
    {
        public float x, y, z, w;
        public Quaternion(float x, float y, float z, float w) { this.x = x; this.y = y; this.z = z; this.w = w; }
        public static Quaternion Euler(float x, float y, float z) { return default(Quaternion); }
        public static Quaternion identity { get { return new Quaternion(0f, 0f, 0f, 1f); } }
        public static Vector3 operator *(Quaternion q, Vector3 v) { return v; }
        public static Quaternion operator *(Quaternion a, Quaternion b) { return a; }
        public static Quaternion Inverse(Quaternion q) { return q; }
    }

    public enum ForceMode { Force, Acceleration, Impulse, VelocityChange }

    public sealed class Rigidbody : Component
    {
        public float mass { get; set; }
        public Vector3 inertiaTensor { get; set; }
        public Quaternion inertiaTensorRotation { get; set; }
        public Vector3 worldCenterOfMass { get { return default(Vector3); } }
        public Vector3 velocity { get; set; }
        public Vector3 angularVelocity { get; set; }
        public Quaternion rotation { get; set; }
        public bool isKinematic { get; set; }
        // The stub keeps the last force, so that a check can read it back.
        public Vector3 StubLastForce;
        public void AddForce(Vector3 force, ForceMode mode) { StubLastForce = force; }
        public void AddTorque(Vector3 torque, ForceMode mode) { }
    }

    public struct Ray
    {
        public Vector3 origin { get { return default(Vector3); } }
        public Vector3 direction { get { return default(Vector3); } }
        public Vector3 GetPoint(float distance) { return default(Vector3); }
    }

    public sealed class Camera : Behaviour
    {
        public static Camera main { get { return null; } }
        public Ray ScreenPointToRay(Vector3 pos) { return default(Ray); }
    }

    public static class Input
    {
        public static Vector3 mousePosition { get { return default(Vector3); } }
        public static bool GetMouseButton(int button) { return false; }
        public static bool GetMouseButtonDown(int button) { return false; }
        public static bool GetMouseButtonUp(int button) { return false; }
        public static bool GetKeyDown(KeyCode key) { return false; }
    }

    public enum KeyCode { None = 0, Backspace = 8, Space = 32, C = 99, R = 114 }

    public struct Matrix4x4
    {
        public float m00, m10, m20, m30, m01, m11, m21, m31, m02, m12, m22, m32, m03, m13, m23, m33;
        public static Matrix4x4 identity { get { return default(Matrix4x4); } }
        public Vector3 MultiplyPoint3x4(Vector3 p) { return p; }
        public Vector3 MultiplyVector(Vector3 v) { return v; }
        public static Matrix4x4 operator *(Matrix4x4 a, Matrix4x4 b) { return a; }
    }

    public static class Time
    {
        public static float fixedDeltaTime { get { return 0.02f; } }
        public static float deltaTime { get { return 0.02f; } }
        public static float time { get { return 0f; } }
        public static float fixedTime { get { return 0f; } }
    }

    public static class Mathf
    {
        public static float Sin(float f) { return f; }
        public static float Cos(float f) { return f; }
        public const float PI = 3.14159274f;
        public static float Sqrt(float f) { return f; }
        public static float Clamp01(float f) { return f; }
        public static int Clamp(int value, int min, int max) { return value < min ? min : value > max ? max : value; }
        public static float SmoothStep(float a, float b, float t) { return a; }
        public static float Min(float a, float b) { return a < b ? a : b; }
        public static int Max(int a, int b) { return a > b ? a : b; }
        public static int Min(int a, int b) { return a < b ? a : b; }
        public static int RoundToInt(float f) { return (int)f; }
    }

    public static class Debug
    {
        public static void LogError(object message, Object context) { }
        public static void Log(object message) { }
        public static void Log(object message, Object context) { }
    }

    public static class Application
    {
        public static event Action quitting;
        public static bool isPlaying { get { return false; } }
    }

    public class Collider : Component
    {
        public bool enabled { get; set; }
    }

    public sealed class SphereCollider : Collider
    {
        public Vector3 center { get; set; }
        public float radius { get; set; }
    }

    public sealed class CapsuleCollider : Collider
    {
        public Vector3 center { get; set; }
        public float radius { get; set; }
        public float height { get; set; }
        public int direction { get; set; }
    }

    public sealed class BoxCollider : Collider
    {
        public Vector3 center { get; set; }
        public Vector3 size { get; set; }
    }

    public sealed class MeshCollider : Collider
    {
        public Mesh sharedMesh { get; set; }
        public bool convex { get; set; }
    }

    public sealed class TerrainData : Object
    {
        public int heightmapResolution { get; set; }
        public int holesResolution { get { return 0; } }
        public Vector3 size { get; set; }
        public float[,] GetHeights(int xBase, int yBase, int width, int height) { return new float[height, width]; }
        public bool[,] GetHoles(int xBase, int yBase, int width, int height) { return new bool[height, width]; }
    }

    public sealed class TerrainCollider : Collider
    {
        public TerrainData terrainData { get; set; }
    }

    public sealed class Terrain : Behaviour
    {
        public TerrainData terrainData { get; set; }
        public Vector3 GetPosition() { return default(Vector3); }
    }

    // Unity's own cloth component: here so that the compile check proves the package's
    // scripts resolve `Cloth` to Sinew.Cloth, not to this.
    public sealed class Cloth : Component { }

    public sealed class Shader : Object
    {
        public static Shader Find(string name) { return null; }
        public static int PropertyToID(string name) { return 0; }
    }

    public class Material : Object
    {
        public Material(Shader shader) { }
        public bool enableInstancing { get; set; }
    }

    public sealed class MaterialPropertyBlock
    {
        public void SetVectorArray(int nameID, Vector4[] values) { }
    }

    public static class Graphics
    {
        public static void DrawMeshInstanced(Mesh mesh, int submeshIndex, Material material, Matrix4x4[] matrices, int count,
                                             MaterialPropertyBlock properties, UnityEngine.Rendering.ShadowCastingMode castShadows,
                                             bool receiveShadows, int layer) { }
    }

    public sealed class LineRenderer : Renderer
    {
        public int positionCount { get; set; }
        public bool useWorldSpace { get; set; }
        public float widthMultiplier { get; set; }
        public Material material { get; set; }
        public void SetPositions(Vector3[] positions) { }
    }

    public sealed class MeshFilter : Component
    {
        // Setting mesh sets the filter's mesh, as in Unity (whose getter would also copy
        // a shared mesh first; the stub's returns it).
        public Mesh mesh { get { return sharedMesh; } set { sharedMesh = value; } }
        public Mesh sharedMesh { get; set; }
    }

    public sealed class Mesh : Object
    {
        // The stub keeps what is set, so that a check can read it back.
        readonly System.Collections.Generic.Dictionary<int, Vector3[]> uvs3 = new System.Collections.Generic.Dictionary<int, Vector3[]>();
        public Vector3[] vertices { get; set; }
        public Vector3[] normals { get; set; }
        public Color[] colors { get; set; }
        public BoneWeight[] boneWeights { get; set; }
        public Matrix4x4[] bindposes { get; set; }
        public int vertexCount { get { return vertices != null ? vertices.Length : 0; } }
        public int[] triangles { get; set; }
        public Vector2[] uv { get; set; }
        public UnityEngine.Rendering.IndexFormat indexFormat { get; set; }
        public void GetVertices(System.Collections.Generic.List<Vector3> vertices) { }
        public void GetNormals(System.Collections.Generic.List<Vector3> normals) { }
        public void SetVertices(Vector3[] inVertices) { vertices = (Vector3[])inVertices.Clone(); }
        public void SetNormals(Vector3[] inNormals) { normals = (Vector3[])inNormals.Clone(); }
        public void SetTangents(Vector4[] inTangents) { }
        public void SetUVs(int channel, Vector2[] uvs) { }
        public void SetUVs(int channel, Vector3[] uvs) { uvs3[channel] = (Vector3[])uvs.Clone(); }
        public Vector3[] StubUVs3(int channel) { Vector3[] u; return uvs3.TryGetValue(channel, out u) ? u : null; }
        public void Clear() { }
        public void MarkDynamic() { }
        public void SetVertices<T>(Unity.Collections.NativeArray<T> inVertices) where T : struct
        {
            var v = new Vector3[inVertices.Length];
            for (int i = 0; i < v.Length; i++)
                v[i] = (Vector3)(object)inVertices[i];
            vertices = v;
        }
        public void RecalculateNormals() { }
        public void RecalculateBounds() { }
    }

    public struct Vector2
    {
        public float x, y;
    }

    public struct Color
    {
        public float r, g, b, a;
        public Color(float r, float g, float b, float a) { this.r = r; this.g = g; this.b = b; this.a = a; }
    }

    public struct BoneWeight
    {
        public int boneIndex0 { get; set; }
        public float weight0 { get; set; }
    }

    public enum MotionVectorGenerationMode { Camera, Object, ForceNoMotion }

    public class Renderer : Component
    {
        public bool enabled { get; set; } = true;
        public Material sharedMaterial { get; set; }
        public Material[] sharedMaterials { get; set; } = new Material[0];
        public MotionVectorGenerationMode motionVectorGenerationMode { get; set; }
        public bool forceRenderingOff { get; set; }
        public bool isVisible { get { return false; } }
    }

    public sealed class MeshRenderer : Renderer { }

    public sealed class SkinnedMeshRenderer : Renderer
    {
        public Mesh sharedMesh { get; set; }
        public Transform rootBone { get; set; }
        public Transform[] bones { get; set; }
        public void BakeMesh(Mesh mesh) { }
    }

    public enum WindZoneMode { Directional, Spherical }

    public sealed class WindZone : Component
    {
        public WindZoneMode mode { get; set; }
        public float radius { get; set; }
        public float windMain { get; set; }
        public float windTurbulence { get; set; }
        public float windPulseMagnitude { get; set; }
        public float windPulseFrequency { get; set; }
    }

    [AttributeUsage(AttributeTargets.Field)]
    public sealed class HeaderAttribute : Attribute { public HeaderAttribute(string header) { } }

    public enum RuntimeInitializeLoadType { AfterSceneLoad, BeforeSceneLoad, AfterAssembliesLoaded, BeforeSplashScreen, SubsystemRegistration }

    [AttributeUsage(AttributeTargets.Method)]
    public sealed class RuntimeInitializeOnLoadMethodAttribute : Attribute
    {
        public RuntimeInitializeOnLoadMethodAttribute(RuntimeInitializeLoadType loadType) { }
    }

    [AttributeUsage(AttributeTargets.Field)]
    public sealed class TooltipAttribute : Attribute { public TooltipAttribute(string tooltip) { } }

    [AttributeUsage(AttributeTargets.Field)]
    public sealed class RangeAttribute : Attribute { public RangeAttribute(float min, float max) { } }

    [AttributeUsage(AttributeTargets.Field)]
    public sealed class MinAttribute : Attribute { public MinAttribute(float min) { } }

    [AttributeUsage(AttributeTargets.Class)]
    public sealed class AddComponentMenu : Attribute { public AddComponentMenu(string menuName) { } }

    [AttributeUsage(AttributeTargets.Class)]
    public sealed class DisallowMultipleComponent : Attribute { }

    [AttributeUsage(AttributeTargets.Class)]
    public sealed class ExecuteAlways : Attribute { }

    [AttributeUsage(AttributeTargets.Class, AllowMultiple = true)]
    public sealed class RequireComponent : Attribute { public RequireComponent(Type requiredComponent) { } }

    [AttributeUsage(AttributeTargets.Class)]
    public sealed class DefaultExecutionOrder : Attribute { public DefaultExecutionOrder(int order) { } }
}

namespace Unity.Profiling
{
    public struct ProfilerMarker
    {
        public ProfilerMarker(string name) { }
        public void Begin() { }
        public void End() { }
    }
}

namespace Unity.Collections
{
    public enum Allocator { Invalid, None, Temp, TempJob, Persistent }

    public struct NativeArray<T> : IDisposable where T : struct
    {
        // Unmanaged memory, as Unity's: Dispose frees it (the stub's elements move by Marshal).
        internal IntPtr buffer;
        int length;
        public NativeArray(int length, Allocator allocator)
        {
            this.length = length;
            int bytes = System.Runtime.InteropServices.Marshal.SizeOf(typeof(T)) * length;
            buffer = System.Runtime.InteropServices.Marshal.AllocHGlobal(bytes > 0 ? bytes : 1);
            for (int i = 0; i < bytes; i++)
                System.Runtime.InteropServices.Marshal.WriteByte(buffer, i, 0);
        }
        public int Length { get { return length; } }
        public bool IsCreated { get { return buffer != IntPtr.Zero; } }
        public T this[int index]
        {
            get { return (T)System.Runtime.InteropServices.Marshal.PtrToStructure(At(index), typeof(T)); }
            set { System.Runtime.InteropServices.Marshal.StructureToPtr(value, At(index), false); }
        }
        IntPtr At(int index)
        {
            if ((uint)index >= (uint)length)
                throw new IndexOutOfRangeException();
            return new IntPtr(buffer.ToInt64() + (long)index * System.Runtime.InteropServices.Marshal.SizeOf(typeof(T)));
        }
        public void Dispose()
        {
            if (buffer != IntPtr.Zero)
                System.Runtime.InteropServices.Marshal.FreeHGlobal(buffer);
            buffer = IntPtr.Zero;
            length = 0;
        }
    }
}

namespace Unity.Collections.LowLevel.Unsafe
{
    public static class NativeArrayUnsafeUtility
    {
        public static unsafe void* GetUnsafePtr<T>(this NativeArray<T> nativeArray) where T : struct { return (void*)nativeArray.buffer; }
    }
}

#if UNITY_EDITOR
namespace UnityEditor
{
    [AttributeUsage(AttributeTargets.Class)]
    public sealed class InitializeOnLoadAttribute : Attribute { }

    public enum PlayModeStateChange { EnteredEditMode, ExitingEditMode, EnteredPlayMode, ExitingPlayMode }

    public static class AssemblyReloadEvents
    {
        public delegate void AssemblyReloadCallback();
        public static event AssemblyReloadCallback beforeAssemblyReload;
    }

    public static class EditorApplication
    {
        public delegate void CallbackFunction();
        // A field, as in Unity (callers += and -= it).
        public static CallbackFunction update;
        public static event Action<PlayModeStateChange> playModeStateChanged;
        static readonly System.Diagnostics.Stopwatch clock = System.Diagnostics.Stopwatch.StartNew();
        public static double timeSinceStartup { get { return clock.Elapsed.TotalSeconds; } }
        public static bool isPlayingOrWillChangePlaymode { get { return false; } }
        public static void QueuePlayerLoopUpdate() { }
    }
}

namespace UnityEditor.SceneManagement
{
    public static class EditorSceneManager
    {
        public delegate void SceneClosingCallback(UnityEngine.SceneManagement.Scene scene, bool removingScene);
        public static event SceneClosingCallback sceneClosing;
    }
}
#endif

namespace UnityEngine.SceneManagement
{
    public struct Scene
    {
        public string name { get { return ""; } }
    }
}

namespace UnityEngine.Rendering
{
    public enum IndexFormat { UInt16, UInt32 }
    public enum ShadowCastingMode { Off, On, TwoSided, ShadowsOnly }
}

namespace UnityEngine.Events
{
    public class UnityEvent<T0>
    {
        public void AddListener(Action<T0> call) { }
        public void RemoveListener(Action<T0> call) { }
        public void Invoke(T0 arg0) { }
        public int GetPersistentEventCount() { return 0; }
    }
}

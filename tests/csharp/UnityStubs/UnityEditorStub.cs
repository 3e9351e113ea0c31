// COMPILE-CHECK STUB, NOT SHIPPED, NOT UNITY: the UnityEditor and UnityEngine IMGUI /
// Gizmos signatures that the Unity package's authoring code uses (the inspectors in
// unity-sample/Editor, the components' OnDrawGizmos and context menus), with trivial bodies, so that
// tests/csharp/run.sh compiles those scripts with mcs without a Unity installation.
// Signatures follow the Unity 2021.3 scripting API. Nothing here runs or draws. The
// UnityEditor part exists only with UNITY_EDITOR, as in a player build.

using System;

namespace UnityEngine
{
    public class ScriptableObject : Object { }

    public static class Gizmos
    {
        public static Color color { get; set; }
        public static void DrawLine(Vector3 from, Vector3 to) { }
        public static void DrawWireSphere(Vector3 center, float radius) { }
        public static void DrawSphere(Vector3 center, float radius) { }
        public static void DrawWireCube(Vector3 center, Vector3 size) { }
        public static void DrawCube(Vector3 center, Vector3 size) { }
    }

    [AttributeUsage(AttributeTargets.Method, AllowMultiple = true)]
    public sealed class ContextMenu : Attribute { public ContextMenu(string itemName) { } }

    public class GUIContent
    {
        public GUIContent(string text) { }
        public GUIContent(string text, string tooltip) { }
    }

    public class GUIStyle { }

    public class GUILayoutOption { }

    public static class GUILayout
    {
        public static bool Button(string text, params GUILayoutOption[] options) { return false; }
        public static void BeginHorizontal(params GUILayoutOption[] options) { }
        public static void EndHorizontal() { }
    }
}

#if UNITY_EDITOR
namespace UnityEditor
{
    using UnityEngine;

    [AttributeUsage(AttributeTargets.Class)]
    public sealed class CustomEditor : Attribute { public CustomEditor(Type inspectedType) { } }

    [AttributeUsage(AttributeTargets.Class)]
    public sealed class CanEditMultipleObjects : Attribute { }

    public class Editor : ScriptableObject
    {
        public Object target { get { return null; } }
        public Object[] targets { get { return new Object[0]; } }
        public SerializedObject serializedObject { get { return null; } }
        public virtual void OnInspectorGUI() { }
        public virtual bool RequiresConstantRepaint() { return false; }
        public bool DrawDefaultInspector() { return false; }
        public void Repaint() { }
    }

    public sealed class SerializedObject
    {
        public SerializedObject(Object obj) { }
        public Object targetObject { get { return null; } }
        public bool isEditingMultipleObjects { get { return false; } }
        public void Update() { }
        public bool ApplyModifiedProperties() { return false; }
        public SerializedProperty FindProperty(string propertyPath) { return null; }
        public SerializedProperty GetIterator() { return null; }
    }

    public sealed class SerializedProperty
    {
        public string name { get { return ""; } }
        public string displayName { get { return ""; } }
        public string tooltip { get { return ""; } }
        public string propertyPath { get { return ""; } }
        public bool hasMultipleDifferentValues { get { return false; } }
        public float floatValue { get; set; }
        public int intValue { get; set; }
        public bool boolValue { get; set; }
        public int enumValueIndex { get; set; }
        public Object objectReferenceValue { get; set; }
        public bool NextVisible(bool enterChildren) { return false; }
    }

    public enum MessageType { None, Info, Warning, Error }

    public static class EditorGUILayout
    {
        public static bool PropertyField(SerializedProperty property, params GUILayoutOption[] options) { return false; }
        public static bool PropertyField(SerializedProperty property, bool includeChildren, params GUILayoutOption[] options) { return false; }
        public static bool PropertyField(SerializedProperty property, GUIContent label, bool includeChildren, params GUILayoutOption[] options) { return false; }
        public static void LabelField(string label, params GUILayoutOption[] options) { }
        public static void LabelField(string label, GUIStyle style, params GUILayoutOption[] options) { }
        public static void LabelField(string label, string label2, params GUILayoutOption[] options) { }
        public static void HelpBox(string message, MessageType type) { }
        public static void Space() { }
        public static int MaskField(GUIContent label, int mask, string[] displayedOptions, params GUILayoutOption[] options) { return mask; }
    }

    public static class EditorGUI
    {
        public static bool showMixedValue { get; set; }
        public static void BeginChangeCheck() { }
        public static bool EndChangeCheck() { return false; }
        public static void BeginDisabledGroup(bool disabled) { }
        public static void EndDisabledGroup() { }
    }

    public static class EditorStyles
    {
        public static GUIStyle boldLabel { get { return null; } }
    }

    public static class Undo
    {
        public static void RecordObject(Object objectToUndo, string name) { }
    }

    public sealed class SceneView
    {
        public static void RepaintAll() { }
    }

    public static class EditorUtility
    {
        public static GameObject CreateGameObjectWithHideFlags(string name, HideFlags flags, params Type[] components)
        {
            var go = new GameObject(name);
            go.hideFlags = flags;
            foreach (Type t in components)
                typeof(GameObject).GetMethod("AddComponent").MakeGenericMethod(t).Invoke(go, null);
            foreach (Type t in components)
                ((Object)typeof(GameObject).GetMethod("GetComponent").MakeGenericMethod(t).Invoke(go, null)).hideFlags = flags;
            return go;
        }

        public static void SetDirty(Object target) { }
    }

    public static class PrefabUtility
    {
        public static void RecordPrefabInstancePropertyModifications(Object targetObject) { }
    }
}
#endif

// Inspector of SinewCollider: the contact material with its units, which Unity collider
// it mirrors (or an error when there is none), and while playing the registered handle.
// Material edits apply in place; a change of the Unity collider's size re-adds it.

using System.Collections.Generic;
using UnityEditor;
using UnityEngine;

namespace Sinew.Unity.Inspectors
{
    [CustomEditor(typeof(SinewCollider))]
    [CanEditMultipleObjects]
    public sealed class SinewColliderEditor : UnityEditor.Editor
    {
        public override void OnInspectorGUI()
        {
            var collider = (SinewCollider)target;
            var drawn = new HashSet<string>();
            serializedObject.Update();
            SinewEditorGUI.Field(serializedObject, drawn, "world", "");
            if (!serializedObject.isEditingMultipleObjects)
            {
                string shape = SinewCollider.ShapeName(collider.gameObject);
                if (shape.Length == 0)
                    EditorGUILayout.HelpBox("Add a SphereCollider, CapsuleCollider or BoxCollider to this GameObject: " +
                                            "Sinew Collider mirrors its shape, scale included.", MessageType.Error);
                else
                    EditorGUILayout.HelpBox("Mirrors the " + shape + " (pose, size and scale, pushed before every step).",
                                            MessageType.None);
            }
            SinewEditorGUI.Section("Contact material (applies in place)");
            SinewEditorGUI.Field(serializedObject, drawn, "staticFriction", "Coulomb coefficient");
            SinewEditorGUI.Field(serializedObject, drawn, "dynamicFriction", "Coulomb coefficient");
            SinewEditorGUI.Field(serializedObject, drawn, "restitution", "0 = no bounce, 1 = elastic");
            SinewEditorGUI.Section("Contact events (once per fixed step, after it)");
            SinewEditorGUI.Field(serializedObject, drawn, "reportContacts", "");
            SinewEditorGUI.Field(serializedObject, drawn, "contactEvents", "applies from the next step");
            SinewEditorGUI.Field(serializedObject, drawn, "onContactBegin", "");
            SinewEditorGUI.Field(serializedObject, drawn, "onContactPersist", "");
            SinewEditorGUI.Field(serializedObject, drawn, "onContactEnd", "");
            SinewEditorGUI.Remaining(serializedObject, drawn);
            serializedObject.ApplyModifiedProperties();

            if (!serializedObject.isEditingMultipleObjects && collider.Owner != null && !collider.Owner.IsDisposed)
            {
                SinewEditorGUI.Section("Live");
                SinewEditorGUI.Readout("Collider id", collider.Handle.id.ToString());
                if (GUILayout.Button("Teleport on the next step"))
                    collider.Teleport();
            }
        }
    }
}

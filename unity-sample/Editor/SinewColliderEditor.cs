// Inspector of SinewCollider: the contact material with its units, which Unity collider
// it mirrors (or an error when there is none), a MeshCollider's distance-field settings
// with the library's reason when its mesh cannot be one, and while playing the handle.
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
                    EditorGUILayout.HelpBox("Add a SphereCollider, CapsuleCollider, BoxCollider or MeshCollider to this " +
                                            "GameObject: Sinew Collider mirrors its shape, scale included.", MessageType.Error);
                else if (shape == "MeshCollider")
                {
                    EditorGUILayout.HelpBox("Mirrors the MeshCollider as a signed distance field the library bakes from its " +
                                            "closed mesh (scale included), once per mesh, scale and cell size; the pose is " +
                                            "pushed before every step.", MessageType.None);
                    SinewEditorGUI.Section("Distance field (re-baked when changed)");
                    SinewEditorGUI.Field(serializedObject, drawn, "sdfCellSize", "m");
                    SinewEditorGUI.Field(serializedObject, drawn, "sdfMargin", "m, ≥ particle radius + a cell");
                    if (!string.IsNullOrEmpty(collider.MeshError))
                        EditorGUILayout.HelpBox("The mesh cannot be a distance field: " + collider.MeshError +
                                                " Use a closed (watertight), consistently wound mesh.", MessageType.Error);
                    if (GUILayout.Button("Check the mesh (bakes the field)"))
                        collider.CheckMesh();
                }
                else
                    EditorGUILayout.HelpBox("Mirrors the " + shape + " (pose, size and scale, pushed before every step).",
                                            MessageType.None);
            }
            // The field settings are a MeshCollider's only.
            drawn.Add("sdfCellSize");
            drawn.Add("sdfMargin");
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

// Inspector of SinewRope: the ends, the shape (greyed out while the rope is live, with a
// Rebuild button), the material, winch and breaking, collisions (layer bits as masks), a
// button back to the library's defaults (Undo-able), and a live read-out while playing:
// particles, constraint counts, the winch and the top link's tension.

using System.Collections.Generic;
using Sinew.Native;
using UnityEditor;
using UnityEngine;

namespace Sinew.Unity.Inspectors
{
    [CustomEditor(typeof(SinewRope))]
    [CanEditMultipleObjects]
    public sealed class SinewRopeEditor : UnityEditor.Editor
    {
        float[] forces = new float[0];

        public override void OnInspectorGUI()
        {
            var rope = (SinewRope)target;
            bool live = rope.Rope != null && !rope.Rope.World.IsDisposed;
            var drawn = new HashSet<string>();
            serializedObject.Update();

            SinewEditorGUI.Field(serializedObject, drawn, "world", "");
            SinewEditorGUI.Field(serializedObject, drawn, "start", "");
            SinewEditorGUI.Field(serializedObject, drawn, "end", "");
            if (!serializedObject.isEditingMultipleObjects && (rope.start == null || rope.end == null))
                EditorGUILayout.HelpBox("Start and End are needed: the rope is built between them.", MessageType.Error);

            SinewEditorGUI.Section("Shape");
            bool rebuild = SinewEditorGUI.RebuildNotice(live, live ? rope.PendingRebuild : "", "rope");
            EditorGUI.BeginDisabledGroup(live);
            SinewEditorGUI.Field(serializedObject, drawn, "segments", "links");
            SinewEditorGUI.Field(serializedObject, drawn, "pinStart", "");
            SinewEditorGUI.Field(serializedObject, drawn, "pinEnd", "");
            SinewEditorGUI.Field(serializedObject, drawn, "tethers", "");
            SinewEditorGUI.Field(serializedObject, drawn, "radius", "m");
            EditorGUI.EndDisabledGroup();

            SinewEditorGUI.Section("Material (applies in place while playing)");
            SinewEditorGUI.Field(serializedObject, drawn, "massKg", "kg");
            SinewEditorGUI.Field(serializedObject, drawn, "compliance", "m/N");
            SinewEditorGUI.Field(serializedObject, drawn, "bendCompliance", "m/N");
            SinewEditorGUI.Field(serializedObject, drawn, "tetherCompliance", "m/N");
            SinewEditorGUI.Field(serializedObject, drawn, "damping", "1/s");
            SerializedProperty drag = SinewEditorGUI.Field(serializedObject, drawn, "drag", "dimensionless");
            SerializedProperty radius = serializedObject.FindProperty("radius");
            if (drag != null && radius != null && drag.floatValue > 0f && radius.floatValue <= 0f)
                EditorGUILayout.HelpBox("Drag acts on the rope's cylinder: set Radius > 0.", MessageType.Warning);

            SinewEditorGUI.Section("Winch and breaking (applies in place while playing)");
            SinewEditorGUI.Field(serializedObject, drawn, "length", "m");
            SinewEditorGUI.Field(serializedObject, drawn, "winchSpeed", "m/s");
            SerializedProperty pinStart = serializedObject.FindProperty("pinStart");
            if (pinStart != null && !pinStart.boolValue)
                EditorGUILayout.HelpBox("The winch sits at the start: Length and Winch Speed need Pin Start.", MessageType.Info);
            SinewEditorGUI.Field(serializedObject, drawn, "breakForce", "N");

            SinewEditorGUI.Section("Collisions (apply in place while playing)");
            SinewEditorGUI.Field(serializedObject, drawn, "selfCollision", "");
            SerializedProperty segments = serializedObject.FindProperty("segments");
            if (!serializedObject.isEditingMultipleObjects && rope.selfCollision && rope.start != null && rope.end != null &&
                segments != null && Vector3.Distance(rope.start.position, rope.end.position) / segments.intValue < 2f * rope.radius)
                EditorGUILayout.HelpBox("Links are shorter than 2 × Radius: neighbouring particles overlap at rest and self-collision pushes them apart.",
                                        MessageType.Warning);
            SinewEditorGUI.Field(serializedObject, drawn, "collisionGroup", "0 = own");
            SinewEditorGUI.Mask(serializedObject, drawn, "collisionLayers");
            SinewEditorGUI.Mask(serializedObject, drawn, "collisionMask");

            SinewEditorGUI.Remaining(serializedObject, drawn);
            serializedObject.ApplyModifiedProperties();
            if (!serializedObject.isEditingMultipleObjects)
                SinewEditorGUI.PreviewControls(rope.world);

            EditorGUILayout.Space();
            if (GUILayout.Button("Material back to the library's defaults"))
                ResetMaterial();
            if (rebuild)
                foreach (Object t in targets)
                    ((SinewRope)t).Rebuild();
            if (live && !serializedObject.isEditingMultipleObjects)
                Readouts(rope);
        }

        // Fields changed directly (not through a SerializedProperty): recorded for Undo and
        // as prefab overrides.
        void ResetMaterial()
        {
            RopeSettings d;
            try
            {
                d = RopeSettings.Default;
            }
            catch (SinewException e)
            {
                Debug.LogError("Sinew: " + e.Message, target);
                return;
            }
            foreach (Object t in targets)
            {
                var rope = (SinewRope)t;
                Undo.RecordObject(rope, "Sinew Rope material defaults");
                rope.massKg = d.TotalMass;
                rope.compliance = d.StretchCompliance;
                rope.bendCompliance = d.BendCompliance;
                rope.tetherCompliance = 0f;
                rope.damping = d.Damping;
                rope.drag = 0f;
                PrefabUtility.RecordPrefabInstancePropertyModifications(rope);
                EditorUtility.SetDirty(rope);
            }
        }

        void Readouts(SinewRope rope)
        {
            SinewEditorGUI.Section("Live");
            Body body = rope.Rope;
            SinewEditorGUI.Readout("Body", body.ToString());
            SinewEditorGUI.Readout("Particles", rope.Rope.ParticleCount.ToString());
            // Tethers run from each pinned end: up to 2 per particle.
            if (forces.Length < 2 * rope.Rope.ParticleCount + 4)
                forces = new float[2 * rope.Rope.ParticleCount + 4];
            int links = body.ReadForces(SinewBodyConstraints.Stretch, forces);
            float top = links > 0 ? forces[0] : 0f;
            SinewEditorGUI.Readout("Links", links.ToString());
            SinewEditorGUI.Readout("Bend links", body.ReadForces(SinewBodyConstraints.Bend, forces).ToString());
            SinewEditorGUI.Readout("Tethers", body.ReadForces(SinewBodyConstraints.Tether, forces).ToString());
            SinewEditorGUI.Readout("Top link tension", top.ToString("0.###") + " N");
            SinewEditorGUI.Readout("Radius / damping", body.Radius + " m / " + body.Damping + " 1/s");
            if (rope.Applied.PinStart)
            {
                float length, speed;
                int paying;
                body.ReadWinch(out length, out speed, out paying);
                SinewEditorGUI.Readout("Winch", length.ToString("0.###") + " m at " + speed.ToString("0.###") + " m/s");
            }
            SinewEditorGUI.Error(rope.LastError);
        }

        public override bool RequiresConstantRepaint()
        {
            var rope = target as SinewRope;
            return rope != null && rope.Rope != null;
        }
    }
}

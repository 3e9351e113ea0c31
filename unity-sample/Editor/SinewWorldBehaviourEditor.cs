// Inspector of SinewWorldBehaviour: the solver and forces with their units (greyed out
// while the world exists: the library reads them when it creates the world), the steps
// per frame, the edit-mode preview (Preview In Edit Mode, then Play / Step / Reset / Stop),
// every other field of the behaviour as Unity draws them, and a live read-out while playing
// or previewing: particles, bodies, contacts, the interpolation alpha of the frame.

using System.Collections.Generic;
using UnityEditor;

namespace Sinew.Unity.Inspectors
{
    [CustomEditor(typeof(SinewWorldBehaviour))]
    [CanEditMultipleObjects]
    public sealed class SinewWorldBehaviourEditor : UnityEditor.Editor
    {
        public override void OnInspectorGUI()
        {
            var behaviour = (SinewWorldBehaviour)target;
            bool live = behaviour.HasWorld;
            var drawn = new HashSet<string>();
            serializedObject.Update();

            SinewEditorGUI.Section("Solver (read when the world is created)");
            if (live)
                EditorGUILayout.HelpBox("The world exists: these fields are read when it is created, so they are greyed out " +
                                        (behaviour.IsPreviewing ? "until the preview stops (Reset applies them)."
                                                                : "until Play mode ends."), MessageType.Info);
            EditorGUI.BeginDisabledGroup(live);
            SinewEditorGUI.Field(serializedObject, drawn, "substeps", "per step");
            SinewEditorGUI.Field(serializedObject, drawn, "iterations", "per substep");
            SinewEditorGUI.Field(serializedObject, drawn, "solver", "");
            SinewEditorGUI.Field(serializedObject, drawn, "gravity", "m/s²");
            SinewEditorGUI.Field(serializedObject, drawn, "damping", "1/s");
            SinewEditorGUI.Field(serializedObject, drawn, "threads", "0 = all cores");
            EditorGUI.EndDisabledGroup();

            SinewEditorGUI.Section("Stepping (one world step per FixedUpdate of Time.fixedDeltaTime)");
            SinewEditorGUI.Field(serializedObject, drawn, "maxStepsPerFrame", "steps per frame");

            SinewEditorGUI.Section("Edit-mode preview (Scene view, nothing saved)");
            SinewEditorGUI.Field(serializedObject, drawn, "previewInEditMode", "");

            SinewEditorGUI.Remaining(serializedObject, drawn);
            serializedObject.ApplyModifiedProperties();
            if (!serializedObject.isEditingMultipleObjects)
                SinewEditorGUI.PreviewControls(behaviour);

            if (live && !serializedObject.isEditingMultipleObjects)
            {
                World w = behaviour.World;
                SinewEditorGUI.Section("Live");
                SinewEditorGUI.Readout("Particles", w.ParticleCount.ToString());
                SinewEditorGUI.Readout("Bodies", w.BodyCount.ToString());
                SinewEditorGUI.Readout("Collider contacts (last step)", w.ContactCount.ToString());
                SinewEditorGUI.Readout("Interpolation alpha", behaviour.InterpolationAlpha.ToString("0.000"));
            }
        }

        public override bool RequiresConstantRepaint()
        {
            var behaviour = target as SinewWorldBehaviour;
            return behaviour != null && behaviour.HasWorld;
        }
    }
}

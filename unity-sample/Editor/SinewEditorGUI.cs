// Shared drawing of the Sinew inspectors: section headers, fields labelled with their
// unit (the tooltip of the field, from its [Tooltip], stays), layer bit masks, the notice
// for fields that rebuild the body, live read-outs, and the fields a component gained
// that its inspector does not list (drawn at the end, so nothing is ever hidden). Every
// edit goes through SerializedObject / SerializedProperty: Undo, multi-object editing
// and prefab overrides work as for Unity's own components.

using System.Collections.Generic;
using UnityEditor;
using UnityEngine;

namespace Sinew.Unity.Inspectors
{
    /// <summary>Inspector helpers of the Sinew components.</summary>
    public static class SinewEditorGUI
    {
        static readonly string[] LayerNames = MakeLayerNames();

        static string[] MakeLayerNames()
        {
            var names = new string[32];
            for (int i = 0; i < 32; i++)
                names[i] = "Layer " + i;
            return names;
        }

        /// <summary>A bold section title with a little space above it.</summary>
        public static void Section(string title)
        {
            EditorGUILayout.Space();
            EditorGUILayout.LabelField(title, EditorStyles.boldLabel);
        }

        /// <summary>Draws property <paramref name="name"/> labelled "Label (unit)" and records
        /// it as drawn. Returns the property (null when the component has no such field).</summary>
        public static SerializedProperty Field(SerializedObject so, HashSet<string> drawn, string name, string unit)
        {
            SerializedProperty p = so.FindProperty(name);
            if (p == null)
                return null;
            drawn.Add(name);
            string label = unit.Length > 0 ? p.displayName + " (" + unit + ")" : p.displayName;
            EditorGUILayout.PropertyField(p, new GUIContent(label, p.tooltip), true);
            return p;
        }

        /// <summary>An int property drawn as a 32-bit layer mask (collision layers / mask).</summary>
        public static void Mask(SerializedObject so, HashSet<string> drawn, string name)
        {
            SerializedProperty p = so.FindProperty(name);
            if (p == null)
                return;
            drawn.Add(name);
            EditorGUI.showMixedValue = p.hasMultipleDifferentValues;
            EditorGUI.BeginChangeCheck();
            int v = EditorGUILayout.MaskField(new GUIContent(p.displayName + " (bits)", p.tooltip), p.intValue, LayerNames);
            if (EditorGUI.EndChangeCheck())
                p.intValue = v;
            EditorGUI.showMixedValue = false;
        }

        /// <summary>Draws every visible property not drawn yet (fields added to a component
        /// later still show), under "Other".</summary>
        public static void Remaining(SerializedObject so, HashSet<string> drawn)
        {
            SerializedProperty it = so.GetIterator();
            bool enter = true;
            bool titled = false;
            while (it.NextVisible(enter))
            {
                enter = false;
                if (it.name == "m_Script" || drawn.Contains(it.name))
                    continue;
                if (!titled)
                {
                    Section("Other");
                    titled = true;
                }
                EditorGUILayout.PropertyField(it, true);
            }
        }

        /// <summary>The notice above fields that shape the body: while the body is live they
        /// are greyed out (the caller wraps them in a disabled group) and a button rebuilds.
        /// Returns true when the button was pressed.</summary>
        public static bool RebuildNotice(bool live, string pending, string what)
        {
            if (!live)
            {
                EditorGUILayout.HelpBox("These fields shape the " + what + ": while playing they are fixed " +
                                        "(edit them here before Play, or press Rebuild in Play mode).", MessageType.Info);
                return false;
            }
            if (pending.Length > 0)
                EditorGUILayout.HelpBox(pending + " changed: applies when the " + what + " is rebuilt " +
                                        "(it restarts from its rest shape).", MessageType.Warning);
            else
                EditorGUILayout.HelpBox("Greyed out while playing: these fields rebuild the " + what +
                                        ". Material fields below apply in place.", MessageType.Info);
            return GUILayout.Button("Rebuild " + what + " now");
        }

        /// <summary>The edit-mode preview's buttons for <paramref name="world"/> (null: the
        /// scene's first world): Play, Step, Reset and Stop while Preview In Edit Mode is
        /// ticked on it; nothing in Play mode.</summary>
        public static void PreviewControls(SinewWorldBehaviour world)
        {
            if (world == null)
                world = SinewWorldBehaviour.FindInScene();
            if (world == null || Application.isPlaying)
                return;
            if (!world.previewInEditMode)
            {
                EditorGUILayout.HelpBox("Tick Preview In Edit Mode on the Sinew World to simulate in the Scene view " +
                                        "without entering Play mode.", MessageType.None);
                return;
            }
            if (world.IsPreviewing)
                Readout("Previewing", world.PreviewStepCount + " steps, " + world.PreviewedCount + " components");
            GUILayout.BeginHorizontal();
            EditorGUI.BeginDisabledGroup(world.IsPreviewing);
            if (GUILayout.Button("Play"))
                world.PreviewPlay();
            EditorGUI.EndDisabledGroup();
            EditorGUI.BeginDisabledGroup(!world.IsPreviewing);
            if (GUILayout.Button("Step"))
                world.PreviewStep();
            if (GUILayout.Button("Reset"))
                world.PreviewReset();
            if (GUILayout.Button("Stop"))
                world.PreviewStop();
            EditorGUI.EndDisabledGroup();
            GUILayout.EndHorizontal();
        }

        /// <summary>A label: value line of the live read-out.</summary>
        public static void Readout(string label, string value)
        {
            EditorGUILayout.LabelField(label, value);
        }

        /// <summary>The library's last refusal, if any.</summary>
        public static void Error(string message)
        {
            if (!string.IsNullOrEmpty(message))
                EditorGUILayout.HelpBox("The library refused the last edit: " + message, MessageType.Error);
        }
    }
}

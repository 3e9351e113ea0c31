// Inspector of SinewSoftBody: the mode and what shapes the body (greyed out while the
// body is live, with a Rebuild button), the material with the units of the chosen mode,
// collisions (layer bits as masks), the edit-mode preview's refusal (an open mesh, named
// by the library) and a live read-out while playing: particles, tets or surface
// triangles, clusters, the current volume against the rest volume.

using System.Collections.Generic;
using UnityEditor;
using UnityEngine;

namespace Sinew.Unity.Inspectors
{
    [CustomEditor(typeof(SinewSoftBody))]
    [CanEditMultipleObjects]
    public sealed class SinewSoftBodyEditor : UnityEditor.Editor
    {
        float restVolume;
        BuiltSoftBody measured;

        public override void OnInspectorGUI()
        {
            var body = (SinewSoftBody)target;
            bool live = body.SoftBody != null && !body.SoftBody.Body.World.IsDisposed;
            bool single = !serializedObject.isEditingMultipleObjects;
            var drawn = new HashSet<string>();
            serializedObject.Update();

            SinewEditorGUI.Field(serializedObject, drawn, "world", "");

            SinewEditorGUI.Section("Model");
            bool rebuild = SinewEditorGUI.RebuildNotice(live, live ? body.PendingRebuild : "", "soft body");
            EditorGUI.BeginDisabledGroup(live);
            SinewEditorGUI.Field(serializedObject, drawn, "mode", "");
            bool tets = !single || body.mode != SoftBodyMode.Pressure;
            bool shape = !single || body.mode == SoftBodyMode.ShapeMatching;
            if (tets)
                SinewEditorGUI.Field(serializedObject, drawn, "resolution", "cells across");
            else
                drawn.Add("resolution");
            if (shape)
            {
                SinewEditorGUI.Field(serializedObject, drawn, "plastic", "");
                SinewEditorGUI.Field(serializedObject, drawn, "yieldDistance", "m");
                SinewEditorGUI.Field(serializedObject, drawn, "creep", "per substep");
            }
            else
            {
                drawn.Add("plastic");
                drawn.Add("yieldDistance");
                drawn.Add("creep");
            }
            EditorGUI.EndDisabledGroup();

            SinewEditorGUI.Section("Material (applies in place while playing)");
            SinewEditorGUI.Field(serializedObject, drawn, "massKg", "kg");
            SinewEditorGUI.Field(serializedObject, drawn, "stretchCompliance", "m/N");
            string volumeUnit = !single ? "m⁵/N or 1/(N·m)" : body.mode == SoftBodyMode.Pressure ? "m⁵/N" : "1/(N·m)";
            SinewEditorGUI.Field(serializedObject, drawn, "volumeCompliance", volumeUnit);
            if (!single || body.mode == SoftBodyMode.Pressure)
                SinewEditorGUI.Field(serializedObject, drawn, "pressure", "× rest volume");
            else
                drawn.Add("pressure");
            if (shape)
                SinewEditorGUI.Field(serializedObject, drawn, "shapeStiffness", "per substep");
            else
                drawn.Add("shapeStiffness");
            SinewEditorGUI.Field(serializedObject, drawn, "damping", "1/s");

            SinewEditorGUI.Section("Collisions (apply in place)");
            SinewEditorGUI.Field(serializedObject, drawn, "radius", "m");
            SinewEditorGUI.Field(serializedObject, drawn, "selfCollision", "");
            SinewEditorGUI.Field(serializedObject, drawn, "collisionGroup", "0 = own");
            SinewEditorGUI.Mask(serializedObject, drawn, "collisionLayers");
            SinewEditorGUI.Mask(serializedObject, drawn, "collisionMask");

            SinewEditorGUI.Section("Rendering");
            SinewEditorGUI.Field(serializedObject, drawn, "motionVectors", "UV5 for HDRP / URP precomputed velocity");

            SinewEditorGUI.Remaining(serializedObject, drawn);
            serializedObject.ApplyModifiedProperties();
            if (!serializedObject.isEditingMultipleObjects)
                SinewEditorGUI.PreviewControls(body.world);

            if (!live && single && body.PreviewError.Length > 0)
                EditorGUILayout.HelpBox("The library cannot build this mesh: " + body.PreviewError, MessageType.Error);
            if (rebuild)
                foreach (Object t in targets)
                    ((SinewSoftBody)t).Rebuild();
            if (live && single)
                Readouts(body);
        }

        void Readouts(SinewSoftBody body)
        {
            SinewEditorGUI.Section("Live");
            BuiltSoftBody b = body.SoftBody;
            if (measured != b)
            {
                measured = b;
                restVolume = b.Body.Volume;
            }
            SinewEditorGUI.Readout("Body", b.Body.ToString());
            SinewEditorGUI.Readout("Render vertices", b.RenderVertexCount.ToString());
            if (b.Mode == SoftBodyMode.Pressure)
                SinewEditorGUI.Readout("Surface triangles", (b.Surface.Length / 3).ToString());
            else
                SinewEditorGUI.Readout("Tets", b.Tets.TetCount.ToString());
            if (b.ClusterCount > 0)
                SinewEditorGUI.Readout("Shape clusters", b.ClusterCount.ToString());
            SinewEditorGUI.Readout("Volume / at build", b.Body.Volume.ToString("G4") + " / " + restVolume.ToString("G4") + " m³");
            SinewEditorGUI.Error(body.LastError);
        }

        public override bool RequiresConstantRepaint()
        {
            var body = target as SinewSoftBody;
            return body != null && body.SoftBody != null;
        }
    }
}

// Inspector of SinewSkinnedCloth: the bending model (greyed out while the cloth is live:
// it is read when the cloth is built), the material, skinning weights, inertia, wind and
// collisions with their units, all of which apply in place while playing, and a live
// read-out: particles, triangles, constraint counts.

using System.Collections.Generic;
using Sinew.Native;
using UnityEditor;

namespace Sinew.Unity.Inspectors
{
    [CustomEditor(typeof(SinewSkinnedCloth))]
    [CanEditMultipleObjects]
    public sealed class SinewSkinnedClothEditor : UnityEditor.Editor
    {
        float[] forces = new float[0];

        public override void OnInspectorGUI()
        {
            var cloth = (SinewSkinnedCloth)target;
            bool live = cloth.Cloth != null && !cloth.Cloth.World.IsDisposed;
            bool single = !serializedObject.isEditingMultipleObjects;
            var drawn = new HashSet<string>();
            serializedObject.Update();

            SinewEditorGUI.Field(serializedObject, drawn, "world", "");
            SinewEditorGUI.Section("Model (read when the cloth is built)");
            if (live)
                EditorGUILayout.HelpBox("Greyed out while playing: the bending model is read when the cloth is built.",
                                        MessageType.Info);
            EditorGUI.BeginDisabledGroup(live);
            SinewEditorGUI.Field(serializedObject, drawn, "bending", "");
            EditorGUI.EndDisabledGroup();

            SinewEditorGUI.Section("Material (applies in place)");
            SinewEditorGUI.Field(serializedObject, drawn, "massKg", "kg");
            SinewEditorGUI.Field(serializedObject, drawn, "compliance", "m/N");
            string bendUnit = !single ? "model's unit"
                : cloth.bending == SinewBendingModel.Distance ? "m/N"
                : cloth.bending == SinewBendingModel.Isometric ? "1/(N·m)"
                : cloth.bending == SinewBendingModel.None ? "unused" : "rad/(N·m)";
            SinewEditorGUI.Field(serializedObject, drawn, "bendCompliance", bendUnit);
            SinewEditorGUI.Field(serializedObject, drawn, "damping", "1/s");

            SinewEditorGUI.Section("Skinning weights (apply in place)");
            SinewEditorGUI.Field(serializedObject, drawn, "weightSource", "");
            SinewEditorGUI.Field(serializedObject, drawn, "maxDistance", "m, × red");
            SinewEditorGUI.Field(serializedObject, drawn, "backstopRadius", "m, × green");
            SinewEditorGUI.Field(serializedObject, drawn, "backstopDistance", "m");
            SinewEditorGUI.Field(serializedObject, drawn, "driveCompliance", "m/N, ÷ blue");
            SinewEditorGUI.Field(serializedObject, drawn, "maxDistances", "m per vertex");
            SinewEditorGUI.Field(serializedObject, drawn, "backstopRadii", "m per vertex");

            SinewEditorGUI.Section("Inertia");
            SinewEditorGUI.Field(serializedObject, drawn, "root", "");
            SinewEditorGUI.Field(serializedObject, drawn, "linearInertia", "fraction");
            SinewEditorGUI.Field(serializedObject, drawn, "angularInertia", "fraction");

            SinewEditorGUI.Section("Wind (applies in place)");
            SinewEditorGUI.Field(serializedObject, drawn, "drag", "dimensionless");
            SinewEditorGUI.Field(serializedObject, drawn, "lift", "dimensionless");
            SinewEditorGUI.Field(serializedObject, drawn, "useWindZones", "");
            SinewEditorGUI.Field(serializedObject, drawn, "windZoneSpeed", "m/s per windMain");

            SinewEditorGUI.Section("Collisions (apply in place)");
            SinewEditorGUI.Field(serializedObject, drawn, "radius", "m");
            SinewEditorGUI.Field(serializedObject, drawn, "selfCollision", "");
            SinewEditorGUI.Field(serializedObject, drawn, "collisionGroup", "0 = own");
            SinewEditorGUI.Mask(serializedObject, drawn, "collisionLayers");
            SinewEditorGUI.Mask(serializedObject, drawn, "collisionMask");

            SinewEditorGUI.Remaining(serializedObject, drawn);
            serializedObject.ApplyModifiedProperties();

            if (live && single)
            {
                SinewEditorGUI.Section("Live");
                Cloth c = cloth.Cloth;
                SinewEditorGUI.Readout("Body", c.ToString());
                SinewEditorGUI.Readout("Mesh vertices / particles", c.MeshVertexCount + " / " + c.ParticleCount);
                SinewEditorGUI.Readout("Triangles", c.TriangleCount.ToString());
                int capacity = 6 * c.MeshVertexCount + 16;
                if (forces.Length < capacity)
                    forces = new float[capacity];
                SinewEditorGUI.Readout("Edges", c.ReadForces(SinewBodyConstraints.Stretch, forces).ToString());
                SinewEditorGUI.Error(cloth.LastError);
            }
        }

        public override bool RequiresConstantRepaint()
        {
            var cloth = target as SinewSkinnedCloth;
            return cloth != null && cloth.Cloth != null;
        }
    }
}

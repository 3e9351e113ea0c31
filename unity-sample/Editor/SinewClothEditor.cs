// Inspector of SinewCloth: pins and the model (greyed out while the cloth is live, with a
// Rebuild button), the material with the units of the chosen models, aerodynamics,
// tearing, collisions (layer bits as masks), and a live read-out while playing: vertices,
// particles, triangles, constraint counts and the tearing state.

using System.Collections.Generic;
using Sinew.Native;
using UnityEditor;
using UnityEngine;

namespace Sinew.Unity.Inspectors
{
    [CustomEditor(typeof(SinewCloth))]
    [CanEditMultipleObjects]
    public sealed class SinewClothEditor : UnityEditor.Editor
    {
        float[] forces = new float[0];

        static string BendUnit(SinewBendingModel m)
        {
            switch (m)
            {
                case SinewBendingModel.Distance: return "m/N";
                case SinewBendingModel.Dihedral: return "rad/(N·m)";
                case SinewBendingModel.Isometric: return "1/(N·m)";
                default: return "unused";
            }
        }

        public override void OnInspectorGUI()
        {
            var cloth = (SinewCloth)target;
            bool live = cloth.Cloth != null && !cloth.Cloth.World.IsDisposed;
            bool single = !serializedObject.isEditingMultipleObjects;
            var drawn = new HashSet<string>();
            serializedObject.Update();

            SinewEditorGUI.Field(serializedObject, drawn, "world", "");

            SinewEditorGUI.Section("Pins and model");
            bool rebuild = SinewEditorGUI.RebuildNotice(live, live ? cloth.PendingRebuild : "", "cloth");
            EditorGUI.BeginDisabledGroup(live);
            SinewEditorGUI.Field(serializedObject, drawn, "pins", "");
            SinewEditorGUI.Field(serializedObject, drawn, "model", "");
            SinewEditorGUI.Field(serializedObject, drawn, "bending", "");
            SinewEditorGUI.Field(serializedObject, drawn, "tethers", "");
            if (!single || cloth.model == SinewClothModel.Strain)
                SinewEditorGUI.Field(serializedObject, drawn, "warp", "direction");
            else
                drawn.Add("warp");
            EditorGUI.EndDisabledGroup();

            bool strain = single && cloth.model == SinewClothModel.Strain;
            SinewEditorGUI.Section("Material (applies in place while playing)");
            SinewEditorGUI.Field(serializedObject, drawn, "massKg", "kg");
            SinewEditorGUI.Field(serializedObject, drawn, "compliance", single ? (strain ? "1/(N·m)" : "m/N") : "m/N or 1/(N·m)");
            if (!single || strain)
            {
                SinewEditorGUI.Field(serializedObject, drawn, "weftCompliance", "1/(N·m)");
                SinewEditorGUI.Field(serializedObject, drawn, "shearCompliance", "1/(N·m)");
            }
            else
            {
                drawn.Add("weftCompliance");
                drawn.Add("shearCompliance");
            }
            SinewEditorGUI.Field(serializedObject, drawn, "bendCompliance", single ? BendUnit(cloth.bending) : "model's unit");
            SinewEditorGUI.Field(serializedObject, drawn, "tetherCompliance", "m/N");
            SinewEditorGUI.Field(serializedObject, drawn, "damping", "1/s");

            SinewEditorGUI.Section("Aerodynamics (applies in place)");
            SinewEditorGUI.Field(serializedObject, drawn, "drag", "dimensionless");
            SinewEditorGUI.Field(serializedObject, drawn, "lift", "dimensionless");

            SinewEditorGUI.Section("Tearing (applies in place)");
            SinewEditorGUI.Field(serializedObject, drawn, "tearThreshold", "stretch ratio");
            SinewEditorGUI.Field(serializedObject, drawn, "tearReserve", "particles");
            if (single && cloth.tearThreshold > 0f)
            {
                if (cloth.model != SinewClothModel.Edges)
                    EditorGUILayout.HelpBox("Only the edges model tears.", MessageType.Warning);
                if (cloth.drag > 0f || cloth.lift > 0f)
                    EditorGUILayout.HelpBox("A cloth with drag or lift cannot tear: the library refuses the threshold.",
                                            MessageType.Warning);
            }

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
                SinewEditorGUI.PreviewControls(cloth.world);

            if (rebuild)
                foreach (Object t in targets)
                    ((SinewCloth)t).Rebuild();
            if (live && single)
                Readouts(cloth);
        }

        void Readouts(SinewCloth cloth)
        {
            SinewEditorGUI.Section("Live");
            Cloth c = cloth.Cloth;
            Body body = c;
            SinewEditorGUI.Readout("Body", body.ToString());
            SinewEditorGUI.Readout("Mesh vertices / particles", c.MeshVertexCount + " / " + c.ParticleCount);
            SinewEditorGUI.Readout("Triangles", c.TriangleCount.ToString());
            int capacity = 6 * c.MeshVertexCount + 16;
            if (forces.Length < capacity)
                forces = new float[capacity];
            SinewEditorGUI.Readout("Edges", body.ReadForces(SinewBodyConstraints.Stretch, forces).ToString());
            SinewEditorGUI.Readout("Bend links", body.ReadForces(SinewBodyConstraints.Bend, forces).ToString());
            SinewEditorGUI.Readout("Pinned vertices", cloth.PinnedVertices.Length.ToString());
            if (cloth.Applied.TearThreshold > 0f)
            {
                TearStatus s = body.TearStatus;
                SinewEditorGUI.Readout("Tearing", "threshold " + s.Threshold + ", reserve left " + s.ReserveLeft +
                                                  ", splits " + body.TopologyVersion + ", refused " + s.Refused);
            }
            SinewEditorGUI.Error(cloth.LastError);
        }

        public override bool RequiresConstantRepaint()
        {
            var cloth = target as SinewCloth;
            return cloth != null && cloth.Cloth != null;
        }
    }
}

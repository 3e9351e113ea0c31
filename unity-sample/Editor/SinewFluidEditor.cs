// Inspector of SinewFluid: the particles (Spacing, Capacity: greyed out while playing,
// with a Rebuild button), the fluid settings that apply in place, the emitter (the
// fields of its shape only) with the rate a nozzle can reach, the kill volumes, the
// drawing (ellipsoids or spheres, each with its own fields), the diffuse particles (their
// fields while on), and while playing a live read-out (live, emitted, removed and refused
// particles, diffuse particles drawn, mean and largest density over rest density) with
// Clear.

using System.Collections.Generic;
using UnityEditor;
using UnityEngine;

namespace Sinew.Unity.Inspectors
{
    [CustomEditor(typeof(SinewFluid))]
    [CanEditMultipleObjects]
    public sealed class SinewFluidEditor : UnityEditor.Editor
    {
        public override void OnInspectorGUI()
        {
            var fluid = (SinewFluid)target;
            bool live = fluid.Fluid != null && !fluid.Fluid.World.IsDisposed && !fluid.Fluid.IsRemoved;
            var drawn = new HashSet<string>();
            serializedObject.Update();

            SinewEditorGUI.Field(serializedObject, drawn, "world", "");

            SinewEditorGUI.Section("Particles");
            bool rebuild = SinewEditorGUI.RebuildNotice(live, live ? fluid.PendingRebuild : "", "fluid");
            EditorGUI.BeginDisabledGroup(live);
            SinewEditorGUI.Field(serializedObject, drawn, "spacing", "m");
            SinewEditorGUI.Field(serializedObject, drawn, "capacity", "particles");
            EditorGUI.EndDisabledGroup();

            SinewEditorGUI.Section("Fluid (applies in place while playing)");
            SinewEditorGUI.Field(serializedObject, drawn, "restDensity", "kg/m³");
            SinewEditorGUI.Field(serializedObject, drawn, "smoothingRadius", "m, 0 = 2 × spacing");
            SinewEditorGUI.Field(serializedObject, drawn, "relaxation", "m⁻², 0 = auto");
            SinewEditorGUI.Field(serializedObject, drawn, "artificialPressure", "k");
            SinewEditorGUI.Field(serializedObject, drawn, "artificialPressureExponent", "n");
            SinewEditorGUI.Field(serializedObject, drawn, "artificialPressureDistance", "Δq / h");
            SinewEditorGUI.Field(serializedObject, drawn, "viscosity", "XSPH");
            SinewEditorGUI.Field(serializedObject, drawn, "vorticity", "");
            SinewEditorGUI.Field(serializedObject, drawn, "cohesion", "");
            SinewEditorGUI.Field(serializedObject, drawn, "adhesion", "");
            SinewEditorGUI.Field(serializedObject, drawn, "collisionRadius", "m, < 0 = spacing / 2");
            SinewEditorGUI.Field(serializedObject, drawn, "lifetime", "s, 0 = forever");
            SinewEditorGUI.Field(serializedObject, drawn, "recycleOldest", "");
            SinewEditorGUI.Mask(serializedObject, drawn, "couplingMask");

            SinewEditorGUI.Section("Emitter (follows this transform)");
            SerializedProperty kind = SinewEditorGUI.Field(serializedObject, drawn, "emitter", "");
            drawn.Add("nozzleRadius");
            drawn.Add("boxHalfExtents");
            if (kind != null && !kind.hasMultipleDifferentValues && kind.enumValueIndex == (int)FluidEmitterKind.Nozzle)
                SinewEditorGUI.Field(serializedObject, drawn, "nozzleRadius", "m");
            else if (kind != null && !kind.hasMultipleDifferentValues && kind.enumValueIndex == (int)FluidEmitterKind.Box)
                SinewEditorGUI.Field(serializedObject, drawn, "boxHalfExtents", "m");
            SinewEditorGUI.Field(serializedObject, drawn, "rate", "particles/s");
            SinewEditorGUI.Field(serializedObject, drawn, "speed", "m/s");
            if (!serializedObject.isEditingMultipleObjects && fluid.emitter == FluidEmitterKind.Nozzle)
            {
                float most = NozzleRate(fluid.nozzleRadius, fluid.spacing, fluid.speed);
                if (fluid.rate > most)
                    EditorGUILayout.HelpBox("A nozzle lays one disc of particles each time its stream has moved one spacing: " +
                                            "this one emits at most " + most.ToString("0") + " particles/s. " +
                                            "Widen it or raise Speed for more.", MessageType.Info);
            }

            SinewEditorGUI.Section("Kill volumes (apply in place while playing)");
            SinewEditorGUI.Field(serializedObject, drawn, "killInChildBoxColliders", "");
            SinewEditorGUI.Field(serializedObject, drawn, "killVolumes", "world space");

            SinewEditorGUI.Section("Rendering");
            SerializedProperty mode = SinewEditorGUI.Field(serializedObject, drawn, "drawMode", "");
            SinewEditorGUI.Field(serializedObject, drawn, "particleMesh", "");
            SinewEditorGUI.Field(serializedObject, drawn, "particleMeshRadius", "m");
            SinewEditorGUI.Field(serializedObject, drawn, "particleMaterial", "");
            bool ellipsoids = mode != null && !mode.hasMultipleDifferentValues &&
                              mode.enumValueIndex == (int)FluidDrawMode.Ellipsoids;
            foreach (string name in new[] { "particleScale", "ellipsoidScale", "ellipsoidSmoothing", "ellipsoidMaxRatio", "isolatedScale" })
                drawn.Add(name);
            if (ellipsoids)
            {
                SinewEditorGUI.Field(serializedObject, drawn, "ellipsoidScale", "× spacing / 2");
                SinewEditorGUI.Field(serializedObject, drawn, "ellipsoidSmoothing", "λ");
                SinewEditorGUI.Field(serializedObject, drawn, "ellipsoidMaxRatio", "k_r");
                SinewEditorGUI.Field(serializedObject, drawn, "isolatedScale", "k_n");
            }
            else
            {
                SinewEditorGUI.Field(serializedObject, drawn, "particleScale", "× spacing");
            }
            SinewEditorGUI.Field(serializedObject, drawn, "slowColor", "");
            SinewEditorGUI.Field(serializedObject, drawn, "fastColor", "");
            SinewEditorGUI.Field(serializedObject, drawn, "fastSpeed", "m/s");
            SinewEditorGUI.Field(serializedObject, drawn, "colorProperty", "instanced");
            SinewEditorGUI.Field(serializedObject, drawn, "castShadows", "");

            SinewEditorGUI.Section("Diffuse particles (apply in place while playing)");
            SerializedProperty diffuse = SinewEditorGUI.Field(serializedObject, drawn, "diffuse", "spray, foam, bubbles");
            string[] diffuseFields = { "diffuseCapacity", "diffuseLifetime", "diffuseRate", "diffuseMinSpeed", "diffuseMesh",
                                       "diffuseMaterial", "diffuseSize", "diffuseColor" };
            string[] diffuseUnits = { "particles", "s", "1/s per particle", "m/s", "", "", "× spacing", "" };
            if (diffuse != null && (diffuse.hasMultipleDifferentValues || diffuse.boolValue))
            {
                for (int i = 0; i < diffuseFields.Length; i++)
                    SinewEditorGUI.Field(serializedObject, drawn, diffuseFields[i], diffuseUnits[i]);
            }
            else
            {
                foreach (string name in diffuseFields)
                    drawn.Add(name);
            }

            SinewEditorGUI.Remaining(serializedObject, drawn);
            serializedObject.ApplyModifiedProperties();

            if (rebuild)
                foreach (Object t in targets)
                    ((SinewFluid)t).Rebuild();
            if (live && !serializedObject.isEditingMultipleObjects)
                Readouts(fluid);
        }

        /// <summary>The most particles per second a nozzle of radius r (m) emits at speed v
        /// (m/s) with spacing s (m): the lattice points of a disc, v / s discs per second.</summary>
        static float NozzleRate(float r, float s, float v)
        {
            if (!(s > 0f))
                return 0f;
            int n = (int)(r / s), points = 0;
            for (int i = -n; i <= n; i++)
                for (int j = -n; j <= n; j++)
                    if ((i * i + j * j) * s * s <= r * r)
                        points++;
            return v * points / s;
        }

        void Readouts(SinewFluid fluid)
        {
            SinewEditorGUI.Section("Live");
            Sinew.FluidStats s = fluid.Fluid.Stats;
            SinewEditorGUI.Readout("Particles", s.Count + " of " + s.Capacity + " (drawn " + fluid.DrawnCount + ")");
            if (fluid.diffuse)
                SinewEditorGUI.Readout("Diffuse particles", fluid.DrawnDiffuseCount + " of " + fluid.diffuseCapacity);
            SinewEditorGUI.Readout("Emitted / removed", s.Emitted + " / " + s.Removed);
            SinewEditorGUI.Readout("Refused (full)", s.Refused.ToString());
            SinewEditorGUI.Readout("Density / rest density", "mean " + s.MeanDensityRatio.ToString("0.###") + ", max " +
                                                             s.MaxDensityRatio.ToString("0.###"));
            if (GUILayout.Button("Clear the particles"))
                fluid.Clear();
            SinewEditorGUI.Error(fluid.LastError);
        }

        public override bool RequiresConstantRepaint()
        {
            var fluid = target as SinewFluid;
            return fluid != null && fluid.Fluid != null;
        }
    }
}

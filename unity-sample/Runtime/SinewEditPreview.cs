// The edit-mode preview's two helpers: ISinewPreviewed, what SinewWorldBehaviour's preview
// (SinewWorldBehaviour.Preview.cs) asks of each component it simulates, and SinewBodyMesh,
// where a mesh body (SinewCloth, SinewSoftBody) draws. While playing that is the object's
// own mesh instance (MeshFilter.mesh, as always); in the preview it is a copy of the shared
// mesh marked DontSave on a hidden object marked HideAndDontSave that follows the
// transform, and the object's own renderer is hidden with Renderer.forceRenderingOff (a
// runtime flag, not serialized). The preview therefore writes nothing that the scene
// saves: no serialized field, no MeshFilter reference, no vertex of a scene mesh.

using UnityEngine;

namespace Sinew.Unity
{
    /// <summary>A component the edit-mode preview simulates.</summary>
    interface ISinewPreviewed
    {
        /// <summary>Whether the component lives in <paramref name="world"/> now (not
        /// destroyed, enabled, complete, and its world field is <paramref name="world"/>,
        /// or empty with <paramref name="world"/> the scene's first,
        /// <paramref name="sceneFirst"/>). Asked before the preview builds it and on every
        /// preview tick after: false ends its part of the preview.</summary>
        bool PreviewWants(SinewWorldBehaviour world, SinewWorldBehaviour sceneFirst);

        /// <summary>Builds its body or collider in <paramref name="world"/>'s world with
        /// the code it builds with in Play mode; false (logged, nothing left behind) when
        /// it cannot.</summary>
        bool PreviewBegin(SinewWorldBehaviour world);

        /// <summary>Draws the world's last state (into objects the scene does not save).</summary>
        void PreviewDraw();

        /// <summary>Removes all it made for the preview: its native body or collider, its
        /// meshes and hidden objects; shows its own renderer again. Safe on a component
        /// destroyed since (its managed half still runs).</summary>
        void PreviewEnd();
    }

    static class SinewEditPreview
    {
        /// <summary>A GameObject with a MeshFilter and a MeshRenderer: for the preview
        /// (<paramref name="hidden"/>) hidden and never saved, created with those flags from
        /// the start (EditorUtility.CreateGameObjectWithHideFlags: the scene never holds it
        /// as a saved object, not even for a moment); a plain one otherwise.</summary>
        public static GameObject MeshObject(string name, bool hidden)
        {
#if UNITY_EDITOR
            if (hidden)
                return UnityEditor.EditorUtility.CreateGameObjectWithHideFlags(name, HideFlags.HideAndDontSave,
                                                                              typeof(MeshFilter), typeof(MeshRenderer));
#endif
            var go = new GameObject(name);
            go.AddComponent<MeshFilter>();
            go.AddComponent<MeshRenderer>();
            if (hidden)
                go.hideFlags = HideFlags.HideAndDontSave;
            return go;
        }

        /// <summary>The common part of <see cref="ISinewPreviewed.PreviewWants"/>:
        /// <paramref name="component"/> not destroyed and enabled, and its world field
        /// <paramref name="field"/> (empty: <paramref name="sceneFirst"/>) is
        /// <paramref name="world"/>.</summary>
        public static bool Wants(Behaviour component, SinewWorldBehaviour field, SinewWorldBehaviour world,
                                 SinewWorldBehaviour sceneFirst)
        {
            return component != null && component.isActiveAndEnabled && (field != null ? field : sceneFirst) == world;
        }
    }

    /// <summary>Where a mesh body draws: its own mesh instance while playing, a DontSave
    /// copy on a hidden object in the edit-mode preview.</summary>
    sealed class SinewBodyMesh
    {
        GameObject hidden;
        Renderer source;
        bool sourceWasOff;

        /// <summary>The mesh the body writes its vertices into (null before Acquire).</summary>
        public Mesh Mesh { get; private set; }

        /// <summary>The renderer that draws <see cref="Mesh"/>.</summary>
        public Renderer Renderer { get; private set; }

        /// <summary>Takes the mesh of <paramref name="owner"/>'s MeshFilter: its own instance
        /// (playing) or a DontSave copy of the shared mesh drawn by a hidden object with the
        /// owner's materials (<paramref name="preview"/>); null when the filter has no mesh.</summary>
        public Mesh Acquire(Component owner, bool preview)
        {
            var filter = owner.GetComponent<MeshFilter>();
            source = owner.GetComponent<Renderer>();
            if (!preview)
            {
                Mesh = filter.mesh; // this object's own copy
                Renderer = source;
            }
            else
            {
                if (filter == null || filter.sharedMesh == null)
                    return null;
                Mesh = Object.Instantiate(filter.sharedMesh);
                Mesh.hideFlags = HideFlags.DontSave;
                hidden = SinewEditPreview.MeshObject(owner.name + " (Sinew preview)", true);
                hidden.GetComponent<MeshFilter>().sharedMesh = Mesh;
                Renderer = hidden.GetComponent<MeshRenderer>();
                if (source != null)
                {
                    Renderer.sharedMaterials = source.sharedMaterials;
                    sourceWasOff = source.forceRenderingOff;
                    source.forceRenderingOff = true;
                }
                Follow(owner.transform);
            }
            Mesh.MarkDynamic();
            return Mesh;
        }

        /// <summary>Preview: the hidden object takes <paramref name="t"/>'s pose and scale
        /// (the body's vertices are in <paramref name="t"/>'s space).</summary>
        public void Follow(Transform t)
        {
            if (hidden == null)
                return;
            hidden.transform.SetPositionAndRotation(t.position, t.rotation);
            hidden.transform.localScale = t.lossyScale;
        }

        /// <summary>Destroys the mesh (and in the preview the hidden object) and shows the
        /// owner's renderer again.</summary>
        public void Release()
        {
            bool preview = hidden != null;
            if (Mesh != null)
            {
                if (preview || !Application.isPlaying)
                    Object.DestroyImmediate(Mesh);
                else
                    Object.Destroy(Mesh);
            }
            if (hidden != null)
                Object.DestroyImmediate(hidden);
            if (preview && source != null)
                source.forceRenderingOff = sourceWasOff;
            hidden = null;
            source = null;
            Mesh = null;
            Renderer = null;
        }
    }
}

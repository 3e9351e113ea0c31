// The edit-mode preview of SinewWorldBehaviour (editor only; docs/unity.md, "Edit-mode
// preview"), as Unreal's realtime viewport simulates a cable: with Preview In Edit Mode
// ticked, PreviewPlay (the Play button of the world's inspector) creates the world from the
// fields, builds every enabled SinewRope, SinewCloth, SinewSoftBody and SinewCollider of
// this world with their own play-mode build code, and steps it from EditorApplication.update
// at Time.fixedDeltaTime (real time, at most maxStepsPerFrame steps a tick), drawing into
// objects the scene never saves (SinewEditPreview.cs). PreviewStop destroys the world and
// every body in it. It runs on Stop and Reset, when Preview In Edit Mode is unticked, when
// this component is disabled or destroyed, before Play mode is entered
// (playModeStateChanged), before a script reload (AssemblyReloadEvents.beforeAssemblyReload)
// and when a scene closes (EditorSceneManager.sceneClosing): no native world outlives the
// preview. A component disabled or destroyed while previewing leaves it at the next tick.

#if UNITY_EDITOR
using System;
using System.Collections.Generic;
using UnityEditor;
using UnityEditor.SceneManagement;
using UnityEngine;

namespace Sinew.Unity
{
    public sealed partial class SinewWorldBehaviour
    {
        [NonSerialized] bool previewing;
        [NonSerialized] double previewClock;
        [NonSerialized] double previewAccumulator;
        [NonSerialized] int previewSteps;
        [NonSerialized] readonly List<ISinewPreviewed> previewed = new List<ISinewPreviewed>();

        /// <summary>True while the edit-mode preview runs (its world exists).</summary>
        public bool IsPreviewing { get { return previewing; } }

        /// <summary>Steps the running preview has taken since Play or Reset.</summary>
        public int PreviewStepCount { get { return previewSteps; } }

        /// <summary>Components the running preview simulates.</summary>
        public int PreviewedCount { get { return previewed.Count; } }

        /// <summary>Starts the edit-mode preview (needs <see cref="previewInEditMode"/>, edit
        /// mode and this component enabled; nothing when already running).</summary>
        public void PreviewPlay()
        {
            if (previewing || !previewInEditMode || !isActiveAndEnabled || Application.isPlaying ||
                EditorApplication.isPlayingOrWillChangePlaymode)
                return;
            previewing = true;
            Hook(true);
            bool started = false;
            try
            {
                if (world != null)
                {
                    world.Dispose(); // a world left from before: the preview starts from the fields
                    world = null;
                }
                var unused = World;
                // Colliders first: the bodies then start among them.
                Begin(Find<SinewCollider>());
                Begin(Find<SinewRope>());
                Begin(Find<SinewCloth>());
                Begin(Find<SinewSoftBody>());
                previewClock = EditorApplication.timeSinceStartup;
                previewAccumulator = 0.0;
                previewSteps = 0;
                alpha = 1f;
                Draw();
                started = true;
            }
            finally
            {
                if (!started)
                    PreviewStop(); // an exception on the way: nothing stays behind
            }
        }

        /// <summary>Stops the preview: every previewed body and collider removed, their
        /// preview meshes destroyed, the world destroyed. Does nothing when not running.</summary>
        public void PreviewStop()
        {
            Hook(false);
            if (!previewing)
                return;
            previewing = false;
            try
            {
                // Bodies before the colliders they may lie on (the reverse of PreviewPlay).
                for (int i = previewed.Count - 1; i >= 0; i--)
                    previewed[i].PreviewEnd();
            }
            finally
            {
                previewed.Clear();
                contactListeners.Clear();
                if (world != null)
                {
                    world.Dispose();
                    world = null;
                }
                alpha = 0f;
                SceneView.RepaintAll();
            }
        }

        /// <summary>Stops and starts again: every body back to its rest shape.</summary>
        public void PreviewReset()
        {
            PreviewStop();
            PreviewPlay();
        }

        /// <summary>One step of Time.fixedDeltaTime now, then the bodies drawn (the Step
        /// button; also what each preview tick does per step).</summary>
        public void PreviewStep()
        {
            if (!previewing || !HasWorld)
                return;
            StepOnce(Time.fixedDeltaTime);
            previewSteps++;
            Draw();
            SceneView.RepaintAll();
        }

        void OnDisable()
        {
            PreviewStop();
        }

        // EditorApplication.update: real time into fixed steps, as FixedUpdate would take them.
        void PreviewTick()
        {
            if (this == null || !previewing || !previewInEditMode || !isActiveAndEnabled || Application.isPlaying ||
                EditorApplication.isPlayingOrWillChangePlaymode || !HasWorld)
            {
                PreviewStop();
                return;
            }
            // Components disabled, destroyed or moved to another world since: out.
            SinewWorldBehaviour first = FindInScene();
            for (int i = previewed.Count - 1; i >= 0; i--)
                if (!previewed[i].PreviewWants(this, first))
                {
                    ISinewPreviewed gone = previewed[i];
                    previewed.RemoveAt(i);
                    gone.PreviewEnd();
                }
            double now = EditorApplication.timeSinceStartup;
            previewAccumulator += now - previewClock;
            previewClock = now;
            float dt = Time.fixedDeltaTime;
            int steps = 0;
            while (previewAccumulator >= dt && steps < maxStepsPerFrame)
            {
                StepOnce(dt);
                previewSteps++;
                previewAccumulator -= dt;
                steps++;
            }
            if (previewAccumulator >= dt)
                previewAccumulator = 0.0; // over the cap: that time is dropped, as in Play mode
            if (steps > 0)
            {
                Draw();
                SceneView.RepaintAll();
            }
        }

        void Draw()
        {
            foreach (ISinewPreviewed p in previewed)
                p.PreviewDraw();
        }

        void Begin<T>(T[] components) where T : UnityEngine.Object, ISinewPreviewed
        {
            SinewWorldBehaviour first = FindInScene();
            foreach (T c in components)
                if (c.PreviewWants(this, first) && c.PreviewBegin(this))
                    previewed.Add(c);
        }

        static T[] Find<T>() where T : UnityEngine.Object
        {
#if UNITY_2023_1_OR_NEWER
            return FindObjectsByType<T>(FindObjectsSortMode.InstanceID);
#else
            return FindObjectsOfType<T>();
#endif
        }

        void Hook(bool on)
        {
            EditorApplication.update -= PreviewTick;
            EditorApplication.playModeStateChanged -= PreviewPlayModeChanged;
            AssemblyReloadEvents.beforeAssemblyReload -= PreviewStop;
            EditorSceneManager.sceneClosing -= PreviewSceneClosing;
            if (!on)
                return;
            EditorApplication.update += PreviewTick;
            EditorApplication.playModeStateChanged += PreviewPlayModeChanged;
            AssemblyReloadEvents.beforeAssemblyReload += PreviewStop;
            EditorSceneManager.sceneClosing += PreviewSceneClosing;
        }

        // Any change of play mode (ExitingEditMode first of all) ends the preview.
        void PreviewPlayModeChanged(PlayModeStateChange change)
        {
            PreviewStop();
        }

        void PreviewSceneClosing(UnityEngine.SceneManagement.Scene scene, bool removingScene)
        {
            PreviewStop();
        }
    }
}
#endif

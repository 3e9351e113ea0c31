// No native world outlives the scripts that made it: every live Sinew world is destroyed
// before an editor domain reload, when play mode ends, and when the application quits
// (the native library stays loaded across domain reloads, its worlds would leak).

using UnityEngine;

namespace Sinew.Unity
{
#if UNITY_EDITOR
    [UnityEditor.InitializeOnLoad]
#endif
    public static class SinewLifetime
    {
#if UNITY_EDITOR
        static SinewLifetime()
        {
            UnityEditor.AssemblyReloadEvents.beforeAssemblyReload -= World.DisposeAll;
            UnityEditor.AssemblyReloadEvents.beforeAssemblyReload += World.DisposeAll;
            UnityEditor.EditorApplication.playModeStateChanged -= OnPlayModeStateChanged;
            UnityEditor.EditorApplication.playModeStateChanged += OnPlayModeStateChanged;
        }

        static void OnPlayModeStateChanged(UnityEditor.PlayModeStateChange change)
        {
            if (change == UnityEditor.PlayModeStateChange.ExitingPlayMode ||
                change == UnityEditor.PlayModeStateChange.EnteredEditMode)
                World.DisposeAll();
        }
#endif

        [RuntimeInitializeOnLoadMethod(RuntimeInitializeLoadType.SubsystemRegistration)]
        static void Register()
        {
            Application.quitting -= World.DisposeAll;
            Application.quitting += World.DisposeAll;
        }
    }
}

// Runs the Unity package's components on Mono through the compile stub of UnityEngine and
// UnityEditor (tests/csharp/UnityStubs, whose few working bodies stand in for the editor):
// the edit-mode preview's lifecycle and motion vectors (PreviewCheck) and MeshCollider
// distance fields (MeshColliderCheck). Built and run by tests/csharp/run.sh; exits 1 on
// any failed check.

using System;

static class Checks
{
    static int failures;

    internal static void Check(bool ok, string what)
    {
        if (!ok)
        {
            failures++;
            Console.WriteLine("FAIL: " + what);
        }
    }

    static int Main()
    {
        PreviewCheck.Run();
        MeshColliderCheck.Run();
        if (failures > 0)
        {
            Console.WriteLine(failures + " Unity component checks failed");
            return 1;
        }
        return 0;
    }
}

// Vector3 <-> SinewVec3 and Quaternion <-> SinewQuat (same layouts) for single values.
// Arrays never convert: Vector3[] and NativeArray<Vector3> are handed to the library in
// place (same layout).

using Sinew.Native;
using UnityEngine;

namespace Sinew.Unity
{
    public static class Conversions
    {
        public static SinewVec3 ToSinew(this Vector3 v) { return new SinewVec3(v.x, v.y, v.z); }
        public static Vector3 ToUnity(this SinewVec3 v) { return new Vector3(v.x, v.y, v.z); }
        public static SinewQuat ToSinew(this Quaternion q) { return new SinewQuat(q.x, q.y, q.z, q.w); }
        public static Quaternion ToUnity(this SinewQuat q) { return new Quaternion(q.x, q.y, q.z, q.w); }
    }
}

// Errors of the idiomatic layer: every failure of a Sinew call becomes a SinewException
// carrying the status and the native message ("function: reason").

using System;
using Sinew.Native;

namespace Sinew
{
    /// <summary>A Sinew call failed. <see cref="Status"/> is the native status;
    /// <see cref="NativeMessage"/> the library's reason ("function: reason") or, for
    /// an argument the C# layer refused before calling the library, its own reason.</summary>
    public class SinewException : Exception
    {
        public SinewStatus Status { get; private set; }
        public string NativeMessage { get; private set; }

        public SinewException(SinewStatus status, string nativeMessage)
            : base(status + ": " + nativeMessage)
        {
            Status = status;
            NativeMessage = nativeMessage;
        }

        /// <summary>Throws for any status but Ok (a raw SinewStatus value), with this
        /// thread's last native error.</summary>
        internal static unsafe void Check(int status)
        {
            if (status != (int)SinewStatus.Ok)
                throw new SinewException((SinewStatus)status, SinewNative.Utf8ToString(SinewNative.sinew_last_error_message()));
        }

        /// <summary>Checks a native call that writes its result through a pointer and returns
        /// that result: <c>uint n; return Checked(sinew_x(handle, &amp;n), n);</c> (arguments
        /// are evaluated left to right, so <paramref name="value"/> is read after the call).</summary>
        internal static T Checked<T>(int status, T value)
        {
            Check(status);
            return value;
        }

        /// <summary>An argument refused by the C# layer (before any native call).</summary>
        internal static SinewException Argument(string function, string reason)
        {
            return new SinewException(SinewStatus.ErrorInvalidArgument, function + ": " + reason);
        }
    }

    /// <summary>The native library could not be loaded or is not the version these
    /// bindings were written for (<see cref="SinewException.Status"/> is ErrorInternal).</summary>
    public sealed class SinewLibraryException : SinewException
    {
        public SinewLibraryException(string message) : base(SinewStatus.ErrorInternal, message) { }
    }
}

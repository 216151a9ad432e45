using System;
using System.Runtime.InteropServices;

namespace Fixsteer
{
    /// <summary>Q16.16 fixed-point helpers: every scalar of the library is a raw int whose
    /// 65536 is 1.0. Build simulation inputs with <see cref="FromInt"/> and
    /// <see cref="FromRatio"/> (exact on every machine); <see cref="ToDouble"/> is for
    /// display only and never feeds back into the simulation.</summary>
    public static class Fix16
    {
        /// <summary>1.0 in Q16.16.</summary>
        public const int One = 65536;

        /// <summary>n units, saturated to the Q16.16 range.</summary>
        public static int FromInt(int n)
        {
            if (n > 32767)
                return int.MaxValue;
            if (n < -32768)
                return int.MinValue + 1;
            return n * One;
        }

        /// <summary>n / d, rounded half away from zero as C's FXS_RATIO (d != 0), saturated:
        /// a C program ported line by line gives the same numbers.</summary>
        public static int FromRatio(long n, long d)
        {
            if (d == 0)
                throw new ArgumentException("denominator is 0", "d");
            long half = (n < 0) != (d < 0) ? -(d / 2) : d / 2;
            long v = (n * One + half) / d;
            if (v > int.MaxValue)
                return int.MaxValue;
            if (v < int.MinValue + 1)
                return int.MinValue + 1;
            return (int)v;
        }

        /// <summary>The value as a double, for display.</summary>
        public static double ToDouble(int raw) { return raw / 65536.0; }
    }

    /// <summary>A failure the library reported: its result code and its own message, with
    /// what the binding was doing and, where the library names one, the byte offset.</summary>
    public class FixsteerException : Exception
    {
        /// <summary>The library's result code.</summary>
        public readonly Result Result;

        /// <summary>An exception for <paramref name="result"/> during
        /// <paramref name="what"/>.</summary>
        public FixsteerException(Result result, string what)
            : base(what + ": " + Library.Message(result))
        {
            Result = result;
        }

        internal static void Check(int result, string what)
        {
            if (result != 0)
                throw new FixsteerException((Result)result, what);
        }
    }

    /// <summary>The library as a whole: version, math fingerprint, result messages.</summary>
    public static class Library
    {
        /// <summary>The library's version ("0.2.0").</summary>
        public static string Version
        {
            get {
                return Marshal.PtrToStringAnsi(NativeMethods.fxs_version());
            }
        }

        /// <summary>The fingerprint of the math the library was built with; equal on
        /// every machine whose results are the same.</summary>
        public static ulong MathFingerprint
        {
            get {
                return NativeMethods.fxs_math_fingerprint();
            }
        }

        /// <summary>The simulation version the library runs (bumped by every intended
        /// behavior change): builds of the same version and math fingerprint compute the
        /// same states.</summary>
        public static uint SimulationVersion
        {
            get {
                return NativeMethods.fxs_simulation_version();
            }
        }

        /// <summary>The oldest simulation version the library still runs: a world may step
        /// by the rules of any version from this one to <see cref="SimulationVersion"/>
        /// (<see cref="World.SimulationVersion"/>).</summary>
        public static uint OldestSimulationVersion
        {
            get {
                return NativeMethods.fxs_simulation_version_oldest();
            }
        }

        /// <summary>The library's message for a result ("buffer too small").</summary>
        public static string Message(Result result)
        {
            return Marshal.PtrToStringAnsi(NativeMethods.fxs_result_message((int)result));
        }
    }
}

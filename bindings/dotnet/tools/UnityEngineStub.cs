// The few UnityEngine names bindings/dotnet/unity/Runtime/FixsteerWorld.cs uses, declared
// empty so that the dotnet suite can compile the component under Mono (tools/dotnet-check.sh)
// and catch a call of WorldRunner gone wrong. Not Unity: nothing here runs.
using System;

namespace UnityEngine
{
    /// <summary>Stands for Unity's component base class.</summary>
    public class MonoBehaviour {}

    /// <summary>Stands for Unity's Debug.</summary>
    public static class Debug
    {
        /// <summary>Stands for Debug.LogWarning.</summary>
        public static void LogWarning(object message) {}
    }

    /// <summary>Stands for Unity's attribute of the same name.</summary>
    [AttributeUsage(AttributeTargets.Class)]
    public sealed class DisallowMultipleComponent : Attribute {}

    /// <summary>Stands for Unity's attribute of the same name.</summary>
    [AttributeUsage(AttributeTargets.Class)]
    public sealed class AddComponentMenu : Attribute
    {
        /// <summary>The menu path.</summary>
        public AddComponentMenu(string path) {}
    }

    /// <summary>Stands for Unity's attribute of the same name.</summary>
    [AttributeUsage(AttributeTargets.Field)]
    public sealed class TooltipAttribute : Attribute
    {
        /// <summary>The tooltip.</summary>
        public TooltipAttribute(string text) {}
    }
}

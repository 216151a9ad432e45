// The Unity component: a fixsteer world stepped one tick per FixedUpdate. Unity-only (it
// uses UnityEngine), so the dotnet suite leaves it out of the Mono build and tests the
// WorldRunner it wraps instead; it compiles it against a stub of the few UnityEngine names it
// uses (bindings/dotnet/tools/UnityEngineStub.cs) to catch a call of the runner gone wrong.
using UnityEngine;

namespace Fixsteer
{
    /// <summary>Steps a fixsteer world on FixedUpdate (one tick per fixed step, so set
    /// Time.fixedDeltaTime to your tick length) with the commands queued since the last one,
    /// and exposes its tick and state hash. Queue orders with <see cref="Enqueue"/>; read the
    /// agents through <see cref="World"/> and draw them in Update.</summary>
    [DisallowMultipleComponent]
    [AddComponentMenu("fixsteer/Fixsteer World")]
    public sealed class FixsteerWorld : MonoBehaviour
    {
        /// <summary>The world to make on Awake.</summary>
        [Tooltip("The world made on Awake: seed, bounds (whole world units) and capacities")]
        public WorldRunnerSettings Settings = new WorldRunnerSettings();

        /// <summary>The source (player 0..255) of the commands this component queues.</summary>
        [Tooltip("The player whose orders this component queues (0..255)")]
        public byte Source = 0;

        /// <summary>The ticks stepped, written after each FixedUpdate for the Inspector.</summary>
        [Tooltip("Ticks stepped (written by the component)")]
        public uint ShownTick;

        /// <summary>The state hash, written after each FixedUpdate for the Inspector.</summary>
        [Tooltip("The state hash after the last tick (written by the component)")]
        public string ShownHash = "";

        /// <summary>The runner doing the work; null before Awake and after OnDestroy.</summary>
        public WorldRunner Runner { get; private set; }

        /// <summary>The world stepped.</summary>
        public World World { get { return Runner.World; } }

        /// <summary>Ticks stepped so far.</summary>
        public uint Tick { get { return Runner == null ? 0u : Runner.Tick; } }

        /// <summary>The state hash after the last tick (0 before Awake).</summary>
        public ulong Hash { get { return Runner == null ? 0ul : Runner.Hash; } }

        /// <summary>The hash as fixsteer prints it ("0x" and 16 hex digits).</summary>
        public string HashText { get { return Runner == null ? "" : Runner.HashText; } }

        /// <summary>Queues a command for the next FixedUpdate; false when the tick is full.</summary>
        public bool Enqueue(Command command)
        {
            return Runner != null && Runner.TryEnqueue(command);
        }

        private void Awake()
        {
            Runner = new WorldRunner(Settings);
            Runner.Source = Source;
        }

        private void FixedUpdate()
        {
            Result r = Runner.FixedStep();
            ShownTick = Runner.Tick;
            ShownHash = Runner.HashText;
            if (r != Result.Ok)
                Debug.LogWarning("fixsteer: tick " + (ShownTick - 1) + ": " + Runner.LastRefused +
                                 " commands refused, the first: " + Library.Message(r));
        }

        private void OnDestroy()
        {
            if (Runner != null)
                Runner.Dispose();
            Runner = null;
        }
    }
}

// What the FixsteerWorld component does on FixedUpdate, in plain C# with no Unity type, so
// that the dotnet suite builds and tests it under Mono (bindings/dotnet/test/WorldRunnerTests.cs):
// a world, the commands queued since the last fixed step, one tick per fixed step, the hash.
using System;

namespace Fixsteer
{
    /// <summary>The world a <c>FixsteerWorld</c> component makes, as Unity serializes it:
    /// whole world units, so that the Inspector shows plain numbers and every machine builds
    /// the same world from them.</summary>
    [Serializable]
    public sealed class WorldRunnerSettings
    {
        /// <summary>The world's seed (every agent's random stream derives from it).</summary>
        public ulong Seed = 1;
        /// <summary>The bounds' smallest x, whole world units.</summary>
        public int MinX = 0;
        /// <summary>The bounds' smallest y, whole world units.</summary>
        public int MinY = 0;
        /// <summary>The bounds' largest x, whole world units.</summary>
        public int MaxX = 4096;
        /// <summary>The bounds' largest y, whole world units.</summary>
        public int MaxY = 4096;
        /// <summary>Keep agents inside the bounds.</summary>
        public bool ClampToBounds = true;
        /// <summary>How far an agent sees its neighbours, whole world units.</summary>
        public int NeighborRadius = 100;
        /// <summary>Agents the world can hold.</summary>
        public uint Agents = 256;
        /// <summary>Obstacles (round buildings) the world can hold.</summary>
        public uint Obstacles = 16;
        /// <summary>Walls the world can hold.</summary>
        public uint Walls = 64;
        /// <summary>Commands one tick can take; more are refused by Enqueue.</summary>
        public int CommandsPerTick = 256;

        /// <summary>The world definition these settings give.</summary>
        public WorldDef ToDef()
        {
            WorldDef def = WorldDef.Default;
            def.Seed = Seed;
            def.BoundsMin = Vec2.FromInt(MinX, MinY);
            def.BoundsMax = Vec2.FromInt(MaxX, MaxY);
            def.ClampToBounds = (byte)(ClampToBounds ? 1 : 0);
            def.NeighborRadius = Fix16.FromInt(NeighborRadius);
            return def;
        }

        /// <summary>The capacities these settings give (navigation and the rest: none).</summary>
        public WorldCapacity ToCapacity()
        {
            return new WorldCapacity { Agents = Agents, Obstacles = Obstacles, Walls = Walls };
        }
    }

    /// <summary>Steps a <see cref="Fixsteer.World"/> one tick per fixed step with the commands
    /// queued since the last one: the logic of the <c>FixsteerWorld</c> MonoBehaviour. Queue
    /// a player's orders with <see cref="Enqueue"/> as they come (input events, Update); call
    /// <see cref="FixedStep"/> once per FixedUpdate; read <see cref="Hash"/> to compare peers.
    /// A fixed step allocates nothing.</summary>
    /// <remarks>Every queued command is given this runner's <see cref="Source"/> and the next
    /// sequence number of the tick, so a tick's commands apply in the order queued. Not
    /// thread-safe: queue and step from Unity's main thread.</remarks>
    public sealed class WorldRunner : IDisposable
    {
        private readonly Command[] queue;
        private readonly int[] results;
        private int queued;
        private World world;
        private readonly bool owned;

        /// <summary>A runner over a new world of <paramref name="settings"/>, which it
        /// disposes.</summary>
        public WorldRunner(WorldRunnerSettings settings)
            : this(NewWorld(settings), CommandsOf(settings), true) {}

        /// <summary>A runner over <paramref name="world"/> taking at most
        /// <paramref name="commandsPerTick"/> commands a tick (1..65536); with
        /// <paramref name="ownsWorld"/> it disposes the world with itself.</summary>
        public WorldRunner(World world, int commandsPerTick, bool ownsWorld)
        {
            if (world == null)
                throw new ArgumentNullException("world");
            if (commandsPerTick < 1 || commandsPerTick > 65536)
                throw new ArgumentOutOfRangeException("commandsPerTick", commandsPerTick,
                                                      "1..65536 commands a tick");
            this.world = world;
            owned = ownsWorld;
            queue = new Command[commandsPerTick];
            results = new int[commandsPerTick];
        }

        private static World NewWorld(WorldRunnerSettings settings)
        {
            if (settings == null)
                throw new ArgumentNullException("settings");
            return new World(settings.ToDef(), settings.ToCapacity());
        }

        private static int CommandsOf(WorldRunnerSettings settings)
        {
            return settings == null ? 1 : settings.CommandsPerTick;
        }

        /// <summary>The source (player, 0..255) of the commands this runner queues. Default 0.</summary>
        public byte Source { get; set; }

        /// <summary>The world stepped; throws once the runner is disposed.</summary>
        public World World
        {
            get {
                if (world == null)
                    throw new ObjectDisposedException("WorldRunner");
                return world;
            }
        }

        /// <summary>Ticks stepped so far.</summary>
        public uint Tick { get { return World.Tick; } }

        /// <summary>The state hash after the last tick: equal on every machine fed the same
        /// commands.</summary>
        public ulong Hash { get { return World.Hash; } }

        /// <summary>The hash as fixsteer prints it: "0x" and 16 hex digits.</summary>
        public string HashText { get { return "0x" + Hash.ToString("x16"); } }

        /// <summary>Commands waiting for the next fixed step.</summary>
        public int Pending { get { return queued; } }

        /// <summary>The first refusal of the last fixed step's commands, or Ok.</summary>
        public Result LastResult { get; private set; }

        /// <summary>How many of the last fixed step's commands the world refused.</summary>
        public int LastRefused { get; private set; }

        /// <summary>Queues a command for the next fixed step; false (nothing queued) when the
        /// tick already holds its CommandsPerTick.</summary>
        public bool TryEnqueue(Command command)
        {
            if (world == null)
                throw new ObjectDisposedException("WorldRunner");
            if (queued == queue.Length)
                return false;
            queue[queued] = command.WithSource(Source, (ushort)queued);
            queued++;
            return true;
        }

        /// <summary>Queues a command for the next fixed step; throws
        /// InvalidOperationException when the tick already holds its CommandsPerTick.</summary>
        public void Enqueue(Command command)
        {
            if (!TryEnqueue(command))
                throw new InvalidOperationException("the tick already holds " + queue.Length +
                                                    " commands (CommandsPerTick)");
        }

        /// <summary>Steps one tick with the queued commands (applied at its start in canonical
        /// order) and empties the queue. Returns Ok, or the first refusal (the tick is stepped
        /// whatever its commands did).</summary>
        public Result FixedStep()
        {
            World w = World;
            int n = queued;
            queued = 0;
            Result r = w.Step(queue, n, results);
            int refused = 0;
            for (int i = 0; i < n; i++)
                if (results[i] != (int)Result.Ok)
                    refused++;
            LastResult = r;
            LastRefused = refused;
            return r;
        }

        /// <summary>Disposes the world when the runner owns it; later calls throw.</summary>
        public void Dispose()
        {
            if (world != null && owned)
                world.Dispose();
            world = null;
        }
    }
}

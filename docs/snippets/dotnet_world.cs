// A world in C# (docs/dotnet.md): one agent arrives at a point. tools/dotnet-check.sh builds
// and runs it under Mono: mcs -r:Fixsteer.dll dotnet_world.cs && mono dotnet_world.exe
using System;
using Fixsteer;

static class WorldExample
{
    static void Main()
    {
        WorldDef def = WorldDef.Default;               // 4096 x 4096, seed 1
        def.Seed = 42;
        WorldCapacity cap = new WorldCapacity { Agents = 64, Obstacles = 8 };
        using (World world = new World(def, cap))      // memory: World.MemorySize(cap) bytes
        {
            SpawnDef s = SpawnDef.Default;
            s.Position = Vec2.FromInt(100, 100);
            AgentHandle a = world.Apply(Command.Spawn(s));

            Command[] tick = {
                Command.SetTargetPoint(a, Vec2.FromInt(500, 300)),
                Command.AddArrive(a, Blend.Default, Fix16.FromInt(80)),
            };
            world.Step(tick, tick.Length);              // sorts, applies, steers, integrates
            for (int i = 0; i < 100; i++) world.Step();

            Agent body = world.GetAgent(a);             // Q16.16: body.Position.X / 65536.0 units
            ulong hash = world.Hash;                    // equal on every peer fed the same commands
            byte[] snapshot = world.Save();             // and world.Restore(snapshot)
            Console.WriteLine("agent at ({0:F3}, {1:F3}), hash 0x{2:x16}, snapshot {3} bytes",
                              Fix16.ToDouble(body.Position.X), Fix16.ToDouble(body.Position.Y),
                              hash, snapshot.Length);
        }
    }
}

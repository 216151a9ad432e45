// Recording and verifying a replay in C# (docs/dotnet.md): four agents chase a point that
// jumps every 100 ticks. tools/dotnet-check.sh builds and runs it under Mono, and checks
// match.fxr with `fixsteer verify`.
using System;
using System.IO;
using Fixsteer;

static class ReplayExample
{
    // The world of the match: four agent slots, contained in 1000 x 1000 units.
    static World MakeWorld()
    {
        WorldDef def = WorldDef.Default;
        def.BoundsMax = Vec2.FromInt(1000, 1000);
        def.ClampToBounds = 1;
        return new World(def, new WorldCapacity { Agents = 4 });
    }

    // The commands of tick t: the spawns and their behaviors at tick 0 (the handles they will
    // get come from NextSpawnHandles), then a new target point every 100 ticks. One source;
    // the issue order is the sequence.
    static Command[] CommandsOf(World world, uint t)
    {
        var list = new System.Collections.Generic.List<Command>();
        AgentHandle[] agents = t == 0 ? world.NextSpawnHandles(4) : world.Agents().ToArray();
        if (t == 0)
        {
            for (int i = 0; i < 4; i++)
            {
                SpawnDef s = SpawnDef.Default;
                s.Position = Vec2.FromInt(100 + 250 * i, 100);
                list.Add(Command.Spawn(s));
            }
            foreach (AgentHandle a in agents) list.Add(Command.AddArrive(a, Blend.Default, Fix16.FromInt(50)));
        }
        if (t % 100 == 0)
        {
            Vec2 point = Vec2.FromInt(200 + (int)(t * 7 % 600), 300 + (int)(t * 3 % 500));
            foreach (AgentHandle a in agents) list.Add(Command.SetTargetPoint(a, point));
        }
        for (int i = 0; i < list.Count; i++) list[i] = list[i].WithSource(0, (ushort)i);
        return list.ToArray();
    }

    static void Main()
    {
        using (World world = MakeWorld())
        using (ReplayRecorder rec = new ReplayRecorder(world, 250))   // keyframe every 250 ticks
        {
            for (uint t = 0; t < 600; t++)
            {
                Command[] cmds = CommandsOf(world, t);
                world.Step(cmds, cmds.Length);
                rec.Tick(world, cmds, cmds.Length);   // the commands as Step sorted them
            }
            File.WriteAllBytes("match.fxr", rec.End(world));
        }
        VerifyReport r = Replay.Verify(File.ReadAllBytes("match.fxr"));
        Console.WriteLine(r);   // "600 ticks verified, final hash 0x..." or the tick, byte and field
    }
}

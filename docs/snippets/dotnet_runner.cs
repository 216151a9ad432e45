// What the Unity package's FixsteerWorld component does (docs/dotnet.md), without Unity: a
// WorldRunner steps one tick per FixedUpdate with the orders queued since the last one.
// tools/dotnet-check.sh builds and runs it under Mono and compares its output.
using System;
using Fixsteer;

static class RunnerExample
{
    static void Main()
    {
        WorldRunnerSettings settings = new WorldRunnerSettings { Seed = 42, MaxX = 800, MaxY = 600 };
        using (WorldRunner runner = new WorldRunner(settings))   // FixsteerWorld.Awake
        {
            // A click in Update: spawn a unit and send it somewhere (applied at the next tick).
            AgentHandle unit = runner.World.NextSpawnHandles(1)[0];
            SpawnDef body = SpawnDef.Default;
            body.Position = Vec2.FromInt(100, 100);
            runner.Enqueue(Command.Spawn(body));
            runner.Enqueue(Command.SetTargetPoint(unit, Vec2.FromInt(600, 400)));
            runner.Enqueue(Command.AddArrive(unit, Blend.Default, Fix16.FromInt(80)));

            for (int fixedUpdate = 0; fixedUpdate < 300; fixedUpdate++)
                runner.FixedStep();                                // FixsteerWorld.FixedUpdate

            Agent a = runner.World.GetAgent(unit);                 // draw it in Update
            Console.WriteLine("tick {0}: unit at ({1:F3}, {2:F3}), hash {3}", runner.Tick,
                              Fix16.ToDouble(a.Position.X), Fix16.ToDouble(a.Position.Y),
                              runner.HashText);
        }
    }
}

using System;
using System.Collections.Generic;

namespace Fixsteer.Tests
{
    /// <summary>A small scene built in C#: seekers, wanderers, a path follower, an obstacle and
    /// a wall, with commands along the way (a new target, a despawn, a spawn).</summary>
    public static class Scene
    {
        public static WorldDef Def()
        {
            WorldDef d = WorldDef.Default;
            d.Seed = 42;
            d.BoundsMin = Vec2.FromInt(0, 0);
            d.BoundsMax = Vec2.FromInt(800, 600);
            d.ClampToBounds = 1;
            return d;
        }

        public static WorldCapacity Capacity()
        {
            WorldCapacity c = new WorldCapacity();
            c.Agents = 16;
            c.Obstacles = 4;
            c.Paths = 1;
            c.PathNodes = 4;
            c.Walls = 2;
            return c;
        }

        /// <summary>A world with the scene's path (configuration, before any tick).</summary>
        public static World NewWorld()
        {
            World w = new World(Def(), Capacity());
            w.AddPath(
                new[] { Vec2.FromInt(100, 100), Vec2.FromInt(700, 100), Vec2.FromInt(700, 500) },
                PathMode.Patrol, Fix16.FromInt(20));
            return w;
        }

        /// <summary>The commands of tick t (the handles come from the world, as a game would
        /// name the agents it spawned).</summary>
        public static List<Command> CommandsFor(World w, uint t)
        {
            List<Command> cmds = new List<Command>();
            if (t == 0)
            {
                cmds.Add(
                    Command.AddObstacle(new Obstacle(Vec2.FromInt(400, 300), Fix16.FromInt(40))));
                cmds.Add(Command.AddWall(new Wall(Vec2.FromInt(200, 450), Vec2.FromInt(600, 450))));
                for (int i = 0; i < 6; i++)
                {
                    SpawnDef s = SpawnDef.Default;
                    s.Position = Vec2.FromInt(60 + 110 * i, 60 + 70 * (i % 3));
                    s.Velocity = new Vec2(Fix16.FromRatio(i - 2, 3), Fix16.FromRatio(1, 2));
                    cmds.Add(Command.Spawn(s));
                }
            }
            else if (t == 1)
            {
                List<AgentHandle> agents = w.Agents();
                for (int i = 0; i < agents.Count; i++)
                {
                    AgentHandle a = agents[i];
                    cmds.Add(Command.ClearBehaviors(a, CombineMode.PrioritizedSum));
                    cmds.Add(Command.AddSeparation(a, Blend.Default, Fix16.FromInt(30)));
                    if (i == 0)
                    {
                        cmds.Add(Command.SetPath(a, 0));
                        cmds.Add(Command.AddPathFollowing(a, Blend.Default));
                    }
                    else if (i % 2 == 0)
                    {
                        cmds.Add(Command.SetTargetPoint(a, Vec2.FromInt(700, 520)));
                        cmds.Add(Command.AddArrive(a, Blend.Default, Fix16.FromInt(80)));
                    }
                    else
                    {
                        cmds.Add(Command.AddBehavior(a, BehaviorSlot.Default(Behavior.Wander)));
                        cmds.Add(Command.AddBehavior(a, BehaviorSlot.Default(Behavior.Avoid)));
                    }
                }
            }
            else if (t == 60)
            {
                List<AgentHandle> agents = w.Agents();
                cmds.Add(Command.SetTargetAgent(agents[2], agents[0]));
                cmds.Add(Command.AddPursuit(agents[2], new Blend(Fix16.One, 1), Fix16.FromInt(30)));
            }
            else if (t == 100)
            {
                cmds.Add(Command.Despawn(w.Agents()[3]));
            }
            else if (t == 120)
            {
                SpawnDef s = SpawnDef.Default;
                s.Position = Vec2.FromInt(50, 550);
                cmds.Add(Command.Spawn(s));
                // The spawn's handle is known before the tick: the next free slot's.
                AgentHandle next = w.NextSpawnHandles(1)[0];
                cmds.Add(Command.SetTargetPoint(next, Vec2.FromInt(750, 50)).WithSource(0, 1));
                cmds.Add(Command.AddSeek(next, Blend.Default).WithSource(0, 2));
            }
            return cmds;
        }

        /// <summary>Steps the scene for <paramref name="ticks"/> ticks, recording each one when
        /// <paramref name="recorder"/> is not null.</summary>
        public static void Run(World w, uint ticks, ReplayRecorder recorder)
        {
            for (uint t = 0; t < ticks; t++)
            {
                Command[] cmds = CommandsFor(w, w.Tick).ToArray();
                Result r = w.Step(cmds, cmds.Length);
                if (r != Result.Ok)
                    throw new FixsteerException(r, "scene tick " + t);
                if (recorder != null)
                    recorder.Tick(w, cmds, cmds.Length);
            }
        }
    }
}

// The C enums, value for value (the layout test compares every constant with the header).
namespace Fixsteer
{
    /// <summary>The outcome of a fallible call (C: fxs_result). The messages come from the
    /// library: <see cref="FixsteerException"/> carries them.</summary>
    [NativeEnum("fxs_result", "FXS_ERR_", "FXS_")]
    public enum Result
    {
        /// <summary>ok</summary>
        Ok = 0,
        /// <summary>buffer too small</summary>
        BufferTooSmall,
        /// <summary>no free slot left</summary>
        Full,
        /// <summary>handle does not name a live agent</summary>
        StaleHandle,
        /// <summary>unknown command type</summary>
        BadCommand,
        /// <summary>value out of range</summary>
        BadValue,
        /// <summary>not a fixsteer file (bad magic)</summary>
        BadMagic,
        /// <summary>unsupported format version</summary>
        BadVersion,
        /// <summary>recorded with different math (fingerprint mismatch)</summary>
        BadFingerprint,
        /// <summary>data ends early (truncated)</summary>
        Truncated,
        /// <summary>checksum mismatch (corrupt data)</summary>
        BadChecksum,
        /// <summary>impossible length field</summary>
        BadLength,
        /// <summary>world capacity smaller than the data needs</summary>
        Capacity,
        /// <summary>state hash differs from the recorded one</summary>
        HashMismatch,
        /// <summary>unknown chunk type</summary>
        BadChunk,
        /// <summary>tick out of sequence</summary>
        BadSequence,
        /// <summary>exceeds a limit</summary>
        Limit,
        /// <summary>the replay holds no ticks</summary>
        NoTicks,
        /// <summary>keyframe differs from the re-simulated state</summary>
        KeyframeMismatch,
        /// <summary>keyframe missing or off the cadence its header promises</summary>
        KeyframeCadence,
        /// <summary>final hash in END differs from the re-simulated one</summary>
        EndMismatch,
        /// <summary>malformed session packet</summary>
        BadPacket,
        /// <summary>packet of another session</summary>
        WrongSession,
        /// <summary>waiting for other players' input</summary>
        Waiting,
        /// <summary>a kinematic behavior cannot share a set with other behaviors</summary>
        MixedSet,
        /// <summary>the command's source does not own the agent</summary>
        NotOwner,
        /// <summary>the match confirmed fewer ticks than its progress floor</summary>
        Stalled,
        /// <summary>the peer has left the session and was not readmitted</summary>
        Absent,
        /// <summary>the cells lie outside the navigation grid</summary>
        OutsideGrid,
        /// <summary>recorded by another simulation version (behavior differs)</summary>
        SimulationVersion,
        /// <summary>not confirmed by the other peers (one peer alone claims it)</summary>
        Unconfirmed,
    }

    /// <summary>Steering behaviors (C: fxs_behavior).</summary>
    [NativeEnum("fxs_behavior", "FXS_BEHAVIOR_")]
    public enum Behavior
    {
        /// <summary>No behavior.</summary>
        None = 0,
        /// <summary>Seek the target.</summary>
        Seek,
        /// <summary>Flee from the target.</summary>
        Flee,
        /// <summary>Arrive at the target.</summary>
        Arrive,
        /// <summary>Wander.</summary>
        Wander,
        /// <summary>Pursue the target agent.</summary>
        Pursuit,
        /// <summary>Evade the target agent.</summary>
        Evade,
        /// <summary>Obstacle avoidance.</summary>
        Avoid,
        /// <summary>Path following.</summary>
        Path,
        /// <summary>Separation.</summary>
        Separation,
        /// <summary>Alignment.</summary>
        Alignment,
        /// <summary>Cohesion.</summary>
        Cohesion,
        /// <summary>Leader following.</summary>
        Leader,
        /// <summary>Queueing.</summary>
        Queue,
        /// <summary>Millington's dynamic arrive.</summary>
        DynamicArrive,
        /// <summary>Velocity matching.</summary>
        VelocityMatch,
        /// <summary>Align to an orientation.</summary>
        Align,
        /// <summary>Face the target.</summary>
        Face,
        /// <summary>Look where going.</summary>
        LookWhereGoing,
        /// <summary>Random walker.</summary>
        Walker,
        /// <summary>Kinematic seek.</summary>
        KinematicSeek,
        /// <summary>Kinematic arrive.</summary>
        KinematicArrive,
        /// <summary>Kinematic wander.</summary>
        KinematicWander,
        /// <summary>External force.</summary>
        External,
        /// <summary>Containment.</summary>
        Containment,
        /// <summary>Flow-field following.</summary>
        FlowField,
        /// <summary>Unaligned collision avoidance.</summary>
        UnalignedAvoidance,
        /// <summary>Offset pursuit.</summary>
        OffsetPursuit,
        /// <summary>Hide.</summary>
        Hide,
        /// <summary>Interpose.</summary>
        Interpose,
        /// <summary>ORCA.</summary>
        Orca,
        /// <summary>Formation.</summary>
        Formation,
        /// <summary>Navigate over the navigation grid.</summary>
        Navigate,
    }

    /// <summary>Command types (C: fxs_command_type).</summary>
    [NativeEnum("fxs_command_type", "FXS_CMD_")]
    public enum CommandType
    {
        /// <summary>Spawn an agent.</summary>
        Spawn = 0,
        /// <summary>Despawn an agent.</summary>
        Despawn,
        /// <summary>Set the target point.</summary>
        SetTargetPoint,
        /// <summary>Set the target agent.</summary>
        SetTargetAgent,
        /// <summary>Empty the behavior set.</summary>
        ClearBehaviors,
        /// <summary>Add a behavior.</summary>
        AddBehavior,
        /// <summary>Follow a path.</summary>
        SetPath,
        /// <summary>Add an obstacle.</summary>
        AddObstacle,
        /// <summary>Remove an obstacle.</summary>
        RemoveObstacle,
        /// <summary>A force for one tick.</summary>
        ApplyForce,
        /// <summary>Set the limits.</summary>
        SetLimits,
        /// <summary>Add a wall.</summary>
        AddWall,
        /// <summary>Remove a wall.</summary>
        RemoveWall,
        /// <summary>Set the flow-field grid.</summary>
        SetFieldGrid,
        /// <summary>Set flow-field cells.</summary>
        SetFieldCells,
        /// <summary>Fill the flow field.</summary>
        FillField,
        /// <summary>Set the second target agent.</summary>
        SetSecondTarget,
        /// <summary>Hand the agent to an owner.</summary>
        SetOwner,
        /// <summary>Set the navigation grid.</summary>
        SetNavGrid,
        /// <summary>Set navigation costs.</summary>
        SetNavCosts,
        /// <summary>Move to a point, with the tick's other moves of the group (the RTS
        /// click).</summary>
        Move,
    }

    /// <summary>How an agent's behaviors combine (C: fxs_combine_mode).</summary>
    [NativeEnum("fxs_combine_mode", "FXS_COMBINE_")]
    public enum CombineMode
    {
        /// <summary>Sum of weight x force.</summary>
        WeightedSum = 0,
        /// <summary>In priority order until the max_force budget is spent.</summary>
        PrioritizedSum = 1,
        /// <summary>The first group whose force exceeds epsilon wins alone.</summary>
        PriorityGroups = 2,
    }

    /// <summary>What happens at a path's end (C: fxs_path_mode).</summary>
    [NativeEnum("fxs_path_mode", "FXS_PATH_")]
    public enum PathMode
    {
        /// <summary>Arrive on the last node and stay.</summary>
        StopAtEnd = 0,
        /// <summary>After the last node, the first.</summary>
        Loop = 1,
        /// <summary>Back and forth.</summary>
        Patrol = 2,
    }

    /// <summary>How the integrator turns an agent (C: fxs_orientation_mode).</summary>
    [NativeEnum("fxs_orientation_mode", "FXS_ORIENT_")]
    public enum OrientationMode
    {
        /// <summary>Orientation stays where it is.</summary>
        Fixed = 0,
        /// <summary>Orientation follows the velocity heading.</summary>
        LookWhereGoing = 1,
        /// <summary>Orientation integrates the angular steering.</summary>
        Steered = 2,
    }

    /// <summary>How a session steps ticks whose inputs are not all known
    /// (C: fxs_session_mode).</summary>
    [NativeEnum("fxs_session_mode", "FXS_SESSION_")]
    public enum SessionMode
    {
        /// <summary>Wait for every input.</summary>
        Lockstep = 0,
        /// <summary>Predict, roll back and step again when wrong.</summary>
        Rollback = 1,
        /// <summary>One local player; re-simulate every tick to check determinism.</summary>
        Synctest = 2,
    }
}

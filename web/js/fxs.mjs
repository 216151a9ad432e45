// The fixsteer library in the browser: loads fxs_web.wasm (the library and the built-in
// scenarios compiled to wasm32, web/glue/) and wraps its exports. Nothing here simulates:
// every state shown comes from the library itself. Runs in a browser and in Node.

// Int32 values per agent in Replay.agents() (web/glue/fxs_web.h, FXS_WEB_AGENT_STRIDE).
export const AGENT_STRIDE = 10;
export const AGENT_FIELDS = ['slot', 'x', 'y', 'vx', 'vy', 'orientation', 'radius', 'kind', 'behaviors', 'target'];
export const ONE = 65536; // Q16.16 raw value of 1.0

// The module was built against wasi-libc; it imports four WASI functions and uses them only
// to print (a scenario's own error message) and to stop. This is all of the WASI it needs.
class ModuleExit extends Error {
  constructor(code) {
    super(`the fixsteer module stopped with exit code ${code}`);
    this.code = code;
  }
}

function wasiImports(state) {
  const EBADF = 8, ESPIPE = 70;
  return {
    fd_write(fd, iovs, iovsLength, writtenPtr) {
      if (fd !== 1 && fd !== 2) return EBADF;
      const view = new DataView(state.memory.buffer);
      let total = 0;
      for (let i = 0; i < iovsLength; ++i) {
        const ptr = view.getUint32(iovs + 8 * i, true);
        const len = view.getUint32(iovs + 8 * i + 4, true);
        state.output += new TextDecoder().decode(new Uint8Array(state.memory.buffer, ptr, len));
        total += len;
      }
      let newline;
      while ((newline = state.output.indexOf('\n')) >= 0) {
        (fd === 2 ? console.warn : console.log)(`fixsteer: ${state.output.slice(0, newline)}`);
        state.output = state.output.slice(newline + 1);
      }
      view.setUint32(writtenPtr, total, true);
      return 0;
    },
    fd_close() {
      return 0;
    },
    fd_seek() {
      return ESPIPE;
    },
    proc_exit(code) {
      throw new ModuleExit(code);
    },
  };
}

// Loads the module from a URL (browser: fetch; Node: a file path or file: URL) or bytes.
export async function loadFixsteer(source) {
  let bytes = source;
  if (typeof source === 'string' || source instanceof URL) {
    if (typeof process !== 'undefined' && process.versions && process.versions.node) {
      const { readFile } = await import('node:fs/promises');
      bytes = await readFile(source);
    } else {
      const response = await fetch(source);
      if (!response.ok) throw new Error(`${source}: HTTP ${response.status}`);
      bytes = await response.arrayBuffer();
    }
  }
  const state = { memory: null, output: '' };
  const { instance } = await WebAssembly.instantiate(bytes, { wasi_snapshot_preview1: wasiImports(state) });
  state.memory = instance.exports.memory;
  instance.exports._initialize();
  return new Fixsteer(instance.exports, bytes.byteLength);
}

export class Fixsteer {
  constructor(exports, moduleBytes) {
    this.x = exports;
    this.moduleBytes = moduleBytes;
  }

  // A NUL-terminated string at `ptr` in the module's memory.
  text(ptr) {
    const bytes = new Uint8Array(this.x.memory.buffer);
    let end = ptr;
    while (bytes[end] !== 0) ++end;
    return new TextDecoder().decode(bytes.subarray(ptr, end));
  }

  json(ptr) {
    return JSON.parse(this.text(ptr));
  }

  // Copies bytes into new module memory; returns its offset.
  copyIn(bytes) {
    const ptr = this.x.fxs_web_alloc(bytes.length);
    new Uint8Array(this.x.memory.buffer, ptr, bytes.length).set(bytes);
    return ptr;
  }

  version() {
    return this.json(this.x.fxs_web_version());
  }

  scenarios() {
    return this.json(this.x.fxs_web_scenarios());
  }

  behaviorName(kind) {
    return this.text(this.x.fxs_web_behavior_name(kind));
  }

  // Opens a replay (Uint8Array); throws with the library's reason (byte offset, what).
  open(bytes, name = 'replay') {
    const handle = this.x.fxs_web_open(this.copyIn(bytes), bytes.length);
    if (!handle) throw new Error(`${name}: ${this.text(this.x.fxs_web_last_error())}`);
    return new Replay(this, handle, name, bytes.length);
  }

  // Records a built-in scenario with the library's replay writer, in the page.
  // tamperTick >= 0 records a faulty peer (one bit of tamperAgent's x flips after that tick).
  record(name, { ticks = 0, keyframe = 250, tamperTick = -1, tamperAgent = 0 } = {}) {
    const namePtr = this.copyIn(new TextEncoder().encode(`${name}\0`));
    let answer;
    try {
      answer = this.json(this.x.fxs_web_record(namePtr, ticks, keyframe, tamperTick, tamperAgent));
    } finally {
      this.x.fxs_web_free(namePtr);
    }
    if (answer.error) throw new Error(`record ${name}: ${answer.error}`);
    const bytes = new Uint8Array(this.x.memory.buffer, answer.data, answer.size).slice();
    this.x.fxs_web_free(answer.data);
    return { bytes, scenario: answer.scenario, ticks: answer.ticks, finalHash: answer.final_hash };
  }

  // Two recordings of one session: identical, or where they diverge.
  diff(a, b) {
    return this.json(this.x.fxs_web_diff(a.handle, b.handle));
  }
}

export class Replay {
  constructor(fxs, handle, name, size) {
    this.fxs = fxs;
    this.handle = handle;
    this.name = name;
    this.size = size;
    this.info = fxs.json(fxs.x.fxs_web_info(handle));
  }

  // Re-simulates the whole replay: {verified, final_hash} or {diverged, first_bad_tick, difference}.
  verify() {
    return this.fxs.json(this.fxs.x.fxs_web_verify(this.handle));
  }

  // Shows the state after `tick`; returns the tick shown.
  seek(tick) {
    const shown = this.fxs.x.fxs_web_seek(this.handle, Math.max(0, Math.floor(tick)));
    if (shown < 0) throw new Error(`${this.name}: ${this.fxs.text(this.fxs.x.fxs_web_last_error())}`);
    return shown;
  }

  // The shown tick: hash, recorded hash, bounds, obstacles, walls, paths (raw Q16.16).
  frame() {
    return this.fxs.json(this.fxs.x.fxs_web_frame(this.handle));
  }

  // The live agents of the shown tick: Int32Array, AGENT_STRIDE values each.
  agents() {
    const n = this.fxs.x.fxs_web_agents(this.handle);
    const ptr = this.fxs.x.fxs_web_agent_data(this.handle);
    return new Int32Array(this.fxs.x.memory.buffer, ptr, n * AGENT_STRIDE).slice();
  }

  close() {
    if (this.handle) this.fxs.x.fxs_web_close(this.handle);
    this.handle = 0;
  }
}

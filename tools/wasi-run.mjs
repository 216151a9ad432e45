// Runs a wasm32-wasi program under Node's WASI, with the current directory (the checkout)
// and the system's temporary directory opened to it, and exits with the program's code:
//
//   node tools/wasi-run.mjs PROGRAM.wasm [ARGS...]
//
// The program sees the current directory both as "." (relative paths such as
// test/golden/flock.fxr) and under its absolute path. FXS_WASI_DIRS=dir1:dir2 opens more
// directories, each under its own absolute path.
import { readFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { resolve } from 'node:path';
import process from 'node:process';

// Node calls WASI experimental and says so on stderr at every start; other warnings still show.
process.removeAllListeners('warning');
process.on('warning', (w) => {
  if (w.name !== 'ExperimentalWarning') process.stderr.write(`${w.name}: ${w.message}\n`);
});
const { WASI } = await import('node:wasi');

const [program, ...args] = process.argv.slice(2);
if (!program) {
  process.stderr.write('usage: node tools/wasi-run.mjs PROGRAM.wasm [ARGS...]\n');
  process.exit(2);
}

const cwd = process.cwd();
const preopens = { '.': cwd, [cwd]: cwd, [tmpdir()]: tmpdir() };
for (const dir of (process.env.FXS_WASI_DIRS || '').split(':').filter(Boolean)) {
  preopens[resolve(dir)] = resolve(dir);
}

const wasi = new WASI({
  version: 'preview1',
  args: [program, ...args],
  env: {},
  preopens,
  returnOnExit: true,
});

let bytes;
try {
  bytes = await readFile(program);
} catch (error) {
  process.stderr.write(`wasi-run: cannot read ${program}: ${error.message}\n`);
  process.exit(127);
}

let code;
try {
  const module = await WebAssembly.compile(bytes);
  const instance = await WebAssembly.instantiate(module, wasi.getImportObject());
  code = wasi.start(instance);
} catch (error) {
  // A trap (unreachable, out-of-bounds access, stack overflow) is a crash, not an exit code.
  process.stderr.write(`wasi-run: ${program}: ${error && error.stack ? error.stack : error}\n`);
  code = 134;
}
process.exitCode = code;

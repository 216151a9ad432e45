// docs/browser.md's example: a built-in scene in a live world, two commands, 600 ticks, the
// hash and the replay. The web test runs it in Node from the built site (build/web) and
// compares its output with browser_world.expected.
import { loadFixsteer } from './js/fxs.mjs';

const fxs = await loadFixsteer('fxs_web.wasm');      // URL, file path (Node) or bytes
const world = fxs.loadScene('obstacle_field', { room: { obstacles: 8, walls: 8 } });
world.step();                                         // tick 0: the scene spawns its agents
const cmd = fxs.command;
const [first] = world.agentList();                    // { slot, handle, x, y, vx, vy, ... }
const { results } = world.step([
  cmd.setTargetPoint(first.handle, 1450, 640),
  cmd.addWall(250, 1120, 650, 1080),
]);                                                   // [{ result: 0, message: 'ok' }, ...]
console.log(results.map((r) => r.message).join(', '));
for (let t = 0; t < 600; ++t) world.step();
console.log(world.tick, world.hash());                // 602 '0x…', on every machine
const { bytes, ticks, finalHash } = world.replay();   // fixsteer verify prints finalHash
console.log(`${ticks} ticks recorded in ${bytes.length} bytes, final hash ${finalHash}`);
world.close();

// The JavaScript API (web/js/fxs.mjs) in Node, against the module the page loads: builders
// take world units (raw Q16.16 only through makeRaw, setLimitsRaw and rawParams), and the
// move, navigation-grid and navigate builders make the commands the C library's builders make,
// proven by the hash: examples/rts/rts.yaml without its move events, clicked from JS, ends
// on the hash examples/rts/rts.c prints; a building placed in a mesh world gives the mesh of
// a world built with it. web-test.mjs runs these before the browser.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { CommandBuilder, LiveWorld, MESH_TRIANGLE_STRIDE, loadFixsteer, meshEdges, ONE } from '../js/fxs.mjs';

// A function that throws a RangeError whose message matches `pattern`.
function throwsRange(fn, pattern) {
  try {
    fn();
  } catch (e) {
    return e instanceof RangeError && pattern.test(e.message);
  }
  return false;
}

const same = (a, b) => JSON.stringify(a) === JSON.stringify(b);

export async function apiChecks(root, site, check) {
  const fxs = await loadFixsteer(join(site, 'fxs_web.wasm'));
  const c = fxs.command;

  // World units in, Q16.16 out; raw only by name.
  check('api: make takes world units', same(c.make('set_target_point', { agent: 7, args: [300, 200.5] }).args,
    [300 * ONE, 200.5 * ONE, 0, 0, 0, 0, 0, 0]));
  check('api: make and setTargetPoint make one command', same(c.make('set_target_point', { agent: 7, args: [300, 200] }),
    c.setTargetPoint(7, 300, 200)));
  check('api: makeRaw passes raw Q16.16 as given', same(c.makeRaw('set_target_point', { agent: 7, args: [ONE, -3] }).args,
    [ONE, -3, 0, 0, 0, 0, 0, 0]));
  check('api: makeRaw refuses a value that is not an int32', throwsRange(() => c.makeRaw('move', { args: [0.5] }), /raw arg 0 must be an int32/));
  check('api: make refuses more than 8 args', throwsRange(() => c.make('move', { args: new Array(9).fill(1) }), /at most 8 args/));
  check('api: make refuses a value that is not a number', throwsRange(() => c.make('move', { args: ['x'] }), /not a number/));
  check('api: move refuses a group tag that is not a whole number', throwsRange(() => c.move(3, 1.5, 620, 160, 10), /move: ref must be a whole number/));
  check('api: make refuses an agent handle that is not a whole number', throwsRange(() => c.setTargetPoint(2.5, 1, 1), /agent must be a whole number/));
  check('api: a handle read as an int32 encodes as its uint32', c.despawn(-2).agent === 0xfffffffe);
  check('api: move in world units', same(c.move(3, 12, 620, 160, 10),
    { type: 'move', agent: 3, ref: 12, args: [620 * ONE, 160 * ONE, 10 * ONE, 0, 0, 0, 0, 0] }));
  check('api: setNavGrid encodes as fxs_command_set_nav_grid',
    same(c.setNavGrid({ cellSize: 10, columns: 80, rows: 60, radius: 8, budget: 2000 }),
      { type: 'set_nav_grid', agent: 0, ref: 2000, args: [0, 0, 10 * ONE, 80 * ONE, 60 * ONE, 8 * ONE, 0, 0] }));
  check('api: setNavGrid refuses a fraction of a column', throwsRange(() => c.setNavGrid({ cellSize: 10, columns: 8.5, rows: 6, radius: 8, budget: 1 }), /columns must be a whole number/));
  check('api: setNavGrid names a missing field', throwsRange(() => c.setNavGrid({ columns: 8, rows: 6, radius: 8, budget: 1 }), /cellSize is needed/));
  check('api: setLimits in world units, defaults as fxs_default_agent()',
    same(c.setLimits(5, { max_speed: 2, max_turn_rate: 0.3 }).args, [2 * ONE, ONE / 4, ONE, 8 * ONE, 13107, 3277, 19661, 0]) &&
    c.setLimits(5, { orientation: 'fixed' }).ref === 0);

  // The reference: every builder and every LiveWorld call is named in docs/browser.md.
  const page = readFileSync(join(root, 'docs/browser.md'), 'utf8');
  const unnamed = [CommandBuilder, LiveWorld].flatMap((cls) => Object.getOwnPropertyNames(cls.prototype)
    .filter((n) => n !== 'constructor' && !new RegExp(`\\b${n}\\b`).test(page)).map((n) => `${cls.name}.${n}`));
  check('api: docs/browser.md names every command builder and LiveWorld call', unnamed.length === 0, unnamed.join(', '));

  // The scene with its clicks taken out: the JS gives them (examples/rts/rts.c's ticks, points
  // and gap; its tags and source 2, as the scene file would).
  const yaml = readFileSync(join(root, 'examples/rts/rts.yaml'), 'utf8').split('\n').filter((l) => !l.includes('move:')).join('\n');
  const world = fxs.loadSceneFile(yaml, 'rts-clicks-from-js');
  const units = world.agentList().map((a) => a.handle);
  const red = units.slice(0, 8), blue = units.slice(8);
  const first = world.agent(0);
  const navigate = c.addNavigate(first.handle, { slowingRadius: 30 });
  check('api: addNavigate makes the behavior the scene file gives', same(navigate.args.slice(1, 1 + first.behaviors[0].params.length), first.behaviors[0].params) &&
    navigate.args[0] === first.behaviors[0].weight && first.behaviors[0].name === 'navigate');
  const results = [];
  for (let tick = 0; tick < 900; ++tick) {
    let orders = [];
    if (tick === 5) orders = [...c.moveGroup(red, 82, 620, 160, 10), ...c.moveGroup(blue, 90, 180, 440, 10)];
    if (tick === 450) orders = c.moveGroup(red, 99, 200, 300, 10);
    const answer = world.step(orders.map((o) => ({ ...o, source: 2 })));
    results.push(...answer.results);
  }
  const expected = /final hash (0x[0-9a-f]{16})/.exec(readFileSync(join(root, 'examples/rts/rts.expected'), 'utf8'))[1];
  check('api: the RTS clicks built in JS end on examples/rts/rts.c\'s hash', world.hash() === expected,
    `${world.hash()}, C ${expected}; results ${[...new Set(results.map((r) => r.message))].join(', ')}`);
  const spots = world.agentList().slice(0, 8).map((a) => [a.x, a.y]);
  check('api: the red team rests round its last click', spots.every(([x, y]) => Math.hypot(x - 200, y - 300) < 60), JSON.stringify(spots));

  // The grid and its costs through the builders, in a live world: a block outside the grid is
  // refused by name, a new grid applies.
  const costs = world.step([c.setNavCosts(79, 59, 2, 1, 0), c.setNavCosts(0, 0, 80, 1, 5),
    c.setNavGrid({ cellSize: 20, columns: 40, rows: 30, radius: 8, budget: 500 })]);
  check('api: setNavCosts and setNavGrid in a world', costs.results[0].message === world.fxs.resultMessage(costs.results[0].result) &&
    costs.results[0].result !== 0 && costs.results[1].result === 0 && costs.results[2].result === 0,
    costs.results.map((r) => r.message).join('; '));
  world.close();

  // A mesh world's mesh through the API: a building placed at run time gives the geometry a
  // world with those walls from its start has (the canonical digest does not depend on the
  // order of the edits), a mesh of V + T - 1 sides; a grid world has none.
  const sceneFile = readFileSync(join(root, 'scenarios/nav_building_mesh.yaml'), 'utf8');
  const building = [[470, 270, 530, 270], [530, 270, 530, 430], [530, 430, 470, 430], [470, 430, 470, 270]];
  const live = fxs.loadSceneFile(sceneFile, 'nav_building_mesh.yaml', { room: { walls: 4 } });
  live.step([], { logic: false });
  const bare = live.mesh();
  const placed = live.step(building.map((w) => c.addWall(...w)), { logic: false });
  const edited = live.mesh();
  const fromStart = fxs.loadSceneFile(sceneFile.replace('walls:\n', `walls:\n${building.map((w) => `  - [${w}]\n`).join('')}`), 'built.yaml');
  fromStart.step([], { logic: false });
  const built = fromStart.mesh();
  const sides = (m) => meshEdges(m).length === m.vertices.length / 2 + m.triangles.length / MESH_TRIANGLE_STRIDE - 1;
  check('api: a building placed in a mesh world gives the mesh of a world built with it (canonical digest), each side once',
    placed.results.every((r) => r.result === 0) && edited.canonicalDigest === built.canonicalDigest && edited.canonicalDigest !== bare.canonicalDigest &&
      edited.triangles.length === built.triangles.length && edited.version > bare.version && sides(bare) && sides(edited),
    `bare ${bare.canonicalDigest} (${bare.triangles.length / 4} triangles), placed ${edited.canonicalDigest} (${edited.triangles.length / 4}), built ${built.canonicalDigest} (${built.triangles.length / 4})`);
  live.close();
  fromStart.close();
  const gridWorld = fxs.loadScene('obstacle_field');
  check('api: a world without a mesh answers mesh() with null', gridWorld.mesh() === null);
  gridWorld.close();
}

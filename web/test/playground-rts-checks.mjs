// The playground's RTS controls in a real browser at 1280 x 800 (run by web-test.mjs): the
// page plays at once with its controls, map and one-line legend in view and a header in plain
// words; then on scenes/nav_rts.yaml with the scene's own orders off: a click and a
// Shift-click select, a box selects the units in it, a right-click sends them with one
// `move` each (one group tag, one point: every unit its own spot), a building (four walls) goes
// up while the scene plays, the units arrive east of the wall, and the downloaded replay
// verifies natively at the page's hash. Screenshot: build/web-test/playground-rts.png.
import { execFileSync } from 'node:child_process';
import { join } from 'node:path';

const ONE = 65536;
const WIDTH = 1280;
const HEIGHT = 800;
const GOAL = [900, 400]; // east of nav_rts's wall (x = 600, y 120..680)

export async function rtsChecks(browser, base, { ROOT, TOOL, OUT, check }) {
  const page = await browser.newPage({ viewport: { width: WIDTH, height: HEIGHT } });
  page.on('pageerror', (error) => check('no uncaught error in the RTS page', false, error.message));
  const native = (args) => {
    try {
      return execFileSync(TOOL, args, { cwd: ROOT, encoding: 'utf8', maxBuffer: 64 << 20 });
    } catch (error) {
      return `${error.stdout}${error.stderr}`;
    }
  };
  const pg = (fn, arg) => page.evaluate(fn, arg);
  const tick = async () => Number(await page.getAttribute('#hash', 'data-tick'));
  const screen = (p) => pg((q) => window.fixsteerPlayground.toScreen(...q), p);
  const selection = () => pg(() => [...window.fixsteerPlayground.state.selection].sort((a, b) => a - b));
  const units = () => pg(() => {
    const s = window.fixsteerPlayground.state;
    return s.world.agentList().map((a) => ({ slot: a.slot, x: a.x, y: a.y, target: s.world.agent(a.slot).target_point }));
  });
  const drag = async (from, to, { shift = false } = {}) => {
    const [ax, ay] = await screen(from);
    const [bx, by] = await screen(to);
    if (shift) await page.keyboard.down('Shift');
    await page.mouse.move(ax, ay);
    await page.mouse.down();
    await page.mouse.move(bx, by, { steps: 8 });
    await page.mouse.up();
    if (shift) await page.keyboard.up('Shift');
  };
  const click = async (p, { shift = false, button = 'left' } = {}) => {
    const [x, y] = await screen(p);
    if (shift) await page.keyboard.down('Shift');
    await page.mouse.click(x, y, { button });
    if (shift) await page.keyboard.up('Shift');
  };

  // As a person opens it: it plays, and everything to use it is on the first screen.
  await page.goto(`${base}playground.html?file=scenes/nav_rts.yaml`);
  await page.waitForFunction(() => document.body.dataset.ready, null, { timeout: 30_000 });
  await page.waitForFunction(() => Number(document.getElementById('hash').dataset.tick) > 10, null, { timeout: 10_000 }).catch(() => {});
  check('the playground plays as it opens', (await tick()) > 10 && (await page.textContent('#play')) === 'Pause', `tick ${await tick()}`);
  const outside = [];
  for (const id of ['play', 'step', 'speed', 'timeline', 'download-replay', 'tools', 'controls-legend', 'world']) {
    const box = await page.locator(`#${id}`).boundingBox();
    if (!box || box.x < 0 || box.y < 0 || box.x + box.width > WIDTH || box.y + box.height > HEIGHT) outside.push(`${id} ${JSON.stringify(box)}`);
  }
  check(`at ${WIDTH} x ${HEIGHT} the controls, the legend and the whole map are in view`, outside.length === 0, outside.join('; '));
  const legend = await page.locator('#controls-legend').boundingBox();
  const legendText = await page.textContent('#controls-legend');
  check('the legend is one line and names the select, box, right-click move and building controls',
    legend.height < 24 && /Click a unit/.test(legendText) && /drag a box/.test(legendText) && /right-click: move/.test(legendText) && /Building/.test(legendText),
    `${legend.height} px: ${legendText}`);
  const header = await page.textContent('header');
  check('the header speaks plainly (no "fingerprint", no "replay format")', !/fingerprint|replay format/i.test(header) && /running in your browser/.test(header),
    header.replace(/\s+/g, ' ').trim());

  // The RTS session, stepped by hand from tick 1, with only the page's orders.
  await page.goto(`${base}playground.html?file=scenes/nav_rts.yaml&paused`);
  await page.waitForFunction(() => document.body.dataset.ready, null, { timeout: 30_000 });
  await page.uncheck('#logic');
  const start = await units();
  check('nav_rts opens paused at tick 1 with 24 units and the Select tool', (await tick()) === 1 && start.length === 24 &&
    (await page.isChecked('input[name=tool][value=select]')), `tick ${await tick()}, ${start.length} units`);
  await page.click('#step');

  const [first, second] = [start[0], start[7]];
  await click([first.x, first.y]);
  await click([second.x, second.y], { shift: true });
  const two = await selection();
  await click([first.x, first.y], { shift: true });
  const dropped = await selection();
  check('a click selects a unit, Shift-click adds one and drops a selected one',
    JSON.stringify(two) === JSON.stringify([first.slot, second.slot].sort((a, b) => a - b)) && JSON.stringify(dropped) === JSON.stringify([second.slot]),
    `${JSON.stringify(two)} then ${JSON.stringify(dropped)}`);

  const box = [[100, 320], [195, 450]];
  const inBox = start.filter((u) => u.x >= 100 && u.x <= 195 && u.y >= 320 && u.y <= 450).map((u) => u.slot).sort((a, b) => a - b);
  await drag(...box);
  const boxed = await selection();
  check(`a box dragged round the west columns selects exactly the ${inBox.length} units in it`,
    inBox.length >= 8 && JSON.stringify(boxed) === JSON.stringify(inBox) && (await page.getAttribute('#selection', 'data-count')) === String(inBox.length),
    `selected ${JSON.stringify(boxed)}, in the box ${JSON.stringify(inBox)}`);

  await click(GOAL, { button: 'right' });
  const sent = await pg(() => window.fixsteerPlayground.state.pending.map((c) => ({ type: c.type, ref: c.ref, args: c.args, source: c.source })));
  check('a right-click sends one move per selected unit: one group tag, one point, one gap, the page\'s source',
    sent.length === inBox.length && sent.every((c) => c.type === 'move' && c.ref === sent[0].ref && c.source === 8 &&
      c.args[0] === GOAL[0] * ONE && c.args[1] === GOAL[1] * ONE && c.args[2] === sent[0].args[2] && c.args[2] > 0),
    JSON.stringify(sent[0]));
  await page.click('#step');
  const moved = await units();
  const boxedSet = new Set(inBox);
  const spots = new Set(moved.filter((u) => boxedSet.has(u.slot)).map((u) => u.target.join(',')));
  const stayed = moved.filter((u) => !boxedSet.has(u.slot)).every((u) => {
    const was = start.find((s) => s.slot === u.slot);
    return u.target[0] === was.target[0] && u.target[1] === was.target[1];
  });
  check('each moved unit gets its own spot round the point; the others keep their targets', spots.size === inBox.length && stayed,
    `${spots.size} spots for ${inBox.length} units`);

  // A building while the scene plays: four walls across the east side, routes go round it.
  await page.selectOption('#speed', '120');
  await page.click('#play');
  await page.waitForFunction(() => Number(document.getElementById('hash').dataset.tick) > 40, null, { timeout: 10_000 });
  await page.check('input[name=tool][value=building]');
  const playing = (await page.textContent('#play')) === 'Pause';
  await drag([700, 330], [760, 470]);
  await page.waitForFunction(() => window.fixsteerPlayground.state.frame.walls.length === 5, null, { timeout: 10_000 }).catch(() => {});
  const walls = await pg(() => window.fixsteerPlayground.state.frame.walls);
  check('a building dragged while playing goes up as four walls round the rectangle', playing && walls.length === 5 &&
    walls.slice(1).every((w) => [w[0], w[2]].every((x) => x === 700 * ONE || x === 760 * ONE) && [w[1], w[3]].every((y) => y === 330 * ONE || y === 470 * ONE)),
    `playing ${playing}, walls ${JSON.stringify(walls.map((w) => w.slice(0, 4).map((v) => v / ONE)))}`);

  await page.selectOption('#speed', '240');
  await page.waitForFunction(() => Number(document.getElementById('hash').dataset.tick) > 700, null, { timeout: 30_000 }).catch(() => {});
  await page.click('#play');
  const end = await units();
  const arrived = end.filter((u) => boxedSet.has(u.slot) && u.x > 610 && Math.hypot(u.x - GOAL[0], u.y - GOAL[1]) < 150);
  const home = end.filter((u) => !boxedSet.has(u.slot) && u.x < 600);
  check(`by tick ${await tick()} the ${inBox.length} moved units are east of the wall round (${GOAL}), the others still west`,
    arrived.length === inBox.length && home.length === end.length - inBox.length, `${arrived.length} arrived, ${home.length} west`);
  await page.screenshot({ path: join(OUT, 'playground-rts.png') });

  const [download] = await Promise.all([page.waitForEvent('download'), page.click('#download-replay')]);
  const replayFile = join(OUT, 'playground-rts.fxr');
  await download.saveAs(replayFile);
  const pageHash = await page.getAttribute('#hash', 'data-hash');
  const pageTick = await tick();
  const verdict = native(['verify', replayFile]);
  check(`the RTS session's replay verifies natively at the page's hash ${pageHash} (tick ${pageTick})`,
    verdict.includes(`${pageTick} ticks verified, final hash ${pageHash}`), verdict.trim());
  const dump = native(['dump', replayFile]);
  const moves = (dump.match(/^\s*move\s+src 8 /gm) || []).length;
  const built = (dump.match(/^\s*add_wall\s+src 8 /gm) || []).length;
  const scene = (dump.match(/^\s*move\s+src 2 /gm) || []).length;
  check('the replay holds the page\'s moves and the building\'s walls (source 8), and none of the scene\'s own orders',
    moves === inBox.length && built === 4 && scene === 0, `${moves} moves, ${built} walls, ${scene} scene moves`);
  await page.close();
}

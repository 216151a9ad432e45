// The navigation mesh in the pages (run by web-test.mjs): a mesh world (navigation: {kind:
// mesh}) has its triangles drawn under the agents. The viewer, on nav_building_mesh recorded by
// the native tool: the frame names the mesh, every side of it is drawn once (V + T - 1 sides,
// Euler), hiding it changes many pixels, and the building at tick 60 and the pond at 150 show as
// more triangles. The playground, on the three *_mesh scenes: each one's mesh drawn; then on
// nav_building_mesh with the scene's own orders off, a building dragged across the gap is
// re-triangulated on the next tick (more triangles, a new map version, drawn at once), every
// route goes round it over the wall's far end, and the downloaded replay verifies natively
// at the page's hash with the building's four walls from source 8.
// Screenshots: build/web-test/web-mesh.png, playground-mesh-before.png, playground-mesh-after.png.
import { execFileSync } from 'node:child_process';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

const ONE = 65536;
const SCENE = 'nav_building_mesh';
// Our building: the scene's own square across the gap of its wall (x = 500, gap y 280..420).
const BUILDING = [[470, 270], [530, 430]];
const BUILD_TICK = 30;

function native(TOOL, ROOT, args) {
  try {
    return execFileSync(TOOL, args, { cwd: ROOT, encoding: 'utf8', maxBuffer: 64 << 20 });
  } catch (error) {
    return `${error.stdout}${error.stderr}`;
  }
}

// Reads the canvas's mesh counters and what the page's world (or replay) holds.
async function drawn(page) {
  return page.$eval('#world', (c) => ({ triangles: Number(c.dataset.meshTriangles), edges: Number(c.dataset.meshEdges) }));
}

async function pixels(page, name) {
  await page.$eval('#world', (c, n) => {
    window.keptPixels = window.keptPixels || {};
    window.keptPixels[n] = c.getContext('2d').getImageData(0, 0, c.width, c.height).data;
  }, name);
}

async function differing(page, a, b) {
  return page.evaluate(([x, y]) => {
    const p = window.keptPixels[x], q = window.keptPixels[y];
    let n = 0;
    for (let i = 0; i < p.length; i += 4) if (p[i] !== q[i] || p[i + 1] !== q[i + 1] || p[i + 2] !== q[i + 2]) ++n;
    return n;
  }, [a, b]);
}

// Whether segment p-q crosses segment a-b (proper crossing, in doubles: a test, not the library).
function crosses(p, q, a, b) {
  const side = (o, s, t) => Math.sign((s[0] - o[0]) * (t[1] - o[1]) - (s[1] - o[1]) * (t[0] - o[0]));
  return side(p, q, a) * side(p, q, b) < 0 && side(a, b, p) * side(a, b, q) < 0;
}

export async function meshViewerChecks(page, base, { ROOT, TOOL, OUT, check }) {
  const file = join(mkdtempSync(join(tmpdir(), 'fxs-web-mesh-')), `${SCENE}.fxr`);
  native(TOOL, ROOT, ['record', '--scenario', `scenarios/${SCENE}.yaml`, '--ticks', '200', '--out', file]);
  const expected = (/final hash (0x[0-9a-f]{16})/.exec(native(TOOL, ROOT, ['verify', file])) || [])[1];
  await page.goto(base);
  await page.waitForFunction(() => document.body.dataset.ready, null, { timeout: 30_000 });
  await page.setInputFiles('#file-a', file);
  await page.waitForFunction(() => !['busy', 'none', undefined].includes(document.getElementById('verify-a').dataset.state), null, { timeout: 30_000 });
  const hash = await page.getAttribute('#verify-a', 'data-final-hash');
  check(`${SCENE} recorded natively verifies in the viewer with the native hash ${expected}`, !!expected && hash === expected, `${hash}`);
  const at = async (tick) => {
    await page.$eval('#timeline', (el, t) => {
      el.value = String(t);
      el.dispatchEvent(new Event('input', { bubbles: true }));
    }, tick);
    await page.waitForFunction((t) => document.getElementById('world').dataset.tick === String(t), tick, { timeout: 10_000 });
    const mesh = await page.evaluate(() => {
      const m = window.fixsteerViewer.state.a.mesh();
      return m && { triangles: m.triangles.length / 4, vertices: m.vertices.length / 2, version: m.version };
    });
    const frame = await page.evaluate(() => window.fixsteerViewer.state.a.frame());
    return { mesh, frame, drawn: await drawn(page), routes: Number(await page.getAttribute('#world', 'data-route-count')) };
  };
  const early = await at(40);
  const late = await at(200);
  const euler = (s) => s.mesh && s.drawn.triangles === s.mesh.triangles && s.drawn.edges === s.mesh.vertices + s.mesh.triangles - 1;
  check(`${SCENE}: the viewer draws the mesh, every side once (tick 40: ${early.drawn.triangles} triangles, ${early.drawn.edges} sides)`,
    euler(early) && euler(late) && early.frame.mesh && early.frame.mesh.triangles === early.mesh.triangles && early.drawn.edges > 0,
    `tick 40 ${JSON.stringify(early.mesh)} drew ${JSON.stringify(early.drawn)}; tick 200 ${JSON.stringify(late.mesh)} drew ${JSON.stringify(late.drawn)}`);
  check(`${SCENE}: the building (tick 60) and the pond (tick 150) show in the mesh (${early.mesh && early.mesh.triangles} -> ${late.mesh && late.mesh.triangles} triangles) and the 20 routes are drawn`,
    early.mesh && late.mesh && late.mesh.triangles > early.mesh.triangles && late.mesh.version > early.mesh.version &&
      late.frame.walls.length === 6 && late.frame.obstacles.length === 1 && late.routes === 20,
    `${late.frame.walls.length} walls, ${late.frame.obstacles.length} obstacles, ${late.routes} routes`);
  await pixels(page, 'mesh');
  await page.locator('#world').screenshot({ path: join(OUT, 'web-mesh.png') });
  await page.uncheck('#show-mesh');
  await pixels(page, 'no-mesh');
  const hidden = await drawn(page);
  await page.check('#show-mesh');
  const meshPixels = await differing(page, 'mesh', 'no-mesh');
  check(`${SCENE}: hiding the mesh takes its lines away (${meshPixels} pixels are theirs)`, meshPixels >= 2000 && hidden.edges === 0,
    `${meshPixels} pixels, ${hidden.edges} sides drawn when hidden`);
  // A grid world has none.
  await page.goto(`${base}?replay=replays/nav_building.fxr`);
  await page.waitForFunction(() => !['busy', 'none', undefined].includes(document.getElementById('verify-a').dataset.state), null, { timeout: 30_000 });
  const grid = await page.evaluate(() => ({ mesh: window.fixsteerViewer.state.a.mesh(), frame: window.fixsteerViewer.state.a.frame().mesh }));
  check('a grid world\'s replay has no mesh and none is drawn', grid.mesh === null && grid.frame === null && (await drawn(page)).edges === 0);
}

export async function meshPlaygroundChecks(browser, base, { ROOT, TOOL, OUT, check }) {
  const page = await browser.newPage({ viewport: { width: 1280, height: 800 } });
  page.on('pageerror', (error) => check('no uncaught error in the mesh playground', false, error.message));
  const pg = (fn, arg) => page.evaluate(fn, arg);
  const tick = async () => Number(await page.getAttribute('#hash', 'data-tick'));
  const screen = (p) => pg((q) => window.fixsteerPlayground.toScreen(...q), p);
  const meshNow = () => pg(() => {
    const m = window.fixsteerPlayground.state.world.mesh();
    return m && { triangles: m.triangles.length / 4, vertices: m.vertices.length / 2, version: m.version, canonical: m.canonicalDigest };
  });
  const steps = (n) => pg((k) => {
    for (let i = 0; i < k; ++i) window.fixsteerPlayground.step({ draw: i === k - 1 });
  }, n);

  // Each mesh scene from the scene list: its mesh drawn, every side once.
  await page.goto(`${base}playground.html?paused`);
  await page.waitForFunction(() => document.body.dataset.ready, null, { timeout: 30_000 });
  const none = await drawn(page);
  for (const scene of ['nav_door_mesh', 'nav_maze_mesh', SCENE]) {
    await page.selectOption('#scene', `scenes/${scene}.yaml`);
    await page.waitForFunction((s) => document.title.endsWith(s), scene, { timeout: 10_000 });
    const m = await meshNow();
    const d = await drawn(page);
    check(`the playground draws ${scene}'s mesh from the scene list (${d.triangles} triangles, ${d.edges} sides)`,
      m && d.triangles === m.triangles && d.edges === m.vertices + m.triangles - 1 && d.edges > 0 &&
        (await page.getAttribute('#mesh-info', 'data-triangles')) === String(m.triangles),
      `${JSON.stringify(m)}, drew ${JSON.stringify(d)}`);
  }
  check('obstacle_field (no navigation) draws no mesh', none.edges === 0 && none.triangles === 0, JSON.stringify(none));

  // nav_building_mesh with the page's orders only: our building across the gap.
  await page.goto(`${base}playground.html?file=scenes/${SCENE}.yaml&paused`);
  await page.waitForFunction(() => document.body.dataset.ready, null, { timeout: 30_000 });
  await page.uncheck('#logic');
  await steps(BUILD_TICK - 1);
  const before = await meshNow();
  await pixels(page, 'mesh');
  await page.uncheck('#show-mesh');
  await pixels(page, 'no-mesh');
  await page.check('#show-mesh');
  const meshPixels = await differing(page, 'mesh', 'no-mesh');
  check(`${SCENE}: the mesh's lines are the playground's (${meshPixels} pixels), toggled by its checkbox`, meshPixels >= 1000, `${meshPixels} pixels`);
  await page.screenshot({ path: join(OUT, 'playground-mesh-before.png') });
  await page.check('input[name=tool][value=building]');
  const [a, b] = [await screen(BUILDING[0]), await screen(BUILDING[1])];
  await page.mouse.move(a[0], a[1]);
  await page.mouse.down();
  await page.mouse.move(b[0], b[1], { steps: 8 });
  await page.mouse.up();
  const pending = await meshNow();
  await page.click('#step'); // the four walls apply at the start of this tick
  const after = await meshNow();
  const shown = await drawn(page);
  const walls = await pg(() => window.fixsteerPlayground.state.frame.walls.length);
  check(`${SCENE}: a building placed re-triangulates the mesh on the next tick and the drawing follows at once (${before.triangles} -> ${after.triangles} triangles)`,
    pending.version === before.version && walls === 6 && after.triangles > before.triangles && after.version > before.version &&
      after.canonical !== before.canonical && shown.triangles === after.triangles && shown.edges === after.vertices + after.triangles - 1,
    `before ${JSON.stringify(before)}, after ${JSON.stringify(after)}, drew ${JSON.stringify(shown)}, ${walls} walls`);

  // Routes go round it: over the wall's far end (y 580), never through the building.
  await steps(60);
  const routes = await pg(() => {
    const s = window.fixsteerPlayground.state;
    const at = new Map(s.world.agentList().map((u) => [u.slot, u]));
    return s.frame.routes.map((r) => ({ x: at.get(r.slot).x, y: at.get(r.slot).y, next: r.next, points: r.points }));
  });
  const sides = [[[470, 270], [530, 270]], [[530, 270], [530, 430]], [[530, 430], [470, 430]], [[470, 430], [470, 270]]];
  let through = 0;
  let round = 0;
  for (const r of routes) {
    const p = [[r.x, r.y]];
    for (let k = r.next; k < r.points.length / 2; ++k) p.push([r.points[2 * k] / ONE, r.points[2 * k + 1] / ONE]);
    for (let k = 1; k < p.length; ++k) if (sides.some(([s, t]) => crosses(p[k - 1], p[k], s, t))) ++through;
    if (r.x < 470 && p.some(([, y]) => y > 575)) ++round;
  }
  const west = routes.filter((r) => r.x < 470).length;
  check(`${SCENE}: by tick ${await tick()} every route goes round the building (${round} of ${west} west of it over the wall's far end, none through it)`,
    routes.length === 20 && west >= 10 && round === west && through === 0, `${routes.length} routes, ${through} legs through the building`);
  await page.screenshot({ path: join(OUT, 'playground-mesh-after.png') });

  const [download] = await Promise.all([page.waitForEvent('download'), page.click('#download-replay')]);
  const replayFile = join(OUT, 'playground-mesh.fxr');
  await download.saveAs(replayFile);
  const pageHash = await page.getAttribute('#hash', 'data-hash');
  const pageTick = await tick();
  const verdict = native(TOOL, ROOT, ['verify', replayFile]);
  const dump = native(TOOL, ROOT, ['dump', replayFile]);
  const built = (dump.match(/^\s*add_wall\s+src 8 /gm) || []).length;
  check(`${SCENE}: the session's replay verifies natively at the page's hash ${pageHash} (tick ${pageTick}) with the building's 4 walls`,
    verdict.includes(`${pageTick} ticks verified, final hash ${pageHash}`) && built === 4, `${verdict.trim()}; ${built} walls from source 8`);
  await page.close();
}

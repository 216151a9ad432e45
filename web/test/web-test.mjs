// The replay viewer in a real browser: Debian's Chromium, headless, driven by playwright-core.
// Run from the checkout after `make web tools` (make web-test does all of it):
//
//   node web/test/web-test.mjs [--screenshot FILE]   (default build/web-test/web-viewer.png;
//   the README's picture is docs/pictures/web-viewer.png, made the same way)
//
// For every golden replay the page must report the final hash the native tool prints, and
// after a scrub the agent count the native tool's trace gives for that tick; navigation and the
// group fields are drawn and toggle. Then the page
// records hunter_prey itself, records a faulty peer's copy and must name where they diverge.
// Before the browser, the JavaScript API in Node (api-checks.mjs): world units, the move,
// navigation and navigate builders, an RTS match clicked from JS at examples/rts/rts.c's hash;
// and (reference-checks.mjs) the typed reference web/js/fxs.d.ts complete and documented,
// every JavaScript snippet of the docs run with its expected output.
// Then the playground (playground-checks.mjs): clicks, drags, a slider, and the downloaded
// replay verified natively at the page's hash; its screenshots are build/web-test/playground*.png.
// Then the playground's RTS controls at 1280 x 800 (playground-rts-checks.mjs): box-select,
// a right-click move, a building while playing, the replay verified natively.
// The navigation mesh (mesh-checks.mjs): drawn by the viewer for a mesh world's replay, and by
// the playground for the *_mesh scenes, re-triangulated when a building is placed.
// --only viewer|playground runs one part. Prints one line per check and "web: N passed, N
// failed"; exits 1 on any failure.
import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import process from 'node:process';
import { fileURLToPath } from 'node:url';
import { chromium } from 'playwright-core';
import { startServer } from '../serve.mjs';
import { apiChecks } from './api-checks.mjs';
import { referenceChecks } from './reference-checks.mjs';
import { playgroundChecks } from './playground-checks.mjs';
import { rtsChecks } from './playground-rts-checks.mjs';
import { meshPlaygroundChecks, meshViewerChecks } from './mesh-checks.mjs';

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '../..');
const SITE = join(ROOT, 'build/web');
const TOOL = join(ROOT, 'build/bin/fixsteer');
const CHROMIUM = process.env.CHROMIUM || '/usr/bin/chromium';
const SCRUB_TICK = 600;
const args = process.argv.slice(2);
const screenshot = args.includes('--screenshot') ? args[args.indexOf('--screenshot') + 1] : 'build/web-test/web-viewer.png';
const only = args.includes('--only') ? args[args.indexOf('--only') + 1] : '';
const OUT = join(ROOT, 'build/web-test');

// The whole run is bounded: a hung browser must not hang CI.
const deadline = setTimeout(() => {
  console.log('web: the test took longer than 360 s');
  console.log(`web: ${passed} passed, ${failed + 1} failed`);
  process.exit(1);
}, 360_000);

let passed = 0;
let failed = 0;
function check(name, ok, detail = '') {
  if (ok) ++passed;
  else ++failed;
  console.log(`${ok ? 'ok  ' : 'FAIL'} ${name}${detail ? `: ${detail}` : ''}`);
}

// The module's size as docs/browser.md states it, within 10 % of the module built now: the
// figure is a measurement of one build, and a library that grows past it makes the page stale.
{
  const page = readFileSync(join(ROOT, 'docs/browser.md'), 'utf8');
  const stated = /fxs_web\.wasm`, ([0-9,]+) bytes/.exec(page);
  const actual = statSync(join(SITE, 'fxs_web.wasm')).size;
  const bytes = stated ? Number(stated[1].replaceAll(',', '')) : NaN;
  check('docs/browser.md states the wasm module\'s size within 10 %', Math.abs(actual - bytes) <= bytes / 10,
    `stated ${stated ? stated[1] : 'nothing'}, built ${actual} bytes`);
}

// What the native tool says: the final hash of a replay, the live agents after `tick` ticks.
function nativeHash(file) {
  const out = execFileSync(TOOL, ['verify', file], { cwd: ROOT, encoding: 'utf8' });
  return /final hash (0x[0-9a-f]{16})/.exec(out)[1];
}

// The final hash of a scene recorded now by the native tool: what a recording made in the
// page must hold (a new recording carries the current state hash; the goldens keep theirs).
function nativeRecordedHash(scenario, ticks) {
  const file = join(mkdtempSync(join(tmpdir(), 'fxs-web-')), `${scenario}.fxr`);
  execFileSync(TOOL, ['record', '--scenario', scenario, '--ticks', String(ticks), '--out', file],
    { cwd: ROOT, encoding: 'utf8' });
  return nativeHash(file);
}

// scenario: a built-in's name, or the name of a scene file in scenarios/ (nav_cup).
function nativeAgentCount(scenario, tick) {
  const file = `scenarios/${scenario}.yaml`;
  const scene = existsSync(join(ROOT, file)) ? file : scenario;
  const csv = execFileSync(TOOL, ['trace', '--scenario', scene, '--ticks', String(tick)], {
    cwd: ROOT,
    encoding: 'utf8',
    maxBuffer: 64 << 20,
  });
  return csv.split('\n').filter((line) => line.startsWith(`${tick},`)).length;
}

async function attribute(page, selector, name) {
  return page.$eval(selector, (el, n) => el.getAttribute(n), name);
}

// Waits until the page has verified its replay (A or B).
async function verified(page, which) {
  await page.waitForFunction((w) => {
    const s = document.getElementById(`verify-${w}`).dataset.state;
    return s && s !== 'none' && s !== 'busy';
  }, which, { timeout: 30_000 });
  return {
    state: await attribute(page, `#verify-${which}`, 'data-state'),
    hash: await attribute(page, `#verify-${which}`, 'data-final-hash'),
    firstBadTick: await attribute(page, `#verify-${which}`, 'data-first-bad-tick'),
    text: await page.textContent(`#verify-${which}`),
  };
}

// Moves the timeline to `tick` as a drag does (input events) and reads what was drawn.
async function scrub(page, tick) {
  await page.$eval('#timeline', (el, t) => {
    el.value = String(t);
    el.dispatchEvent(new Event('input', { bubbles: true }));
  }, tick);
  await page.waitForFunction((t) => document.getElementById('world').dataset.tick === String(t), tick, { timeout: 10_000 });
  return {
    agents: Number(await attribute(page, '#world', 'data-agent-count')),
    differing: Number(await attribute(page, '#world', 'data-diff-agents')),
    info: await page.textContent('#tick-info'),
  };
}

async function ready(page, url) {
  await page.goto(url);
  await page.waitForFunction(() => document.body.dataset.ready, null, { timeout: 30_000 });
  check(`page loads the module (${url.replace(/^http:\/\/[^/]+\//, '')})`, (await page.evaluate(() => document.body.dataset.ready)) === 'true',
    await page.textContent('#error'));
}

async function goldenReplays(page, base) {
  const files = readdirSync(join(ROOT, 'test/golden')).filter((f) => f.endsWith('.fxr')).sort();
  for (const file of files) {
    const name = file.replace(/\.fxr$/, '');
    const expected = nativeHash(`test/golden/${file}`);
    const started = Date.now();
    await ready(page, `${base}?replay=replays/${file}`);
    const v = await verified(page, 'a');
    check(`${name}: verified in the browser with the native final hash ${expected}`,
      v.state === 'verified' && v.hash === expected, `${v.state} ${v.hash} (${Date.now() - started} ms) ${v.state === 'verified' ? '' : v.text}`);
    const s = await scrub(page, SCRUB_TICK);
    const want = nativeAgentCount(name, SCRUB_TICK);
    check(`${name}: tick ${SCRUB_TICK} draws ${want} agents and matches its recorded hash`,
      s.agents === want && s.info.includes('= the recorded hash'), `drew ${s.agents}`);
  }
}

// Keeps the canvas's pixels in the page under `name` (they stay there: megabytes).
async function keepPixels(page, name) {
  await page.$eval('#world', (c, n) => {
    window.keptPixels = window.keptPixels || {};
    window.keptPixels[n] = c.getContext('2d').getImageData(0, 0, c.width, c.height).data;
  }, name);
}

// Pixels whose colour differs between two kept pictures.
async function pixelsDiffering(page, a, b) {
  return page.evaluate(([x, y]) => {
    const p = window.keptPixels[x], q = window.keptPixels[y];
    let n = 0;
    for (let i = 0; i < p.length; i += 4) {
      if (p[i] !== q[i] || p[i + 1] !== q[i + 1] || p[i + 2] !== q[i + 2]) ++n;
    }
    return n;
  }, [a, b]);
}

// nav_cup at tick NAV_TICK: the frame carries the grid's blocked cells and the 12 agents'
// routes, and the canvas shows them: hiding the routes (or the blocked cells) must change
// many pixels, so a viewer that does not draw them fails. Screenshot build/web-test/web-nav.png.
const NAV_TICK = 200;
async function navigationDrawn(page, base) {
  await ready(page, `${base}?replay=replays/nav_cup.fxr`);
  await verified(page, 'a');
  await scrub(page, NAV_TICK);
  const frame = await page.evaluate(() => window.fixsteerViewer.state.a.frame());
  const routes = frame.routes || [];
  const waypoints = routes.reduce((sum, r) => sum + r.points.length / 2, 0);
  check(`nav_cup: tick ${NAV_TICK}'s frame has the navigation grid and a route for each of the 12 agents`,
    frame.nav && frame.nav.blocked.length > 0 && routes.length === 12 && waypoints >= 24,
    `${frame.nav ? frame.nav.blocked.length / 3 : 'no'} blocked runs, ${routes.length} routes, ${waypoints} waypoints`);
  const drawnRoutes = Number(await attribute(page, '#world', 'data-route-count'));
  const drawnRuns = Number(await attribute(page, '#world', 'data-nav-runs'));
  await keepPixels(page, 'all');
  await page.locator('#world').screenshot({ path: join(OUT, 'web-nav.png') });
  await page.uncheck('#show-routes');
  await keepPixels(page, 'no-routes');
  await page.uncheck('#show-blocked');
  await keepPixels(page, 'neither');
  await page.check('#show-routes');
  await page.check('#show-blocked');
  const routePixels = await pixelsDiffering(page, 'all', 'no-routes');
  const blockedPixels = await pixelsDiffering(page, 'no-routes', 'neither');
  check(`nav_cup: the viewer draws the 12 routes (${routePixels} pixels are theirs)`,
    drawnRoutes === 12 && routePixels >= 50 * 12, `${drawnRoutes} routes drawn, ${routePixels} pixels`);
  check(`nav_cup: the viewer draws the blocked cells (${blockedPixels} pixels are theirs)`,
    drawnRuns === frame.nav.blocked.length / 3 && blockedPixels >= 1000, `${drawnRuns} runs drawn, ${blockedPixels} pixels`);
}

// nav_crowd at tick FIELD_TICK: its eight groups' integration fields come from the module
// (each goal cell its own field's, at cost 0, without a direction; one slot asked for gives
// that field alone) and the canvas shows them: hiding them must change many pixels, so a
// viewer that does not draw them fails. Screenshot build/web-test/web-fields.png.
const FIELD_TICK = 600;
async function fieldsDrawn(page, base) {
  await ready(page, `${base}?replay=replays/nav_crowd.fxr`);
  await verified(page, 'a');
  await scrub(page, FIELD_TICK);
  const all = await page.evaluate(async () => {
    const { unpackFieldCell } = await import(new URL('js/fxs.mjs', location.href).href);
    const nf = window.fixsteerViewer.state.a.navFields();
    const goals = nf.fields.map((f) => ({ slot: f.slot, ready: f.ready, ...unpackFieldCell(nf.cells[f.goal[1] * nf.columns + f.goal[0]]) }));
    const reached = nf.cells.reduce((n, c) => n + (unpackFieldCell(c).slot >= 0 ? 1 : 0), 0);
    const one = window.fixsteerViewer.state.a.navFields(3);
    const others = one.cells.reduce((n, c) => n + (![-1, 3].includes(unpackFieldCell(c).slot) ? 1 : 0), 0);
    return { count: nf.fields.length, goals, reached, cells: nf.cells.length, oneFields: one.fields.map((f) => f.slot), others };
  });
  const goalsRight = all.goals.every((g) => g.ready && g.value === 0 && g.slot >= 0 && g.direction === 8);
  check(`nav_crowd: tick ${FIELD_TICK} has 8 group fields, each goal cell its own at cost 0`,
    all.count === 8 && goalsRight && all.goals.every((g, i) => all.goals.findIndex((h) => h.slot === g.slot) === i),
    `${all.count} fields, goals ${JSON.stringify(all.goals)}`);
  check('nav_crowd: one field asked for by its slot comes alone', all.oneFields.join() === '3' && all.others === 0,
    `fields ${all.oneFields}, ${all.others} cells of others`);
  const drawnFields = Number(await attribute(page, '#world', 'data-field-count'));
  const drawnCells = Number(await attribute(page, '#world', 'data-field-cells'));
  await keepPixels(page, 'fields');
  await page.locator('#world').screenshot({ path: join(OUT, 'web-fields.png') });
  await page.uncheck('#show-fields');
  await keepPixels(page, 'no-fields');
  const hidden = Number(await attribute(page, '#world', 'data-field-count'));
  await page.check('#show-fields');
  const fieldPixels = await pixelsDiffering(page, 'fields', 'no-fields');
  check(`nav_crowd: the viewer draws the group fields (${fieldPixels} pixels are theirs)`,
    drawnFields === 8 && drawnCells === all.reached && all.reached > all.cells / 2 && hidden === 0 && fieldPixels >= 100000,
    `${drawnFields} fields and ${drawnCells} of ${all.cells} cells drawn (${all.reached} reached), ${hidden} when hidden, ${fieldPixels} pixels`);
}

async function pickerAndErrors(page, base) {
  await ready(page, base);
  await page.setInputFiles('#file-a', join(ROOT, 'test/golden/queue.fxr'));
  const v = await verified(page, 'a');
  const expected = nativeHash('test/golden/queue.fxr');
  check('the file picker opens and verifies a replay', v.state === 'verified' && v.hash === expected, `${v.state} ${v.hash}`);
  await page.setInputFiles('#file-a', { name: 'junk.fxr', mimeType: 'application/octet-stream', buffer: Buffer.from('not a replay at all') });
  const bad = await verified(page, 'a');
  check('a file that is not a replay is refused with the library\'s reason', bad.state === 'error' && /bad magic/.test(bad.text), bad.text);
}

// The native tool's verdict on a replay the page holds (A or B), written to a file.
function nativeVerdict(bytes) {
  const file = join(mkdtempSync(join(tmpdir(), 'fxs-web-')), 'page.fxr');
  writeFileSync(file, bytes);
  try {
    return execFileSync(TOOL, ['verify', file], { encoding: 'utf8' });
  } catch (error) {
    return String(error.stdout); // exit 1: diverged
  }
}

async function recordAndDiverge(page, base) {
  await ready(page, base);
  await page.selectOption('#scenario', 'hunter_prey');
  await page.fill('#record-ticks', '1200');
  await page.click('#record');
  const a = await verified(page, 'a');
  const expected = nativeRecordedHash('hunter_prey', 1200);
  check('hunter_prey recorded in the browser verifies with the native recording\'s final hash', a.state === 'verified' && a.hash === expected,
    `${a.state} ${a.hash}`);
  const bytesA = Buffer.from(await page.evaluate(() => Array.from(window.fixsteerViewer.state.bytesA)));
  check('the native tool verifies the page\'s recording with the same hash', nativeVerdict(bytesA).includes(`final hash ${expected}`));

  // A faulty peer: one bit of hunter 1's x flips after tick 400 (the divergence grows).
  await page.fill('#tamper-agent', '1');
  await page.fill('#tamper-tick', '400');
  await page.click('#record-faulty');
  const b = await verified(page, 'b');
  const native = nativeVerdict(Buffer.from(await page.evaluate(() => Array.from(window.fixsteerViewer.state.bytesB))));
  const nativeTick = (/DIVERGED at tick (\d+)/.exec(native) || [])[1];
  const nativeField = (/agent (\d+), field (\S+):/.exec(native) || []).slice(1).join(' ');
  const pageField = (/agent (\d+), field (\S+):/.exec(b.text) || []).slice(1).join(' ');
  check('a faulty peer\'s copy is caught at tick 400 with the agent and field the native tool names',
    b.state === 'diverged' && b.firstBadTick === '400' && nativeTick === '400' && pageField !== '' && pageField === nativeField,
    `page: tick ${b.firstBadTick}, agent/field ${pageField}; native: tick ${nativeTick}, ${nativeField}`);
  const diff = await page.textContent('#diff-status');
  check('the two recordings are shown to diverge at tick 400', (await attribute(page, '#diff-status', 'data-first-divergent-tick')) === '400', diff);
  const before = await scrub(page, 400);
  const after = await scrub(page, 900);
  check('agents are ringed as differing after the divergence only', before.differing === 0 && after.differing > 0,
    `tick 400: ${before.differing}, tick 900: ${after.differing}`);
  await scrub(page, 700);
  await page.click('#play');
  await page.waitForTimeout(500);
  await page.click('#play');
  const played = Number(await attribute(page, '#world', 'data-tick'));
  check('play advances the ticks', played > 700, `tick ${played}`);
  await page.click('#step');
  check('step shows the next tick', Number(await attribute(page, '#world', 'data-tick')) === played + 1);
  await scrub(page, 760);
  await page.selectOption('#colour-by', 'team');
  const teams = await page.$$eval('#legend li', (items) => items.map((li) => li.textContent));
  await page.selectOption('#colour-by', 'first');
  const firsts = await page.$$eval('#legend li', (items) => items.map((li) => li.textContent));
  check('the viewer colours by team on request: hunters and prey apart, one colour by first behavior',
    teams.length === 2 && firsts.length === 1, `team: ${teams}; first: ${firsts}`);
  await page.screenshot({ path: resolve(ROOT, screenshot), fullPage: true });
  console.log(`screenshot: ${screenshot}`);
}

mkdirSync(OUT, { recursive: true });
// The JavaScript API in Node first (api-checks.mjs): world units, the builders, an RTS
// match clicked from JS at the C program's hash.
try {
  await apiChecks(ROOT, SITE, check);
} catch (error) {
  check('the API checks ran to their end', false, error.stack || String(error));
}
// The typed reference (web/js/fxs.d.ts) against the module, and the JavaScript of the docs
// run (reference-checks.mjs).
try {
  await referenceChecks(ROOT, SITE, check);
} catch (error) {
  check('the reference checks ran to their end', false, error.stack || String(error));
}
const { server, url } = await startServer(SITE, 0);
const browser = await chromium.launch({ executablePath: CHROMIUM, headless: true, args: ['--no-sandbox'] });
try {
  const page = await browser.newPage({ viewport: { width: 1280, height: 1100 } });
  page.on('pageerror', (error) => check('no uncaught error in the page', false, error.message));
  if (only !== 'playground') {
    await goldenReplays(page, url);
    await navigationDrawn(page, url);
    await fieldsDrawn(page, url);
    await meshViewerChecks(page, url, { ROOT, TOOL, OUT, check });
    await pickerAndErrors(page, url);
    await recordAndDiverge(page, url);
  }
  if (only !== 'viewer') await playgroundChecks(page, url, { ROOT, TOOL, OUT, check, nativeHash, nativeRecordedHash });
  if (only !== 'viewer') await rtsChecks(browser, url, { ROOT, TOOL, OUT, check });
  if (only !== 'viewer') await meshPlaygroundChecks(browser, url, { ROOT, TOOL, OUT, check });
} catch (error) {
  check('the browser test ran to its end', false, error.stack || String(error));
} finally {
  await browser.close();
  server.close();
  clearTimeout(deadline);
}
console.log(`web: ${passed} passed, ${failed} failed`);
process.exitCode = failed ? 1 : 0;

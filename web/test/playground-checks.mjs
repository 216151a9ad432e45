// The playground in a real browser (run by web-test.mjs): a person's session on
// obstacle_field (a target click, an obstacle dragged, a wall drawn, a slider moved, play,
// a scrub back and a step on from there), the replay downloaded and verified by the native
// tool at the hash the page shows, the PNG export, colouring by team, a scenario file opened
// from disk (and a broken one refused with its line), and the JavaScript API reproducing a
// golden replay. Screenshots go to build/web-test/playground*.png.
import { execFileSync } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

const ONE = 65536;

export async function playgroundChecks(page, base, { ROOT, TOOL, OUT, check, nativeHash, nativeRecordedHash }) {
  const shot = (name) => join(OUT, name);
  const native = (args) => {
    try {
      return execFileSync(TOOL, args, { cwd: ROOT, encoding: 'utf8', maxBuffer: 64 << 20 });
    } catch (error) {
      return `${error.stdout}${error.stderr}`;
    }
  };
  const pg = (fn, arg) => page.evaluate(fn, arg);
  const tick = async () => Number(await page.getAttribute('#hash', 'data-tick'));
  const shownHash = () => page.getAttribute('#hash', 'data-hash');
  const clickAt = async (x, y) => {
    const [sx, sy] = await pg(([wx, wy]) => window.fixsteerPlayground.toScreen(wx, wy), [x, y]);
    await page.mouse.click(sx, sy);
  };
  const dragFrom = async (from, to) => {
    const [ax, ay] = await pg((p) => window.fixsteerPlayground.toScreen(...p), from);
    const [bx, by] = await pg((p) => window.fixsteerPlayground.toScreen(...p), to);
    await page.mouse.move(ax, ay);
    await page.mouse.down();
    await page.mouse.move(bx, by, { steps: 10 });
    await page.mouse.up();
  };
  const stepTimes = async (n) => {
    for (let i = 0; i < n; ++i) await page.click('#step');
  };

  await page.goto(`${base}playground.html?scene=obstacle_field&paused`);
  await page.waitForFunction(() => document.body.dataset.ready, null, { timeout: 30_000 });
  check('the playground loads obstacle_field and steps its tick 0', (await tick()) === 1 && Number(await page.getAttribute('#world', 'data-agent-count')) === 6,
    `tick ${await tick()}, ${await page.getAttribute('#world', 'data-agent-count')} agents`);
  await stepTimes(20);

  // A target click: every agent gets the point, as a set_target_point command.
  await page.check('input[name=tool][value=target]');
  await clickAt(1450, 640);
  const sent = await pg(() => window.fixsteerPlayground.state.pending.map((c) => [c.type, c.args[0], c.args[1]]));
  await page.click('#step');
  const targets = await pg(() => {
    const s = window.fixsteerPlayground.state;
    return s.world.agentList().map((a) => s.world.agent(a.slot).target_point);
  });
  check('a click on the ground gives all 6 agents that target point through set_target_point',
    sent.length === 6 && sent.every((c) => c[0] === 'set_target_point') && Math.abs(sent[0][1] / ONE - 1450) < 2 &&
      targets.every((t) => t[0] === sent[0][1] && t[1] === sent[0][2]),
    `sent ${JSON.stringify(sent[0])}, agents ${JSON.stringify(targets[0])}`);

  // An obstacle dragged: remove_obstacle + add_obstacle, same slot, new place.
  const before = await pg(() => window.fixsteerPlayground.state.frame.obstacles);
  const [ox, oy, or, oi] = before[0];
  await page.check('input[name=tool][value=obstacle]');
  await dragFrom([ox / ONE, oy / ONE], [ox / ONE + 160, oy / ONE + 70]);
  await page.click('#step');
  const after = await pg(() => window.fixsteerPlayground.state.frame.obstacles);
  const moved = after.find((o) => o[3] === oi);
  check('dragging an obstacle moves it (remove + add, same slot, same radius)',
    after.length === before.length && moved && moved[2] === or && Math.abs(moved[0] / ONE - (ox / ONE + 160)) < 2 &&
      Math.abs(moved[1] / ONE - (oy / ONE + 70)) < 2,
    `obstacle ${oi}: (${ox / ONE}, ${oy / ONE}) -> ${moved ? `(${moved[0] / ONE}, ${moved[1] / ONE})` : 'gone'}`);

  // A wall drawn.
  await page.check('input[name=tool][value=wall]');
  await dragFrom([250, 1120], [650, 1080]);
  await page.click('#step');
  const walls = await pg(() => window.fixsteerPlayground.state.frame.walls);
  check('dragging with the Wall tool adds a wall', walls.length === 1 && Math.abs(walls[0][0] / ONE - 250) < 2, JSON.stringify(walls));

  // A slider: arrive's slowing radius for all agents (clear_behaviors + add_behavior).
  const slider = 'fieldset[data-behavior=arrive] input[data-param=slowing_radius]';
  await page.waitForSelector(slider);
  await page.$eval(slider, (el) => {
    el.value = '150';
    el.dispatchEvent(new Event('input', { bubbles: true }));
    el.dispatchEvent(new Event('change', { bubbles: true }));
  });
  await page.click('#step');
  const radii = await pg(() => {
    const s = window.fixsteerPlayground.state;
    return s.world.agentList().map((a) => s.world.agent(a.slot).behaviors.find((b) => b.name === 'arrive').params[0]);
  });
  check('moving the slowing_radius slider gives every agent\'s arrive 150 units', radii.length === 6 && radii.every((r) => r === 150 * ONE),
    JSON.stringify(radii));
  check('the page reports the last commands as applied', (await page.getAttribute('#last-result', 'data-refused')) === '0',
    await page.textContent('#last-result'));

  // Play, pause, scrub back, and go on from there.
  await page.click('#play');
  await page.waitForFunction(() => Number(document.getElementById('hash').dataset.tick) > 120, null, { timeout: 20_000 });
  await page.click('#play');
  const live = await tick();
  const back = live - 37;
  await page.$eval('#timeline', (el, t) => {
    el.value = String(t);
    el.dispatchEvent(new Event('input', { bubbles: true }));
  }, back);
  const past = await pg(() => window.fixsteerPlayground.state.past && window.fixsteerPlayground.state.past.replay.frame());
  check(`scrubbing back to tick ${back} shows it from the recording, its hash the recorded one`,
    (await tick()) === back && past && past.matches && !(await page.isHidden('#past')), `shown ${await tick()}, live ${live}`);
  await page.screenshot({ path: shot('playground-scrubbed.png'), fullPage: true });
  await page.click('#step');
  check('a step from an earlier tick goes on from it (the later ticks dropped)',
    (await tick()) === back + 1 && Number(await page.getAttribute('#timeline', 'max')) === back + 1, `tick ${await tick()}`);
  await stepTimes(25);
  await clickAt(200, 300); // a second target, late in the session
  await stepTimes(15);

  // The replay downloaded and verified natively at the hash the page shows.
  const [download] = await Promise.all([page.waitForEvent('download'), page.click('#download-replay')]);
  const replayFile = shot('playground.fxr');
  await download.saveAs(replayFile);
  const pageHash = await shownHash();
  const pageTick = await tick();
  const verdict = native(['verify', replayFile]);
  check(`the downloaded replay verifies natively at the page's hash ${pageHash} (tick ${pageTick})`,
    verdict.includes(`${pageTick} ticks verified, final hash ${pageHash}`), verdict.trim());
  const dump = native(['dump', replayFile]);
  const ours = ['set_target_point', 'remove_obstacle', 'add_obstacle', 'add_wall', 'clear_behaviors', 'add_behavior']
    .filter((name) => new RegExp(`${name}\\s+src 8 `).test(dump));
  check('the replay holds the page\'s commands (source 8): target, obstacle move, wall, slider', ours.length === 6, ours.join(' '));
  const plain = /final hash (0x[0-9a-f]{16})/.exec(native(['record', '--scenario', 'obstacle_field', '--ticks', String(pageTick), '--out', shot('obstacle_field-plain.fxr')]));
  check('and differs from the scene recorded without them', plain && plain[1] !== pageHash, plain && plain[1]);

  // The picture.
  const [png] = await Promise.all([page.waitForEvent('download'), page.click('#export-png')]);
  const pngFile = shot('playground-export.png');
  await png.saveAs(pngFile);
  const bytes = readFileSync(pngFile);
  check('Export PNG downloads the picture', bytes.length > 10_000 && bytes.subarray(1, 4).toString() === 'PNG', `${bytes.length} bytes`);
  await page.screenshot({ path: shot('playground.png'), fullPage: true });

  // Colour by team: hunters and prey apart, though both start with separation.
  await page.selectOption('#scene', 'hunter_prey');
  await page.waitForFunction(() => document.getElementById('hash').dataset.tick === '1');
  await stepTimes(3);
  await page.click('#play');
  await page.waitForFunction(() => Number(document.getElementById('hash').dataset.tick) > 200, null, { timeout: 20_000 });
  await page.click('#play');
  await page.selectOption('#colour-by', 'first');
  const first = await page.$$eval('#legend li', (items) => items.map((li) => li.textContent));
  await page.selectOption('#colour-by', 'team');
  const teams = await page.$$eval('#legend li', (items) => items.map((li) => li.textContent));
  check('colour by team tells hunters (4) from prey (12), which share their first behavior', first.length === 1 && teams.length === 2 &&
    teams.some((t) => / × 4$/.test(t)) && teams.some((t) => / × 12$/.test(t)), `first: ${first}; team: ${teams}`);
  await page.screenshot({ path: shot('playground-teams.png'), fullPage: true });

  // A scenario file from disk, and a broken one.
  await page.setInputFiles('#scene-file', join(ROOT, 'scenarios/example.yaml'));
  await page.waitForFunction(() => document.title.endsWith(': example'), null, { timeout: 10_000 });
  await page.click('#play');
  await page.waitForFunction(() => Number(document.getElementById('hash').dataset.tick) > 150, null, { timeout: 20_000 });
  await page.click('#play');
  const [yamlDownload] = await Promise.all([page.waitForEvent('download'), page.click('#download-replay')]);
  const yamlReplay = shot('playground-example.fxr');
  await yamlDownload.saveAs(yamlReplay);
  const yamlHash = await shownHash();
  check(`a scenario file opened in the page records a replay the native tool verifies at ${yamlHash}`,
    native(['verify', yamlReplay]).includes(`final hash ${yamlHash}`), native(['verify', yamlReplay]).trim());
  await page.screenshot({ path: shot('playground-example.png'), fullPage: true });
  await page.setInputFiles('#scene-file', { name: 'broken.yaml', mimeType: 'text/yaml', buffer: Buffer.from('name: broken\nworld:\n  bounds: [0, 0, 100\n') });
  await page.waitForFunction(() => !document.getElementById('error').hidden, null, { timeout: 10_000 });
  const error = await page.textContent('#error');
  check('a broken scenario file is refused with its name and line, and the scene shown stays', /^broken\.yaml:\d+:/.test(error) &&
    (await pg(() => document.title)).endsWith(': example') && (await shownHash()) === yamlHash, error);

  // The JavaScript API alone: a built-in scene stepped without input is the native recording.
  const golden = nativeRecordedHash('hunter_prey', 1200);
  const api = await pg(async () => {
    const { loadFixsteer } = await import('./js/fxs.mjs');
    const fxs = await loadFixsteer(new URL('fxs_web.wasm', location.href));
    const world = fxs.loadScene('hunter_prey');
    for (let t = 0; t < 1200; ++t) world.step();
    const hash = world.hash();
    const { finalHash, ticks } = world.replay();
    world.close();
    return { hash, finalHash, ticks };
  });
  check(`the JS API steps hunter_prey 1200 ticks to the native recording's hash ${golden}`, api.hash === golden && api.finalHash === golden && api.ticks === 1200,
    JSON.stringify(api));
  // Untrusted input through the API: clear errors, no crash, the world still usable.
  const robust = await pg(async () => {
    const { loadFixsteer } = await import('./js/fxs.mjs');
    const fxs = await loadFixsteer(new URL('fxs_web.wasm', location.href));
    const said = (fn) => {
      try {
        fn();
        return 'no error';
      } catch (error) {
        return error.message;
      }
    };
    const world = fxs.loadScene('flock', { room: { obstacles: 2, walls: 2 } });
    world.step();
    const out = {
      badType: said(() => world.step([{ type: 200, agent: 0, ref: 0, args: [] }])),
      forward: said(() => world.rewind(world.tick + 5)),
      noAgent: said(() => world.agent(999999)),
      room: said(() => fxs.loadScene('flock', { room: { walls: 100000 } })),
      keyframe: said(() => fxs.loadScene('flock', { keyframe: 0 })),
      garbage: said(() => fxs.loadSceneFile(new Uint8Array([0xff, 0xfe, 0, 1, 2, 3, 0x7b, 0x5b]), 'garbage.yaml')),
      unknownKey: said(() => fxs.loadSceneFile('name: x\nwrold: {}\n', 'typo.yaml')),
    };
    // 20 ticks of 2000 random commands of every type with random fields: refused or applied.
    let seed = 12345;
    const rand = () => ((seed = (seed * 1103515245 + 12345) >>> 0) >>> 8);
    const types = fxs.commandTable.types.length;
    let refused = 0;
    for (let t = 0; t < 20; ++t) {
      const commands = [];
      for (let k = 0; k < 2000; ++k) {
        const args = [];
        for (let j = 0; j < 8; ++j) args.push(rand() % 4 ? (rand() % 2000) * 65536 - 1000 * 65536 : (rand() << 8) | 0);
        commands.push({ type: rand() % types, agent: rand() % 4 ? (rand() % 30) : rand() << 8, ref: rand() % 4 ? rand() % 40 : rand() << 8, args });
      }
      refused += world.step(commands).results.filter((r) => r.result).length;
    }
    const after = world.step();
    out.fuzzTick = after.tick;
    out.refused = refused;
    out.replayVerified = fxs.open(world.replay().bytes).verify().verified;
    world.close();
    out.closed = said(() => world.frame());
    return out;
  });
  check('bad input through the API gets clear errors: unknown command type, rewind forward, no agent, room, keyframe, non-YAML, unknown key, a closed world',
    /unknown command type 200/.test(robust.badType) && /cannot go forward/.test(robust.forward) && /no live agent/.test(robust.noAgent) &&
      /room/.test(robust.room) && /keyframe/.test(robust.keyframe) && /^garbage\.yaml/.test(robust.garbage) && /^typo\.yaml:2/.test(robust.unknownKey) &&
      /no live world/.test(robust.closed),
    JSON.stringify(robust));
  check('40,000 random commands of every type are applied or refused, and the session still verifies',
    robust.fuzzTick === 22 && robust.refused > 0 && robust.replayVerified, `tick ${robust.fuzzTick}, ${robust.refused} refused, verified ${robust.replayVerified}`);
  writeFileSync(shot('playground-summary.json'), JSON.stringify({ pageHash, pageTick, yamlHash, api }, null, 2));
}

// The JavaScript reference and the JavaScript of the docs, in Node (run by web-test.mjs before
// the browser): web/js/fxs.d.ts declares, each with a /** */ comment, every export of
// web/js/fxs.mjs and every method and getter of its classes, and declares no function, class
// or method that fxs.mjs does not have; every ```js block of docs/*.md includes a file of
// docs/snippets/, and every docs/snippets/*.mjs runs from the built site and prints its
// .expected file.
import { execFileSync } from 'node:child_process';
import { copyFileSync, existsSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';

// Whether lines[i] follows a /** */ comment: the line before closes it, and every line up
// to the one that opens it is a comment line.
function docAbove(lines, i) {
  if (i === 0 || !lines[i - 1].trim().endsWith('*/')) return false;
  for (let k = i - 1; k >= 0; --k) {
    const t = lines[k].trim();
    if (t.includes('/*')) return t.startsWith('/**');
    if (!t.startsWith('*')) return false;
  }
  return false;
}

// The declarations of a .d.ts text: { top: Map(name -> { kind, documented }), members:
// Map(class -> Map(name -> { method, documented })) }. A declaration is documented when the
// line before it closes a /** */ comment.
export function readDeclarations(text) {
  const lines = text.split('\n');
  const top = new Map();
  const members = new Map();
  let inClass = null;
  let inInterface = false;
  lines.forEach((line, i) => {
    const documented = docAbove(lines, i);
    const t = /^export (const|function|class|interface) (\w+)/.exec(line);
    if (t) {
      top.set(t[2], { kind: t[1], documented });
      if (t[1] === 'class') (inClass = t[2]), members.set(t[2], new Map());
      inInterface = t[1] === 'interface' && !line.trim().endsWith('}');
      return;
    }
    if (line.startsWith('}')) {
      inClass = null;
      inInterface = false;
      return;
    }
    if (!inClass || inInterface) return;
    const m = /^ {2}(get )?(\w+)\s*([(:<])/.exec(line);
    if (m) members.get(inClass).set(m[2], { method: m[3] !== ':', documented });
  });
  return { top, members };
}

// What the declarations leave out or get wrong against the module: a list of problems.
export function referenceProblems(module, text) {
  const { top, members } = readDeclarations(text);
  const problems = [];
  for (const [name, value] of Object.entries(module)) {
    const d = top.get(name);
    if (!d) problems.push(`${name}: exported by fxs.mjs, not declared`);
    else if (!d.documented) problems.push(`${name}: declared without a /** */ comment`);
    if (typeof value !== 'function' || !/^class /.test(Function.prototype.toString.call(value))) continue;
    const declared = members.get(name) || new Map();
    for (const member of Object.getOwnPropertyNames(value.prototype)) {
      const m = declared.get(member);
      if (!m) problems.push(`${name}.${member}: in fxs.mjs, not declared`);
      else if (!m.documented) problems.push(`${name}.${member}: declared without a /** */ comment`);
    }
    for (const [member, m] of declared) {
      if (!m.documented) problems.push(`${name}.${member}: declared without a /** */ comment`);
      if (m.method && !Object.getOwnPropertyNames(value.prototype).includes(member)) problems.push(`${name}.${member}: declared, not in fxs.mjs`);
    }
  }
  for (const [name, d] of top) {
    if (d.kind !== 'interface' && !(name in module)) problems.push(`${name}: declared, not exported by fxs.mjs`);
    if (!d.documented) problems.push(`${name}: declared without a /** */ comment`);
  }
  return [...new Set(problems)];
}

export async function referenceChecks(root, site, check) {
  const module = await import(pathToFileURL(join(root, 'web/js/fxs.mjs')).href);
  const text = readFileSync(join(root, 'web/js/fxs.d.ts'), 'utf8');
  const problems = referenceProblems(module, text);
  check('reference: web/js/fxs.d.ts declares and documents every export, method and getter of fxs.mjs, and nothing else',
    problems.length === 0, problems.join('; '));
  // The check can fail: a comment taken away, a method left out, a method that is not there.
  const undocumented = text.replace('  /** The RTS click for one agent', '  // The RTS click for one agent');
  const missing = text.replace(/^ {2}moveGroup\(.*$/m, '');
  const extra = text.replace('  /** Removes the navigation grid. */', '  /** Gone. */\n  teleport(agent: number): Command;\n  /** Removes the navigation grid. */');
  const caught = [
    referenceProblems(module, undocumented).some((p) => p.startsWith('CommandBuilder.move:')),
    referenceProblems(module, missing).some((p) => p.startsWith('CommandBuilder.moveGroup:')),
    referenceProblems(module, extra).some((p) => p.startsWith('CommandBuilder.teleport:')),
  ];
  check('reference: the check finds a comment taken away, a method left out and one that does not exist', caught.every(Boolean), JSON.stringify(caught));
  check('reference: docs/js-api.md shows web/js/fxs.d.ts', readFileSync(join(root, 'docs/js-api.md'), 'utf8').includes('--8<-- "web/js/fxs.d.ts"'));

  // The JavaScript of the docs: only snippets, each run and its output compared.
  const written = [];
  for (const page of readdirSync(join(root, 'docs')).filter((f) => f.endsWith('.md'))) {
    const blocks = readFileSync(join(root, 'docs', page), 'utf8').split(/^```js\s*$/m).slice(1).map((b) => b.split(/^```\s*$/m)[0]);
    blocks.forEach((b, k) => !/^--8<-- "docs\/snippets\/[\w.-]+\.mjs"\s*$/m.test(b) && written.push(`${page} block ${k + 1}`));
  }
  check('reference: every js block of docs/*.md includes a snippet that this test runs', written.length === 0, written.join(', '));
  for (const file of readdirSync(join(root, 'docs/snippets')).filter((f) => f.endsWith('.mjs'))) {
    const expected = join(root, 'docs/snippets', file.replace(/\.mjs$/, '.expected'));
    const copy = join(site, `snippet-${file}`);
    copyFileSync(join(root, 'docs/snippets', file), copy);
    let out;
    try {
      out = execFileSync(process.execPath, [copy], { cwd: site, encoding: 'utf8' });
    } catch (error) {
      out = `exit ${error.status}: ${error.stdout}${error.stderr}`;
    } finally {
      rmSync(copy);
    }
    const want = existsSync(expected) ? readFileSync(expected, 'utf8') : null;
    check(`reference: docs/snippets/${file} runs and prints its .expected`, want !== null && out === want, want === null ? 'no .expected file' : out.trim());
  }
}

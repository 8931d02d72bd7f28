#!/usr/bin/env node
'use strict';
// `npm run lint`'s module-boundary step (docs/decisions/0018-module-boundaries.md): dependency-cruiser
// checks the file rules of .dependency-cruiser.cjs, then this script folds the same graph into modules
// (the top-level folders of src/) and refuses any cycle between them, which a file-level rule cannot see.
// Usage: node scripts/check-boundaries.js [root ...]   (default src; paths relative to the working folder)
const { existsSync } = require('node:fs');
const { join } = require('node:path');
const { spawnSync } = require('node:child_process');

const REPO = join(__dirname, '..');
const CONFIG = join(REPO, '.dependency-cruiser.cjs');
const KNOWN = join(REPO, '.dependency-cruiser-known-violations.json');

/**
 * Files that wire every module together, as src/app.module.ts does: the entity registry lists each
 * module's entities for TypeORM, while the modules use database/'s helpers. They belong to no module.
 */
const COMPOSITION_ROOTS = new Set(['src/database/entities.ts']);

/** The module a file belongs to: its top-level folder under src/ (null for src/*.ts, composition roots and outside src). */
function moduleOf(path) {
  if (COMPOSITION_ROOTS.has(path)) return null;
  const match = /^src\/([^/]+)\//.exec(path);
  return match ? match[1] : null;
}

/** Module-level edges of runtime imports; specs and `import type` do not make modules depend on each other. */
function moduleGraph(modules) {
  const graph = new Map();
  for (const m of modules) {
    const from = moduleOf(m.source);
    if (from === null || /\.(spec|e2e-spec)\.ts$/.test(m.source)) continue;
    for (const d of m.dependencies) {
      if (d.dependencyTypes.includes('type-only')) continue;
      const to = moduleOf(d.resolved);
      if (to === null || to === from) continue;
      if (!graph.has(from)) graph.set(from, new Set());
      graph.get(from).add(to);
    }
  }
  return graph;
}

/** Strongly connected components of more than one module (Tarjan), each sorted. */
function moduleCycles(graph) {
  let next = 0;
  const index = new Map();
  const low = new Map();
  const stack = [];
  const onStack = new Set();
  const cycles = [];
  const visit = (v) => {
    index.set(v, next);
    low.set(v, next++);
    stack.push(v);
    onStack.add(v);
    for (const w of graph.get(v) ?? []) {
      if (!index.has(w)) {
        visit(w);
        low.set(v, Math.min(low.get(v), low.get(w)));
      } else if (onStack.has(w)) low.set(v, Math.min(low.get(v), index.get(w)));
    }
    if (low.get(v) !== index.get(v)) return;
    const component = [];
    let w;
    do {
      w = stack.pop();
      onStack.delete(w);
      component.push(w);
    } while (w !== v);
    if (component.length > 1) cycles.push(component.sort());
  };
  for (const v of graph.keys()) if (!index.has(v)) visit(v);
  return cycles;
}

function main(roots) {
  const args = [join(REPO, 'node_modules', 'dependency-cruiser', 'bin', 'dependency-cruise.mjs'), ...roots, '--config', CONFIG, '--output-type', 'json'];
  if (existsSync(KNOWN)) args.push('--ignore-known', KNOWN);
  const run = spawnSync(process.execPath, args, { encoding: 'utf8', maxBuffer: 256 * 1024 * 1024 });
  if (run.status !== 0 && !run.stdout) {
    process.stderr.write(run.stderr);
    return 2;
  }
  const result = JSON.parse(run.stdout);
  let failures = 0;
  for (const v of result.summary.violations) {
    if (v.rule.severity === 'ignore') continue;
    const path = v.cycle ? [v.from, ...v.cycle.map((c) => (typeof c === 'string' ? c : c.name))].join(' → ') : `${v.from} → ${v.to}`;
    process.stdout.write(`${v.rule.severity} ${v.rule.name}: ${path}\n`);
    if (v.rule.severity === 'error') failures++;
  }
  for (const cycle of moduleCycles(moduleGraph(result.modules))) {
    process.stdout.write(`error module-cycle: ${cycle.join(' ↔ ')}\n`);
    failures++;
  }
  const ignored = result.summary.ignore ?? 0;
  process.stdout.write(
    `${failures === 0 ? '✔' : '✘'} module boundaries: ${failures} violation(s), ${ignored} known violation(s) listed in .dependency-cruiser-known-violations.json; ${result.summary.totalCruised} files cruised\n`,
  );
  return failures === 0 ? 0 : 1;
}

module.exports = { moduleCycles, moduleGraph };

if (require.main === module) process.exit(main(process.argv.slice(2).length ? process.argv.slice(2) : ['src']));

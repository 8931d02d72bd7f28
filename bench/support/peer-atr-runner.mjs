// agent-threat-rules (ATR) over every file of a folder, the way its CLI's `scan` treats one file:
// ATREngine.scanSkillFull(content, path) with the bundled rules and NO reporter attached (the CLI's
// --no-report: nothing is sent to its Threat Cloud). Its CLI, given a folder, only picks SKILL.md
// files, and starts (loading ~800 rules) once per invocation: one process over all files gives it
// every file and one start-up, the same as the other tools get.
//   node peer-atr-runner.mjs <atr package dir> <folder>   → JSON { files: { relPath: severity|null } }
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';
import { pathToFileURL } from 'node:url';

const [pkgDir, root] = process.argv.slice(2);
const { ATREngine } = await import(pathToFileURL(join(pkgDir, 'dist', 'index.js')).href);
const ORDER = ['informational', 'low', 'medium', 'high', 'critical'];
const engine = new ATREngine({});
await engine.loadRules();
const files = {};
const walk = (dir) => {
  for (const name of readdirSync(dir)) {
    const p = join(dir, name);
    if (statSync(p).isDirectory()) walk(p);
    else {
      const result = engine.scanSkillFull(readFileSync(p, 'utf8'), p);
      let worst = null;
      for (const m of result.matches) if (worst === null || ORDER.indexOf(m.rule.severity) > ORDER.indexOf(worst)) worst = m.rule.severity;
      files[relative(root, p)] = worst;
    }
  }
};
walk(root);
process.stdout.write(`${JSON.stringify({ rules: engine.getRuleCount(), files })}\n`);

import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';
import { detectTextKind } from '../engine/kind-detector';
import type { AnalysisFile } from '../engine/scan-report.types';
import { DEFAULT_PRESET } from './presets';
import { registeredTriggers } from './regex-rule';
import { createStaticAnalyzer } from './static-analyzer';

const FIXTURES = join(__dirname, '..', '..', '..', 'test', 'fixtures', 'rules');

function filesUnder(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    return statSync(path).isDirectory() ? filesUnder(path) : [path];
  });
}

describe('trigger registration', () => {
  // Every literal a rule gates on is registered when the catalogue loads: one registered at a scan
  // would make every view's trigger index be rebuilt (regex-rule.ts registerPatternLiterals).
  it('registers every trigger and pattern literal when the catalogue loads, none at a scan', () => {
    expect(DEFAULT_PRESET.length).toBeGreaterThan(0);
    const atLoad = new Set(registeredTriggers());
    const analyzer = createStaticAnalyzer();
    const fixtures = filesUnder(FIXTURES).filter((f) => !f.endsWith('expected.json'));
    expect(fixtures.length).toBeGreaterThan(500);
    for (const path of fixtures) {
      const text = readFileSync(path, 'utf8');
      const relativePath = relative(FIXTURES, path).split('/').slice(2).join('/');
      const file: AnalysisFile = { relativePath, kind: detectTextKind(relativePath, text), text, byteLength: Buffer.byteLength(text) };
      analyzer.analyze(file, { files: [file], skipped: [], primaryPath: relativePath });
    }
    expect([...registeredTriggers()].filter((t) => !atLoad.has(t))).toEqual([]);
  });
});

import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DEFAULT_SCAN_LIMITS, LOCAL_SCAN_LIMITS } from '../../scanner/archive/scan-limits';
import { patternCompilation, usePatternCompilation } from '../../scanner/rules/pattern-compilation';
import { createStaticAnalyzer, DEFAULT_FILE_BUDGET_MS } from '../../scanner/rules/static-analyzer';
import { discoverTargets } from './agent-file-discovery';
import { planUploads } from './upload-planner';
import { createLocalScanner, localFileBudgetMs } from './upload-scanners';

// The real analyzer, observed: which options the CLI creates it with.
jest.mock('../../scanner/rules/static-analyzer', () => {
  const actual = jest.requireActual<typeof import('../../scanner/rules/static-analyzer')>('../../scanner/rules/static-analyzer');
  return { ...actual, createStaticAnalyzer: jest.fn(actual.createStaticAnalyzer) };
});

let root: string;
const put = (rel: string, content: string): void => {
  mkdirSync(join(root, rel, '..'), { recursive: true });
  writeFileSync(join(root, rel), content);
};

beforeEach(() => {
  root = mkdtempSync(join(tmpdir(), 'bulwark-local-'));
});
afterEach(() => rmSync(root, { recursive: true, force: true }));

/** A long, ordinary skill file: many short sections of harmless steps. */
function longSkill(bytes: number): string {
  const section = (i: number): string => `## Step ${i}\n\nFormat the changed files, then run the unit tests and read their output.\n\n`;
  let text = '---\nname: long-helper\ndescription: Formats code and runs the tests.\n---\n# Long helper\n\n';
  for (let i = 1; text.length < bytes; i++) text += section(i);
  return text;
}

describe('local analyzer', () => {
  it('starts without the warm-up a long-lived service does (decision 0035)', () => {
    createLocalScanner({});
    expect(createStaticAnalyzer).toHaveBeenLastCalledWith(expect.objectContaining({ warmUp: false, budgetMs: localFileBudgetMs() }));
  });

  it('compiles rule patterns cheaply, as a short run should (decision 0038)', () => {
    usePatternCompilation('as-written');
    createLocalScanner({});
    expect(patternCompilation()).toBe('cheap-to-compile');
  });
});

describe('local scan limits (decision 0015)', () => {
  it('keeps the server limits for remote scans and a larger per-file limit, with a proportional budget, for --local', () => {
    expect(createLocalScanner({}).limits).toBe(LOCAL_SCAN_LIMITS);
    expect(LOCAL_SCAN_LIMITS.maxFileBytes).toBeGreaterThan(DEFAULT_SCAN_LIMITS.maxFileBytes);
    expect(LOCAL_SCAN_LIMITS.maxFiles).toBe(DEFAULT_SCAN_LIMITS.maxFiles);
    expect(localFileBudgetMs()).toBe(Math.ceil((DEFAULT_FILE_BUDGET_MS * LOCAL_SCAN_LIMITS.maxFileBytes) / DEFAULT_SCAN_LIMITS.maxFileBytes));
  });

  it('plans and analyses a skill file over 250 KB in --local mode that a server plan leaves unsent', async () => {
    put('sk/SKILL.md', longSkill(300 * 1024));
    const discovery = await discoverTargets(['sk'], root);
    const remote = await planUploads(discovery, { limits: DEFAULT_SCAN_LIMITS });
    expect(remote.uploads).toEqual([]);
    expect(remote.notSent.map((n) => n.code)).toEqual(['too_large']);

    const scanner = createLocalScanner({});
    const local = await planUploads(discovery, { limits: scanner.limits });
    expect(local.notSent).toEqual([]);
    expect(local.uploads).toHaveLength(1);
    const report = await scanner.scan(local.uploads[0]);
    expect(report.summary.coverage).toEqual(expect.objectContaining({ files_analysed: 1, files_not_analysed: 0 }));
    expect(report.files[0].static_findings.map((f) => f.rule_id)).not.toContain('scanner.analysis-incomplete');
    expect(report.files[0].band).toBe('info');
  }, 60_000);

  it('still leaves a file over the local limit unsent', async () => {
    put('sk/SKILL.md', 'x'.repeat(LOCAL_SCAN_LIMITS.maxFileBytes + 1));
    const plan = await planUploads(await discoverTargets(['sk'], root), { limits: createLocalScanner({}).limits });
    expect(plan.uploads).toEqual([]);
    expect(plan.notSent.map((n) => [n.code, n.reason])).toEqual([['too_large', '4096 KB, over the 4 MB per-file limit']]);
  });
});

describe('the judge of --local', () => {
  it('reads JUDGE_* as the server does, and names a bad value in a CLI error', () => {
    expect(createLocalScanner({}).judge).toBe('off (set JUDGE_PROVIDER to enable)');
    expect(createLocalScanner({ JUDGE_PROVIDER: 'openai', JUDGE_MODEL: 'llama3.1', JUDGE_BASE_URL: 'http://127.0.0.1:11434/v1' }).judge).toBe(
      'openai (llama3.1)',
    );
    expect(() => createLocalScanner({ JUDGE_PROVIDER: 'openai', JUDGE_MODEL: 'm', JUDGE_TIMEOUT_MS: '50' })).toThrow(
      /^Judge configuration: .*JUDGE_TIMEOUT_MS="50".*integer from 100 to 600000/,
    );
    expect(() => createLocalScanner({ JUDGE_PROVIDER: 'gemini' })).toThrow(/^Judge configuration: .*JUDGE_PROVIDER="gemini"/);
    expect(() => createLocalScanner({ JUDGE_PROVIDER: 'openai' })).toThrow(/^Judge configuration: JUDGE_MODEL is required/);
  });

  it('loads a model provider only when it is the one configured (a run with the judge off starts sooner)', () => {
    const loaded: string[] = [];
    jest.isolateModules(() => {
      for (const provider of ['openai', 'anthropic']) {
        const path = `../../scanner/judge/${provider}-judge`;
        jest.doMock(path, () => {
          loaded.push(provider);
          return jest.requireActual<object>(path);
        });
      }
      const isolated = jest.requireActual<typeof import('./upload-scanners')>('./upload-scanners');
      isolated.createLocalScanner({});
      expect(loaded).toEqual([]);
      isolated.createLocalScanner({ JUDGE_PROVIDER: 'openai', JUDGE_MODEL: 'llama3.1', JUDGE_BASE_URL: 'http://127.0.0.1:11434/v1' });
      expect(loaded).toEqual(['openai']);
    });
  });
});

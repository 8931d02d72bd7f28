import type { AnalysisBundle, AnalysisFile, JudgeInput, StaticFinding } from '../../src/scanner/engine/scan-report.types';

/** A decoded agent file as the judge receives it. */
export function analysisFile(text: string, relativePath = 'SKILL.md', kind: AnalysisFile['kind'] = 'agent_file'): AnalysisFile {
  return { relativePath, kind, text, byteLength: Buffer.byteLength(text) };
}

export function bundleOf(...files: AnalysisFile[]): AnalysisBundle {
  return { files, skipped: [], primaryPath: files[0]?.relativePath ?? null };
}

export function judgeInput(file: AnalysisFile, staticFindings: StaticFinding[] = [], signal?: AbortSignal): JudgeInput {
  return { file, bundle: bundleOf(file), staticFindings, signal };
}

export function staticFinding(overrides: Partial<StaticFinding> & Pick<StaticFinding, 'rule_id' | 'locator'>): StaticFinding {
  return {
    asset_type: 'instructions',
    severity: 'medium',
    confidence: 'high',
    evidence: '',
    category: 'other',
    message: 'test finding',
    hard_block: false,
    ...overrides,
  };
}

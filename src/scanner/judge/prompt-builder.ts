import type { AnalysisBundle, AnalysisFile, StaticFinding } from '../engine/scan-report.types';
import type { Chunk } from './chunker';
import { formatUnits } from './chunker';
import { parseLocator, samePath } from './locator';
import { fillTemplate, type PromptAssets } from './prompt-assets';
import { redactSecretLines } from './secret-redactor';

/** A provider-neutral prompt: one system text and one user message. */
export interface JudgePrompt {
  system: string;
  user: string;
}

const MAX_HYPOTHESES = 50;
const MAX_OTHER_FILES = 20;

export const RETRY_NOTE =
  '\n\nYour previous reply was rejected because it was not one JSON object matching the schema. Reply again with only that JSON object.';

/** Static findings of this file that belong in a chunk: those on its lines; file-level ones go in the first chunk. */
export function hypothesesForChunk(file: AnalysisFile, staticFindings: readonly StaticFinding[], chunk: Chunk): StaticFinding[] {
  return staticFindings.filter((f) => {
    const loc = parseLocator(f.locator);
    if (!loc || !samePath(loc.path, file.relativePath)) return chunk.index === 0;
    return loc.line >= chunk.firstLine && loc.line <= chunk.lastLine;
  });
}

/**
 * Builds the request for one chunk. Only the delimited block carries file content; the context
 * JSON holds names (untrusted, JSON-escaped) and static hypotheses without their evidence, so no
 * attacker text sits outside the delimiters except as escaped JSON strings.
 */
export function buildPrompt(args: {
  assets: PromptAssets;
  file: AnalysisFile;
  bundle: AnalysisBundle;
  totalLines: number;
  chunk: Chunk;
  hypotheses: readonly StaticFinding[];
  nonce: string;
  retry: boolean;
}): JudgePrompt {
  const { assets, file, bundle, chunk, nonce } = args;
  const clean = (s: string) => redactSecretLines([s.replace(/[\r\n]+/g, ' ')]).lines[0].slice(0, 200);
  const context = {
    file: {
      path: file.relativePath,
      kind: file.kind,
      total_lines: args.totalLines,
      part: chunk.index + 1,
      parts: chunk.count,
      shown_lines: [chunk.firstLine, chunk.lastLine],
    },
    other_files: [
      ...bundle.files.filter((f) => f.relativePath !== file.relativePath).map((f) => ({ path: f.relativePath, kind: f.kind, bytes: f.byteLength })),
      ...bundle.skipped.map((s) => ({ path: s.relativePath, kind: s.kind, bytes: s.byteLength, not_analysed: s.skipReason })),
    ].slice(0, MAX_OTHER_FILES),
    static_hypotheses: args.hypotheses.slice(0, MAX_HYPOTHESES).map((h) => ({
      rule_id: h.rule_id,
      category: h.category,
      severity: h.severity,
      confidence: h.confidence,
      hard_block: h.hard_block,
      locator: h.locator,
      message: clean(h.message),
    })),
  };
  const user = fillTemplate(assets.userTemplate, {
    nonce,
    context: JSON.stringify(context, null, 2),
    content: formatUnits(chunk.units),
    retry_note: args.retry ? RETRY_NOTE : '',
  });
  return { system: assets.system, user };
}

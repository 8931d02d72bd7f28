import { basename } from 'node:path';
import type { SkipReason } from '../../scanner/engine/scan-report.types';
import { isAgentFilePath, isSkillFile } from './agent-file-discovery';
import type { ScanRun } from './scan-run';
import { mergedFiles } from './scan-run';
import type { NotSentCode } from './upload-planner';

/**
 * What a run covered: files found, sent and analysed, and every file not analysed with the
 * reason. A file not analysed that could hold instructions (over a cap or a size limit,
 * unreadable, an unfollowed symlink, a failed upload, an agent file the scanner skipped) is
 * "unscanned": it fails the run with exit 3 unless --allow-unscanned, so a gate never passes on
 * a partial scan. Nothing to analyse (empty files, media, OS metadata) and opaque files in a
 * skill (the scanner reports those as findings on the skill) are listed but do not gate.
 */

export type NotAnalysedStage = 'not_sent' | 'upload_failed' | 'skipped_by_scanner' | 'not_walked';

export interface NotAnalysed {
  path: string;
  reason: string;
  stage: NotAnalysedStage;
  /** Short label for the summary line. */
  label: string;
  gating: boolean;
}

export interface Coverage {
  found: number;
  sent: number;
  analysed: number;
  not_analysed: NotAnalysed[];
  /** How many of not_analysed fail the run without --allow-unscanned. */
  unscanned: number;
}

const NOT_SENT_LABEL: Record<NotSentCode, string> = {
  upload_cap: 'over --max-uploads',
  too_large: 'over the size limit',
  unreadable: 'unreadable',
  unsafe_path: 'unsafe path',
  symlink: 'symlink not followed',
  symlink_scanned: 'symlink to a scanned file',
  empty: 'empty',
  media: 'media',
};
const NOT_SENT_GATING: ReadonlySet<NotSentCode> = new Set(['upload_cap', 'too_large', 'unreadable', 'unsafe_path', 'symlink']);
/** Server skips with nothing to analyse. */
const NOTHING_TO_ANALYSE: ReadonlySet<SkipReason> = new Set(['empty', 'os_metadata', 'directory']);

export function coverageOf(run: ScanRun): Coverage {
  const sent = new Set(run.outcomes.flatMap((o) => o.files));
  const found = new Set([...sent, ...run.notSent.map((n) => n.path)]);
  const items: NotAnalysed[] = run.notSent.map((n) => ({
    path: n.path,
    reason: n.reason,
    stage: 'not_sent',
    label: NOT_SENT_LABEL[n.code] ?? n.code,
    gating: NOT_SENT_GATING.has(n.code),
  }));
  for (const o of run.outcomes) {
    if (o.error)
      for (const f of o.files)
        items.push({ path: f, reason: `upload failed: ${o.error.message}`, stage: 'upload_failed', label: 'upload failed', gating: true });
  }
  const files = mergedFiles(run);
  let analysed = 0;
  for (const f of files) {
    if (!f.content_skipped) {
      analysed += 1;
      continue;
    }
    const why = f.skip_reason ?? 'skipped';
    const agentFile = isAgentFilePath(f.relative_path) || isSkillFile(basename(f.relative_path));
    const gating = agentFile && !NOTHING_TO_ANALYSE.has(why as SkipReason);
    items.push({
      path: f.relative_path,
      reason: `skipped by the scanner (${why})${gating || NOTHING_TO_ANALYSE.has(why as SkipReason) ? '' : '; reported as a finding on its bundle'}`,
      stage: 'skipped_by_scanner',
      label: `skipped by the scanner: ${why}`,
      gating,
    });
  }
  // Paths the scanning user's config ignores (with a reason) do not gate when they go unanalysed.
  const ignore = run.config?.ignore ?? [];
  for (const i of items) {
    const by = i.gating ? ignore.find((g) => g.glob.matches(i.path)) : undefined;
    if (by) {
      i.gating = false;
      i.reason = `${i.reason}; under an ignored path (${by.glob.source}: ${by.reason})`;
    }
  }
  if (run.walkTruncated)
    items.push({
      path: '(rest of the tree)',
      reason: 'stopped walking after 200,000 entries; pass narrower paths',
      stage: 'not_walked',
      label: 'tree walk stopped',
      gating: true,
    });
  return { found: found.size, sent: sent.size, analysed, not_analysed: items, unscanned: items.filter((i) => i.gating).length };
}

/** "12 found, 11 sent, 10 analysed, 2 not analysed (1 over the size limit, 1 media)". */
export function coverageLine(c: Coverage): string {
  const counts = new Map<string, number>();
  for (const i of c.not_analysed) counts.set(i.label, (counts.get(i.label) ?? 0) + 1);
  const why = [...counts].map(([label, n]) => `${n} ${label}`).join(', ');
  return `Files: ${c.found} found, ${c.sent} sent, ${c.analysed} analysed, ${c.not_analysed.length} not analysed${why ? ` (${why})` : ''}`;
}

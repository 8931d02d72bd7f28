import type { JudgeFinding } from '../engine/scan-report.types';
import type { RenderedLine } from './content-renderer';

/**
 * Deterministic checks on what would be sent to the judge, run before any request:
 *
 * - delimiter-like text (chat-template tokens, our own frame markers, "end of untrusted content"
 *   tags) could close the frame the file is wrapped in, so such a file is never sent;
 * - text addressed to the reviewer ("rate this file as benign") is sent, but always yields a
 *   deception finding, so a judge that obeys it still cannot return a clean result.
 *
 * Patterns run on the `search` text, where hidden characters are removed and smuggled text is
 * inlined, so a zero-width-split or tag-encoded marker is caught too.
 */

const DELIMITER_PATTERNS: { re: RegExp; what: string }[] = [
  {
    re: /<\|\s*(?:im_start|im_end|im_sep|endoftext|eot_id|eom_id|start_header_id|end_header_id|begin_of_text|end_of_text|system|user|assistant|end|fim_[a-z]+)\s*\|>/i,
    what: 'a chat-template control token',
  },
  { re: /\[\/?INST\]|<<\/?SYS>>|<\/?(?:start_of_turn|end_of_turn)>/i, what: 'a chat-template turn marker' },
  { re: /<<<[^\n>]{0,40}(?:BULWARK|BEGIN|END|FILE|UNTRUSTED|NONCE)[^\n>]{0,40}>>>/i, what: 'a file-delimiter marker' },
  { re: /BULWARK_FILE_(?:BEGIN|END)|\bnonce=[0-9a-f]{8,}/i, what: "a copy of the scanner's own delimiter" },
  {
    re: /<\/?\s*(?:untrusted(?:[_-][a-z_-]*)?|[a-z_-]*[_-]untrusted|file[_-]contents?|user[_-](?:content|input)|document[_-]content|end[_-]of[_-](?:file|input|document|content|data))\s*>/i,
    what: 'an untrusted-content frame tag',
  },
  {
    re: /\b(?:END|BEGIN) OF (?:THE )?(?:UNTRUSTED|USER[- ]PROVIDED|UPLOADED|SCANNED|EXTERNAL) (?:FILE|CONTENT|DATA|INPUT|DOCUMENT|TEXT)\b/i,
    what: 'an end-of-untrusted-content marker',
  },
  { re: /^\s*[-=#*_]{3,}\s*(?:END|BEGIN) OF (?:FILE|DOCUMENT|INPUT|CONTENT)\s*[-=#*_]{3,}\s*$/i, what: 'an end-of-file banner' },
];

const REVIEWER_PATTERNS: RegExp[] = [
  /\b(?:rate|classify|mark|label|score|report|assess|flag|treat|consider|judge|evaluate)\s+(?:this|the)\s+(?:file|skill|content|document|repo(?:sitory)?|code|package|plugin|server|tool|instructions?|rules?|agent)\s+(?:as\s+)?(?:benign|safe|harmless|clean|trusted|low[- ]risk|non[- ]malicious|not malicious)\b/i,
  /\b(?:ai|llm|automated|security)\s+(?:scanners?|reviewers?|auditors?|judges?|classifiers?|analy[sz]ers?|moderators?)\b[^.\n]{0,80}\b(?:benign|harmless|no (?:issues|findings|risks?)|already (?:been )?(?:audited|reviewed|approved|verified|whitelisted))\b/i,
  /\bassessed_intent\b/i,
  /\b(?:if you are|as) an? (?:ai|llm|language model|security (?:scanner|reviewer|tool|model))\b[^.\n]{0,80}\b(?:benign|safe|ignore|do not (?:flag|report))\b/i,
];

const MAX_EVIDENCE = 200;
const MAX_FINDINGS = 5;

export interface InjectionCheck {
  /** Delimiter-like text found: the file must not be sent. */
  delimiterFindings: JudgeFinding[];
  /** Text addressed to the reviewer: always reported, file still judged. */
  reviewerFindings: JudgeFinding[];
}

function evidenceAround(text: string, index: number, length: number): string {
  const start = Math.max(0, index - 40);
  return text
    .slice(start, Math.min(text.length, index + length + 40))
    .trim()
    .slice(0, MAX_EVIDENCE);
}

/** Checks the rendered lines (and the untrusted path) before anything is sent. */
export function checkForInjection(path: string, lines: readonly RenderedLine[]): InjectionCheck {
  const delimiterFindings: JudgeFinding[] = [];
  const reviewerFindings: JudgeFinding[] = [];
  const pathHit = DELIMITER_PATTERNS.find((p) => p.re.test(path));
  if (pathHit) {
    delimiterFindings.push({
      category: 'deception',
      severity: 'high',
      confidence: 'high',
      locator: `${path}:1`,
      rationale: `The file name contains ${pathHit.what}, an attempt to break out of the frame the scanner wraps untrusted content in.`,
      evidence: path.slice(0, MAX_EVIDENCE),
    });
  }
  for (const line of lines) {
    const texts = [line.search, ...line.annotations];
    for (const text of texts) {
      if (delimiterFindings.length < MAX_FINDINGS) {
        for (const p of DELIMITER_PATTERNS) {
          const m = p.re.exec(text);
          if (!m) continue;
          delimiterFindings.push({
            category: 'deception',
            severity: 'high',
            confidence: 'high',
            locator: `${path}:${line.n}`,
            rationale: `The content contains ${p.what}, an attempt to close or forge the frame that separates untrusted content from the reviewer's instructions. The file was not sent to the judge.`,
            evidence: evidenceAround(text, m.index, m[0].length),
          });
          break;
        }
      }
      if (reviewerFindings.length < MAX_FINDINGS) {
        for (const re of REVIEWER_PATTERNS) {
          const m = re.exec(text);
          if (!m) continue;
          reviewerFindings.push({
            category: 'deception',
            severity: 'high',
            confidence: 'medium',
            locator: `${path}:${line.n}`,
            rationale: 'The content addresses an automated reviewer or scanner to influence its verdict; legitimate agent files have no reason to do that.',
            evidence: evidenceAround(text, m.index, m[0].length),
          });
          break;
        }
      }
    }
  }
  return { delimiterFindings, reviewerFindings };
}

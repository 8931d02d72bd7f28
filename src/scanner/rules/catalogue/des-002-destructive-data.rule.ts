import {
  DATABASE_FORM_RE,
  GUARD_OVERRIDE_RE,
  GUARDED_DEV_RESET_RE,
  INJECTION_PAYLOAD_RE,
  LOCAL_SCOPE_RE,
  ON_USER_REQUEST_RE,
  SHARED_SCOPE_RE,
} from '../benign-forms';
import { defineRegexRule, perFile, sentenceAround, windowText } from '../regex-rule';
import type { RuleHit } from '../rule.types';
import type { ScanContext } from '../../views/scan-context';

/**
 * A database reset is a low note when it cannot reach data others depend on: a framework command
 * that stops at production by itself (no override), or, in prose, a sentence that aims it at a
 * local or test copy and names no shared target; also an injection payload quoted as an example,
 * and a reset the document runs only on the user's request.
 */
function rateDatabaseReset(hit: RuleHit, ctx: ScanContext): RuleHit {
  if (!DATABASE_FORM_RE.test(hit.evidence)) return hit;
  const lineText = ctx.lines[hit.line - 1] ?? '';
  const sentence = sentenceAround(ctx, hit.line, hit.evidence);
  if (SHARED_SCOPE_RE.test(sentence) || GUARD_OVERRIDE_RE.test(lineText)) return hit;
  const guarded = GUARDED_DEV_RESET_RE.test(lineText);
  const localInProse = !ctx.executable && LOCAL_SCOPE_RE.test(sentence);
  // Hostile input quoted in a document, and a reset the agent runs only when the user asks for it.
  const payloadExample = !ctx.executable && INJECTION_PAYLOAD_RE.test(lineText);
  const onRequest = !ctx.executable && ON_USER_REQUEST_RE.test(windowText(ctx, hit.line, 3)) && !SHARED_SCOPE_RE.test(windowText(ctx, hit.line, 3));
  return guarded || localInProse || payloadExample || onRequest ? { ...hit, severity: 'low', message: 'Database reset scoped to a development copy' } : hit;
}

/** A table name as written after CREATE/DROP TABLE: quoted, bracketed, schema-qualified or a template placeholder. */
const TABLE_NAME = String.raw`(?:IF\s{1,3}(?:NOT\s{1,3})?EXISTS\s{1,3})?([\w."\`\[\]]{1,80}|\{[^}\n]{1,60}\}|\$\{[^}\n]{1,60}\}|%s|<[\w -]{1,40}>)`;
const CREATE_TABLE_RE = new RegExp(String.raw`\bCREATE\s{1,3}(?:TEMP(?:ORARY)?\s{1,3})?TABLE\s{1,3}` + TABLE_NAME, 'gi');
const DROPPED_TABLE_RE = new RegExp(String.raw`\b(?:DROP\s{1,3}TABLE|TRUNCATE(?:\s{1,3}TABLE)?)\s{1,3}` + TABLE_NAME, 'i');
const PLACEHOLDER_NAME_RE = /^(?:\{|\$\{|%s$|<)/;

/** One spelling per table: quotes and brackets dropped, lower case; every placeholder is one name. */
function tableKey(name: string): string {
  return PLACEHOLDER_NAME_RE.test(name) ? '<placeholder>' : name.replace(/["`[\]]/g, '').toLowerCase();
}

/** Tables the file itself creates (a schema, a migration, a generator of both directions). */
const createdTables = perFile((ctx: ScanContext): Set<string> => {
  const out = new Set<string>();
  if (!/create/i.test(ctx.text)) return out;
  for (const line of ctx.lines) if (line.length > 0 && /create/i.test(line)) for (const m of line.matchAll(CREATE_TABLE_RE)) out.add(tableKey(m[1]));
  return out;
});

/**
 * Dropping or emptying a table the same file creates is the reverse of its own schema: a down
 * migration, a reset script before re-creating, a generator that writes both directions
 * (`CREATE TABLE {name}` … `DROP TABLE {name}`). It cannot reach a table the file did not define.
 */
function dropsOwnTable(hit: RuleHit, ctx: ScanContext): boolean {
  const dropped = DROPPED_TABLE_RE.exec(ctx.lines[hit.line - 1] ?? '');
  return dropped !== null && createdTables(ctx).has(tableKey(dropped[1]));
}

/**
 * A hard reset or a forced clean on its own: the checkout's uncommitted and untracked work is
 * gone, but nothing anyone else holds. Low: routine in CI, a loss when run on a developer's tree.
 */
const LOCAL_DISCARD = /\bgit\s{1,3}(?:reset\s{1,3}--hard\b|clean\s{1,3}-[a-z]{0,3}f[a-z]{0,3}\b)/i;

export const daDestructiveDataRule = defineRegexRule({
  meta: {
    id: 'BW-DES-002',
    title: 'Irreversible data or history destruction (database, git, cloud)',
    category: 'destructive_action',
    severity: 'high',
    confidence: 'medium',
    asset_type: 'instructions',
    rationale:
      "Dropping databases/schemas, force-pushing over main, hard resets with clean, deleting snapshots/buckets or disabling 2FA cannot be undone. Routine in narrow, confirmed maintenance; dangerous as standing agent instructions. A hard reset or forced clean alone loses only the checkout's own uncommitted work (low).",
    example: 'git push --force origin main',
  },
  triggers: [
    'drop',
    'truncate',
    'db:drop',
    'db:reset',
    'dropdatabase',
    'flushall',
    'flushdb',
    'migrate:fresh',
    'push',
    'reset',
    'clean',
    'aws ',
    'gcloud',
    'kubectl',
    'disable-2fa',
    'terraform',
  ],
  patterns: [
    /\bDROP\s{1,3}(?:DATABASE|SCHEMA)\b/i,
    /\bDROP\s{1,3}TABLE\s{1,3}(?!IF\s{1,3}EXISTS\s{1,3}(?:tmp|temp|test))/i,
    /\bTRUNCATE\s{1,3}(?:TABLE\s{1,3})?\w{1,60}(?:\s{0,3},\s{0,3}\w{1,60}){0,10}\s{0,3}(?:CASCADE|;)/i,
    /\b(?:db:drop|db:reset|dropDatabase\(\)|FLUSHALL|FLUSHDB|migrate:fresh)\b/i,
    /\bgit\s{1,3}push\s{1,3}(?:[^\n;|&]{0,60}\s)?(?:--force(?!-with-lease)|-f)\b[^\n;|&]{0,60}\b(?:main|master|HEAD:main|HEAD:master|production|prod|release)\b/i,
    /\bgit\s{1,3}push\s{1,3}[^\n;|&]{0,60}\b(?:main|master)\b[^\n;|&]{0,30}\s(?:--force(?!-with-lease)|-f)\b/i,
    /\bgit\s{1,3}reset\s{1,3}--hard\b[^\n]{0,80}&&\s{0,3}git\s{1,3}clean\s{1,3}-[a-z]{0,3}f/i,
    LOCAL_DISCARD,
    /\b(?:aws\s{1,3}(?:rds\s{1,3}delete-db-(?:snapshot|instance|cluster)|s3\s{1,3}rb\b[^\n]{0,80}--force|s3\s{1,3}rm\b[^\n]{0,80}--recursive|ec2\s{1,3}terminate-instances)|gcloud\s{1,3}[^\n]{0,40}\bdelete\b[^\n]{0,40}--quiet|kubectl\s{1,3}delete\s{1,3}(?:namespace|ns|all|pvc)\b[^\n]{0,40}(?:--all|-A)?)/i,
    /\bnpm\s{1,3}profile\s{1,3}disable-2fa\b/i,
    /\bterraform\s{1,3}destroy\b[^\n]{0,40}-auto-approve/i,
  ],
  views: ['raw', 'normalized', 'hidden', 'decoded'],
  refine: (hit, m, ctx) => {
    // The one-line reset-and-clean pattern is listed before this one and keeps its grade.
    if (LOCAL_DISCARD.test(m[0]) && !m[0].includes('&&'))
      return { ...hit, severity: 'low', message: 'Uncommitted or untracked work in the checkout discarded (hard reset or forced clean)' };
    if (/^(?:DROP\s{1,3}TABLE|TRUNCATE)/i.test(m[0]) && dropsOwnTable(hit, ctx))
      return { ...hit, severity: 'low', message: 'Drops or empties a table the file itself creates (a rollback or reset of its own schema)' };
    return rateDatabaseReset(hit, ctx);
  },
});

/** The table-name patterns this rule's refinement runs, for the ReDoS check. */
export const OWN_TABLE_REGEXES: readonly RegExp[] = [CREATE_TABLE_RE, DROPPED_TABLE_RE, PLACEHOLDER_NAME_RE];

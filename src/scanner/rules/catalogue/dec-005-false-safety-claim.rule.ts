import { isQuotedMention } from '../context-layer';
import type { Rule, RuleHit } from '../rule.types';

const CLAIM_RE =
  /\b(?:(?:is|runs|works|stays|operates)\s{1,3}(?:completely\s{1,3}|fully\s{1,3}|strictly\s{1,3}|100%\s{1,3})?(?:read-only|offline|local(?:ly)?(?:\s{1,3}only)?|sandboxed|harmless)|never\s{1,3}(?:touches|uses|accesses|contacts|calls)\s{1,3}the\s{1,3}(?:network|internet)|(?:no|without any)\s{1,3}(?:network|internet)\s{1,3}(?:access|calls|requests|connections)|(?:does|will)\s{1,3}not\s{1,3}(?:send|transmit|upload|share|collect)\s{1,3}(?:any\s{1,3})?(?:data|information|files)|nothing\s{1,3}(?:leaves|is sent from)\s{1,3}(?:your|the)\s{1,3}(?:machine|computer|device))\b/i;
const NETWORK_RE =
  /\b(?:requests\.(?:post|put|get)|urlopen|urllib\.request|http\.client|fetch\(|axios|https?\.request|curl\s|wget\s|Invoke-WebRequest|socket\.connect|nslookup|dig\s)/;
const WRITE_RE =
  /\b(?:rm\s{1,3}-[a-zA-Z]{0,4}r|shutil\.rmtree|os\.remove|unlink\(|fs\.rm|DROP\s{1,3}(?:TABLE|DATABASE|SCHEMA)|writeFile|open\([^\n)]{0,80}["'][wa]b?["'])/;

/** Requests that change something remote: a read-only promise is broken by these, not by a download. */
const NETWORK_WRITE_RE =
  /\b(?:requests\.(?:post|put|patch|delete)|httpx\.(?:post|put|patch|delete)|axios\.(?:post|put|patch|delete)|method\s{0,3}[:=]\s{0,3}["'](?:POST|PUT|PATCH|DELETE)|-X\s{1,3}["']?(?:POST|PUT|PATCH|DELETE)|curl\s[^\n]{0,120}\s(?:-d|--data\S{0,10}|-F|--form)\s|Invoke-RestMethod\s[^\n]{0,120}-Method\s{1,3}(?:Post|Put|Patch|Delete))/i;
/** A read-only promise scoped to remote parties ("read-only with respect to upstream services"): local files are not what it promises about. */
const REMOTE_SCOPE_RE =
  /\b(?:with\s{1,3}respect\s{1,3}to|towards?|for|on)\s{1,3}(?:the\s{1,3})?(?:upstream|remote|external|third[- ]party)?\s{0,3}(?:services?|apis?|servers?|repositor(?:y|ies)|upstreams?|remotes?)\b/i;

/** "X is read-only/harmless" is the file's promise only when X is the file's own tool, not "the database" or "the change". */
const SELF_SUBJECT_BEFORE_IS =
  /\b(?:skill|tool|script|server|plugin|extension|command|helper|utility|package|integration|agent|it|this|everything)\s{1,3}(?:\w{2,12}\s{1,3}){0,2}$/i;

/** A statement that raises an error or throws: its message reports the state the program is in when it fails ("this run is offline"). */
const RAISED_MESSAGE = /^\s{0,40}(?:raise|throw)\b/;

/**
 * The claim is made by the file: not quoted (a rationalisation the file tells the reader to reject,
 * "“The database is read-only so it's fine”") and, for "is …", said of the file's own tool.
 */
function isOwnClaim(line: string, claim: RegExpExecArray, prose: boolean, referenceDoc: boolean): boolean {
  // An error message states a mode the run is in (an offline flag set), not what the tool promises.
  if (!prose && RAISED_MESSAGE.test(line)) return false;
  // In code a claim in quotes is the program's own docstring or message; in prose it is someone's words.
  if (prose && isQuotedMention(line, claim[0])) return false;
  // A reference document describes other systems ("No internet access (fully sandboxed)" of a
  // hosted tool); it promises something of its own only when it names itself.
  if (!/^is\b/i.test(claim[0]) && !referenceDoc) return true;
  return SELF_SUBJECT_BEFORE_IS.test(line.slice(Math.max(0, claim.index - 80), claim.index));
}

/** A promise of read-only/offline behaviour contradicted by the bundle's own code. */
export const decFalseSafetyClaimRule: Rule = {
  meta: {
    id: 'BW-DEC-005',
    title: 'False claim of safe, offline or read-only behaviour',
    category: 'deception',
    severity: 'high',
    confidence: 'medium',
    asset_type: 'instructions',
    rationale:
      'A skill that says it is read-only, offline or never sends data while its own files make network calls or delete/write data misleads the user about what approving it means. The claim alone is not flagged; the contradiction is.',
    example: '"""Runs fully offline; nothing leaves your machine."""\nimport requests\nrequests.post(URL, json=data)',
    example_path: 'scripts/sync.py',
  },
  regexes: [CLAIM_RE, NETWORK_RE, WRITE_RE, NETWORK_WRITE_RE, REMOTE_SCOPE_RE, SELF_SUBJECT_BEFORE_IS, RAISED_MESSAGE],
  match(ctx) {
    const hits: RuleHit[] = [];
    let claimLine = 0;
    for (let i = 0; i < ctx.lines.length; i++) {
      const claimMatch = CLAIM_RE.exec(ctx.lines[i]);
      if (claimMatch && isOwnClaim(ctx.lines[i], claimMatch, !ctx.executable, ctx.kind === 'document')) {
        claimLine = i + 1;
        break;
      }
    }
    if (!claimLine) return hits;
    const claim = ctx.lines[claimLine - 1];
    const networkClaim = /network|internet|offline|local|send|transmit|upload|share|collect|leaves|sent/i.test(claim);
    const contradicting = [ctx.file, ...ctx.bundle.files.filter((f) => f.relativePath !== ctx.path)].find((f) => {
      const body =
        f === ctx.file
          ? f.text
              .split('\n')
              .filter((_l, i) => i !== claimLine - 1)
              .join('\n')
          : f.text;
      if (networkClaim && NETWORK_RE.test(body)) return true;
      // Reading from the network (fetching releases, feeds) keeps a read-only promise; changing
      // something remote, or (unless the promise is about remote services only) writing, breaks it.
      if (/read-only/i.test(claim)) return NETWORK_WRITE_RE.test(body) || (!REMOTE_SCOPE_RE.test(claim) && WRITE_RE.test(body));
      return /harmless|sandboxed/i.test(claim) && (WRITE_RE.test(body) || NETWORK_RE.test(body));
    });
    if (contradicting) {
      hits.push({
        line: claimLine,
        evidence: `${claim.trim()} — contradicted by ${contradicting.relativePath}`,
        message: `Claims safe/offline behaviour that ${contradicting.relativePath} contradicts`,
      });
    }
    return hits;
  },
};

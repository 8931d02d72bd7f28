/**
 * Vocabulary of ordinary forms that share words with attack techniques: read-only commands, the
 * product modes of applications, descriptions of what a program does "silently", exclusion
 * arguments. Rules use these to tell the technique from its everyday look-alike; each fragment is
 * bounded and alternation-only (ReDoS-checked in redos.spec.ts).
 */
import { lexiconWords } from '../lexicons/lexicon';
import { perFile } from './regex-rule';

/** A quoted argument, double or single. */
const QUOTED_ARGUMENT = /"[^"\n]{0,300}"|'[^'\n]{0,300}'/g;
/** Separators of a command line's steps: pipes, `&&`, `||`, `;`. */
const STEP_SEPARATOR = /\|\|?|&&|;/;
/** Redirects that only silence or merge output (`2>/dev/null`, `>/dev/null`, `2>&1`). */
const DISCARDED_OUTPUT = /\d?>{1,2}\s{0,2}\/dev\/null|\d>&\d/g;
/** What a step may not hold: a write redirect, a substitution, a background job. */
const STEP_SIDE_EFFECT = /[<>`]|\$\(|&\s{0,3}$/;
/** find's actions that change or run things. */
const FIND_ACTION = /\s-(?:exec|execdir|ok|okdir|delete|fprint\w{0,2}|fls)\b/;
/** Commands that only read, and the read-only subcommands of tools that also write. */
const READ_ONLY_WORDS = new Set([
  'ls',
  'pwd',
  'date',
  'whoami',
  'uname',
  'which',
  'head',
  'tail',
  'wc',
  'tree',
  'grep',
  'egrep',
  'rg',
  'find',
  'cat',
  'echo',
  'printf',
  'sort',
  'uniq',
  'cut',
  'tr',
  'jq',
  'test',
  '[',
  'ps',
  'df',
  'du',
  'file',
  'stat',
  'basename',
  'dirname',
  'realpath',
  'true',
  'hostname',
  'id',
]);
const READ_ONLY_SUBCOMMANDS: ReadonlyMap<string, RegExp> = new Map([
  [
    'git',
    /^(?:status|diff|log|show|rev-parse|ls-files|ls-remote|describe|shortlog|blame|merge-base|branch(?:\s+(?:--show-current|-a|-r|-vv?|--list|--merged|--no-merged)\b[^-]*)?$|remote\s+(?:-v|show|get-url)\b|tag\s+(?:-l|--list)\b|config\s+(?:--get|-l|--list)\b|for-each-ref|rev-list|stash\s+list|worktree\s+list)/,
  ],
  ['gh', /^(?:pr|issue|run|repo|release|workflow)\s+(?:view|list|diff|status|checks)\b/],
  ['docker', /^(?:ps|images|version|info|inspect|logs|compose\s+(?:ps|config|ls))\b|^--version$/],
  ['kubectl', /^(?:get|describe|version|logs|top|explain|config\s+(?:current-context|get-contexts|view)(?!.*--raw))\b/],
  ['npm', /^(?:ls|list|outdated|view|info|explain|why|config\s+get)\b/],
  ['crontab', /^-l\b/],
  ['sed', /^-n\b/],
  ['xargs', /^(?:-\S+\s+)*(?:grep|egrep|rg|head|tail|wc|ls|cat|file|stat)\b/],
]);

/**
 * A command line that only inspects the working copy or the machine (`git log | head`, `find . -name
 * "*.sql" 2>/dev/null | head -5`, `docker --version`, `kubectl get pods`): each step is a read-only
 * command or a tool's read-only subcommand, with no write redirect, substitution or find action. A
 * Claude Code `!` context line that runs one collects what the prompt needs and changes nothing.
 */
export function isReadOnlyProbe(command: string): boolean {
  // A substitution runs a command of its own, quoted or not.
  if (command.includes('$(')) return false;
  // Quoted arguments (a grep pattern "a|b") are one word each: their insides split nothing.
  const steps = command.replace(QUOTED_ARGUMENT, 'q').replace(DISCARDED_OUTPUT, ' ').split(STEP_SEPARATOR);
  return steps.every((raw) => {
    const step = raw.trim();
    if (step === '' || STEP_SIDE_EFFECT.test(step)) return false;
    const [word, ...rest] = step.split(/\s+/);
    const args = rest.join(' ');
    // Any tool asked for its version or help only.
    if (/^(?:--version|-v|-V|version|--help|-h)$/.test(args)) return true;
    if (word === 'find') return !FIND_ACTION.test(` ${args}`);
    if (READ_ONLY_WORDS.has(word)) return true;
    return READ_ONLY_SUBCOMMANDS.get(word)?.test(args) ?? false;
  });
}

/**
 * A mode name that belongs to the agent only when the sentence addresses the agent or talks about
 * its restrictions: "php artisan down  # Enable maintenance mode" is the application's mode.
 */
export const AMBIGUOUS_MODE_RE = /\b(?:maintenance|developer|admin|diagnostic|debug|special)\s{1,3}mode\b/i;
export const AGENT_MODE_CONTEXT_RE =
  /\b(?:you|your|yourself|assistant|agent|AI|model|LLM|claude|skill|restrictions?|restricted|unrestricted|safety|filters?|guardrails?|polic(?:y|ies)|rules|guidelines|limits?|unlock\w{0,3}|bypass\w{0,3}|jailbr\w{0,6}|no longer bound)\b/i;

/**
 * Words that can follow a concealment adverb without becoming the verb it modifies ("send it
 * silently to …", "run it quietly and …"). Any other word after the adverb is the verb it
 * describes: in "a push can't be silently clobbered" the adverb belongs to "clobbered", not "push".
 */
export const ADVERB_CLAUSE_CONTINUATION_RE = new RegExp(
  String.raw`^\s{0,3}(?:$|[.,;:!?)\]*_` + '`\'"—–-]|(?:' + [...lexiconWords('clause-continuation')].join('|') + String.raw`)\b)`,
  'i',
);

/** A whole line that is a code comment (in a fenced block or a script): it is read, never run. */
export const CODE_COMMENT_LINE_RE = /^\s{0,40}(?:#(?!!)|\/\/|--\s|;;|\/\*|\*\s|rem\s|::)/i;
/**
 * Text before a quoted pattern handed to a matcher (`grep -qE '…'`, `[[ $c =~ …`, `re.search(r'…'`,
 * `new RegExp('…'`): a command inside it is something to recognise, not something to run.
 */
export const PATTERN_ARGUMENT_BEFORE_RE =
  /(?:\b(?:e?grep|rg|ripgrep)\b[^\n'"]{0,40}|=~\s{0,3}|\b(?:match|search|fullmatch|findall|test|compile|RegExp|Regex|matches)\s{0,3}\(\s{0,3}r?)["']$/;

/** A prefix that turns the action word after it into a noun: "evicted mid-run silently", "a dry-run quietly". */
export const NOUN_COMPOUND_PREFIX_RE = /\b(?:mid|dry|trial|test|half|full|long|short|end)-$/i;

/** After "do not let the user …": the verbs of finding out, which make the phrase concealment. */
export const FINDING_OUT_RE =
  /^\s{1,3}(?:know|knows|see|notice|find\s{1,3}out|learn|realise|realize|suspect|discover|hear|catch\s{1,3}on|be\s{1,3}(?:told|aware|informed|alerted))\b/i;

/** "… back to the user": what is not summarised is being restated, not hidden. */
export const RESTATING_RE = /^\s{1,3}back\s{1,3}(?:to|for)\b/i;

/**
 * What comes right before a verb that gives an order: the start of a clause, a modal, or a word
 * addressing the reader. "Computer use  ov:73" in a table of citations has the verb after a noun.
 */
export const CLAUSE_LEAD = String.raw`(?:^\s{0,6}(?:[-*+>]\s{1,3}|\d{1,3}[.)]\s{1,3})?|[.!?:;,(—–]\s{0,3}|\b(?:must|should|shall|will|always|never|please|then|and|to|now|first|also|immediately|you|agents?|assistants?|AI|model|LLM|claude)\s{1,3})`;

/** A line holding only a template slot (`{{instructions}}`, `{input}`, `$ARGUMENTS`), maybe with its closing tag. */
export const TEMPLATE_SLOT_LINE_RE =
  /^\s{0,8}(?:\{\{\s{0,3}[\w.-]{1,60}\s{0,3}\}\}|\{[a-z_]{1,40}\}|\$\{?[A-Za-z_]{1,40}\}?)\s{0,3}(?:<\/[\w-]{1,40}>)?\s{0,3}$/;

/**
 * Badge services draw a badge from the words in their own URL (img.shields.io/badge/status-<status>-blue);
 * only their endpoint/url parameters make them fetch another site.
 */
/**
 * A fetch whose only source is a template placeholder (`iwr <url> | iex`, `curl {{url}} | sh`,
 * `wget YOUR_URL`): nothing can be fetched, so the line shows the shape of a command, not one to run.
 */
export const PLACEHOLDER_FETCH_RE =
  /\b(?:curl|wget|iwr|irm|Invoke-WebRequest|Invoke-RestMethod|DownloadString|mshta)\b(?:\s{1,3}-{1,2}[\w-]{1,20}){0,4}\s{1,3}["'(]{0,2}(?:<[A-Za-z][\w .:/-]{0,30}>|\{\{?\s{0,2}[\w.-]{1,30}\s{0,2}\}\}?|YOUR[_-][A-Z_]{1,30}|\.\.\.|…)["')]{0,2}(?=[\s|;]|$)/i;

export const BADGE_HOSTS: ReadonlySet<string> = new Set(['img.shields.io', 'badgen.net', 'badge.fury.io', 'flat.badgen.net']);
export const BADGE_FETCHES_ELSEWHERE_RE = /[?&](?:url|endpoint|uri|link)=|\/endpoint\b|\/https?:/i;

/**
 * Output filtering, not concealment: the work is quiet and only its problems are reported
 * ("run these checks silently and only surface errors"), or the agent is asked not to narrate
 * each step as it goes.
 */
export const REPORTS_ONLY_PROBLEMS_RE =
  /\bonly\s{1,3}(?:surface|report|show|mention|print|flag|tell\s{1,3}(?:the\s{1,3})?user\s{1,3}about)\s{1,3}(?:the\s{1,3})?(?:problems|errors|failures|issues|warnings|findings|what\s{1,3}(?:fails|failed|needs))\b|\babout\s{1,3}(?:each|every)\s{1,3}(?:tool\s{1,3}call|step|command|action)\s{1,3}as\s{1,3}you\b/i;

/** "**TERMINATION PROTOCOL**:" — the word as a section label, not an act of terminating something. */
export const TERMINATION_LABEL_RE =
  /^(?:[Tt]erminat|TERMINAT)\w{0,6}(?:\s{1,3}[A-Z]{2,20})?\*{1,2}\s{0,3}[-:–—]|^TERMINAT\w{0,6}(?:\s{1,3}[A-Z]{2,20})?\s{0,3}:/;

/** A command-line argument that leaves files out (`--exclude='.env'`): an exclusion is the opposite of a read. */
export const EXCLUSION_ARG_RE = /--(?:exclude|ignore)(?:-(?:from|dir|pattern))?(?:=|\s{1,3})["']?[^\s"']{1,80}["']?/g;

/**
 * The environment handed to a child process (`env: process.env`, `env={**os.environ, …}`,
 * `env=os.environ.copy()`): the program's own environment passed on to a command it starts.
 */
export const ENV_PASSTHROUGH_RE = /\benv\s{0,3}[:=]\s{0,3}(?:\{\s{0,3}(?:\.\.\.|\*\*)\s{0,3}|dict\(\s{0,3})?(?:process\.env|os\.environ(?:\.copy\(\))?)\b/g;
/** A line that only spreads the environment into an object literal (`...process.env,`). */
export const ENV_SPREAD_LINE_RE = /^\s{0,40}(?:\.\.\.|\*\*)\s{0,3}(?:process\.env|os\.environ)\s{0,3},?\s{0,3}$/;
/** A line that opens the `env` object of a child-process call (`env: {`, `env={`, `env=dict(`). */
export const ENV_OBJECT_OPEN_RE = /\benv\s{0,3}[:=]\s{0,3}(?:\{|dict\()\s{0,3}$/;

/** "terminates immediately": the verb has no object, so it is something ending, not something ended. */
export const INTRANSITIVE_END_RE = /^terminat(?:e|es|ed|ing)\s{1,3}(?:immediately|automatically)$/i;

/**
 * The env subcommand of a version or environment manager (`fnm env`, `conda env`, `go env`), not
 * the env command that prints the environment (`nice env`, `sudo env` stay sources).
 */
export const ENV_SUBCOMMAND_RE =
  /\b(?:fnm|conda|mamba|micromamba|pyenv|rbenv|nodenv|poetry|pipenv|uv|hatch|pdm|nix|mise|asdf|direnv|go|cargo|rustup|deno|bun)\s{1,3}env\b/g;
/** `.Env`, `.SSH` after an identifier: a property or a dotted name (`.Config.Env`, `TMCore.SSH`), not a dot-file. */
export const ENV_PROPERTY_RE = /(?<=\w)\.(?:Env|ENV|SSH|Ssh|AWS|Aws)\b/g;
/**
 * One environment variable read by name into an authentication header
 * (`Authorization: \`Bearer ${process.env.DOCS_TOKEN}\``, `"X-Api-Key": process.env.KEY`): the
 * credential authenticates the request, it is not what the request carries. Elsewhere (a body, a
 * URL, an encoded payload) the same read is data leaving.
 */
export const AUTH_HEADER_ENV_RE = /\b(?:Authorization|Bearer|Basic|Api-Key|API-Key|api_key|apiKey)\b[^\n;]{0,24}?process\.env\.[\w$]{1,80}/gi;
/** Commands that create or re-permission a file without reading it (`touch ~/.bash_history`). */
export const NON_READING_FILE_OP_RE = /\b(?:touch|chmod|chown|chgrp|mkdir)\s[^&|;\n]{0,200}/g;

/**
 * Nouns that turn "payment" into a product term ("payment methods", "a PaymentIntent") rather than
 * the act of paying.
 */
export const PAYMENT_NOUN_RE =
  /^pay(?:ment)?s?[\s_-]{0,2}(?:methods?|intents?|elements?|links?|pages?|forms?|providers?|processing|processors?|gateways?|flows?|options?|details?|data|status|requests?|sheets?|terms?|plans?|history|records?|schedules?|API|SDK)\b/i;

/** Addressees of a "note for …" that are automated judges, not people reviewing a change. */
export const AUTOMATED_REVIEWER_RE =
  /\b(?:automated|ai|llm|security|safety|scanners?|classifiers?|moderators?|detectors?|analy[sz]ers?|tools?|bots?|models?)\b/i;
/** What a note to a reviewer says when it asks for clearance. */
export const CLEARANCE_REQUEST_RE =
  /\b(?:safe|benign|harmless|trusted|legitimate|approve\w{0,2}|ignore\w{0,2}|skip\w{0,3}|disregard\w{0,2}|not\s{1,3}(?:flag|report|block)|false\s{1,3}positives?|whitelist\w{0,2}|allow-?list\w{0,2}|verified|certified|pre-?approved)\b/i;

/**
 * The line after which a script runs only on the user's yes (0 when it has no consent gate): a
 * prompt, the answer read within three lines, an exit on refusal within four more.
 */
export const scriptConsentGateLine = perFile((ctx) => (ctx.executable ? consentGateLine(ctx.lines) : 0));

function consentGateLine(lines: readonly string[]): number {
  for (let i = 0; i < lines.length; i++) {
    if (!CONSENT_PROMPT_RE.test(lines[i])) continue;
    for (let r = i; r < Math.min(lines.length, i + 4); r++) {
      if (!READ_ANSWER_RE.test(lines[r])) continue;
      for (let e = r; e < Math.min(lines.length, r + 5); e++) if (REFUSAL_EXIT_RE.test(lines[e])) return e + 1;
    }
  }
  return 0;
}

/**
 * Framework commands that rebuild the development database and stop at production by themselves:
 * Laravel's artisan asks for confirmation there unless `--force`, Rails raises a protected-environment
 * error unless DISABLE_DATABASE_ENVIRONMENT_CHECK is set.
 */
export const GUARDED_DEV_RESET_RE = /\b(?:artisan\s{1,3}(?:migrate:(?:fresh|reset|refresh)|db:wipe)|(?:rails|rake)\s{1,3}db:(?:drop|reset|purge))\b/i;
/** What switches those guards off or aims the command at production. */
export const GUARD_OVERRIDE_RE = /--force\b|DISABLE_DATABASE_ENVIRONMENT_CHECK|\b(?:RAILS_ENV|APP_ENV|NODE_ENV|MIX_ENV)=["']?prod|--env(?:=|\s{1,3})["']?prod/i;
/** An SQL-injection payload quoted as an example of hostile input: a closed value, the statement, a comment. */
export const INJECTION_PAYLOAD_RE = /["'`][^"'`\n]{0,40}[;'"]\s{0,3}DROP\s{1,3}TABLE\s{1,3}\w{1,60}\s{0,3}(?:--|#|;\s{0,3}--)/i;
/** A step the agent takes only on the user's own request ("when the user says 'start over'"). */
export const ON_USER_REQUEST_RE = /\b(?:when|if|once|after)\s{1,3}the\s{1,3}user\s{1,3}(?:says|asks|types|requests|wants|chooses|confirms)\b/i;
/** Targets a reset may name that are the developer's own throwaway copy. */
export const LOCAL_SCOPE_RE = /\b(?:local(?:ly|host)?|dev|development|test(?:ing|s)?|disposable|throwaway|scratch|sandbox(?:ed)?|ephemeral|fixtures?)\b/i;
/** Targets that other people depend on: a sentence naming one is not about a local copy. */
export const SHARED_SCOPE_RE =
  /\b(?:prod|production|staging|live|shared|remote|customers?|replicas?|backups?|every|all\s{1,3}(?:environments|databases|servers|tenants))\b/i;

/**
 * A script's consent gate: a yes/no prompt, the answer read from the terminal, and an exit on
 * refusal. What runs after it runs because the user said yes at the keyboard.
 */
export const CONSENT_PROMPT_RE = /\[(?:y\/N|Y\/n|y\/n|yes\/no)\]|\((?:y\/N|Y\/n|y\/n|yes\/no)\)/;
export const READ_ANSWER_RE =
  /\bread\s{1,3}(?:-[a-z]{1,3}\s{1,3})*[A-Za-z_]\w{0,40}|\bread\s{1,3}(?:-[a-z]{1,3}\s{1,3}){0,3}-p\s|\binput\s{0,3}\(|\bRead-Host\b/;
/** An exit on refusal: after `||`, `then`, `else` or `{` on the line (`|| { echo "aborted"; exit 1; }`), or a line of its own. */
export const REFUSAL_EXIT_RE = /(?:\|\||\bthen|\belse|\{)[^\n]{0,120}\b(?:exit|return)\b|^\s{0,20}(?:exit|sys\.exit\(|return)\b/;
/** Where a document hands the reader an admin command: sudo asks the person at the keyboard. */
export const SUDO_SYSTEM_ENABLE_RE = /\bsudo\s{1,3}systemctl\s{1,3}enable\b/;
/** An order to put something in place, at the start of a clause (a description says "the app installs"). */
export const IMPERATIVE_INSTALL_RE = new RegExp(
  String.raw`${CLAUSE_LEAD}(?:create|write|install|add|copy|put|place|drop|save|register|load|set\s{1,3}up)\b|\blaunchctl\s{1,3}(?:load|bootstrap|enable)\b|\b(?:cp|mv|tee|ln|cat)\s`,
  'i',
);

/** Database resets and drops, as opposed to the git and cloud forms of BW-DES-002. */
export const DATABASE_FORM_RE = /^(?:DROP|TRUNCATE|db:|dropDatabase|FLUSH|migrate:)/i;
/** A job or service whose payload reaches the network is a backdoor whatever the setup around it. */
export const REMOTE_PAYLOAD_RE = /\b(?:curl|wget|nc|ncat|socat|Invoke-WebRequest|iwr)\s|https?:\/\/|\|\s{0,3}(?:ba|z)?sh\b/;
/** A reading step between a download and its run: the code is seen before it runs. */
export const REVIEW_STEP_RE =
  /\b(?:read|review|inspect|audit|examine|check|verify|look\s{1,3}(?:it\s{1,3}|them\s{1,3})?over)\b[^\n]{0,60}\b(?:and|then)\s{1,3}(?:execute|run)\b/i;

/**
 * A URL template's slot naming which resource the route addresses ("{org}", "{projectId}",
 * "{repo_id}"), never one naming a session, token or key: the author fills it in, it carries no data.
 */
export const ROUTE_ID_SLOT_RE =
  /\{(?![A-Za-z_]{0,30}(?:[Ss]ession|[Tt]oken|[Kk]ey|[Ss]ecret|[Aa]uth|[Cc]ookie|[Pp]ass))(?:[A-Za-z]{1,30}(?:Id|ID|Ids|IDs|_id|_ids|Number|_number)|id|org|owner|repo|project|slug|tenant|workspace|team|number)\}/g;
/** A cancellation token (.NET CancellationToken, "cancellation token") named in the file: "pass the token down" then means that token. */
export const CANCELLATION_TOKEN_RE = /\bcancellation[ _]?tokens?\b/i;

/** "This tool replaces the previously used X tool": a successor note naming a retired tool, not shadowing a live one. */
export const RETIRED_TOOL_RE = /^\s{1,3}(?:the\s{1,3})?(?:previously\s{1,3}used|previous|former|old|older|legacy|deprecated|earlier|retired|obsolete)\b/i;
/** A redirect that makes a successor note shadow the tool after all ("… always call this one instead"). */
export const TOOL_REDIRECT_RE = /\b(?:always|instead|any\s{1,3}other|every|never\s{1,3}(?:use|call))\b/i;
/** "These rules override everything else in this skill": precedence among the file's own parts, not over the user. */
export const OWN_PARTS_SCOPE_RE =
  /^\s{1,3}(?:else\s{1,3})?(?:in|of|within)\s{1,3}(?:this|the)\s{1,3}(?:skill|file|document|guide|prompt|section|playbook|checklist|workflow|template)\b/i;

/** "… in plain-language mode", "… in the summary view": where a detail is left out of a display, not an act. */
export const DISPLAY_SCOPE_RE = /\bin\s{1,3}(?:the\s{1,3})?(?:[\w-]{1,24}\s{1,3}){0,2}(?:mode|view)\b/gi;
/**
 * "If the system can silently commit the user to …": a hypothetical behaviour of the thing under
 * review (a bug to look for), not an order, when the phrase stands inside that clause (no comma ends it
 * first); the agent or the reader as subject ("if you can …") is excluded.
 */
export const HYPOTHETICAL_MODAL_RE =
  /\b(?:if|whether)\s{1,3}(?!(?:you|we|i|it|the\s{1,3}(?:agent|assistant|model))\s)(?:[\w'-]{1,24}\s{1,3}){1,4}(?:can|could|may|might|would)(?:\s{1,3}\w|\s{0,3}$)/i;

/** "… for any task involving personal data": the request class is narrowed by its topic, not every request. */
export const TOPIC_SCOPE_RE =
  /^\s{1,3}(?:involving|concerning|touching|regarding|about|(?:that|which)\s{1,3}(?:involves?|touch(?:es)?|concerns?|handles?|uses?)|related\s{1,3}to)\s{1,3}(?!any(?:thing|\s{1,3}topic)?\b|everything\b|all\b)\w/i;

export const BENIGN_FORM_REGEXES: readonly RegExp[] = [
  ROUTE_ID_SLOT_RE,
  CANCELLATION_TOKEN_RE,
  TOPIC_SCOPE_RE,
  DISPLAY_SCOPE_RE,
  HYPOTHETICAL_MODAL_RE,
  RETIRED_TOOL_RE,
  TOOL_REDIRECT_RE,
  OWN_PARTS_SCOPE_RE,
  INJECTION_PAYLOAD_RE,
  ON_USER_REQUEST_RE,
  NOUN_COMPOUND_PREFIX_RE,
  DATABASE_FORM_RE,
  REMOTE_PAYLOAD_RE,
  REVIEW_STEP_RE,
  CONSENT_PROMPT_RE,
  READ_ANSWER_RE,
  REFUSAL_EXIT_RE,
  SUDO_SYSTEM_ENABLE_RE,
  IMPERATIVE_INSTALL_RE,
  GUARDED_DEV_RESET_RE,
  GUARD_OVERRIDE_RE,
  LOCAL_SCOPE_RE,
  SHARED_SCOPE_RE,
  QUOTED_ARGUMENT,
  STEP_SEPARATOR,
  DISCARDED_OUTPUT,
  STEP_SIDE_EFFECT,
  FIND_ACTION,
  ...READ_ONLY_SUBCOMMANDS.values(),
  AMBIGUOUS_MODE_RE,
  AGENT_MODE_CONTEXT_RE,
  ADVERB_CLAUSE_CONTINUATION_RE,
  CODE_COMMENT_LINE_RE,
  PATTERN_ARGUMENT_BEFORE_RE,
  FINDING_OUT_RE,
  RESTATING_RE,
  TEMPLATE_SLOT_LINE_RE,
  PLACEHOLDER_FETCH_RE,
  EXCLUSION_ARG_RE,
  REPORTS_ONLY_PROBLEMS_RE,
  TERMINATION_LABEL_RE,
  BADGE_FETCHES_ELSEWHERE_RE,
  INTRANSITIVE_END_RE,
  ENV_SUBCOMMAND_RE,
  ENV_PROPERTY_RE,
  AUTH_HEADER_ENV_RE,
  NON_READING_FILE_OP_RE,
  ENV_PASSTHROUGH_RE,
  ENV_SPREAD_LINE_RE,
  ENV_OBJECT_OPEN_RE,
  PAYMENT_NOUN_RE,
  AUTOMATED_REVIEWER_RE,
  CLEARANCE_REQUEST_RE,
];

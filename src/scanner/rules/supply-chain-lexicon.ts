/**
 * Word lists of the supply-chain and fake-prerequisite rules, kept as data: paste hosts used to
 * stage second-stage commands, and the npm scopes whose look-alikes are typosquats.
 */

/** Paste and anonymous text-sharing hosts (a "required setup" link here has no reviewable payload). */
export const PASTE_SITES: readonly string[] = [
  'glot.io',
  'rentry.co',
  'rentry.org',
  'pastebin.com',
  'hastebin.com',
  'hastebin.skyra.pw',
  'paste.ee',
  'ghostbin.com',
  'ghostbin.co',
  'privatebin.net',
  'termbin.com',
  'dpaste.org',
  'dpaste.com',
  'controlc.com',
  'justpaste.it',
  'pastes.io',
  'paste.rs',
  'ix.io',
  'sprunge.us',
  '0bin.net',
  'bpa.st',
  'pastie.io',
  'katb.in',
  'paste.gg',
  'pastebin.pl',
  'paste.centos.org',
  'snippet.host',
  'pastelink.net',
];

/** Official npm scopes: a scope one edit, one separator or one suffix away from these imitates them. */
export const KNOWN_NPM_SCOPES: readonly string[] = [
  'anthropic-ai',
  'modelcontextprotocol',
  'openai',
  'google',
  'google-cloud',
  'microsoft',
  'azure',
  'aws-sdk',
  'types',
  'vercel',
  'langchain',
  'playwright',
  'octokit',
  'supabase',
  'cloudflare',
  'github',
  'stripe',
  'sentry',
  'babel',
  'angular',
  'nestjs',
  'prisma',
  'tanstack',
  'mistralai',
  'huggingface',
  'upstash',
  'notionhq',
  'slack',
  'vitejs',
  'sveltejs',
  'storybook',
  'firebase',
];

/** Suffixes squatters add to an official scope (`@anthropic-ai` → `@anthropic-ai-sdk`, `@openai-official`). */
export const SCOPE_SQUAT_SUFFIXES: readonly string[] = ['-ai', '-sdk', '-official', '-dev', '-labs', '-inc', '-team', '-io', 'ai', 'official'];

/**
 * Paste services by name, whatever the top-level domain: the same service answers on several
 * (rentry.co and rentry.org), and mirrors keep the name.
 */
export const PASTE_SITE_NAMES: readonly string[] = [
  'glot',
  'rentry',
  'pastebin',
  'hastebin',
  'ghostbin',
  'privatebin',
  'termbin',
  'dpaste',
  'controlc',
  'justpaste',
  'pastie',
  'sprunge',
  'pastelink',
  '0bin',
];

/** "Password" in English and the other languages agent files are commonly written in, for archive passwords stated in prose. */
export const PASSWORD_WORDS: readonly string[] = [
  'password',
  'passphrase',
  'passcode',
  'pass',
  'pwd',
  'contraseña',
  'contrasena',
  'clave',
  'passwort',
  'kennwort',
  'mot de passe',
  'senha',
  'parola',
  'wachtwoord',
  'hasło',
  'пароль',
];

/**
 * What a fake prerequisite asks the reader to switch off or hand over so its download can run:
 * antivirus and reputation checks, quarantine, administrator rights, the login password.
 */
export const SECURITY_OVERRIDE_PHRASES: readonly string[] = [
  'antivirus',
  'anti-virus',
  'anti virus',
  'defender',
  'smartscreen',
  'gatekeeper',
  'quarantine',
  'false alarm',
  'false positive',
  'falso positivo',
  'fehlalarm',
  'faux positif',
  'as administrator',
  'as an administrator',
  'as admin',
  'with administrator privileges',
  'administrator privileges',
  'run as root',
  'como administrador',
  'als administrator',
  "en tant qu'administrateur",
  'en administrateur',
  'enter your password',
  'your login password',
  'your admin password',
  'your mac password',
  'your system password',
  'accept all',
  'allow it anyway',
  'allow anyway',
  'run anyway',
];

/** Files a prerequisite hands over to run: installers, apps, scripts, macros. */
export const RUNNABLE_EXTENSIONS: readonly string[] = ['exe', 'msi', 'bat', 'cmd', 'scr', 'app', 'dmg', 'pkg', 'ps1', 'vbs', 'jar', 'command', 'hta', 'lnk'];

const escape = (s: string): string => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
/**
 * A link into a paste service: a listed host, a listed service name (or its mirror, `name-mirror`)
 * under any top-level domain, or the raw text of a `paste.` host.
 */
export const PASTE_URL = new RegExp(
  String.raw`\b(?:https?:\/\/)?(?:[\w-]{1,40}\.)?(?:${PASTE_SITES.map(escape).join('|')}|(?:${PASTE_SITE_NAMES.map(escape).join('|')})(?:-[a-z0-9]{1,20})?\.[a-z]{2,24}|paste\.[\w-]{1,40}\.[a-z]{2,24}(?=\/raw\/))\/[\w/?=&.#-]{2,120}`,
  'i',
);
/** The words of SECURITY_OVERRIDE_PHRASES as one pattern. */
export const SECURITY_OVERRIDE = new RegExp(String.raw`(?:^|[^\p{L}])(?:${SECURITY_OVERRIDE_PHRASES.map(escape).join('|')})(?![\p{L}])`, 'iu');
/** Something handed over to run: an installer or app by name, `chmod +x`, `./x`, "press Enter". */
export const RUN_GESTURE = new RegExp(
  String.raw`\b[\w.-]{1,60}\.(?:${RUNNABLE_EXTENSIONS.join('|')})\b|\bchmod\s{1,3}\+x\b|(?:^|[\s\x60'"(])\.\/[\w.-]{1,60}|\bpress\s{1,3}(?:enter|return)\b|\b(?:copy|paste)\b[^\n]{0,60}\b(?:terminal|shell|powershell|command\s{1,3}prompt|cmd)\b`,
  'i',
);
/**
 * A stated password: the word, up to three words (" of the archive"), then is / : / = and a value,
 * or the value quoted right after the word. The word starts a word: a lookbehind matches the same
 * lines as a consumed `(?:^|[^\p{L}])` at under half the cost (BW-SUP-001 tests every password line).
 */
export const PASSWORD_STATED = new RegExp(
  String.raw`(?<!\p{L})(?:${PASSWORD_WORDS.map(escape).join('|')})(?:\s{1,3}[\p{L}]{1,12}){0,3}(?:\s{1,3}(?:is|es|ist|est)(?![\p{L}])|\s{0,3}[:=(])\s{0,3}[\x60'"*]{0,3}[^\s\x60'"*]{2,40}|(?<!\p{L})(?:${PASSWORD_WORDS.map(escape).join('|')})\s{1,3}[\x60'"][^\s\x60'"]{2,40}[\x60'"]`,
  'iu',
);

/**
 * A story for swapping the genuine package: "instead of", "the original is abandoned", "the other
 * scope is deprecated", "maintained fork" (English, German, Spanish, French). Beside a look-alike
 * name it shows the swap is the point.
 */
export const SUBSTITUTION_CLAIM =
  /\b(?:instead\s{1,3}of|rather\s{1,3}than|in\s{1,3}place\s{1,3}of|replace[sd]?|replacement|deprecated|abandoned|unmaintained|no\s{1,3}longer\s{1,3}maintained|maintained\s{1,3}fork|official\s{1,3}fork|the\s{1,3}other\s{1,3}one|moved\s{1,3}to|renamed\s{1,3}to|statt|anstelle|veraltet|en\s{1,3}(?:lugar|vez)\s{1,3}de|obsoleto|au\s{1,3}lieu\s{1,3}de|obsolète)\b/i;
/** "`x` instead of `y`", "`x` rather than `y`": the first is put in the second's place. */
export const USE_INSTEAD_OF =
  /[`'"]([@\w./-]{4,80})[`'"][^\n`'"]{0,40}?\b(?:instead\s{1,3}of|rather\s{1,3}than|in\s{1,3}place\s{1,3}of|statt|anstelle\s{1,3}von|en\s{1,3}(?:lugar|vez)\s{1,3}de|au\s{1,3}lieu\s{1,3}de)\s{1,3}[`'"]([@\w./-]{4,80})[`'"]/gi;
/** "replace `y` with `x`", "swap `y` for `x`", "switch from `y` to `x`": the second is put in the first's place. */
export const REPLACE_WITH =
  /\b(?:replace|swap|switch\s{1,3}from|migrate\s{1,3}from|move\s{1,3}from)\s{1,3}[`'"]([@\w./-]{4,80})[`'"]\s{1,3}(?:with|by|for|to)\s{1,3}[`'"]([@\w./-]{4,80})[`'"]/gi;
/** Words that put a substitution in the package world (not `python3` for `python` at the prompt). */
export const PACKAGE_WORLD = /\b(?:install|dependenc(?:y|ies)|requirements|package|library|module|pip|npm|pypi|yarn|pnpm|poetry|import|fork)/i;

export const SUPPLY_CHAIN_REGEXES: readonly RegExp[] = [
  PASTE_URL,
  SECURITY_OVERRIDE,
  RUN_GESTURE,
  PASSWORD_STATED,
  SUBSTITUTION_CLAIM,
  USE_INSTEAD_OF,
  REPLACE_WITH,
  PACKAGE_WORLD,
];

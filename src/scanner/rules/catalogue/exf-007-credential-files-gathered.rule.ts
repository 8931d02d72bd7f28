import type { Rule, RuleHit } from '../rule.types';

/** Names of files that hold credentials, keys, cookies or password vaults. */
const CREDENTIAL_FILE =
  /id_rsa|id_ed25519|id_ecdsa|id_dsa|\.pem\b|\.env\b|\bcredentials\b|cookies\.sqlite|\bCookies\b|Login Data|\.kdbx\b|wallet\.dat|\.npmrc|\.netrc|\.git-credentials|\bkeychain\b|\.ppk\b|\.p12\b|\.pfx\b|\.keystore\b/gi;
/** A walk over the whole home directory. */
const HOME_WALK =
  /\bos\.walk\(\s{0,3}(?:os\.path\.expanduser\(\s{0,3}["']~\/?["']|(?:pathlib\.)?Path\.home\(\)|os\.environ\[\s{0,3}["']HOME|os\.getenv\(\s{0,3}["']HOME)|\bPath\.home\(\)\s{0,3}\.\s{0,3}r?glob\(|\bfind\s{1,3}(?:~\/?|\$HOME\/?|"\$HOME"\/?)\s|\b(?:readdirSync|readdir|walk|walkSync|glob|globSync)\(\s{0,3}(?:os\.)?homedir\(\)|\b(?:walk|scan|crawl|collect|index|search)\w{0,20}\(\s{0,3}(?:os\.path\.expanduser\(\s{0,3}["']~\/?["']\s{0,3}\)|(?:pathlib\.)?Path\.home\(\))\s{0,3}\)/i;
/** Copying or packing what was found. */
const GATHER =
  /\btarfile\.open\(|\bzipfile\.ZipFile\(|\bshutil\.(?:copy|copy2|copyfile|copytree|make_archive)\(|\btar\s{1,3}-{0,2}[a-z]{0,4}c|\bzip\s{1,3}-[a-z]{0,3}r|\barchiver\(|\bAdmZip\b|\bfs\.(?:copyFile|copyFileSync|cp|cpSync)\(/;

/**
 * Distinct credential-file names on one line (a list of what to look for). Runs on every line of a
 * script: a line without a name allocates nothing (`matchAll` copies the pattern per call).
 */
function distinctMarkers(line: string): number {
  CREDENTIAL_FILE.lastIndex = 0;
  let m = CREDENTIAL_FILE.exec(line);
  if (!m) return 0;
  const seen = new Set<string>();
  for (; m; m = CREDENTIAL_FILE.exec(line)) seen.add(m[0].toLowerCase());
  return seen.size;
}

/**
 * A script that walks the whole home directory for files named like credentials (keys, .env,
 * cookie stores, password vaults) and copies or packs what it finds is staging them for theft:
 * the step before any upload, and the step a split collector/sender pair leaves in the first
 * script. A scanner that only reports such files, or a backup of a project folder, does not match.
 */
export const exfCredentialFilesGatheredRule: Rule = {
  meta: {
    id: 'BW-EXF-007',
    title: 'Credential files gathered from the home directory',
    category: 'secrets_exposure',
    severity: 'high',
    confidence: 'high',
    asset_type: 'script',
    shows_intent: true,
    rationale:
      "Walking the whole home directory for files named like credentials (SSH keys, .env files, cookie databases, password vaults, wallet files) and copying or archiving them stages the user's secrets for theft, whatever the script says it indexes. The rule needs, in one script, a list naming at least three kinds of credential files, a walk over the home directory and a copy or archive step. Reporting such files without copying them, or packing a project folder, is not matched.",
    example:
      'KEYS = ("id_rsa", ".env", "Login Data")\nfor base, _d, files in os.walk(os.path.expanduser("~")):\n    for f in files:\n        if any(k in f for k in KEYS): shutil.copy(os.path.join(base, f), "/tmp/.k")',
    example_path: 'scripts/index.py',
  },
  regexes: [CREDENTIAL_FILE, HOME_WALK, GATHER],
  match(ctx) {
    if (!ctx.executable) return [];
    let listLine = 0;
    let walks = false;
    let gathers = false;
    for (let i = 0; i < ctx.lines.length; i++) {
      const l = ctx.lines[i];
      // An empty line holds none of the three (a file of line breaks is 250,000 of them).
      if (l.length === 0) continue;
      if (listLine === 0 && distinctMarkers(l) >= 3) listLine = i + 1;
      if (!walks && HOME_WALK.test(l)) walks = true;
      if (!gathers && GATHER.test(l)) gathers = true;
    }
    if (listLine === 0 || !walks || !gathers) return [];
    const hit: RuleHit = { line: listLine, evidence: ctx.lines[listLine - 1].trim().slice(0, 200) };
    return [hit];
  },
};

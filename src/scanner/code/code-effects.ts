/**
 * What a code call does to the host, read from its resolved name and arguments: destroys a broad
 * target, sends data out, weakens an operating-system control. Shared by the code rules; the
 * word lists are the code lexicons.
 */
import { codeLexicon } from '../lexicons/lexicon';
import { HISTORY_OR_KEY_FOLDER, type CodeCall } from './code-facts';

/** Trailing slashes, matched from a non-slash so a run of slashes is not re-read from each start. */
export const TRAILING_SLASHES = /(?<=[^/]|^)\/+$/;
const RECURSIVE_FLAG = /^(?:-[a-zA-Z]{0,6}[rR][a-zA-Z]{0,6}|--recursive|-recurse)$/;
const FORCE_PUSH_FLAG = /^(?:-f|--force|--force-with-lease|--mirror|--delete|-d)$|^\+/;
const DEVICE = /^(?:of=)?\/dev\/(?:sd|nvme|disk|hd|vd|xvd)/;
const SEND_FLAG = /^(?:-d|--data(?:-binary|-raw|-urlencode)?|-F|--form|-T|--upload-file|-method|post)$/i;
const SEND_CALLEE = /(?:^|\.)(?:post|put|sendfile|upload_file|upload)$/;

function lastPart(name: string): string {
  return name.includes('/') ? name : name.slice(name.lastIndexOf('.') + 1);
}

/** A path as the code rules compare it: lower case, forward slashes, home as `~`, no trailing slash or leading `./`. */
export function normPath(p: string): string {
  return p
    .trim()
    .toLowerCase()
    .replace(/\\/g, '/')
    .replace(/^\$\{?home\}?/, '~')
    .replace(TRAILING_SLASHES, '')
    .replace(/^\.\/(?=.)/, '');
}

/** A path whose removal is broad: a listed target, a direct child of one, or a repository's history or key folder anywhere. */
export function broadTarget(path: string): boolean {
  const p = normPath(path);
  if (p === '') return path.trim() === '/';
  const broad = codeLexicon('code-broad-target');
  if (broad.has(p) || broad.has(`${p}/`)) return true;
  if (HISTORY_OR_KEY_FOLDER.test(p)) return true;
  const parent = p.includes('/') ? p.slice(0, p.lastIndexOf('/')) : '';
  if (p.startsWith('/') && parent === '') return true;
  if (broad.has(parent) && parent !== '.' && parent !== '..') return true;
  return p.endsWith('/*') && broadTarget(p.slice(0, -2));
}

/** The call removes a broad target recursively, wipes a device or rewrites a remote's history. */
export function destroysBroadly(call: CodeCall): boolean {
  const name = call.name;
  const last = lastPart(name);
  if (name === 'git' && call.args[0] === 'push') return call.args.some((a) => FORCE_PUSH_FLAG.test(a));
  if (!codeLexicon('code-destroy').has(name) && !codeLexicon('code-destroy').has(last)) return false;
  if (last === 'mkfs' || last === 'wipefs' || last === 'format-volume' || last === 'clear-disk') return true;
  if (last === 'dd') return call.args.some((a) => DEVICE.test(a));
  const targets = call.args.filter((a) => !a.startsWith('-') && !a.includes('='));
  const recursiveShell = call.args.some((a) => RECURSIVE_FLAG.test(a));
  const recursiveCall = /rmtree|rimraf/.test(last) || call.args.some((a) => /recursive\s{0,3}[:=]\s{0,3}true/i.test(a));
  if (last === 'rm' || last === 'remove-item' || last === 'ri' || last === 'del' || last === 'rmdir') {
    return (recursiveShell || last === 'rmdir') && targets.some(broadTarget);
  }
  if (recursiveCall || /rmsync|rmdirsync/.test(last)) return targets.length > 0 && broadTarget(targets[0]);
  return false;
}

/** The call sends data to the network (a request with a body, an upload). */
export function sendsOut(call: CodeCall): boolean {
  const last = lastPart(call.name);
  if (last === 'curl' || last === 'wget' || last === 'invoke-restmethod' || last === 'invoke-webrequest' || last === 'irm' || last === 'iwr')
    return call.args.some((a) => SEND_FLAG.test(a) || a.startsWith('--post'));
  return SEND_CALLEE.test(call.name) && call.args.some((a) => /^https?:\/\//.test(a));
}

/** Every regex of this module, for the ReDoS check in the test suite. */
export const CODE_EFFECT_REGEXES: readonly RegExp[] = [TRAILING_SLASHES, RECURSIVE_FLAG, FORCE_PUSH_FLAG, DEVICE, SEND_FLAG, SEND_CALLEE];

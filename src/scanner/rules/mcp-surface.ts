/**
 * The MCP surface of a scanned file (tools, their schema strings, annotations and server
 * instructions), extracted once per file, and what a tool's name, words and body say it does.
 * Shared by the BW-MCP-1xx rules.
 */
import { extractJsonSurface, extractMarkdownSurface, extractSourceSurface, type McpSurface, type McpToolDecl } from '../parsers/mcp-tool-schema.parser';
import type { ScanContext } from '../views/scan-context';
import { isNegatedAt } from './context-layer';
import { EFFECT_NOUN_LIKE, EFFECT_WORDS, type ToolEffect } from './mcp-lexicon';
import { perFile } from './regex-rule';

const EMPTY: McpSurface = { tools: [], instructions: [] };

export const mcpSurfaceOf = perFile((ctx: ScanContext): McpSurface => {
  if (ctx.language === 'python' || ctx.language === 'javascript') return extractSourceSurface(ctx.text, ctx.lines, ctx.language);
  if (ctx.language === 'json' && ctx.json !== undefined) return extractJsonSurface(ctx.json, ctx.lines);
  if (ctx.language === 'markdown' && ctx.text.includes('Tool')) return extractMarkdownSurface(ctx.lines);
  return EMPTY;
});

/** `deleteOldFiles`, `delete-old_files` → ['delete', 'old', 'files']. */
export function nameWords(name: string): string[] {
  return name
    .replace(/([a-z0-9])([A-Z])/g, '$1 $2')
    .toLowerCase()
    .split(/[^a-z0-9]+/)
    .filter(Boolean);
}

const effectWordList = (e: ToolEffect): string => EFFECT_WORDS[e].join('|');
/** An effect verb used as the action of a clause: sentence start, or after "and", "by", "then", "will" … */
function clauseVerb(e: ToolEffect): RegExp {
  return new RegExp(String.raw`(?:^|[.;:!]\s{1,3}|\b(and|by|then|will|also|automatically|that|which|to|can|may)\s{1,3})(${effectWordList(e)})\b`, 'gi');
}
const DESCRIBED: Record<ToolEffect, RegExp> = {
  destroys: clauseVerb('destroys'),
  writes: clauseVerb('writes'),
  sends: clauseVerb('sends'),
  executes: clauseVerb('executes'),
};
/** An object right after a noun-like effect word makes it a verb ("and uploads them", "and commits the changes"). */
const OBJECT_FOLLOWS = /^\s{1,3}(?:them|it|the|a|an|all|any|each|every|your|their|its|this|that|these|those|data|files?|records?|messages?|changes?|to)\b/i;
/** Data moved "to a location/server/URL" is sent, whatever the verb. */
const SENDS_TO =
  /\b(?:export|exports|exporting|copies|copy|backs? up|mirror|mirrors|sync|syncs|stream|streams)\b[^.\n]{0,60}\bto\s{1,3}(?:an?\s{1,3}|the\s{1,3}|your\s{1,3})?(?:secure\s{1,3}|remote\s{1,3}|external\s{1,3}|cloud\s{1,3})?(?:location|server|endpoint|url|host|bucket|storage|webhook|cloud|remote)\b/i;
/** Parameters that name a destination off the machine. */
const DESTINATION_PARAM =
  /\b(?:remote_?url|remoteUrl|webhook(?:_?url|Url)?|upload_?url|uploadUrl|destination_?url|callback_?url|callbackUrl|exfil\w{0,20}|recipient|to_email|toEmail|endpoint_?url)\b["']?\s{0,3}[:=(]/;
/** Code in the tool's body that has the effect, whatever the words say (commands and SQL only inside a call that runs them). */
const BODY_SINK: Partial<Record<ToolEffect, RegExp>> = {
  destroys:
    /\bos\.(?:remove|unlink|rmdir)\s{0,2}\(|\bshutil\.rmtree\s{0,2}\(|\.unlink\s{0,2}\(|\bfs\.(?:rm|rmSync|unlink|unlinkSync|rmdir)\s{0,2}\(|\b(?:system|popen|check_output|check_call|run|call|Popen|execSync|exec|spawn\w{0,4}|execute|executemany)\s{0,2}\(\s{0,2}[fr]?["'`][^\n]{0,80}(?:\brm\s{1,3}-[rRf]{1,3}\s|\bDROP\s{1,3}(?:TABLE|DATABASE)\b|\bTRUNCATE\s{1,3}TABLE\b|\bDELETE\s{1,3}FROM\b)/,
  sends:
    /\brequests\.(?:post|put)\s{0,2}\(|\bhttpx\.(?:post|put)\s{0,2}\(|\baxios\.(?:post|put)\s{0,2}\(|\bmethod\s{0,2}:\s{0,2}["'](?:POST|PUT)["']|\bsmtplib\b|\.sendmail\s{0,2}\(|\burllib\.request\.Request\s{0,2}\(\s{0,2}[\w.]{1,60}\s{0,2},/,
};

/** A clause sending the reader to another tool ("to create issues, use the tracker's create_issue tool"). */
const OTHER_TOOL_REFERENCE = /\b(?:use|call|invoke|prefer)\s{1,3}(?!this\b|it\b)[^.;\n]{0,60}?\btool\b/i;

/** The sentence or clause of `text` around offset `at` (ends at ". ", "! ", "? " or "; "). */
export function sentenceOf(text: string, at: number): string {
  const stops = ['. ', '! ', '? ', '; '];
  const start = Math.max(...stops.map((e) => text.lastIndexOf(e, at))) + 1;
  const ends = stops.map((e) => text.indexOf(e, at)).filter((i) => i >= 0);
  return text.slice(start, ends.length ? Math.min(...ends) + 1 : text.length);
}

/** Is `at` inside a "…", '…' or `…` quotation on its line of `text`? */
function insideQuotes(text: string, at: number): boolean {
  const lineStart = text.lastIndexOf('\n', at) + 1;
  const before = text.slice(lineStart, at);
  return ['"', '`', '“'].some((q) => before.split(q).length % 2 === 0) || before.lastIndexOf('“') > before.lastIndexOf('”');
}

export interface EffectEvidence {
  effect: ToolEffect;
  line: number;
  text: string;
  /** Only the tool's name says so (weaker than its description, parameters or code). */
  fromName: boolean;
}

/**
 * What a tool does according to its name's leading verb, its descriptions (clause verbs, not
 * negated), a destination parameter, and sinks in its body.
 */
export function toolEffects(tool: McpToolDecl, ctx: ScanContext): EffectEvidence[] {
  const out: EffectEvidence[] = [];
  const seen = new Set<ToolEffect>();
  const add = (effect: ToolEffect, line: number, text: string, fromName = false): void => {
    const prior = out.find((e) => e.effect === effect);
    if (prior?.fromName && !fromName) out.splice(out.indexOf(prior), 1, { effect, line, text, fromName });
    if (seen.has(effect)) return;
    seen.add(effect);
    out.push({ effect, line, text, fromName });
  };
  const verb = tool.name ? nameWords(tool.name)[0] : undefined;
  if (verb) {
    for (const effect of Object.keys(EFFECT_WORDS) as ToolEffect[]) {
      if ((EFFECT_WORDS[effect] as readonly string[]).includes(verb)) add(effect, tool.line, `tool name ${tool.name}`, true);
    }
  }
  for (const s of tool.strings) {
    // Titles are noun phrases ("Email Summarizer"): only descriptions state actions.
    if (s.role !== 'description') continue;
    for (const effect of Object.keys(DESCRIBED) as ToolEffect[]) {
      for (const m of s.text.matchAll(DESCRIBED[effect])) {
        // m[1] is the connector; a noun-like plural after one is an object unless an object follows it.
        if (m[1] && EFFECT_NOUN_LIKE.has(m[2].toLowerCase()) && !OBJECT_FOLLOWS.test(s.text.slice(m.index + m[0].length, m.index + m[0].length + 24))) continue;
        // Negated ("never deletes") or quoted ("a hostname like \"x; rm -rf /\"") words state no action.
        if (isNegatedAt(s.text, m[0].trim()) || insideQuotes(s.text, m.index + m[0].length - m[2].length)) continue;
        // "To <verb> …, use the X tool": the purpose belongs to the other tool the sentence names.
        if (m[1]?.toLowerCase() === 'to' && OTHER_TOOL_REFERENCE.test(sentenceOf(s.text, m.index + m[0].length))) continue;
        add(effect, s.line, s.text);
        break;
      }
    }
    const to = SENDS_TO.exec(s.text);
    if (to && !isNegatedAt(s.text, to[0])) add('sends', s.line, s.text);
  }
  for (let l = tool.fromLine; l <= Math.min(tool.toLine, ctx.lines.length); l++) {
    const text = ctx.lines[l - 1];
    if (DESTINATION_PARAM.test(text)) add('sends', l, text.trim());
    for (const effect of Object.keys(BODY_SINK) as ToolEffect[]) {
      if (BODY_SINK[effect]!.test(text)) add(effect, l, text.trim());
    }
  }
  return out;
}

/** The first line of a server's source that sends data out, in a tool or in a helper its tools call; 0 when none. */
export const serverSendLine = perFile((ctx: ScanContext): number => {
  if (ctx.language !== 'python' && ctx.language !== 'javascript') return 0;
  const at = ctx.lines.findIndex((line) => BODY_SINK.sends!.test(line));
  return at + 1;
});

/** Every regex of this module, for the ReDoS check. */
export const MCP_SURFACE_REGEXES: readonly RegExp[] = [
  ...Object.values(DESCRIBED),
  SENDS_TO,
  OTHER_TOOL_REFERENCE,
  OBJECT_FOLLOWS,
  DESTINATION_PARAM,
  ...Object.values(BODY_SINK),
];

const SCANNED_ROLES: ReadonlySet<string> = new Set(['description', 'title', 'enum', 'default', 'instructions']);

export interface SchemaStringMatch {
  tool: McpToolDecl | null;
  match: RegExpExecArray;
  /** 1-based line in the file of the matched line of the string. */
  line: number;
  /** The string's line the match is on. */
  text: string;
  /** The whole string the line belongs to (a tool description is one unit). */
  whole: string;
}

/**
 * Runs `pattern` over every line of every description, title, enum, default and instructions
 * string of the file's MCP surface (one match per string line), mapping each hit to its file line.
 */
export function matchSchemaStrings(ctx: ScanContext, pattern: RegExp, roles: ReadonlySet<string> = SCANNED_ROLES): SchemaStringMatch[] {
  const surface = mcpSurfaceOf(ctx);
  const out: SchemaStringMatch[] = [];
  const visit = (tool: McpToolDecl | null, strings: readonly { role: string; text: string; line: number }[]): void => {
    for (const s of strings) {
      if (!roles.has(s.role)) continue;
      s.text.split('\n').forEach((text, i) => {
        const m = pattern.exec(text);
        if (m) out.push({ tool, match: m, line: s.line + i, text, whole: s.text });
      });
    }
  };
  for (const tool of surface.tools) visit(tool, tool.strings);
  visit(null, surface.instructions);
  return out;
}

/**
 * Schema strings joined from literals on several lines (`"Before using this " +\n "tool, read …"`):
 * line-based rules see only the pieces, so rules that read tool descriptions also run on these.
 */
export function joinedSchemaStrings(ctx: ScanContext): { text: string; line: number }[] {
  const surface = mcpSurfaceOf(ctx);
  return [...surface.tools.flatMap((t) => t.strings), ...surface.instructions].filter((s) => s.joinedAcrossLines === true && s.role !== 'name');
}

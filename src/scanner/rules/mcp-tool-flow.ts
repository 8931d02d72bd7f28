/**
 * Where an MCP tool's arguments go inside its handler: the parameters of the decorated function or
 * inline handler, the variables built from them (f-strings, templates, concatenation, % and
 * format), and the lines where one of them is the first argument of a sink call. Line-based, one
 * pass over each line's words; the model chooses these arguments, so any text it read can steer them.
 */
import type { McpToolDecl } from '../parsers/mcp-tool-schema.parser';
import type { ScanContext } from '../views/scan-context';

// Anchored at the line's start, so the open-ended runs are read once: a long parameter list or
// value cannot push a name out of reach.
const PY_PARAMS = /^\s{0,40}(?:async\s{1,3})?def\s{1,3}\w{1,80}\s{0,3}\(([^)]*)\)?/;
const TS_PARAMS = /(?:async\s{1,3})?\(\s{0,3}\{([^}]{1,300})\}|(?:async\s{1,3})?\(\s{0,3}(\w{1,40})\s{0,3}(?::\s{0,3}\w{1,40})?\s{0,3}\)\s{0,3}=>/;
const ASSIGNMENT = /^\s{0,40}(?:const\s{1,3}|let\s{1,3}|var\s{1,3})?(\w{1,60})\s{0,3}(?::\s{0,3}\w{1,30}\s{0,3})?=(?!=)\s{0,3}([^\n]+)/;
const IDENTIFIER = /^\w{1,40}$/;
/** A word as `\b…\b` delimits it: what a tracked name is compared with. */
const WORD = /\w+/g;
/** Just before a word, what makes a value built from it: an f-string or template hole, `+`, `%` formatting. */
const BUILD_BEFORE = /(?:\{|\+|%\s{0,2}\(?)\s{0,2}$/;
/** Just after a word: concatenation. */
const BUILD_AFTER = /^\s{0,2}\+/;
/** Before a word, an open `.format(` or path join it is an argument of. */
const BUILD_CALL_BEFORE = /\.format\([^)]{0,200}$|\b(?:join|Path)\s{0,2}\([^)\n]{0,120}$/;
/** How far back BUILD_CALL_BEFORE can reach. */
const CALL_REACH = 220;

/** Does `text` mention one of the names as a whole word (with `built`, only where a value is built from it)? */
function mentionsAny(text: string, names: ReadonlySet<string>, built: boolean): boolean {
  // One pass over the words, whatever the number of names: every name a tool takes is tracked.
  WORD.lastIndex = 0;
  for (let m = WORD.exec(text); m; m = WORD.exec(text)) {
    if (!names.has(m[0])) continue;
    if (!built) return true;
    const at = m.index;
    const end = at + m[0].length;
    if (BUILD_BEFORE.test(text.slice(Math.max(0, at - 8), at)) || BUILD_AFTER.test(text.slice(end, end + 3))) return true;
    if (BUILD_CALL_BEFORE.test(text.slice(Math.max(0, at - CALL_REACH), at))) return true;
  }
  return false;
}

function paramsOf(line: string, language: string): string[] {
  if (language === 'python') {
    const m = PY_PARAMS.exec(line);
    if (!m) return [];
    return m[1]
      .split(',')
      .map((p) =>
        p
          .trim()
          .split(/[:=\s]/)[0]!
          .replace(/^\*{1,2}/, ''),
      )
      .filter((p) => p && p !== 'self' && p !== 'ctx' && p !== 'context');
  }
  const m = TS_PARAMS.exec(line);
  if (!m) return [];
  if (m[1])
    return m[1]
      .split(',')
      .map((p) => p.trim().split(/[:=\s]/)[0]!)
      .filter(Boolean);
  return m[2] ? [m[2]] : [];
}

export interface ArgumentFlow {
  line: number;
  text: string;
}

/**
 * Lines of the tool where `sink` matches and the sink's first argument (group 1 of `sinkArgument`)
 * mentions a tool argument or a value built from one.
 */
export function argumentFlows(tool: McpToolDecl, ctx: ScanContext, sink: RegExp, sinkArgument: RegExp): ArgumentFlow[] {
  const out: ArgumentFlow[] = [];
  const tainted = new Set<string>();
  const last = Math.min(tool.toLine, ctx.lines.length);
  for (let l = tool.fromLine; l <= last; l++) {
    const text = ctx.lines[l - 1];
    for (const p of paramsOf(text, ctx.language)) if (IDENTIFIER.test(p)) tainted.add(p);
    if (tainted.size === 0) continue;
    const assigned = ASSIGNMENT.exec(text);
    if (assigned && !tainted.has(assigned[1]) && mentionsAny(assigned[2], tainted, true)) tainted.add(assigned[1]);
    if (!sink.test(text)) continue;
    const argument = sinkArgument.exec(text)?.[1] ?? '';
    if (mentionsAny(argument, tainted, false)) out.push({ line: l, text: text.trim() });
  }
  return out;
}

/** Every regex of this module, for the ReDoS check. */
export const MCP_TOOL_FLOW_REGEXES: readonly RegExp[] = [PY_PARAMS, TS_PARAMS, ASSIGNMENT, IDENTIFIER, WORD, BUILD_BEFORE, BUILD_AFTER, BUILD_CALL_BEFORE];

/**
 * Where an MCP tool's arguments go inside its handler: the parameters of the decorated function or
 * inline handler, the variables built from them (f-strings, templates, concatenation, % and
 * format), and the lines where one of them is the first argument of a sink call. Line-based and
 * bounded per tool; the model chooses these arguments, so any text it read can steer them.
 */
import type { McpToolDecl } from '../parsers/mcp-tool-schema.parser';
import type { ScanContext } from '../views/scan-context';

const PY_PARAMS = /^\s{0,40}(?:async\s{1,3})?def\s{1,3}\w{1,80}\s{0,3}\(([^)]{0,600})\)?/;
const TS_PARAMS = /(?:async\s{1,3})?\(\s{0,3}\{([^}]{1,300})\}|(?:async\s{1,3})?\(\s{0,3}(\w{1,40})\s{0,3}(?::\s{0,3}\w{1,40})?\s{0,3}\)\s{0,3}=>/;
const ASSIGNMENT = /^\s{0,40}(?:const\s{1,3}|let\s{1,3}|var\s{1,3})?(\w{1,60})\s{0,3}(?::\s{0,3}\w{1,30}\s{0,3})?=(?!=)\s{0,3}([^\n]{1,600})/;
const IDENTIFIER = /^\w{1,40}$/;
/** Most tainted names tracked per tool (bounds the per-line work). */
const MAX_TAINTED = 30;

/** A value built from `name`: f-string or template hole, concatenation, % or format(), a joined path. */
function builtFrom(name: string): RegExp {
  return new RegExp(String.raw`\{\s{0,2}${name}\b|\$\{\s{0,2}${name}\b|\+\s{0,2}${name}\b|\b${name}\s{0,2}\+|%\s{0,2}\(?\s{0,2}${name}\b|\.format\([^)]{0,200}\b${name}\b|\b(?:join|Path)\s{0,2}\([^)\n]{0,120}\b${name}\b`);
}

function paramsOf(line: string, language: string): string[] {
  if (language === 'python') {
    const m = PY_PARAMS.exec(line);
    if (!m) return [];
    return m[1].split(',').map((p) => p.trim().split(/[:=\s]/)[0]!.replace(/^\*{1,2}/, '')).filter((p) => p && p !== 'self' && p !== 'ctx' && p !== 'context');
  }
  const m = TS_PARAMS.exec(line);
  if (!m) return [];
  if (m[1]) return m[1].split(',').map((p) => p.trim().split(/[:=\s]/)[0]!).filter(Boolean);
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
  const tainted = new Map<string, RegExp>();
  const last = Math.min(tool.toLine, ctx.lines.length);
  for (let l = tool.fromLine; l <= last; l++) {
    const text = ctx.lines[l - 1];
    for (const p of paramsOf(text, ctx.language)) if (IDENTIFIER.test(p) && tainted.size < MAX_TAINTED && !tainted.has(p)) tainted.set(p, builtFrom(p));
    if (tainted.size === 0) continue;
    const assigned = ASSIGNMENT.exec(text);
    if (assigned && tainted.size < MAX_TAINTED && !tainted.has(assigned[1]) && [...tainted.values()].some((re) => re.test(assigned[2]))) {
      tainted.set(assigned[1], builtFrom(assigned[1]));
    }
    if (!sink.test(text)) continue;
    const argument = sinkArgument.exec(text)?.[1] ?? '';
    if ([...tainted.keys()].some((t) => new RegExp(String.raw`\b${t}\b`).test(argument))) out.push({ line: l, text: text.trim() });
  }
  return out;
}

/** Every regex of this module, for the ReDoS check (builtFrom shown for one name). */
export const MCP_TOOL_FLOW_REGEXES: readonly RegExp[] = [PY_PARAMS, TS_PARAMS, ASSIGNMENT, IDENTIFIER, builtFrom('param')];

/**
 * The strings an MCP server shows the model — tool names, tool and argument descriptions, titles,
 * enum values, defaults and the server's `instructions` — pulled out of Python (FastMCP, low-level
 * `Tool(...)`), TypeScript/JavaScript (`server.tool`, `registerTool`, tool objects) and JSON tool
 * manifests, each with the 1-based line it starts on, grouped by the tool it belongs to. One
 * forward pass over the text: a string-literal tokenizer plus line anchors that open a new tool.
 */
import { isRecord } from './json-config.parser';

export type SchemaRole = 'name' | 'description' | 'title' | 'instructions' | 'enum' | 'default';

export interface SchemaString {
  role: SchemaRole;
  /** The string's text, adjacent literals joined (`"a " "b"`, `"a " + "b"`), common escapes undone. */
  text: string;
  line: number;
  /** Joined from literals on more than one line: no single source line holds the whole text. */
  joinedAcrossLines?: boolean;
}

export interface AnnotationHint {
  value: boolean;
  line: number;
}

export interface McpToolDecl {
  /** The tool's name when written as a literal (or a decorated function's name), else null. */
  name: string | null;
  line: number;
  strings: SchemaString[];
  readOnlyHint: AnnotationHint | null;
  destructiveHint: AnnotationHint | null;
  /** 1-based inclusive line range of the declaration and, for decorated or inline handlers, its body. */
  fromLine: number;
  toLine: number;
}

export interface McpSurface {
  tools: McpToolDecl[];
  /** Server-level `instructions` strings. */
  instructions: SchemaString[];
}

/** Longest joined string kept: schema text past this is not a description a client shows. */
const MAX_STRING = 4000;
/** Most literals one file yields (the tokenizer's output stays bounded on generated files). */
const MAX_LITERALS = 20000;

/** Lines that open a tool declaration in source code. */
const TOOL_ANCHOR =
  /^\s{0,40}@[\w.]{1,60}\.tool\b|\.(?:tool|registerTool|addTool)\s{0,3}\(|\b(?:types\.)?Tool\s{0,3}\(\s{0,3}(?:$|name\s{0,3}=)|^\s{0,40}\{?\s{0,3}["']?name["']?\s{0,3}[:=]\s{0,3}["'`]/;
/** Evidence a source file defines an MCP server (cheap gate before tokenizing). */
const MCP_SOURCE_MARKER =
  /\bFastMCP\b|\bMcpServer\b|@modelcontextprotocol\/sdk|\bfrom\s{1,3}mcp\b|\bimport\s{1,3}mcp\b|\bmcp\.server\b|\bregisterTool\s{0,3}\(|\bListToolsRequestSchema\b|@[\w.]{1,60}\.tool\b/;
const ANNOTATION_RE = /\b(readOnlyHint|destructiveHint)\b["']?\s{0,3}[:=]\s{0,3}(true|false|True|False)\b/g;
const KEY_BEFORE =
  /(?:^|[^\w])["']?(description|desc|title|instructions|default|enum|examples|name)["']?\s{0,3}[:=][ \t]{0,3}\n?[ \t]{0,40}[([]?[ \t]{0,3}[frbuFRBU]{0,2}$/;
/** The key was itself a quoted literal (`"description": "…"` in a Python dict or JS object). */
const QUOTED_KEY_BETWEEN = /^\s{0,3}:\s{0,3}[([]?\s{0,3}[frbuFRBU]{0,2}$/;
const QUOTED_KEYS: ReadonlySet<string> = new Set(['description', 'title', 'instructions', 'default', 'enum', 'examples', 'name']);
const DESCRIBE_BEFORE = /\.describe\s{0,3}\(\s{0,3}[frbuFRBU]{0,2}$/;
const TOOL_CALL_BEFORE = /\.(?:tool|registerTool|addTool)\s{0,3}\(\s{0,3}$/;
const DOCSTRING_BEFORE = /\)[ \t]{0,3}(?:->[^\n:]{1,120})?:[ \t]{0,3}\n[ \t]{0,40}[rbuRBU]?$/;
const DEF_NAME = /^\s{0,40}(?:async\s{1,3})?def\s{1,3}(\w{1,80})\s{0,3}\(/;
const NAME_KEY_LINE = /^\s{0,40}\{?\s{0,3}["']?name["']?\s{0,3}[:=]/;
const DESCRIPTION_KEY_LINE = /["']?description["']?\s{0,3}[:=]/;
const JOINER = /^[\s+(\\]{0,200}$/;
const LIST_SEPARATOR = /^\s{0,20},\s{0,20}$/;

interface Literal {
  text: string;
  line: number;
  start: number;
  end: number;
}

/** Every string literal of a Python or JS/TS source, comments skipped, in file order. */
export function stringLiterals(text: string, language: 'python' | 'javascript'): Literal[] {
  const out: Literal[] = [];
  let line = 1;
  let i = 0;
  const n = text.length;
  while (i < n && out.length < MAX_LITERALS) {
    const c = text[i];
    if (c === '\n') {
      line++;
      i++;
      continue;
    }
    if ((language === 'python' && c === '#') || (language === 'javascript' && c === '/' && text[i + 1] === '/')) {
      const nl = text.indexOf('\n', i);
      i = nl < 0 ? n : nl;
      continue;
    }
    if (language === 'javascript' && c === '/' && text[i + 1] === '*') {
      const close = text.indexOf('*/', i + 2);
      const stop = close < 0 ? n : close + 2;
      for (let k = i; k < stop; k++) if (text.charCodeAt(k) === 10) line++;
      i = stop;
      continue;
    }
    if (c !== '"' && c !== "'" && !(language === 'javascript' && c === '`')) {
      i++;
      continue;
    }
    const triple = language === 'python' && text[i + 1] === c && text[i + 2] === c;
    const quote = triple ? c.repeat(3) : c;
    const multiline = triple || c === '`';
    const startLine = line;
    const start = i;
    let j = i + quote.length;
    let body = '';
    while (j < n) {
      const d = text[j];
      if (d === '\\' && j + 1 < n) {
        const e = text[j + 1];
        body += e === 'n' || e === 't' ? ' ' : e === '\n' ? '' : e;
        if (e === '\n') line++;
        j += 2;
        continue;
      }
      if (d === '\n') {
        if (!multiline) break; // an unterminated one-line string ends at the line's end
        line++;
      }
      if (text.startsWith(quote, j)) {
        j += quote.length;
        break;
      }
      body += d;
      j++;
    }
    out.push({ text: body.length > MAX_STRING ? body.slice(0, MAX_STRING) : body, line: startLine, start, end: j });
    i = j;
  }
  return out;
}

/** The 0-based index of the nearest line at or above `line` (1-based) that starts a `def`, within 12 lines. */
function defLineAbove(lines: readonly string[], line: number): number {
  for (let i = line - 1; i >= 0 && i >= line - 12; i--) if (DEF_NAME.test(lines[i])) return i;
  return -1;
}

function newTool(line: number): McpToolDecl {
  return { name: null, line, strings: [], readOnlyHint: null, destructiveHint: null, fromLine: line, toLine: line };
}

function roleOfKey(key: string): SchemaRole {
  if (key === 'desc' || key === 'examples') return key === 'desc' ? 'description' : 'enum';
  return key as SchemaRole;
}

/** Tools and instructions of a Python or JS/TS MCP server source. */
export function extractSourceSurface(text: string, lines: readonly string[], language: 'python' | 'javascript'): McpSurface {
  const surface: McpSurface = { tools: [], instructions: [] };
  if (!MCP_SOURCE_MARKER.test(text)) return surface;
  // Tool boundaries: an anchor line opens a tool that runs until the next anchor. A name-key
  // anchor counts only with a description key close below it (plain records have names too).
  const toolAt = new Int32Array(lines.length + 2).fill(-1);
  let current: McpToolDecl | null = null;
  let currentHasNameKey = false;
  // A decorated function's name names the tool unless the decorator gives one.
  const defNames = new Map<McpToolDecl, string>();
  for (let i = 0; i < lines.length; i++) {
    const l = lines[i];
    if (TOOL_ANCHOR.test(l)) {
      const nameKey = NAME_KEY_LINE.test(l);
      const describedSoon = !nameKey || lines.slice(i, i + 8).some((x) => DESCRIPTION_KEY_LINE.test(x));
      // `name=` right under `@mcp.tool(` or `Tool(` names that tool; it does not open another.
      const namesCurrent = nameKey && current !== null && !currentHasNameKey && i + 1 - current.line < 8;
      if (namesCurrent) currentHasNameKey = true;
      else if (describedSoon) {
        current = newTool(i + 1);
        currentHasNameKey = nameKey;
        surface.tools.push(current);
      }
    }
    if (current) {
      toolAt[i + 1] = surface.tools.length - 1;
      current.toLine = i + 1;
      for (const ann of l.matchAll(ANNOTATION_RE)) {
        const hint = { value: ann[2] === 'true' || ann[2] === 'True', line: i + 1 };
        if (ann[1] === 'readOnlyHint') current.readOnlyHint ??= hint;
        else current.destructiveHint ??= hint;
      }
      const def = language === 'python' ? DEF_NAME.exec(l) : null;
      if (def && !defNames.has(current) && i + 1 - current.line < 30) defNames.set(current, def[1]);
    }
  }
  let prev: { lit: Literal; str: SchemaString | null } | null = null;
  for (const lit of stringLiterals(text, language)) {
    const between = text.slice(prev ? Math.max(prev.lit.end, lit.start - 200) : Math.max(0, lit.start - 200), lit.start);
    // Adjacent or +-joined literals continue the previous schema string.
    if (prev?.str && prev.lit.end >= lit.start - 200 && JOINER.test(between) && prev.str.role !== 'name') {
      if (prev.str.text.length < MAX_STRING) prev.str.text += lit.text;
      if (lit.line !== prev.lit.line) prev.str.joinedAcrossLines = true;
      prev = { lit, str: prev.str };
      continue;
    }
    let role: SchemaRole | null = null;
    const key = KEY_BEFORE.exec(between);
    if (key) role = roleOfKey(key[1]);
    else if (prev && QUOTED_KEYS.has(prev.lit.text) && QUOTED_KEY_BETWEEN.test(between)) role = roleOfKey(prev.lit.text);
    else if (DESCRIBE_BEFORE.test(between)) role = 'description';
    else if (TOOL_CALL_BEFORE.test(between)) role = 'name';
    else if (language === 'python' && DOCSTRING_BEFORE.test(between) && DEF_NAME.test(lines[defLineAbove(lines, lit.line)] ?? '')) role = 'description';
    else if (prev?.str && prev.str.role === 'enum' && LIST_SEPARATOR.test(between)) role = 'enum';
    // The second positional argument of server.tool("name", "description", …).
    else if (prev?.str?.role === 'name' && LIST_SEPARATOR.test(between) && TOOL_CALL_BEFORE.test(text.slice(Math.max(0, prev.lit.start - 40), prev.lit.start)))
      role = 'description';
    if (!role) {
      prev = { lit, str: null };
      continue;
    }
    const str: SchemaString = { role, text: lit.text, line: lit.line };
    const toolIndex = toolAt[lit.line] ?? -1;
    if (role === 'instructions') surface.instructions.push(str);
    else if (toolIndex >= 0) {
      const tool = surface.tools[toolIndex];
      if (role === 'name') {
        if (tool.name === null || TOOL_CALL_BEFORE.test(between)) tool.name = lit.text;
      } else tool.strings.push(str);
    }
    prev = { lit, str };
  }
  for (const [tool, name] of defNames) tool.name ??= name;
  surface.tools = surface.tools.filter((t) => t.name !== null || t.strings.length > 0);
  return surface;
}

/** How far past the cursor a value is looked for (a value written with other escapes is never found). */
const VALUE_REACH = 400;

/** Locates JSON string values in file order with a forward-only cursor and a bounded reach (linear in the file). */
class JsonValueLines {
  private cursor = 0;
  constructor(private readonly lines: readonly string[]) {}
  find(value: string, fallback: number): number {
    const needle = JSON.stringify(value.slice(0, 60)).slice(1, value.length > 60 ? -1 : undefined);
    const from = Math.max(this.cursor, fallback - 1);
    for (let i = from; i < Math.min(this.lines.length, from + VALUE_REACH); i++) {
      if (this.lines[i].includes(needle)) {
        this.cursor = i;
        return i + 1;
      }
    }
    return Math.max(fallback, this.cursor + 1);
  }
}

/** A Map: the keys are the manifest's own, and `constructor` must not find Object's. */
const SCHEMA_KEYS = new Map<string, SchemaRole>([
  ['description', 'description'],
  ['title', 'title'],
  ['default', 'default'],
  ['enum', 'enum'],
  ['examples', 'enum'],
]);
const MAX_JSON_DEPTH = 12;

function isToolObject(v: Record<string, unknown>): boolean {
  return typeof v.name === 'string' && (typeof v.description === 'string' || isRecord(v.inputSchema) || isRecord(v.input_schema) || isRecord(v.parameters));
}

/** Tools (objects with a name and a description or schema) and `instructions` of a JSON manifest. */
export function extractJsonSurface(json: unknown, lines: readonly string[]): McpSurface {
  const surface: McpSurface = { tools: [], instructions: [] };
  const locate = new JsonValueLines(lines);
  const collect = (v: unknown, tool: McpToolDecl, depth: number, key: string | null): void => {
    if (depth > MAX_JSON_DEPTH) return;
    if (typeof v === 'string') {
      const role = key ? SCHEMA_KEYS.get(key) : undefined;
      if (role && v.length > 0) tool.strings.push({ role, text: v.slice(0, MAX_STRING), line: locate.find(v, tool.line) });
      return;
    }
    if (Array.isArray(v)) {
      for (const x of v) collect(x, tool, depth + 1, key === 'enum' || key === 'examples' ? key : null);
      return;
    }
    if (!isRecord(v)) return;
    for (const [k, x] of Object.entries(v)) {
      if (k === 'readOnlyHint' || k === 'destructiveHint') {
        if (typeof x === 'boolean') tool[k] = { value: x, line: locate.find(k, tool.line) };
        continue;
      }
      // Inside a schema, `properties` maps argument names to their schemas.
      collect(x, tool, depth + 1, k === 'properties' ? null : k);
    }
  };
  const walk = (v: unknown, depth: number): void => {
    if (depth > MAX_JSON_DEPTH) return;
    if (Array.isArray(v)) {
      for (const x of v) walk(x, depth + 1);
      return;
    }
    if (!isRecord(v)) return;
    if (isToolObject(v)) {
      const name = v.name as string;
      const line = locate.find(name, 1);
      const tool = newTool(line);
      tool.name = name;
      const { name: _ignored, ...rest } = v;
      collect(rest, tool, depth + 1, null);
      tool.toLine = Math.max(line, ...tool.strings.map((s) => s.line));
      surface.tools.push(tool);
      return;
    }
    for (const [k, x] of Object.entries(v)) {
      if (k === 'instructions' && typeof x === 'string')
        surface.instructions.push({ role: 'instructions', text: x.slice(0, MAX_STRING), line: locate.find(x, 1) });
      else walk(x, depth + 1);
    }
  };
  walk(json, 0);
  return surface;
}

const MD_TOOL_HEADING = /^(#{1,4})\s{1,3}(?:MCP\s{1,3})?(?:Tool|Function)\s{0,3}[:\u2013-]\s{0,3}`?([\w.-]{2,60})`?(?:\(\))?\s{0,3}$/i;
const MD_HEADING = /^(#{1,6})\s/;
/** Longest Markdown tool section read as one description. */
const MAX_SECTION_LINES = 200;

/**
 * Markdown that documents a tool under a "## Tool: name" heading: the section is the tool's
 * description as a server would publish it (one string, starting on the line after the heading).
 */
export function extractMarkdownSurface(lines: readonly string[]): McpSurface {
  const surface: McpSurface = { tools: [], instructions: [] };
  for (let i = 0; i < lines.length; i++) {
    const h = MD_TOOL_HEADING.exec(lines[i]);
    if (!h) continue;
    const level = h[1].length;
    let end = i + 1;
    while (end < lines.length && end - i <= MAX_SECTION_LINES) {
      const next = MD_HEADING.exec(lines[end]);
      if (next && next[1].length <= level) break;
      end++;
    }
    const tool = newTool(i + 1);
    tool.name = h[2];
    tool.toLine = end;
    if (end > i + 1) tool.strings.push({ role: 'description', text: lines.slice(i + 1, end).join('\n'), line: i + 2 });
    surface.tools.push(tool);
    i = end - 1;
  }
  return surface;
}

/** Every regex of this module, for the ReDoS check in the test suite. */
export const MCP_SCHEMA_REGEXES: readonly RegExp[] = [
  TOOL_ANCHOR,
  MCP_SOURCE_MARKER,
  ANNOTATION_RE,
  KEY_BEFORE,
  QUOTED_KEY_BETWEEN,
  NAME_KEY_LINE,
  DESCRIPTION_KEY_LINE,
  DESCRIBE_BEFORE,
  TOOL_CALL_BEFORE,
  DOCSTRING_BEFORE,
  DEF_NAME,
  JOINER,
  LIST_SEPARATOR,
  MD_TOOL_HEADING,
  MD_HEADING,
];

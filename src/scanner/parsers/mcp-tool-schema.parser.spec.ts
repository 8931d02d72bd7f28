import { extractJsonSurface, extractMarkdownSurface, extractSourceSurface, stringLiterals } from './mcp-tool-schema.parser';
import { parseJsonLoose } from './json-config.parser';

const source = (text: string, language: 'python' | 'javascript') => extractSourceSurface(text, text.split('\n'), language);

describe('stringLiterals', () => {
  it('reads Python triple-quoted and prefixed strings with their start lines and skips comments', () => {
    const lits = stringLiterals('# "not this"\nx = f"a {b}"\ny = """two\nlines"""\n', 'python');
    expect(lits.map((l) => [l.text, l.line])).toEqual([
      ['a {b}', 2],
      ['two\nlines', 3],
    ]);
  });

  it('reads JS template literals and skips line and block comments', () => {
    const lits = stringLiterals('// "no"\n/* "no" */ const a = `x\ny`;\nconst b = "c";\n', 'javascript');
    expect(lits.map((l) => [l.text, l.line])).toEqual([
      ['x\ny', 2],
      ['c', 4],
    ]);
  });

  it('ends an unterminated one-line string at the end of its line', () => {
    const lits = stringLiterals('a = "open\nb = "closed"\n', 'python');
    expect(lits.map((l) => l.text)).toEqual(['open', 'closed']);
  });
});

describe('extractSourceSurface (Python)', () => {
  const py = [
    'from mcp.server.fastmcp import FastMCP',
    'mcp = FastMCP("notes", instructions="Use these tools for notes.")',
    '@mcp.tool(',
    '    name="save_note",',
    '    description="Saves a note "',
    '    "to the notebook.",',
    '    annotations={"readOnlyHint": False, "destructiveHint": False},',
    ')',
    'def save_note(text: str) -> str:',
    '    return text',
    '',
    '@mcp.tool()',
    'def list_notes(folder: str = "inbox") -> list[str]:',
    '    """Lists notes in a folder."""',
    '    return []',
  ].join('\n');

  it('finds each decorated tool, its name (decorator first, else the function) and annotations', () => {
    const s = source(py, 'python');
    expect(s.tools.map((t) => [t.name, t.line, t.readOnlyHint?.value, t.destructiveHint?.value])).toEqual([
      ['save_note', 3, false, false],
      ['list_notes', 12, undefined, undefined],
    ]);
  });

  it('joins adjacent literals and reads docstrings as descriptions, at the line each starts', () => {
    const s = source(py, 'python');
    expect(s.tools[0].strings).toEqual([{ role: 'description', text: 'Saves a note to the notebook.', line: 5, joinedAcrossLines: true }]);
    expect(s.tools[1].strings).toEqual([{ role: 'description', text: 'Lists notes in a folder.', line: 14 }]);
  });

  it('collects server-level instructions', () => {
    expect(source(py, 'python').instructions).toEqual([{ role: 'instructions', text: 'Use these tools for notes.', line: 2 }]);
  });

  it('reads low-level Tool(...) declarations with argument descriptions in a schema dict', () => {
    const text =
      'from mcp.types import Tool\ntools = [\n    Tool(\n        name="ping",\n        description="Pings a host",\n        inputSchema={"properties": {"host": {"type": "string", "description": "Host to ping"}}},\n    ),\n]\n';
    const s = source(text, 'python');
    expect(s.tools).toHaveLength(1);
    expect(s.tools[0].name).toBe('ping');
    expect(s.tools[0].strings.map((x) => [x.role, x.text, x.line])).toEqual([
      ['description', 'Pings a host', 5],
      ['description', 'Host to ping', 6],
    ]);
  });

  it('ignores files without an MCP marker', () => {
    expect(source('def f():\n    """Deletes things."""\n', 'python').tools).toEqual([]);
  });
});

describe('extractSourceSurface (TypeScript)', () => {
  it('reads server.tool positional name and description', () => {
    const s = source(
      'import { McpServer } from "@modelcontextprotocol/sdk/server/mcp.js";\nserver.tool("echo", "Echoes the input.", { text: z.string().describe("What to echo") }, async () => ({}));\n',
      'javascript',
    );
    expect(s.tools[0].name).toBe('echo');
    expect(s.tools[0].strings.map((x) => [x.role, x.text])).toEqual([
      ['description', 'Echoes the input.'],
      ['description', 'What to echo'],
    ]);
  });

  it('reads registerTool config objects with +-joined descriptions, titles, enums and annotations', () => {
    const text = [
      'import { McpServer } from "@modelcontextprotocol/sdk/server/mcp.js";',
      'server.registerTool(',
      '  "sort_items",',
      '  {',
      '    title: "Sort",',
      '    description:',
      '      "Sorts items " +',
      '      "by key.",',
      '    inputSchema: { order: { enum: ["asc", "desc"] } },',
      '    annotations: { readOnlyHint: true },',
      '  },',
      '  handler,',
      ');',
    ].join('\n');
    const t = source(text, 'javascript').tools[0];
    expect(t.name).toBe('sort_items');
    expect(t.readOnlyHint).toEqual({ value: true, line: 10 });
    expect(t.strings.map((x) => [x.role, x.text, x.line])).toEqual([
      ['title', 'Sort', 5],
      ['description', 'Sorts items by key.', 7],
      ['enum', 'asc', 9],
      ['enum', 'desc', 9],
    ]);
  });
});

describe('extractJsonSurface', () => {
  it('finds tool objects anywhere, with schema strings and annotations located on their lines', () => {
    const text = [
      '{',
      '  "instructions": "Prefer small queries.",',
      '  "tools": [',
      '    {',
      '      "name": "query",',
      '      "description": "Runs a read query.",',
      '      "inputSchema": {"properties": {"sql": {"description": "The SQL", "default": "select 1"}}},',
      '      "annotations": {"readOnlyHint": true}',
      '    }',
      '  ]',
      '}',
    ].join('\n');
    const s = extractJsonSurface(parseJsonLoose(text), text.split('\n'));
    expect(s.instructions).toEqual([{ role: 'instructions', text: 'Prefer small queries.', line: 2 }]);
    expect(s.tools[0].name).toBe('query');
    expect(s.tools[0].line).toBe(5);
    expect(s.tools[0].readOnlyHint).toEqual({ value: true, line: 8 });
    expect(s.tools[0].strings.map((x) => [x.role, x.text, x.line])).toEqual([
      ['description', 'Runs a read query.', 6],
      ['description', 'The SQL', 7],
      ['default', 'select 1', 7],
    ]);
  });

  it('reads a key an object inherits (constructor, toString) as no schema role', () => {
    const text = '{"tools": [{"name": "q", "description": "Runs a query.", "constructor": "x", "toString": "y", "__proto__": "z"}]}';
    const s = extractJsonSurface(parseJsonLoose(text), [text]);
    expect(s.tools[0].strings.map((x) => [x.role, x.text])).toEqual([['description', 'Runs a query.']]);
  });
});

describe('extractMarkdownSurface', () => {
  it('reads each "Tool: name" section as one description starting below its heading, up to the next heading of its level', () => {
    const lines = ['# Server', '', '## Tool: `get_quote`', 'Returns a quote.', '### Arguments', '- sym', '## Tool: list()', 'Lists.', '## Other', 'x'];
    const s = extractMarkdownSurface(lines);
    expect(s.tools.map((t) => [t.name, t.line, t.strings[0]?.line, t.strings[0]?.text])).toEqual([
      ['get_quote', 3, 4, 'Returns a quote.\n### Arguments\n- sym'],
      ['list', 7, 8, 'Lists.'],
    ]);
  });
});

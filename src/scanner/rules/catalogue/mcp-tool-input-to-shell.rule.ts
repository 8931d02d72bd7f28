import type { Rule, RuleHit } from '../rule.types';
import { mcpSurfaceOf } from '../mcp-surface';

const PY_PARAMS = /^\s{0,40}(?:async\s{1,3})?def\s{1,3}\w{1,80}\s{0,3}\(([^)]{0,600})\)?/;
const TS_PARAMS = /(?:async\s{1,3})?\(\s{0,3}\{([^}]{1,300})\}|(?:async\s{1,3})?\(\s{0,3}(\w{1,40})\s{0,3}(?::\s{0,3}\w{1,40})?\s{0,3}\)\s{0,3}=>/;
const ASSIGNMENT = /^\s{0,40}(?:const\s{1,3}|let\s{1,3}|var\s{1,3})?(\w{1,60})\s{0,3}(?::\s{0,3}\w{1,30}\s{0,3})?=(?!=)\s{0,3}([^\n]{1,600})/;
/** Where a string becomes a shell command line. */
const SHELL_SINK = /\bshell\s{0,3}=\s{0,3}True\b|\bos\.(?:system|popen)\s{0,3}\(|\bexecSync\s{0,3}\(|\bchild_process\.exec\s{0,3}\(|(?<![.\w])exec\s{0,3}\(\s{0,3}[`\w]|\bspawn\w{0,4}\s{0,3}\([^)]{0,200}shell\s{0,3}:\s{0,3}true/;
/** The command argument of a process call on the sink's line. */
const COMMAND_ARG = /\b(?:system|popen|check_output|check_call|run|call|Popen|getoutput|getstatusoutput|execSync|exec|spawn\w{0,4})\s{0,3}\(\s{0,3}([^,)]{1,300})/;
/** The string is built from a value: f-string/template hole, concatenation, %/format. */
const BUILT_FROM = (name: string): RegExp => new RegExp(String.raw`\{\s{0,2}${name}\b|\$\{\s{0,2}${name}\b|\+\s{0,2}${name}\b|\b${name}\s{0,2}\+|%\s{0,2}\(?\s{0,2}${name}\b|\.format\([^)]{0,200}\b${name}\b`);

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

/**
 * An MCP tool's arguments come from the model, and so from whatever text it has read. A handler
 * that builds a shell command line from them is command injection reachable by prompt injection.
 */
export const mcpToolInputToShellRule: Rule = {
  meta: {
    id: 'BW-MCP-105',
    title: 'MCP tool argument reaches a shell command line',
    category: 'code_execution',
    severity: 'medium',
    confidence: 'medium',
    asset_type: 'script',
    rationale:
      'Tool arguments are chosen by the model and can be steered by any document it reads. A tool handler that formats an argument into a command run with shell=True, os.system, os.popen or child_process.exec lets an injected argument run arbitrary commands; pass an argument list without a shell instead.',
    example: '@mcp.tool()\ndef ping(host: str):\n    return subprocess.check_output(f"ping -c 1 {host}", shell=True)',
    fixtures: {
      positive: [
        { path: 'server.py', text: 'import subprocess\nfrom mcp.server.fastmcp import FastMCP\nmcp = FastMCP("net")\n@mcp.tool()\ndef lookup(domain: str) -> str:\n    """Resolve a domain."""\n    cmd = f"dig +short {domain}"\n    return subprocess.check_output(cmd, shell=True).decode()\n' },
        { path: 'server.py', text: 'import os\nfrom mcp.server.fastmcp import FastMCP\nmcp = FastMCP("files")\n@mcp.tool()\ndef count_lines(path: str) -> str:\n    """Count lines."""\n    return os.popen("wc -l " + path).read()\n' },
        { path: 'src/index.ts', text: 'import { execSync } from "child_process";\nimport { McpServer } from "@modelcontextprotocol/sdk/server/mcp.js";\nserver.tool("grep", "Search files", {}, async ({ pattern }) => {\n  const out = execSync(`grep -rn ${pattern} .`).toString();\n  return { content: [{ type: "text", text: out }] };\n});\n' },
      ],
      negative: [
        { path: 'server.py', text: 'import subprocess\nfrom mcp.server.fastmcp import FastMCP\nmcp = FastMCP("net")\n@mcp.tool()\ndef lookup(domain: str) -> str:\n    """Resolve a domain."""\n    return subprocess.check_output(["dig", "+short", domain]).decode()\n' },
        { path: 'server.py', text: 'import subprocess\nfrom mcp.server.fastmcp import FastMCP\nmcp = FastMCP("git")\n@mcp.tool()\ndef status(repo: str) -> str:\n    """Git status."""\n    return subprocess.check_output("git status --short", shell=True, cwd=repo).decode()\n' },
        { path: 'run.py', text: 'import subprocess\ndef build(target):\n    subprocess.run(f"make {target}", shell=True)\n' },
      ],
    },
  },
  regexes: [PY_PARAMS, TS_PARAMS, ASSIGNMENT, SHELL_SINK, COMMAND_ARG, BUILT_FROM('param')],
  match(ctx) {
    if (ctx.language !== 'python' && ctx.language !== 'javascript') return [];
    const hits: RuleHit[] = [];
    for (const tool of mcpSurfaceOf(ctx).tools) {
      const tainted = new Set<string>();
      const builders = new Map<string, RegExp>();
      const builtFrom = (name: string): RegExp => {
        let re = builders.get(name);
        if (!re) builders.set(name, (re = BUILT_FROM(name)));
        return re;
      };
      const last = Math.min(tool.toLine, ctx.lines.length);
      for (let l = tool.fromLine; l <= last; l++) {
        const text = ctx.lines[l - 1];
        if (tainted.size < 30) for (const p of paramsOf(text, ctx.language)) if (/^\w{1,40}$/.test(p)) tainted.add(p);
        if (tainted.size === 0) continue;
        const uses = [...tainted].some((t) => builtFrom(t).test(text));
        const assigned = ASSIGNMENT.exec(text);
        if (assigned && uses && tainted.size < 30) tainted.add(assigned[1]);
        if (!SHELL_SINK.test(text)) continue;
        const command = COMMAND_ARG.exec(text)?.[1] ?? '';
        const direct = [...tainted].some((t) => new RegExp(String.raw`\b${t}\b`).test(command));
        if (direct) hits.push({ line: l, evidence: text.trim(), message: `Argument of tool ${tool.name ?? ''} reaches a shell command line` });
      }
    }
    return hits;
  },
};

import type { Rule } from '../rule.types';
import { mcpSurfaceOf } from '../mcp-surface';
import { argumentFlows } from '../mcp-tool-flow';

const SHELL_SINK =
  /\bshell\s{0,3}=\s{0,3}True\b|\bos\.(?:system|popen)\s{0,3}\(|\bexecSync\s{0,3}\(|\bchild_process\.exec\s{0,3}\(|(?<![.\w])exec\s{0,3}\(\s{0,3}[`\w]|\bspawn\w{0,4}\s{0,3}\([^)]{0,200}shell\s{0,3}:\s{0,3}true/;
/** The command argument of a process call on the sink's line. */
const COMMAND_ARG =
  /\b(?:system|popen|check_output|check_call|run|call|Popen|getoutput|getstatusoutput|execSync|exec|spawn\w{0,4})\s{0,3}\(\s{0,3}([^,)]{1,300})/;
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
    example_path: 'server.py',
  },
  regexes: [SHELL_SINK, COMMAND_ARG],
  match(ctx) {
    if (ctx.language !== 'python' && ctx.language !== 'javascript') return [];
    return mcpSurfaceOf(ctx).tools.flatMap((tool) =>
      argumentFlows(tool, ctx, SHELL_SINK, COMMAND_ARG).map((f) => ({
        line: f.line,
        evidence: f.text,
        message: `Argument of tool ${tool.name ?? ''} reaches a shell command line`,
      })),
    );
  },
};

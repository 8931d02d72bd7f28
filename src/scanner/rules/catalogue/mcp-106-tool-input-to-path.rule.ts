import type { Rule, RuleHit } from '../rule.types';
import { mcpSurfaceOf } from '../mcp-surface';
import { argumentFlows } from '../mcp-tool-flow';

/** Calls that open, read or send a file by path. */
const FILE_SINK =
  /\bopen\s{0,2}\(|\.read_(?:text|bytes)\s{0,2}\(|\bfs\.(?:readFile|readFileSync|createReadStream|writeFile|writeFileSync)\s{0,2}\(|\bsend_file\s{0,2}\(|\bFileResponse\s{0,2}\(/;
/** The path argument of the call on the sink's line (one level of nested call kept: `open(os.path.join(a, b))`). */
const PATH_ARG =
  /\b(?:open|Path|readFile|readFileSync|createReadStream|writeFile|writeFileSync|send_file|FileResponse)\s{0,2}\(\s{0,2}((?:[^,()]|\([^()]{0,200}\)){1,300})/;
/** A check that keeps a path inside a root, anywhere in the tool. */
const CONTAINMENT =
  /\b(?:realpath|abspath|normpath|commonpath|is_relative_to|relative_to|secure_filename|validatePath|validate_path|safe_join|isWithin|startsWith|startswith|path\.relative|path\.resolve)\b|\.resolve\s{0,2}\(\s{0,2}\)/;

/**
 * A tool that opens a path built from its argument with no containment check lets any text the
 * model reads steer it to ~/.ssh or ../../etc and hand the contents back (path traversal).
 */
export const mcpToolInputToPathRule: Rule = {
  meta: {
    id: 'BW-MCP-106',
    title: 'MCP tool argument used as a file path without a containment check',
    category: 'secrets_exposure',
    severity: 'low',
    confidence: 'medium',
    asset_type: 'script',
    rationale:
      'Tool arguments are chosen by the model and can be steered by any document it reads. A handler that opens a path built from an argument without resolving it and checking it stays under an allowed root can be walked to credentials or other private files, whose contents then go back into the conversation.',
    example: '@mcp.tool()\ndef read_doc(name: str):\n    return open(f"/srv/docs/{name}").read()',
    example_path: 'server.py',
  },
  regexes: [FILE_SINK, PATH_ARG, CONTAINMENT],
  match(ctx) {
    if (ctx.language !== 'python' && ctx.language !== 'javascript') return [];
    const hits: RuleHit[] = [];
    for (const tool of mcpSurfaceOf(ctx).tools) {
      const flows = argumentFlows(tool, ctx, FILE_SINK, PATH_ARG);
      if (flows.length === 0) continue;
      let contained = false;
      for (let l = tool.fromLine; l <= Math.min(tool.toLine, ctx.lines.length) && !contained; l++) contained = CONTAINMENT.test(ctx.lines[l - 1]);
      if (contained) continue;
      for (const f of flows)
        hits.push({ line: f.line, evidence: f.text, message: `Argument of tool ${tool.name ?? ''} opens a path with no containment check` });
    }
    return hits;
  },
};

import type { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { z } from 'zod';
import type { Principal } from '../../auth/principal';
import { DEFAULT_SCAN_LIMITS, formatBytes } from '../../scanner/archive/scan-limits';
import { scanReportSchema } from '../../scanner/engine/scan-report.schema';
import type { ScannerService } from '../../scanner/scanner.service';
import { zodFromOpenApi } from './json-schema-to-zod';
import { buildScanUpload } from './scan-upload.builder';
import { runTool } from './tool-result';
import { READ_ONLY_ANNOTATIONS, requireScopes } from './tool-scopes';

export const SCAN_TOOL_NAME = 'scan_agent_files';

const L = DEFAULT_SCAN_LIMITS;

/** ScanReport as zod, derived from the schema the REST endpoint documents (one source of truth). */
export const scanReportOutputSchema = zodFromOpenApi(scanReportSchema);

export const scanToolInputSchema = {
  files: z
    .array(
      z.object({
        path: z
          .string()
          .min(1)
          .max(L.maxNameBytes)
          .describe('Path of the file as it sits in the project, e.g. `.claude/commands/deploy.md` or `SKILL.md` (the path helps tell the file kind).'),
        content: z.string().describe('The file content as UTF-8 text.'),
      }),
    )
    .optional()
    .describe(`Inline files (up to ${L.maxFiles}). One file is scanned as a single upload; several are bundled like a .zip upload.`),
  zip_base64: z
    .string()
    .optional()
    .describe(`A .zip bundle (e.g. a skill directory), base64-encoded, at most ${formatBytes(L.maxUploadBytes)} before encoding.`),
  filename: z.string().min(1).max(255).optional().describe('Name of the zip upload (only with `zip_base64`; default `upload.zip`).'),
};

/**
 * `scan_agent_files`: the agent-file scan of `POST /api/agent_files/scan` through the same
 * ScannerService (worker pool, capacity, deadline, judge), so a file scanned here and over REST
 * gives the same report. Needs the `scan` scope. Nothing is stored; no content is logged.
 */
export function registerScanTool(server: McpServer, scanner: Pick<ScannerService, 'scan'>, principal: Principal | null): void {
  server.registerTool(
    SCAN_TOOL_NAME,
    {
      title: 'Scan agent files',
      description:
        'Scans AI-agent files (SKILL.md, AGENTS.md, CLAUDE.md, .cursorrules, MCP configs, tool manifests, scripts) for ' +
        'agent-targeting risk before you install or follow them: prompt injection, data exfiltration, destructive or ' +
        'remote code execution, secrets, obfuscation. Send either `files` (inline text) or `zip_base64`. Returns a safety ' +
        'score per file (100 safest), a band, findings with file:line locators and a verdict (allow/review/block). ' +
        `Limits: ${L.maxFiles} files, ${formatBytes(L.maxFileBytes)} per file, ${formatBytes(L.maxTotalBytes)} in total, ` +
        `${formatBytes(L.maxUploadBytes)} per upload. Requires the \`scan\` scope.`,
      inputSchema: scanToolInputSchema,
      outputSchema: scanReportOutputSchema,
      annotations: { ...READ_ONLY_ANNOTATIONS, title: 'Scan agent files' },
    },
    (args) =>
      runTool(async () => {
        requireScopes(principal, 'scan');
        const report = await scanner.scan(buildScanUpload(args));
        return report as unknown as Record<string, unknown>;
      }),
  );
}

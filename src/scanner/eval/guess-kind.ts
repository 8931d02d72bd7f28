/**
 * Minimal file-kind guess from the path, used by rule fixtures and by the harness fallback when the
 * scan pipeline (issue 5) is not available. The pipeline's own kind detection is authoritative.
 */
import type { FileKind } from '../engine/scan-report.types';

export function guessKind(relativePath: string, text = ''): FileKind {
  const p = relativePath.toLowerCase();
  const base = p.split('/').pop() ?? p;
  if (/^(skill|agents|claude|gemini|copilot-instructions)\.md$/.test(base) || /\.(mdc|cursorrules|windsurfrules|clinerules)$/.test(base)
    || base === '.cursorrules' || base === '.windsurfrules' || base === '.clinerules'
    || /(^|\/)\.(claude|cursor|windsurf|github)\/(commands|agents|rules|prompts|instructions)\//.test(p)) return 'agent_file';
  if (/(^|\/)\.claude\/settings(\.local)?\.json$/.test(p) || base === 'settings.json' && p.includes('.claude')) return 'agent_settings';
  if (/(mcp|claude_desktop_config|mcp_servers?)\.json$/.test(base) || /(^|\/)\.(vscode|cursor)\/mcp\.json$/.test(p)) return 'mcp_config';
  if (base === 'package.json' || base === 'pyproject.toml' || base === 'requirements.txt' || base === 'cargo.toml') return 'package_manifest';
  if (/(tools?|manifest|server)\.json$/.test(base) || /"inputSchema"/.test(text.slice(0, 20000))) return 'tool_manifest';
  if (/\.(sh|bash|zsh|py|js|mjs|cjs|ts|ps1|rb|pl)$/.test(base) || text.startsWith('#!')) return 'script';
  if (/\.(json|ya?ml|toml)$/.test(base)) return /mcpServers|"servers"/.test(text.slice(0, 20000)) ? 'mcp_config' : 'tool_manifest';
  if (/\.md$/.test(base) && /^---\s*\n[\s\S]{0,2000}?\b(name|description|tools|model):/m.test(text)) return 'agent_file';
  return 'document';
}

/**
 * Everything a rule may look at for one file, prepared once: lines, views, Markdown structure,
 * frontmatter, parsed JSON and the file's language. Built under the analyzer's try/catch.
 */
import type { AnalysisBundle, AnalysisFile, FileKind } from '../engine/scan-report.types';
import { parseFrontmatter, type Frontmatter } from '../parsers/frontmatter.parser';
import { parseJsonLoose } from '../parsers/json-config.parser';
import { parseMarkdownStructure, type LineInfo } from '../parsers/markdown-structure.parser';
import { buildViews, type BuildViewOptions, type FileViews } from './build-views';

export type FileLanguage = 'markdown' | 'shell' | 'python' | 'javascript' | 'powershell' | 'json' | 'yaml' | 'toml' | 'text';

export interface ScanContext {
  file: AnalysisFile;
  bundle: AnalysisBundle;
  path: string;
  kind: FileKind;
  language: FileLanguage;
  /** Scripts run as shipped: the context layer never lowers weights inside them. */
  executable: boolean;
  text: string;
  lines: string[];
  lineInfo: LineInfo[];
  views: FileViews;
  frontmatter: Frontmatter | null;
  /** Parsed JSON for JSON-ish files (undefined when not JSON or unparseable). */
  json: unknown;
  /** Absolute time (ms, performance.now) after which rules should stop. */
  deadline: number;
}

const DEFAULT_INFO: LineInfo = {
  inFence: false,
  fenceLang: null,
  inFrontmatter: false,
  blockquote: false,
  table: false,
  heading: '',
  sectionKind: 'normal',
};

export function detectLanguage(path: string, kind: FileKind, text: string): FileLanguage {
  const lower = path.toLowerCase();
  const base = lower.split('/').pop() ?? lower;
  if (/\.(sh|bash|zsh|ksh|command)$/.test(base)) return 'shell';
  if (/\.(py|pyw)$/.test(base)) return 'python';
  if (/\.(js|mjs|cjs|ts|mts|cts|jsx|tsx)$/.test(base)) return 'javascript';
  if (/\.(ps1|psm1|psd1)$/.test(base)) return 'powershell';
  if (/\.(json|jsonc|json5)$/.test(base)) return 'json';
  if (/\.(ya?ml)$/.test(base)) return 'yaml';
  if (/\.toml$/.test(base)) return 'toml';
  const head = text.slice(0, 200);
  if (/^#!\s{0,3}\S{0,40}\b(?:ba|z|k|da)?sh\b/.test(head)) return 'shell';
  if (/^#!\s{0,3}\S{0,40}python/.test(head)) return 'python';
  if (/^#!\s{0,3}\S{0,40}(?:node|deno|bun)/.test(head)) return 'javascript';
  if (kind === 'mcp_config' || kind === 'agent_settings' || kind === 'tool_manifest' || kind === 'package_manifest') {
    const t = text.trimStart();
    if (t.startsWith('{') || t.startsWith('[')) return 'json';
    if (/\[[\w.-]{1,60}\]/.test(head)) return 'toml';
    return 'yaml';
  }
  if (kind === 'script') return 'shell';
  return 'markdown';
}

/** How the views of a file in this language are built (JSON escapes undone, prose joined). */
export function viewOptionsFor(language: FileLanguage): BuildViewOptions {
  return { jsonEscapes: language === 'json', prose: language === 'markdown' };
}

export function buildScanContext(file: AnalysisFile, bundle: AnalysisBundle, deadline: number): ScanContext {
  const text = file.text.replace(/\r\n?/g, '\n');
  const lines = text.split('\n');
  const language = detectLanguage(file.relativePath, file.kind, text);
  const markdown = language === 'markdown';
  const lineInfo = markdown ? parseMarkdownStructure(lines) : lines.map(() => DEFAULT_INFO);
  const executable = ['shell', 'python', 'javascript', 'powershell'].includes(language);
  let frontmatter: Frontmatter | null | undefined;
  return {
    file,
    bundle,
    path: file.relativePath,
    kind: file.kind,
    language,
    executable,
    text,
    lines,
    lineInfo,
    views: buildViews(text, lines, viewOptionsFor(language)),
    // Parsed on first read: one compound rule reads it, for some findings only, and YAML parsing
    // was a tenth of a small file's scan.
    get frontmatter() {
      if (frontmatter === undefined) frontmatter = markdown ? parseFrontmatter(lines) : null;
      return frontmatter;
    },
    json: language === 'json' ? parseJsonLoose(text) : undefined,
    deadline,
  };
}

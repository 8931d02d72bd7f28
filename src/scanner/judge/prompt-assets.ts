import { readFileSync } from 'node:fs';
import { join } from 'node:path';

/** The prompt version in use; bump by adding prompts/v2/ and changing this constant. */
export const PROMPT_VERSION = 'v1';

export interface PromptAssets {
  version: string;
  /** System prompt with the reply schema already substituted. */
  system: string;
  /** User message template: `{{nonce}}`, `{{context}}`, `{{content}}`, `{{retry_note}}`. */
  userTemplate: string;
  /** JSON schema of the reply (sent as structured output, and used to validate replies). */
  replySchema: Record<string, unknown>;
}

const cache = new Map<string, PromptAssets>();

/**
 * Loads the versioned prompt files. They sit beside this module as assets (scripts/build.js copies .md and
 * .json into dist), so the same path works from src under Jest, from dist, and in worker threads.
 * Throws when a file is missing: a judge without its prompt must fail at start-up, not per scan.
 */
export function loadPromptAssets(version: string = PROMPT_VERSION): PromptAssets {
  const hit = cache.get(version);
  if (hit) return hit;
  if (!/^v\d+$/.test(version)) throw new Error(`Invalid judge prompt version: ${version}`);
  const dir = join(__dirname, 'prompts', version);
  const replySchema = JSON.parse(readFileSync(join(dir, 'reply.schema.json'), 'utf8')) as Record<string, unknown>;
  const systemTemplate = readFileSync(join(dir, 'system.md'), 'utf8');
  const userTemplate = readFileSync(join(dir, 'user.md'), 'utf8');
  const assets: PromptAssets = {
    version,
    system: fillTemplate(systemTemplate, { reply_schema: JSON.stringify(replySchema, null, 2) }).trimEnd(),
    userTemplate: userTemplate.trimEnd(),
    replySchema,
  };
  cache.set(version, assets);
  return assets;
}

/**
 * Single-pass `{{name}}` substitution: inserted values are never re-scanned, so file content that
 * contains `{{nonce}}` stays literal text.
 */
export function fillTemplate(template: string, values: Record<string, string>): string {
  return template.replace(/\{\{([a-z_]+)\}\}/g, (whole, name: string) => (Object.prototype.hasOwnProperty.call(values, name) ? values[name] : whole));
}

/**
 * The vocabulary of the MCP-surface and agent-configuration rules, read from the lexicon data files
 * (src/scanner/lexicons): tool names agents already know, what a tool's words say it does, agent
 * config files in the home directory, and the hosts that are a model vendor's own API.
 */
import { lexiconNames, lexiconWords } from '../lexicons/lexicon';

/** Tools built into coding agents (Claude Code, Cursor, Codex …): exact, case-sensitive names. */
export const AGENT_BUILTIN_TOOLS: ReadonlySet<string> = new Set(lexiconNames('tool-builtin-name'));

/** Tool names that popular MCP servers and agents expose; a new server reusing one may shadow it. */
export const POPULAR_TOOL_NAMES: ReadonlySet<string> = new Set(lexiconNames('tool-popular-name'));

/**
 * What a tool's name or description says it does, by effect. A name is split on `_`, `-` and case
 * before matching, so `delete_entities` and `deleteEntities` both read as deleting.
 */
export const EFFECT_WORDS = {
  destroys: [...lexiconWords('tool-effect-destroy')],
  writes: [...lexiconWords('tool-effect-write')],
  sends: [...lexiconWords('tool-effect-send')],
  executes: [...lexiconWords('tool-effect-execute')],
} as const satisfies Record<string, readonly string[]>;

/** Effect words that are also plural nouns: they state an action only at the start of a sentence. */
export const EFFECT_NOUN_LIKE: ReadonlySet<string> = lexiconWords('tool-effect-noun-like');

export type ToolEffect = keyof typeof EFFECT_WORDS;

/** Agent configuration files in the user's home directory: writing one changes every project. */
export const HOME_AGENT_CONFIG_PATHS: readonly string[] = lexiconNames('home-agent-config');

/** Shell profiles and environment files in the home directory: a line added there applies to every later shell. */
export const SHELL_PROFILE_TARGETS: readonly string[] = lexiconNames('home-shell-profile');

/** Model vendors' names as they appear in host names: a host carrying one that is not the vendor's imitates it. */
export const VENDOR_BRANDS: readonly string[] = lexiconNames('vendor-brand');

/** Hosts that are a model vendor's own API (a base URL here is not a redirect). */
export const VENDOR_API_HOSTS: readonly string[] = lexiconNames('vendor-api-host');

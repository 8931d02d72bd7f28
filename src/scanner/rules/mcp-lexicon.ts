/**
 * Word lists of the MCP-surface and agent-configuration rules, kept as data: tool names agents
 * already know, what a tool's words say it does, agent config files in the home directory, and the
 * hosts that are a model vendor's own API.
 */

/** Tools built into coding agents (Claude Code, Cursor, Codex …): exact, case-sensitive names. */
export const AGENT_BUILTIN_TOOLS: ReadonlySet<string> = new Set([
  'Read', 'Write', 'Edit', 'MultiEdit', 'Bash', 'BashOutput', 'Glob', 'Grep', 'LS', 'WebFetch', 'WebSearch',
  'Task', 'TodoWrite', 'NotebookEdit', 'NotebookRead', 'KillShell', 'ExitPlanMode', 'SlashCommand',
  'read_file', 'edit_file', 'run_terminal_cmd', 'codebase_search', 'grep_search', 'file_search', 'list_dir',
  'web_search', 'shell', 'apply_patch', 'update_plan',
]);

/** Tool names that popular MCP servers and agents expose; a new server reusing one may shadow it. */
export const POPULAR_TOOL_NAMES: ReadonlySet<string> = new Set([
  'read_file', 'write_file', 'edit_file', 'list_directory', 'create_directory', 'move_file', 'search_files',
  'read_text_file', 'read_multiple_files', 'execute_command', 'run_command', 'exec', 'shell', 'bash', 'terminal',
  'fetch', 'search', 'web_search', 'browse', 'send_email', 'send_message', 'create_issue', 'create_pull_request',
  'push_files', 'git_commit', 'git_push', 'query', 'run_sql', 'execute_sql', 'memory', 'read', 'write',
]);

/**
 * What a tool's name or description says it does, by effect. A name is split on `_`, `-` and case
 * before matching, so `delete_entities` and `deleteEntities` both read as deleting.
 */
export const EFFECT_WORDS = {
  destroys: ['delete', 'deletes', 'deleting', 'remove', 'removes', 'removing', 'erase', 'erases', 'erasing', 'wipe', 'wipes', 'wiping', 'purge', 'purges', 'purging', 'drop', 'drops', 'truncate', 'truncates', 'destroy', 'destroys', 'overwrite', 'overwrites', 'overwriting', 'cleanup', 'kill', 'kills', 'terminate', 'terminates', 'uninstall', 'uninstalls', 'rm', 'unlink', 'rmdir'],
  writes: ['write', 'writes', 'writing', 'create', 'creates', 'update', 'updates', 'modify', 'modifies', 'edit', 'edits', 'save', 'saves', 'append', 'appends', 'insert', 'inserts', 'rename', 'renames', 'move', 'moves', 'commit', 'commits', 'install', 'installs', 'installing', 'deploy', 'deploys', 'applies'],
  sends: ['send', 'sends', 'sending', 'push', 'pushes', 'pushing', 'upload', 'uploads', 'uploading', 'post', 'posts', 'publish', 'publishes', 'email', 'emails', 'forward', 'forwards', 'transmit', 'transmits', 'exfiltrate', 'beacon'],
  executes: ['execute', 'executes', 'exec', 'eval', 'evaluate', 'spawn', 'spawns', 'download', 'downloads'],
} as const;

/**
 * Effect words that are also plural nouns ("shows branches or commits", "counts reads and writes"):
 * they state an action only at the start of a sentence.
 */
export const EFFECT_NOUN_LIKE: ReadonlySet<string> = new Set([
  'commits', 'edits', 'updates', 'posts', 'emails', 'moves', 'saves', 'inserts', 'uploads', 'downloads', 'installs', 'deploys',
  'drops', 'writes', 'pushes', 'patches', 'forwards', 'renames', 'appends', 'kills', 'wipes', 'purges', 'beacon', 'spawns',
]);

export type ToolEffect = keyof typeof EFFECT_WORDS;

/** Agent configuration files in the user's home directory: writing one changes every project. */
export const HOME_AGENT_CONFIG_PATHS: readonly string[] = [
  '.claude.json', '.claude/settings.json', '.claude/settings.local.json', '.cursor/mcp.json', '.codeium/windsurf/mcp_config.json',
  'claude_desktop_config.json', '.gemini/settings.json', '.codex/config.toml', '.continue/config.json', '.vscode/mcp.json',
  'Library/Application Support/Claude', 'AppData/Roaming/Claude', 'Claude/claude_desktop_config.json', '.config/Claude',
];

/** Shell profiles and environment files in the home directory: a line added there applies to every later shell. */
export const SHELL_PROFILE_TARGETS: readonly string[] = [
  '.bashrc', '.bash_profile', '.bash_login', '.profile', '.zshrc', '.zprofile', '.zshenv', '.config/fish/config.fish', '.pam_environment',
];

/** Model vendors' names as they appear in host names: a host carrying one that is not the vendor's imitates it. */
export const VENDOR_BRANDS: readonly string[] = ['anthropic', 'claude', 'openai', 'chatgpt', 'gemini', 'mistral', 'groq', 'deepseek', 'cohere', 'perplexity', 'xai'];

/** Hosts that are a model vendor's own API (a base URL here is not a redirect). */
export const VENDOR_API_HOSTS: readonly string[] = [
  'api.anthropic.com', 'api.openai.com', 'generativelanguage.googleapis.com', 'aiplatform.googleapis.com', 'api.mistral.ai',
  'api.groq.com', 'api.deepseek.com', 'api.x.ai', 'api.together.xyz', 'api.fireworks.ai', 'openrouter.ai', 'api.cohere.ai',
  'api.cohere.com', 'openai.azure.com', 'bedrock-runtime', 'api.perplexity.ai', 'models.inference.ai.azure.com', 'api.githubcopilot.com',
];

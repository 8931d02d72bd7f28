/**
 * Word lists of the supply-chain and fake-prerequisite rules, kept as data: paste hosts used to
 * stage second-stage commands, and the npm scopes whose look-alikes are typosquats.
 */

/** Paste and anonymous text-sharing hosts (a "required setup" link here has no reviewable payload). */
export const PASTE_SITES: readonly string[] = [
  'glot.io', 'rentry.co', 'rentry.org', 'pastebin.com', 'hastebin.com', 'hastebin.skyra.pw', 'paste.ee', 'ghostbin.com', 'ghostbin.co',
  'privatebin.net', 'termbin.com', 'dpaste.org', 'dpaste.com', 'controlc.com', 'justpaste.it', 'pastes.io', 'paste.rs', 'ix.io',
  'sprunge.us', '0bin.net', 'bpa.st', 'pastie.io', 'katb.in', 'paste.gg', 'pastebin.pl', 'paste.centos.org', 'snippet.host', 'pastelink.net',
];

/** Official npm scopes: a scope one edit, one separator or one suffix away from these imitates them. */
export const KNOWN_NPM_SCOPES: readonly string[] = [
  'anthropic-ai', 'modelcontextprotocol', 'openai', 'google', 'google-cloud', 'microsoft', 'azure', 'aws-sdk', 'types', 'vercel',
  'langchain', 'playwright', 'octokit', 'supabase', 'cloudflare', 'github', 'stripe', 'sentry', 'babel', 'angular', 'nestjs',
  'prisma', 'tanstack', 'mistralai', 'huggingface', 'upstash', 'notionhq', 'slack', 'vitejs', 'sveltejs', 'storybook', 'firebase',
];

/** Suffixes squatters add to an official scope (`@anthropic-ai` → `@anthropic-ai-sdk`, `@openai-official`). */
export const SCOPE_SQUAT_SUFFIXES: readonly string[] = ['-ai', '-sdk', '-official', '-dev', '-labs', '-inc', '-team', '-io', 'ai', 'official'];

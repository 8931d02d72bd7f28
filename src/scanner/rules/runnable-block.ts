/**
 * Context of a command in a shell block of an agent's own instruction file: such blocks are run
 * when the agent follows the file, so a section heading alone does not make them quotations.
 */
import type { FindingContext } from '../engine/scan-report.types';
import { firstInstructionFrom, instructionsOf } from '../instructions/instructions';
import { badExampleBlock, fenceOpener } from '../parsers/markdown-structure.parser';
import type { ScanContext } from '../views/scan-context';
import { determineContext, type ContextInputs } from './context-layer';

/** Fence languages whose blocks are shell commands (an untagged fence counts: setup snippets often have none). */
const SHELL_FENCE = /^(?:bash|sh|shell|zsh|console|terminal|powershell|pwsh|ps1)$/;
/** How far above a fenced block its lead-in prose is read for a prohibition ("do not run this"). */
const LEAD_IN_REACH = 12;

/**
 * determineContext, except that an "Example", "Unsafe …" or "How it works" heading no longer
 * discounts a hit inside a shell block of a non-document agent file: it stays direct unless the
 * prose leading up to the block within its section prohibits an action, the block is labelled as
 * the wrong way ("❌ BAD:"), or the whole file is security material (input.educationalFile). Documents (READMEs, guides) keep their discounts.
 */
export function runnableBlockContext(ctx: ScanContext, input: ContextInputs): FindingContext {
  const base = determineContext(ctx, input);
  if (base !== 'quoted_education' && base !== 'documentation_example' && base !== 'anti_pattern') return base;
  const info = ctx.lineInfo[input.line - 1];
  if (ctx.executable || ctx.kind === 'document' || !info?.inFence || input.educationalFile) return base;
  if (info.fenceLang !== null && !SHELL_FENCE.test(info.fenceLang)) return base;
  // The fence opener, 1-based.
  const opener = fenceOpener(ctx.lineInfo, input.line - 1) + 1;
  // "❌ BAD:" just above the block (or as its first comment) says not to run it, as a prohibition would.
  if (badExampleBlock(ctx.lines, opener - 1)) return base;
  let first = opener;
  while (first > 1 && opener - first < LEAD_IN_REACH && ctx.lineInfo[first - 2]?.heading === info.heading && !ctx.lineInfo[first - 2]?.inFence) first--;
  const { instructions } = instructionsOf(ctx);
  for (let k = firstInstructionFrom(instructions, first); k < instructions.length && instructions[k].line < opener; k++) {
    if (instructions[k].slots.some((sl) => sl.negated && sl.cls.startsWith('action-'))) return base;
  }
  return 'direct';
}

/** Every regex of this module, for the ReDoS check in the test suite. */
export const RUNNABLE_BLOCK_REGEXES: readonly RegExp[] = [SHELL_FENCE];

import type { Judge } from '../engine/scan-report.types';
import { validateJudgeOptions, type JudgeOptions } from './judge-options';
import { NoneJudge } from './none-judge';

/**
 * Builds the configured judge. Used by JudgeModule, the worker threads, the CLI (`--local`) and
 * the eval harness (`--judge openai`). Throws on invalid options so misconfiguration shows at
 * start-up; the returned judge itself never throws.
 *
 * A model provider's code (its client, reply schema and prompts) is loaded only when it is the one
 * configured: with the judge off, a `bulwark scan --local` of one file starts ~35 ms (a tenth) sooner.
 */
export function createJudge(options: JudgeOptions): Judge {
  validateJudgeOptions(options);
  /* eslint-disable @typescript-eslint/no-require-imports */
  switch (options.provider) {
    case 'none':
      return new NoneJudge();
    case 'openai':
      return new (require('./openai-judge') as typeof import('./openai-judge')).OpenAiJudge(options);
    case 'anthropic':
      return new (require('./anthropic-judge') as typeof import('./anthropic-judge')).AnthropicJudge(options);
  }
  /* eslint-enable @typescript-eslint/no-require-imports */
}

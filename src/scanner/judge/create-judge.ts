import type { Judge } from '../engine/scan-report.types';
import { AnthropicJudge } from './anthropic-judge';
import { validateJudgeOptions, type JudgeOptions } from './judge-options';
import { NoneJudge } from './none-judge';
import { OpenAiJudge } from './openai-judge';

/**
 * Builds the configured judge. Used by JudgeModule, the worker threads, the CLI (`--local`) and
 * the eval harness (`--judge openai`). Throws on invalid options so misconfiguration shows at
 * start-up; the returned judge itself never throws.
 */
export function createJudge(options: JudgeOptions): Judge {
  validateJudgeOptions(options);
  switch (options.provider) {
    case 'none':
      return new NoneJudge();
    case 'openai':
      return new OpenAiJudge(options);
    case 'anthropic':
      return new AnthropicJudge(options);
  }
}

export { createJudge } from './create-judge';
export { JUDGE } from './judge.token';
export { JUDGE_DEFAULTS, JUDGE_PROVIDERS, validateJudgeOptions } from './judge-options';
export type { JudgeOptions, JudgeProviderName } from './judge-options';
export { NoneJudge } from './none-judge';
export { OpenAiJudge } from './openai-judge';
export { AnthropicJudge } from './anthropic-judge';
export { PROMPT_VERSION } from './prompt-assets';

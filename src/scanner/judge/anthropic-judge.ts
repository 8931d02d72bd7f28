import { JudgeCallError, postJson } from './judge-call-error';
import { JUDGE_DEFAULTS, type JudgeOptions } from './judge-options';
import { LlmJudge } from './llm-judge';
import type { JudgePrompt } from './prompt-builder';

export const ANTHROPIC_VERSION = '2023-06-01';

interface MessagesReply {
  content?: { type: string; text?: string }[];
  stop_reason?: string | null;
}

/** `https://api.anthropic.com` or `…/v1` → `…/v1/messages`; a full endpoint URL is used as given. */
export function messagesUrl(baseUrl: string): string {
  const base = baseUrl.replace(/(?<!\/)\/+$/, '');
  if (base.endsWith('/messages')) return base;
  return base.endsWith('/v1') ? `${base}/messages` : `${base}/v1/messages`;
}

/**
 * Anthropic Messages API. Temperature 0, no tools; the reply schema is given in the system prompt
 * and every reply is validated against it, since the plain Messages API has no schema-constrained
 * output on every model.
 */
export class AnthropicJudge extends LlmJudge {
  readonly provider = 'anthropic' as const;
  private readonly url: string;

  constructor(options: JudgeOptions) {
    super(options);
    this.url = messagesUrl(options.baseUrl ?? JUDGE_DEFAULTS.anthropicBaseUrl);
  }

  /** The exact request body for a prompt (exposed for the request snapshot test). */
  requestBody(prompt: JudgePrompt): Record<string, unknown> {
    return {
      model: this.options.model,
      max_tokens: this.options.maxOutputTokens ?? JUDGE_DEFAULTS.maxOutputTokens,
      temperature: 0,
      system: prompt.system,
      messages: [{ role: 'user', content: prompt.user }],
    };
  }

  protected async complete(prompt: JudgePrompt, signal: AbortSignal): Promise<string> {
    const headers: Record<string, string> = { 'anthropic-version': ANTHROPIC_VERSION };
    if (this.options.apiKey) headers['x-api-key'] = this.options.apiKey;
    const body = (await postJson(this.fetchImpl, this.url, headers, this.requestBody(prompt), signal)) as MessagesReply;
    if (body.stop_reason === 'refusal') throw new JudgeCallError('refused', 'model refused');
    if (!Array.isArray(body.content)) throw new JudgeCallError('provider_error', 'reply has no content');
    return body.content
      .filter((b) => b.type === 'text' && typeof b.text === 'string')
      .map((b) => b.text)
      .join('');
  }
}

import { JudgeCallError, postJson } from './judge-call-error';
import { JUDGE_DEFAULTS, type JudgeOptions } from './judge-options';
import { LlmJudge } from './llm-judge';
import type { JudgePrompt } from './prompt-builder';

interface ChatCompletion {
  choices?: { message?: { content?: string | null; refusal?: string | null }; finish_reason?: string | null }[];
}

/** `…/v1` → `…/v1/chat/completions`; a full endpoint URL is used as given. */
export function chatCompletionsUrl(baseUrl: string): string {
  const base = baseUrl.replace(/(?<!\/)\/+$/, '');
  return base.endsWith('/chat/completions') ? base : `${base}/chat/completions`;
}

/** Servers without JSON-schema structured output reject `response_format` with a 400/422 naming it. */
function isSchemaRejection(status: number, body: string): boolean {
  return (status === 400 || status === 422) && /response_format|json_schema|structured|guided|grammar/i.test(body);
}

/**
 * Any OpenAI-compatible chat-completions server: OpenAI, vLLM, Ollama, llama.cpp, LM Studio.
 * Temperature 0, no tools, structured output via `response_format: json_schema` (strict); a server
 * that rejects it is asked for `json_object` from then on (the schema is in the system prompt too).
 */
export class OpenAiJudge extends LlmJudge {
  readonly provider = 'openai' as const;
  private readonly url: string;
  private structuredOutput: 'json_schema' | 'json_object' = 'json_schema';

  constructor(options: JudgeOptions) {
    super(options);
    this.url = chatCompletionsUrl(options.baseUrl ?? JUDGE_DEFAULTS.openaiBaseUrl);
  }

  /** The mode in use: `json_object` once the server has rejected `json_schema`. */
  get responseFormat(): 'json_schema' | 'json_object' {
    return this.structuredOutput;
  }

  /** The exact request body for a prompt (exposed for the request snapshot test). */
  requestBody(prompt: JudgePrompt, mode: 'json_schema' | 'json_object' = this.structuredOutput): Record<string, unknown> {
    return {
      model: this.options.model,
      temperature: 0,
      messages: [
        { role: 'system', content: prompt.system },
        { role: 'user', content: prompt.user },
      ],
      response_format:
        mode === 'json_schema'
          ? { type: 'json_schema', json_schema: { name: 'bulwark_judge_reply', strict: true, schema: this.assets.replySchema } }
          : { type: 'json_object' },
    };
  }

  protected async complete(prompt: JudgePrompt, signal: AbortSignal): Promise<string> {
    const headers: Record<string, string> = {};
    if (this.options.apiKey) headers.authorization = `Bearer ${this.options.apiKey}`;
    let body: unknown;
    try {
      body = await postJson(this.fetchImpl, this.url, headers, this.requestBody(prompt), signal, isSchemaRejection);
    } catch (err) {
      if (!(err instanceof JudgeCallError) || !err.schemaUnsupported || this.structuredOutput === 'json_object') throw err;
      this.structuredOutput = 'json_object';
      body = await postJson(this.fetchImpl, this.url, headers, this.requestBody(prompt, 'json_object'), signal);
    }
    const choice = (body as ChatCompletion).choices?.[0];
    if (!choice?.message) throw new JudgeCallError('provider_error', 'reply has no choices');
    if (choice.message.refusal || choice.finish_reason === 'content_filter') {
      throw new JudgeCallError('refused', 'model refused');
    }
    // A null content is treated as malformed (retried once) rather than a provider failure.
    return choice.message.content ?? '';
  }
}

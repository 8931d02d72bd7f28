import { AnthropicJudge, messagesUrl } from './anthropic-judge';
import { createJudge } from './create-judge';
import type { JudgeOptions } from './judge-options';
import { NoneJudge } from './none-judge';
import { chatCompletionsUrl, OpenAiJudge } from './openai-judge';
import { loadPromptAssets, fillTemplate, PROMPT_VERSION } from './prompt-assets';
import { analysisFile, judgeInput } from '../../../test/fakes/judge-fixtures';

describe('createJudge', () => {
  it('defaults to none, which judges nothing and sends nothing', async () => {
    const fetchSpy = jest.fn();
    const judge = createJudge({ provider: 'none', fetch: fetchSpy as unknown as typeof fetch });
    expect(judge).toBeInstanceOf(NoneJudge);
    await expect(judge.judge(judgeInput(analysisFile('rm -rf /')))).resolves.toEqual({
      status: 'disabled',
      assessed_intent: null,
      confidence: null,
      findings: [],
      demoted_rule_ids: [],
    });
    expect(fetchSpy).not.toHaveBeenCalled();
  });

  it('builds the provider its options name', () => {
    const openai = createJudge({ provider: 'openai', baseUrl: 'http://127.0.0.1:11434/v1', model: 'llama3.1', timeoutMs: 5000 });
    expect(openai).toBeInstanceOf(OpenAiJudge);
    expect(openai.provider).toBe('openai');
    expect(createJudge({ provider: 'anthropic', model: 'claude-x', apiKey: 'k' })).toBeInstanceOf(AnthropicJudge);
  });

  it.each([
    [{ provider: 'gemini' }, /Unknown judge provider/],
    [{ provider: 'openai' }, /JUDGE_MODEL is required/],
    [{ provider: 'anthropic', model: 'm' }, /JUDGE_API_KEY is required/],
    [{ provider: 'openai', model: 'm', baseUrl: 'not a url' }, /not a valid URL/],
    [{ provider: 'openai', model: 'm', baseUrl: 'http://u:p@h/v1' }, /must not carry credentials/],
    [{ provider: 'openai', model: 'm', timeoutMs: 1.5 }, /JUDGE_TIMEOUT_MS must be an integer/],
  ])('rejects options that cannot work (%j) at construction', (options, message) => {
    expect(() => createJudge(options as JudgeOptions)).toThrow(message);
  });

  it('builds endpoint URLs the way OpenAI-compatible servers and Anthropic expect', () => {
    expect(chatCompletionsUrl('https://api.openai.com/v1/')).toBe('https://api.openai.com/v1/chat/completions');
    expect(chatCompletionsUrl('http://localhost:8000/v1/chat/completions')).toBe('http://localhost:8000/v1/chat/completions');
    expect(messagesUrl('https://api.anthropic.com')).toBe('https://api.anthropic.com/v1/messages');
    expect(messagesUrl('https://proxy.example/anthropic/v1')).toBe('https://proxy.example/anthropic/v1/messages');
  });
});

describe('prompt assets', () => {
  it('loads the versioned system prompt with the reply schema inlined', () => {
    const assets = loadPromptAssets();
    expect(assets.version).toBe(PROMPT_VERSION);
    expect(assets.system).toContain('"demote_rule_ids"');
    expect(assets.system).not.toContain('{{');
    expect(assets.userTemplate).toContain('{{content}}');
  });

  it('substitutes in one pass, so inserted content is never re-expanded', () => {
    expect(fillTemplate('<{{a}}|{{b}}>', { a: '{{b}}', b: 'x' })).toBe('<{{b}}|x>');
  });

  it('rejects a version name that could escape the prompts folder', () => {
    expect(() => loadPromptAssets('../x')).toThrow(/Invalid judge prompt version/);
  });
});

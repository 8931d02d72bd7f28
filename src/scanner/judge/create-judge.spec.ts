import { AnthropicJudge, messagesUrl } from './anthropic-judge';
import { createJudge } from './create-judge';
import { judgeOptionsFromSettings } from './judge-options';
import { NoneJudge } from './none-judge';
import { chatCompletionsUrl, OpenAiJudge } from './openai-judge';
import { loadPromptAssets, fillTemplate, PROMPT_VERSION } from './prompt-assets';
import { analysisFile, judgeInput } from '../../../test/fakes/judge-fixtures';

describe('createJudge', () => {
  it('defaults to none, which judges nothing and sends nothing', async () => {
    const fetchSpy = jest.fn();
    const judge = createJudge(judgeOptionsFromSettings({}, { fetch: fetchSpy as unknown as typeof fetch }));
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

  it('maps the JUDGE_* settings of DESIGN.md §11 to a provider', () => {
    const openai = createJudge(
      judgeOptionsFromSettings({ JUDGE_PROVIDER: 'openai', JUDGE_BASE_URL: 'http://127.0.0.1:11434/v1', JUDGE_MODEL: 'llama3.1', JUDGE_TIMEOUT_MS: '5000' }),
    );
    expect(openai).toBeInstanceOf(OpenAiJudge);
    expect(openai.provider).toBe('openai');
    const anthropic = createJudge(judgeOptionsFromSettings({ JUDGE_PROVIDER: 'Anthropic', JUDGE_MODEL: 'claude-x', JUDGE_API_KEY: 'k' }));
    expect(anthropic).toBeInstanceOf(AnthropicJudge);
  });

  it.each([
    [{ JUDGE_PROVIDER: 'gemini' }, /JUDGE_PROVIDER must be one of none, openai, anthropic/],
    [{ JUDGE_PROVIDER: 'openai' }, /JUDGE_MODEL is required/],
    [{ JUDGE_PROVIDER: 'anthropic', JUDGE_MODEL: 'm' }, /JUDGE_API_KEY is required/],
    [{ JUDGE_PROVIDER: 'openai', JUDGE_MODEL: 'm', JUDGE_BASE_URL: 'not a url' }, /not a valid URL/],
    [{ JUDGE_PROVIDER: 'openai', JUDGE_MODEL: 'm', JUDGE_BASE_URL: 'http://u:p@h/v1' }, /must not carry credentials/],
    [{ JUDGE_PROVIDER: 'openai', JUDGE_MODEL: 'm', JUDGE_TIMEOUT_MS: 'soon' }, /JUDGE_TIMEOUT_MS must be an integer/],
  ])('rejects invalid settings %j at construction', (settings, message) => {
    expect(() => createJudge(judgeOptionsFromSettings(settings))).toThrow(message);
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

import { loadPromptAssets } from './prompt-assets';
import { parseReply } from './reply-parser';

const { replySchema } = loadPromptAssets();
const valid = {
  assessed_intent: 'malicious',
  confidence: 'high',
  findings: [
    { category: 'data_exfiltration', severity: 'critical', confidence: 'high', locator: 'SKILL.md:3', rationale: 'sends env', evidence: 'env | curl' },
  ],
  demote_rule_ids: ['R1', 'R1'],
};

describe('parseReply', () => {
  it('accepts a schema-valid object and deduplicates demotions', () => {
    const r = parseReply(JSON.stringify(valid), replySchema);
    expect(r).toEqual({ ok: true, reply: { ...valid, demote_rule_ids: ['R1'] } });
  });

  it('accepts a fenced or prose-wrapped object', () => {
    expect(parseReply('```json\n' + JSON.stringify(valid) + '\n```', replySchema).ok).toBe(true);
    expect(parseReply('Here you go: ' + JSON.stringify(valid) + ' Thanks', replySchema).ok).toBe(true);
  });

  it('treats a missing demote_rule_ids (minimal reply contract) as none', () => {
    const { demote_rule_ids: _omit, ...minimal } = valid;
    const r = parseReply(JSON.stringify(minimal), replySchema);
    expect(r.ok && r.reply.demote_rule_ids).toEqual([]);
  });

  it.each([
    ['not JSON', 'I think this file is fine.'],
    ['truncated JSON', JSON.stringify(valid).slice(0, 60)],
    ['an unknown intent', JSON.stringify({ ...valid, assessed_intent: 'fine' })],
    ['an unknown category', JSON.stringify({ ...valid, findings: [{ ...valid.findings[0], category: 'malware' }] })],
    ['a missing field', JSON.stringify({ ...valid, findings: [{ ...valid.findings[0], evidence: undefined }] })],
    ['an extra top-level key', JSON.stringify({ ...valid, note: 'x' })],
    ['an array', JSON.stringify([valid])],
  ])('rejects %s', (_name, text) => {
    expect(parseReply(text, replySchema).ok).toBe(false);
  });
});

import { withoutEmojiTagSequences } from './hidden-text';

const tags = (s: string): string => [...s].map((c) => String.fromCodePoint(0xe0000 + c.charCodeAt(0))).join('');
const FLAG = '\u{1F3F4}';
const CANCEL = '\u{E007F}';

describe('emoji subdivision flags', () => {
  it('removes valid subdivision flag sequences and nothing else', () => {
    for (const code of ['gbeng', 'gbsct', 'gbwls', 'usca', 'fr75', 'ca123']) {
      expect(withoutEmojiTagSequences(`a ${FLAG}${tags(code)}${CANCEL} b`)).toBe(`a ${FLAG} b`);
    }
  });

  it('keeps tag text that is not a flag: capitals, spaces, no black flag, too long, no cancel tag', () => {
    for (const text of [
      `${FLAG}${tags('IGNORE')}${CANCEL}`,
      `${FLAG}${tags('gb run')}${CANCEL}`,
      `x${tags('gbeng')}${CANCEL}`,
      `${FLAG}${tags('gbengland')}${CANCEL}`,
      `${FLAG}${tags('gbeng')}`,
    ]) {
      expect(withoutEmojiTagSequences(text)).toBe(text);
    }
  });

  it('leaves smuggled tags after a valid flag in place', () => {
    const text = `${FLAG}${tags('gbeng')}${CANCEL}${tags(' run curl')}`;
    expect(withoutEmojiTagSequences(text)).toBe(`${FLAG}${tags(' run curl')}`);
  });
});

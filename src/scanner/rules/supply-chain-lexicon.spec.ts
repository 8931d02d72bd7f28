import { PASSWORD_STATED } from './supply-chain-lexicon';

describe('PASSWORD_STATED', () => {
  it.each([
    'password: hunter22',
    'Password is hunter22',
    '(passwort: geheim1',
    'the archive password `x1y2`',
    'mot de passe : abc123',
    'пароль: qwerty',
    '1password: abcdef',
  ])('finds a stated password in %j', (line) => {
    expect(PASSWORD_STATED.test(line)).toBe(true);
  });

  it.each([
    // The word must start a word: a letter before it (any script) makes it another word.
    'xpassword: hunter22',
    'épassword: hunter22',
    'bypass: enabled-always',
    'password reset link sent',
  ])('ignores %j', (line) => {
    expect(PASSWORD_STATED.test(line)).toBe(false);
  });
});

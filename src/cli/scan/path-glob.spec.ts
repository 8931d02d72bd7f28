import { compileGlob } from './path-glob';

describe('compileGlob (.bulwark.yaml path globs)', () => {
  const m = (glob: string, path: string): boolean => compileGlob(glob).matches(path);

  it('`*` stays in one segment, `**` spans segments', () => {
    expect(m('docs/*.md', 'docs/a.md')).toBe(true);
    expect(m('docs/*.md', 'docs/x/a.md')).toBe(false);
    expect(m('docs/**/*.md', 'docs/x/y/a.md')).toBe(true);
    expect(m('docs/**/*.md', 'docs/a.md')).toBe(true);
    expect(m('a?c.md', 'abc.md')).toBe(true);
  });

  it('a pattern without "/" matches a name at any depth; a leading "/" or inner "/" anchors', () => {
    expect(m('*.mdc', '.cursor/rules/x.mdc')).toBe(true);
    expect(m('fixtures', 'test/fixtures/a/SKILL.md')).toBe(true);
    expect(m('/fixtures', 'test/fixtures/a/SKILL.md')).toBe(false);
    expect(m('test/fixtures', 'test/fixtures/a/SKILL.md')).toBe(true);
    expect(m('test/fixtures', 'other/test/fixtures/a.md')).toBe(false);
    expect(m('./test/', 'test/a.md')).toBe(true);
  });

  it('a folder pattern covers everything under it, not names that merely start the same', () => {
    expect(m('vendor/', 'vendor/skills/x/SKILL.md')).toBe(true);
    expect(m('vendor/', 'vendored/SKILL.md')).toBe(false);
  });

  it('rejects patterns that leave the working folder or use backslashes', () => {
    expect(() => compileGlob('../x')).toThrow(/inside the working folder/);
    expect(() => compileGlob('a\\b')).toThrow(/use "\/"/);
    expect(() => compileGlob('  ')).toThrow(/non-empty/);
  });

  it('matches dot files and folders like any other name', () => {
    expect(m('*.mdc', '.cursor/rules/x.mdc')).toBe(true);
    expect(m('.cursor/**', '.cursor/rules/x.mdc')).toBe(true);
    expect(m('**/.github/*.md', 'a/.github/copilot-instructions.md')).toBe(true);
  });
});

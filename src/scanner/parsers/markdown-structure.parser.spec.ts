import { badExampleBlock, parseMarkdownStructure } from './markdown-structure.parser';

const kinds = (text: string) => parseMarkdownStructure(text.split('\n')).map((l) => l.sectionKind);

describe('markdown structure: sections of what not to do', () => {
  it('knows the heading in the languages the instruction layer reads', () => {
    for (const heading of [
      '## What not to do',
      '## Cosa non fare',
      '## Qué no hacer',
      '## O que não fazer',
      '## À ne pas faire',
      '## Was man nicht tun sollte',
      '## Wat niet te doen',
    ])
      expect(kinds(`${heading}\n\n- Use \`--trusted-host\`.`)[2]).toBe('anti_pattern');
    expect(kinds('## Cosa fare\n\n- Use `--trusted-host`.')[2]).toBe('normal');
  });
});

describe('markdown structure: code blocks labelled as the wrong way', () => {
  it('reads a block after "❌ BAD:" as an anti-pattern and gives the section back after it', () => {
    const text = ['# Rules', '', '❌ BAD:', '```bash', 'eval "$input"', '```', '', 'Then run the tests.'].join('\n');
    const k = kinds(text);
    expect(k[4]).toBe('anti_pattern');
    expect(k[7]).toBe('normal');
  });

  it('knows the label in a comment on the first line of the block, and in words ("Avoid:", "**Don\'t:**")', () => {
    expect(badExampleBlock(['```bash', '# ❌ never do this', 'rm -rf /'], 0)).toBe(true);
    expect(badExampleBlock(['Avoid:', '```bash', 'chmod 777 -R .'], 1)).toBe(true);
    expect(badExampleBlock(["**Don't:**", '', '```bash', 'chmod 777 -R .'], 2)).toBe(true);
  });

  it('leaves blocks introduced by ordinary prose or a good-example label alone', () => {
    expect(badExampleBlock(['Clean the build folder:', '```bash', 'rm -rf ./build'], 1)).toBe(false);
    expect(badExampleBlock(['✅ GOOD:', '```bash', 'rm -rf ./build'], 1)).toBe(false);
    // A sentence that merely starts with "never" and goes on is not a label.
    expect(badExampleBlock(['Never skip this step, it sets up the cache: run', '```bash', 'make cache'], 1)).toBe(false);
    expect(kinds(['# Setup', 'Run:', '```bash', 'make', '```'].join('\n'))[3]).toBe('normal');
    // "Don't forget to run:" asks for the block.
    expect(badExampleBlock(["Don't forget to run:", '```bash', 'make setup'], 1)).toBe(false);
  });
});

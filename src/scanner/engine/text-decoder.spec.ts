import { decodeText } from './text-decoder';

describe('decodeText', () => {
  it('decodes UTF-8 and strips its BOM', () => {
    expect(decodeText(Buffer.from('\ufeffhé\n'))).toEqual({ ok: true, text: 'hé\n', encoding: 'utf-8', bom: true, invalidSequences: 0, controlChars: 0 });
    expect(decodeText(Buffer.from('plain'))).toMatchObject({ ok: true, text: 'plain', bom: false });
  });

  it('decodes UTF-16 LE and BE with a BOM', () => {
    expect(decodeText(Buffer.from('\ufeffhi ✓', 'utf16le'))).toMatchObject({ ok: true, text: 'hi ✓', encoding: 'utf-16le', bom: true });
    const be = Buffer.from('\ufeffhi ✓', 'utf16le').swap16();
    expect(decodeText(be)).toMatchObject({ ok: true, text: 'hi ✓', encoding: 'utf-16be', bom: true });
  });

  it('detects BOM-less UTF-16 from its NUL pattern', () => {
    expect(decodeText(Buffer.from('# Agent rules\nBe nice.\n', 'utf16le'))).toMatchObject({
      ok: true,
      encoding: 'utf-16le',
      bom: false,
      text: '# Agent rules\nBe nice.\n',
    });
    expect(decodeText(Buffer.from('# Agent rules\nBe nice.\n', 'utf16le').swap16())).toMatchObject({ ok: true, encoding: 'utf-16be' });
  });

  it('replaces and counts invalid UTF-8 sequences without throwing', () => {
    const r = decodeText(Buffer.concat([Buffer.from('ok '), Buffer.from([0xff]), Buffer.from(' fine '), Buffer.from([0xc3]), Buffer.from(' end')]));
    expect(r).toMatchObject({ ok: true, invalidSequences: 2, text: 'ok \ufffd fine \ufffd end' });
  });

  it('counts an odd trailing byte of UTF-16 as invalid', () => {
    const r = decodeText(Buffer.concat([Buffer.from('\ufeffabc', 'utf16le'), Buffer.from([0x41])]));
    expect(r).toMatchObject({ ok: true, text: 'abc', invalidSequences: 1 });
  });

  it('keeps text with a few control bytes as text, counting them (one NUL no longer makes a file binary)', () => {
    expect(decodeText(Buffer.from('run this\0 now\n'))).toMatchObject({ ok: true, text: 'run this\0 now\n', controlChars: 1 });
    expect(decodeText(Buffer.from('plain\ttext\r\n\f'))).toMatchObject({ ok: true, controlChars: 0 });
  });

  it('classifies control-heavy content as binary unless its name says text, noise as undecodable', () => {
    expect(decodeText(Buffer.from('\x01\x02\x03\x04\x05abc'))).toEqual({ ok: false, reason: 'binary' });
    expect(decodeText(Buffer.from('\x01\x02\x03\x04\x05abc'), { claimsText: true })).toMatchObject({ ok: true, controlChars: 5 });
    expect(decodeText(Buffer.from(Array.from({ length: 200 }, (_, i) => 0x80 + (i % 64))))).toEqual({ ok: false, reason: 'undecodable' });
  });

  it('never throws on arbitrary bytes', () => {
    for (let seed = 1; seed < 200; seed++) {
      const bytes = Buffer.from(Array.from({ length: seed * 7 }, (_, i) => (i * 31 + seed * 17) & 0xff));
      expect(() => decodeText(bytes)).not.toThrow();
    }
  });
});

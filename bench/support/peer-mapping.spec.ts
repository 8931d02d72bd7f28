import { bandOfSeverity, bandsBySample, detection, sampleOfPath } from './peer-mapping';
import { multipartFile } from './multipart';

describe('peer severity mapping', () => {
  it("maps each tool's severity words onto our bands and refuses unknown ones", () => {
    expect(['CRITICAL', 'HIGH', 'MEDIUM', 'LOW', 'INFO'].map(bandOfSeverity)).toEqual(['critical', 'high', 'medium', 'low', 'info']);
    expect(bandOfSeverity('informational')).toBe('info');
    expect(() => bandOfSeverity('severe')).toThrow(/no band mapping/);
  });

  it('attributes a path to its sample folder and keeps the worst band per sample', () => {
    expect(sampleOfPath('./dev-x/.claude/settings.json')).toBe('dev-x');
    const bands = bandsBySample([
      { path: 'dev-a/SKILL.md', band: 'low' },
      { path: 'dev-a/scripts/run.sh', band: 'critical' },
      { path: 'dev-a/SKILL.md', band: 'medium' },
      { path: 'dev-b/AGENTS.md', band: 'medium' },
    ]);
    expect(Object.fromEntries(bands)).toEqual({ 'dev-a': 'critical', 'dev-b': 'medium' });
  });

  it('computes recall against min_band and false positives against max_band (default low)', () => {
    const samples = [
      { id: 'm1', label: 'malicious' as const, min_band: 'high' as const },
      { id: 'm2', label: 'malicious' as const, min_band: 'critical' as const },
      { id: 'b1', label: 'benign' as const, min_band: null },
      { id: 'b2', label: 'benign' as const, min_band: null, max_band: 'medium' as const },
      { id: 's1', label: 'suspicious' as const, min_band: 'low' as const },
    ];
    const d = detection(
      samples,
      new Map([
        ['m1', 'critical'],
        ['m2', 'high'],
        ['b1', 'medium'],
        ['b2', 'medium'],
        ['s1', 'critical'],
      ] as const),
    );
    expect(d).toEqual({ malicious_recall: 50, malicious_hits: 1, malicious_total: 2, benign_fpr: 50, benign_fps: 1, benign_total: 2 });
    // A sample never reported is `info`: a miss when malicious, clean when benign.
    expect(detection(samples, new Map())).toMatchObject({ malicious_hits: 0, benign_fps: 0 });
  });
});

describe('multipartFile', () => {
  it('frames one `file` field with the name and the exact bytes', () => {
    const bytes = Buffer.from([0, 1, 2, 255]);
    const { body, contentType } = multipartFile('a "b".zip', bytes);
    const boundary = contentType.split('boundary=')[1]!;
    const text = body.toString('latin1');
    expect(text.startsWith(`--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="a %22b%22.zip"\r\n`)).toBe(true);
    expect(text.endsWith(`\r\n--${boundary}--\r\n`)).toBe(true);
    expect(body.includes(bytes)).toBe(true);
  });
});

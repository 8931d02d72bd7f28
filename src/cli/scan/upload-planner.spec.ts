import { mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import AdmZip from 'adm-zip';
import { extractUpload } from '../../scanner/archive/upload-extractor';
import { discoverTargets, isAgentFilePath } from './agent-file-discovery';
import { planUploads } from './upload-planner';

let root: string;
const put = (rel: string, content: string | Buffer = 'text\n'): void => {
  mkdirSync(join(root, rel, '..'), { recursive: true });
  writeFileSync(join(root, rel), content);
};

beforeEach(() => {
  root = mkdtempSync(join(tmpdir(), 'bulwark-plan-'));
});
afterEach(() => rmSync(root, { recursive: true, force: true }));

describe('agent file discovery', () => {
  it('recognises agent files by name the way the server does', () => {
    for (const p of [
      'AGENTS.md',
      'sub/CLAUDE.md',
      'GEMINI.md',
      '.cursorrules',
      '.cursor/rules/ts.mdc',
      '.github/copilot-instructions.md',
      '.claude/commands/deploy.md',
      '.claude/settings.json',
      '.mcp.json',
      '.vscode/mcp.json',
      'claude_desktop_config.json',
      '.windsurfrules',
    ]) {
      expect([p, isAgentFilePath(p)]).toEqual([p, true]);
    }
    for (const p of ['README.md', 'src/index.ts', 'package.json', 'docs/guide.md']) expect([p, isAgentFilePath(p)]).toEqual([p, false]);
  });

  it('walks a repository: skills, agent files, ignoring node_modules and .git', async () => {
    put('AGENTS.md');
    put('.github/copilot-instructions.md');
    put('.cursor/rules/a.mdc');
    put('README.md');
    put('node_modules/x/AGENTS.md');
    put('.git/CLAUDE.md');
    put('tools/skills/fmt/SKILL.md');
    put('tools/skills/fmt/run.py');
    put('tools/skills/fmt/nested/SKILL.md');
    const d = await discoverTargets(['.'], root);
    const files = d.targets.filter((t) => t.type === 'file').map((t) => (t.type === 'file' ? t.file.displayPath : ''));
    expect(files.sort()).toEqual(['.cursor/rules/a.mdc', '.github/copilot-instructions.md', 'AGENTS.md']);
    const skills = d.targets.flatMap((t) => (t.type === 'skill' ? [[t.skillMd.displayPath, ...t.files.map((f) => f.displayPath)]] : []));
    // A nested skill owns its own files.
    expect(skills).toEqual([['tools/skills/fmt/SKILL.md', 'tools/skills/fmt/run.py'], ['tools/skills/fmt/nested/SKILL.md']]);
  });

  it('reports symlinks instead of following them, and folders with nothing to scan', async () => {
    put('s/SKILL.md');
    symlinkSync('/etc/passwd', join(root, 's', 'leak.sh'));
    mkdirSync(join(root, 'empty'));
    const d = await discoverTargets(['s', 'empty'], root);
    expect(d.notSent).toEqual([{ path: 's/leak.sh', reason: 'symbolic link; not followed', code: 'symlink' }]);
    expect(d.emptyRoots).toEqual(['empty']);
  });

  it('a symlink to a file scanned in the same run is listed as such (it leaves nothing unanalysed)', async () => {
    put('AGENTS.md');
    symlinkSync('AGENTS.md', join(root, 'CLAUDE.md'));
    symlinkSync('README.md', join(root, 'GEMINI.md'));
    put('README.md');
    const d = await discoverTargets(['.'], root);
    expect(d.notSent.map((n) => [n.path, n.code])).toEqual([
      ['CLAUDE.md', 'symlink_scanned'],
      // README.md is in the tree but is not an agent file, so it is not scanned: the link stays unscanned.
      ['GEMINI.md', 'symlink'],
    ]);
  });

  it('a missing path is a usage error', async () => {
    await expect(discoverTargets(['nope'], root)).rejects.toThrow('No such file or folder: nope');
  });
});

describe('upload planning', () => {
  it('splits a large skill into uploads of SKILL.md + 2 files, scripts first, within every limit', async () => {
    put('sk/SKILL.md', '# skill\n');
    for (const n of ['a', 'b', 'c', 'd', 'e']) put(`sk/scripts/${n}.sh`, `#!/bin/sh\necho ${n}\n`);
    put('sk/docs/notes.txt', 'notes\n');
    put('sk/big.md', 'x'.repeat(251 * 1024));
    put('sk/empty.md', '');
    put('sk/pic.jpg', Buffer.from([0xff, 0xd8, 0xff]));
    const plan = await planUploads(await discoverTargets(['sk'], root));
    expect(plan.uploads.map((u) => u.files)).toEqual([
      ['sk/SKILL.md', 'sk/scripts/a.sh', 'sk/scripts/b.sh'],
      ['sk/SKILL.md', 'sk/scripts/c.sh', 'sk/scripts/d.sh'],
      ['sk/SKILL.md', 'sk/scripts/e.sh', 'sk/docs/notes.txt'],
    ]);
    expect(plan.notSent.map((n) => [n.path, n.reason])).toEqual([
      ['sk/big.md', '251 KB, over the 250 KB per-file limit'],
      ['sk/empty.md', 'empty file'],
      ['sk/pic.jpg', 'image, media or font file; not analysed by the scanner'],
    ]);
    // Every zip passes the server's own strict extractor with the default limits.
    for (const u of plan.uploads) {
      expect(u.container).toBe('zip');
      expect(
        extractUpload({ filename: u.filename, bytes: u.bytes })
          .entries.map((e) => e.relativePath)
          .sort(),
      ).toEqual([...u.files].sort());
    }
  });

  it('stores bundle entries uncompressed, so a repetitive file is not refused as a zip bomb by the compression-ratio limit', async () => {
    put('rep/SKILL.md', '# skill\n');
    put('rep/data/table.txt', 'x'.repeat(200 * 1024)); // deflates far beyond the 100:1 entry limit
    const plan = await planUploads(await discoverTargets(['rep'], root));
    expect(plan.uploads).toHaveLength(1);
    const [u] = plan.uploads;
    expect(new AdmZip(u!.bytes).getEntries().map((e) => e.header.method)).toEqual([0, 0]);
    expect(
      extractUpload({ filename: u!.filename, bytes: u!.bytes })
        .entries.map((e) => e.relativePath)
        .sort(),
    ).toEqual(['rep/SKILL.md', 'rep/data/table.txt']);
  });

  it('sends a lone file under its relative path, and a .zip argument as it is (≤ 1 MB)', async () => {
    put('.claude/settings.json', '{"permissions":{}}');
    const zip = new AdmZip();
    zip.addFile('SKILL.md', Buffer.from('# x\n'));
    put('bundle.zip', zip.toBuffer());
    put('huge.zip', Buffer.alloc(1024 * 1024 + 1));
    const plan = await planUploads(await discoverTargets(['.claude/settings.json', 'bundle.zip', 'huge.zip'], root));
    expect(plan.uploads.map((u) => [u.filename, u.container])).toEqual([
      ['.claude/settings.json', 'file'],
      ['bundle.zip', 'archive'],
    ]);
    expect(plan.notSent).toEqual([{ path: 'huge.zip', reason: '1024 KB, over the 1 MB upload limit', code: 'too_large' }]);
  });

  it('stops at --max-uploads and says which files were left out', async () => {
    put('AGENTS.md');
    put('CLAUDE.md');
    put('GEMINI.md');
    const plan = await planUploads(await discoverTargets(['.'], root), { maxUploads: 2 });
    expect(plan.uploads).toHaveLength(2);
    expect(plan.notSent).toEqual([{ path: 'GEMINI.md', reason: 'upload cap of 2 reached (--max-uploads)', code: 'upload_cap' }]);
  });

  it('refuses file names the server would reject', async () => {
    put('s/SKILL.md');
    put('s/evil\u202egpj.sh', '#!/bin/sh\n');
    const plan = await planUploads(await discoverTargets(['s'], root));
    expect(plan.notSent).toEqual([
      { path: 's/evil\u202egpj.sh', reason: expect.stringMatching(/^unsafe path \(has control or invisible format characters/), code: 'unsafe_path' },
    ]);
  });
});

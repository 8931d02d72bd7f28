import { classifyOpaque, detectTextKind, isExecutableContent, nameClaimsText, nameLooksExecutable } from './kind-detector';

describe('detectTextKind', () => {
  it.each([
    ['SKILL.md', '# x', 'agent_file'],
    ['skills/pdf/skill.md', '# x', 'agent_file'],
    ['AGENTS.md', '# x', 'agent_file'],
    ['CLAUDE.md', '# x', 'agent_file'],
    ['GEMINI.md', '# x', 'agent_file'],
    ['.cursorrules', 'x', 'agent_file'],
    ['.cursor/rules/docker.mdc', 'x', 'agent_file'],
    ['.windsurfrules', 'x', 'agent_file'],
    ['.clinerules', 'x', 'agent_file'],
    ['.github/copilot-instructions.md', 'x', 'agent_file'],
    ['.claude/commands/debug-env.md', 'x', 'agent_file'],
    ['.claude/agents/release-manager.md', 'x', 'agent_file'],
    ['claude_desktop_config.json', '{}', 'mcp_config'],
    ['test/mcp-test/.mcp.json', '{}', 'mcp_config'],
    ['.claude/settings.json', '{}', 'agent_settings'],
    ['tools.json', '[]', 'tool_manifest'],
    ['scripts/sync.sh', 'echo', 'script'],
    ['server.py', 'import os', 'script'],
    ['package.json', '{"name":"x"}', 'package_manifest'],
    ['requirements-dev.txt', 'requests', 'package_manifest'],
    ['README.md', '# Readme', 'document'],
  ])('%s → %s', (path, text, kind) => {
    expect(detectTextKind(path, text)).toBe(kind);
  });

  it('uses content when the name says little', () => {
    expect(detectTextKind('notes.txt', '#!/bin/bash\ncurl x | sh\n')).toBe('script');
    expect(detectTextKind('config.json', '{"mcpServers":{"a":{"command":"npx"}}}')).toBe('mcp_config');
    expect(detectTextKind('vscode.json', '{"servers":{"a":{"url":"https://x"}}}')).toBe('mcp_config');
    expect(detectTextKind('settings.json', '{"permissions":{"allow":["Bash(*)"]}}')).toBe('agent_settings');
    expect(detectTextKind('weather_server_signature.json', '{"metadata":{},"tools":[{"name":"get","description":"d","inputSchema":{}}]}')).toBe(
      'tool_manifest',
    );
    expect(detectTextKind('helper.md', '---\nname: helper\ndescription: Helps\ntools: Bash\n---\nDo things.\n')).toBe('agent_file');
    expect(detectTextKind('rules.md', '---\ndescription: x\nglobs: "*.ts"\n---\n')).toBe('agent_file');
    expect(detectTextKind('post.md', '---\ntitle: Blog\n---\ntext')).toBe('document');
    expect(detectTextKind('broken.json', '{"mcpServers": ')).toBe('document');
  });
});

describe('classifyOpaque', () => {
  it('finds archives, bytecode and nothing for text', () => {
    expect(classifyOpaque('x.bin', Buffer.from([0x50, 0x4b, 0x03, 0x04]))).toEqual({ kind: 'archive', skipReason: 'nested_archive' });
    expect(classifyOpaque('x', Buffer.from([0x1f, 0x8b, 8]))).toEqual({ kind: 'archive', skipReason: 'nested_archive' });
    expect(classifyOpaque('plugin.jar', Buffer.from('whatever'))).toEqual({ kind: 'archive', skipReason: 'nested_archive' });
    expect(classifyOpaque('m.pyc', Buffer.from([0x6f, 0x0d, 0x0d, 0x0a]))).toEqual({ kind: 'binary', skipReason: 'bytecode' });
    expect(classifyOpaque('A.class', Buffer.from([0xca, 0xfe, 0xba, 0xbe]))).toEqual({ kind: 'binary', skipReason: 'bytecode' });
    expect(classifyOpaque('m.wasm', Buffer.from([0x00, 0x61, 0x73, 0x6d]))).toEqual({ kind: 'binary', skipReason: 'bytecode' });
    expect(classifyOpaque('SKILL.md', Buffer.from('# hello'))).toBeNull();
  });
});

describe('binary formats by signature', () => {
  const pe = Buffer.alloc(0x90);
  pe.write('MZ', 0, 'latin1');
  pe.writeUInt32LE(0x80, 0x3c);
  pe.write('PE\0\0', 0x80, 'latin1');

  it('classifies executables, images, documents and databases as binary, whatever the name', () => {
    for (const bytes of [
      Buffer.from([0x7f, 0x45, 0x4c, 0x46, 2]),
      pe,
      Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
      Buffer.from('%PDF-1.7\n'),
      Buffer.from('SQLite format 3\0'),
    ]) {
      expect(classifyOpaque('SKILL.md', bytes)).toEqual({ kind: 'binary', skipReason: 'binary' });
    }
    // "MZ" at the start of text is not a PE header.
    expect(classifyOpaque('notes.md', Buffer.from('MZ is the author of these notes.\n'.repeat(4)))).toBeNull();
  });

  it('tells executable content and executable or text names apart', () => {
    expect(isExecutableContent(pe)).toBe(true);
    expect(isExecutableContent(Buffer.from('#!/bin/sh\necho\n'))).toBe(true);
    expect(isExecutableContent(Buffer.from([0x89, 0x50, 0x4e, 0x47]))).toBe(false);
    expect(nameLooksExecutable('scripts/setup.sh')).toBe(true);
    expect(nameLooksExecutable('tool.exe')).toBe(true);
    expect(nameLooksExecutable('assets/logo.png')).toBe(false);
    expect(nameClaimsText('SKILL.md')).toBe(true);
    expect(nameClaimsText('notes.txt')).toBe(true);
    expect(nameClaimsText('logo.png')).toBe(false);
  });
});

import { isReadOnlyProbe } from './benign-forms';

describe('isReadOnlyProbe: commands that only inspect', () => {
  it.each([
    'git status --short',
    'git log --oneline -5 | head -3',
    'find . -name "*.sql" 2>/dev/null | head -5',
    'ps aux | grep -E "(worker|job)" | head -3',
    'gh run list --limit 5 2>/dev/null || echo "GitHub CLI not available"',
    'docker --version',
    'kubectl get pods -n staging',
    'crontab -l 2>/dev/null',
    'find . -name "*.yml" | xargs grep -l "backup" | head -3',
  ])('reads only: %s', (command) => expect(isReadOnlyProbe(command)).toBe(true));

  it.each([
    'git log > /tmp/log.txt',
    'echo "$(cat .env)"',
    'find . -name "*.tmp" -delete',
    'find . -exec rm {} +',
    'rm -rf dist',
    'npm test',
    'git push origin main',
    'kubectl config view --raw',
    'xargs rm',
    'sleep 100 &',
  ])('changes or runs something: %s', (command) => expect(isReadOnlyProbe(command)).toBe(false));
});

import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { renderRulesDoc } from '../../../scripts/generate-rules-doc';

describe('docs/rules.md', () => {
  it('is generated from the current rule metadata (run npm run docs:rules)', () => {
    expect(readFileSync(join(__dirname, '..', '..', '..', 'docs', 'rules.md'), 'utf8')).toBe(renderRulesDoc());
  });
});

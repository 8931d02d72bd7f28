import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { ValidationFailedError } from '../common/errors';
import { parseImportDocument } from './import-document';
import { IMPORT_SCHEMA } from './import-schema';

describe('import schema', () => {
  it('docs/import-schema.json is the schema the import validates with', () => {
    const committed = JSON.parse(readFileSync(join(__dirname, '..', '..', 'docs', 'import-schema.json'), 'utf8')) as unknown;
    expect(committed).toEqual(JSON.parse(JSON.stringify(IMPORT_SCHEMA)));
  });

  it('names each bad entry with its location', () => {
    const attempt = () =>
      parseImportDocument({ services: [{ id: 1, name: 'ok' }, { id: -1 }], resources: [{ platform_id: 'x', resource_type: 't', category: 'gpu' }] });
    expect(attempt).toThrow(ValidationFailedError);
    try {
      attempt();
    } catch (err) {
      const locs = (err as ValidationFailedError).issues.map((i) => i.loc);
      expect(locs).toEqual(
        expect.arrayContaining([
          ['body', 'services', 1, 'id'],
          ['body', 'services', 1, 'name'],
          ['body', 'resources', 0, 'category'],
        ]),
      );
    }
  });

  it('accepts the empty document and ignores unknown top-level keys', () => {
    expect(parseImportDocument({})).toEqual({});
    expect(() => parseImportDocument({ comment: 'x' })).not.toThrow();
  });
});

/** The evaluation corpora beside the project that the scanner benches read (../shared/corpus, ../shared/corpus-wild). */
import { existsSync } from 'node:fs';
import { join, resolve } from 'node:path';

export const BENCH_CORPORA = ['corpus', 'corpus-wild'].map((c) => resolve(join(__dirname, '..', '..', '..', 'shared', c)));

/** The corpora present beside the project; `onMissing` hears of each one that is not. */
export function presentCorpora(onMissing: (dir: string) => void = () => undefined): string[] {
  return BENCH_CORPORA.filter((dir) => {
    const present = existsSync(join(dir, 'manifest.jsonl'));
    if (!present) onMissing(dir);
    return present;
  });
}

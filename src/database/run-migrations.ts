import type { DataSource } from 'typeorm';

/** Arbitrary, fixed key of the session advisory lock that serialises migrations across replicas. */
const MIGRATION_LOCK_KEY = 72_640_301;

/**
 * Runs pending migrations under a PostgreSQL advisory lock, so replicas (or parallel test workers)
 * starting together migrate once: the first takes the lock and migrates, the others wait and then
 * find nothing pending. Embedded PGlite belongs to one process and its pool has a single connection
 * (docs/decisions/0024-dependency-pitfalls.md, 3): holding the lock on it would starve the migration
 * itself, so it migrates directly.
 */
export async function runMigrationsLocked(dataSource: DataSource, embedded: boolean): Promise<string[]> {
  if (embedded) {
    const ran = await dataSource.runMigrations({ transaction: 'each' });
    return ran.map((m) => m.name);
  }
  const runner = dataSource.createQueryRunner();
  await runner.connect();
  try {
    await runner.query('SELECT pg_advisory_lock($1)', [MIGRATION_LOCK_KEY]);
    try {
      const ran = await dataSource.runMigrations({ transaction: 'each' });
      return ran.map((m) => m.name);
    } finally {
      await runner.query('SELECT pg_advisory_unlock($1)', [MIGRATION_LOCK_KEY]);
    }
  } finally {
    await runner.release();
  }
}

import { QueryFailedError, type DataSource } from 'typeorm';
import { loadConfig } from '../config/app-config';
import { buildDataSourceOptions, createDataSource } from './data-source-options';
import { transactionManager, UnitOfWork, type Transaction } from './unit-of-work';

const deadlock = () => new QueryFailedError('UPDATE x', [], Object.assign(new Error('deadlock detected'), { code: '40P01' }));

describe('UnitOfWork', () => {
  let ds: DataSource;
  let uow: UnitOfWork;
  const rows = async () => ((await ds.query('SELECT n FROM uow_probe ORDER BY n')) as { n: number }[]).map((r) => r.n);

  beforeAll(async () => {
    ds = await createDataSource(buildDataSourceOptions(loadConfig({ DATABASE_URL: 'pglite://memory' }, []))).initialize();
    await ds.query('CREATE TABLE uow_probe (n integer)');
    uow = new UnitOfWork(ds);
  });
  afterAll(() => ds.destroy());
  beforeEach(() => ds.query('DELETE FROM uow_probe'));

  it('commits what the work wrote through its handle, and rolls all of it back when the work throws', async () => {
    await uow.run(async (tx) => {
      await transactionManager(tx).query('INSERT INTO uow_probe VALUES (1)');
      await transactionManager(tx).query('INSERT INTO uow_probe VALUES (2)');
    });
    expect(await rows()).toEqual([1, 2]);
    await expect(
      uow.run(async (tx) => {
        await transactionManager(tx).query('INSERT INTO uow_probe VALUES (3)');
        throw new Error('boom');
      }),
    ).rejects.toThrow('boom');
    expect(await rows()).toEqual([1, 2]);
  });

  it('refuses a handle once its transaction has ended', async () => {
    let kept: Transaction | undefined;
    await uow.run(async (tx) => {
      kept = tx;
    });
    expect(() => transactionManager(kept!)).toThrow('outside UnitOfWork.run');
  });

  it('repeats the work on deadlock only when asked to', async () => {
    let attempts = 0;
    const work = async (tx: Transaction) => {
      attempts++;
      await transactionManager(tx).query('INSERT INTO uow_probe VALUES ($1)', [attempts]);
      if (attempts === 1) throw deadlock();
      return attempts;
    };
    await expect(uow.run(work)).rejects.toBeInstanceOf(QueryFailedError);
    expect(attempts).toBe(1);
    attempts = 0;
    await expect(uow.run(work, { retryConflicts: true })).resolves.toBe(2);
    // The failed attempt's insert was rolled back with it.
    expect(await rows()).toEqual([2]);
  });

  it('gives up after four attempts', async () => {
    let attempts = 0;
    await expect(
      uow.run(
        async () => {
          attempts++;
          throw deadlock();
        },
        { retryConflicts: true },
      ),
    ).rejects.toBeInstanceOf(QueryFailedError);
    expect(attempts).toBe(4);
  });
});

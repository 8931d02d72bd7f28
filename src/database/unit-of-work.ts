import { Injectable } from '@nestjs/common';
import { DataSource, QueryFailedError, type EntityManager } from 'typeorm';

/**
 * A transaction in progress, as modules pass it to each other's public services: an opaque handle,
 * so no TypeORM type crosses a module API (docs/decisions/0026-inventory-module-and-unit-of-work.md).
 * Only repositories open it, with `transactionManager`.
 */
declare const transactionBrand: unique symbol;
export interface Transaction {
  readonly [transactionBrand]: true;
}

const managers = new WeakMap<Transaction, EntityManager>();

/** The EntityManager of `tx`, for repositories (persistence code) only. */
export function transactionManager(tx: Transaction): EntityManager {
  const manager = managers.get(tx);
  if (!manager) throw new Error('Transaction handle used outside UnitOfWork.run');
  return manager;
}

/** `tx`'s manager when given, else the DataSource's (a statement outside any transaction). */
export function managerOf(dataSource: DataSource, tx?: Transaction): EntityManager {
  return tx ? transactionManager(tx) : dataSource.manager;
}

const RETRYABLE = new Set(['40P01', '40001']);

export interface RunOptions {
  /** Run `work` again (up to 4 attempts) on deadlock or serialization failure; `work` must be safe to repeat. */
  retryConflicts?: boolean;
}

/** Runs work that spans modules in one database transaction; each module's repository takes the handle. */
@Injectable()
export class UnitOfWork {
  constructor(private readonly dataSource: DataSource) {}

  async run<T>(work: (tx: Transaction) => Promise<T>, options: RunOptions = {}): Promise<T> {
    for (let attempt = 1; ; attempt++) {
      try {
        return await this.dataSource.transaction(async (manager) => {
          const tx = {} as Transaction;
          managers.set(tx, manager);
          try {
            return await work(tx);
          } finally {
            // A handle kept past its transaction must not run statements on a finished manager.
            managers.delete(tx);
          }
        });
      } catch (err) {
        const code = err instanceof QueryFailedError ? (err.driverError as { code?: string }).code : undefined;
        if (!options.retryConflicts || attempt >= 4 || !code || !RETRYABLE.has(code)) throw err;
      }
    }
  }
}

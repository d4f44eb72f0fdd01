import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type PostgresServer, startPostgres } from '../../testing/servers.ts';
import { PostgresSql } from './postgres.ts';

let postgres: PostgresServer;
beforeAll(async () => {
  postgres = await startPostgres();
}, 60_000);
afterAll(async () => {
  await postgres?.close();
});

describe('PostgresSql when PostgreSQL stops mid-transaction', () => {
  it('fails the transaction, and the lost connection of its checked-out client is no uncaught error', async () => {
    const sql = new PostgresSql(await postgres.createDatabase('lost_mid_transaction'));
    let stopped = false;
    let caught: unknown;
    // process-level: an 'error' event nobody listens to would land here (and fail the run as an unhandled error).
    const uncaught: unknown[] = [];
    const record = (error: unknown) => uncaught.push(error);
    process.on('uncaughtException', record);
    try {
      await sql.transaction(async (tx) => {
        await tx.run('CREATE TABLE t (n INT)');
        // The server goes away while this client is checked out and idle between two statements.
        await postgres.stop();
        stopped = true;
        await new Promise((resolve) => setTimeout(resolve, 200));
        await tx.run('INSERT INTO t VALUES (1)');
      });
    } catch (error) {
      caught = error;
    } finally {
      process.off('uncaughtException', record);
      if (stopped) await postgres.start();
    }
    expect(caught).toBeInstanceOf(Error);
    expect(uncaught).toEqual([]);
    // The pool serves again once the server is back.
    expect(await sql.healthy()).toBe(true);
    await sql.close();
  }, 60_000);
});

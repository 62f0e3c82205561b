import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { type PostgresServer, startPostgresServer } from '@boardbot/test-support';
import postgres from 'postgres';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { killLoop } from './support/kill-loop.js';
import { useScenario } from './support/scenario.js';

// The kill loop of kill-restart.test.ts with the bot's resume point and sessions in PostgreSQL
// (@boardbot/postgres) instead of its state directory: a real server, the bot a real process
// killed with SIGKILL 20 times at random moments.

const openScenario = useScenario();
let server: PostgresServer;
beforeAll(async () => {
  server = await startPostgresServer();
}, 60_000);
afterAll(() => server?.close());

describe('a bot whose resume point is in PostgreSQL, killed with SIGKILL at random moments', () => {
  it('answers every message and command exactly once, in order per board, across 20 kills', async () => {
    const s = await openScenario();
    const boards = ['general', 'random', 'ops'];
    await killLoop(
      s,
      { kills: 20, messages: 600, commands: 150, boards },
      {
        POSTGRES_URL: server.url,
        POSTGRES_SCHEMA: 'restart',
      },
    );

    // The point was in PostgreSQL, not in the state directory.
    expect(existsSync(join(s.stateDir, 'positions'))).toBe(false);
    const sql = postgres(server.url);
    try {
      const [row] = await sql`SELECT app_id, event_id FROM restart.boardbot_positions`;
      expect(row).toMatchObject({ app_id: s.platform.bot.app.id, event_id: expect.stringMatching(/^\d+$/) });
    } finally {
      await sql.end();
    }
  }, 300_000);
});

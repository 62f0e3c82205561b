import { describe, it } from 'vitest';
import { killLoop } from './support/kill-loop.js';
import { useScenario } from './support/scenario.js';

// CONTRACT (docs/production.md): delivery at least once, effects exactly once, order per board.
// The bot is a real process killed with SIGKILL at random moments; the emulator is real, over loopback.

const openScenario = useScenario();

describe('a bot killed with SIGKILL at random moments', () => {
  it('answers every message and command exactly once, in order per board, across 22 kills', async () => {
    const boards = ['general', 'random', 'ops', 'lounge'];
    await killLoop(await openScenario(), { kills: 22, messages: 2000, commands: 500, boards });
  }, 300_000);
});

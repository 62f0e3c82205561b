import { EventSource } from 'eventsource';
import { fetch } from 'undici';

// A stand-in for examples/dice while that example does not exist yet: it plays the dice bot's part
// honestly over the real app API (no mocks): it registers /roll, follows the gateway with its token
// and answers each invocation through the interaction token. Swap it for examples/dice once that
// lands.

/** The /roll registration of the dice bot: an optional integer `sides`, 2..1000. */
export const ROLL_COMMAND = {
  name: 'roll',
  description: 'Roll a die',
  options: [
    {
      name: 'sides',
      description: 'Sides on the die',
      type: 'integer',
      required: false,
      min_value: 2,
      max_value: 1000,
    },
  ],
} as const;

/** A running test bot. */
export interface DiceBot {
  /** Rolls answered so far: the sides asked and the number rolled. */
  readonly rolls: readonly { sides: number; result: number }[];
  /** Closes the gateway stream. */
  stop(): void;
}

interface GatewayInteraction {
  token: string;
  command: { name: string; options: Record<string, unknown> };
}

/**
 * Starts the dice bot against an emulator's app API.
 *
 * @param apiUrl - the app API base, e.g. `http://127.0.0.1:PORT/api/v1`.
 * @param token - the app token (the seed's dev token).
 * @param random - the die, injectable so tests can predict a roll.
 */
export async function startDiceBot(
  apiUrl: string,
  token: string,
  random: () => number = Math.random,
): Promise<DiceBot> {
  const auth = { authorization: `Bearer ${token}` };
  const put = await fetch(`${apiUrl}/app/commands`, {
    method: 'PUT',
    headers: { ...auth, 'content-type': 'application/json' },
    body: JSON.stringify([ROLL_COMMAND]),
  });
  if (put.status !== 200) throw new Error(`PUT /app/commands answered ${put.status}: ${await put.text()}`);

  const rolls: { sides: number; result: number }[] = [];
  const answer = async (interaction: GatewayInteraction) => {
    if (interaction.command.name !== 'roll') return;
    const sides = typeof interaction.command.options.sides === 'number' ? interaction.command.options.sides : 6;
    const result = 1 + Math.floor(random() * sides);
    rolls.push({ sides, result });
    await fetch(`${apiUrl}/interactions/${interaction.token}`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ content: `You rolled **${result}** (d${sides})` }),
    });
  };

  const source = new EventSource(`${apiUrl}/gateway`, {
    fetch: (input, init) => fetch(input, { ...init, headers: { ...init.headers, ...auth } }),
  });
  await new Promise<void>((resolve, reject) => {
    source.addEventListener('ready', () => resolve(), { once: true });
    source.addEventListener('error', (e) => reject(new Error(`gateway failed: ${e.message ?? 'no detail'}`)), {
      once: true,
    });
  });
  source.addEventListener('interaction.create', (frame) => {
    const { interaction } = JSON.parse(frame.data) as { interaction: GatewayInteraction };
    void answer(interaction);
  });
  return { rolls, stop: () => source.close() };
}

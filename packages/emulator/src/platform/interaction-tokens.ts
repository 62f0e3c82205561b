import { createHmac } from 'node:crypto';
import type { InteractionCreateEvent } from '@boardbot/protocol';

/** Name of the secret the tokens derive from, in the `secrets` table. */
export const INTERACTION_TOKEN_SECRET = 'interaction-token';

/**
 * Interaction tokens without a token at rest. CONTRACT: a token is an opaque base64url string of at
 * least 32 random bytes; here it is the HMAC-SHA256 of the interaction's id under the emulator's
 * secret (32 pseudo-random bytes, 43 characters), so the platform stores only its SHA-256 (to find
 * the interaction) and the `interaction.create` event without it, and puts it back, identical, when
 * the event is pushed live or replayed to the app.
 */
export class InteractionTokens {
  /** @param secret - The emulator's secret (see `SecretRepository`). */
  constructor(private readonly secret: string) {}

  /** The token of the interaction `id`. */
  tokenOf(id: string): string {
    return createHmac('sha256', this.secret).update(`interaction:${id}`).digest('base64url');
  }

  /**
   * The `data:` JSON of an `interaction.create` event as the app receives it: the stored event (no
   * token) with the interaction's token added last, exactly as it was sent live.
   */
  withToken(storedData: string): string {
    const event = JSON.parse(storedData) as InteractionCreateEvent;
    const { token: _none, ...interaction } = event.interaction;
    return JSON.stringify({ ...event, interaction: { ...interaction, token: this.tokenOf(interaction.id) } });
  }
}

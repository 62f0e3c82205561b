import type { Message } from '@boardbot/protocol';

/** The answer of a command invocation, as the control API shows it. */
export interface InvocationView {
  interaction: { id: string; command: { name: string; subcommand: string | null } };
  status: 'pending' | 'answered' | 'expired';
  answers: Message[];
}

/** A control API call that failed: the status, the contract's error code and the details. */
export class ControlApiError extends Error {
  /**
   * @param status - HTTP status
   * @param apiCode - `error.code` of the envelope
   * @param message - the server's message and details
   */
  constructor(
    readonly status: number,
    readonly apiCode: string,
    message: string,
  ) {
    super(message);
    this.name = 'ControlApiError';
  }
}

/**
 * The few control API calls the CLI makes (docs/control-api.md), as a person of the emulator. The
 * admin key goes in the `Authorization` header only, never in a message.
 */
export class ControlClient {
  /**
   * @param controlUrl - `{origin}/_emulator/v1`
   * @param adminKey - the emulator's admin key
   * @param fetchImpl - the fetch to use @defaultValue the global fetch
   */
  constructor(
    private readonly controlUrl: string,
    private readonly adminKey: string,
    private readonly fetchImpl: typeof fetch = fetch,
  ) {}

  private async call<T>(method: string, path: string, body?: unknown): Promise<T> {
    const res = await this.fetchImpl(`${this.controlUrl}${path}`, {
      method,
      headers: {
        authorization: `Bearer ${this.adminKey}`,
        ...(body === undefined ? {} : { 'content-type': 'application/json' }),
      },
      ...(body === undefined ? {} : { body: JSON.stringify(body) }),
    });
    const text = await res.text();
    const json = text ? (JSON.parse(text) as unknown) : undefined;
    if (!res.ok) {
      const error = (
        json as { error?: { code?: string; message?: string; details?: { path: string; message: string }[] } }
      )?.error;
      const serverMessage = error?.message ?? text;
      // The emulator's message often lists the details already; repeat only what it does not say.
      const details = (error?.details ?? [])
        .map((d) => `${d.path}: ${d.message}`)
        .filter((d) => !serverMessage.includes(d.split(': ')[1] ?? d))
        .join('; ');
      throw new ControlApiError(
        res.status,
        error?.code ?? 'unknown',
        `${method} ${path} answered ${res.status} ${error?.code ?? ''}: ${serverMessage}${details ? ` (${details})` : ''}`,
      );
    }
    return json as T;
  }

  /** Users and boards, to turn names into ids. */
  state(): Promise<{ users: { id: string; username: string }[]; boards: { id: string; name: string }[] }> {
    return this.call('GET', '/state');
  }

  /** Invokes a registered command as a user on a board; resolves with the interaction id. */
  async invoke(body: {
    board_id: string;
    user_id: string;
    command: string;
    subcommand?: string;
    options: Record<string, string>;
  }): Promise<string> {
    const { interaction } = await this.call<{ interaction: { id: string } }>('POST', '/interactions', body);
    return interaction.id;
  }

  /** Waits up to `timeoutMs` for a first answer, then shows the interaction as it is. */
  wait(interactionId: string, timeoutMs: number): Promise<InvocationView> {
    return this.call('GET', `/interactions/${interactionId}/wait?answers=1&timeout_ms=${timeoutMs}`);
  }
}

import pinoPretty, { type PrettyOptions } from 'pino-pretty';
import { terminalError } from './terminal-error.js';

/** The terminal transport's options: pino-pretty's, and whether boardbot errors show their stack. */
export interface TerminalLogOptions extends PrettyOptions {
  /** Show the stack of a `BOARDBOT_*` error too (the log is at debug or below). @defaultValue false */
  stacks?: boolean;
}

/** How many characters of an id the terminal shows, after `…`. */
const SHOWN = 6;

/**
 * An id as the terminal shows it: `…` and its last six characters (`…4e5f6a`), enough to tell the
 * ids of a session apart and to find the line in a JSON log. The end, not the start: the platform's
 * ids are UUID v7, whose first characters are the time they were made, the same for ids made
 * together. Short values (`event_id` 57) and values that are not strings stay as they are.
 *
 * @param value - a field's value
 */
export function shortId(value: unknown): unknown {
  return typeof value === 'string' && value.length > SHOWN * 2 ? `…${value.slice(-SHOWN)}` : value;
}

/**
 * pino-pretty's prettifiers of the terminal format: `given`'s, and every other field named `*_id`
 * through {@link shortId}. pino-pretty looks a field's prettifier up by its name, so one object
 * answers for every name that ends in `_id` (the runtime's `board_id`, `app_id`…, and a handler's own).
 */
type Prettifiers = NonNullable<PrettyOptions['customPrettifiers']>;

function idPrettifiers(given: Prettifiers = {}): Prettifiers {
  return new Proxy(given, {
    get: (target, key, receiver) => {
      const own: unknown = Reflect.get(target, key, receiver);
      if (own !== undefined || typeof key !== 'string' || !key.endsWith('_id')) return own;
      return shortId;
    },
  });
}

/**
 * The transport of the bot's terminal log (pino loads it in its worker by this file's path):
 * pino-pretty with the ids shortened and an error as one block (`terminal-error.ts`). A prettifier
 * is a function, which pino cannot send to its worker in a transport's options, hence a module of
 * its own. In JSON logs the ids and errors stay whole.
 *
 * @param options - pino-pretty's options ({@link TERMINAL_LOG_FORMAT} by default), and `stacks`
 */
export default function terminalLog({ stacks = false, ...options }: TerminalLogOptions): ReturnType<typeof pinoPretty> {
  const err = (value: unknown) => terminalError(value, stacks);
  return pinoPretty({ ...options, customPrettifiers: idPrettifiers({ err, ...options.customPrettifiers }) });
}

import { InvalidOptionError } from '../../errors.js';

/** What `boardTools(ctx, options)` takes: the bounds of what its tools read and write in a turn. */
export interface BoardKitOptions {
  /** Most messages one read gives the model (recent messages, a thread, a search's matches). @defaultValue 20 */
  maxMessages?: number;
  /** Most characters of one message's text the model gets; a longer one is cut, ending in `…`. @defaultValue 500 */
  maxChars?: number;
  /**
   * Most messages a thread read or a search scans back from a board's newest (the platform has no
   * thread or search endpoint); the model may ask for fewer, never more. @defaultValue 200
   */
  maxScan?: number;
  /** Most members `list_members` gives. @defaultValue 50 */
  maxMembers?: number;
  /** Writes (posts and edits and deletes together) one turn may make; the next is refused. @defaultValue 3 */
  maxWrites?: number;
  /**
   * Whether each write tool asks for a person's approval before it runs (the AI SDK's `needsApproval`):
   * the model's call stops the turn with an approval request instead of writing. @defaultValue true
   */
  needsApproval?: boolean;
  /** Whether the write tools are given at all; without, the kit only reads. @defaultValue true */
  writes?: boolean;
}

/** The defaults of {@link BoardKitOptions}. */
export const DEFAULT_BOARD_KIT_OPTIONS = {
  maxMessages: 20,
  maxChars: 500,
  maxScan: 200,
  maxMembers: 50,
  maxWrites: 3,
  needsApproval: true,
  writes: true,
} as const satisfies Required<BoardKitOptions>;

/** Each bound's range: big enough for any use, small enough that a model's input stays bounded. */
const RANGES = {
  maxMessages: [1, 100],
  maxChars: [20, 4000],
  maxScan: [1, 10_000],
  maxMembers: [1, 1000],
  maxWrites: [0, 100],
} as const;

/**
 * The options with their defaults, checked.
 * @param options - what the author gave
 * @throws InvalidOptionError naming a bound out of its range
 */
export function resolveKitOptions(options: BoardKitOptions): Required<BoardKitOptions> {
  const o = { ...DEFAULT_BOARD_KIT_OPTIONS, ...options };
  for (const [name, [min, max]] of Object.entries(RANGES)) {
    const value = o[name as keyof typeof RANGES];
    if (!Number.isInteger(value) || value < min || value > max) {
      throw new InvalidOptionError(`boardTools: ${name} must be an integer from ${min} to ${max} (got ${value}).`);
    }
  }
  return o;
}

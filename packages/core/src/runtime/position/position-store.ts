/**
 * Where a bot is in its event stream: the resume point it reconnects from after a restart.
 * CONTRACT: gateway event ids are decimal, strictly increasing per app; message `seq` per board.
 */
export interface Position {
  /**
   * The low-water mark of finished events: every gateway event up to this id has had all its
   * handlers finish (later ones may have finished too). The gateway resumes after it.
   */
  eventId: string | undefined;
  /** Per board, the low-water mark of handled `message.create` events, by message `seq`. */
  boards: Record<string, number>;
  /** When the position was recorded (epoch ms); a board without a mark is backfilled from here. */
  savedAt: number;
}

/** Names one bot's position: the same app on another platform (API URL) has its own. */
export interface PositionKey {
  apiUrl: string;
  appId: string;
}

/**
 * Stores positions. The runtime loads one at start and saves the low-water mark as handlers
 * finish (batched: see `positionFlushMs`); `@boardbot/redis` implements it for replicas.
 */
export interface PositionStore {
  /** A short description for logs (`file .boardbot/positions/…`, `memory`, `redis …`). */
  readonly description: string;
  /** The stored position, or undefined when there is none (a first start). */
  load(key: PositionKey): Promise<Position | undefined>;
  /** Replaces the stored position; never leaves a torn record behind. */
  save(key: PositionKey, position: Position): Promise<void>;
  /** Releases what the store holds (files, connections). */
  close?(): Promise<void>;
}

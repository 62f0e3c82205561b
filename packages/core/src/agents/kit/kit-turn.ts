import type { Member } from '@boardbot/protocol';
import { BoardNotOpenError, ToolWritesSpentError } from '../../errors.js';
import type { BotRest } from '../../kernel/ports.js';
import { type HandlerRun, writeKey } from '../../kernel/run.js';
import { boardMembers } from '../board-members.js';

// The writes a run's kit tools made, by run: a turn's bound holds however many times the handler
// calls boardTools(ctx). Weak: nothing outlives the run.
const written = new WeakMap<HandlerRun, { count: number }>();

/**
 * What the board kit's tools of one turn share: whom they act for, the boards that person can open
 * (each board's members read once per turn), and the turn's writes, counted and keyed.
 */
export class KitTurn {
  private readonly boards = new Map<string, Promise<Member[] | undefined>>();
  private readonly writes: { count: number };

  /**
   * @param rest - the run's client (its correlation id, signal and rate limit)
   * @param run - the asking run: its writes' keys derive from its event
   * @param askerId - the asking person: the tools open only the boards they are a member of
   * @param maxWrites - the turn's bound on writes
   */
  constructor(
    readonly rest: BotRest,
    private readonly run: HandlerRun,
    readonly askerId: string,
    private readonly maxWrites: number,
  ) {
    const writes = written.get(run) ?? { count: 0 };
    written.set(run, writes);
    this.writes = writes;
  }

  /**
   * The members of a board the asking person is a member of, read through the app's client; a board
   * they are not on (or the app is not on, or no board by that id) is refused.
   * @param tool - the tool asking, for the error
   * @param boardId - the board
   * @throws BoardNotOpenError, which the AI SDK gives the model as the tool's error
   */
  async open(tool: string, boardId: string): Promise<Member[]> {
    let members = this.boards.get(boardId);
    if (members === undefined) {
      members = boardMembers(this.rest, boardId);
      this.boards.set(boardId, members);
    }
    const found = await members;
    if (!found?.some((m) => m.user.id === this.askerId)) throw new BoardNotOpenError(tool, boardId);
    return found;
  }

  /**
   * The idempotency key of the turn's next write, or a refusal past the bound. Keys are the run's
   * (its event's key basis and handler, as every write of the run) with the write's place among the
   * turn's kit writes: the same event handled again (a retry, a restart) sends the same keys, and the
   * platform replays instead of writing twice. Never the model's tool-call id, which a real model
   * makes anew on every call.
   * @param tool - the tool writing, for the error
   * @throws ToolWritesSpentError past `maxWrites`
   */
  nextWriteKey(tool: string): string {
    if (this.writes.count >= this.maxWrites) throw new ToolWritesSpentError(tool, this.maxWrites);
    const { keyBasis, handler } = this.run;
    return writeKey({ keyBasis: `${keyBasis}/kit`, handler }, this.writes.count++);
  }
}

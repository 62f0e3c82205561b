/** Which kind of handler ran: a slash command, a message listener, or an event listener. */
export type HandlerKind = 'command' | 'message' | 'event';

/**
 * How a handler run ended: it returned (`ok`), threw (`error`), outlived `handlerTimeoutMs`
 * (`timeout`), was abandoned at shutdown (`abandoned`), stopped on a write an earlier run of the
 * same event had already applied (`already_applied`), or was cancelled by a newer message of its burst
 * (`cancelled`, burst `'latest'`).
 */
export type HandlerOutcome = 'ok' | 'error' | 'timeout' | 'abandoned' | 'already_applied' | 'cancelled';

/**
 * What a burst policy did: held a new burst, skipped messages (`ctx.skipped`, or dropped), cancelled a
 * run, or released messages past a burst's cap unread (counted as skipped too).
 */
export type BurstCount = 'held' | 'skipped' | 'cancelled' | 'released';

/** What an agent's approvals count: a request posted, or how one was decided (`ignored`: a non-approver's answer). */
export type AgentCount = 'requested' | 'approved' | 'denied' | 'timeout' | 'cancelled' | 'ignored';

/**
 * What the runtime tells the metrics as events and handlers go by (the rest is read when scraped).
 * Only the bot's health module implements it, loaded on demand: a bot without `health` pays one
 * `undefined` check per call site.
 */
export interface MetricsSink {
  /**
   * A gateway event was received and queued.
   * @param name - its wire name (`other` for an event the runtime does not know)
   * @param id - its gateway id, when it has one (not a backfilled message)
   */
  eventReceived(name: string, id: string | undefined): void;
  /**
   * A handler run ended.
   * @param handler - `Class.method`
   * @param kind - command, message or event listener
   * @param outcome - how it ended
   * @param seconds - how long it ran
   */
  handlerEnded(handler: string, kind: HandlerKind, outcome: HandlerOutcome, seconds: number): void;
  /**
   * Messages missed during a gateway gap were read back over REST and queued.
   * @param messages - how many
   */
  backfilled(messages: number): void;
  /**
   * The intake reached its high-water mark and the gateway stopped reading (`paused`), or fell to the
   * low-water mark and reads on.
   * @param paused - whether the gateway is paused now
   */
  intakeBackpressure?(paused: boolean): void;
  /**
   * New messages of a board over its share of the intake were set aside, to be read back later.
   * @param count - how many
   */
  intakeSetAside?(count: number): void;
  /**
   * A listener's burst policy held a new burst, skipped messages or cancelled a run.
   * @param handler - `Class.method`
   * @param what - which
   * @param count - how many
   */
  burst?(handler: string, what: BurstCount, count: number): void;
  /**
   * A broadcast handled boards: sent them its message, or recorded the platform's refusal.
   * @param outcome - which
   * @param count - how many
   */
  broadcast?(outcome: 'sent' | 'failed', count: number): void;
  /**
   * An agent's approval request was posted, or a request was decided (`@boardbot/core/agents`).
   * @param agent - the agent's name
   * @param what - `requested`, or the decision
   */
  agentApproval?(agent: string, what: AgentCount): void;
}

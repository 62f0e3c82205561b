import { GatewayClient } from '@boardbot/gateway';
import type { Message as BoardMessage } from '@boardbot/protocol';
import type { RestClient } from '@boardbot/rest';
import type { Adapter, ChatInstance } from 'chat';
import { BoardHistory } from './history/board-history.js';
import { MessageIndex } from './history/message-index.js';
import { Intake } from './intake/intake.js';
import { Progress } from './intake/progress.js';
import { fromChatLogger } from './logger.js';
import type { ResolvedBoardAdapterOptions } from './options.js';
import { People } from './people.js';
import type { BoardFormatConverter } from './render.js';
import { ADAPTER_NAME, channelIdOf } from './thread-id.js';
import { Poster } from './writes/poster.js';

/** The adapter's parts once Chat has initialized it. */
export interface Connected {
  /** The bot user: its id, and the username `@<username>` mentions. */
  me: { id: string; userName: string };
  people: People;
  index: MessageIndex;
  poster: Poster;
  history: BoardHistory;
  gateway: GatewayClient;
  intake: Intake;
}

/** What connecting needs from the adapter. */
export interface ConnectDeps {
  chat: ChatInstance;
  adapter: Adapter<unknown, BoardMessage>;
  rest: RestClient;
  format: BoardFormatConverter;
  options: ResolvedBoardAdapterOptions;
}

/**
 * Connects the adapter: reads the app and its bot user, registers the configured commands, releases
 * the thread locks a process that died mid-event left, then opens the event stream from the resume
 * point kept in Chat's state and starts handing events to Chat.
 * @param deps - Chat, the adapter and its clients
 */
export async function connect({ chat, adapter, rest, format, options }: ConnectDeps): Promise<Connected> {
  const logger = fromChatLogger(chat.getLogger(ADAPTER_NAME));
  const app = await rest.getApp();
  const bot = await rest.getUser(app.bot_user_id);
  if (options.commands !== undefined) await rest.replaceCommands(options.commands);

  const state = chat.getState();
  const prefix = `boardbot:chat:${app.id}:`;
  const progress = await Progress.load(state, prefix, options.stateTtlMs);
  // One process reads an app's stream: a lock on a thread it was handling when it died is stale.
  for (const threadId of await progress.takeAbandoned()) {
    await state.forceReleaseLock(threadId);
    await state.forceReleaseLock(channelIdOf(threadId));
  }
  const index = new MessageIndex(state, prefix, options.stateTtlMs, rest, app.bot_user_id, options.maxScan);
  const people = new People(rest, app.bot_user_id);
  const gateway = new GatewayClient({
    token: options.token,
    baseUrl: options.baseUrl,
    lastEventId: progress.resumeFrom,
    logger,
  });
  gateway.on('gap', ({ lastEventId }) =>
    logger.warn({ lastEventId }, 'events after the resume point are no longer kept by the platform: they were missed'),
  );
  // The ready event's own id, taken as it is delivered: events behind it may follow at once.
  let cursor = '';
  gateway.once('ready', (_ready, { id }) => {
    cursor = id;
  });
  await gateway.connect();
  await progress.startAt(cursor);
  const intake = new Intake({
    chat,
    adapter: adapter as Adapter,
    gateway,
    index,
    progress,
    people,
    format,
    botUserId: app.bot_user_id,
    userName: bot.username,
    logger,
    maxInFlight: options.maxInFlight,
  });
  intake.start();
  return {
    me: { id: app.bot_user_id, userName: bot.username },
    people,
    index,
    poster: new Poster(rest, index),
    history: new BoardHistory(rest, people, format, options.maxScan),
    gateway,
    intake,
  };
}

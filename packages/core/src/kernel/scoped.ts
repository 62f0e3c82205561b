import type { App, Logger } from '@boardbot/protocol';
import type { HandlerRun } from './run.js';
import type { Services } from './services.js';

/** Who and where a handler run acts for: what keys a session or a conversation. */
export interface RunSubject {
  /** The person (the message's author, the command's user); undefined for events and webhooks. */
  userId: string | undefined;
  /** The board; undefined for events that concern none. */
  boardId: string | undefined;
}

/** What a context hands a {@link Scoped} definition when a handler opens it. */
export interface OpenScope extends RunSubject {
  app: App;
  services: Services;
  run: HandlerRun;
  log: Logger;
  now: () => number;
}

/**
 * Something a handler opens for the person and board it serves through `ctx.session(definition)`: a
 * session (`defineSession`) or a conversation (`defineConversation`). The kernel only passes the
 * scope; what is opened lives in its own feature.
 */
export interface Scoped<H> {
  /** Opens the handle for one run. */
  open(scope: OpenScope): H;
}

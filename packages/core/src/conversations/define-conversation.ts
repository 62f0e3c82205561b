import { InvalidHandlerError } from '../errors.js';
import type { Class } from '../kernel/metadata.js';
import type { OpenScope, Scoped } from '../kernel/scoped.js';
import type { MessageContext } from '../listeners/context.js';
import { OnMessage } from '../listeners/on-message.js';
import { defineSession, type SessionDefinition } from '../sessions/define-session.js';
import { recordAnswerClasses } from './answer-classes.js';
import { answerOption } from './check-answer.js';
import { type ConversationHandle, ConversationHandleImpl } from './conversation-handle.js';
import { type ConversationOptions, ConversationState } from './conversation-state.js';
import { DEFAULT_CANCEL_REPLY, defaultTimeoutReply, defaultTriesReply } from './conversation-texts.js';
import type { QuestionInput } from './question.js';

export { type ConversationEnd, type ConversationOptions, ConversationState } from './conversation-state.js';

/** A conversation: opened with `ctx.session()`, resumed by its `listener` handler class. */
export interface ConversationDefinition extends Scoped<ConversationHandle> {
  readonly options: Required<ConversationOptions<readonly QuestionInput[]>>;
  readonly session: SessionDefinition<ConversationState>;
  /** The handler class that takes each next message as an answer: add it to `createBot({ handlers })`. */
  readonly listener: Class;
}

/**
 * Declares a multi-step conversation. It is never a promise waiting inside a handler (that would
 * hold the board's ordering slot and its resume point): its state is kept in the session store, and
 * the person's next message on the board, handled like any other, resumes it, in this process or
 * another, before or after a restart.
 *
 * @param options - the questions, what to do with the answers, timeout and cancellation
 * @example
 * const Standup = defineConversation({ name: 'standup', questions: ['Yesterday?', 'Today?'], done: (ctx, a) => a.join(' / ') });
 * createBot({ token, handlers: [StartStandup, Standup.listener] });
 */
export function defineConversation<const Q extends readonly QuestionInput[]>(
  options: ConversationOptions<Q>,
): ConversationDefinition {
  const full: Required<ConversationOptions<Q>> = {
    timeoutMs: 10 * 60_000,
    timeoutReply: defaultTimeoutReply(options.name),
    cancelWords: ['cancel'],
    cancelReply: DEFAULT_CANCEL_REPLY,
    maxTries: 3,
    triesReply: defaultTriesReply(options.name),
    ...options,
  };
  if (!Number.isInteger(full.maxTries) || full.maxTries < 1) {
    throw new InvalidHandlerError(
      `defineConversation('${options.name}'): maxTries is ${full.maxTries}; give a whole number of at least 1`,
    );
  }
  // An answer class that cannot check an answer fails here, at start-up, not at the first answer.
  for (const question of full.questions) {
    if (typeof question === 'object' && 'answer' in question) answerOption(question.answer);
  }
  const session = defineSession(ConversationState, {
    per: 'user-on-board',
    name: `conversation:${options.name}`,
    ttlMs: full.timeoutMs * (full.questions.length + 1),
  });
  const definition: ConversationDefinition = {
    session,
    // `done`'s answers are typed for the caller; here each is whatever its question's parse returned.
    options: full as unknown as Required<ConversationOptions<readonly QuestionInput[]>>,
    open: (scope: OpenScope) => new ConversationHandleImpl(definition.options, session.open(scope), scope),
    listener: conversationListener(() => definition, options.name),
  };
  recordAnswerClasses(definition.listener, full.questions);
  return definition;
}

function conversationListener(definition: () => ConversationDefinition, name: string): Class {
  class ConversationListener {
    // After the message's other listeners: one that starts this conversation with this very message
    // has then written `startedBy`, so the message is not taken as an answer to the one under way.
    @OnMessage(undefined, { afterOthers: true })
    answer(ctx: MessageContext): Promise<unknown> {
      return ctx.session(definition()).resume(ctx);
    }
  }
  Object.defineProperty(ConversationListener, 'name', { value: `Conversation(${name})` });
  return ConversationListener;
}

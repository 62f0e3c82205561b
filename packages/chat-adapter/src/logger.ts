import type { LogFn, Logger } from '@boardbot/protocol';
import type { Logger as ChatLogger } from 'chat';

type Level = 'debug' | 'info' | 'warn' | 'error';

/**
 * Chat SDK's logger in the shape boardbot's clients log through (pino's `(bindings, message)`), so
 * the REST and gateway clients' lines go where the Chat instance sends its own.
 * @param chat - the logger `chat.getLogger()` gives the adapter
 * @param bindings - fields every line carries
 */
export function fromChatLogger(chat: ChatLogger, bindings: Record<string, unknown> = {}): Logger {
  const at =
    (level: Level): LogFn =>
    (first: string | object, message?: string) => {
      if (typeof first === 'string') chat[level](first, bindings);
      else chat[level](message ?? '', { ...bindings, ...first });
    };
  return {
    trace: at('debug'),
    debug: at('debug'),
    info: at('info'),
    warn: at('warn'),
    error: at('error'),
    child: (more) => fromChatLogger(chat, { ...bindings, ...more }),
  };
}

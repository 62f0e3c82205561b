import type { MessageWhy } from '@boardbot/emulator/control';
import { useEffect, useState } from 'preact/hooks';
import { eventSummary } from '../why-format.js';

/** Props of {@link WhyPanel}. */
export interface WhyPanelProps {
  messageId: string;
  /** Reads what produced the message (the control API's `.../why`). */
  load(): Promise<MessageWhy>;
}

/**
 * What produced a bot's message, as the emulator saw it: the event the handler ran for, the handler
 * (named by the bot in `baggage`), and the REST calls of the same request or trace with their statuses
 * and durations.
 */
export function WhyPanel({ messageId, load }: WhyPanelProps) {
  const [why, setWhy] = useState<MessageWhy | undefined>(undefined);
  const [error, setError] = useState<string | undefined>(undefined);
  // Read once each time the panel opens: what the emulator saw of a message does not change after.
  useEffect(() => {
    load().then(setWhy, (e: unknown) => setError(e instanceof Error ? e.message : String(e)));
  }, [messageId]);

  return (
    <section class="why" id={`why-${messageId}`} aria-label="Why this answer">
      {error && <p role="alert">{error}</p>}
      {!why && !error && <p>Reading what the emulator saw…</p>}
      {why && why.calls.length === 0 && (
        <p>The emulator saw no call that created this message (it remembers the last few thousand).</p>
      )}
      {why && why.calls.length > 0 && (
        <>
          <dl class="why-facts">
            <dt>Handler</dt>
            <dd>{why.handler ?? 'not named by the bot'}</dd>
            <dt>Event</dt>
            <dd>{why.event ? eventSummary(why.event) : 'not named by the bot'}</dd>
            {why.request_id && (
              <>
                <dt>Request id</dt>
                <dd>
                  <code>{why.request_id}</code>
                </dd>
              </>
            )}
            {why.trace_id && (
              <>
                <dt>Trace id</dt>
                <dd>
                  <code>{why.trace_id}</code>
                </dd>
              </>
            )}
          </dl>
          <table class="why-calls">
            <caption>REST calls, as the emulator answered them</caption>
            <thead>
              <tr>
                <th scope="col">Call</th>
                <th scope="col">Status</th>
                <th scope="col">Time</th>
                <th scope="col">Handler</th>
              </tr>
            </thead>
            <tbody>
              {why.calls.map((call) => (
                <tr
                  key={`${call.at}-${call.span_id ?? ''}-${call.route}`}
                  class={call.message_id === messageId ? 'is-creator' : ''}
                >
                  <td>
                    <code>
                      {call.method} {call.route}
                    </code>
                  </td>
                  <td>{call.status}</td>
                  <td>{call.duration_ms} ms</td>
                  <td>{call.handler ?? '—'}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </>
      )}
    </section>
  );
}

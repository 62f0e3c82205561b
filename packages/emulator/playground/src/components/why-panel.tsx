import type { MessageWhy } from '@boardbot/emulator/control';
import { useEffect, useState } from 'preact/hooks';
import { editPreview, eventSummary } from '../why-format.js';

/** Props of {@link WhyPanel}. */
export interface WhyPanelProps {
  messageId: string;
  /** Changes whenever the message does (its `edited_at`): a streamed answer's panel follows its edits. */
  version?: string | null | undefined;
  /** Reads what produced the message (the control API's `.../why`). */
  load(): Promise<MessageWhy>;
}

/**
 * What produced a bot's message, as the emulator saw it: the event the handler ran for, the handler
 * (named by the bot in `baggage`), and the REST calls of the same request or trace with their statuses
 * and durations; and the message's edits, oldest first (a streamed answer growing), each with the run
 * that sent it.
 */
export function WhyPanel({ messageId, version, load }: WhyPanelProps) {
  const [why, setWhy] = useState<MessageWhy | undefined>(undefined);
  const [error, setError] = useState<string | undefined>(undefined);
  // Read when the panel opens, and again at each edit of the message (a streamed answer grows while
  // the panel is open); what the emulator saw of an unedited message does not change.
  useEffect(() => {
    load().then(setWhy, (e: unknown) => setError(e instanceof Error ? e.message : String(e)));
  }, [messageId, version]);

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
          {why.edits.length > 0 && (
            <table class="why-calls why-edits">
              <caption>Edits, oldest first: {why.edits.length} (the answer as each one left it)</caption>
              <thead>
                <tr>
                  <th scope="col">#</th>
                  <th scope="col">Text</th>
                  <th scope="col">Status</th>
                  <th scope="col">Request id</th>
                </tr>
              </thead>
              <tbody>
                {why.edits.map((edit, i) => (
                  <tr key={`${edit.at}-${edit.span_id ?? ''}-${i}`}>
                    <td>{i + 1}</td>
                    <td class="why-edit-text">{editPreview(edit.content)}</td>
                    <td>{edit.status}</td>
                    <td>
                      <code>{edit.request_id ?? '—'}</code>
                    </td>
                  </tr>
                ))}
              </tbody>
            </table>
          )}
        </>
      )}
    </section>
  );
}

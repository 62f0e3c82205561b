import { useState } from 'preact/hooks';

/** Why the page cannot show the platform yet. */
export type GateReason = 'missing' | 'refused' | 'unreachable';

/** Props of {@link KeyGate}. */
export interface KeyGateProps {
  reason: GateReason;
  /** The page's own address, to show what the link looks like. */
  origin: string;
  /** Called with a pasted key. */
  onKey(key: string): void;
}

const TITLES: Record<GateReason, string> = {
  missing: 'This page needs the emulator’s admin key',
  refused: 'The emulator did not accept this admin key',
  unreachable: 'Cannot reach the emulator',
};

/**
 * Explains how to open the playground when the admin key is missing or refused (or the emulator is
 * down), and lets the person paste a key. The key only ever travels to this same emulator.
 */
export function KeyGate({ reason, origin, onKey }: KeyGateProps) {
  const [key, setKey] = useState('');
  return (
    <main class="gate">
      <section class="gate-card" aria-labelledby="gate-title">
        <p class="gate-brand">boardbot playground</p>
        <h1 id="gate-title">{TITLES[reason]}</h1>
        {reason === 'unreachable' ? (
          <p>
            Nothing answers at <code>{origin}</code>. Start the emulator again (<code>npx boardbot emulator</code> or{' '}
            <code>npm run dev</code>); this page retries by itself.
          </p>
        ) : (
          <>
            <p>
              The emulator prints a link with its admin key when it starts. Open that link:
              <code class="gate-url">{`${origin}/?key=<admin key>`}</code>
            </p>
            <p>
              {reason === 'refused'
                ? 'Keys change each time the emulator starts, unless you set one: this link is probably from an earlier run. '
                : ''}
              To keep one key across restarts, start the emulator with <code>BOARDBOT_ADMIN_KEY</code> set.
            </p>
          </>
        )}
        {reason !== 'unreachable' && (
          <form
            class="gate-form"
            onSubmit={(e) => {
              e.preventDefault();
              if (key.trim() !== '') onKey(key.trim());
            }}
          >
            <label for="gate-key">Admin key</label>
            <div class="gate-row">
              <input
                id="gate-key"
                type="password"
                autocomplete="off"
                spellcheck={false}
                value={key}
                onInput={(e) => setKey(e.currentTarget.value)}
              />
              <button type="submit" class="primary" disabled={key.trim() === ''}>
                Open
              </button>
            </div>
          </form>
        )}
      </section>
    </main>
  );
}

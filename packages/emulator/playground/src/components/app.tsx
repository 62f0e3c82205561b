import { ControlClient, type EmulatorInfo, isUnauthorized } from '@boardbot/emulator/control';
import { useCallback, useEffect, useMemo, useState } from 'preact/hooks';
import { type GateReason, KeyGate } from './key-gate.js';
import { Playground } from './playground.js';

/** Props of {@link App}. */
export interface AppProps {
  /** The page's location: the admin key arrives as `?key=`. */
  location: Location;
  /** The page's history, to keep a pasted key in the address (so a reload keeps working). */
  history: History;
}

type Phase = { kind: 'checking' } | { kind: 'gate'; reason: GateReason } | { kind: 'ready'; info: EmulatorInfo };

/** How often the page retries an emulator that does not answer, in milliseconds. */
const UNREACHABLE_RETRY_MS = 2000;

/**
 * The page: checks the admin key from the address against the emulator, then shows the playground,
 * or explains how to get a valid key.
 */
export function App({ location, history }: AppProps) {
  const [key, setKey] = useState(() => new URLSearchParams(location.search).get('key') ?? '');
  const [phase, setPhase] = useState<Phase>({ kind: 'checking' });
  const [attempt, setAttempt] = useState(0);
  const client = useMemo(() => new ControlClient({ url: location.origin, adminKey: key }), [location.origin, key]);

  useEffect(() => {
    if (key === '') {
      setPhase({ kind: 'gate', reason: 'missing' });
      return;
    }
    let cancelled = false;
    let retry: ReturnType<typeof setTimeout> | undefined;
    client.info().then(
      (info) => {
        if (!cancelled) setPhase({ kind: 'ready', info });
      },
      (error: unknown) => {
        if (cancelled) return;
        if (isUnauthorized(error)) {
          setPhase({ kind: 'gate', reason: 'refused' });
        } else {
          setPhase({ kind: 'gate', reason: 'unreachable' });
          retry = setTimeout(() => setAttempt((n) => n + 1), UNREACHABLE_RETRY_MS);
        }
      },
    );
    return () => {
      cancelled = true;
      if (retry !== undefined) clearTimeout(retry);
    };
  }, [client, key, attempt]);

  const applyKey = useCallback(
    (next: string) => {
      const url = new URL(location.href);
      url.searchParams.set('key', next);
      history.replaceState(null, '', url);
      setPhase({ kind: 'checking' });
      setKey(next);
    },
    [history, location],
  );

  const refused = useCallback(() => setPhase({ kind: 'gate', reason: 'refused' }), []);

  if (phase.kind === 'checking') {
    return (
      <main class="gate" aria-busy="true">
        <p class="gate-brand">Connecting to the emulator…</p>
      </main>
    );
  }
  if (phase.kind === 'gate') return <KeyGate reason={phase.reason} origin={location.origin} onKey={applyKey} />;
  return <Playground client={client} info={phase.info} onUnauthorized={refused} />;
}

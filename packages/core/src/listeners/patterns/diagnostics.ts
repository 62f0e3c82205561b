import type { PatternVerdict } from './verdict.js';

/** What this package reads of recheck's diagnostics (the same from its native agent and its JavaScript build). */
export interface RecheckDiagnostics {
  status: 'safe' | 'vulnerable' | 'unknown';
  complexity?: { type: string; degree?: number };
  attack?: { pattern: string };
  error?: { kind: string; message?: string };
}

/** A verdict from recheck's diagnostics. */
export function toVerdict(d: RecheckDiagnostics): PatternVerdict {
  if (d.status === 'safe') return { status: 'safe' };
  if (d.status === 'vulnerable') {
    const c = d.complexity;
    return {
      status: 'vulnerable',
      complexity: c?.type === 'polynomial' ? `polynomial (degree ${c.degree})` : (c?.type ?? 'super-linear'),
      attack: d.attack?.pattern ?? 'unknown',
    };
  }
  const kind = d.error?.kind ?? 'unexpected';
  return { status: 'unknown', reason: d.error?.message ? `${kind}: ${d.error.message}` : kind };
}

import type { EndingRule } from './endings.js';

/**
 * Why a handler ended on something that is not a failure: a write the platform had already applied
 * on an earlier run of the same event (`422 idempotency_key_reused`: the run diverged from the first
 * one, whose effects stand), or an interaction that can no longer be answered on a replay.
 */
function alreadyApplied(error: unknown): string | undefined {
  const e = error as { apiCode?: unknown; code?: unknown } | null;
  if (e?.apiCode === 'idempotency_key_reused') {
    return 'already applied: an earlier run of this event made this write (422 idempotency_key_reused); its effects stand and this run stops here';
  }
  if (e?.code === 'BOARDBOT_INTERACTION_EXPIRED') {
    return 'the interaction expired before this replay could answer it; not answering on the board, the first run may have answered';
  }
  return undefined;
}

/** A run that met an earlier run's write of its event stops quietly: its effects are the first run's. */
export const ALREADY_APPLIED: EndingRule = (error) => {
  const why = alreadyApplied(error);
  if (why === undefined) return undefined;
  const { code, apiCode } = error as { code?: unknown; apiCode?: unknown };
  return {
    outcome: 'already_applied',
    log: ({ ctx, target }) => ctx.log.info({ handler: target.label, code, api_code: apiCode }, why),
  };
};

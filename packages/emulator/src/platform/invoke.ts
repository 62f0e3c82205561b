import type {
  Command,
  CommandOption,
  Interaction,
  InvocationDirectory,
  LeafOption,
  OptionValue,
} from '@boardbot/protocol';
import { checkInvocationOptions } from '@boardbot/protocol';
import { hashToken } from '../auth/tokens.js';
import type { InvokeBody } from '../control/schemas/requests.js';
import { validationFailed } from '../errors.js';
import type { StoredInteraction } from '../store/interactions.js';
import { findUser, requireBoard } from './directory.js';
import type { Outbox } from './outbox.js';
import type { Platform } from './platform.js';

function findCommand(p: Platform, inv: InvokeBody): { appId: string; command: Command } {
  const candidates: { appId: string; command: Command }[] = [];
  for (const appId of p.store.apps.installedOn(inv.board_id)) {
    if (inv.app_id !== undefined && appId !== inv.app_id) continue;
    const command = p.store.commands.list(appId).find((c) => c.name === inv.command);
    if (command) candidates.push({ appId, command });
  }
  const [only, ...others] = candidates;
  if (!only) {
    throw validationFailed([
      { path: '/command', message: `No app installed on this board registers the command "${inv.command}"` },
    ]);
  }
  if (others.length > 0) {
    throw validationFailed([
      { path: '/app_id', message: `Several apps on this board register "${inv.command}": give app_id` },
    ]);
  }
  return only;
}

function checkOptions(
  p: Platform,
  declared: readonly (LeafOption | CommandOption)[],
  given: Record<string, OptionValue>,
): Record<string, OptionValue> {
  const directory: InvocationDirectory = {
    exists: (type, id) => (type === 'user' ? p.store.users.byId(id) !== undefined : p.store.boards.exists(id)),
  };
  const { values, issues } = checkInvocationOptions(declared, given, directory);
  if (issues.length > 0) throw validationFailed(issues, 'The invocation does not match the registered command');
  return values;
}

/**
 * Invokes an app's registered command as a person, exactly as the platform would check it before any
 * bot sees it (docs/control-api.md): the command must be registered by an app installed on the board,
 * the user must be a member, the subcommand must exist when the command has subcommands, and every
 * option must match its registered type, `required`, `choices` and bounds. Then stores the interaction
 * (its token only as a SHA-256; the token derives from its id, see `InteractionTokens`) and raises
 * `interaction.create` to that app (inside a write).
 *
 * @returns The interaction with its token (what the app receives), and its stored JSON text (without
 *   the token: what the control API shows).
 */
export function invokeCommand(p: Platform, out: Outbox, inv: InvokeBody): { interaction: Interaction; json: string } {
  requireBoard(p, inv.board_id);
  const user = findUser(p, inv.user_id);
  if (!p.store.boards.isMember(inv.board_id, inv.user_id)) {
    throw validationFailed([{ path: '/user_id', message: 'The user is not a member of the board' }]);
  }
  const { appId, command } = findCommand(p, inv);
  const subcommands = command.options.filter((o) => o.type === 'subcommand');
  let declared: readonly (LeafOption | CommandOption)[] = command.options;
  if (subcommands.length > 0) {
    const sub = subcommands.find((s) => s.name === inv.subcommand);
    if (!sub) {
      const names = subcommands.map((s) => s.name).join(', ');
      throw validationFailed([{ path: '/subcommand', message: `Expected one of the subcommands: ${names}` }]);
    }
    declared = sub.options ?? [];
  } else if (inv.subcommand !== undefined) {
    throw validationFailed([{ path: '/subcommand', message: `The command "${command.name}" has no subcommands` }]);
  }
  const options = checkOptions(p, declared, inv.options ?? {});
  const now = p.now();
  const id = p.newId();
  const token = p.tokens.tokenOf(id);
  const stored: StoredInteraction = {
    id,
    type: 'command',
    app_id: appId,
    board_id: inv.board_id,
    user,
    command: { name: command.name, subcommand: inv.subcommand ?? null, options },
    created_at: new Date(now).toISOString(),
    expires_at: new Date(now + p.limits.interactionTtlMs).toISOString(),
  };
  const tokenHash = hashToken(token);
  // The bot answers with this token within moments: its digest is ready for the gate.
  p.tokenDigests.remember(token, tokenHash);
  // Serialized once: the row, the stored event and the live event share the text.
  const json = JSON.stringify(stored);
  p.store.interactions.insert(stored, tokenHash, now + p.limits.interactionTtlMs, json);
  // The app's log keeps the event without its token; a replay derives it again (Platform.replayData).
  // The live event is the stored one with the token added last, as `InteractionTokens.withToken`
  // writes it for a replay (base64url needs no escaping in JSON).
  const type = 'interaction.create';
  const live = `{"type":"${type}","interaction":${json.slice(0, -1)},"token":"${token}"}}`;
  p.appendAppEvent(out, appId, type, `{"type":"${type}","interaction":${json}}`, live);
  out.activityEvent('interaction.create', { interaction: stored });
  return { interaction: { ...stored, token }, json };
}

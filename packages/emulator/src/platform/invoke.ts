import type { Command, CommandOption, ErrorDetail, Interaction, LeafOption, OptionValue } from '@boardbot/protocol';
import { UUID_PATTERN } from '@boardbot/protocol';
import { hashToken } from '../auth/tokens.js';
import { validationFailed } from '../errors.js';
import type { StoredInteraction } from '../store/interactions.js';
import { findUser, requireBoard } from './directory.js';
import type { Outbox } from './outbox.js';
import type { Platform } from './platform.js';

/** A person's invocation of a slash command (control API `POST /interactions`). */
export interface Invocation {
  board_id: string;
  user_id: string;
  command: string;
  subcommand?: string;
  options?: Record<string, OptionValue>;
  /** Which app's command, when two apps on the board register the same name. */
  app_id?: string;
}

const uuid = new RegExp(UUID_PATTERN);

function findCommand(p: Platform, inv: Invocation): { appId: string; command: Command } {
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

function convert(
  p: Platform,
  o: LeafOption | CommandOption,
  raw: OptionValue,
  path: string,
): OptionValue | ErrorDetail {
  const bad = (message: string): ErrorDetail => ({ path, message });
  let value: OptionValue = raw;
  switch (o.type) {
    case 'integer':
    case 'number': {
      // Values typed in a form arrive as strings: "20" becomes 20 for a numeric option.
      if (typeof raw === 'string' && raw.trim() !== '' && Number.isFinite(Number(raw))) value = Number(raw);
      if (typeof value !== 'number' || !Number.isFinite(value))
        return bad(o.type === 'integer' ? 'Expected an integer' : 'Expected a number');
      if (o.type === 'integer' && !Number.isInteger(value)) return bad('Expected an integer');
      if (o.min_value !== undefined && value < o.min_value) return bad(`Expected at least ${o.min_value}`);
      if (o.max_value !== undefined && value > o.max_value) return bad(`Expected at most ${o.max_value}`);
      break;
    }
    case 'boolean':
      if (raw === 'true' || raw === 'false') value = raw === 'true';
      if (typeof value !== 'boolean') return bad('Expected a boolean');
      break;
    case 'string':
      if (typeof value !== 'string') return bad('Expected a string');
      if (o.min_length !== undefined && value.length < o.min_length)
        return bad(`Expected at least ${o.min_length} characters`);
      if (o.max_length !== undefined && value.length > o.max_length)
        return bad(`Expected at most ${o.max_length} characters`);
      break;
    case 'user':
      if (typeof value !== 'string' || !uuid.test(value) || !p.store.users.byId(value))
        return bad('Expected a user id');
      break;
    case 'board':
      if (typeof value !== 'string' || !uuid.test(value) || !p.store.boards.byId(value))
        return bad('Expected a board id');
      break;
    default:
      return bad(`Options of type ${o.type} take no value`);
  }
  if (o.choices && !o.choices.some((c) => c.value === value)) {
    return bad(`Expected one of ${o.choices.map((c) => JSON.stringify(c.value)).join(', ')}`);
  }
  return value;
}

function checkOptions(
  p: Platform,
  declared: readonly (LeafOption | CommandOption)[],
  given: Record<string, OptionValue>,
): Record<string, OptionValue> {
  const issues: ErrorDetail[] = [];
  const out: Record<string, OptionValue> = {};
  const byName = new Map(declared.map((o) => [o.name, o]));
  for (const name of Object.keys(given)) {
    if (!byName.has(name)) issues.push({ path: `/options/${name}`, message: 'Unknown option' });
  }
  for (const o of declared) {
    const raw = given[o.name];
    if (raw === undefined) {
      if (o.required === true) issues.push({ path: `/options/${o.name}`, message: 'Required option is missing' });
      continue;
    }
    const v = convert(p, o, raw, `/options/${o.name}`);
    if (typeof v === 'object') issues.push(v);
    else out[o.name] = v;
  }
  if (issues.length > 0) throw validationFailed(issues, 'The invocation does not match the registered command');
  return out;
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
export function invokeCommand(p: Platform, out: Outbox, inv: Invocation): { interaction: Interaction; json: string } {
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

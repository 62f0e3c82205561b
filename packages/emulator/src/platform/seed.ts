import type { Board, UserProfile } from '@boardbot/protocol';
import { hashToken } from '../auth/tokens.js';
import { validationFailed } from '../errors.js';
import type { AppRow } from '../store/apps.js';
import { issueToken } from './app-tokens.js';
import { createApp, createBoard, createUser, install } from './directory.js';
import type { Platform } from './platform.js';

/** What the default seed consists of, once loaded. */
export interface SeedResult {
  users: UserProfile[];
  boards: Board[];
  apps: AppRow[];
}

/**
 * Loads the default seed (docs/control-api.md): users `alice` and `bob`, boards `general` and
 * `random` with both as members, and the app `dev-bot` installed on both, whose token is `devToken`.
 * Idempotent: what exists (found by username or name) is kept, what is missing is created, and
 * `dev-bot`'s token is set to `devToken` so a bot's `.env` keeps working across restarts (its strength
 * judged again, so an app stored before strengths were recorded gets one).
 */
export function loadSeed(p: Platform, devToken: string): SeedResult {
  return p.write((out) => {
    const user = (username: string, display_name: string) =>
      p.store.users.byUsername(username) ?? createUser(p, out, { username, display_name });
    const board = (name: string, description: string) =>
      p.store.boards.byName(name) ?? createBoard(p, out, { name, description });
    const alice = user('alice', 'Alice');
    const bob = user('bob', 'Bob');
    const boards = [board('general', 'Everything and anything'), board('random', 'Off-topic')];
    for (const b of boards) {
      if (!p.store.boards.isMember(b.id, alice.id)) p.store.boards.upsertMember(b.id, alice.id, 'owner', p.isoNow());
      if (!p.store.boards.isMember(b.id, bob.id)) p.store.boards.upsertMember(b.id, bob.id, 'member', p.isoNow());
    }
    const tokenHash = hashToken(devToken);
    let app = p.store.apps.byName('dev-bot');
    const holder = p.store.apps.byTokenHash(tokenHash);
    if (holder && holder.id !== app?.id) {
      throw validationFailed([{ path: '/token', message: 'Another app than dev-bot already has the dev token' }]);
    }
    if (!app) app = createApp(p, out, { name: 'dev-bot', description: 'The development bot', token: devToken }).app;
    else {
      const issued = issueToken(p, devToken, app.id);
      if (issued.hash !== app.token_hash || issued.strength !== app.token_strength) {
        p.store.apps.setToken(app.id, issued.hash, issued.strength);
      }
    }
    for (const b of boards) install(p, out, app.id, b.id);
    out.activityEvent('state.update', { what: 'members' });
    return {
      users: [alice, bob],
      boards: boards.map((b) => p.store.boards.byId(b.id) as Board),
      apps: [p.store.apps.byId(app.id) as AppRow],
    };
  });
}

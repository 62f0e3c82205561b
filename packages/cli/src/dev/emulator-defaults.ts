// The emulator's defaults the CLI's options name, kept here rather than imported from
// `@boardbot/emulator`: that import would load the whole emulator (Fastify, SQLite, TypeBox: about
// 17 MB of RSS) into every CLI process, `boardbot start`'s bot included, which never runs one. The
// emulator is loaded when a command starts it. A test checks these agree with the emulator's.

/** The emulator's database file unless `--db` says otherwise (`DEFAULT_DB_PATH` of `@boardbot/emulator`). */
export const DEFAULT_DB_PATH = '.boardbot/emulator.db';

/** The token of the emulator's seeded app (`DEFAULT_DEV_TOKEN` of `@boardbot/emulator`). */
export const DEFAULT_DEV_TOKEN = 'dev-token';

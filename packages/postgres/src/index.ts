export * from './connection/connection.js';
export * from './cooldowns/postgres-cooldowns.js';
export * from './errors.js';
export * from './options.js';
export * from './position/postgres-position-store.js';
export * from './postgres-stores.js';
export * from './schema/migrations.js';
export * from './sessions/postgres-session-store.js';

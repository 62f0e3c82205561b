/**
 * Whether this Node has a `node:sqlite` complete enough for the emulator (Node 22.16+, 24): the
 * same test as `@boardbot/emulator`'s driver choice (`store/sqlite-driver.ts`), repeated here
 * because `create-boardbot` has no dependencies. Where it is missing (Node 20, early 22), the new
 * project needs better-sqlite3, the emulator's fallback driver.
 */
export function hasNodeSqlite(): boolean {
  const mod = process.getBuiltinModule?.('node:sqlite') as
    | {
        DatabaseSync: new (
          path: string,
        ) => { isTransaction?: unknown; prepare(sql: string): { setReturnArrays?: unknown }; close(): void };
      }
    | undefined;
  if (!mod) return false;
  const probe = new mod.DatabaseSync(':memory:');
  const complete =
    typeof probe.isTransaction === 'boolean' && typeof probe.prepare('SELECT 1').setReturnArrays === 'function';
  probe.close();
  return complete;
}

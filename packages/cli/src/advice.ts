/**
 * Advice to run the command again with `flags` added, written so that it can be copied as it is:
 * through an npm script (`npm run dev`, whose name npm puts in `npm_lifecycle_event`) flags reach
 * the command only after `--`, so it says `npm run dev -- --port 0`; run directly or through `npx`
 * (`npm_lifecycle_event` is `npx`), the flags are added as they are.
 *
 * @param flags - the flags to add, e.g. `--port 0`
 * @param env - the environment the CLI was started with
 * @returns ``add `--port 0` ``, or ``run `npm run dev -- --port 0` ``
 */
export function addFlags(flags: string, env: NodeJS.ProcessEnv): string {
  const script = env.npm_lifecycle_event;
  if (!script || script === 'npx' || env.npm_command === 'exec') return `add \`${flags}\``;
  const name = /^[\w:.@/-]+$/.test(script) ? script : JSON.stringify(script);
  return `run \`npm run ${name} -- ${flags}\``;
}

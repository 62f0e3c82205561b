/** The key of a command route, as people type it: `name` or `name subcommand`. */
export const routeKey = (command: string, subcommand: string | null) =>
  subcommand === null ? command : `${command} ${subcommand}`;

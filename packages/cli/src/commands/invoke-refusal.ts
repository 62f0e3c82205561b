import type { ControlApiError } from '@boardbot/emulator/control';
import type { ErrorDetail } from '@boardbot/protocol';

// How `boardbot invoke` words a refusal of the emulator's control API. The person typed a command, not
// a control API call: the message starts with their command, not with `POST /interactions`, and lists
// each problem once (the envelope's summary repeats the first detail, so it is not shown beside them).

/** `option "sides"` for `/options/sides`, `the command` for `/command`... */
function subject(path: string): string {
  const option = /^\/options\/(.+)$/.exec(path);
  if (option) return `option "${option[1]}"`;
  switch (path) {
    case '/command':
      return 'the command';
    case '/subcommand':
      return 'the subcommand';
    case '/user_id':
      return '--as';
    case '/board_id':
      return '--board';
    default:
      return path.replace(/^\//, '');
  }
}

const problem = (d: ErrorDetail): string => `${subject(d.path)}: ${d.message}`;

/**
 * The message of a control API refusal of `boardbot invoke`.
 *
 * @param invocation - what the person typed, e.g. `/roll` or `/poll create`
 * @param error - the refusal
 * @param url - the control API's URL, for a refused admin key
 */
export function describeInvokeRefusal(invocation: string, error: ControlApiError, url: string): string {
  if (error.status === 401) {
    return (
      `The emulator at ${url} refused the admin key (401 ${error.apiCode}). Fix: pass the running emulator's key ` +
      'with --key or BOARDBOT_ADMIN_KEY; `boardbot dev` finds its own in .boardbot/dev.json.'
    );
  }
  const [first, ...more] = error.details;
  if (first && more.length === 0) return `${invocation} was refused: ${problem(first)}.`;
  if (first) return `${invocation} was refused:\n${error.details.map((d) => `  - ${problem(d)}`).join('\n')}`;
  return `${invocation} was refused (${error.status} ${error.apiCode}): ${error.serverMessage}`;
}

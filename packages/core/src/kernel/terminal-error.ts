/** An error as pino's serializer writes it into a line (`err`). */
interface SerializedError {
  type?: unknown;
  message?: unknown;
  stack?: unknown;
  code?: unknown;
}

/**
 * An error as the terminal shows it: one block, its code (or type) and its message, which for a
 * boardbot error says the fix; then its stack, from the first frame (the message is not said twice),
 * unless it is a boardbot error and the log is above debug: a `BOARDBOT_*` error's stack points into
 * the framework and says nothing its message does not, while another error is a bug whose frames
 * show where it is. In JSON logs the error stays whole.
 *
 * @param value - the `err` field of a line
 * @param stacks - whether a boardbot error's stack is shown too (the log is at debug or below)
 */
export function terminalError(value: unknown, stacks: boolean): string {
  if (typeof value !== 'object' || value === null) return JSON.stringify(value) ?? String(value);
  const { type, message, stack, code } = value as SerializedError;
  const ours = typeof code === 'string' && code.startsWith('BOARDBOT_');
  const head = `${ours ? code : typeof type === 'string' ? type : 'Error'}: ${String(message ?? '')}`;
  if ((ours && !stacks) || typeof stack !== 'string') return head;
  const lines = stack.split('\n');
  const firstFrame = lines.findIndex((line) => /^\s+at /.test(line));
  return firstFrame < 0 ? head : [head, ...lines.slice(firstFrame)].join('\n');
}

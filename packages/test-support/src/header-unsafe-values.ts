/**
 * The ways a credential can fail to be a bearer token in an HTTP header, each around `secret`:
 * `[what, value]` rows for `it.each`, for the tests that a client refuses such a token when built,
 * with a stable code and without showing it.
 * @param secret - the credential, which no error may show
 */
export function headerUnsafeValues(secret: string): Array<[what: string, value: string]> {
  return [
    ['a line break', `${secret}\r\nX-Evil: 1`],
    ['a lone line feed', `${secret}\n`],
    ['a NUL', `${secret}\0tail`],
    ['an escape character', `\x1B${secret}`],
    ['another control character', `\x01${secret}`],
    ['DEL', `${secret}\x7F`],
    ['a space', `${secret} more`],
  ];
}

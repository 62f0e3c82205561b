import * as chatAdapter from '@boardbot/chat-adapter';
import * as cli from '@boardbot/cli';
import * as core from '@boardbot/core';
import * as emulator from '@boardbot/emulator';
import * as control from '@boardbot/emulator/control';
import * as gateway from '@boardbot/gateway';
import * as mcp from '@boardbot/mcp';
import * as postgres from '@boardbot/postgres';
import { BoardbotError, isBoardbotError } from '@boardbot/protocol';
import * as redis from '@boardbot/redis';
import * as rest from '@boardbot/rest';
import * as testing from '@boardbot/testing';
import * as create from 'create-boardbot';
import { describe, expect, it } from 'vitest';

// Every error class any package exports, found by walking the packages' exports (a new class
// without a sample below fails the first test), built once per code it can carry, and checked
// against the package's one root and code list. The code lists themselves are tied to
// docs/error-codes.md by test/docs/error-codes.test.ts.
//
// Secrets: the call contexts an error is built from (paths, URLs, the server's words) arrive redacted
// from the boundary that knows the credentials, which the redaction tests prove through real
// requests (packages/rest/test/redaction.test.ts, packages/gateway/test/secrets.test.ts, the
// control client's and the CLI's tests). What an error class itself must never do is quote the error
// it wraps: a transport's message may hold a credential (fetch quotes a header value it refuses), so
// each sample below that takes a cause gets one whose message, and whose own cause's message, is a
// secret, and no message may show it.

/** A class, abstract or not, whose instances are errors. */
type AnyClass = Function & { prototype: Error };

interface PackageErrors {
  name: string;
  modules: object[];
  base: AnyClass;
  codes: readonly string[];
}

/** Each package's public entry points, its base error class, and its code list. */
const PACKAGES: PackageErrors[] = [
  { name: 'core', modules: [core], base: core.BoardbotCoreError, codes: core.CORE_ERROR_CODES },
  { name: 'rest', modules: [rest], base: rest.BoardbotRestError, codes: rest.REST_ERROR_CODES },
  { name: 'gateway', modules: [gateway], base: gateway.GatewayError, codes: gateway.GATEWAY_ERROR_CODES },
  { name: 'redis', modules: [redis], base: redis.BoardbotRedisError, codes: redis.REDIS_ERROR_CODES },
  {
    name: 'chat-adapter',
    modules: [chatAdapter],
    base: chatAdapter.BoardbotChatAdapterError,
    codes: chatAdapter.CHAT_ADAPTER_ERROR_CODES,
  },
  { name: 'mcp', modules: [mcp], base: mcp.BoardbotMcpError, codes: mcp.MCP_ERROR_CODES },
  {
    name: 'postgres',
    modules: [postgres],
    base: postgres.BoardbotPostgresError,
    codes: postgres.POSTGRES_ERROR_CODES,
  },
  { name: 'emulator', modules: [emulator], base: emulator.EmulatorError, codes: emulator.EMULATOR_ERROR_CODES },
  { name: 'control', modules: [control], base: control.ControlError, codes: control.CONTROL_ERROR_CODES },
  { name: 'testing', modules: [testing], base: testing.TestingError, codes: testing.TESTING_ERROR_CODES },
  { name: 'cli', modules: [cli], base: cli.CliError, codes: cli.CLI_ERROR_CODES },
  { name: 'create-boardbot', modules: [create], base: create.CreateBoardbotError, codes: create.CREATE_ERROR_CODES },
];

const SECRET = 'sk-SECRET-must-never-show-7f3a';
/** A transport failure that quotes the credential, as fetch does, around a reason that does too. */
const leakyCause = (): Error =>
  new TypeError(`Headers.append: "Bearer ${SECRET}" is an invalid header value.`, {
    cause: Object.assign(new Error(`connect ECONNREFUSED ${SECRET}`), { code: 'ECONNREFUSED' }),
  });

const call = { method: 'POST', path: '/interactions/:token' };
const request = { method: 'GET' as const, url: 'http://127.0.0.1:8787/api/v1/gateway', status: 401 };
const refusal = { status: 400, apiCode: 'validation_failed', serverMessage: 'bad', details: [] };
const controlRefusal = new control.ControlApiError({ method: 'POST', path: '/interactions' }, refusal);

/** One instance per code each class can carry. */
const SAMPLES: [AnyClass, () => Error][] = [
  [core.MissingMetadataError, () => new core.MissingMetadataError('Roll.sides', "give @Option({ type: 'integer' })")],
  [core.MissingProviderError, () => new core.MissingProviderError('Roll', 'Dice', 0)],
  [core.CircularDependencyError, () => new core.CircularDependencyError(['A', 'B', 'A'])],
  [core.InjectOutsideError, () => new core.InjectOutsideError("token 'model'")],
  [core.InvalidHandlerError, () => new core.InvalidHandlerError('Roll has no run()')],
  [core.ScaleUnavailableError, () => new core.ScaleUnavailableError('@boardbot/redis cannot be loaded', leakyCause())],
  [core.InvalidOptionError, () => new core.InvalidOptionError('RollOptions.sides has no type')],
  [core.InvalidCommandsError, () => new core.InvalidCommandsError(['/roll: name too long'])],
  [core.CommandsDriftError, () => new core.CommandsDriftError('+ /roll')],
  [core.HandlerTimeoutError, () => new core.HandlerTimeoutError('Roll.run', 10)],
  [core.ShutdownTimeoutError, () => new core.ShutdownTimeoutError('Roll.run', 10)],
  [core.WriteDroppedError, () => new core.WriteDroppedError('Roll.run', 'reply', leakyCause())],
  [core.InteractionExhaustedError, () => new core.InteractionExhaustedError('/roll', leakyCause())],
  [core.InvalidConfigError, () => new core.InvalidConfigError('token is missing')],
  [
    core.UnknownBotOptionError,
    () => new core.UnknownBotOptionError([{ name: 'comandSync', nearest: ['commandSync'] }]),
  ],
  [core.BotStateError, () => new core.BotStateError('start() twice')],
  [core.InteractionExpiredError, () => new core.InteractionExpiredError('/roll')],
  [core.MiddlewareNextTwiceError, () => new core.MiddlewareNextTwiceError()],
  [core.InvalidSessionError, () => new core.InvalidSessionError('Score', ['points: points must not be less than 0'])],
  [core.SessionConflictError, () => new core.SessionConflictError('Score', 50)],
  [core.StreamStoppedError, () => new core.StreamStoppedError('Ask.run', 'failed', 0, leakyCause())],
  [core.StreamKeyReusedError, () => new core.StreamKeyReusedError('Ask.run', leakyCause())],
  [core.BoardNotOpenError, () => new core.BoardNotOpenError('read_messages', '00000000-0000-4000-8000-000000000000')],
  [core.ToolWritesSpentError, () => new core.ToolWritesSpentError('post_message', 3)],
  [core.ToolRefusedError, () => new core.ToolRefusedError('/ban', 'refused', 'This needs the admin role.')],
  [core.CommandNeedsPersonError, () => new core.CommandNeedsPersonError('/ban', ['RequireRole(admin)'])],
  [
    core.NotBoardMemberError,
    () => new core.NotBoardMemberError('/roll', 'the app', '00000000-0000-4000-8000-000000000000'),
  ],
  [core.AppTokenMissingError, () => new core.AppTokenMissingError('team-a', 'its token resolver failed', leakyCause())],
  [core.UnknownAppError, () => new core.UnknownAppError('team-c', ['team-a', 'team-b'])],
  [core.BroadcastChangedError, () => new core.BroadcastChangedError('launch', 'body')],
  [core.InvalidBroadcastError, () => new core.InvalidBroadcastError('the message has no content and no embeds')],
  [core.AgentBoundError, () => new core.AgentBoundError('maxToolCalls', 10)],
  [core.RunCancelledError, () => new core.RunCancelledError('Assistant.answer')],
  [core.BurstUnorderedError, () => new core.BurstUnorderedError(['Assistant.answer'])],
  [core.NoTranslationsError, () => new core.NoTranslationsError('greeting')],
  [core.UnknownLocaleError, () => new core.UnknownLocaleError('xx', ['en', 'fr'])],
  [core.SessionScopeError, () => new core.SessionScopeError('Score', 'user')],
  [core.UnsafeRegexError, () => new core.UnsafeRegexError(['Greedy.all: /^(a+)+$/ takes exponential time'])],
  [
    core.InvalidScheduleError,
    () => new core.InvalidScheduleError("@Cron('61 * * * *')", 'give a cron expression of five fields'),
  ],

  [rest.ApiError, () => new rest.ApiError({ ...refusal, status: 404, apiCode: 'unknown_board' }, call)],
  [
    rest.UnauthorizedError,
    () => new rest.UnauthorizedError({ ...refusal, status: 401, apiCode: 'unauthorized' }, call),
  ],
  [rest.RateLimitError, () => new rest.RateLimitError({ retryAfterMs: 5, bucket: 'app', reason: 'max_wait' }, call)],
  [rest.TimeoutError, () => new rest.TimeoutError({ timeoutMs: 10, attempts: 2 }, call, leakyCause())],
  [rest.NetworkError, () => new rest.NetworkError({ attempts: 1, causeCode: 'ECONNREFUSED' }, call, leakyCause())],
  [rest.AbortedError, () => new rest.AbortedError('signal', call, leakyCause())],
  [rest.QueueFullError, () => new rest.QueueFullError(3, call)],
  [rest.InvalidResponseError, () => new rest.InvalidResponseError({ status: 200, problem: 'x', excerpt: '' }, call)],
  [rest.InvalidArgumentError, () => new rest.InvalidArgumentError('Invalid id', [{ path: '/id', message: 'uuid' }])],

  [redis.RedisOptionError, () => new redis.RedisOptionError('partitions', 'must be an integer from 1 to 1024')],
  [redis.RedisUnavailableError, () => new redis.RedisUnavailableError('redis://127.0.0.1:6379', leakyCause())],
  [redis.RedisNotConnectedError, () => new redis.RedisNotConnectedError('the shared rate limit')],
  [chatAdapter.ChatAdapterOptionError, () => new chatAdapter.ChatAdapterOptionError('token', 'is missing')],
  [chatAdapter.InvalidThreadIdError, () => new chatAdapter.InvalidThreadIdError('slack:C123')],
  [chatAdapter.AdapterNotInitializedError, () => new chatAdapter.AdapterNotInitializedError('postMessage')],
  [mcp.McpOptionError, () => new mcp.McpOptionError('host', 'must be a loopback address')],
  [postgres.PostgresOptionError, () => new postgres.PostgresOptionError('schema', 'must be 1 to 63 of a-z 0-9 _')],
  [
    postgres.PostgresUnavailableError,
    () => new postgres.PostgresUnavailableError('postgres://bot@db/app', leakyCause()),
  ],
  [postgres.PostgresSchemaMissingError, () => new postgres.PostgresSchemaMissingError('public', ['boardbot_sessions'])],
  [
    postgres.PostgresMigrationError,
    () => new postgres.PostgresMigrationError('public', '001-tables.sql', leakyCause()),
  ],
  [gateway.GatewayUnauthorizedError, () => new gateway.GatewayUnauthorizedError(request)],
  [gateway.GatewayForbiddenError, () => new gateway.GatewayForbiddenError({ ...request, status: 403 })],
  [gateway.GatewayHttpError, () => new gateway.GatewayHttpError({ ...request, status: 404 })],
  [gateway.GatewayRateLimitedError, () => new gateway.GatewayRateLimitedError({ ...request, status: 429 }, 10)],
  [gateway.GatewayServerError, () => new gateway.GatewayServerError({ ...request, status: 503 }, undefined)],
  [gateway.GatewayNetworkError, () => new gateway.GatewayNetworkError(request.url, leakyCause())],
  [gateway.GatewayStreamEndedError, () => new gateway.GatewayStreamEndedError(request.url)],
  [gateway.GatewayContentTypeError, () => new gateway.GatewayContentTypeError(request.url, 'text/html')],
  [gateway.GatewayKeepAliveTimeoutError, () => new gateway.GatewayKeepAliveTimeoutError(35_000)],
  [gateway.GatewayFrameTooLargeError, () => new gateway.GatewayFrameTooLargeError(1024)],
  [gateway.GatewayMalformedEventError, () => new gateway.GatewayMalformedEventError('message.create', '7', [])],
  [gateway.GatewayClosedError, () => new gateway.GatewayClosedError()],
  [gateway.GatewayOptionsError, () => new gateway.GatewayOptionsError('token is missing')],
  [gateway.GatewayConcurrentNextError, () => new gateway.GatewayConcurrentNextError()],
  [gateway.GatewayInternalError, () => new gateway.GatewayInternalError('closed', 'open')],

  [emulator.PlatformError, () => new emulator.PlatformError('unknown_board', 'No such board')],
  [emulator.EmulatorOptionsError, () => new emulator.EmulatorOptionsError('adminKey is empty')],
  [emulator.EmulatorStorageError, () => new emulator.EmulatorStorageError('newer file', { cause: leakyCause() })],
  [emulator.EmulatorDatabaseInUseError, () => new emulator.EmulatorDatabaseInUseError('/p/bot.db', { pid: 42 })],
  [emulator.EmulatorStateError, () => new emulator.EmulatorStateError('listen() twice')],
  [emulator.EmulatorExposedDefaultsError, () => new emulator.EmulatorExposedDefaultsError('dev-token beyond loopback')],
  [emulator.EmulatorRouteError, () => new emulator.EmulatorRouteError('GET /x')],

  [control.ControlApiError, () => controlRefusal],
  [
    control.ControlUnreachableError,
    () => new control.ControlUnreachableError({ method: 'GET', path: '/state' }, 'http://127.0.0.1:1', leakyCause()),
  ],
  [control.ControlOptionsError, () => new control.ControlOptionsError('adminKey is not a header value')],
  [control.ControlSchemaError, () => new control.ControlSchemaError('Board')],

  [testing.WaitTimeoutError, () => new testing.WaitTimeoutError('expected a reply', 100)],
  [testing.InvocationRejectedError, () => new testing.InvocationRejectedError(controlRefusal)],
  [testing.BotStartError, () => new testing.BotStartError('the bot failed', leakyCause())],
  [testing.TestOptionsError, () => new testing.TestOptionsError('give handlers')],
  [testing.PlatformClosedError, () => new testing.PlatformClosedError('say()')],
  [testing.FeedLostError, () => new testing.FeedLostError('closed')],

  [cli.ConfigError, () => new cli.ConfigError('--port is not a number')],
  [cli.MissingTokenError, () => new cli.MissingTokenError('boardbot start')],
  [cli.ProjectError, () => new cli.ProjectError('no tsconfig.json')],
  [cli.BotModuleError, () => new cli.BotModuleError('cannot import', leakyCause())],
  [cli.PortInUseError, () => new cli.PortInUseError('127.0.0.1', 8787)],
  [cli.InvocationError, () => new cli.InvocationError('refused')],
  [cli.DatabaseInUseError, () => new cli.DatabaseInUseError('bot.db', 'pid 42', 'bot-2.db', leakyCause())],
  [cli.SeveralDevError, () => new cli.SeveralDevError('pid 1 on port 8787; pid 2 on port 8788', 8787)],

  ...create.CREATE_ERROR_CODES.map((code): [AnyClass, () => Error] => [
    create.CreateBoardbotError,
    () => new create.CreateBoardbotError(code, 'x'),
  ]),
];

/** Every exported class that extends Error, by its export name, from every entry point. */
function exportedErrorClasses(): Map<AnyClass, string> {
  const found = new Map<AnyClass, string>();
  for (const { modules } of PACKAGES) {
    for (const module of modules) {
      for (const [name, value] of Object.entries(module)) {
        if (typeof value === 'function' && value.prototype instanceof Error) found.set(value as AnyClass, name);
      }
    }
  }
  return found;
}

const packageOf = (error: Error) => PACKAGES.find((p) => error instanceof p.base);

describe('every exported error class', () => {
  const classes = exportedErrorClasses();
  // The abstract bases, and the root that core, rest and gateway re-export.
  const bases = new Set<AnyClass>([
    BoardbotError,
    ...PACKAGES.map((p) => p.base).filter((b) => b !== create.CreateBoardbotError),
  ]);
  const samples = SAMPLES.map(([type, build]) => ({ type, error: build() }));

  it('has a sample here, or is the base of its package (or the root)', () => {
    const covered = new Set<AnyClass>([...bases, ...samples.map((s) => s.type)]);
    expect([...classes].filter(([type]) => !covered.has(type)).map(([, name]) => name)).toEqual([]);
  });

  it('is a BoardbotError (instanceof and the brand) through its package base', () => {
    for (const { type, error } of samples) {
      expect({ name: classes.get(type), root: error instanceof BoardbotError, brand: isBoardbotError(error) }).toEqual({
        name: classes.get(type),
        root: true,
        brand: true,
      });
      expect(error).toBeInstanceOf(type);
      expect(packageOf(error), classes.get(type)).toBeDefined();
    }
  });

  it("carries a code of its package's list, and every code of every list has a class", () => {
    for (const { error } of samples) {
      const code = (error as BoardbotError).code;
      expect(packageOf(error)?.codes as readonly string[], code).toContain(code);
    }
    const produced = new Set(samples.map((s) => (s.error as BoardbotError).code));
    expect(PACKAGES.flatMap((p) => p.codes).filter((code) => !produced.has(code))).toEqual([]);
  });

  it('is named after its class', () => {
    for (const { type, error } of samples) expect(error.name).toBe(classes.get(type));
  });

  it('never quotes the error it wraps, so a secret in a cause stays out of the message', () => {
    const wrapping = samples.filter((s) => s.error.cause !== undefined);
    expect(wrapping.length).toBeGreaterThanOrEqual(10);
    for (const { type, error } of wrapping) {
      expect(error.message, classes.get(type)).not.toContain(SECRET);
      expect(String(error.stack).split('\n')[0], classes.get(type)).not.toContain(SECRET);
    }
  });
});

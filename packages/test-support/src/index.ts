// boardbot's own test helpers, one idea per file. The seeded emulator has its own entry point
// (`@boardbot/test-support/emulator`), so a test that never starts one does not load the emulator.
export {
  ANSWER_RECORD_CONTRACT,
  type AnswerRecordFactory,
  type AnswerRecordUnderTest,
  type PartUnderTest,
} from './answer-record-contract.js';
export { botMessages, type Posted, unanswered } from './answers.js';
export { buildProjects, withLock } from './build-projects.js';
export {
  COOLDOWN_STORE_CONTRACT,
  type CooldownStoreUnderTest,
  SHARED_COOLDOWN_STORE_CONTRACT,
} from './cooldown-store-contract.js';
export { type CountingProxy, startCountingProxy } from './counting-proxy.js';
export { eventually, eventuallyValue, until, type WaitOptions } from './eventually.js';
export { headerUnsafeValues } from './header-unsafe-values.js';
export { envelope, rateLimitHeaders, sendError, sendJson } from './http-answers.js';
export { HttpFaultProxy, type ProxyAnswer, type RequestFault, type SeenRequest } from './http-fault-proxy.js';
export { type JsonLogLine, LoggingProcess, type LoggingProcessOptions } from './logging-process.js';
export {
  type LoopbackServer,
  type LoopbackServerOptions,
  type Received,
  type Script,
  startLoopbackServer,
} from './loopback-server.js';
export { openApi31Problems } from './openapi-problems.js';
export { type OccupiedPort, occupiedPort, vacantPort } from './ports.js';
export {
  POSITION_STORE_CONTRACT,
  type PositionKeyUnderTest,
  type PositionStoreUnderTest,
  type PositionUnderTest,
} from './position-store-contract.js';
export {
  POSTGRES_SERVER_MISSING,
  type PostgresServer,
  type PostgresServerOptions,
  startPostgresServer,
} from './postgres-server.js';
export { promtoolCheck, sample } from './promtool.js';
export { type LogLine, type RecordingLogger, recordingLogger } from './recording-logger.js';
export { ALICE, APP, alice, at, BOARD, BOT, command, interaction, message, ready, uuid } from './records.js';
export { REDIS_SERVER_MISSING, type RedisServer, type RedisServerOptions, startRedisServer } from './redis-server.js';
export { type ResourceTracker, trackResources } from './resource-tracker.js';
export { cleanEnv, runCaptured } from './run-captured.js';
export { type ClaimsFactory, type ClaimsUnderTest, SCHEDULE_CLAIMS_CONTRACT } from './schedule-claims-contract.js';
export {
  SESSION_STORE_CONTRACT,
  type StoreUnderTest,
  type ValueUnderTest,
} from './session-store-contract.js';
export { SseClient, type SseFrame } from './sse-client.js';
export { frame, keepAlive, messageFrame, openStream, readyFrame, writeThenCut } from './sse-stream.js';
export { startTcpFaultProxy, type TcpFault, type TcpFaultProxy } from './tcp-fault-proxy.js';
export { type TempDir, tempDir } from './temp-dir.js';
export { tscEmit } from './tsc-emit.js';

import type { FastifyInstance } from 'fastify';
import type { Platform } from '../../platform/platform.js';
import type { ServerDeps } from '../../server.js';

/** The control API under `/_emulator/v1` (docs/control-api.md). */
export function controlRoutes(_app: FastifyInstance, _p: Platform, _deps: ServerDeps): void {}

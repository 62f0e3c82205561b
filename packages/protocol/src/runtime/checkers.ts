import type { Checker } from '../checker.js';
import type { GatewayEventName } from '../events.js';
import type { GatewayEventMap } from '../schemas/gateway-events.js';
import type {
  EditMessageBody,
  InteractionResponseBody,
  ReplaceCommandsBody,
  SendMessageBody,
} from '../schemas/requests.js';
import * as compiled from './compiled-checks.js';
import { precompiledChecker } from './precompiled-checker.js';

/**
 * Checkers of the request bodies a client validates before sending, compiled ahead of time: the
 * same checks as `checkerFor(SendMessageBody)` and so on of the root entry, without loading TypeBox
 * until a value fails and its problems are listed.
 */
export const BODY_CHECKERS: {
  SendMessageBody: Checker<SendMessageBody>;
  EditMessageBody: Checker<EditMessageBody>;
  InteractionResponseBody: Checker<InteractionResponseBody>;
  ReplaceCommandsBody: Checker<ReplaceCommandsBody>;
} = {
  SendMessageBody: precompiledChecker(compiled.SendMessageBody),
  EditMessageBody: precompiledChecker(compiled.EditMessageBody),
  InteractionResponseBody: precompiledChecker(compiled.InteractionResponseBody),
  ReplaceCommandsBody: precompiledChecker(compiled.ReplaceCommandsBody),
};

/**
 * Checkers of the gateway events' shapes (`structuralSchema` of `GATEWAY_EVENT_SCHEMAS`: types,
 * required fields, unions and lengths; string formats and patterns are not re-checked), by event name.
 */
export const GATEWAY_EVENT_CHECKERS = Object.fromEntries(
  Object.entries(compiled.GATEWAY_EVENTS).map(([name, c]) => [name, precompiledChecker(c)]),
) as { [K in GatewayEventName]: Checker<GatewayEventMap[K]> };

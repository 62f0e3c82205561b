import type { TSchema } from '@sinclair/typebox';
import { Uuid } from '../schemas/common.js';
import { ErrorDetail, ErrorEnvelope } from '../schemas/error-envelope.js';
import {
  InteractionCreateEvent,
  MessageCreateEvent,
  MessageDeleteEvent,
  MessageEditEvent,
  ReadyEvent,
} from '../schemas/gateway-events.js';
import {
  App,
  Board,
  Command,
  CommandDefinition,
  CommandOption,
  Embed,
  EmbedField,
  Interaction,
  LeafOption,
  Media,
  Member,
  Message,
  MessageInteraction,
  OptionChoice,
  UserProfile,
} from '../schemas/records.js';
import { EditMessageBody, InteractionResponseBody, ReplaceCommandsBody, SendMessageBody } from '../schemas/requests.js';
import { BoardList, CommandList, MemberList, MessageList } from '../schemas/responses.js';

/** Every named schema of the document; the key equals the schema's `title`. */
export const COMPONENT_SCHEMAS: Record<string, TSchema> = {
  Uuid,
  Board,
  UserProfile,
  Member,
  App,
  EmbedField,
  Embed,
  Media,
  MessageInteraction,
  Message,
  OptionChoice,
  LeafOption,
  CommandOption,
  CommandDefinition,
  Command,
  Interaction,
  SendMessageBody,
  EditMessageBody,
  InteractionResponseBody,
  ReplaceCommandsBody,
  BoardList,
  MemberList,
  MessageList,
  CommandList,
  ErrorDetail,
  ErrorEnvelope,
  ReadyEvent,
  MessageCreateEvent,
  MessageEditEvent,
  MessageDeleteEvent,
  InteractionCreateEvent,
};

import { type Static, Type } from '@sinclair/typebox';
import { Board, Command, Member, Message } from './records.js';

/** 200 of `GET /boards`. */
export const BoardList = Type.Object({ boards: Type.Array(Board) }, { title: 'BoardList' });
export type BoardList = Static<typeof BoardList>;

/** 200 of `GET /boards/{boardId}/members`. */
export const MemberList = Type.Object({ members: Type.Array(Member) }, { title: 'MemberList' });
export type MemberList = Static<typeof MemberList>;

/** 200 of `GET /boards/{boardId}/messages`, highest `seq` first. */
export const MessageList = Type.Object({ messages: Type.Array(Message) }, { title: 'MessageList' });
export type MessageList = { messages: Message[] };

/** 200 of `GET /app/commands` and `PUT /app/commands`. */
export const CommandList = Type.Object({ commands: Type.Array(Command) }, { title: 'CommandList' });
export type CommandList = Static<typeof CommandList>;

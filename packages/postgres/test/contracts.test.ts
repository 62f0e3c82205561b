import { AnswerRecord, ScheduleClaims } from '@boardbot/core/internal';
import {
  ANSWER_RECORD_CONTRACT,
  COOLDOWN_STORE_CONTRACT,
  POSITION_STORE_CONTRACT,
  SCHEDULE_CLAIMS_CONTRACT,
  SESSION_STORE_CONTRACT,
  SHARED_COOLDOWN_STORE_CONTRACT,
} from '@boardbot/test-support';
import { describe, it } from 'vitest';
import { usePostgres } from './support/postgres.js';

// Every store contract, on a real PostgreSQL: the memory and file stores (core), and Redis's, run the
// same checks. One schema per suite, migrated at its first statement.
const fixture = usePostgres();

describe('PostgresSessionStore', () => {
  for (const [check, run] of Object.entries(SESSION_STORE_CONTRACT)) it(check, () => run(fixture().stores().sessions));
});

describe('schedule claims in PostgresSessionStore', () => {
  for (const [check, run] of Object.entries(SCHEDULE_CLAIMS_CONTRACT)) {
    it(check, () => {
      const { sessions } = fixture().stores();
      return run((app, instance) => new ScheduleClaims(sessions, app, instance));
    });
  }
});

describe('answer records and editable links in PostgresSessionStore', () => {
  for (const [check, run] of Object.entries(ANSWER_RECORD_CONTRACT)) {
    it(check, () => {
      const { sessions } = fixture().stores();
      return run((now) => new AnswerRecord(sessions, now));
    });
  }
});

describe('PostgresCooldowns', () => {
  const contract = { ...COOLDOWN_STORE_CONTRACT, ...SHARED_COOLDOWN_STORE_CONTRACT };
  for (const [check, run] of Object.entries(contract)) it(check, () => run(fixture().stores().cooldowns));
});

describe('PostgresPositionStore', () => {
  for (const [check, run] of Object.entries(POSITION_STORE_CONTRACT)) it(check, () => run(fixture().stores().position));
});

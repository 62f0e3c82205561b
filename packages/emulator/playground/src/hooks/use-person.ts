import type { UserProfile } from '@boardbot/emulator/control';
import { useCallback, useState } from 'preact/hooks';

const STORAGE_KEY = 'boardbot.playground.person';

function remembered(): string | undefined {
  try {
    return globalThis.localStorage?.getItem(STORAGE_KEY) ?? undefined;
  } catch {
    return undefined; // Storage can be disabled; the page then forgets the choice on reload.
  }
}

/**
 * Who the person at the keyboard is: the last choice (remembered across reloads by username, which
 * survives an emulator restart, unlike ids), else the first person of the platform (alice).
 *
 * @param people - the platform's people (bot users excluded).
 */
export function usePerson(people: readonly UserProfile[]): [UserProfile | undefined, (user: UserProfile) => void] {
  const [username, setUsername] = useState<string | undefined>(remembered);
  const person = people.find((p) => p.username === username) ?? people[0];
  const choose = useCallback((user: UserProfile) => {
    setUsername(user.username);
    try {
      globalThis.localStorage?.setItem(STORAGE_KEY, user.username);
    } catch {
      // See remembered().
    }
  }, []);
  return [person, choose];
}

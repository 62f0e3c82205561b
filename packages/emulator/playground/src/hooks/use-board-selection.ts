import { useCallback, useEffect, useState } from 'preact/hooks';

const HASH_PREFIX = '#board=';

function fromHash(): string | undefined {
  const hash = globalThis.location?.hash ?? '';
  return hash.startsWith(HASH_PREFIX) ? decodeURIComponent(hash.slice(HASH_PREFIX.length)) : undefined;
}

/**
 * The board the person chose, kept in the address's hash (`#board=<id>`) so a reload shows the same
 * board. It may name a board that no longer exists (after a reset): {@link usePlayground} then
 * falls back to the first board.
 */
export function useBoardSelection(): [string | undefined, (boardId: string) => void] {
  const [wanted, setWanted] = useState<string | undefined>(fromHash);
  useEffect(() => {
    const onHash = () => setWanted(fromHash());
    globalThis.addEventListener('hashchange', onHash);
    return () => globalThis.removeEventListener('hashchange', onHash);
  }, []);
  const select = useCallback((boardId: string) => {
    const { pathname, search } = globalThis.location;
    globalThis.history.replaceState(null, '', `${pathname}${search}${HASH_PREFIX}${boardId}`);
    setWanted(boardId);
  }, []);
  return [wanted, select];
}

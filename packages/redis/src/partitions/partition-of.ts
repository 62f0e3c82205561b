/**
 * The partition of an event: a 32-bit FNV-1a hash of its ordering key (the board, by default) modulo
 * the partition count, so all events of one key go to one stream, in order. Events without a key
 * (`orderBy: 'none'`, events of no board) are spread by their id. The hash is fixed: every replica,
 * of any version, must place a key in the same partition.
 *
 * @param key - the ordering key, if any
 * @param eventId - the event's id, for events without a key
 * @param partitions - the partition count
 */
export function partitionOf(key: string | undefined, eventId: string, partitions: number): number {
  const text = key ?? eventId;
  let hash = 0x811c9dc5;
  for (const byte of Buffer.from(text, 'utf8')) {
    hash ^= byte;
    hash = Math.imul(hash, 0x01000193) >>> 0;
  }
  return hash % partitions;
}

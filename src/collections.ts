/**
 * Adds every item to the end of `target`, in place, one at a time: `target.push(...items)` passes
 * each item as an argument and overflows the stack past some hundred thousand (a commit of many
 * files, a file of many findings), so no list of unbounded length is ever spread into a call.
 */
export function pushAll<T>(target: T[], items: readonly T[]): T[] {
  for (const item of items) target.push(item);
  return target;
}

/** Adds `item` to the list `map` holds at `key`, in place: lists grown one item at a time are never copied. */
export function append<K, V>(map: Map<K, V[]>, key: K, ...items: V[]): void {
  const list = map.get(key);
  if (list) pushAll(list, items);
  else map.set(key, [...items]);
}

/** The last index of a sorted list at or below `value` (0 when none is): one binary search for every offset table. */
export function lastAtOrBelow(sorted: ArrayLike<number>, value: number): number {
  let lo = 0;
  let hi = sorted.length - 1;
  while (lo < hi) {
    const mid = (lo + hi + 1) >> 1;
    if ((sorted[mid] as number) <= value) lo = mid;
    else hi = mid - 1;
  }
  return lo;
}

/**
 * A copy of `text` that holds no reference to a longer text: a slice of a string may keep the whole
 * string it was cut from alive, so a short text kept for long (an example of a change) is copied
 * out of the capture it came from. UTF-16 round trip: every code unit, lone surrogates too, kept.
 */
export function detached(text: string): string {
  return Buffer.from(text, "utf16le").toString("utf16le");
}

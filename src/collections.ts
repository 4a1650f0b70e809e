/** Adds `item` to the list `map` holds at `key`, in place: lists grown one item at a time are never copied. */
export function append<K, V>(map: Map<K, V[]>, key: K, ...items: V[]): void {
  const list = map.get(key);
  if (list) list.push(...items);
  else map.set(key, [...items]);
}

/** `make(owner)` once per owner (an application context), kept as long as the owner lives. */
export function onePerOwner<O extends object, T>(make: (owner: O) => T): (owner: O) => T {
  const made = new WeakMap<O, T>();
  return (owner) => {
    if (!made.has(owner)) made.set(owner, make(owner));
    return made.get(owner) as T;
  };
}

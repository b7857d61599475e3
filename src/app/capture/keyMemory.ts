// The Live panel's API key: in this page's memory, or in localStorage when the user ticks "remember on this device".
// Never anywhere else: not in a record, a summary, a share link, an export or a message.

/** The part of `Storage` used (tests pass a Map-backed one). */
export type KeyStorage = Pick<Storage, 'getItem' | 'setItem' | 'removeItem'>

const PREFIX = 'chunkscope:apiKey:'
const held = new Map<string, string>()

/** Keys are kept per endpoint: `https://api.deepseek.com/v1/` and `https://api.deepseek.com/v1` are one. */
export function keySlot(baseUrl: string): string {
  const trimmed = baseUrl.trim()
  try {
    const url = new URL(trimmed)
    return `${url.origin}${url.pathname.replace(/\/+$/, '')}`
  } catch {
    return trimmed.replace(/\/+$/, '')
  }
}

function defaultStorage(): KeyStorage | null {
  try {
    return typeof localStorage === 'undefined' ? null : localStorage
  } catch {
    return null // storage blocked (privacy settings): memory only
  }
}

/** Keeps the key for this page's life only (the default). A key remembered earlier on this device is forgotten. */
export function holdKey(baseUrl: string, key: string, storage: KeyStorage | null = defaultStorage()): void {
  const slot = keySlot(baseUrl)
  if (key === '') held.delete(slot)
  else held.set(slot, key)
  storage?.removeItem(PREFIX + slot)
}

/** Keeps the key in memory and in localStorage ("remember on this device"). */
export function rememberKey(
  baseUrl: string,
  key: string,
  storage: KeyStorage | null = defaultStorage(),
): void {
  const slot = keySlot(baseUrl)
  if (key === '') return forgetKey(baseUrl, storage)
  held.set(slot, key)
  try {
    storage?.setItem(PREFIX + slot, key)
  } catch {
    // quota or blocked storage: the key stays in memory
  }
}

/** Drops the key from memory and from this device. */
export function forgetKey(baseUrl: string, storage: KeyStorage | null = defaultStorage()): void {
  const slot = keySlot(baseUrl)
  held.delete(slot)
  storage?.removeItem(PREFIX + slot)
}

/** The key for this endpoint: held in memory, else remembered on this device, else null. */
export function recalledKey(baseUrl: string, storage: KeyStorage | null = defaultStorage()): string | null {
  const slot = keySlot(baseUrl)
  return held.get(slot) ?? storage?.getItem(PREFIX + slot) ?? null
}

/** Whether this endpoint's key is remembered on this device (the tick box's state). */
export function isKeyRemembered(baseUrl: string, storage: KeyStorage | null = defaultStorage()): boolean {
  return (storage?.getItem(PREFIX + keySlot(baseUrl)) ?? null) !== null
}

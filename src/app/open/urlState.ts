/**
 * The place a reload or back/forward must return to, kept in the URL fragment: which source (a built-in example
 * or the file remembered in IndexedDB, or the live captures), which stream, which cursor. `#ex=seed&s=stream&k=4`,
 * `#f=log.jsonl&s=t1.s2.a1&k=41`, `#live&s=1/t1.s1.a2&k=12`, `#paste&s=t1.s1.a1&k=3`.
 */
export type Place = {
  /** The live captures (`#live&s=…&k=…`): saved browser captures come back from IndexedDB. */
  readonly live?: true
  /** Text pasted into the page (`#paste&s=…&k=…`): a reload cannot bring it back, so it asks for it again. */
  readonly paste?: true
  readonly example?: string
  readonly file?: string
  readonly stream?: string
  readonly k?: number
}

export function parsePlace(hash: string): Place {
  const params = new URLSearchParams(hash.replace(/^#/, ''))
  const place: { -readonly [K in keyof Place]: Place[K] } = {}
  const example = params.get('ex')
  const file = params.get('f')
  const stream = params.get('s')
  const k = params.get('k')
  if (params.has('live')) place.live = true
  if (params.has('paste')) place.paste = true
  if (example) place.example = example
  if (file) place.file = file
  if (stream) place.stream = stream
  if (k !== null && /^\d+$/.test(k)) place.k = Number(k)
  return place
}

export function formatPlace(place: Place): string {
  const params = new URLSearchParams()
  if (place.live === true) params.set('live', '')
  if (place.paste === true) params.set('paste', '')
  if (place.example !== undefined) params.set('ex', place.example)
  if (place.file !== undefined) params.set('f', place.file)
  if (place.stream !== undefined) params.set('s', place.stream)
  if (place.k !== undefined) params.set('k', String(place.k))
  // URLSearchParams encodes '/' and ':'; ids stay readable without that.
  return `#${params
    .toString()
    .replaceAll('%2F', '/')
    .replace(/^(live|paste)=(&|$)/, '$1$2')}`
}

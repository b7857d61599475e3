/** A side's content cut around its differing span: the shared start, the differing middle, the shared end. */
export type DiffParts = { readonly before: string; readonly changed: string; readonly after: string }

/** Context kept on each side of the differing span; the rest is elided, so a long block renders cheaply. */
const CONTEXT = 80
/** The differing span shown at most; past this it ends in an ellipsis. */
const MAX_CHANGED = 400

/**
 * The differing spans of two strings by their common prefix and suffix (the suffix never reaches into the prefix),
 * each cut to a little context, in UTF-16 units but never between a surrogate pair.
 *
 * @example
 * diffSpans('Hello', 'Help') // a: { before: 'Hel', changed: 'lo', after: '' }, b: { before: 'Hel', changed: 'p', after: '' }
 */
export function diffSpans(a: string, b: string): { a: DiffParts; b: DiffParts } {
  let prefix = 0
  const most = Math.min(a.length, b.length)
  while (prefix < most && a.charCodeAt(prefix) === b.charCodeAt(prefix)) prefix++
  if (prefix > 0 && prefix < most && isLow(a.charCodeAt(prefix))) prefix--
  let suffix = 0
  while (
    suffix < most - prefix &&
    a.charCodeAt(a.length - 1 - suffix) === b.charCodeAt(b.length - 1 - suffix)
  )
    suffix++
  if (suffix > 0 && isLow(a.charCodeAt(a.length - suffix))) suffix--
  return { a: partsOf(a, prefix, suffix), b: partsOf(b, prefix, suffix) }
}

function partsOf(text: string, prefix: number, suffix: number): DiffParts {
  const end = text.length - suffix
  const before = prefix > CONTEXT ? `…${text.slice(prefix - CONTEXT, prefix)}` : text.slice(0, prefix)
  const changed =
    end - prefix > MAX_CHANGED ? `${text.slice(prefix, prefix + MAX_CHANGED)}…` : text.slice(prefix, end)
  const after = suffix > CONTEXT ? `${text.slice(end, end + CONTEXT)}…` : text.slice(end)
  return { before, changed, after }
}

function isLow(code: number): boolean {
  return code >= 0xdc00 && code <= 0xdfff
}

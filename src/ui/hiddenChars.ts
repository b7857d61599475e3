/**
 * Characters that change how text is shown without showing themselves: bidirectional controls reorder what
 * follows them (`if (isAdmin) {\u202e } \u2066// check later\u2069 {` reads differently from what it is, the
 * "Trojan Source" trick), zero-width ones hide inside words. Model text is untrusted, so every place that shows it
 * replaces them with a visible mark (⟨RLO⟩), the way whitespace gets · ↵ ⇥ in the timeline.
 */
export const HIDDEN_CHARS: Readonly<Record<string, { readonly mark: string; readonly name: string }>> = {
  '\u202a': { mark: 'LRE', name: 'left-to-right embedding' },
  '\u202b': { mark: 'RLE', name: 'right-to-left embedding' },
  '\u202c': { mark: 'PDF', name: 'pop directional formatting' },
  '\u202d': { mark: 'LRO', name: 'left-to-right override' },
  '\u202e': { mark: 'RLO', name: 'right-to-left override' },
  '\u2066': { mark: 'LRI', name: 'left-to-right isolate' },
  '\u2067': { mark: 'RLI', name: 'right-to-left isolate' },
  '\u2068': { mark: 'FSI', name: 'first strong isolate' },
  '\u2069': { mark: 'PDI', name: 'pop directional isolate' },
  '\u200e': { mark: 'LRM', name: 'left-to-right mark' },
  '\u200f': { mark: 'RLM', name: 'right-to-left mark' },
  '\u061c': { mark: 'ALM', name: 'Arabic letter mark' },
  '\u200b': { mark: 'ZWSP', name: 'zero-width space' },
  '\u200c': { mark: 'ZWNJ', name: 'zero-width non-joiner' },
  '\u200d': { mark: 'ZWJ', name: 'zero-width joiner' },
  '\u2060': { mark: 'WJ', name: 'word joiner' },
  '\ufeff': { mark: 'BOM', name: 'zero-width no-break space (byte order mark)' },
}

const PATTERN = /[\u202a-\u202e\u2066-\u2069\u200e\u200f\u061c\u200b-\u200d\u2060\ufeff]/g
const TEST = new RegExp(PATTERN.source)

export function hasHiddenChars(text: string): boolean {
  // A chunk's "text" is whatever the file held: a number or an object must pass through, not throw here.
  return typeof text === 'string' && TEST.test(text)
}

/** The text with each hidden character replaced by its mark: `a\u202eb` → `a⟨RLO⟩b`. */
export function markHiddenChars(text: string): string {
  return hasHiddenChars(text) ? text.replace(PATTERN, (c) => `⟨${HIDDEN_CHARS[c]!.mark}⟩`) : text
}

export type TextPiece =
  | { readonly kind: 'text'; readonly text: string }
  | { readonly kind: 'hidden'; readonly mark: string; readonly title: string }

/** The text split around its hidden characters, so a view can style the marks apart from the text. */
export function splitHiddenChars(text: string): readonly TextPiece[] {
  if (!hasHiddenChars(text)) return [{ kind: 'text', text }]
  const pieces: TextPiece[] = []
  let from = 0
  for (const match of text.matchAll(PATTERN)) {
    if (match.index > from) pieces.push({ kind: 'text', text: text.slice(from, match.index) })
    const info = HIDDEN_CHARS[match[0]]!
    const code = match[0].charCodeAt(0).toString(16).toUpperCase().padStart(4, '0')
    pieces.push({ kind: 'hidden', mark: `⟨${info.mark}⟩`, title: `U+${code} ${info.name}` })
    from = match.index + 1
  }
  if (from < text.length) pieces.push({ kind: 'text', text: text.slice(from) })
  return pieces
}

/** How many hidden characters of each kind a text holds, in words: "1 RLO, 2 ZWSP" (empty when none). */
export function describeHiddenChars(text: string): string {
  if (!hasHiddenChars(text)) return ''
  const counts = new Map<string, number>()
  for (const match of text.matchAll(PATTERN)) {
    const mark = HIDDEN_CHARS[match[0]]!.mark
    counts.set(mark, (counts.get(mark) ?? 0) + 1)
  }
  return [...counts].map(([mark, n]) => `${n} ${mark}`).join(', ')
}

// JSON objects one after another, each spread over lines (as `jq` prints a stream), and their compact NDJSON form.

/**
 * Where the JSON value opening at `start` (`{` or `[`) ends, just after its closing bracket; -1 when the text ends
 * first. Only brackets outside strings count; nothing is parsed.
 */
export function jsonValueEnd(text: string, start: number): number {
  let depth = 0
  let inString = false
  for (let i = start; i < text.length; i++) {
    const c = text.charCodeAt(i)
    if (inString) {
      if (c === 92) i += 1
      else if (c === 34) inString = false
    } else if (c === 34) inString = true
    else if (c === 123 || c === 91) depth += 1
    else if (c === 125 || c === 93) {
      depth -= 1
      if (depth === 0) return i + 1
    }
  }
  return -1
}

/** The first object of such a text, parsed; null when the text does not open with a whole JSON object. */
export function firstConcatenated(text: string): Record<string, unknown> | null {
  const start = text.search(/\S/)
  if (start === -1 || text[start] !== '{') return null
  const end = jsonValueEnd(text, start)
  if (end === -1) return null
  try {
    const value: unknown = JSON.parse(text.slice(start, end))
    return typeof value === 'object' && value !== null && !Array.isArray(value)
      ? (value as Record<string, unknown>)
      : null
  } catch {
    return null
  }
}

/**
 * The same objects one per line (NDJSON): each whole object re-serialised compactly; an object the text ends inside,
 * and any text between objects that is no object, kept as it came on a line of its own (its line breaks made
 * spaces), for the NDJSON reader to name. `objects` counts the whole objects.
 */
export function compactConcatenated(text: string): { ndjson: string; objects: number } {
  const lines: string[] = []
  let objects = 0
  let pos = 0
  while (pos < text.length) {
    const start = text.slice(pos).search(/\S/)
    if (start === -1) break
    const at = pos + start
    if (text[at] !== '{') {
      const brace = text.indexOf('\n{', at)
      const end = brace === -1 ? text.length : brace + 1
      lines.push(
        text
          .slice(at, end)
          .trim()
          .replace(/\s*\r?\n\s*/g, ' '),
      )
      pos = end
      continue
    }
    const end = jsonValueEnd(text, at)
    const raw = text.slice(at, end === -1 ? text.length : end)
    try {
      lines.push(JSON.stringify(JSON.parse(raw)))
      objects += 1
    } catch {
      lines.push(raw.trim().replace(/\s*\r?\n\s*/g, ' '))
    }
    if (end === -1) return { ndjson: lines.join('\n'), objects }
    pos = end
  }
  return { ndjson: lines.join('\n') + '\n', objects }
}

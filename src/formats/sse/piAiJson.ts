/**
 * JSON the way pi-ai 0.82.1 reads it from an Anthropic stream (docs/protocol.md §9, "The harness's pi-ai route"):
 * - every event's data goes through a *repairing* parse: when `JSON.parse` fails, raw control characters inside
 *   strings are escaped and backslashes before invalid escapes doubled, then it is parsed again;
 * - a tool call's arguments are parsed from the concatenated `partial_json` by a *streaming* parse that never
 *   fails: repaired JSON, else the longest readable prefix (the `partial-json` package's rules: an unterminated
 *   string, number, array or object keeps what it holds), else `{}`.
 * These functions follow the same steps so the results are the same values, odd inputs included; a property test
 * checks them against pi-ai's own exports.
 */

const VALID_ESCAPES = '"\\/bfnrtu'

/** Escapes raw control characters inside strings and doubles a backslash that starts no valid escape. */
export function repairJson(json: string): string {
  let out = ''
  let inString = false
  for (let i = 0; i < json.length; i++) {
    const char = json[i]!
    if (!inString) {
      out += char
      if (char === '"') inString = true
      continue
    }
    if (char === '"') {
      out += char
      inString = false
      continue
    }
    if (char === '\\') {
      const next = json[i + 1]
      if (next === undefined) {
        out += '\\\\'
        continue
      }
      if (next === 'u' && /^[0-9a-fA-F]{4}$/.test(json.slice(i + 2, i + 6))) {
        out += `\\u${json.slice(i + 2, i + 6)}`
        i += 5
        continue
      }
      if (VALID_ESCAPES.includes(next)) {
        out += `\\${next}`
        i += 1
        continue
      }
      out += '\\\\'
      continue
    }
    const code = char.codePointAt(0)!
    out += code <= 0x1f ? escapeControl(char, code) : char
  }
  return out
}

function escapeControl(char: string, code: number): string {
  switch (char) {
    case '\b':
      return '\\b'
    case '\f':
      return '\\f'
    case '\n':
      return '\\n'
    case '\r':
      return '\\r'
    case '\t':
      return '\\t'
    default:
      return `\\u${code.toString(16).padStart(4, '0')}`
  }
}

/** `JSON.parse`, and on failure once more after {@link repairJson} (throws the first error when nothing changed). */
export function parseJsonWithRepair(json: string): unknown {
  try {
    return JSON.parse(json)
  } catch (error) {
    const repaired = repairJson(json)
    if (repaired !== json) return JSON.parse(repaired)
    throw error
  }
}

/**
 * A tool call's arguments from its (possibly incomplete) `partial_json`: never throws; `{}` for blank input.
 *
 * @example
 * parseStreamingJson('{"city": "Par') // { city: 'Par' }
 */
export function parseStreamingJson(partial: string): unknown {
  if (!partial || partial.trim() === '') return {}
  try {
    return parseJsonWithRepair(partial)
  } catch {
    try {
      return parsePartial(partial) ?? {}
    } catch {
      try {
        return parsePartial(repairJson(partial)) ?? {}
      } catch {
        return {}
      }
    }
  }
}

class Incomplete extends Error {}

/**
 * The longest readable value at the start of `input` (after trimming), with every kind allowed to be partial.
 * Throws when there is none. Same steps as `partial-json` 0.1.7's `parse`.
 */
export function parsePartial(input: string): unknown {
  if (!input.trim()) throw new Error(`${input} is empty`)
  const s = input.trim()
  const length = s.length
  let i = 0

  const skipBlank = () => {
    while (i < length && ' \n\r\t'.includes(s[i]!)) i++
  }
  // A literal, complete or (at the very end of the input) cut short: `nu` reads as null.
  const literal = (word: string, minRest = 0): boolean => {
    if (s.substring(i, i + word.length) === word) return true
    const rest = length - i
    return rest > minRest && rest < word.length && word.startsWith(s.substring(i))
  }
  const value = (): unknown => {
    skipBlank()
    if (i >= length) throw new Incomplete('Unexpected end of input')
    const char = s[i]
    if (char === '"') return string()
    if (char === '{') return object()
    if (char === '[') return array()
    const literals: [string, unknown, number][] = [
      ['null', null, 0],
      ['true', true, 0],
      ['false', false, 0],
      ['Infinity', Infinity, 0],
      ['-Infinity', -Infinity, 1],
      ['NaN', NaN, 0],
    ]
    for (const [word, result, minRest] of literals) {
      if (literal(word, minRest)) {
        i += word.length
        return result
      }
    }
    return number()
  }
  const string = (): unknown => {
    const start = i
    let escape = false
    i++
    while (i < length && (s[i] !== '"' || (escape && s[i - 1] === '\\'))) {
      escape = s[i] === '\\' ? !escape : false
      i++
    }
    if (s.charAt(i) === '"') {
      i++
      return JSON.parse(s.substring(start, i - Number(escape)))
    }
    try {
      return JSON.parse(s.substring(start, i - Number(escape)) + '"')
    } catch {
      return JSON.parse(s.substring(start, s.lastIndexOf('\\')) + '"')
    }
  }
  const object = (): unknown => {
    i++
    skipBlank()
    const result: Record<string, unknown> = {}
    try {
      while (s[i] !== '}') {
        skipBlank()
        if (i >= length) return result
        const key = string() as string
        skipBlank()
        i++
        try {
          result[key] = value()
        } catch {
          return result
        }
        skipBlank()
        if (s[i] === ',') i++
      }
    } catch {
      return result
    }
    i++
    return result
  }
  const array = (): unknown => {
    i++
    const result: unknown[] = []
    try {
      while (s[i] !== ']') {
        result.push(value())
        skipBlank()
        if (s[i] === ',') i++
      }
    } catch {
      return result
    }
    i++
    return result
  }
  const number = (): unknown => {
    if (i === 0) {
      if (s === '-') throw new Error("Not sure what '-' is")
      try {
        return JSON.parse(s)
      } catch (error) {
        try {
          return JSON.parse(s.substring(0, s.lastIndexOf('e')))
        } catch {
          throw error
        }
      }
    }
    const start = i
    if (s[i] === '-') i++
    while (s[i] && ',]}'.indexOf(s[i]!) === -1) i++
    try {
      return JSON.parse(s.substring(start, i))
    } catch {
      if (s.substring(start, i) === '-') throw new Incomplete("Not sure what '-' is")
      return JSON.parse(s.substring(start, s.lastIndexOf('e')))
    }
  }
  return value()
}

/**
 * A tolerant JSON parser for tool-call arguments as they stream: any prefix of JSON text becomes a tree of the parts
 * read so far. Iterative (an explicit stack), so deeply nested input cannot overflow the call stack, and linear in
 * the text. It parses exactly RFC 8259 JSON, as `JSON.parse` does: `complete` iff `JSON.parse` accepts the text.
 */

export type JsonNode =
  | { readonly kind: 'object'; readonly entries: JsonEntry[]; closed: boolean }
  | { readonly kind: 'array'; readonly items: JsonNode[]; closed: boolean }
  /** `closed` is false while the closing quote has not arrived (the text so far is `value`). */
  | { readonly kind: 'string'; readonly value: string; readonly closed: boolean }
  /** `text` as written; at the end of the input it may still be a prefix (`-`, `1.`, `2e`). */
  | { readonly kind: 'number'; readonly text: string }
  /** `text` is the literal as far as it arrived (`tr` for a coming `true`). */
  | { readonly kind: 'boolean'; readonly value: boolean; readonly text: string }
  | { readonly kind: 'null'; readonly text: string }

export type JsonEntry = {
  readonly key: string
  /** False while the key's closing quote has not arrived. */
  readonly keyClosed: boolean
  /** Null until the value starts. */
  value: JsonNode | null
}

export type JsonTree = {
  /** `incomplete`: a valid prefix (empty included); `complete`: valid JSON; `invalid`: see `errorAt`. */
  readonly status: 'incomplete' | 'complete' | 'invalid'
  /** What was parsed before the end or the first error. */
  readonly root: JsonNode | null
  /** Offset (UTF-16 code units) of the first character that cannot continue valid JSON. */
  readonly errorAt: number | null
  readonly error: string | null
  /** Values in the tree (containers, scalars), for render budgets. */
  readonly nodeCount: number
}

type Frame =
  | { readonly node: Extract<JsonNode, { kind: 'array' }> }
  | { readonly node: Extract<JsonNode, { kind: 'object' }>; entry: JsonEntry | null }

/** What the parser expects next. */
type Expect = 'value' | 'value-or-close' | 'key' | 'key-or-close' | 'colon' | 'after'

const LITERALS = { t: 'true', f: 'false', n: 'null' } as const
const ESCAPES: Readonly<Record<string, string>> = {
  '"': '"',
  '\\': '\\',
  '/': '/',
  b: '\b',
  f: '\f',
  n: '\n',
  r: '\r',
  t: '\t',
}

/**
 * Parses a prefix of JSON text into the tree read so far.
 *
 * @example
 * buildJsonTree('{"city": "Par').status // 'incomplete'; root: object { city: string 'Par' (open) }
 * buildJsonTree('{"a":1}x') // { status: 'invalid', errorAt: 7, … }
 */
export function buildJsonTree(text: string): JsonTree {
  const n = text.length
  const stack: Frame[] = []
  let root: JsonNode | null = null
  let expect: Expect = 'value'
  let nodeCount = 0
  let i = 0

  const result = (
    status: JsonTree['status'],
    errorAt: number | null = null,
    error: string | null = null,
  ) => ({
    status,
    root,
    errorAt,
    error,
    nodeCount,
  })
  const attach = (node: JsonNode): void => {
    nodeCount += 1
    const top = stack.at(-1)
    if (top === undefined) root = node
    else if ('entry' in top) {
      if (top.entry) top.entry.value = node
    } else top.node.items.push(node)
  }

  for (;;) {
    while (i < n && isSpace(text.charCodeAt(i))) i++
    if (i >= n) break
    const c = text[i]!

    if (expect === 'after') {
      const top = stack.at(-1)
      if (top === undefined) return result('invalid', i, 'unexpected text after the JSON value')
      const isObject = 'entry' in top
      if (c === ',') {
        expect = isObject ? 'key' : 'value'
        i++
      } else if (c === (isObject ? '}' : ']')) {
        top.node.closed = true
        stack.pop()
        i++
      } else return result('invalid', i, isObject ? "expected ',' or '}'" : "expected ',' or ']'")
      continue
    }

    if (expect === 'colon') {
      if (c !== ':') return result('invalid', i, "expected ':' after the key")
      expect = 'value'
      i++
      continue
    }

    if (expect === 'key' || expect === 'key-or-close') {
      const top = stack.at(-1) as Extract<Frame, { entry: unknown }>
      if (c === '}' && expect === 'key-or-close') {
        top.node.closed = true
        stack.pop()
        expect = 'after'
        i++
        continue
      }
      if (c !== '"')
        return result('invalid', i, expect === 'key' ? 'expected a key' : "expected a key or '}'")
      const read = readString(text, i)
      const entry: JsonEntry = { key: read.value, keyClosed: read.end !== null, value: null }
      top.node.entries.push(entry)
      top.entry = entry
      if (read.errorAt !== null) return result('invalid', read.errorAt, read.error)
      if (read.end === null) break
      i = read.end
      expect = 'colon'
      continue
    }

    // expect is 'value' or 'value-or-close'
    if (c === ']' && expect === 'value-or-close') {
      const top = stack.pop()!
      top.node.closed = true
      expect = 'after'
      i++
      continue
    }
    if (c === '{' || c === '[') {
      const node: JsonNode =
        c === '{'
          ? { kind: 'object', entries: [], closed: false }
          : { kind: 'array', items: [], closed: false }
      attach(node)
      stack.push(node.kind === 'object' ? { node, entry: null } : { node })
      expect = c === '{' ? 'key-or-close' : 'value-or-close'
      i++
      continue
    }
    if (c === '"') {
      const read = readString(text, i)
      attach({ kind: 'string', value: read.value, closed: read.end !== null })
      if (read.errorAt !== null) return result('invalid', read.errorAt, read.error)
      if (read.end === null) break
      i = read.end
      expect = 'after'
      continue
    }
    if (c === '-' || (c >= '0' && c <= '9')) {
      const read = readNumber(text, i)
      if (read.end > i) attach({ kind: 'number', text: text.slice(i, read.end) })
      if (read.errorAt !== null) return result('invalid', read.errorAt, 'malformed number')
      if (read.partial) break
      i = read.end
      expect = 'after'
      continue
    }
    if (c === 't' || c === 'f' || c === 'n') {
      const word = LITERALS[c]
      let j = 0
      while (j < word.length && i + j < n && text[i + j] === word[j]) j++
      const partial = text.slice(i, i + j)
      attach(
        c === 'n' ? { kind: 'null', text: partial } : { kind: 'boolean', value: c === 't', text: partial },
      )
      if (j < word.length) {
        if (i + j < n) return result('invalid', i + j, `expected "${word}"`)
        break
      }
      i += j
      expect = 'after'
      continue
    }
    return result('invalid', i, expect === 'value-or-close' ? "expected a value or ']'" : 'expected a value')
  }

  return result(expect === 'after' && stack.length === 0 && root !== null ? 'complete' : 'incomplete')
}

function isSpace(code: number): boolean {
  return code === 0x20 || code === 0x0a || code === 0x0d || code === 0x09
}

type StringRead = {
  readonly value: string
  /** Offset after the closing quote, null when the text ended first. */
  readonly end: number | null
  readonly errorAt: number | null
  readonly error: string | null
}

/** Reads a string starting at the quote at `start`; copies runs between escapes in one slice each. */
function readString(text: string, start: number): StringRead {
  const n = text.length
  let value = ''
  let run = start + 1
  let i = run
  while (i < n) {
    const code = text.charCodeAt(i)
    if (code === 0x22) return { value: value + text.slice(run, i), end: i + 1, errorAt: null, error: null }
    if (code < 0x20) {
      return {
        value: value + text.slice(run, i),
        end: null,
        errorAt: i,
        error: 'control character in a string',
      }
    }
    if (code !== 0x5c) {
      i++
      continue
    }
    value += text.slice(run, i)
    if (i + 1 >= n) return { value, end: null, errorAt: null, error: null }
    const escape = text[i + 1]!
    if (escape === 'u') {
      let j = i + 2
      while (j < n && j < i + 6 && /[0-9a-fA-F]/.test(text[j]!)) j++
      if (j < i + 6 && j < n) return { value, end: null, errorAt: j, error: 'malformed \\u escape' }
      if (j < i + 6) return { value, end: null, errorAt: null, error: null }
      value += String.fromCharCode(parseInt(text.slice(i + 2, i + 6), 16))
      i += 6
    } else {
      const decoded = ESCAPES[escape]
      if (decoded === undefined) return { value, end: null, errorAt: i + 1, error: 'invalid escape' }
      value += decoded
      i += 2
    }
    run = i
  }
  return { value: value + text.slice(run, n), end: null, errorAt: null, error: null }
}

/**
 * Reads a number at `start` per the JSON grammar; `errorAt` marks the first character that breaks it, `partial`
 * says the text ended where a digit is still required (`-`, `1.`, `1e+`).
 */
function readNumber(text: string, start: number): { end: number; errorAt: number | null; partial: boolean } {
  const n = text.length
  let i = start
  const digits = (): void => {
    while (i < n && text[i]! >= '0' && text[i]! <= '9') i++
  }
  const isDigit = (): boolean => text[i]! >= '0' && text[i]! <= '9'
  // After a sign, a point or an exponent mark: a digit must follow.
  const needDigit = (): { end: number; errorAt: number | null; partial: boolean } | null => {
    if (i >= n) return { end: i, errorAt: null, partial: true }
    return isDigit() ? null : { end: i, errorAt: i, partial: false }
  }
  if (text[i] === '-') i++
  const first = needDigit()
  if (first) return first
  if (text[i] === '0') i++
  else digits()
  if (text[i] === '.') {
    i++
    const fraction = needDigit()
    if (fraction) return fraction
    digits()
  }
  if (text[i] === 'e' || text[i] === 'E') {
    i++
    if (text[i] === '+' || text[i] === '-') i++
    const exponent = needDigit()
    if (exponent) return exponent
    digits()
  }
  return { end: i, errorAt: null, partial: false }
}

/**
 * The JavaScript value a tree stands for (partial parts as far as they arrived; duplicate keys: last wins, like
 * `JSON.parse`). Used by tests and the "copy value" action.
 */
export function jsonTreeValue(node: JsonNode | null): unknown {
  if (node === null) return undefined
  switch (node.kind) {
    case 'object': {
      const value: Record<string, unknown> = {}
      for (const entry of node.entries) {
        // defineProperty: a "__proto__" key is an own property in JSON.parse's result, not a prototype change.
        Object.defineProperty(value, entry.key, {
          value: jsonTreeValue(entry.value),
          enumerable: true,
          writable: true,
          configurable: true,
        })
      }
      return value
    }
    case 'array':
      return node.items.map(jsonTreeValue)
    case 'string':
      return node.value
    case 'number':
      return Number(node.text)
    case 'boolean':
      return node.value
    case 'null':
      return null
  }
}

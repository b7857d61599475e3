/**
 * A tolerant reader of JavaScript/TypeScript object literals for code pasted from a tutorial: a tokenizer and a
 * recursive-descent parser over literal syntax. It NEVER evaluates code (no eval, no Function): it understands
 * objects, arrays, strings ('…', "…", `…` without `${}`), numbers, true/false/null/undefined, comments, trailing
 * commas, `CallId('…')` and other `SomethingId('…')` brand factories, `JSON.stringify(<literal>)`, `'a' + 'b'`,
 * and `as const` / `satisfies T` after a value. Anything else is an unsupported expression with its line.
 */
import { tooDeep } from '../json'
import { MAX_JSON_DEPTH } from '../limits'

export type Token = {
  readonly kind: 'ident' | 'string' | 'number' | 'punct' | 'template-expr'
  readonly value: string
  /** The number for `number` tokens. */
  readonly number?: number
  readonly start: number
  readonly end: number
  readonly line: number
}

const IDENT_START = /[\p{L}_$]/u
const IDENT_PART = /[\p{L}\p{N}_$\u200c\u200d]/u
const PUNCT3 = ['...', '===', '!==', '```']
const PUNCT2 = ['=>', '==', '!=', '<=', '>=', '&&', '||', '??', '?.', '++', '--', '+=', '-=']

/** A line or block comment: its offsets and its text without the comment markers. */
export type Comment = {
  readonly start: number
  readonly end: number
  readonly line: number
  readonly text: string
}

/**
 * Tokens of `text`, comments left out of them (collected into `comments` when given). Unterminated strings end at
 * their line; a ``` fence is one token.
 */
export function tokenize(text: string, comments?: Comment[]): Token[] {
  const tokens: Token[] = []
  let i = 0
  let line = 1
  const n = text.length
  while (i < n) {
    const c = text[i]!
    if (c === '\n') {
      line += 1
      i += 1
      continue
    }
    if (c === ' ' || c === '\t' || c === '\r' || c === '\ufeff' || c === '\u00a0') {
      i += 1
      continue
    }
    if (c === '/' && text[i + 1] === '/') {
      const end = text.indexOf('\n', i)
      const stop = end === -1 ? n : end
      comments?.push({ start: i, end: stop, line, text: text.slice(i + 2, stop).trim() })
      i = stop
      continue
    }
    if (c === '/' && text[i + 1] === '*') {
      const end = text.indexOf('*/', i + 2)
      const stop = end === -1 ? n : end + 2
      const body = text.slice(i + 2, end === -1 ? n : end)
      comments?.push({ start: i, end: stop, line, text: body.replace(/^[ \t]*\*+[ \t]?/gm, '').trim() })
      for (let k = i; k < stop; k++) if (text.charCodeAt(k) === 10) line += 1
      i = stop
      continue
    }
    const start = i
    const startLine = line
    if (c === "'" || c === '"') {
      let value = ''
      i += 1
      let chunkStart = i
      while (i < n && text[i] !== c && text[i] !== '\n') {
        if (text[i] === '\\') {
          value += text.slice(chunkStart, i)
          const [decoded, next] = unescape(text, i)
          value += decoded
          if (text[i + 1] === '\n') line += 1
          i = next
          chunkStart = i
        } else i += 1
      }
      value += text.slice(chunkStart, i)
      if (text[i] === c) i += 1
      tokens.push({ kind: 'string', value, start, end: i, line: startLine })
      continue
    }
    if (c === '`') {
      if (text.startsWith('```', i)) {
        i += 3
        continue
      }
      let value = ''
      let interpolated = false
      i += 1
      let chunkStart = i
      while (i < n && text[i] !== '`') {
        if (text[i] === '\\') {
          value += text.slice(chunkStart, i)
          const [decoded, next] = unescape(text, i)
          value += decoded
          i = next
          chunkStart = i
          continue
        }
        if (text[i] === '$' && text[i + 1] === '{') interpolated = true
        if (text[i] === '\n') line += 1
        i += 1
      }
      value += text.slice(chunkStart, i)
      if (i < n) i += 1
      tokens.push({ kind: interpolated ? 'template-expr' : 'string', value, start, end: i, line: startLine })
      continue
    }
    if ((c >= '0' && c <= '9') || (c === '.' && /[0-9]/.test(text[i + 1] ?? ''))) {
      const match =
        /^(0[xX][0-9a-fA-F_]+|0[oO][0-7_]+|0[bB][01_]+|(\d[\d_]*)?\.?\d[\d_]*([eE][+-]?\d+)?)n?/.exec(
          text.slice(i, i + 64),
        )
      const raw = match?.[0] ?? c
      i += raw.length
      const clean = raw.replace(/_/g, '').replace(/n$/, '')
      tokens.push({ kind: 'number', value: raw, number: Number(clean), start, end: i, line: startLine })
      continue
    }
    if (IDENT_START.test(c)) {
      i += 1
      while (i < n && IDENT_PART.test(text[i]!)) i += 1
      tokens.push({ kind: 'ident', value: text.slice(start, i), start, end: i, line: startLine })
      continue
    }
    const three = text.slice(i, i + 3)
    const two = text.slice(i, i + 2)
    const value = PUNCT3.includes(three) ? three : PUNCT2.includes(two) ? two : c
    i += value.length
    tokens.push({ kind: 'punct', value, start, end: i, line: startLine })
  }
  return tokens
}

function unescape(text: string, at: number): [string, number] {
  const e = text[at + 1]
  switch (e) {
    case 'n':
      return ['\n', at + 2]
    case 't':
      return ['\t', at + 2]
    case 'r':
      return ['\r', at + 2]
    case 'b':
      return ['\b', at + 2]
    case 'f':
      return ['\f', at + 2]
    case 'v':
      return ['\v', at + 2]
    case '0':
      return ['\0', at + 2]
    case '\r':
      return ['', text[at + 2] === '\n' ? at + 3 : at + 2]
    case '\n':
      return ['', at + 2]
    case 'x': {
      const hex = text.slice(at + 2, at + 4)
      return /^[0-9a-fA-F]{2}$/.test(hex) ? [String.fromCharCode(parseInt(hex, 16)), at + 4] : ['x', at + 2]
    }
    case 'u': {
      if (text[at + 2] === '{') {
        const close = text.indexOf('}', at + 3)
        const code = parseInt(text.slice(at + 3, close), 16)
        if (close !== -1 && close - at < 12 && Number.isFinite(code) && code <= 0x10ffff)
          return [String.fromCodePoint(code), close + 1]
        return ['u', at + 2]
      }
      const hex = text.slice(at + 2, at + 6)
      return /^[0-9a-fA-F]{4}$/.test(hex) ? [String.fromCharCode(parseInt(hex, 16)), at + 6] : ['u', at + 2]
    }
    case undefined:
      return ['', at + 1]
    default:
      return [e, at + 2]
  }
}

export class UnsupportedExpression extends Error {
  constructor(
    message: string,
    readonly line: number,
  ) {
    super(message)
  }
}

/** A literal value parser over `tokens` from position `at`; `parseValue()` advances `at`. */
export class LiteralParser {
  constructor(
    private readonly tokens: readonly Token[],
    public at: number,
  ) {}

  private depth = 0

  private peek(offset = 0): Token | undefined {
    return this.tokens[this.at + offset]
  }

  private fail(message: string, token: Token | undefined = this.peek() ?? this.tokens.at(-1)): never {
    throw new UnsupportedExpression(message, token?.line ?? 0)
  }

  private expect(value: string): void {
    const token = this.peek()
    if (token?.kind !== 'punct' || token.value !== value)
      this.fail(`expected "${value}"${token ? `, found ${describe(token)}` : ' before the end of the text'}`)
    this.at += 1
  }

  private isPunct(value: string, offset = 0): boolean {
    const token = this.peek(offset)
    return token?.kind === 'punct' && token.value === value
  }

  parseValue(): unknown {
    let value = this.parsePrimary()
    for (;;) {
      const token = this.peek()
      if (token?.kind === 'ident' && (token.value === 'as' || token.value === 'satisfies')) {
        this.at += 1
        this.skipType()
        continue
      }
      if (this.isPunct('+') && typeof value === 'string') {
        this.at += 1
        const right = this.parsePrimary()
        if (typeof right !== 'string' && typeof right !== 'number')
          this.fail('"+" joins only string literals')
        value = value + String(right)
        continue
      }
      if (this.isPunct('!')) {
        this.at += 1
        continue
      }
      return value
    }
  }

  /** Parses one bracket level deeper; past the readers' depth limit the literal is refused (the parser recurses). */
  private nested<T>(parse: () => T): T {
    if (++this.depth > MAX_JSON_DEPTH) this.fail(tooDeep())
    const value = parse()
    this.depth -= 1
    return value
  }

  private skipType(): void {
    // `as const`, `as CallId`, `as Foo.Bar`, `satisfies StreamChunk[]` — enough for pasted tutorial code.
    const first = this.peek()
    if (first?.kind !== 'ident') this.fail('expected a type after "as" / "satisfies"')
    this.at += 1
    while (this.isPunct('.') && this.peek(1)?.kind === 'ident') this.at += 2
    while (this.isPunct('[') && this.isPunct(']', 1)) this.at += 2
  }

  private parsePrimary(): unknown {
    const token = this.peek()
    if (token === undefined) this.fail('unexpected end of the text')
    switch (token.kind) {
      case 'string':
        this.at += 1
        return token.value
      case 'template-expr':
        this.fail('a template literal with ${…} needs evaluation', token)
        break
      case 'number':
        this.at += 1
        return token.number
      case 'punct':
        if (token.value === '{') return this.nested(() => this.parseObject())
        if (token.value === '[') return this.nested(() => this.parseArray())
        if ((token.value === '-' || token.value === '+') && this.peek(1)?.kind === 'number') {
          this.at += 2
          const number = this.tokens[this.at - 1]!.number!
          return token.value === '-' ? -number : number
        }
        if (token.value === '(') {
          this.at += 1
          const inner = this.nested(() => this.parseValue())
          this.expect(')')
          return inner
        }
        this.fail(`unexpected ${describe(token)}`, token)
        break
      case 'ident':
        return this.parseIdentifier(token)
    }
    return this.fail('unexpected token')
  }

  private parseIdentifier(token: Token): unknown {
    switch (token.value) {
      case 'true':
        this.at += 1
        return true
      case 'false':
        this.at += 1
        return false
      case 'null':
        this.at += 1
        return null
      case 'undefined':
        this.at += 1
        return undefined
    }
    if (
      token.value === 'JSON' &&
      this.isPunct('.', 1) &&
      this.peek(2)?.value === 'stringify' &&
      this.isPunct('(', 3)
    ) {
      this.at += 4
      const inner = this.parseValue()
      if (this.isPunct(',')) this.fail('JSON.stringify with more than one argument', this.peek())
      this.expect(')')
      return JSON.stringify(inner) ?? 'undefined'
    }
    if (token.value.endsWith('Id') && this.isPunct('(', 1)) {
      // Brand factories like CallId('call-123') return their argument.
      this.at += 2
      const inner = this.parseValue()
      if (typeof inner !== 'string')
        this.fail(`${token.value}(…) with an argument that is not a string`, token)
      this.expect(')')
      return inner
    }
    const call = this.isPunct('(', 1) ? `${token.value}(…)` : token.value
    return this.fail(`\`${call}\` is an expression that needs evaluation (a variable or a call)`, token)
  }

  private parseObject(): Record<string, unknown> {
    this.expect('{')
    const object: Record<string, unknown> = {}
    while (!this.isPunct('}')) {
      const key = this.peek()
      if (key === undefined) this.fail('unterminated object literal')
      let name: string
      if (key.kind === 'ident' || key.kind === 'string') name = key.value
      else if (key.kind === 'number') name = String(key.number)
      else if (key.kind === 'punct' && key.value === '...') this.fail('a spread (...) needs evaluation', key)
      else if (key.kind === 'punct' && key.value === '[')
        this.fail('a computed key [...] needs evaluation', key)
      else this.fail(`unexpected ${describe(key)} where a property name belongs`, key)
      this.at += 1
      if (this.isPunct(',') || this.isPunct('}')) {
        if (key.kind === 'ident') this.fail(`shorthand property \`${name}\` refers to a variable`, key)
      }
      if (this.isPunct('(')) this.fail(`method \`${name}()\` is code, not data`, key)
      this.expect(':')
      const value = this.parseValue()
      if (value !== undefined) object[name] = value
      else delete object[name]
      if (!this.isPunct(',')) break
      this.at += 1
    }
    this.expect('}')
    return object
  }

  private parseArray(): unknown[] {
    this.expect('[')
    const array: unknown[] = []
    while (!this.isPunct(']')) {
      if (this.isPunct(',')) this.fail('an array hole', this.peek())
      if (this.isPunct('...')) this.fail('a spread (...) needs evaluation', this.peek())
      const value = this.parseValue()
      array.push(value === undefined ? null : value)
      if (!this.isPunct(',')) break
      this.at += 1
    }
    this.expect(']')
    return array
  }
}

function describe(token: Token): string {
  if (token.kind === 'string') return 'a string'
  if (token.kind === 'number') return `number ${token.value}`
  return `"${token.value.length > 20 ? `${token.value.slice(0, 20)}…` : token.value}"`
}

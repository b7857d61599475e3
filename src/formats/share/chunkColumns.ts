import { isRecord } from '../../core/base/isRecord'
import { Malformed, MAX_ZIGZAG } from './bytes'
import { Bits, IntModel, RangeDecoder, RangeEncoder, sizeClass } from './rangeCoder'

// A v2 link's chunks as columns (docs/protocol.md §14). Each chunk is one op; a chunk of the usual shapes (exact
// keys in the usual order) puts its index, its text's length and its text in columns; any other chunk travels
// whole in the skeleton (op 0), so every chunk comes back exactly as it went, odd ones included. The number
// columns (op, index, length, seq, time) are range-coded per chunk, each under its own model (rangeCoder.ts).

const WHOLE = 0
const TEXT = 1
const REASONING = 2
/** A tool-call delta with the id and name (or no name) of the previous tool-call delta at its index. */
const TOOL_SAME = 3
/** A tool-call delta with a new id and name: both join the names list. */
const TOOL_NEW = 4
/** A tool-call delta with a new id and no `name` key. */
const TOOL_NEW_UNNAMED = 5
const START = 6 // + 0 text, 1 reasoning, 2 tool-call
const START_TYPES = ['text', 'reasoning', 'tool-call'] as const
/** A block-end whose block is exactly what the deltas at its index built since its block-start. */
const END_BUILT = 9

const DELTA_KEYS = ['type', 'index', 'text']
const TOOL_KEYS = ['type', 'index', 'id', 'name', 'argumentsDelta']
const TOOL_UNNAMED_KEYS = ['type', 'index', 'id', 'argumentsDelta']
const START_KEYS = ['type', 'index', 'blockType']
const END_KEYS = ['type', 'index', 'block']

export type ColumnarSource = {
  readonly kind: 'chunks'
  readonly chunks: unknown[]
  readonly seq: number[]
  readonly time: (number | null)[]
}

export type ChunkColumns = {
  readonly count: number
  /**
   * The range-coded numbers (per chunk its op, index, length, seq and time), once the whole text column is known:
   * a length is coded against the characters around its end (`text` starts with the deltas' text).
   */
  numbers(text: string): Uint8Array
  readonly text: string
  /** The chunks that travel whole, in order. */
  readonly whole: unknown[]
  /** The new tool-call ids and names, in order. */
  readonly names: string[]
}

/** Whether a payload's source can travel as columns: kind `chunks` with its three arrays, seqs and times integers. */
export function isColumnarSource(payload: unknown): payload is { source: ColumnarSource } {
  if (!isRecord(payload) || !isRecord(payload['source'])) return false
  const source = payload['source']
  if (!keysAre(source, ['kind', 'chunks', 'seq', 'time']) || source['kind'] !== 'chunks') return false
  const { chunks, seq, time } = source
  if (!Array.isArray(chunks) || !Array.isArray(seq) || !Array.isArray(time)) return false
  if (seq.length !== chunks.length || time.length !== chunks.length) return false
  const fits = (n: unknown, max: number) => Number.isSafeInteger(n) && Math.abs(n as number) <= max
  return seq.every((n) => fits(n, MAX_ZIGZAG)) && time.every((n) => n === null || fits(n, MAX_ZIGZAG - 1))
}

type Track = {
  readonly blockType: string | null
  readonly text: string[]
  readonly args: string[]
  tool: { id: string; name: string | undefined } | null
}

/** What each index's deltas built since its block-start: the same on both sides, from the columnar chunks only. */
class Tracks {
  private readonly byIndex = new Map<number, Track>()

  get(index: number): Track {
    let track = this.byIndex.get(index)
    if (track === undefined) this.byIndex.set(index, (track = fresh(null)))
    return track
  }

  start(index: number, blockType: string): void {
    this.byIndex.set(index, fresh(blockType))
  }

  /** The block a block-end at `index` carries when it equals its deltas, or null when there is no guess. */
  built(index: number): object | null {
    const track = this.byIndex.get(index)
    if (track === undefined) return null
    if (track.blockType === 'text' || track.blockType === 'reasoning')
      return { type: track.blockType, text: track.text.join('') }
    if (track.blockType === 'tool-call' && track.tool !== null && track.tool.name !== undefined)
      return { type: 'tool-call', id: track.tool.id, name: track.tool.name, arguments: track.args.join('') }
    return null
  }
}

const fresh = (blockType: string | null): Track => ({ blockType, text: [], args: [], tool: null })

/** Chunks encoded between two pauses: each slice is one short task. */
const SLICE = 20_000

/** `pause` is awaited between slices of a big stream, so a page stays responsive while it is encoded. */
export async function encodeChunks(
  source: ColumnarSource,
  pause: () => Promise<void>,
): Promise<ChunkColumns> {
  const rows: number[] = []
  const text: string[] = []
  const whole: unknown[] = []
  const names: string[] = []
  const tracks = new Tracks()
  let at = 0
  const put = (op: number, index: number, delta?: string) => {
    const time = source.time[at]!
    // 0 is an unknown time; any other value is the zigzag code of the delta, plus one.
    const timeCode = time === null ? 0 : zigzag(time) + 1
    rows.push(op, index, delta?.length ?? 0, zigzag(source.seq[at]!), timeCode)
    at++
    if (delta !== undefined) text.push(delta)
  }
  for (const chunk of source.chunks) {
    if (at > 0 && at % SLICE === 0) await pause()
    const indexed = isRecord(chunk) && Number.isSafeInteger(chunk['index']) && (chunk['index'] as number) >= 0
    const c = chunk as Record<string, unknown>
    const index = c?.['index'] as number
    if (indexed && (c['type'] === 'text-delta' || c['type'] === 'reasoning-delta')) {
      if (keysAre(c, DELTA_KEYS) && typeof c['text'] === 'string') {
        put(c['type'] === 'text-delta' ? TEXT : REASONING, index, c['text'])
        tracks.get(index).text.push(c['text'])
        continue
      }
    } else if (indexed && c['type'] === 'tool-call-delta') {
      const named = keysAre(c, TOOL_KEYS)
      const { id, name, argumentsDelta } = c
      if (
        (named || keysAre(c, TOOL_UNNAMED_KEYS)) &&
        typeof id === 'string' &&
        typeof argumentsDelta === 'string' &&
        (!named || typeof name === 'string')
      ) {
        const track = tracks.get(index)
        const same = track.tool !== null && track.tool.id === id && track.tool.name === name
        put(same ? TOOL_SAME : named ? TOOL_NEW : TOOL_NEW_UNNAMED, index, argumentsDelta)
        if (!same) names.push(id, ...(named ? [name as string] : []))
        track.tool = { id, name: name as string | undefined }
        track.args.push(argumentsDelta)
        continue
      }
    } else if (indexed && c['type'] === 'block-start') {
      const kind = START_TYPES.indexOf(c['blockType'] as never)
      if (keysAre(c, START_KEYS) && kind >= 0) {
        put(START + kind, index)
        tracks.start(index, START_TYPES[kind]!)
        continue
      }
    } else if (indexed && c['type'] === 'block-end' && keysAre(c, END_KEYS)) {
      const built = tracks.built(index)
      if (built !== null && sameJson(built, c['block'])) {
        put(END_BUILT, index)
        continue
      }
    }
    put(WHOLE, 0)
    whole.push(chunk)
  }
  return {
    count: source.chunks.length,
    numbers: (all) => {
      const columns = new NumberColumns(all)
      const coder = new RangeEncoder()
      for (let i = 0; i < rows.length; i += 5)
        columns.code(coder, rows[i]!, rows[i + 1]!, rows[i + 2]!, rows[i + 3]!, rows[i + 4]!)
      return coder.finish()
    },
    text: text.join(''),
    whole,
    names,
  }
}

export type DecodedColumns = {
  /** Where the deltas' text ends in the text column (the skeleton's long strings follow). */
  readonly textEnd: number
  /** The chunks, once the skeleton gave the whole chunks and the tool-call names. */
  build(
    whole: readonly unknown[],
    names: readonly unknown[],
  ): { chunks: unknown[]; seq: number[]; time: (number | null)[] }
}

/** Reads the numbers of `count` chunks; `text` starts with the deltas' text. Throws Malformed. */
export function decodeChunks(count: number, numbers: Uint8Array, text: string): DecodedColumns {
  const columns = new NumberColumns(text)
  const coder = new RangeDecoder(numbers)
  const rows: (Row & { readonly delta: string })[] = []
  const seq: number[] = []
  const time: (number | null)[] = []
  let at = 0
  for (let i = 0; i < count; i++) {
    const { op, index, length, seq: seqCode, time: timeCode } = columns.decode(coder)
    seq.push(unzigzag(seqCode))
    time.push(timeCode === 0 ? null : unzigzag(timeCode - 1))
    if (at + length > text.length) throw new Malformed('a chunk runs past the text')
    rows.push({ op, index, length, delta: text.slice(at, (at += length)) })
  }
  return { textEnd: at, build: (whole, names) => ({ chunks: buildChunks(rows, whole, names), seq, time }) }
}

function buildChunks(
  rows: readonly (Row & { readonly delta: string })[],
  whole: readonly unknown[],
  names: readonly unknown[],
): unknown[] {
  const tracks = new Tracks()
  let nextWhole = 0
  let nextName = 0
  const name = () => {
    const value = names[nextName++]
    if (typeof value !== 'string') throw new Malformed('a tool call lacks its id or name')
    return value
  }
  const chunks: unknown[] = []
  for (const { op, index, delta } of rows) {
    if (op === WHOLE) {
      if (nextWhole >= whole.length) throw new Malformed('a whole chunk is missing')
      chunks.push(whole[nextWhole++])
    } else if (op === TEXT || op === REASONING) {
      chunks.push({ type: op === TEXT ? 'text-delta' : 'reasoning-delta', index, text: delta })
      tracks.get(index).text.push(delta)
    } else if (op === TOOL_SAME || op === TOOL_NEW || op === TOOL_NEW_UNNAMED) {
      const track = tracks.get(index)
      if (op === TOOL_SAME && track.tool === null) throw new Malformed('a tool-call delta repeats no id')
      const tool = op === TOOL_SAME ? track.tool! : { id: name(), name: op === TOOL_NEW ? name() : undefined }
      chunks.push(
        tool.name === undefined
          ? { type: 'tool-call-delta', index, id: tool.id, argumentsDelta: delta }
          : { type: 'tool-call-delta', index, id: tool.id, name: tool.name, argumentsDelta: delta },
      )
      track.tool = tool
      track.args.push(delta)
    } else if (op >= START && op < START + START_TYPES.length) {
      const blockType = START_TYPES[op - START]!
      chunks.push({ type: 'block-start', index, blockType })
      tracks.start(index, blockType)
    } else if (op === END_BUILT) {
      const block = tracks.built(index)
      if (block === null) throw new Malformed('a block-end has nothing built to carry')
      chunks.push({ type: 'block-end', index, block })
    } else throw new Malformed(`its op ${op} is unknown`)
  }
  if (nextWhole !== whole.length || nextName !== names.length)
    throw new Malformed('its chunk columns do not add up')
  return chunks
}

type Row = { readonly op: number; readonly index: number; readonly length: number }
type Numbers = Row & { readonly seq: number; readonly time: number }

const OPS = END_BUILT + 1
/** A delta's length is coded place by place up to here, beyond as a number. */
const STOP_AT = 8
const CLASSES = 6

/** Outside the text, space, newline, ASCII letter or digit, other ASCII, anything else (CJK, emoji…). */
function charClass(code: number): number {
  if (Number.isNaN(code)) return 0
  if (code === 32) return 1
  if (code === 10) return 2
  if ((code >= 48 && code <= 57) || (code >= 65 && code <= 90) || (code >= 97 && code <= 122)) return 3
  return code < 128 ? 4 : 5
}
const hasIndex = (op: number) => op !== WHOLE
const hasText = (op: number) => op >= TEXT && op <= TOOL_NEW_UNNAMED
/** Text and reasoning deltas share a length model; tool-call arguments have their own. */
const lengthKind = (op: number) => (op <= REASONING ? 0 : 1)

/**
 * One chunk's numbers, each under its own model: the op after the previous op, the index after the previous
 * index, a length by its kind (text or arguments), seq after the previous seq's size, time alone. Few contexts on
 * purpose: a link holds hundreds of chunks, and every context has to learn its odds from nothing (on the corpus,
 * finer contexts cost 8% more than these). The same on both sides, so they learn alike.
 */
class NumberColumns {
  private readonly ops = new IntModel(OPS)
  private readonly indexes = new IntModel(4)
  private readonly lengths = new IntModel(2)
  private readonly seqs = new IntModel(4)
  private readonly times = new IntModel(1)
  private last = { op: 0, index: 0, seq: 0, time: 0 }

  private readonly stops = new Bits(2 * STOP_AT * CLASSES * CLASSES)
  /** Where the next delta's text begins in the text column. */
  private at = 0

  constructor(private readonly text: string) {}

  code(coder: RangeEncoder, op: number, index: number, length: number, seq: number, time: number): void {
    this.ops.encode(coder, op, this.last.op)
    if (hasIndex(op)) this.indexes.encode(coder, index, this.indexContext())
    if (hasText(op)) this.codeLength(coder, op, length)
    this.seqs.encode(coder, seq, sizeClass(this.last.seq, 3))
    this.times.encode(coder, time)
    this.remember(op, index, length, seq, time)
  }

  decode(coder: RangeDecoder): Numbers {
    const op = this.ops.decode(coder, this.last.op)
    if (op >= OPS) throw new Malformed(`its op ${op} is unknown`)
    const index = hasIndex(op) ? this.indexes.decode(coder, this.indexContext()) : 0
    const length = hasText(op) ? this.decodeLength(coder, op) : 0
    const seq = this.seqs.decode(coder, sizeClass(this.last.seq, 3))
    const time = this.times.decode(coder)
    this.remember(op, index, length, seq, time)
    return { op, index, length, seq, time }
  }

  /**
   * A length as "does the delta stop here?" at each of its first STOP_AT characters, under the classes of the
   * characters on both sides of that place (a token tends to end before a space or a punctuation mark), then the
   * rest of a longer one as a number.
   */
  private codeLength(coder: RangeEncoder, op: number, length: number): void {
    const kind = lengthKind(op)
    for (let i = 0; i < STOP_AT; i++) {
      const stop = i === length ? 1 : 0
      coder.bit(this.stops, this.stopContext(kind, i), stop)
      if (stop === 1) break
    }
    if (length >= STOP_AT) this.lengths.encode(coder, length - STOP_AT, kind)
    this.at += length
  }

  private decodeLength(coder: RangeDecoder, op: number): number {
    const kind = lengthKind(op)
    let length = -1
    for (let i = 0; i < STOP_AT && length < 0; i++)
      if (coder.bit(this.stops, this.stopContext(kind, i))) length = i
    if (length < 0) length = STOP_AT + this.lengths.decode(coder, kind)
    this.at += length
    return length
  }

  private stopContext(kind: number, i: number): number {
    const place = this.at + i
    const before = charClass(this.text.charCodeAt(place - 1))
    const after = charClass(this.text.charCodeAt(place))
    return ((kind * STOP_AT + Math.min(i, 4)) * CLASSES + before) * CLASSES + after
  }

  private indexContext(): number {
    return Math.min(this.last.index, 3)
  }

  private remember(op: number, index: number, length: number, seq: number, time: number): void {
    const last = this.last
    if (hasIndex(op)) last.index = index
    last.op = op
    last.seq = seq
    last.time = time
  }
}

const zigzag = (n: number) => (n >= 0 ? n * 2 : -n * 2 - 1)
const unzigzag = (code: number) => (code % 2 === 0 ? code / 2 : -(code + 1) / 2)

/** JSON-equal, key order included (what the opener gets back is the JSON of the block). */
function sameJson(a: object, b: unknown): boolean {
  return isRecord(b) && keysAre(b, Object.keys(a)) && JSON.stringify(a) === JSON.stringify(b)
}

function keysAre(value: object, keys: readonly string[]): boolean {
  const own = Object.keys(value)
  return own.length === keys.length && own.every((key, i) => key === keys[i])
}

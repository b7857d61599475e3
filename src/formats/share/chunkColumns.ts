import { isRecord } from '../../core/base/isRecord'
import { nestsDeeperThan } from '../json'
import { Malformed, MAX_ZIGZAG } from './bytes'
import {
  NumberColumns,
  type NumberCoder,
  START_TYPES,
  WHOLE,
  TEXT,
  REASONING,
  TOOL_SAME,
  TOOL_NEW,
  TOOL_NEW_UNNAMED,
  START,
  END_BUILT,
  END_REJSON,
  type Row,
} from './numberColumns'
import { RangeDecoder, RangeEncoder } from './rangeCoder'
import { keepsApart } from './idColumn'

// A v2 link's chunks as columns (docs/protocol.md §14). Each chunk is one op; a chunk of the usual shapes (exact
// keys in the usual order) puts its index, its text's length and its text in columns; any other chunk travels
// whole in the skeleton (op 0), so every chunk comes back exactly as it went, odd ones included. The number
// columns (op, index, length, seq, time) are range-coded per chunk, each under its own model (rangeCoder.ts).

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
  /**
   * The same numbers into a coder that carries more (a v3 link codes all its sections in one stream), under the
   * model `make` builds for the text.
   */
  codeNumbers(coder: RangeEncoder, text: string, make: NumberModel, pause: () => Promise<void>): Promise<void>
  readonly text: string
  /** The chunks that travel whole, in order. */
  readonly whole: unknown[]
  /** The new tool-call ids and names, in order (v5: without the ids idColumn.ts codes). */
  readonly names: string[]
  /** Every new tool-call id, in order, and whether v5 codes it apart (idColumn.ts) rather than in the names. */
  readonly newIds: { readonly id: string; readonly apart: boolean }[]
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

  /** v5: the built tool-call block with its arguments parsed and written again, or null when they do not parse. */
  rewritten(index: number): object | null {
    const built = this.built(index) as { type: string; arguments?: string } | null
    if (built?.type !== 'tool-call') return null
    const again = rejson(built.arguments!)
    return again === null ? null : { ...built, arguments: again }
  }
}

/**
 * `JSON.stringify(JSON.parse(text))` (the spec fixes both, so every engine writes the same), or null. Nesting is
 * capped well below any engine's stack, so that whether it succeeds never depends on the engine.
 */
function rejson(text: string): string | null {
  if (nestsDeeperThan(text, REJSON_DEPTH)) return null
  try {
    return JSON.stringify(JSON.parse(text))
  } catch {
    return null
  }
}

const REJSON_DEPTH = 64

const fresh = (blockType: string | null): Track => ({ blockType, text: [], args: [], tool: null })

/** Chunks encoded between two pauses: each slice is one short task. */
const SLICE = 20_000
/** Chunks whose numbers are coded between two pauses under the mixed v3 models (a few microseconds each). */
const NUMBER_SLICE = 5_000

/**
 * `pause` is awaited between slices of a big stream, so a page stays responsive while it is encoded. `shell` (v5;
 * null before): the JSON of the payload without its chunks; v5 also uses the block-end op only it knows
 * (numberColumns.ts) and codes random-looking tool-call ids apart (idColumn.ts) unless the shell or a chunk that
 * travels whole holds them.
 */
export async function encodeChunks(
  source: ColumnarSource,
  pause: () => Promise<void>,
  shell: string | null = null,
): Promise<ChunkColumns> {
  const v5 = shell !== null
  const rows: number[] = []
  const text: string[] = []
  const whole: unknown[] = []
  const names: string[] = []
  // The new ids and names in order (an id as its place in `newIds`): whether an id is coded apart depends on the
  // chunks that travel whole, known at the end.
  const order: (string | number)[] = []
  const ids: string[] = []
  const keep = (id: string) => order.push(ids.push(id) - 1)
  let at = 0
  const tracks = new Tracks()
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
        if (!same) {
          keep(id)
          if (named) order.push(name as string)
        }
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
      const rewritten = v5 ? tracks.rewritten(index) : null
      if (rewritten !== null && sameJson(rewritten, c['block'])) {
        put(END_REJSON, index)
        continue
      }
    }
    put(WHOLE, 0)
    whole.push(chunk)
  }
  const rest = v5 ? shell + JSON.stringify(whole) : ''
  const apart = v5 ? keepsApart((id) => rest.includes(id)) : () => false
  const newIds = ids.map((id) => ({ id, apart: apart(id) }))
  for (const item of order) {
    if (typeof item === 'string') names.push(item)
    else if (!newIds[item]!.apart) names.push(newIds[item]!.id)
  }
  const codeSlice = (coder: RangeEncoder, columns: NumberCoder, from: number, to: number) => {
    for (let i = from * 5; i < to * 5; i += 5)
      columns.code(coder, rows[i]!, rows[i + 1]!, rows[i + 2]!, rows[i + 3]!, rows[i + 4]!)
  }
  const count = source.chunks.length
  return {
    count,
    numbers: (all) => {
      const coder = new RangeEncoder()
      codeSlice(coder, v2Numbers(all), 0, count)
      return coder.finish()
    },
    codeNumbers: async (coder, all, make, pause) => {
      const columns = make(all)
      for (let from = 0; from < count; from += NUMBER_SLICE) {
        if (from > 0) await pause()
        codeSlice(coder, columns, from, Math.min(count, from + NUMBER_SLICE))
      }
    },
    text: text.join(''),
    whole,
    names,
    newIds,
  }
}

/** The model of a link's chunk numbers, built for its text column. */
export type NumberModel = (text: string) => NumberCoder
const v2Numbers: NumberModel = (text) => new NumberColumns(text)

export type DecodedColumns = {
  /** Where the deltas' text ends in the text column (the skeleton's long strings follow). */
  readonly textEnd: number
  /** How many tool calls take a new id. */
  readonly newIds: number
  /**
   * The chunks, once the skeleton gave the whole chunks and the tool-call names (`ids`, v5: per new id, the id
   * idColumn.ts coded, or null for the next of the names).
   */
  build(
    whole: readonly unknown[],
    names: readonly unknown[],
    ids?: readonly (string | null)[],
  ): { chunks: unknown[]; seq: number[]; time: (number | null)[] }
}

/**
 * Reads the numbers of `count` chunks (their own bytes, or the rest of a coder that carries more); `text` starts
 * with the deltas' text. Throws Malformed.
 */
export function decodeChunks(
  count: number,
  numbers: Uint8Array | RangeDecoder,
  text: string,
  make: NumberModel = v2Numbers,
): DecodedColumns {
  const columns = make(text)
  const coder = numbers instanceof RangeDecoder ? numbers : new RangeDecoder(numbers)
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
  const newIds = rows.filter(({ op }) => op === TOOL_NEW || op === TOOL_NEW_UNNAMED).length
  return {
    textEnd: at,
    newIds,
    build: (whole, names, ids = []) => ({ chunks: buildChunks(rows, whole, names, ids), seq, time }),
  }
}

function buildChunks(
  rows: readonly (Row & { readonly delta: string })[],
  whole: readonly unknown[],
  names: readonly unknown[],
  ids: readonly (string | null)[],
): unknown[] {
  const tracks = new Tracks()
  let nextWhole = 0
  let nextName = 0
  let nextId = 0
  const id = () => ids[nextId++] ?? name()
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
      const tool = op === TOOL_SAME ? track.tool! : { id: id(), name: op === TOOL_NEW ? name() : undefined }
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
    } else if (op === END_BUILT || op === END_REJSON) {
      const block = op === END_BUILT ? tracks.built(index) : tracks.rewritten(index)
      if (block === null) throw new Malformed('a block-end has nothing built to carry')
      chunks.push({ type: 'block-end', index, block })
    } else throw new Malformed(`its op ${op} is unknown`)
  }
  if (nextWhole !== whole.length || nextName !== names.length)
    throw new Malformed('its chunk columns do not add up')
  return chunks
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

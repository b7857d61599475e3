// Sniffers of the JSON-based formats (session log, chunk JSON and NDJSON); the registry (registry.ts) holds every
// format's sniffer in the order they are tried.
import { CHUNK_TYPES } from '../core/protocol'
import { isBlank, lines, peekObjects } from './json'

/** How many non-blank lines a sniffer looks at. */
const PEEK_LINES = 20

type LineKind = 'header' | 'event' | 'chunk' | 'other'

const CHUNK_TYPE_SET: ReadonlySet<string> = new Set(CHUNK_TYPES)
const PACKED_ROW_TYPES: ReadonlySet<string> = new Set(['text-chunks', 'reasoning-chunks', 'tool-call-chunks'])

function classify(line: Record<string, unknown> | null): LineKind {
  if (line === null) return 'other'
  const { type, seq, seq0 } = line
  if (typeof type !== 'string') return 'other'
  if (type === 'session') return 'header'
  if (Number.isSafeInteger(seq) || (PACKED_ROW_TYPES.has(type) && Number.isSafeInteger(seq0))) return 'event'
  return CHUNK_TYPE_SET.has(type) ? 'chunk' : 'other'
}

/** The first `PEEK_LINES` non-blank lines, classified. */
function peek(text: string): LineKind[] {
  return peekObjects(text, PEEK_LINES).map(classify)
}

function count(kinds: readonly LineKind[], kind: LineKind): number {
  return kinds.filter((k) => k === kind).length
}

/** The first non-whitespace character's position, or -1. */
function firstContent(text: string): number {
  for (let i = 0; i < text.length; i++) if (!isBlank(text, i, i + 1)) return i
  return -1
}

/**
 * A harness log (docs/protocol.md §6): the first line is the `{"type":"session",…}` header (even a torn one), or —
 * header missing — the first lines look like events (`type` + `seq`, or packed rows) more than like bare chunks.
 * The reader then warns that the header is missing.
 */
export function sniffSessionJsonl(text: string): boolean {
  const start = firstContent(text)
  if (start === -1) return false
  if (text.startsWith('{"type":"session"', start)) return true
  const kinds = peek(text)
  if (kinds[0] === 'header') return true
  const events = count(kinds, 'event')
  return events > 0 && events >= count(kinds, 'chunk')
}

/** A JSON array: the text starts with `[`. */
export function sniffChunkJson(text: string): boolean {
  const start = firstContent(text)
  return start !== -1 && text[start] === '['
}

/** NDJSON whose first lines are objects with StreamChunk types. */
export function sniffChunkNdjson(text: string): boolean {
  const kinds = peek(text)
  const chunks = count(kinds, 'chunk')
  return chunks > 0 && chunks > count(kinds, 'event')
}

/** The first non-blank line, shortened, for "unrecognised format" messages. */
export function firstLine(text: string): string {
  for (const line of lines(text)) if (!isBlank(line.text)) return line.text
  return ''
}

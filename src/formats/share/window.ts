import { BlockAssembler, type AssemblerState } from '../../core/BlockAssembler'
import type { SourcedChunk } from '../../core/protocol'

/** Chunks [from, to) of a stream, with the assembler state after chunks [0, from): replaying them is exact. */
export type StreamWindow = {
  readonly from: number
  readonly to: number
  /** The full stream's length, so the opener can say "chunks 4,000–4,200 of 90,000". */
  readonly total: number
  readonly chunks: SourcedChunk[]
  readonly state: AssemblerState
}

/**
 * Cuts a stream to positions [from, to) (clamped to the stream) and carries the assembler state at `from`.
 * `new ReplayEngine(window.chunks, { initialState: window.state }).seek(p)` equals the full stream's `seek(from + p)`
 * in everything the assembler holds (partials, blocks, usage, finish, replayState).
 *
 * @example
 * const w = cutWindow(chunks, 4000, 4200) // 200 chunks + the state after chunk 3,999
 */
export function cutWindow(chunks: readonly SourcedChunk[], from: number, to: number): StreamWindow {
  const start = clamp(from, 0, chunks.length)
  const end = clamp(to, start, chunks.length)
  const assembler = new BlockAssembler()
  for (let pos = 0; pos < start; pos++) assembler.push(chunks[pos]!.chunk)
  return {
    from: start,
    to: end,
    total: chunks.length,
    chunks: chunks.slice(start, end),
    state: assembler.exportState(),
  }
}

/**
 * A window of about `size` chunks around cursor k (k is a position 0…total: the state after k chunks), placed so
 * the chunks just before the cursor — the ones that built what the user is looking at — are inside.
 *
 * @example
 * windowAround(5000, 90000, 200) // { from: 4850, to: 5050 }
 */
export function windowAround(k: number, total: number, size: number): { from: number; to: number } {
  const length = clamp(Math.trunc(size), 1, Math.max(1, total))
  const before = Math.ceil((length * 3) / 4)
  const from = clamp(Math.trunc(k) - before, 0, Math.max(0, total - length))
  return { from, to: Math.min(total, from + length) }
}

/**
 * Parses the CLI's `--window K..M` (positions, end exclusive; either side may be empty: `..500`, `4000..`).
 * Null when the text is not of that form.
 */
export function parseWindow(text: string): { from: number; to: number } | null {
  const match = /^(\d*)\.\.(\d*)$/.exec(text.trim())
  if (match === null) return null
  const from = match[1] === '' ? 0 : Number(match[1])
  const to = match[2] === '' ? Number.MAX_SAFE_INTEGER : Number(match[2])
  if (!Number.isSafeInteger(from) || !Number.isSafeInteger(to) || to < from) return null
  return { from, to }
}

function clamp(value: number, low: number, high: number): number {
  return Math.min(high, Math.max(low, value))
}

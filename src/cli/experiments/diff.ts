// `chunkscope diff A B [--json]`, A and B each FILE or FILE#ATTEMPT
import { existsSync } from 'node:fs'
import {
  compareStreams,
  type StreamComparison,
  type StreamTiming,
} from '../../core/experiments/compareStreams'
import { describeOutcomeDiff } from '../../core/experiments/outcome'
import type { Attempt } from '../../core/session'
import { terminalText } from '../terminalText'
import { loadFile, parseOptions, pickAttempt, type Io, type LoadPath } from '../loadFile'

export const DIFF_USAGE = `chunkscope diff A B [--json]   compare two recordings of a stream, aligned by block
  A, B     FILE (its first stream) or FILE#ATTEMPT (session.jsonl#t1.s2.a1): two files, or two attempts of one
  --json   one JSON object: {a, b, diff, blocks, onlyA, onlyB}
Prints per block what differs (text, arguments, id, name) and where, the chunking (deltas per block) and timing
(time to first token, gaps, rate) of each, and the findings present in one and not the other.
Exit 0 when message and findings agree, 1 when they differ, 2 when a file cannot be read.
`

export async function runDiff(
  args: readonly string[],
  io: Io,
  load: LoadPath,
  exists: (path: string) => boolean = existsSync,
): Promise<number> {
  if (args.includes('--help') || args.includes('-h')) {
    io.out(DIFF_USAGE)
    return 0
  }
  const parsed = parseOptions(args, [], ['--json'])
  if (parsed.files.length !== 2 || parsed.problems.length > 0) {
    io.err(
      `chunkscope diff: ${parsed.problems.join('; ') || 'expected two streams, A and B'}\n\n${DIFF_USAGE}`,
    )
    return 2
  }
  const sides: { name: string; attempt: Attempt }[] = []
  for (const ref of parsed.files) {
    const { path, attempt: id } = splitRef(ref, exists)
    const loaded = await loadFile('diff', path, io, load)
    if (loaded === null) return 2
    const picked = pickAttempt('diff', loaded.source, id, io)
    if (picked === null) return 2
    sides.push({ name: `${loaded.name}#${picked.attempt.id}`, attempt: picked.attempt })
  }
  const [a, b] = sides as [(typeof sides)[0], (typeof sides)[0]]
  const comparison = compareStreams(a.attempt.chunks, b.attempt.chunks)
  if (parsed.flags.has('--json')) {
    const side = (s: StreamComparison['a'], name: string) => ({
      name,
      blocks: s.outcome.blocks,
      error: s.outcome.error,
      finish: s.outcome.finish,
      usage: s.outcome.usage,
      rules: s.outcome.rules,
      timing: s.timing,
    })
    io.out(
      JSON.stringify({
        a: side(comparison.a, a.name),
        b: side(comparison.b, b.name),
        diff: comparison.diff,
        blocks: comparison.blocks.map(({ position, a: x, b: y, field, commonPrefix }) => ({
          position,
          a: x === null ? null : { type: x.type, deltas: x.deltas, length: x.content.length },
          b: y === null ? null : { type: y.type, deltas: y.deltas, length: y.content.length },
          field,
          commonPrefix,
        })),
        onlyA: comparison.onlyA,
        onlyB: comparison.onlyB,
      }) + '\n',
    )
  } else io.out(formatDiff(a.name, b.name, comparison))
  return comparison.diff === null ? 0 : 1
}

/** `FILE#ATTEMPT` → its parts; a name that exists as given (it may hold a `#`) is a file. */
export function splitRef(ref: string, exists: (path: string) => boolean): { path: string; attempt?: string } {
  const hash = ref.lastIndexOf('#')
  if (hash <= 0 || exists(ref)) return { path: ref }
  return { path: ref.slice(0, hash), attempt: ref.slice(hash + 1) }
}

export function formatDiff(nameA: string, nameB: string, c: StreamComparison): string {
  const lines = [
    `A ${terminalText(nameA)}: ${timingLine(c.a.timing)}`,
    `B ${terminalText(nameB)}: ${timingLine(c.b.timing)}`,
  ]
  lines.push(`result: ${describeOutcomeDiff(c.diff)}`)
  for (const block of c.blocks) {
    const { a, b } = block
    if (a === null || b === null) {
      const only = (a ?? b)!
      lines.push(
        `  block ${block.position}: only in ${a === null ? 'B' : 'A'} (${only.type}, ${clip(only.content, 0)})`,
      )
      continue
    }
    const chunking = a.deltas === b.deltas ? `${a.deltas} deltas` : `${a.deltas} vs ${b.deltas} deltas`
    if (block.field === null) {
      lines.push(`  block ${block.position} ${a.type}: same (${chunking})`)
      continue
    }
    const at = block.commonPrefix
    const where =
      block.field === 'text' || block.field === 'arguments'
        ? ` after ${at} characters: A ${clip(a.content, at)} B ${clip(b.content, at)}`
        : ''
    lines.push(`  block ${block.position} ${a.type}: ${block.field} differs${where} (${chunking})`)
  }
  const rules = (list: StreamComparison['onlyA']) =>
    list.map(({ rule, count }) => (count > 1 ? `${rule} ×${count}` : rule)).join(', ')
  if (c.onlyA.length > 0) lines.push(`findings only in A: ${rules(c.onlyA)}`)
  if (c.onlyB.length > 0) lines.push(`findings only in B: ${rules(c.onlyB)}`)
  return lines.join('\n') + '\n'
}

function timingLine(t: StreamTiming): string {
  const ms = (v: number | null) => (v === null ? '–' : `${Math.round(v)} ms`)
  const rate = t.charsPerSecond === null ? '–' : `${t.charsPerSecond.toFixed(1)} chars/s`
  const timed =
    t.durationMs === null
      ? ' (no usable times)'
      : ` · ttft ${ms(t.ttftMs)} · median gap ${ms(t.medianGapMs)} · max gap ${ms(t.maxGapMs)} · ${rate}`
  return `${t.chunks} chunks, ${t.deltas} deltas, ${t.characters} characters${timed}`
}

/** The text from `from` on, quoted, at most 40 characters, escaped for the terminal. */
function clip(text: string, from: number): string {
  const rest = text.slice(from)
  return terminalText(JSON.stringify(rest.length > 40 ? `${rest.slice(0, 40)}…` : rest))
}

// `chunkscope chaos FILE [--attempt ID] [--seed N] [--json]`
import { writeFileSync } from 'node:fs'
import {
  CHUNK_VARIANTS,
  chunkChaos,
  chunkVariant,
  type ChunkChaosReport,
  type ChunkVariantKind,
} from '../../core/experiments/chunkChaos'
import { describeOutcomeDiff, diffOutcomes, outcomeOf } from '../../core/experiments/outcome'
import { derivedStream } from '../../formats/export/derivedStream'
import { exportStream } from '../../formats/export/index'
import type { Attempt } from '../../core/session'
import { readHttpHead } from '../../formats/sse/sseEvents'
import { wireChaos, type WireChaosReport } from '../../formats/sse/wireChaos'
import { harnessPipeline } from '../../formats/sse/wireReads'
import { terminalText } from '../terminalText'
import { loadFile, parseOptions, pickAttempt, type Io, type LoadPath } from '../loadFile'

export const CHAOS_USAGE = `chunkscope chaos FILE [options]   replay a stream re-chunked many ways; report what changes
  --attempt ID   the stream (default: the first)
  --seed N       the run's seed (default: a new one, printed); the same seed repeats the same variants
  --json         one JSON object: {seed, wire, chunks}
  --variant KIND:SEED   only that chunk variant (as the report prints it): its change, and with --out the
                 variant itself (chunk NDJSON, or a harness log for a .jsonl name) to open, share or minimize
For a raw SSE body (a .sse file or a HAR entry) the same bytes are also re-split (1-byte reads, cuts inside UTF-8
characters and JSON escapes, CR|LF halves, merged events, CRLF vs LF) and read as the harness's adapter reads
them; each split that changes the message or the findings is shrunk to its fewest cuts. Exit 1 when a wire split
changes the result, 0 when none does, 2 when FILE cannot be read.
`

export type ChaosJson = {
  readonly seed: number
  readonly wire: null | (Omit<WireChaosReport, 'baseline'> & { readonly dialect: string })
  readonly chunks: { readonly variants: readonly Record<string, unknown>[] }
}

export async function runChaos(
  args: readonly string[],
  io: Io,
  load: LoadPath,
  newSeed: () => number = () => Math.floor(Math.random() * 2 ** 31),
): Promise<number> {
  if (args.includes('--help') || args.includes('-h')) {
    io.out(CHAOS_USAGE)
    return 0
  }
  const parsed = parseOptions(args, ['--attempt', '--seed', '--variant', '--out'], ['--json'])
  if (parsed.files.length !== 1 || parsed.problems.length > 0) {
    io.err(`chunkscope chaos: ${parsed.problems.join('; ') || 'expected one FILE'}\n\n${CHAOS_USAGE}`)
    return 2
  }
  const seedText = parsed.values.get('--seed')
  if (seedText !== undefined && !/^\d{1,10}$/.test(seedText)) {
    io.err(`chunkscope chaos: --seed expects a whole number, got ${JSON.stringify(seedText)}\n`)
    return 2
  }
  const seed = seedText !== undefined ? Number(seedText) >>> 0 : newSeed()
  const loaded = await loadFile('chaos', parsed.files[0]!, io, load)
  if (loaded === null) return 2
  const picked = pickAttempt('chaos', loaded.source, parsed.values.get('--attempt'), io)
  if (picked === null) return 2
  const { attempt } = picked
  const variantText = parsed.values.get('--variant')
  if (variantText !== undefined) {
    const [kind, seedPart] = variantText.split(':')
    if (!Object.hasOwn(CHUNK_VARIANTS, kind ?? '') || !/^\d{1,10}$/.test(seedPart ?? '')) {
      io.err(
        `chunkscope chaos: --variant expects KIND:SEED with KIND one of ${Object.keys(CHUNK_VARIANTS).join(', ')}, got ${JSON.stringify(variantText)}\n`,
      )
      return 2
    }
    const made = chunkVariant(attempt.chunks, kind as ChunkVariantKind, Number(seedPart) >>> 0)
    if (made === null) {
      io.err(`chunkscope chaos: ${attempt.id} has nothing to vary as ${kind}\n`)
      return 1
    }
    const diff = diffOutcomes(outcomeOf(attempt.chunks), outcomeOf(made.chunks))
    io.err(
      `${loaded.name} ${attempt.id} ${variantText}: ${terminalText(made.description)}: ${describeOutcomeDiff(diff)}\n`,
    )
    const out = parsed.values.get('--out')
    if (out === undefined) return 0
    const derived = derivedStream(made.chunks, attempt.recorded, {
      from: `${loaded.name} ${attempt.id}`,
      how: `chaos: ${variantText}`,
    })
    const file = exportStream(derived, out.endsWith('.jsonl') ? 'dsh-jsonl' : 'ndjson')
    try {
      writeFileSync(out, file.text)
    } catch (error) {
      io.err(`chunkscope chaos: cannot write ${out}: ${(error as Error).message ?? String(error)}\n`)
      return 2
    }
    io.err(`wrote ${out}\n`)
    return 0
  }
  const body = wireBody(attempt)
  const wire = body === null ? null : wireChaos(body.bytes, harnessPipeline(body.dialect), { seed })
  const chunks = chunkChaos(attempt.chunks, { seed })
  if (parsed.flags.has('--json')) {
    const json: ChaosJson = {
      seed,
      wire:
        wire === null
          ? null
          : {
              dialect: body!.dialect,
              seed,
              bytes: wire.bytes,
              baselineChunks: wire.baselineChunks,
              variants: wire.variants,
            },
      chunks: {
        variants: chunks.variants.map(({ chunks: variant, ...rest }) => ({
          ...rest,
          chunkCount: variant.length,
        })),
      },
    }
    io.out(JSON.stringify(json) + '\n')
  } else io.out(formatChaos(`${loaded.name} ${attempt.id}`, seed, body?.dialect ?? null, wire, chunks))
  return wire?.variants.some((v) => v.diff !== null) === true ? 1 : 0
}

/** The raw body of a stream translated from SSE, without an HTTP head; null for any other stream. */
export function wireBody(
  attempt: Attempt,
): { bytes: Uint8Array; dialect: 'openai-sse' | 'anthropic-sse' } | null {
  const wire = attempt.wire
  if (wire === undefined || (wire.format !== 'openai-sse' && wire.format !== 'anthropic-sse')) return null
  const head = readHttpHead(wire.text)
  if (head !== null && (head.status < 200 || head.status >= 300)) return null
  return {
    bytes: new TextEncoder().encode(head === null ? wire.text : wire.text.slice(head.bodyStart)),
    dialect: wire.format,
  }
}

export function formatChaos(
  title: string,
  seed: number,
  dialect: string | null,
  wire: WireChaosReport | null,
  chunks: ChunkChaosReport,
): string {
  const lines = [`${terminalText(title)}: chaos run, seed ${seed} (--seed ${seed} repeats it)`]
  if (wire !== null) {
    const differing = wire.variants.filter((v) => v.diff !== null)
    lines.push(
      '',
      `wire: ${wire.bytes.toLocaleString('en')} bytes of ${dialect}, ${wire.variants.length} re-splits, ${differing.length} change the result`,
    )
    for (const v of wire.variants) {
      if (v.diff === null) {
        lines.push(
          `  ✓ ${v.kind.padEnd(16)} ${v.cutCount.toLocaleString('en')} cuts: ${v.description}${v.sameChunks ? '' : ' (other chunks, same result)'}`,
        )
        continue
      }
      const minimal = v.minimal!
      lines.push(
        `  ✗ ${v.kind.padEnd(16)} ${v.cutCount.toLocaleString('en')} cuts: ${v.description}: ${describeOutcomeDiff(v.diff)}`,
      )
      lines.push(
        `      smallest: ${minimal.cuts.length} cut${minimal.cuts.length === 1 ? '' : 's'}${minimal.partial ? ' (shrinking stopped at its budget)' : ''}: ${describeOutcomeDiff(minimal.diff)}`,
      )
      for (const where of minimal.where) lines.push(`        ${where}`)
    }
  } else lines.push('', 'wire: not a raw SSE body (only its chunks are varied)')
  const changing = chunks.variants.filter((v) => v.diff?.message === true).length
  lines.push(
    '',
    `chunks: ${chunks.variants.length} variants, ${changing} change the message (one alone: --variant KIND:SEED)`,
  )
  for (const v of chunks.variants) {
    const mark = v.diff === null ? '✓' : v.diff.message ? '✗' : '~'
    lines.push(
      `  ${mark} ${v.kind.padEnd(18)} seed ${String(v.seed).padEnd(10)} ${terminalText(v.description)}: ${describeOutcomeDiff(v.diff)}`,
    )
  }
  return lines.join('\n') + '\n'
}

// `chunkscope minimize FILE --attempt ID --keep PROPERTY [--out PATH] [--to FORMAT] [--json]`
import { writeFileSync } from 'node:fs'
import { KEEP_FORMS, parseKeep } from '../../core/experiments/keep'
import { minimizeStream } from '../../core/experiments/minimize'
import { derivedStream } from '../../formats/export/derivedStream'
import { EXPORT_FORMATS, exportStream, isExportFormat, type ExportFormat } from '../../formats/export/index'
import { loadFile, parseOptions, pickAttempt, type Io, type LoadPath } from '../loadFile'

export const MINIMIZE_USAGE = `chunkscope minimize FILE --keep PROPERTY [options]   shrink a stream to a minimal one that keeps PROPERTY
  --keep recorded-mismatch   it still differs from its recorded message (same field, same known cause)
  --keep finding:RULE        the rule still fires (finding:delta-after-end; the rule ids of \`chunkscope lint\`)
  --keep throws              the harness's assembler still throws (a push, or reading blocks())
  --keep text:SUBSTRING      some text, reasoning or tool-call arguments still contain SUBSTRING
  --attempt ID               the stream (default: the first)
  --out PATH                 write the minimal stream to PATH (default: standard output)
  --to FORMAT                ndjson (chunks), dsh-jsonl (a harness log, the recorded message kept), vitest or
                             vitest-recorded (a test); default from --out's name (.jsonl, .test.ts), else ndjson
  --json                     print {before, after, steps, kept, property} instead of the stream
Delta debugging (ddmin): the result is 1-minimal — removing any one of its chunks loses PROPERTY. Its chunks are
numbered 0, 1, 2… Progress goes to standard error. Exit 1 when FILE's stream lacks PROPERTY, 2 when unreadable.
`

export async function runMinimize(
  args: readonly string[],
  io: Io,
  load: LoadPath,
  writeText: (path: string, text: string) => void = (path, text) => writeFileSync(path, text),
): Promise<number> {
  if (args.includes('--help') || args.includes('-h')) {
    io.out(MINIMIZE_USAGE)
    return 0
  }
  const parsed = parseOptions(args, ['--attempt', '--keep', '--out', '--to'], ['--json'])
  const keep = parsed.values.get('--keep')
  if (parsed.files.length !== 1 || parsed.problems.length > 0 || keep === undefined) {
    const why =
      parsed.problems.join('; ') ||
      (keep === undefined ? `--keep is required (${KEEP_FORMS})` : 'expected one FILE')
    io.err(`chunkscope minimize: ${why}\n\n${MINIMIZE_USAGE}`)
    return 2
  }
  const property = parseKeep(keep)
  if (typeof property === 'string') {
    io.err(`chunkscope minimize: --keep ${property}\n`)
    return 2
  }
  const out = parsed.values.get('--out')
  const to = parsed.values.get('--to') ?? formatFromName(out, property.kind === 'recorded-mismatch')
  if (!isExportFormat(to) || to === 'message') {
    io.err(
      `chunkscope minimize: --to ${JSON.stringify(to)}: one of ndjson, dsh-jsonl, vitest, vitest-recorded\n`,
    )
    return 2
  }
  const loaded = await loadFile('minimize', parsed.files[0]!, io, load)
  if (loaded === null) return 2
  const picked = pickAttempt('minimize', loaded.source, parsed.values.get('--attempt'), io)
  if (picked === null) return 2
  const { attempt } = picked
  const started = Date.now()
  let reported = 0
  const result = minimizeStream(attempt.chunks, attempt.recorded, property, {
    onProgress: ({ steps, size }) => {
      if (steps - reported < 100) return
      reported = steps
      io.err(`  ${steps} steps, ${size} chunks\n`)
    },
  })
  if (typeof result === 'string') {
    io.err(`chunkscope minimize: ${loaded.name} ${attempt.id}: ${result}\n`)
    return 1
  }
  const summary = `${loaded.name} ${attempt.id}: ${result.before} → ${result.chunks.length} chunks keeping ${result.property} (${result.steps} steps, ${Date.now() - started} ms)`
  if (parsed.flags.has('--json')) {
    io.out(
      JSON.stringify({
        before: result.before,
        after: result.chunks.length,
        steps: result.steps,
        kept: result.kept,
        property: result.property,
      }) + '\n',
    )
    return 0
  }
  const derived = derivedStream(result.chunks, attempt.recorded, {
    from: `${loaded.name} ${attempt.id}`,
    how: `minimized: ${result.property}`,
  })
  const file = exportStream(
    { ...derived, name: `${loaded.name.replace(/\.[^.]*$/, '')}-min` },
    to as ExportFormat,
  )
  if (out === undefined) {
    io.out(file.text)
    io.err(summary + '\n')
    return 0
  }
  try {
    writeText(out, file.text)
  } catch (error) {
    io.err(`chunkscope minimize: cannot write ${out}: ${(error as Error).message ?? String(error)}\n`)
    return 2
  }
  io.err(`${summary}\nwrote ${out} (${EXPORT_FORMATS[to].label})\n`)
  return 0
}

function formatFromName(out: string | undefined, recorded: boolean): string {
  if (out === undefined) return 'ndjson'
  if (/\.test\.[cm]?[jt]s$/.test(out)) return recorded ? 'vitest-recorded' : 'vitest'
  if (out.endsWith('.jsonl')) return 'dsh-jsonl'
  return 'ndjson'
}

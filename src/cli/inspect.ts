import { terminalText } from './terminalText'
import type { StreamReport } from '../core/streamReport'
import { chunkCount, reportStream } from '../core/streamReport'
import type { Diagnostic, LoadedSource } from '../formats/types'
import { listStreams } from '../formats/streamRefs'

/** The `inspect --json` object: a contract (add fields, never rename). */
export type InspectReport = {
  readonly format: string | null
  readonly diagnostics: readonly {
    readonly line: number | null
    readonly severity: string
    readonly message: string
  }[]
  readonly streams: readonly StreamReport[]
}

/** `streams`: the streams' reports when the caller made them already (cli/loadForReport.ts). */
export function buildInspectReport(
  source: LoadedSource,
  streams: readonly StreamReport[] = listStreams(source).map((entry) =>
    reportStream(entry.key, entry.attempt),
  ),
): InspectReport {
  return {
    format: source.format,
    diagnostics: source.diagnostics.map((d: Diagnostic) => ({
      line: d.line ?? null,
      severity: d.severity,
      message: d.message,
    })),
    streams,
  }
}

/**
 * True when `lint` must fail: an error diagnostic of the reader (corrupt committed data, a CRC mismatch, a cap that
 * cut the file, an internal error), an error-severity finding or a recorded mismatch in any stream.
 */
export function hasErrors(report: InspectReport): boolean {
  return (
    report.diagnostics.some((d) => d.severity === 'error') ||
    report.streams.some(
      (stream) => stream.findings.some((f) => f.severity === 'error') || stream.recorded?.match === false,
    )
  )
}

/** The human summary of `inspect`: what was read, then one paragraph per stream. */
export function formatInspect(name: string, report: InspectReport): string {
  const lines = [`${name}: ${report.format ?? 'unrecognised'} · ${plural(report.streams.length, 'stream')}`]
  for (const d of report.diagnostics) lines.push(`  ${d.severity}: ${d.message}`)
  for (const stream of report.streams) {
    const finish = describeFinish(stream.finish)
    const recorded =
      stream.recorded === null
        ? 'no recorded message'
        : stream.recorded.match
          ? '✓ matches recorded message'
          : '✗ differs from recorded message'
    lines.push('')
    lines.push(
      `${stream.id}  ${plural(chunkCount(stream), 'chunk')} · finish ${finish}${stream.hasFinish ? '' : ' (no finish chunk)'} · ${recorded}`,
    )
    const divergence = stream.recorded?.firstDivergence
    if (divergence) lines.push(`  ${describeDivergence(divergence)} (seq ${divergence.seq})`)
    if (stream.errorSeq !== null)
      lines.push(
        `  push throws at seq ${stream.errorSeq}: ${terminalText(stream.error ?? '')} (the harness reads no further chunk)`,
      )
    else if (stream.blocks === null) lines.push(`  assembly error: ${terminalText(stream.error ?? '')}`)
    else if (stream.blocks.length === 0) lines.push('  (no blocks)')
    else for (const block of stream.blocks) lines.push(`  ${describeBlock(block)}`)
    if (stream.interruptedBlocksError !== null)
      lines.push(`  interruptedBlocks() throws: ${terminalText(stream.interruptedBlocksError)}`)
    if (stream.usage !== null)
      lines.push(`  usage in ${stream.usage.inputTokens} / out ${stream.usage.outputTokens}`)
    if (stream.ignored.length > 0)
      lines.push(`  ignored: ${stream.ignored.map((i) => `${i.kind}@${i.seq}`).join(', ')}`)
    const counts = countBySeverity(stream)
    if (counts !== '') lines.push(`  findings: ${counts}`)
  }
  return lines.join('\n') + '\n'
}

/** `lint` output: one line per finding, `seq N  severity  rule  message`, grouped by stream. */
export function formatLint(name: string, report: InspectReport): string {
  const lines: string[] = []
  for (const d of report.diagnostics)
    if (d.severity !== 'info')
      lines.push(`${name}${d.line === null ? '' : `:${d.line}`}: ${d.severity}: ${d.message}`)
  for (const stream of report.streams) {
    for (const f of stream.findings)
      lines.push(`${name} ${stream.id} seq ${f.seq}: ${f.severity} ${f.rule}: ${terminalText(f.message)}`)
    const divergence = stream.recorded?.firstDivergence
    if (divergence)
      lines.push(`${name} ${stream.id} seq ${divergence.seq}: ${describeDivergence(divergence)}`)
  }
  // The summary counts what was printed above it: the reader's diagnostics and the streams' findings.
  const count = (severity: string) =>
    report.diagnostics.filter((d) => d.severity === severity).length +
    report.streams.reduce((n, s) => n + s.findings.filter((f) => f.severity === severity).length, 0)
  const errors = count('error')
  const warnings = count('warning')
  lines.push(
    `${plural(report.streams.length, 'stream')}: ${plural(errors, 'error')}, ${plural(warnings, 'warning')}`,
  )
  return lines.join('\n') + '\n'
}

/** `stop`, `error SERVER`; a finish reason of another shape (a chunk is replayed as it came) as its JSON. */
function describeFinish(finish: unknown): string {
  if (
    typeof finish !== 'object' ||
    finish === null ||
    typeof (finish as { kind?: unknown }).kind !== 'string'
  )
    return JSON.stringify(finish) ?? String(finish)
  const { kind, failure } = finish as { kind: string; failure?: { code?: unknown } }
  return typeof failure === 'object' && failure !== null ? `${kind} ${String(failure.code)}` : kind
}

function describeDivergence(
  divergence: NonNullable<NonNullable<StreamReport['recorded']>['firstDivergence']>,
): string {
  return `first divergence: block ${divergence.block} ${divergence.field}: ${terminalText(divergence.causeText)}`
}

function describeBlock(block: { readonly type: string; readonly [key: string]: unknown }): string {
  const clip = (text: unknown) => {
    const whole = String(text)
    // Only 69 quoted characters show, and each character quotes to one or more: quote a prefix, not a whole
    // multi-megabyte block (cut past 71, a split surrogate pair only changes what is cut off).
    const s = JSON.stringify(whole.length > 72 ? whole.slice(0, 72) : whole)
    return s.length > 72 ? `${s.slice(0, 70)}…"` : s
  }
  if (block.type === 'tool-call')
    return `tool-call ${String(block['name'])} ${String(block['id'])} ${clip(block['arguments'])}`
  if (block.type === 'text' || block.type === 'reasoning') return `${block.type} ${clip(block['text'])}`
  return `${block.type} ${clip(JSON.stringify(block))}`
}

function countBySeverity(stream: StreamReport): string {
  const counts = { error: 0, warning: 0, info: 0 }
  for (const f of stream.findings) counts[f.severity] += 1
  return (Object.entries(counts) as [string, number][])
    .filter(([, n]) => n > 0)
    .map(([severity, n]) => plural(n, severity))
    .join(', ')
}

function plural(count: number, noun: string): string {
  return `${count} ${noun}${count === 1 ? '' : 's'}`
}

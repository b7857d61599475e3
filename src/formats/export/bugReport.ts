import { attemptDivergence, describeCause } from '../../core/firstDivergence'
import type { Finding } from '../../core/checks'
import type { Attempt } from '../../core/session'

export type BugReportInput = {
  /** The loaded file's name, or what it was (`a pasted stream`). */
  readonly name: string
  /** The reader's format id (`dsh-session-jsonl`). */
  readonly format: string | null
  readonly attempt: Attempt
  /** The Findings list as shown (the recorded mismatch first). */
  readonly findings: readonly Finding[]
  /** A share link reproducing what is on screen, or null when none could be made. */
  readonly link: string | null
  /** Chunks shown either side of the cause. */
  readonly context?: number
}

/**
 * A Markdown bug report of what is on screen: what was loaded, the finding that matters (the recorded mismatch,
 * else the first error, else the first finding) with the first divergence, the link, and the chunks around the
 * cause as a fenced NDJSON block (`seq`, `chunk` per line, as `chunkscope` reads them back).
 *
 * @example
 * navigator.clipboard.writeText(bugReport({ name, format, attempt, findings, link }))
 */
export function bugReport(input: BugReportInput): string {
  const { attempt, findings } = input
  const finding =
    findings.find((f) => f.rule === 'recorded-mismatch') ??
    findings.find((f) => f.severity === 'error') ??
    findings[0]
  const divergence = attemptDivergence(attempt)
  const lines = [
    `## Chunkscope: ${oneLine(input.name)} ${attempt.id}`,
    '',
    `- **Loaded:** ${code(input.name)} (${input.format ?? 'unknown format'}), stream ${code(attempt.id)}, ${attempt.chunks.length} chunks${attempt.recorded === null ? '' : `, recorded assistant/message seq ${attempt.recorded.seq}`}`,
  ]
  if (finding !== undefined)
    lines.push(
      `- **Finding:** ${finding.severity} ${code(finding.rule)} at seq ${finding.seq}: ${oneLine(finding.message)}`,
    )
  else lines.push('- **Finding:** none')
  if (divergence !== null)
    lines.push(
      `- **First divergence:** seq ${divergence.seq}, block ${divergence.block} ${divergence.field}: ${describeCause(divergence.cause)}`,
    )
  if (input.link !== null) lines.push(`- **Link:** ${input.link}`)
  const at = divergence?.pos ?? finding?.pos ?? 0
  const context = input.context ?? 3
  const from = Math.max(0, at - context)
  const to = Math.min(attempt.chunks.length, at + context + 1)
  if (to > from) {
    lines.push(
      '',
      `Chunks ${from}–${to - 1} of ${attempt.chunks.length} (positions; the cause is at ${at}):`,
      '',
    )
    const body = attempt.chunks
      .slice(from, to)
      .map((sourced) => JSON.stringify({ seq: sourced.seq, chunk: sourced.chunk }))
    const fence = fenceFor(body)
    lines.push(`${fence}ndjson`, ...body, fence)
  }
  return lines.join('\n') + '\n'
}

/** Inline code that a backtick in the text cannot end early. */
function code(text: string): string {
  const clean = oneLine(text)
  const ticks = clean.includes('`') ? '``' : '`'
  return `${ticks}${clean}${ticks}`
}

/** A fence longer than any run of backticks inside (model text may hold ``` itself). */
function fenceFor(lines: readonly string[]): string {
  let longest = 0
  for (const line of lines) for (const run of line.match(/`+/g) ?? []) longest = Math.max(longest, run.length)
  return '`'.repeat(Math.max(3, longest + 1))
}

function oneLine(text: string): string {
  return text.replace(/[\r\n\u2028\u2029]+/g, ' ')
}

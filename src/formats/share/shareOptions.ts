import { describeLinkLength, type LinkLengthReport } from './linkLength'
import { buildSharePayload, type ShareInput, type ShareScope } from './payload'
import { FULL_REDACTION } from './redact'
import { encodeShareLink } from './shareLink'
import { windowAround } from './window'

/** One way to share, measured: what the dialog lists with its length. */
export type MeasuredOption = {
  readonly id: 'session' | 'stream' | 'window' | 'session-redacted' | 'stream-redacted' | 'window-redacted'
  readonly label: string
  readonly options: ShareScope
  readonly fragment: string
  readonly length: LinkLengthReport
}

/**
 * Every way down from the whole source to a redacted window around the cursor, each encoded and measured as a full
 * link (`baseUrl` + `#` + fragment), largest first. `smallest.length.tooLong` means even the smallest is over
 * 2 MiB: offer the file download instead. Encoding a 100,000-chunk stream takes about a second per option, so a UI
 * should run this off the main thread or show progress.
 *
 * @example
 * const { options, smallest } = await measureShareOptions(input, location.origin + location.pathname)
 */
export async function measureShareOptions(
  input: ShareInput,
  baseUrl: string,
  windowSize = 200,
): Promise<{ options: MeasuredOption[]; smallest: MeasuredOption }> {
  const isLog = (() => {
    const session = input.source.sessions[input.sessionIndex ?? 0]
    return session !== undefined && (session.header !== null || session.events.length > 0)
  })()
  const total = input.attempt.chunks.length
  const window = windowAround(input.k, total, windowSize)
  const candidates: [MeasuredOption['id'], string, ShareScope][] = []
  if (isLog) candidates.push(['session', 'Whole session', { scope: 'session' }])
  candidates.push(['stream', isLog ? `Only ${input.attempt.id}` : 'Whole stream', { scope: 'stream' }])
  if (window.to - window.from < total)
    candidates.push(['window', `Chunks ${window.from}–${window.to} around the cursor`, { window }])
  const redacted = candidates.map(([id, label, options]): (typeof candidates)[number] => [
    `${id}-redacted` as MeasuredOption['id'],
    `${label}, redacted`,
    { ...options, redact: FULL_REDACTION },
  ])
  candidates.push(...redacted)
  const measured: MeasuredOption[] = []
  for (const [id, label, options] of candidates) {
    const fragment = await encodeShareLink(buildSharePayload(input, options))
    measured.push({
      id,
      label,
      options,
      fragment,
      length: describeLinkLength(baseUrl.length + 1 + fragment.length),
    })
  }
  measured.sort((a, b) => b.length.chars - a.length.chars)
  return { options: measured, smallest: measured[measured.length - 1]! }
}

import { compareRecorded } from '../../core/session'
import { bugReport } from '../../formats/export/bugReport'
import { buildSharePayload } from '../../formats/share/payload'
import { encodeShareLink } from '../../formats/share/shareLink'
import type { ChunkscopeState } from '../../app/store'
import { findingList, recordedMismatch } from '../findings/buildFindings'
import { shareInputOf } from './shareTarget'

/** Links longer than this are left out of a report (they would not survive a chat or an issue tracker). */
const REPORT_LINK_LIMIT = 8_000

/**
 * The Markdown bug report of what is on screen, with a link of the selected attempt (or, on a shared window, the
 * link already in the address bar). Null when nothing is loaded.
 */
export async function bugReportOf(
  state: Pick<ChunkscopeState, 'source' | 'streamKey' | 'k' | 'engine' | 'origin'>,
): Promise<string | null> {
  const input = shareInputOf(state)
  if (input === null || state.engine === null) return null
  const { attempt } = input
  const list = findingList(state.engine.findings, recordedMismatch(attempt, compareRecorded(attempt)))
  // The report names one finding: the first thousand are plenty to choose it from, however long the stream.
  const findings = Array.from({ length: Math.min(list.length, 1000) }, (_, position) => list.at(position))
  let link: string | null = null
  if (state.origin?.kind === 'link') link = window.location.href
  else {
    const fragment = await encodeShareLink(buildSharePayload(input, { scope: 'stream' }))
    const url = `${window.location.origin}${window.location.pathname}#${fragment}`
    link = url.length <= REPORT_LINK_LIMIT ? url : null
  }
  return bugReport({
    name: input.source.name ?? 'a pasted stream',
    format: input.source.format,
    attempt,
    findings,
    link,
  })
}

import { ReplayEngine } from '../../core/ReplayEngine'
import { attemptDiagnostics } from '../../formats/share/attemptContext'
import { openSharePayload, type SharePayload, type ShareInput } from '../../formats/share/payload'
import { compareViews, streamView, type FidelityReport, type StreamView } from './shareFidelity'

/** Streams longer than this are not checked in the dialog (two extra replays would take seconds). */
export const CHECK_LIMIT = 200_000

/** What the sender sees: the attempt's view at the cursor (the same function builds the opener's). */
export function senderView(input: ShareInput, wholeSession: boolean): StreamView {
  const { source, attempt, k } = input
  const diagnostics = wholeSession
    ? source.diagnostics
    : attemptDiagnostics(source, input.sessionIndex ?? 0, attempt)
  return streamView(attempt, new ReplayEngine(attempt.chunks), k, diagnostics)
}

/**
 * The sender's views, each built at most once for one check of several options (the caller owns it, so no cache
 * outlives the dialog).
 */
export function senderViews(input: ShareInput): (wholeSession: boolean) => StreamView {
  const views = new Map<boolean, StreamView>()
  return (wholeSession) => {
    const known = views.get(wholeSession)
    if (known !== undefined) return known
    const view = senderView(input, wholeSession)
    views.set(wholeSession, view)
    return view
  }
}

/** The opener's view of a payload, through the same reading as a link (JSON round trip, `openSharePayload`). */
export function recipientView(payload: SharePayload): StreamView | { error: string } {
  const opened = openSharePayload(JSON.parse(JSON.stringify(payload)))
  if ('error' in opened) return opened
  const shared = opened.source.sessions[0]?.streams.find((attempt) => attempt.id === opened.streamKey)
  if (shared === undefined) return { error: 'the link selects no stream' }
  const engine = new ReplayEngine(shared.chunks, {
    ...(opened.initialState !== null ? { initialState: opened.initialState } : {}),
    ...(shared.window !== undefined ? { outside: shared.window } : {}),
  })
  return streamView(shared, engine, opened.k, opened.source.diagnostics, opened.window?.from ?? 0)
}

/**
 * Whether opening `payload` shows what the sender sees; null for a stream too long to check here.
 *
 * @example
 * describeFidelity(checkShare(input, buildSharePayload(input, { scope: 'stream' }))!) // null: nothing lost
 */
export function checkShare(
  input: ShareInput,
  payload: SharePayload,
  sender: (wholeSession: boolean) => StreamView = (whole) => senderView(input, whole),
): FidelityReport | null {
  if (input.attempt.chunks.length > CHECK_LIMIT) return null
  const recipient = recipientView(payload)
  if ('error' in recipient) return { lose: [], add: [], change: [`everything (${recipient.error})`] }
  return compareViews(sender(payload.source.kind === 'session'), recipient)
}

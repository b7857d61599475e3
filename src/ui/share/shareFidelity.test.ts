import { describe, expect, it } from 'vitest'
import { ReplayEngine } from '../../core/ReplayEngine'
import { loadSource } from '../../formats/load'
import { attemptDiagnostics } from '../../formats/share/attemptContext'
import { buildSharePayload, type ShareInput, type ShareScope } from '../../formats/share/payload'
import { FULL_REDACTION } from '../../formats/share/redact'
import { decodeShareLink, encodeShareLink } from '../../formats/share/shareLink'
import { windowAround } from '../../formats/share/window'
import type { LoadedSource } from '../../formats/types'
import { corpusFiles, readCorpus } from '../../test/corpus'
import { checkShare } from './checkShare'
import { describeFidelity, streamView, type StreamView } from './shareFidelity'

/** Every option the Share dialog offers (the window at its default size and at a small one), each also redacted. */
const OPTIONS: [string, (k: number, total: number) => ShareScope][] = [
  ['session', () => ({ scope: 'session' })],
  ['stream', () => ({ scope: 'stream' })],
  ['window 5', (k, total) => ({ window: windowAround(k, total, 5) })],
  ['window 200', (k, total) => ({ window: windowAround(k, total, 200) })],
]

/** The sender's cursor: on the stream's first finding (where a user clicks), else mid-stream. */
function cursorOf(engine: ReplayEngine): number {
  const first = engine.findings[0]
  return first !== undefined ? first.pos + 1 : Math.floor(engine.total / 2)
}

function senderOf(source: LoadedSource, input: ShareInput, scope: ShareScope): StreamView {
  const wholeLog = scope.scope === 'session'
  const diagnostics = wholeLog ? source.diagnostics : attemptDiagnostics(source, 0, input.attempt)
  return streamView(input.attempt, new ReplayEngine(input.attempt.chunks), input.k, diagnostics)
}

/** Encodes, decodes and replays a link exactly as the app opens one (store: initialState + the carried end). */
async function openedView(fragment: string, passphrase?: string): Promise<StreamView> {
  const opened = await decodeShareLink(fragment, passphrase === undefined ? {} : { passphrase })
  if ('error' in opened) throw new Error(opened.error)
  const shared = opened.source.sessions[0]!.streams.find((a) => a.id === opened.streamKey)!
  const replay = new ReplayEngine(shared.chunks, {
    ...(opened.initialState ? { initialState: opened.initialState } : {}),
    ...(shared.window ? { outside: shared.window } : {}),
  })
  return streamView(shared, replay, opened.k, opened.source.diagnostics, opened.window?.from ?? 0)
}

describe('a share link reproduces what the sender saw', () => {
  // One test per attempt: a session link carries the whole log, so a file of many attempts is many whole-log links.
  for (const file of corpusFiles()) {
    const source = loadSource(readCorpus(file), file)
    for (const attempt of source.sessions[0]!.streams) {
      it(`${file} ${attempt.id}: every option`, async () => {
        const input = {
          source,
          attempt,
          streamKey: attempt.id,
          k: cursorOf(new ReplayEngine(attempt.chunks)),
        }
        for (const [name, scopeAt] of OPTIONS) {
          for (const redact of [false, true]) {
            const scope = {
              ...scopeAt(input.k, attempt.chunks.length),
              ...(redact ? { redact: FULL_REDACTION } : {}),
            }
            const label = `${attempt.id} ${name}${redact ? ' redacted' : ''}`
            const payload = buildSharePayload(input, scope)
            const recipient = await openedView(await encodeShareLink(payload))
            expect.soft(recipient, label).toEqual(senderOf(source, input, scope))
            // The dialog's own check agrees: nothing to warn about.
            expect.soft(describeFidelity(checkShare(input, payload)!), label).toBeNull()
          }
        }
      })
    }
  }

  it('an encrypted link of one attempt keeps the recorded mismatch', async () => {
    const file = 'web-cordis-tool-round-legacy-session.jsonl'
    const source = loadSource(readCorpus(file), file)
    const attempt = source.sessions[0]!.streams[0]!
    const input = { source, attempt, streamKey: attempt.id, k: 3 }
    const scope: ShareScope = { scope: 'stream', redact: FULL_REDACTION }
    const fragment = await encodeShareLink(buildSharePayload(input, scope), {
      passphrase: 'tulip',
      iterations: 10_000,
    })
    const recipient = await openedView(fragment, 'tulip')
    expect(recipient).toEqual(senderOf(source, input, scope))
    expect(recipient.findings[0]).toMatch(/^error recorded-mismatch /)
  })

  it('cordis, only this attempt: the opener sees the recorded mismatch and the seq gaps', async () => {
    const file = 'web-cordis-tool-round-legacy-session.jsonl'
    const source = loadSource(readCorpus(file), file)
    const attempt = source.sessions[0]!.streams[0]!
    const recipient = await openedView(
      await encodeShareLink(
        buildSharePayload({ source, attempt, streamKey: attempt.id, k: 3 }, { scope: 'stream' }),
      ),
    )
    expect(recipient.recorded).toEqual({ seq: 103, interrupted: false, match: false })
    expect(recipient.findings.some((line) => line.startsWith('error recorded-mismatch'))).toBe(true)
    expect(recipient.diagnostics.some((line) => line.includes('seq gap: expected 6, got 87'))).toBe(true)
  })

  it('pwsh, a window of 5 at end-content-mismatch: no finish-missing, the finish stays tool-calls', async () => {
    const file = 'acp-agent-persistent-pwsh-tool-turn-session.jsonl'
    const source = loadSource(readCorpus(file), file)
    const attempt = source.sessions[0]!.streams.find((candidate) =>
      new ReplayEngine(candidate.chunks).findings.some((f) => f.rule === 'end-content-mismatch'),
    )!
    const engine = new ReplayEngine(attempt.chunks)
    const k = engine.findings.find((f) => f.rule === 'end-content-mismatch')!.pos + 1
    const input = { source, attempt, streamKey: attempt.id, k }
    const window = windowAround(k, attempt.chunks.length, 5)
    expect(window.to).toBeLessThan(attempt.chunks.length)
    const recipient = await openedView(await encodeShareLink(buildSharePayload(input, { window })))
    expect(recipient.findings.join('\n')).not.toContain('finish-missing')
    expect(JSON.parse(recipient.finish)).toEqual({ kind: 'tool-calls' })
    expect(recipient.hasFinish).toBe(true)
  })

  it('the dialog warns about a payload that drops the recorded message', () => {
    const file = 'web-cordis-tool-round-legacy-session.jsonl'
    const source = loadSource(readCorpus(file), file)
    const attempt = source.sessions[0]!.streams[0]!
    const input = { source, attempt, streamKey: attempt.id, k: 3 }
    // What a link made before the attempt's context travelled looked like: chunks only.
    const { attempt: _attempt, ...bare } = buildSharePayload(input, { scope: 'stream' })
    expect(describeFidelity(checkShare(input, bare)!)).toBe(
      'this link would lose: recorded-mismatch; would change: the recorded message',
    )
  })
})

import { buildSession, type Session, type SessionEvent, type SessionHeader } from '../../core/session'
import { isBlank, lines, parseJson, peekObjects } from '../json'
import type { Diagnostic } from '../types'
import { isRecord } from '../../core/base/isRecord'

/**
 * A recording of the harness's live WebSocket (`GET /api/events.mux`, docs/protocol.md §10): one frame per line,
 * `{"type":"server-request","rpcId","method","payload"}`. `session/event` frames carry `{sessionId, event}` with
 * every logical event unpacked; they are split by sessionId (first appearance order), duplicates dropped by seq
 * (the first copy wins; a backfill overlapping the live feed is normal), and fed to `buildSession` so turns, steps
 * and attempts appear as for a session log. `session.history` responses (`server-response` frames) are read too,
 * attributed through the `client-request` frame with the same rpcId, or to the only session of the recording.
 * The socket carries no session header: each session gets one synthesised from its id (`raw.synthesised`).
 */
export function readLiveRecording(text: string): { diagnostics: Diagnostic[]; sessions: Session[] } {
  const diagnostics: Diagnostic[] = []
  const bySession = new Map<string, Map<number, SessionEvent>>()
  const duplicates = new Map<string, number>()
  const requestSession = new Map<string, string>()
  const pending: { line: number; rpcId: string; events: unknown[] }[] = []
  const ignored = new Map<string, { count: number; line: number }>()
  const ignore = (what: string, line: number) => {
    const entry = ignored.get(what)
    if (entry) entry.count += 1
    else ignored.set(what, { count: 1, line })
  }
  const add = (sessionId: string, value: unknown, line: number) => {
    const event = toEvent(value, line)
    if (typeof event === 'string') {
      diagnostics.push({ line, severity: 'warning', message: `line ${line}: ${event}; skipped` })
      return
    }
    let events = bySession.get(sessionId)
    if (!events) {
      events = new Map()
      bySession.set(sessionId, events)
    }
    if (events.has(event.seq)) duplicates.set(sessionId, (duplicates.get(sessionId) ?? 0) + 1)
    else events.set(event.seq, event)
  }
  for (const line of lines(text)) {
    if (isBlank(line.text)) continue
    const parsed = parseJson(line.text)
    if (!parsed.ok || !isRecord(parsed.value)) {
      const why = parsed.ok ? 'not a JSON object' : `malformed JSON: ${parsed.reason}`
      const torn = line.terminated ? '' : ' (the last line is cut short)'
      diagnostics.push({
        line: line.number,
        severity: 'error',
        message: `line ${line.number}: ${why}${torn}; skipped`,
      })
      continue
    }
    const frame = parsed.value
    const payload = isRecord(frame['payload']) ? frame['payload'] : {}
    const rpcId =
      typeof frame['rpcId'] === 'string' || typeof frame['rpcId'] === 'number' ? String(frame['rpcId']) : ''
    if (frame['type'] === 'server-request' && frame['method'] === 'session/event') {
      const sessionId = payload['sessionId']
      if (typeof sessionId !== 'string') {
        diagnostics.push({
          line: line.number,
          severity: 'warning',
          message: `line ${line.number}: session/event without a sessionId; skipped`,
        })
        continue
      }
      add(sessionId, payload['event'], line.number)
    } else if (frame['type'] === 'server-request' && frame['method'] === 'session/subscribed') {
      const sessionId = payload['sessionId']
      if (typeof sessionId === 'string' && !bySession.has(sessionId)) bySession.set(sessionId, new Map())
    } else if (frame['type'] === 'client-request' && frame['method'] === 'session.history') {
      if (typeof payload['sessionId'] === 'string') requestSession.set(rpcId, payload['sessionId'])
    } else if (frame['type'] === 'server-response') {
      const result = isRecord(frame['result']) ? frame['result'] : {}
      const value = isRecord(result['value']) ? result['value'] : {}
      if (Array.isArray(value['events'])) pending.push({ line: line.number, rpcId, events: value['events'] })
      else ignore('server-response without events', line.number)
    } else {
      const what = `${String(frame['type'])}${typeof frame['method'] === 'string' ? ` ${frame['method']}` : ''}`
      ignore(what, line.number)
    }
  }
  for (const response of pending) {
    const only = bySession.size === 1 ? [...bySession.keys()][0] : undefined
    const sessionId = requestSession.get(response.rpcId) ?? only
    if (sessionId === undefined) {
      diagnostics.push({
        line: response.line,
        severity: 'warning',
        message: `line ${response.line}: session.history response for no known session (no client-request with rpcId ${JSON.stringify(response.rpcId)}); skipped`,
      })
      continue
    }
    for (const item of response.events)
      add(sessionId, isRecord(item) && 'event' in item ? item['event'] : item, response.line)
  }
  for (const [what, { count, line }] of ignored) {
    diagnostics.push({
      line,
      severity: 'info',
      message: `line ${line}: ${count} ${what} frame${count === 1 ? '' : 's'} carried no session event`,
    })
  }
  const sessions: Session[] = []
  for (const [sessionId, byseq] of bySession) {
    const events = [...byseq.values()].sort((a, b) => a.seq - b.seq)
    if (events.length === 0) {
      diagnostics.push({ severity: 'info', message: `session ${sessionId}: subscribed, no events recorded` })
      continue
    }
    const dropped = duplicates.get(sessionId) ?? 0
    if (dropped > 0) {
      diagnostics.push({
        severity: 'info',
        message: `session ${sessionId}: ${dropped} duplicate event${dropped === 1 ? '' : 's'} dropped by seq`,
      })
    }
    const gaps: string[] = []
    for (let k = 1; k < events.length; k++) {
      const before = events[k - 1]!.seq
      const after = events[k]!.seq
      if (after !== before + 1) gaps.push(`${before} → ${after}`)
    }
    if (events[0]!.seq !== 0) gaps.unshift(`start → ${events[0]!.seq}`)
    if (gaps.length > 0) {
      const shown = gaps.slice(0, 5).join(', ') + (gaps.length > 5 ? `, … ${gaps.length - 5} more` : '')
      diagnostics.push({
        severity: 'warning',
        message: `session ${sessionId}: seq gaps ${shown} — the recording missed events (the live socket has no resume; backfill with session.history)`,
      })
    }
    sessions.push(buildSession(syntheticHeader(sessionId), events))
  }
  if (sessions.length === 0)
    diagnostics.push({ severity: 'error', message: 'no session/event frames in the recording' })
  return { diagnostics, sessions }
}

function syntheticHeader(sessionId: string): SessionHeader {
  return {
    type: 'session',
    version: null,
    id: sessionId,
    createdAt: null,
    raw: {
      type: 'session',
      id: sessionId,
      synthesised: 'from a live WebSocket recording (no header on the socket)',
    },
  }
}

function toEvent(value: unknown, line: number): SessionEvent | string {
  if (!isRecord(value)) return 'session/event without an event object'
  const { type, seq, time, data, sourceEventSeqs, surfaceOp } = value
  if (typeof type !== 'string') return 'event without a string type'
  if (!Number.isSafeInteger(seq) || (seq as number) < 0) return `event ${type} without a valid seq`
  const seqs =
    Array.isArray(sourceEventSeqs) && sourceEventSeqs.every((s) => Number.isSafeInteger(s))
      ? { sourceEventSeqs: sourceEventSeqs as number[] }
      : {}
  return {
    type,
    seq: seq as number,
    time: typeof time === 'number' && Number.isFinite(time) ? time : null,
    data,
    ...seqs,
    ...(surfaceOp !== undefined ? { surfaceOp } : {}),
    line,
  }
}

/** A recording of the live socket: the first lines are frames with a `type` of server-request/-response and an rpcId. */
export function sniffLiveRecording(text: string): boolean {
  let frames = 0
  for (const object of peekObjects(text, 10)) {
    if (object === null) continue
    const type = object['type']
    if (
      (type === 'server-request' || type === 'server-response' || type === 'client-request') &&
      'rpcId' in object
    )
      frames += 1
    else return false
  }
  return frames > 0
}

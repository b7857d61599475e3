// The harness web host's HTTP RPC (docs/protocol.md §10): `POST /api/<method>` with a client-request envelope.
import { request as httpRequest } from 'node:http'
import { request as httpsRequest } from 'node:https'
import { isRecord } from '../../core/base/isRecord'

export type HistoryPage = {
  /** The page's events as the host sent them (each item `{event}` unwrapped), any order. */
  readonly events: unknown[]
  readonly hasMore: boolean
}

/** A failed call, in plain words (`message`), with the HTTP status when the host answered. */
export class HostRpcError extends Error {
  constructor(
    message: string,
    readonly status?: number,
  ) {
    super(message)
  }
}

let rpcCounter = 0

/** Bounds on one call: the answer's size (read as it streams, never past it) and the time to its last byte. */
export type RpcLimits = { readonly maxAnswerBytes: number; readonly timeoutMs: number }

/** 32 MiB answers (a page of 50 events, even with long messages, is far below), 30 s per call. */
export const DEFAULT_RPC_LIMITS: RpcLimits = { maxAnswerBytes: 32 * 1024 * 1024, timeoutMs: 30_000 }

function mebibytes(bytes: number): string {
  return `${Number((bytes / 1024 / 1024).toFixed(1))} MiB`
}

/**
 * Calls `method` on the host at `base` (e.g. `http://127.0.0.1:3080`) and resolves with `result.value`. Sends no
 * Origin header (the host refuses a foreign one). Rejects with a HostRpcError: unreachable, a non-200 answer, a body
 * that is not a server-response, `result.ok` false (its error message), an answer over `limits.maxAnswerBytes`
 * (the read stops there) or slower than `limits.timeoutMs`.
 */
export function callHost(
  base: URL,
  method: string,
  payload: Record<string, unknown>,
  signal?: AbortSignal,
  limits: RpcLimits = DEFAULT_RPC_LIMITS,
): Promise<unknown> {
  const rpcId = `chunkscope-attach-${++rpcCounter}`
  const body = JSON.stringify({ type: 'client-request', rpcId, method, payload })
  const send = base.protocol === 'https:' ? httpsRequest : httpRequest
  const url = new URL(`${base.pathname.replace(/\/+$/, '')}/api/${method}`, base)
  return new Promise((resolve, reject) => {
    let failed = false
    const fail = (message: string) => {
      failed = true
      clearTimeout(timer)
      req.destroy()
      reject(new HostRpcError(`${method}: ${message}`))
    }
    const timer = setTimeout(
      () => fail(`no whole answer within ${limits.timeoutMs / 1000} s`),
      limits.timeoutMs,
    )
    const tooLarge = `the answer is larger than ${mebibytes(limits.maxAnswerBytes)} (the relay's limit)`
    const req = send(
      url,
      {
        method: 'POST',
        headers: { 'content-type': 'application/json', 'content-length': Buffer.byteLength(body) },
        ...(signal !== undefined ? { signal } : {}),
      },
      (res) => {
        if (Number(res.headers['content-length'] ?? 0) > limits.maxAnswerBytes) return fail(tooLarge)
        const parts: Buffer[] = []
        let size = 0
        res.on('data', (part: Buffer) => {
          size += part.length
          if (size > limits.maxAnswerBytes) return fail(tooLarge)
          parts.push(part)
        })
        res.on('error', (error) => {
          if (!failed) fail(error.message)
        })
        res.on('end', () => {
          clearTimeout(timer)
          if (failed) return
          const status = res.statusCode ?? 0
          if (status !== 200) {
            const why = status === 403 ? ' (the host refused the request: Origin check)' : ''
            return reject(new HostRpcError(`${method}: HTTP ${status}${why}`, status))
          }
          let parsed: unknown
          try {
            parsed = JSON.parse(Buffer.concat(parts).toString('utf8'))
          } catch {
            return reject(new HostRpcError(`${method}: the answer is not JSON`, status))
          }
          const result = isRecord(parsed) && isRecord(parsed['result']) ? parsed['result'] : null
          if (result === null) return reject(new HostRpcError(`${method}: no result in the answer`, status))
          if (result['ok'] !== true) {
            const error = isRecord(result['error']) ? result['error'] : {}
            const message = typeof error['message'] === 'string' ? error['message'] : JSON.stringify(error)
            return reject(new HostRpcError(`${method}: the host said: ${message}`, status))
          }
          resolve(result['value'])
        })
      },
    )
    req.on('error', (error: Error & { code?: string }) => {
      if (failed) return
      clearTimeout(timer)
      reject(new HostRpcError(`${method}: ${describeNetError(error)}`))
    })
    req.end(body)
  })
}

/** One page of `session.history`, newest first: events before `beforeSeq` (the newest when absent). */
export async function historyPage(
  base: URL,
  sessionId: string,
  beforeSeq: number | undefined,
  signal?: AbortSignal,
  limits?: RpcLimits,
): Promise<HistoryPage> {
  const payload = beforeSeq === undefined ? { sessionId } : { sessionId, beforeSeq }
  const value = await callHost(base, 'session.history', payload, signal, limits)
  if (!isRecord(value) || !Array.isArray(value['events']))
    throw new HostRpcError('session.history: the answer has no events')
  const events = value['events'].map((item: unknown) =>
    isRecord(item) && 'event' in item ? item['event'] : item,
  )
  return { events, hasMore: value['hasMore'] === true }
}

/** A network error in plain words: `connection refused`, `host not found`, … (never a stack). */
export function describeNetError(error: Error & { code?: string }): string {
  switch (error.code) {
    case 'ECONNREFUSED':
      return 'connection refused (is `dsh web` running?)'
    case 'ENOTFOUND':
    case 'EAI_AGAIN':
      return 'host not found'
    case 'ECONNRESET':
      return 'connection reset'
    case 'ETIMEDOUT':
      return 'timed out'
    case 'EHOSTUNREACH':
    case 'ENETUNREACH':
      return 'host unreachable'
    case 'ABORT_ERR':
      return 'aborted'
    default:
      return error.code !== undefined ? `${error.code}: ${error.message}` : error.message
  }
}

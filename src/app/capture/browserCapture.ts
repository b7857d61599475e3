// A chat completion streamed by the page itself and recorded as a harness session log.
import type { FinishReason, LlmFailure } from '../../core/protocol'
import { SessionRecorder, type RecordSink } from '../../formats/capture/sessionRecorder'
import type { FeedCapture, FeedRecord } from '../../formats/live/feedProtocol'
import { httpFailure } from '../../formats/sse/httpFailure'
import { buildChatRequest, originOf, type ChatForm, type ChatRequest, type FormError } from './chatRequest'
import { nextDelay, retryableFailure, retryPolicy, type RetryPolicy } from './retryPolicy'

export type BrowserCaptureOptions = {
  /** The capture's id (the session log's header id, the captureStore key). */
  readonly id: string
  /** Where each record goes first (captureStore's `append`, say); awaited before `publish`. */
  readonly sink: RecordSink
  /** Each record once durable, in log order (the workbench grows from these). */
  readonly publish?: (record: FeedRecord) => void
  /** The capture's summary at the start, as chunks arrive (once per network read), at each attempt's end, at the end. */
  readonly onSummary?: (summary: FeedCapture) => void
  /** A failed append: the capture goes on (records are still published) but is no longer durable. */
  readonly onSinkError?: (error: unknown) => void
  /** docs/protocol.md §11's default unless given; `'off'` = one attempt. */
  readonly policy?: RetryPolicy | 'default' | 'off'
  readonly fetch?: typeof globalThis.fetch
  /** Waits `ms`, rejecting (or resolving early) when `signal` aborts. Tests inject one that does not wait. */
  readonly sleep?: (ms: number, signal: AbortSignal) => Promise<void>
  readonly random?: () => number
  readonly now?: () => number
  /**
   * An attempt that gets no byte for this long (waiting for the response, or mid-stream) is cut off and fails with
   * TIMEOUT, which the default policy retries (docs/protocol.md §11). Default {@link DEFAULT_IDLE_TIMEOUT_MS}; 0 = never.
   */
  readonly idleTimeoutMs?: number
}

/** A minute without a byte: far beyond a model's thinking pauses between chunks, short enough not to hang forever. */
export const DEFAULT_IDLE_TIMEOUT_MS = 60_000

export type BrowserCapture = {
  readonly id: string
  /** Stop: aborts the request (or the retry wait) at once; the capture ends `aborted`, keeping what arrived. */
  stop(): void
  /** The capture as it stands (FeedCapture, kind `browser`). */
  summary(): FeedCapture
  /** Resolves with the final summary once every record is durable and published. Never rejects. */
  readonly done: Promise<FeedCapture>
}

/** Thrown by `startBrowserCapture` for a form `buildChatRequest` refuses (check the form first to show errors). */
export class ChatRequestError extends Error {
  constructor(readonly errors: readonly FormError[]) {
    super(errors.map((error) => `${error.field}: ${error.message}`).join('; '))
    this.name = 'ChatRequestError'
  }
}

const NO_RESPONSE = 'No response from '

/** The command that makes a proxy for `baseUrl` (what the CORS hint tells the user to run). */
export function proxyCommand(baseUrl: string): string {
  return `chunkscope proxy --upstream ${baseUrl}`
}

/**
 * The TRANSPORT failure of a fetch that got no response: a CORS refusal or an unreachable endpoint (the browser does
 * not tell which). For a remote endpoint it says to run the proxy; for a loopback one (the proxy itself, a local
 * server) to check that it runs and allows cross-origin requests.
 */
export function noResponseFailure(request: Pick<ChatRequest, 'url' | 'baseUrl'>): LlmFailure {
  const origin = originOf(request)
  const local = /^https?:\/\/(127\.\d+\.\d+\.\d+|localhost|\[::1\])(:\d+)?$/i.test(origin)
  return {
    code: 'TRANSPORT',
    message: local
      ? `${NO_RESPONSE}${origin}: nothing answers there, or it refuses cross-origin requests (CORS). If it is a ` +
        `\`chunkscope proxy\`, check that it is still running; a local server must allow this page's origin.`
      : `${NO_RESPONSE}${origin}: the browser either refuses this cross-origin request (the endpoint does not ` +
        `allow CORS) or cannot reach it. Run \`${proxyCommand(request.baseUrl)}\` and use the proxy's address ` +
        `(http://127.0.0.1:<port>) as the base URL.`,
  }
}

/** Whether a failure (or a finish) is the browser getting no response: show the proxy hint prominently. */
export function isNoResponseFailure(failure: LlmFailure | FinishReason | null | undefined): boolean {
  const inner = failure !== null && failure !== undefined && 'kind' in failure ? errorOf(failure) : failure
  return inner?.code === 'TRANSPORT' && inner.message.startsWith(NO_RESPONSE)
}

function errorOf(finish: FinishReason): LlmFailure | null {
  return finish.kind === 'error' || finish.kind === 'aborted' ? finish.failure : null
}

/** setTimeout that ends early (resolving) when the signal aborts. */
export function abortableSleep(ms: number, signal: AbortSignal): Promise<void> {
  return new Promise((resolve) => {
    if (signal.aborted) return resolve()
    const timer = setTimeout(done, ms)
    function done() {
      clearTimeout(timer)
      signal.removeEventListener('abort', done)
      resolve()
    }
    signal.addEventListener('abort', done, { once: true })
  })
}

function hostOf(url: string): string {
  try {
    return new URL(url).host
  } catch {
    return url
  }
}

/** A request URL's path and query, for telling the response's wire. */
function pathOf(url: string): string {
  try {
    const parsed = new URL(url)
    return parsed.pathname + parsed.search
  } catch {
    return url
  }
}

/**
 * Streams one chat completion from the page and records it (docs/protocol.md §6, §9, §11): POSTs the request with
 * `fetch` and an AbortController, reads the body with `getReader()`, feeds every network read to a
 * {@link SessionRecorder} (the harness's DeepSeek / OpenAI-compatible translation, one `assistant/chunk` per
 * StreamChunk with its receive time, appended to `sink` before it is published). An HTTP error becomes its
 * `httpFailure` (AUTH, RATE_LIMIT, SERVER, INVALID_REQUEST with the endpoint's message, CONTEXT_WINDOW_EXCEEDED, …);
 * a body ended before `[DONE]` STREAM_CLOSED; bad JSON MALFORMED_RESPONSE; no response at all TRANSPORT with the
 * proxy hint ({@link isNoResponseFailure}); no byte for `idleTimeoutMs` (60 s) TIMEOUT, the chunks so far kept. Retries follow `policy`, each a new attempt of the same step after
 * `llm/retry` (with the delay) and `llm/retry-started`. `stop()` ends it `aborted` at once, even during a retry wait.
 * The API key goes into the request's Authorization header and nowhere else.
 *
 * @throws ChatRequestError when given a form `buildChatRequest` refuses.
 */
export function startBrowserCapture(
  input: ChatForm | ChatRequest,
  options: BrowserCaptureOptions,
): BrowserCapture {
  const built = 'ok' in input ? input : buildChatRequest(input)
  if (!built.ok) throw new ChatRequestError(built.errors)
  const request = built
  const policy =
    typeof options.policy === 'object' ? options.policy : retryPolicy(options.policy ?? 'default')
  const doFetch = options.fetch ?? globalThis.fetch.bind(globalThis)
  const sleep = options.sleep ?? abortableSleep
  const random = options.random ?? Math.random
  const controller = new AbortController()
  const { signal } = controller
  const recorder = new SessionRecorder({
    id: options.id,
    kind: 'browser',
    title: `${request.model} · ${hostOf(request.url)}`,
    model: request.model,
    baseURL: request.baseUrl,
    // The wire is told from each response's first text, the path breaking a tie (docs/protocol.md §9, "Live capture: which wire").
    wire: { path: pathOf(request.url) },
    header: { chunkscopeBrowser: { url: request.url, model: request.model, request: request.body } },
    sink: options.sink,
    ...(options.publish !== undefined ? { publish: options.publish } : {}),
    ...(options.onSummary !== undefined ? { onSummary: options.onSummary } : {}),
    ...(options.onSinkError !== undefined ? { onSinkError: options.onSinkError } : {}),
    ...(options.now !== undefined ? { now: options.now } : {}),
  })

  const idleMs = options.idleTimeoutMs ?? DEFAULT_IDLE_TIMEOUT_MS

  /** One attempt to its end; false when Stop interrupted it. */
  const attempt = async (): Promise<boolean> => {
    // Each attempt has its own controller: Stop aborts it, and so does the idle timer (then it is a TIMEOUT).
    const attemptController = new AbortController()
    const stopAttempt = () => attemptController.abort()
    signal.addEventListener('abort', stopAttempt)
    let timedOut = false
    let timer: ReturnType<typeof setTimeout> | undefined
    const wake = () => {
      if (idleMs <= 0) return
      clearTimeout(timer)
      timer = setTimeout(() => {
        timedOut = true
        attemptController.abort()
      }, idleMs)
    }
    const timeout = (): LlmFailure => ({
      code: 'TIMEOUT',
      message: `no data from ${originOf(request)} for ${Math.round(idleMs / 1000)} s; the attempt was cut off`,
    })
    wake()
    try {
      return await attemptWith(attemptController.signal, wake, () => (timedOut ? timeout() : null))
    } finally {
      clearTimeout(timer)
      signal.removeEventListener('abort', stopAttempt)
    }
  }

  /** The attempt's work: `wake()` on every byte; `timedOut()` says whether an abort was the idle timer's. */
  const attemptWith = async (
    attemptSignal: AbortSignal,
    wake: () => void,
    timedOut: () => LlmFailure | null,
  ): Promise<boolean> => {
    let response: Response
    try {
      response = await doFetch(request.url, {
        method: 'POST',
        headers: request.headers,
        body: JSON.stringify(request.body),
        signal: attemptSignal,
      })
    } catch {
      if (signal.aborted) return false
      recorder.failAttempt(timedOut() ?? noResponseFailure(request))
      return true
    }
    wake()
    if (!response.ok) {
      let text = ''
      try {
        text = await response.text()
      } catch {
        if (signal.aborted) return false
        const failure = timedOut()
        if (failure !== null) {
          recorder.failAttempt(failure)
          return true
        }
      }
      recorder.failAttempt(
        httpFailure(response.status, response.headers, text, options.now?.(), request.baseUrl),
      )
      return true
    }
    const reader = response.body?.getReader()
    if (reader === undefined) {
      recorder.endBody()
      return true
    }
    try {
      for (;;) {
        const { done, value } = await reader.read()
        if (done) break
        wake()
        const before = recorder.summary().chunks
        recorder.pushBytes(value)
        if (recorder.attemptFinish !== null) break
        if (recorder.summary().chunks !== before) options.onSummary?.(recorder.summary())
      }
    } catch {
      if (signal.aborted && recorder.attemptFinish === null) return false
      const failure = timedOut()
      if (failure !== null) recorder.failAttempt(failure)
    }
    if (recorder.attemptFinish !== null) {
      // [DONE] or a failure: nothing more is read (a server keeping the connection open does not hold the capture).
      reader.cancel().catch(() => {})
      return true
    }
    if (signal.aborted) return false
    recorder.endBody()
    return true
  }

  const run = async (): Promise<FeedCapture> => {
    for (let retry = 1; ; retry++) {
      if (signal.aborted) return recorder.abort()
      if (!(await attempt())) return recorder.abort()
      const failure = retryableFailure(recorder.attemptFinish)
      const delayMs = failure === null ? null : nextDelay(policy, retry, failure, random)
      if (failure === null || delayMs === null) return recorder.end()
      recorder.retry({ delayMs, maxRetries: policy.maxRetries, failure })
      try {
        await sleep(delayMs, signal)
      } catch {
        // an aborted wait: handled below
      }
      if (signal.aborted) return recorder.abort()
      recorder.startRetry()
    }
  }

  const done = run().catch(() => recorder.abort('capture failed'))
  return {
    id: options.id,
    stop: () => controller.abort(),
    summary: () => recorder.summary(),
    done,
  }
}

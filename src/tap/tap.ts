// `chunkscope/tap`: see the stream your own adapter emits. `tap(stream)` passes every chunk through unchanged and
// logs the call as a harness session log (docs/protocol.md §6), durable-first, through the shared SessionRecorder.
import { randomBytes } from 'node:crypto'
import { mkdir, open, type FileHandle } from 'node:fs/promises'
import { join } from 'node:path'
import type { LlmFailure, StreamChunk } from '../core/protocol'
import { SessionRecorder, type RecordSink } from '../formats/capture/sessionRecorder'
import type { FeedRecord } from '../formats/live/feedProtocol'
import type { TapFeed } from './tapFeed'

export type TapOptions = {
  /** Directory for the logs, one `<id>.jsonl` per tapped call (created if missing). */
  readonly out?: string
  /** A live feed from `startTapFeed`: the workbench shows the call while it streams. */
  readonly feed?: Pick<TapFeed, 'capture' | 'record'>
  /** Each record once it is written (or at once without `out`): forward it to your own live view. */
  readonly publish?: (record: FeedRecord) => void
  /** The log's title and `source.model` (default `tap`, `unknown`). */
  readonly title?: string
  readonly model?: string
  readonly provider?: string
  /** The caller's signal: a throw while it is aborted is logged as `aborted`, as the harness does (§2). */
  readonly signal?: AbortSignal
  /** Called once with the log's path when it is complete (synced and closed). */
  readonly onLog?: (path: string) => void
  /** A failed write: the stream goes on unchanged, the log stops (default: one line on stderr). */
  readonly onError?: (error: unknown) => void
}

let calls = 0

/**
 * Wraps an adapter's stream: yields every chunk unchanged and in order, and records it. A throw from the adapter
 * is logged as the harness logs it — a terminal `finish` chunk with the error's LlmError code (§2) — and then
 * thrown on to the caller unchanged. A consumer that stops early (`break`) is logged as aborted.
 *
 * @example
 * for await (const chunk of tap(adapter.stream(request), { out: 'chunkscope-taps' })) handle(chunk)
 */
export async function* tap<C extends StreamChunk>(
  stream: AsyncIterable<C>,
  options: TapOptions = {},
): AsyncGenerator<C, void, undefined> {
  calls += 1
  const id = `tap-${new Date().toISOString().replace(/[:.]/g, '-')}-${calls}-${randomBytes(3).toString('hex')}`
  const path = options.out !== undefined ? join(options.out, `${id}.jsonl`) : null
  const recorder = new SessionRecorder({
    id,
    // Like the proxy's, a capture made by another process (the page's own 'browser' captures are special-cased).
    kind: 'proxy',
    title: options.title ?? 'tap',
    model: options.model ?? null,
    provider: options.provider ?? 'tap',
    header: { chunkscopeTap: { title: options.title ?? 'tap' } },
    sink: path !== null ? fileSink(path) : NO_SINK,
    publish: (record) => {
      options.feed?.record(id, record)
      options.publish?.(record)
    },
    ...(options.feed !== undefined ? { onSummary: options.feed.capture } : {}),
    onSinkError:
      options.onError ??
      ((error) => process.stderr.write(`chunkscope tap: cannot write ${path}: ${String(error)}\n`)),
  })
  let finished = false
  try {
    for await (const chunk of stream) {
      recorder.pushChunks([chunk])
      yield chunk
    }
    finished = true
  } catch (error) {
    const failure = failureOf(error)
    const aborted = options.signal?.aborted === true || failure.code === 'ABORTED'
    recorder.pushChunks([{ type: 'finish', reason: { kind: aborted ? 'aborted' : 'error', failure } }])
    finished = true
    throw error
  } finally {
    // Not finished: the consumer returned early, so the call was cut short as a Stop is.
    await (finished ? recorder.end() : recorder.abort('the consumer stopped reading'))
    if (path !== null) options.onLog?.(path)
  }
}

const NO_SINK: RecordSink = { append: async () => undefined }

/** Appends JSONL to a new file; one `write` per batch of records; fsync before close (durable-first, §6). */
function fileSink(path: string): RecordSink {
  let handle: Promise<FileHandle> | null = null
  const opened = () => (handle ??= mkdir(join(path, '..'), { recursive: true }).then(() => open(path, 'wx')))
  const write = async (records: readonly FeedRecord[]) => {
    let text = ''
    for (const record of records) text += JSON.stringify(record) + '\n'
    await (await opened()).write(text)
  }
  return {
    append: (record) => write([record]),
    appendMany: write,
    close: async () => {
      const file = await opened()
      try {
        await file.sync()
      } finally {
        await file.close()
      }
    },
  }
}

/**
 * The failure the harness logs for a thrown value (§2): an LlmError's own `failure` when its `code` agrees, else
 * `{message, code}` — the code only from the harness's own error classes (recognised by class name, since the
 * adapter's copy of the package is not ours), `UNKNOWN` otherwise; a non-Error throw is UNKNOWN with its text.
 */
export function failureOf(value: unknown): LlmFailure {
  if (!(value instanceof Error)) {
    let message = 'LLM adapter failed'
    try {
      message = String(value) || message
    } catch {
      // A hostile toString: keep the generic message.
    }
    return { message, code: 'UNKNOWN' }
  }
  const code = ownValue(value, 'code')
  const carried = ownValue(value, 'failure') as Partial<LlmFailure> | undefined
  if (
    typeof carried === 'object' &&
    carried !== null &&
    typeof carried.message === 'string' &&
    carried.message !== '' &&
    typeof carried.code === 'string' &&
    carried.code === code
  )
    return { ...carried, message: carried.message, code: carried.code }
  const message =
    typeof value.message === 'string' && value.message !== '' ? value.message : 'LLM adapter failed'
  return { message, code: isHarnessError(value) && typeof code === 'string' ? code : 'UNKNOWN' }
}

function ownValue(error: Error, key: string): unknown {
  const descriptor = Object.getOwnPropertyDescriptor(error, key)
  return descriptor !== undefined && 'value' in descriptor ? descriptor.value : undefined
}

function isHarnessError(error: Error): boolean {
  for (let proto = Object.getPrototypeOf(error); proto !== null; proto = Object.getPrototypeOf(proto)) {
    const name = (proto as { constructor?: { name?: unknown } }).constructor?.name
    if (name === 'HarnessError') return true
  }
  return false
}

import type { SqlJsStatic } from 'sql.js'
import type { Columns } from '../../core/columns'
import type { BatchSink } from '../../formats/columnSource'
import type { LoadRequest, LoadResponse } from './loadMessages'
import { BROWSER_LIMITS } from './budget'
import { readInput } from './readInput'
import { partTransferables, splitSource } from './transfer'

export type Post = (message: LoadResponse, transfer?: Transferable[]) => void

/**
 * What the loading worker does with one request (loadWorker.ts is its entry point; tests run it in Node): read with
 * progress and parse, posting each column batch as soon as the reader fills it, then the shell, the parts not yet
 * posted, and `done` (or `failed`).
 */
export async function runLoad(
  request: LoadRequest,
  post: Post,
  sqlJs?: () => Promise<SqlJsStatic>,
): Promise<void> {
  try {
    const sent = new Set<Columns>()
    const source = await readInput(
      request,
      (phase, done, total) => post({ type: 'progress', progress: { phase, done, total } }),
      sqlJs,
      earlyPoster(sent, post),
    )
    const { shell, plan, parts, early } = splitSource(source, undefined, sent)
    post({ type: 'shell', source: shell, plan, parts: parts.length, early })
    for (const next of parts) {
      const part = next()
      post({ type: 'part', part }, partTransferables(part))
    }
    post({ type: 'done' })
  } catch (error) {
    post({ type: 'failed', message: error instanceof Error ? error.message : String(error) })
  }
}

/**
 * Posts each column batch as soon as the reader fills it, so the page replays the first chunks while the rest is
 * parsed (app/open/earlyReplay.ts). A copy, not a transfer: the worker still reads its batches (the browser limits,
 * budget.ts) before the shell; splitSource then leaves them out. For a session log, the rows of the first stream
 * with chunks follow each batch.
 */
function earlyPoster(sent: Set<Columns>, post: Post): BatchSink {
  let stream = -1
  let rowsSent = 0
  return (batch) => {
    sent.add(batch.columns)
    if (batch.kind === 'chunks') {
      post({ type: 'part', part: { type: 'chunks', session: 0, stream: 0, chunks: batch.columns } })
      return
    }
    post({ type: 'part', part: { type: 'events', session: 0, events: batch.columns } })
    if (stream === -1) stream = batch.firstStream
    // The page replays no more of a stream than it may hold (longer ones are cut, budget.ts).
    if (stream === -1 || rowsSent >= BROWSER_LIMITS.chunksPerStream) return
    const rows = batch.rowsOf(stream).slice(rowsSent, BROWSER_LIMITS.chunksPerStream)
    rowsSent += rows.length
    if (rows.length > 0) post({ type: 'rows', session: 0, stream, rows }, [rows.buffer])
  }
}

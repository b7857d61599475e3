import type { StreamChunk } from '../core/protocol'
import type { FeedRecord } from '../formats/live/feedProtocol'
import { LiveHub } from '../app/live/liveHub'
import { createChunkscopeStore } from '../app/store'
import { loadBaseline, saveResults } from './baseline'
import { flatten, median, percentile, printTable, type Row } from './report'

// Live capture: what one workbench update costs while a capture grows. Records arrive in batches of
// BATCH (what ~80 ms of a fast stream brings); each update adds them to the hub, rebuilds that capture's session
// (the hub re-reads its records) and the selected stream's engine (store.showLive), as the page does between
// frames. The page spaces updates by at least twice the last one's cost, so a long capture updates less often
// instead of falling behind. Reference: loading the same capture once, from its finished log.
const BATCH = 20
const title = 'live capture, workbench update while a capture grows'

function records(chunks: number): FeedRecord[] {
  const out: FeedRecord[] = [
    { type: 'session', version: 0, id: 'bench', createdAt: 0, delegationDepth: 0 },
    { type: 'turn/start', seq: 0, time: 0, data: { turn: 1 } },
    { type: 'step/start', seq: 1, time: 0, data: { turn: 1, step: 1 } },
  ]
  const push = (chunk: StreamChunk) =>
    out.push({
      type: 'assistant/chunk',
      seq: out.length - 1,
      time: out.length,
      data: { turn: 1, step: 1, chunk },
    })
  push({ type: 'block-start', index: 0, blockType: 'text' })
  for (let i = 0; i < chunks - 3; i++) push({ type: 'text-delta', index: 0, text: `word${i} ` })
  push({ type: 'usage', usage: { inputTokens: 10, outputTokens: chunks } })
  push({ type: 'finish', reason: { kind: 'stop' } })
  return out
}

async function grow(size: number): Promise<{ updates: number[]; atEnd: number[]; once: number }> {
  const all = records(size)
  const hub = new LiveHub()
  const store = createChunkscopeStore({ yieldToHost: () => Promise.resolve() })
  hub.upsertCapture(
    {
      id: 'bench',
      kind: 'browser',
      title: 'bench',
      state: 'streaming',
      startedAt: 0,
      endedAt: null,
      chunks: 0,
      finish: null,
    },
    { via: 'page' },
  )
  const updates: number[] = []
  for (let at = 0; at < all.length; at += BATCH) {
    const started = performance.now()
    hub.addRecords('bench', all.slice(at, at + BATCH))
    await store.getState().actions.showLive(hub.source(), new Set([0]))
    updates.push(performance.now() - started)
  }
  if (store.getState().engine?.total !== size) throw new Error(`expected ${size} chunks on screen`)
  const onceStarted = performance.now()
  const fresh = new LiveHub()
  const other = createChunkscopeStore({ yieldToHost: () => Promise.resolve() })
  fresh.upsertCapture(hub.captures()[0]!.capture, { via: 'page' })
  fresh.addRecords('bench', all)
  await other.getState().actions.showLive(fresh.source())
  const once = performance.now() - onceStarted
  return { updates, atEnd: updates.slice(-10), once }
}

const rows: Row[] = []
await grow(1_000) // warm-up
for (const size of [1_000, 10_000, 50_000]) {
  const { updates, atEnd, once } = await grow(size)
  const label = size.toLocaleString('en-US')
  rows.push(
    { name: `${label} chunks: update, median`, value: median(updates), unit: 'ms' },
    { name: `${label} chunks: update, p99`, value: percentile(updates, 99), unit: 'ms' },
    {
      name: `${label} chunks: update near the end`,
      value: median(atEnd),
      unit: 'ms',
      reference: { label: 'load the finished log once', value: once },
    },
  )
}
printTable(title, rows, loadBaseline())
saveResults(flatten(title, rows))

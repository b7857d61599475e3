import { describe, expect, it } from 'vitest'
import type { FeedCapture } from '../../formats/live/feedProtocol'
import type { HubCapture } from '../../app/live/liveHub'
import { buildCaptureRows } from './captureRows'

const capture = (id: string, patch: Partial<FeedCapture> = {}): FeedCapture => ({
  id,
  kind: 'browser',
  title: `deepseek-chat · ${id}`,
  state: 'streaming',
  startedAt: 1,
  endedAt: null,
  chunks: 1,
  finish: null,
  ...patch,
})

describe('buildCaptureRows', () => {
  it('lists the newest first, says how each ended, and which can be stopped', () => {
    const captures: HubCapture[] = [
      {
        capture: capture('old', {
          state: 'error',
          chunks: 1,
          finish: { kind: 'error', failure: { code: 'AUTH', message: 'Incorrect API key' } },
        }),
        origin: { via: 'page' },
        sessionIndex: 0,
      },
      { capture: capture('reloaded'), origin: { via: 'page' }, sessionIndex: 1 },
      {
        capture: capture('proxied', {
          kind: 'proxy',
          chunks: 12,
          state: 'completed',
          finish: { kind: 'stop' },
        }),
        origin: { via: 'feed', url: 'http://127.0.0.1:8787' },
        sessionIndex: 2,
      },
      { capture: capture('running', { chunks: 3 }), origin: { via: 'page' }, sessionIndex: 3 },
    ]
    const rows = buildCaptureRows(captures, new Set(['running']))
    expect(rows.map((row) => [row.id, row.state, row.detail, row.stoppable])).toEqual([
      ['running', 'streaming', '3 chunks', true],
      ['proxied', 'completed', '12 chunks · stop', false],
      // Streaming when the page went away, and not running in this page: interrupted, nothing to stop.
      ['reloaded', 'interrupted', '1 chunk', false],
      ['old', 'error', '1 chunk · error AUTH', false],
    ])
    expect(rows[1]!.where).toBe('http://127.0.0.1:8787')
    expect(rows[3]!.problem).toBe('Incorrect API key')
  })
})

import { describe, expect, it } from 'vitest'
import { readSessionJsonl } from '../formats/sessionJsonl'
import { STOP, chunk, textBlock } from './chunks'
import { SessionLog } from './sessionLog'

function smallLog(): SessionLog {
  const log = new SessionLog({ id: 'session-a', createdAt: 1_000_000 })
  log.turnStart(1)
  log.stepStart(1, 1)
  log.userMessage('Hi!', 'user-1')
  const attempt = log.attempt(1, 1, [
    ...textBlock(0, ['Hello', ' there.']),
    chunk.usage({ inputTokens: 5, outputTokens: 2 }),
    chunk.finish(STOP),
  ])
  log.assistantMessage(attempt, { id: 'msg-1' })
  log.stepEnd(1, 1)
  log.turnEnd(1, { kind: 'completed' })
  return log
}

describe('SessionLog', () => {
  it('writes the header line, then events with seq 0, 1, 2… and increasing times, ending in a newline', () => {
    const text = smallLog().toJsonl()
    expect(text.endsWith('}\n')).toBe(true)
    const lines = text
      .trimEnd()
      .split('\n')
      .map((line) => JSON.parse(line) as Record<string, unknown>)
    expect(lines[0]).toEqual({
      type: 'session',
      version: 0,
      id: 'session-a',
      createdAt: 1_000_000,
      delegationDepth: 0,
    })
    const events = lines.slice(1)
    expect(events.map((e) => e['seq'])).toEqual(events.map((_, k) => k))
    const times = events.map((e) => e['time'] as number)
    for (let k = 1; k < times.length; k++) expect(times[k]!).toBeGreaterThan(times[k - 1]!)
    expect(times[0]!).toBeGreaterThan(1_000_000)
  })

  it('cites every chunk of the attempt and stores what it assembles to', () => {
    const read = readSessionJsonl(smallLog().toJsonl())
    expect(read.diagnostics).toEqual([])
    const message = read.events.find((e) => e.type === 'assistant/message')!
    const chunkSeqs = read.events.filter((e) => e.type === 'assistant/chunk').map((e) => e.seq)
    expect(message.sourceEventSeqs).toEqual(chunkSeqs)
    expect(message.data).toMatchObject({
      turn: 1,
      step: 1,
      message: { role: 'assistant', content: [{ type: 'text', text: 'Hello there.' }], id: 'msg-1' },
      usage: { inputTokens: 5, outputTokens: 2 },
    })
  })

  it('an interrupted message holds interruptedBlocks() and no usage', () => {
    const log = new SessionLog({ id: 'session-b', createdAt: 0 })
    const attempt = log.attempt(1, 1, [
      chunk.start(0, 'text'),
      chunk.text(0, 'half a'),
      chunk.start(1, 'tool-call'),
    ])
    log.assistantMessage(attempt, { id: 'msg-2', interrupted: true })
    const message = readSessionJsonl(log.toJsonl()).events.at(-1)!
    expect(message.data).toEqual({
      turn: 1,
      step: 1,
      message: {
        role: 'assistant',
        content: [{ type: 'text', text: 'half a' }],
        source: { kind: 'model', provider: 'deepseek-official', model: 'deepseek-v4-flash' },
        id: 'msg-2',
      },
      interrupted: true,
    })
  })
})

import { readFileSync } from 'node:fs'
import { describe, expect, it } from 'vitest'
import type { Lesson } from '../lesson/lesson'
import { loadSource } from '../load'
import { CAPTION_PACE_MS, lessonToWebVtt } from './webvtt'

type Cue = { id: string; start: number; end: number; text: string }

/**
 * A strict reading of the WebVTT file structure (W3C WebVTT §4.1): the `WEBVTT` signature line, blocks parted by
 * blank lines, each cue an optional id line without `-->`, a `hh:mm:ss.ttt --> hh:mm:ss.ttt` timing line and payload
 * lines that are neither blank nor hold `-->`; start ≤ end, starts in order.
 */
function parseVtt(text: string): Cue[] {
  const [head, ...blocks] = text.replace(/\n$/, '').split('\n\n')
  expect(head).toMatch(/^WEBVTT(?:[ \t][^\n]*)?$/)
  const time = (value: string) => {
    const match = /^(\d{2,}):([0-5]\d):([0-5]\d)\.(\d{3})$/.exec(value)
    expect(match, `timestamp ${value}`).not.toBeNull()
    const [, h, m, s, ms] = match!.map(Number)
    return ((h! * 60 + m!) * 60 + s!) * 1000 + ms!
  }
  let last = 0
  return blocks.map((block) => {
    const lines = block.split('\n')
    const id = lines[0]!.includes('-->') ? '' : lines.shift()!
    const timing = /^(\S+) --> (\S+)$/.exec(lines.shift() ?? '')
    expect(timing, `timing line of cue ${id}`).not.toBeNull()
    const start = time(timing![1]!)
    const end = time(timing![2]!)
    expect(end).toBeGreaterThanOrEqual(start)
    expect(start).toBeGreaterThanOrEqual(last)
    last = start
    expect(lines.length).toBeGreaterThan(0)
    for (const line of lines) {
      expect(line.trim()).not.toBe('')
      expect(line).not.toContain('-->')
    }
    return { id, start, end, text: lines.join('\n') }
  })
}

function lessonOf(id: string) {
  const source = loadSource(
    readFileSync(new URL(`../../examples/lessons/${id}.json`, import.meta.url), 'utf8'),
  )
  const stream = source.sessions[0]!.streams
  return { source, lesson: source.lesson!, streams: stream }
}

describe('a lesson as WebVTT captions', () => {
  it('one cue per narrated seq, in the chosen language, at a fixed pace when the chunks have no times', () => {
    const { lesson, streams } = lessonOf('seed')
    const cues = parseVtt(
      lessonToWebVtt({ chunks: streams[0]!.chunks, lesson, streamKey: 'stream', lang: 'zh' }),
    )
    const narrated = Object.keys(lesson.narration).map(Number)
    expect(cues.map((c) => c.id)).toEqual(narrated.map((seq) => `seq-${seq}`))
    expect(cues[0]).toEqual({
      id: 'seq-0',
      start: 0,
      end: CAPTION_PACE_MS,
      text: expect.stringContaining('块 0'),
    })
    // seq 1 starts one pace later and lasts until the next narrated seq (3): two paces.
    expect(cues[1]).toMatchObject({ start: CAPTION_PACE_MS, end: 3 * CAPTION_PACE_MS })
  })

  it('times from the chunks of a session log, counted from its first chunk', () => {
    const { lesson, streams } = lessonOf('error-retry')
    const attempt = streams[1]!
    const cues = parseVtt(
      lessonToWebVtt({ chunks: attempt.chunks, lesson, streamKey: attempt.id, lang: 'ja' }),
    )
    const t0 = attempt.chunks[0]!.time!
    const at = (seq: number) => attempt.chunks.find((c) => c.seq === seq)!.time! - t0
    expect(cues.map((c) => [c.id, c.start])).toEqual([
      ['seq-10', at(10)],
      ['seq-17', at(17)],
    ])
    expect(cues[0]!.end).toBe(at(17))
  })

  it('escapes markup and keeps a narration with blank lines in one cue', () => {
    const lesson: Lesson = {
      v: 1,
      title: 'T',
      narration: { '0': 'a <b> & c --> d\n\nsecond paragraph' },
      questions: [],
    }
    const chunks = [{ seq: 0, time: null, chunk: { type: 'usage', usage: {} } }] as never
    const cues = parseVtt(lessonToWebVtt({ chunks, lesson, streamKey: 'stream', lang: 'en' }))
    expect(cues).toEqual([
      { id: 'seq-0', start: 0, end: CAPTION_PACE_MS, text: 'a &lt;b&gt; &amp; c --&gt; d\nsecond paragraph' },
    ])
  })
})

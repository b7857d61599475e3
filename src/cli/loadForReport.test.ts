import { describe, expect, it } from 'vitest'
import { loadBytes } from '../formats/loadBytes'
import type { LoadedSource } from '../formats/types'
import { corpusFiles, readCorpus } from '../test/corpus'
import { generateSessionLog } from '../test/generateSession'
import { buildInspectReport, formatInspect, formatLint } from './inspect'
import { loadForReport } from './loadForReport'

const encode = (text: string) => new TextEncoder().encode(text)

/** `inspect --json`, `inspect` and `lint` of one input, loaded both ways. */
async function bothWays(text: string): Promise<{ lean: LoadedSource; full: LoadedSource }> {
  const bytes = encode(text)
  const { source: lean, report: leanReport } = await loadForReport(bytes, 'session.jsonl', {})
  const full = await loadBytes(bytes, 'session.jsonl', {})
  const fullReport = buildInspectReport(full)
  expect(formatInspect('session.jsonl', leanReport)).toBe(formatInspect('session.jsonl', fullReport))
  expect(formatLint('session.jsonl', leanReport)).toBe(formatLint('session.jsonl', fullReport))
  // `inspect --json` byte for byte, then as values.
  expect(JSON.stringify(leanReport)).toBe(JSON.stringify(fullReport))
  expect(leanReport).toEqual(fullReport)
  return { lean, full }
}

/** Chunks the source keeps: in its events and in its streams (none when every chunk was analyzed as read). */
const keptChunks = (source: LoadedSource) =>
  source.sessions.flatMap((session) => [
    ...session.events.filter((e) => e.type === 'assistant/chunk'),
    ...session.streams.flatMap((attempt) => attempt.chunks),
  ]).length

/** The log without its `at`-th line (1-based), or with lines `at` and `at + 1` swapped. */
function dropLine(text: string, at: number): string {
  const lines = text.split('\n')
  lines.splice(at - 1, 1)
  return lines.join('\n')
}
function swapLines(text: string, at: number): string {
  const lines = text.split('\n')
  ;[lines[at - 1], lines[at]] = [lines[at]!, lines[at - 1]!]
  return lines.join('\n')
}

describe('loadForReport: the inspect and lint report of loadBytes, without keeping the chunks', () => {
  it.each(corpusFiles())('%s', async (name) => {
    const { lean, full } = await bothWays(readCorpus(name))
    const mismatched = buildInspectReport(full).streams.some((stream) => stream.recorded?.match === false)
    // Where a stream first differs from its recorded message needs its chunks: such a log is read whole.
    expect(keptChunks(lean) === 0).toBe(!mismatched)
    const events = full.sessions[0]!.events
    expect(lean.sessions[0]!.events).toEqual(
      mismatched ? events : events.filter((e) => e.type !== 'assistant/chunk'),
    )
  })

  it('a generated log with stragglers and tool errors; with mismatched messages, read whole', async () => {
    const shape = { targetChars: 200_000, deltas: 40, stragglerEvery: 4 }
    const clean = generateSessionLog({ ...shape, mismatchEvery: 1_000_000 })
    expect(clean.stragglers.length).toBeGreaterThan(0)
    expect(keptChunks((await bothWays(clean.text)).lean)).toBe(0)
    const mismatched = generateSessionLog({ ...shape, mismatchEvery: 3 })
    expect(mismatched.mismatched.length).toBeGreaterThan(0)
    expect(keptChunks((await bothWays(mismatched.text)).lean)).toBeGreaterThan(0)
  })

  it('damaged logs: a lost line (a seq gap), a torn tail, garbage, a second header', async () => {
    const text = readCorpus('acp-agent-packed-chunks-session.jsonl')
    const lines = text.split('\n').length
    const damaged = [
      ...[2, 3, Math.floor(lines / 2), lines - 2].map((at) => dropLine(text, at)),
      text.slice(0, -1),
      text.slice(0, Math.floor(text.length / 2)),
      text.replace('\n', '\nnot json\n'),
      text + text.split('\n')[0] + '\n',
      // Malformed packed rows (§7): a gap that is no integer, a tool-call row without its id.
      text.replace('"dt":[', '"dt":[1.5,'),
      text.replace(/("type":"tool-call-chunks".*?)"id":"[^"]*",/, '$1'),
    ]
    for (const input of damaged) {
      const { lean } = await bothWays(input)
      expect(lean.diagnostics.some((d) => d.severity !== 'info')).toBe(true)
      expect(keptChunks(lean)).toBe(0)
    }
  })

  it('the text summary counts the chunks without listing their seqs; --json lists them', async () => {
    const { text } = generateSessionLog({ targetChars: 100_000, deltas: 40, mismatchEvery: 1_000_000 })
    const { report } = await loadForReport(encode(text), 'session.jsonl', {})
    const listed = (stream: object) => Object.getOwnPropertyDescriptor(stream, 'seqs')?.get === undefined
    expect(report.streams.length).toBeGreaterThan(1)
    formatInspect('session.jsonl', report)
    formatLint('session.jsonl', report)
    expect(report.streams.filter(listed)).toEqual([])
    const printed = JSON.parse(JSON.stringify(report)) as { streams: { seqs: number[] }[] }
    expect(report.streams.every(listed)).toBe(true)
    expect(printed.streams.map((stream) => stream.seqs)).toEqual(report.streams.map((stream) => stream.seqs))
  })

  it('a log out of seq order loads as loadBytes loads it (segmenting needs seq order)', async () => {
    const text = readCorpus('acp-agent-packed-chunks-session.jsonl')
    const { lean, full } = await bothWays(swapLines(text, 3))
    expect(keptChunks(lean)).toBe(keptChunks(full))
    expect(keptChunks(lean)).toBeGreaterThan(0)
  })

  it('other inputs load as loadBytes loads them', async () => {
    const ndjson = '{"type":"text-delta","index":0,"text":"hi"}\n{"type":"finish","reason":{"kind":"stop"}}\n'
    expect((await bothWays(ndjson)).lean.format).toBe('chunk-ndjson')
    expect((await bothWays('')).lean.diagnostics[0]?.message).toBe('empty input')
    expect((await bothWays('no format at all\n')).lean.format).toBeNull()
  })
})

import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { BlockAssembler } from '../../core/BlockAssembler'
import type { SourcedChunk } from '../../core/protocol'
import { ReplayEngine, type ReplayFrame } from '../../core/ReplayEngine'
import { buildStreamSession } from '../../core/session'
import { anyStream } from '../../test/arbitraries'
import { sourced } from '../../test/chunks'
import { corpusFiles, readCorpus } from '../../test/corpus'
import { generateStream } from '../../test/generate'
import { loadSource } from '../load'
import type { LoadedSource } from '../types'
import { buildSharePayload } from './payload'
import { decodeShareLink, encodeShareLink } from './shareLink'
import { cutWindow, parseWindow, windowAround } from './window'

/** Everything the assembler holds at a frame (block lives' positions differ by design: they are window-relative). */
function state(frame: ReplayFrame) {
  return {
    blocks: frame.blocks,
    error: frame.error,
    interruptedBlocks: frame.interruptedBlocks,
    finish: frame.finish,
    hasFinish: frame.hasFinish,
    usage: frame.usage,
    replayState: frame.replayState,
    partials: frame.partials.map((p) => ({
      index: p.life.index,
      blockType: p.life.blockType,
      state: p.state,
      text: p.text,
      toolCallId: p.toolCallId,
      toolCallName: p.toolCallName,
      toolCallArguments: p.toolCallArguments,
      block: p.block,
      streamed: p.streamed,
    })),
  }
}

/** The full stream and the windowed engine agree at every cursor from `from` to `to`. */
function expectSameReplay(full: ReplayEngine, windowed: ReplayEngine, from: number, to: number): void {
  expect(windowed.total).toBe(to - from)
  for (let p = 0; p <= to - from; p++) {
    expect(state(windowed.seek(p)), `position ${from + p}`).toEqual(state(full.seek(from + p)))
  }
  // Backwards too: seeks restore checkpoints, which must start from the carried state.
  for (let p = to - from; p >= 0; p -= 3) expect(state(windowed.seek(p))).toEqual(state(full.seek(from + p)))
}

/** Per-chunk findings of chunks [from, to): the window's own equal the full stream's (end-of-stream ones aside). */
function expectSameFindings(chunks: readonly SourcedChunk[], from: number, to: number): void {
  const full = new ReplayEngine(chunks)
  const cut = cutWindow(chunks, from, to)
  const windowed = new ReplayEngine(cut.chunks, { initialState: cut.state })
  const perChunk = (engine: ReplayEngine, offset: number, end: number) =>
    engine.findings
      .slice(0, engine.findings.length)
      .filter((f) => f.pos + offset >= from && f.pos + offset < end && !END_RULES.has(f.rule))
      .map((f) => ({ rule: f.rule, pos: f.pos + offset, seq: f.seq, message: f.message }))
  expect(perChunk(windowed, from, to), `window ${from}..${to}`).toEqual(perChunk(full, 0, to))
}

const END_RULES = new Set([
  'usage-missing',
  'finish-missing',
  'finish-reason-inconsistent',
  'tool-arguments-invalid',
  'tool-call-dropped',
  'tool-call-id-missing',
  'replay-misaligned',
  'unknown-block-type',
  'recorded-mismatch',
])

async function shareWindow(source: LoadedSource, index: number, k: number, from: number, to: number) {
  const attempt = source.sessions[0]!.streams[index]!
  const payload = buildSharePayload({ source, attempt, streamKey: attempt.id, k }, { window: { from, to } })
  const decoded = await decodeShareLink(await encodeShareLink(payload))
  if ('error' in decoded) throw new Error(decoded.error)
  return decoded
}

describe('BlockAssembler state export', () => {
  it('survives JSON and continues exactly where it stopped', () => {
    const chunks = generateStream(3000, 50)
    for (const cut of [0, 1, 17, 999, 1500, 2999, 3000]) {
      const head = new BlockAssembler()
      for (const s of chunks.slice(0, cut)) head.push(s.chunk)
      const resumed = BlockAssembler.fromState(JSON.parse(JSON.stringify(head.exportState())))
      const full = new BlockAssembler()
      for (const s of chunks) full.push(s.chunk)
      for (const s of chunks.slice(cut)) resumed.push(s.chunk)
      expect(resumed.exportState()).toEqual(full.exportState())
      expect(resumed.blocks()).toEqual(full.blocks())
      expect(resumed.openCount).toBe(full.openCount)
    }
  })

  it('holds for random streams at every cut', () => {
    fc.assert(
      fc.property(anyStream(25), fc.nat(), (stream, at) => {
        const cut = at % (stream.length + 1)
        const head = new BlockAssembler()
        stream.slice(0, cut).forEach((chunk) => head.push(chunk))
        const resumed = BlockAssembler.fromState(JSON.parse(JSON.stringify(head.exportState())))
        const full = new BlockAssembler()
        const effects = stream.map((chunk) => full.push(chunk))
        expect(stream.slice(cut).map((chunk) => resumed.push(chunk))).toEqual(effects.slice(cut))
        expect(JSON.parse(JSON.stringify(resumed.exportState()))).toEqual(
          JSON.parse(JSON.stringify(full.exportState())),
        )
      }),
      { numRuns: 300 },
    )
  })
})

describe('windowed links replay exactly', () => {
  it.each(corpusFiles())('%s: a window inside every stream', async (name) => {
    const source = loadSource(readCorpus(name), name)
    const streams = source.sessions[0]!.streams
    for (let i = 0; i < streams.length; i++) {
      const total = streams[i]!.chunks.length
      const from = Math.floor(total / 3)
      const to = Math.max(from, total - 2)
      const k = Math.min(to, from + 2)
      const decoded = await shareWindow(source, i, k, from, to)
      expect(decoded.window).toEqual({ from, to, total })
      expect(decoded.k).toBe(k - from)
      expect(decoded.streamKey).toBe(streams[i]!.id)
      const chunks = decoded.source.sessions[0]!.streams[0]!.chunks
      const windowed = new ReplayEngine(chunks, { initialState: decoded.initialState!, checkpointEvery: 4 })
      expectSameReplay(new ReplayEngine(streams[i]!.chunks), windowed, from, to)
    }
  })

  it('a generated stream, windows at block boundaries and mid-block', async () => {
    const chunks = generateStream(5000, 120)
    const source: LoadedSource = {
      format: 'chunk-json',
      diagnostics: [],
      sessions: [buildStreamSession(chunks)],
    }
    const full = new ReplayEngine(chunks)
    for (const [from, to] of [
      [0, 300],
      [119, 500],
      [2400, 2650],
      [4800, 5000],
    ] as const) {
      const decoded = await shareWindow(source, 0, from, from, to)
      expect(decoded.window).toEqual({ from, to, total: chunks.length })
      const windowed = new ReplayEngine(decoded.source.sessions[0]!.streams[0]!.chunks, {
        initialState: decoded.initialState!,
        checkpointEvery: 16,
      })
      expectSameReplay(full, windowed, from, to)
    }
  })

  it('random streams and windows', () => {
    fc.assert(
      fc.property(anyStream(30), fc.nat(), fc.nat(), (stream, a, b) => {
        const chunks: SourcedChunk[] = sourced(stream)
        const from = a % (chunks.length + 1)
        const to = from + (b % (chunks.length - from + 1))
        const cut = cutWindow(chunks, from, to)
        const state = JSON.parse(JSON.stringify(cut.state))
        const windowed = new ReplayEngine(cut.chunks, { initialState: state, checkpointEvery: 3 })
        expectSameReplay(new ReplayEngine(chunks, { checkpointEvery: 3 }), windowed, from, to)
      }),
      { numRuns: 150 },
    )
  })

  it.each(corpusFiles())('%s: a window reports the full stream’s findings for its chunks', (name) => {
    const source = loadSource(readCorpus(name), name)
    expect(source.sessions[0]!.streams.length).toBeGreaterThan(0)
    for (const attempt of source.sessions[0]!.streams) {
      const total = attempt.chunks.length
      for (const [from, to] of [
        [1, total],
        [Math.floor(total / 2), total],
        [Math.floor(total / 3), Math.floor((2 * total) / 3)],
      ] as const) {
        expectSameFindings(attempt.chunks, from, to)
      }
    }
  })

  it('a generated stream: the same findings inside any window', () => {
    const chunks = generateStream(3000, 70)
    for (const [from, to] of [
      [0, 3000],
      [35, 1000],
      [1500, 1501],
      [2990, 3000],
    ] as const) {
      expectSameFindings(chunks, from, to)
    }
    // Malformed streams can differ: the state does not record whether a block began with a start or a delta, nor
    // how many (empty) deltas it accepted, so e.g. finish-open-blocks may read differently inside a window.
    expect(chunks).toHaveLength(3000)
  })

  it('carried blocks have lives, so the frame shows them from position 0', () => {
    const chunks = generateStream(1000, 100)
    const cut = cutWindow(chunks, 450, 460)
    const engine = new ReplayEngine(cut.chunks, { initialState: cut.state })
    const frame = engine.seek(0)
    expect(frame.partials.map((p) => p.life.index)).toEqual([0, 1, 2, 3, 4])
    expect(frame.partials.slice(0, 4).every((p) => p.state === 'frozen' && p.life.closedAt === 0)).toBe(true)
    expect(frame.partials[4]).toMatchObject({ state: 'open', life: { openedAt: 0, closedAt: null } })
  })
})

describe('the carried state in the payload', () => {
  const chunks = generateStream(2000, 100)
  const source: LoadedSource = {
    format: 'chunk-json',
    diagnostics: [],
    sessions: [buildStreamSession(chunks)],
  }
  const attempt = source.sessions[0]!.streams[0]!
  const payload = buildSharePayload(
    { source, attempt, streamKey: 'stream', k: 1500 },
    { window: { from: 1450, to: 1550 } },
  )

  it('leaves out frozen blocks the deltas rebuild, and the opener restores them', async () => {
    expect(payload.window?.built).toEqual([0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13])
    expect(payload.window?.state.partials.every(([, p]) => p.block === undefined)).toBe(true)
    const decoded = await decodeShareLink(await encodeShareLink(payload))
    if ('error' in decoded) throw new Error(decoded.error)
    expect(decoded.initialState).toEqual(cutWindow(chunks, 1450, 1550).state)
  })

  it('refuses a tampered carried state', async () => {
    const bad = [
      { ...payload.window!, built: [99] },
      { ...payload.window!, built: 'all' },
      { ...payload.window!, state: { partials: [[0, { blockType: 'text' }]] } },
      { ...payload.window!, to: 1549 },
    ]
    for (const window of bad) {
      const decoded = await decodeShareLink(await encodeShareLink({ ...payload, window } as never))
      expect(decoded).toMatchObject({ error: expect.stringMatching(/window|carried assembler state/) })
    }
  })
})

describe('window helpers', () => {
  it('cutWindow clamps to the stream', () => {
    const chunks = generateStream(100)
    expect(cutWindow(chunks, -5, 1e9)).toMatchObject({ from: 0, to: 100, total: 100 })
    expect(cutWindow(chunks, 90, 10)).toMatchObject({ from: 90, to: 90 })
  })

  it('windowAround keeps the chunks before the cursor and stays inside the stream', () => {
    expect(windowAround(5000, 90_000, 200)).toEqual({ from: 4850, to: 5050 })
    expect(windowAround(10, 90_000, 200)).toEqual({ from: 0, to: 200 })
    expect(windowAround(90_000, 90_000, 200)).toEqual({ from: 89_800, to: 90_000 })
    expect(windowAround(3, 5, 200)).toEqual({ from: 0, to: 5 })
  })

  it('parseWindow reads K..M', () => {
    expect(parseWindow('40..80')).toEqual({ from: 40, to: 80 })
    expect(parseWindow('..80')).toEqual({ from: 0, to: 80 })
    expect(parseWindow('40..')).toEqual({ from: 40, to: Number.MAX_SAFE_INTEGER })
    expect(parseWindow('80..40')).toBeNull()
    expect(parseWindow('forty')).toBeNull()
  })
})

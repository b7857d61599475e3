import { describe, expect, it } from 'vitest'
import { decodeShareLink } from '../formats/share/shareLink'
import { corpusFiles, readCorpus } from '../test/corpus'
import { deepUsageLog, mutate, random, rawZstdFrame, testSqlJs } from '../test/hostile'
import type { InspectReport } from './inspect'
import { runBytes } from './run'

/** The commands on hostile files: a clear diagnostic and a meaningful exit code, never "internal error". */
async function cli(
  bytes: Uint8Array,
  ...argv: string[]
): Promise<{ code: number; out: string; err: string }> {
  let out = ''
  let err = ''
  const code = await runBytes(argv, { out: (t) => (out += t), err: (t) => (err += t) }, () => bytes)
  return { code, out, err }
}

const deep = new TextEncoder().encode(deepUsageLog(5_000).text)
const { line } = deepUsageLog(5_000)

describe('a log with a record nested 5,000 levels deep', () => {
  it('inspect --json reports the line and every stream', async () => {
    const { code, out, err } = await cli(deep, 'inspect', 'deep.jsonl', '--json')
    expect(err).toBe('')
    expect(code).toBe(0)
    const report = JSON.parse(out) as InspectReport
    expect(report.diagnostics).toContainEqual({
      line,
      severity: 'error',
      message: `line ${line}: nested deeper than 512 levels (the most a reader accepts); line skipped`,
    })
    expect(report.streams.length).toBeGreaterThan(0)
  })

  it('lint fails on it and counts it', async () => {
    const { code, out } = await cli(deep, 'lint', 'deep.jsonl')
    expect(code).toBe(1)
    expect(out).toContain(`deep.jsonl:${line}: error: line ${line}: nested deeper than 512 levels`)
    // The deep line, and the committed turn after it that the break makes corrupt (docs/protocol.md §7).
    expect(out).toMatch(/error: line \d+: corrupt committed data/)
    expect(out.trim().split('\n').at(-1)).toBe('1 stream: 2 errors, 3 warnings')
  })

  it('export and share still work', async () => {
    const exported = await cli(deep, 'export', 'deep.jsonl', '--to', 'ndjson')
    expect(exported.err).not.toMatch(/internal error/)
    expect(exported.code).toBe(0)
    expect(exported.out.split('\n').length).toBeGreaterThan(3)
    const shared = await cli(deep, 'share', 'deep.jsonl')
    expect(shared.code).toBe(0)
    const decoded = await decodeShareLink(shared.out.trim().split('#')[1]!)
    expect('error' in decoded).toBe(false)
  })
})

describe('a zstd file past the decompression cap', () => {
  it('lint exits 1 naming the cap; inspect reads what fits', async () => {
    const log = deepUsageLog(1).text.replace(',"x":[]', '')
    const frame = rawZstdFrame(log)
    const bytes = new Uint8Array([...frame, ...frame])
    const options = { sqlJs: testSqlJs, maxDecompressedBytes: log.length + 10 }
    let out = ''
    const io = { out: (t: string) => (out += t), err: () => {} }
    expect(await runBytes(['lint', 'big.jsonl.zstd'], io, () => bytes, options)).toBe(1)
    expect(out).toMatch(
      /zstd frame 2 at byte \d+: the file's decompressed content reached the .* cap \(limits\.ts\)/,
    )
    out = ''
    expect(await runBytes(['inspect', 'big.jsonl.zstd', '--json'], io, () => bytes, options)).toBe(0)
    expect((JSON.parse(out) as InspectReport).streams.length).toBeGreaterThan(0)
  })
})

describe('chunks of unexpected shapes', () => {
  // Chunks are replayed as they came (docs/protocol.md §3): the printers must cope with any value in any field.
  const odd: unknown[] = [null, 5, 'x', [], {}, { type: null }, { kind: 5 }, { kind: 'error', failure: null }]
  const shapes = odd.flatMap((value) => [
    [
      { type: 'block-start', index: 0, block: value },
      { type: 'block-end', index: 0, block: value },
    ],
    [
      { type: 'block-start', index: 0, block: { type: 'tool-call' } },
      { type: 'block-end', index: 0, block: { type: 'tool-call', id: value, name: value, arguments: value } },
    ],
    [{ type: 'text-delta', index: 0, text: value }],
    [{ type: 'usage', usage: value }],
    [{ type: 'finish', reason: value }],
    [{ type: 'block-start', index: value, block: { type: 'text' } }],
  ])

  it.each(shapes.map((chunks) => [JSON.stringify(chunks), chunks] as const))(
    '%s: inspect, --json and lint print without an internal error',
    async (_, chunks) => {
      const bytes = new TextEncoder().encode(chunks.map((c) => JSON.stringify(c)).join('\n') + '\n')
      for (const argv of [['inspect'], ['inspect', '--json'], ['lint']]) {
        const { code, err } = await cli(bytes, argv[0]!, 'odd.ndjson', ...argv.slice(1))
        expect({ argv, err, code: code === 2 ? 2 : 'ok' }).toEqual({ argv, err: '', code: 'ok' })
      }
    },
  )
})

describe('the commands on mutated real logs', () => {
  // A few seeded mutations per corpus log through the whole command (the readers' own fuzz suite goes further).
  const logs = corpusFiles().map((name) => new TextEncoder().encode(readCorpus(name)))
  const next = random(20_261_201)
  const inputs = logs.flatMap((bytes) => Array.from({ length: 3 }, () => mutate(bytes, next, logs)))

  it.each(inputs.map((m) => [m.what, m] as const))('%s', async (_, mutation) => {
    for (const argv of [['inspect'], ['inspect', '--json'], ['lint']]) {
      const { code, out, err } = await cli(mutation.bytes, argv[0]!, 'log.jsonl', ...argv.slice(1))
      expect({ argv, internal: /internal error/.test(out + err), code: [0, 1, 2].includes(code) }).toEqual({
        argv,
        internal: false,
        code: true,
      })
    }
  })
})

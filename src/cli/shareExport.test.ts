import { mkdtempSync, readFileSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { describe, expect, it } from 'vitest'
import { loadSource } from '../formats/load'
import { decodeShareLink } from '../formats/share/shareLink'
import { runBytes } from './run'
import { runShare } from './share'
import { CORPUS_DIR } from '../test/corpus'

const corpus = fileURLToPath(CORPUS_DIR)
const RETRY = corpus + 'acp-agent-empty-response-retry-session.jsonl'
const MULTI = corpus + 'web-goal-multi-turn-actions-session.jsonl'

type Ran = { code: number; out: string; err: string }

async function cli(...argv: string[]): Promise<Ran> {
  let out = ''
  let err = ''
  const code = await runBytes(argv, { out: (t) => (out += t), err: (t) => (err += t) })
  return { code, out, err }
}

async function openLink(out: string, passphrase?: string) {
  const lines = out.trim().split('\n')
  expect(lines).toHaveLength(1)
  const [base, fragment] = lines[0]!.split('#')
  expect(base).toBe('http://localhost:5173/')
  const decoded = await decodeShareLink(fragment!, passphrase !== undefined ? { passphrase } : {})
  if ('error' in decoded) throw new Error(decoded.error)
  return decoded
}

const streamsOf = (path: string) => loadSource(readFileSync(path, 'utf8')).sessions[0]!.streams

describe('chunkscope share', () => {
  it('prints a link to the whole session, cursor at the end of the first stream', async () => {
    const { code, out, err } = await cli('share', RETRY)
    expect(code).toBe(0)
    expect(err).toMatch(/whole session/)
    expect(err).toMatch(/characters: fits chat tools/)
    const decoded = await openLink(out)
    const streams = streamsOf(RETRY)
    expect(decoded.streamKey).toBe('t1.s1.a1')
    expect(decoded.k).toBe(streams[0]!.chunks.length)
    expect(decoded.source.sessions[0]!.streams.map((s) => s.chunks)).toEqual(streams.map((s) => s.chunks))
  })

  it('--attempt, --window, --at and --redact', async () => {
    const streams = streamsOf(MULTI)
    const attempt = streams[1]!
    const { code, out, err } = await cli(
      'share',
      MULTI,
      '--attempt',
      attempt.id,
      '--window',
      '5..30',
      '--at=12',
      '--redact',
    )
    expect(code).toBe(0)
    expect(err).toMatch(
      new RegExp(
        `stream ${attempt.id.replace(/\./g, '\\.')}, chunks 5\\.\\.30 of \\d+, cursor at 12; redacted`,
      ),
    )
    const decoded = await openLink(out)
    expect(decoded.window).toEqual({ from: 5, to: 30, total: attempt.chunks.length })
    expect(decoded.k).toBe(7)
    expect(decoded.redacted).toEqual({ text: true, arguments: true, events: true })
    expect(decoded.streamKey).toBe(attempt.id)
    const opened = decoded.source.sessions[0]!.streams[0]!.chunks
    expect(opened.map((s) => [s.seq, s.time, s.chunk.type])).toEqual(
      attempt.chunks.slice(5, 30).map((s) => [s.seq, s.time, s.chunk.type]),
    )
  })

  it('encrypts with a passphrase from the environment', async () => {
    let out = ''
    const load = async (path: string) => loadSource(readFileSync(path, 'utf8'), 'x.jsonl')
    const io = { out: (t: string) => (out += t), err: () => undefined }
    const code = await runShare([RETRY, '--passphrase-env', 'PW'], io, load, { PW: 'tulip' })
    expect(code).toBe(0)
    const fragment = out.trim().split('#')[1]!
    expect(await decodeShareLink(fragment)).toMatchObject({ needsPassphrase: true })
    expect((await openLink(out, 'tulip')).encrypted).toBe(true)
  })

  it('says what is wrong with its arguments', async () => {
    expect(await cli('share', RETRY, '--attempt', 't9.s9.a9')).toMatchObject({
      code: 2,
      err: expect.stringMatching(/no attempt "t9\.s9\.a9"; the file has t1\.s1\.a1, t1\.s1\.a2/),
    })
    expect(await cli('share', RETRY, '--window', 'ten')).toMatchObject({
      code: 2,
      err: expect.stringMatching(/K\.\.M/),
    })
    expect(await cli('share', RETRY, '--bogus')).toMatchObject({
      code: 2,
      err: expect.stringMatching(/unknown option/),
    })
    expect(await cli('share', corpus + 'missing.jsonl')).toMatchObject({
      code: 2,
      err: expect.stringMatching(/no such file/),
    })
    expect(await cli('share', '--help')).toMatchObject({
      code: 0,
      out: expect.stringMatching(/--passphrase-env/),
    })
  })
})

describe('chunkscope export', () => {
  it('writes each format to standard output', async () => {
    const streams = streamsOf(MULTI)
    const ndjson = await cli('export', MULTI, '--to', 'ndjson', '--attempt', streams[2]!.id)
    expect(ndjson.code).toBe(0)
    expect(loadSource(ndjson.out).sessions[0]!.streams[0]!.chunks.map((s) => s.chunk)).toEqual(
      streams[2]!.chunks.map((s) => s.chunk),
    )
    const log = await cli('export', MULTI, '--to', 'dsh-jsonl')
    expect(log.out).toBe(readFileSync(MULTI, 'utf8'))
    const message = await cli('export', RETRY, '--to', 'message', '--attempt', 't1.s1.a2')
    expect(JSON.parse(message.out)).toMatchObject({ content: [{ type: 'text', text: 'Recovered.' }] })
    const vitest = await cli('export', RETRY, '--to', 'vitest', '--import', '../src/core/BlockAssembler')
    expect(vitest.out).toContain(`import { BlockAssembler } from '../src/core/BlockAssembler'`)
    expect(vitest.out).toContain('EMPTY_RESPONSE')
  })

  it('--out writes a file, --redact hides text', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'chunkscope-export-'))
    try {
      const path = join(dir, 'out.ndjson')
      const ran = await cli(
        'export',
        RETRY,
        '--to',
        'ndjson',
        '--attempt',
        't1.s1.a2',
        '--out',
        path,
        '--redact',
      )
      expect(ran).toMatchObject({ code: 0, out: '', err: expect.stringMatching(/^wrote .*out\.ndjson/) })
      const text = readFileSync(path, 'utf8')
      expect(text).not.toContain('Recovered')
      expect(text).toContain('"xxxxxxxxxx"')
      // The recorded message a vitest-recorded export asserts is redacted too.
      const recorded = await cli(
        'export',
        RETRY,
        '--to',
        'vitest-recorded',
        '--attempt',
        't1.s1.a2',
        '--redact',
      )
      expect(recorded.code).toBe(0)
      expect(recorded.out).toContain('assembles the recorded assistant/message seq')
      expect(recorded.out).not.toContain('Recovered')
    } finally {
      rmSync(dir, { recursive: true, force: true })
    }
  })

  it('says what is wrong with its arguments', async () => {
    expect(await cli('export', RETRY)).toMatchObject({
      code: 2,
      err: expect.stringMatching(/--to FORMAT is required/),
    })
    expect(await cli('export', RETRY, '--to', 'pdf')).toMatchObject({
      code: 2,
      err: expect.stringMatching(/unknown format "pdf"; one of ndjson, dsh-jsonl, message, vitest/),
    })
  })
})

import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { afterAll, describe, expect, it } from 'vitest'
import { analyzeStream } from '../../core/analyzeStream'
import { loadSource } from '../../formats/load'
import { CORPUS_DIR } from '../../test/corpus'
import { runBytes } from '../run'
import type { ChaosJson } from './chaos'

const corpus = fileURLToPath(CORPUS_DIR)
const PWSH = corpus + 'acp-agent-persistent-pwsh-tool-turn-session.jsonl'
const LEGACY = corpus + 'web-cordis-tool-round-legacy-session.jsonl'
const MULTI = corpus + 'web-goal-multi-turn-actions-session.jsonl'
const fixture = (name: string) => fileURLToPath(new URL(`../../formats/fixtures/${name}`, import.meta.url))
const dir = mkdtempSync(join(tmpdir(), 'chunkscope-experiments-'))
afterAll(() => rmSync(dir, { recursive: true, force: true }))

async function cli(...argv: string[]) {
  let out = ''
  let err = ''
  const code = await runBytes(argv, { out: (t) => (out += t), err: (t) => (err += t) })
  return { code, out, err }
}

describe('chunkscope minimize', () => {
  it('shrinks a corpus stream to the chunks that keep end-content-mismatch, and the result lints the same', async () => {
    const out = join(dir, 'min.ndjson')
    const ran = await cli(
      'minimize',
      PWSH,
      '--attempt',
      't1.s1.a1',
      '--keep',
      'finding:end-content-mismatch',
      '--out',
      out,
    )
    expect(ran.code).toBe(0)
    expect(ran.err).toMatch(
      /t1\.s1\.a1: \d+ → \d+ chunks keeping finding:end-content-mismatch \(\d+ steps, \d+ ms\)\nwrote /,
    )
    const chunks = loadSource(readFileSync(out, 'utf8')).sessions[0]!.streams[0]!.chunks
    expect(chunks.length).toBeLessThan(10)
    expect(analyzeStream(chunks).findings.map((f) => f.rule)).toContain('end-content-mismatch')
    const lint = await cli('lint', out)
    expect(lint.out).toMatch(/warning end-content-mismatch/)
  })

  it('keeps the recorded message in a .jsonl result, so the mismatch is still there when it is opened', async () => {
    const out = join(dir, 'min.jsonl')
    const ran = await cli(
      'minimize',
      LEGACY,
      '--attempt',
      't1.s2.a1',
      '--keep',
      'recorded-mismatch',
      '--out',
      out,
    )
    expect(ran.code).toBe(0)
    const inspect = JSON.parse((await cli('inspect', out, '--json')).out)
    expect(inspect.streams[0].recorded).toMatchObject({ match: false })
  })

  it('writes a Vitest test through the existing export', async () => {
    const ran = await cli('minimize', PWSH, '--keep', 'finding:end-content-mismatch', '--to', 'vitest')
    expect(ran.code).toBe(0)
    expect(ran.out).toContain("from 'chunkscope/core'")
    expect(ran.out).toContain('new BlockAssembler()')
  })

  it('names what is wrong: an unknown property, a stream without it, a missing --keep', async () => {
    expect(await cli('minimize', PWSH, '--keep', 'finding:nope')).toMatchObject({
      code: 2,
      err: expect.stringMatching(/--keep unknown rule "nope"/),
    })
    expect(await cli('minimize', PWSH, '--keep', 'throws')).toMatchObject({
      code: 1,
      err: expect.stringMatching(/does not have the property throws/),
    })
    expect(await cli('minimize', PWSH)).toMatchObject({
      code: 2,
      err: expect.stringMatching(/--keep is required/),
    })
    expect(await cli('minimize', PWSH, '--keep', 'recorded-mismatch', '--attempt', 't9')).toMatchObject({
      code: 2,
      err: expect.stringMatching(/no attempt "t9"/),
    })
  })
})

describe('chunkscope chaos', () => {
  it('re-splits a DeepSeek body with no change in the result (exit 0) and repeats by seed', async () => {
    const a = await cli('chaos', fixture('deepseek-reasoner-tool-calls.sse'), '--seed', '12', '--json')
    expect(a.code).toBe(0)
    const report = JSON.parse(a.out) as ChaosJson
    expect(report.seed).toBe(12)
    expect(report.wire?.dialect).toBe('openai-sse')
    expect(report.wire?.variants.every((v) => v.diff === null)).toBe(true)
    expect(
      (await cli('chaos', fixture('deepseek-reasoner-tool-calls.sse'), '--seed', '12', '--json')).out,
    ).toBe(a.out)
  })

  it('reports the pi-ai CR|LF split with its one-cut reproducer first (exit 1)', async () => {
    const ran = await cli('chaos', fixture('anthropic/synthetic-crlf-line-endings.sse'), '--seed', '1')
    expect(ran.code).toBe(1)
    expect(ran.out).toMatch(/seed 1 \(--seed 1 repeats it\)/)
    expect(ran.out).toMatch(/✗ bytes-1 .*\n {6}smallest: 1 cut: message differs/)
    expect(ran.out).toMatch(/between CR and LF/)
  })

  it('varies the chunks of a session log (no wire body)', async () => {
    const ran = await cli('chaos', PWSH, '--seed', '3')
    expect(ran.code).toBe(0)
    expect(ran.out).toContain('wire: not a raw SSE body')
    expect(ran.out).toMatch(/✓ split-deltas +seed \d+ +\d+ more delta pieces: same message and findings/)
    expect(await cli('chaos', PWSH, '--seed', 'x')).toMatchObject({
      code: 2,
      err: expect.stringMatching(/--seed expects a whole number/),
    })
  })
})

describe('chunkscope chaos --variant', () => {
  it('repeats one variant from the seed the report printed and writes it', async () => {
    const report = JSON.parse((await cli('chaos', PWSH, '--seed', '9', '--json')).out) as ChaosJson
    const straggler = report.chunks.variants.find((v) => v['kind'] === 'straggler')!
    const out = join(dir, 'straggler.ndjson')
    const ran = await cli('chaos', PWSH, '--variant', `straggler:${straggler['seed']}`, '--out', out)
    expect(ran.code).toBe(0)
    expect(ran.err).toContain(`${straggler['description']}: same message; + delta-after-end`)
    const chunks = loadSource(readFileSync(out, 'utf8')).sessions[0]!.streams[0]!.chunks
    expect(chunks).toHaveLength(straggler['chunkCount'] as number)
    expect(analyzeStream(chunks).findings.map((f) => f.rule)).toContain('delta-after-end')
    expect(await cli('chaos', PWSH, '--variant', 'nope:1')).toMatchObject({
      code: 2,
      err: expect.stringMatching(/--variant expects KIND:SEED/),
    })
  })
})

describe('chunkscope diff', () => {
  it('aligns two attempts of one log by block and names the text, arguments and findings that differ', async () => {
    const ran = await cli('diff', `${MULTI}#t1.s3.a1`, `${MULTI}#t1.s2.a1`)
    expect(ran.code).toBe(1)
    expect(ran.out).toMatch(/^A web-goal-multi-turn-actions-session\.jsonl#t1\.s3\.a1: 167 chunks/)
    expect(ran.out).toMatch(/block 0 reasoning: text differs after \d+ characters/)
    expect(ran.out).toMatch(/block 1 tool-call: arguments differs after 13 characters/)
    expect(ran.out).toContain('findings only in A: end-content-mismatch')
  })

  it('says a stream equals itself (exit 0), in --json too', async () => {
    const ran = await cli('diff', PWSH, `${PWSH}#t1.s1.a1`, '--json')
    expect(ran.code).toBe(0)
    const json = JSON.parse(ran.out)
    expect(json.diff).toBeNull()
    expect(json.blocks.every((b: { field: unknown }) => b.field === null)).toBe(true)
  })

  it('reads a file whose name holds a # as a file', async () => {
    const path = join(dir, 'a#b.ndjson')
    writeFileSync(path, '{"type":"text-delta","index":0,"text":"x"}\n')
    expect((await cli('diff', path, path)).code).toBe(0)
  })
})

describe('the experiment commands', () => {
  it.each(['chaos', 'minimize', 'diff', 'mcp'])('%s --help prints its usage and exits 0', async (command) => {
    const ran = await cli(command, '--help')
    expect(ran.code).toBe(0)
    expect(ran.out).toMatch(new RegExp(`^chunkscope ${command} `))
    expect((await cli('--help')).out).toContain(`chunkscope ${command}`)
  })
})

import { readFileSync, realpathSync } from 'node:fs'
import { dirname } from 'node:path'
import { fileURLToPath } from 'node:url'
import { Client } from '@modelcontextprotocol/sdk/client/index.js'
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js'
import { InMemoryTransport } from '@modelcontextprotocol/sdk/inMemory.js'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { loadBytes } from '../../formats/loadBytes'
import { decodeShareLink } from '../../formats/share/shareLink'
import { CORPUS_DIR } from '../../test/corpus'
import { loadSqlJsNode } from '../sqlJsNode'
import { createMcpServer } from './mcp'

const corpus = realpathSync(fileURLToPath(CORPUS_DIR))
const LEGACY = `${corpus}/web-cordis-tool-round-legacy-session.jsonl`
const PWSH = `${corpus}/acp-agent-persistent-pwsh-tool-turn-session.jsonl`
const load = async (path: string) =>
  loadBytes(readFileSync(path), path.split('/').at(-1)!, { sqlJs: loadSqlJsNode })

type Result = { content: { type: string; text: string }[]; isError?: boolean }

describe('chunkscope mcp, through the SDK client on a linked transport', () => {
  const client = new Client({ name: 'test-agent', version: '0.0.0' })
  beforeAll(async () => {
    const [clientSide, serverSide] = InMemoryTransport.createLinkedPair()
    await createMcpServer({ roots: [corpus], base: 'http://localhost:5173/', load }).connect(serverSide)
    await client.connect(clientSide)
  })
  afterAll(() => client.close())
  const call = async (name: string, args: Record<string, unknown>) =>
    (await client.callTool({ name, arguments: args })) as Result

  it('lists the five read-only tools', async () => {
    const { tools } = await client.listTools()
    expect(tools.map((t) => t.name).sort()).toEqual([
      'first-divergence',
      'inspect',
      'lint',
      'minimize',
      'share',
    ])
    expect(tools.every((t) => t.annotations?.readOnlyHint === true)).toBe(true)
  })

  it('answers where a stream first diverges, with a link that opens right after that chunk', async () => {
    const result = await call('first-divergence', { file: LEGACY, attempt: 't1.s1.a1' })
    const [entry] = JSON.parse(result.content[0]!.text)
    expect(entry).toMatchObject({
      attempt: 't1.s1.a1',
      match: false,
      divergence: { seq: 99, block: 0, field: 'text', cause: 'seq-gap' },
    })
    const [base, fragment] = (entry.link as string).split('#')
    expect(base).toBe('http://localhost:5173/')
    const opened = await decodeShareLink(fragment!)
    if ('error' in opened) throw new Error(opened.error)
    expect(opened.payload.stream).toBe('t1.s1.a1')
    expect(opened.payload.k).toBe(entry.divergence.pos + 1)
  })

  it('inspects and lints like the CLI', async () => {
    const inspect = JSON.parse((await call('inspect', { file: PWSH })).content[0]!.text)
    expect(inspect.format).toBe('dsh-session-jsonl')
    expect((await call('lint', { file: PWSH })).content[0]!.text).toMatch(/warning end-content-mismatch/)
  })

  it('minimizes and returns the chunks and a link to them', async () => {
    const result = await call('minimize', { file: PWSH, keep: 'finding:end-content-mismatch' })
    const summary = JSON.parse(result.content[0]!.text)
    expect(summary.after).toBeLessThan(summary.before)
    expect(result.content[1]!.text.trim().split('\n')).toHaveLength(summary.after)
    const opened = await decodeShareLink((summary.link as string).split('#')[1]!)
    if ('error' in opened) throw new Error(opened.error)
    expect(opened.payload.k).toBe(summary.after)
  })

  it('refuses a file outside the paths it serves, and a bad property, as tool errors', async () => {
    const outside = await call('lint', { file: '/etc/passwd' })
    expect(outside.isError).toBe(true)
    expect(outside.content[0]!.text).toMatch(/outside the paths this server was started with/)
    const bad = await call('minimize', { file: PWSH, keep: 'nope' })
    expect(bad).toMatchObject({
      isError: true,
      content: [{ text: expect.stringMatching(/^keep: unknown property/) }],
    })
  })
})

const built = fileURLToPath(new URL('../../../dist-cli/chunkscope.mjs', import.meta.url))

describe('chunkscope mcp, the built command over stdio (dist-cli, built by npm install)', () => {
  it('serves share to the SDK client spawned against it', { timeout: 30_000 }, async () => {
    const transport = new StdioClientTransport({
      command: process.execPath,
      args: [built, 'mcp', corpus],
      cwd: dirname(built),
      stderr: 'pipe',
    })
    const client = new Client({ name: 'test-agent', version: '0.0.0' })
    await client.connect(transport)
    try {
      const result = (await client.callTool({
        name: 'share',
        arguments: { file: PWSH, attempt: 't1.s1.a1', at: 3 },
      })) as Result
      const opened = await decodeShareLink(result.content[0]!.text.split('#')[1]!)
      if ('error' in opened) throw new Error(opened.error)
      expect(opened.payload.k).toBe(3)
    } finally {
      await client.close()
    }
  })
})

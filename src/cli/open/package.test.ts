// The package as a user gets it: `npm pack`, installed from the tarball into an empty directory with no network,
// then used there — `chunkscope open` in Chromium, the library entry points from Node and TypeScript, an exported
// Vitest test, the tap.
import { execFile, spawn, type ChildProcess } from 'node:child_process'
import {
  cpSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  symlinkSync,
  writeFileSync,
} from 'node:fs'
import { createServer } from 'node:net'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { promisify } from 'node:util'
import { chromium } from '@playwright/test'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { loadBytes } from '../../formats/loadBytes'
import { readSseStream } from '../../formats/sse/readSse'
import { CHROMIUM_ARGS, chromiumPath } from '../../test/chromium'

const run = promisify(execFile)
const REPO = fileURLToPath(new URL('../../../', import.meta.url))
const CORPUS = join(REPO, 'fixtures/dsh')
let scratch = ''
/** Process groups started here, stopped at the end even when a test failed half-way. */
const groups = new Set<number>()

async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer()
    server.once('error', reject)
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as { port: number }
      server.close(() => resolve(port))
    })
  })
}

/** Runs a command in the scratch project; rejects with its stderr when it fails. */
async function inScratch(command: string, args: string[]): Promise<string> {
  const { stdout } = await run(command, args, { cwd: scratch, maxBuffer: 16 * 1024 * 1024 })
  return stdout
}

beforeAll(async () => {
  scratch = mkdtempSync(join(tmpdir(), 'chunkscope-package-'))
  const packs = join(scratch, '.packs')
  mkdirSync(packs)
  // prepack builds the web app and the library, prepare the CLI: what `npm publish` would ship.
  await run('npm', ['pack', '--silent', '--pack-destination', packs], {
    cwd: REPO,
    maxBuffer: 16 * 1024 * 1024,
  }).catch((error: { code: unknown; stdout: string; stderr: string }) => {
    throw new Error(`npm pack failed (${String(error.code)}): ${error.stdout}\n${error.stderr}`)
  })
  const tarball = join(
    packs,
    readdirSync(packs).find((name) => name.endsWith('.tgz'))!,
  )
  writeFileSync(
    join(scratch, 'package.json'),
    JSON.stringify({ name: 'scratch', private: true, type: 'module' }),
  )
  // --offline: nothing may come from the network; the package has no dependencies to fetch.
  await inScratch('npm', ['install', '--offline', '--no-audit', '--no-fund', '--silent', tarball])
}, 240_000)

afterAll(() => {
  for (const pid of groups) {
    try {
      process.kill(-pid, 'SIGTERM')
    } catch {
      // Already gone.
    }
  }
  if (scratch !== '') rmSync(scratch, { recursive: true, force: true })
})

/** Starts `npx chunkscope …` in its own process group; its first line of output is the URL it serves. */
function start(args: string[]): { child: ChildProcess; firstLine: Promise<string>; exit: Promise<unknown> } {
  const child = spawn('npx', ['--no', '--', 'chunkscope', ...args], { cwd: scratch, detached: true })
  groups.add(child.pid!)
  child.once('exit', () => groups.delete(child.pid!))
  let out = ''
  let err = ''
  const firstLine = new Promise<string>((resolve, reject) => {
    child.stdout!.on('data', (data: Buffer) => {
      out += data.toString()
      if (out.includes('\n')) resolve(out.slice(0, out.indexOf('\n')))
    })
    child.once('exit', () => reject(new Error(`chunkscope exited early: ${out}${err}`)))
  })
  child.stderr!.on('data', (data: Buffer) => (err += data.toString()))
  const exit = new Promise((resolve) => child.once('exit', (code, signal) => resolve(code ?? signal)))
  return { child, firstLine, exit }
}

describe('the installed package', () => {
  it('chunkscope open FILE --no-open serves the packaged app with the file loaded; Ctrl-C stops it', async () => {
    const port = await freePort()
    const name = 'acp-agent-packed-chunks-session.jsonl.zstd'
    const file = join(scratch, name)
    cpSync(join(REPO, 'src/formats/fixtures/binary', name), file)
    const server = start(['open', file, '--no-open', '--port', String(port)])
    const line = await server.firstLine
    const url = /(http:\/\/127\.0\.0\.1:\d+\/\S*)/.exec(line)?.[1]
    expect(url?.startsWith(`http://127.0.0.1:${port}/?src=`)).toBe(true)
    const executablePath = chromiumPath()
    const browser = await chromium.launch({
      ...(executablePath === undefined ? {} : { executablePath }),
      args: CHROMIUM_ARGS,
    })
    try {
      const page = await browser.newPage()
      const failed: string[] = []
      page.on('requestfailed', (request) => failed.push(request.url()))
      await page.goto(url!)
      await page.locator('#root > [data-state="idle"]').waitFor({ timeout: 60_000 })
      // The app names the source it shows: the file handed over, not the default example.
      await expect(page.getByRole('banner').textContent()).resolves.toContain(name)
      expect(await page.getByRole('alert').count()).toBe(0)
      expect(failed).toEqual([])
      // The file is served to this machine's pages only: another site's page may not read it.
      const src = new URL(url!).searchParams.get('src')!
      const foreign = await fetch(src, { headers: { origin: 'https://evil.example' } })
      expect(foreign.status).toBe(403)
    } finally {
      await browser.close()
      // Ctrl-C in a terminal: SIGINT to the whole foreground process group (npx, its shell, chunkscope).
      process.kill(-server.child.pid!, 'SIGINT')
    }
    await server.exit
    // Stopped: the port stops answering (npx exits at once; the server closes right after).
    await expect
      .poll(
        () =>
          fetch(`http://127.0.0.1:${port}/`).then(
            () => 'serving',
            () => 'stopped',
          ),
        { timeout: 10_000 },
      )
      .toBe('stopped')
  }, 120_000)

  it('a tapped call published on startTapFeed shows in chunkscope open --feed, in Chromium', async () => {
    writeFileSync(
      join(scratch, 'feed.mjs'),
      `import { startTapFeed, tap } from 'chunkscope/tap'
const feed = await startTapFeed()
const chunks = [
  { type: 'block-start', index: 0, blockType: 'text' },
  { type: 'text-delta', index: 0, text: 'Hello from ' },
  { type: 'text-delta', index: 0, text: 'a tapped adapter' },
  { type: 'block-end', index: 0, block: { type: 'text', text: 'Hello from a tapped adapter' } },
  { type: 'finish', reason: { kind: 'stop' } },
]
async function* adapter() { yield* chunks }
for await (const _chunk of tap(adapter(), { feed, title: 'tapped call' })) {}
console.log(feed.url)
process.stdin.resume()
process.stdin.on('end', () => feed.close())
`,
    )
    const feeder = spawn('node', ['feed.mjs'], { cwd: scratch })
    const feedUrl = await new Promise<string>((resolve, reject) => {
      feeder.stdout.once('data', (data: Buffer) => resolve(data.toString().trim()))
      feeder.once('exit', () => reject(new Error('the feed script exited')))
    })
    const server = start(['open', '--feed', feedUrl, '--no-open'])
    const url = /(http:\/\/127\.0\.0\.1:\d+\/\S*)/.exec(await server.firstLine)![1]!
    const executablePath = chromiumPath()
    const browser = await chromium.launch({
      ...(executablePath === undefined ? {} : { executablePath }),
      args: CHROMIUM_ARGS,
    })
    try {
      const page = await browser.newPage()
      await page.goto(url)
      const capture = page.getByRole('list', { name: 'Captures' }).getByRole('listitem').first()
      await capture.waitFor({ timeout: 30_000 })
      await expect.poll(() => capture.getAttribute('data-state'), { timeout: 30_000 }).toBe('completed')
      const message = page.getByRole('region', { name: 'Final message' })
      await expect
        .poll(() => message.textContent(), { timeout: 30_000 })
        .toContain('Hello from a tapped adapter')
    } finally {
      await browser.close()
      process.kill(-server.child.pid!, 'SIGINT')
      feeder.stdin.end()
    }
    await server.exit
  }, 120_000)

  it('bare chunkscope FILE opens it too, and stdin (-) is served from memory', async () => {
    const file = join(CORPUS, 'acp-agent-text-turn-session.jsonl')
    for (const args of [[file], ['-']]) {
      const server = start([...args, '--no-open'])
      if (args[0] === '-') server.child.stdin!.end(readFileSync(file))
      const url = /(http:\/\/127\.0\.0\.1:\d+\/\S*)/.exec(await server.firstLine)![1]!
      const src = new URL(url).searchParams.get('src')!
      expect(Buffer.from(await (await fetch(src)).arrayBuffer()).equals(readFileSync(file))).toBe(true)
      process.kill(-server.child.pid!, 'SIGINT')
      await server.exit
    }
  }, 60_000)

  it('chunkscope serve replays a recording that our SSE reader reads back chunk for chunk', async () => {
    const port = await freePort()
    const name = 'anthropic-thinking-tool-use.sse'
    const recording = join(REPO, 'src/formats/fixtures', name)
    const server = start(['serve', recording, '--as', 'anthropic', '--no-timing', '--port', String(port)])
    try {
      await server.firstLine
      const response = await fetch(`http://127.0.0.1:${port}/v1/messages`, { method: 'POST', body: '{}' })
      const served = readSseStream(await response.text(), 'anthropic-sse').attempt!.chunks.map((c) => c.chunk)
      const source = await loadBytes(readFileSync(recording), name)
      expect(served).toEqual(source.sessions[0]!.streams[0]!.chunks.map((c) => c.chunk))
    } finally {
      process.kill(-server.child.pid!, 'SIGINT')
    }
    await server.exit
  }, 60_000)

  it('inspect reads a SQLite session store with the sql.js copy the package carries', async () => {
    const store = join(REPO, 'src/formats/fixtures/binary/dsh-sessions.sqlite')
    const report = JSON.parse(
      await inScratch('npx', ['--no', '--', 'chunkscope', 'inspect', store, '--json']),
    ) as {
      format: string
    }
    expect(report.format).toBe('dsh-sqlite')
  }, 60_000)

  it('--version, --help listing every command, and exit 2 with a message for an unknown flag', async () => {
    const version = await inScratch('npx', ['--no', '--', 'chunkscope', '--version'])
    expect(version.trim()).toMatch(/^chunkscope \d+\.\d+\.\d+/)
    const help = await inScratch('npx', ['--no', '--', 'chunkscope', '--help'])
    for (const command of ['open', 'inspect', 'lint', 'share', 'export', 'proxy', 'attach', 'serve'])
      expect(help).toContain(`chunkscope ${command} `)
    const unknown = await inScratch('npx', ['--no', '--', 'chunkscope', 'open', 'x.jsonl', '--bogus']).catch(
      (error: { code: number; stderr: string }) => error,
    )
    expect(unknown).toMatchObject({ code: 2, stderr: expect.stringContaining('unknown option --bogus') })
  }, 60_000)

  it('chunkscope/core, /formats and /tap work from a plain Node script and type-check under NodeNext', async () => {
    const name = 'acp-agent-parallel-tool-calls-session.jsonl'
    writeFileSync(
      join(scratch, 'use.mjs'),
      `import { readFileSync, readdirSync } from 'node:fs'
import { BlockAssembler } from 'chunkscope/core'
import { loadBytes } from 'chunkscope/formats'
import { tap } from 'chunkscope/tap'
const source = await loadBytes(readFileSync(${JSON.stringify(join(CORPUS, name))}), ${JSON.stringify(name)})
const stream = source.sessions[0].streams.find((s) => s.chunks.some((c) => c.chunk.blockType === 'tool-call'))
const chunks = stream.chunks.map((c) => c.chunk)
const assembler = new BlockAssembler()
for (const chunk of chunks) assembler.push(chunk)
async function* adapter() { yield* chunks }
const seen = []
let log = null
for await (const chunk of tap(adapter(), { out: 'taps', onLog: (path) => (log = path) })) seen.push(chunk)
const reopened = await loadBytes(readFileSync(log), 'tap.jsonl')
const replayed = reopened.sessions[0].streams[0].chunks.map((c) => c.chunk)
console.log(JSON.stringify({ blocks: assembler.blocks().map((b) => b.type), same: seen.every((c, i) => c === chunks[i]),
  identical: JSON.stringify(replayed) === JSON.stringify(chunks), files: readdirSync('taps').length }))
`,
    )
    const result = JSON.parse(await inScratch('node', ['use.mjs'])) as Record<string, unknown>
    expect(result).toMatchObject({ same: true, identical: true, files: 1 })
    expect(result['blocks']).toContain('tool-call')

    writeFileSync(
      join(scratch, 'use.ts'),
      `import { BlockAssembler, type StreamChunk } from 'chunkscope/core'
import { loadSource, type LoadedSource } from 'chunkscope/formats'
import { tap } from 'chunkscope/tap'
const chunk: StreamChunk = { type: 'block-start', index: 0, blockType: 'text' }
const source: LoadedSource = loadSource('')
async function* stream(): AsyncGenerator<StreamChunk> { yield chunk }
for await (const seen of tap(stream(), {})) new BlockAssembler().push(seen)
export { source }
`,
    )
    writeFileSync(
      join(scratch, 'tsconfig.json'),
      JSON.stringify({
        compilerOptions: {
          module: 'nodenext',
          moduleResolution: 'nodenext',
          target: 'es2022',
          strict: true,
          noEmit: true,
          skipLibCheck: true,
          types: [],
        },
        files: ['use.ts'],
      }),
    )
    await inScratch('node', [join(REPO, 'node_modules/typescript/bin/tsc'), '-p', 'tsconfig.json'])
  }, 60_000)

  it('an exported Vitest test imports chunkscope/core and passes in the scratch project', async () => {
    await inScratch('npx', [
      '--no',
      '--',
      'chunkscope',
      'export',
      join(CORPUS, 'acp-agent-error-finish-session.jsonl'),
      '--to',
      'vitest',
      '--out',
      'replay.test.ts',
    ])
    // Vitest itself is not installed offline here: the project's copy stands in for the user's dev dependency.
    symlinkSync(join(REPO, 'node_modules/vitest'), join(scratch, 'node_modules/vitest'), 'dir')
    const output = await inScratch('node', [
      join(REPO, 'node_modules/vitest/vitest.mjs'),
      'run',
      'replay.test.ts',
      '--root',
      scratch,
      '--reporter=json',
    ])
    const report = JSON.parse(output) as { numPassedTests: number; numFailedTests: number }
    expect(report).toMatchObject({ numPassedTests: 1, numFailedTests: 0 })
  }, 60_000)
})

import { rmSync, writeFileSync } from 'node:fs'
import { expect, test, type Page } from '@playwright/test'
import { encodeShareLink, fromBase64Url, SHARE_VERSION, toBase64Url } from '../src/formats/share/shareLink'
import type { SharePayload } from '../src/formats/share/payload'
import { idle, openApp } from './helpers'
import { headerOf, setMode, writeCheck } from '../src/formats/share/frame'

// Monster inputs through every entrance (file, paste, share link). Each must end in a clear message or a bounded
// open, and the page must stay alive: the idle signal returns, the toolbar still works and a key still steps.
// Inputs are generated here; the limits they hit are the browser budget of src/app/workers/budget.ts.

const TROJAN = 'if (isAdmin) {\u202e } \u2066// check later\u2069 {'
const BIDI_CONTROL = /\p{Bidi_Control}/u

const line = (chunk: unknown): string => JSON.stringify(chunk)
const td = (index: number, text: string) => ({ type: 'text-delta', index, text })
const ndjson = (chunks: readonly unknown[]): string => chunks.map(line).join('\n') + '\n'
/** NDJSON of `n` text deltas, each opening a new block index, built as text (a million objects would be slow). */
function blockPerChunk(n: number): string {
  const parts: string[] = []
  for (let i = 0; i < n; i++) parts.push(`{"type":"text-delta","index":${i},"text":"x"}`)
  return parts.join('\n') + '\n'
}

/** A chunks share payload (packed layout: seq and time as deltas), as the app's own links carry. */
function chunksPayload(chunks: readonly unknown[]): SharePayload {
  return {
    v: 1,
    source: {
      kind: 'chunks',
      chunks: chunks as never,
      seq: chunks.map(() => 1),
      time: chunks.map(() => null),
    },
    stream: null,
    k: chunks.length,
  } as SharePayload
}

/** A frame with bytes the app's encoder would never write: a link re-signed so only its content is wrong. */
/** A link of the same version with its frame changed by `change` (given the header's length) and checked again. */
function resigned(fragment: string, change: (frame: Uint8Array, header: number) => Uint8Array): string {
  const prefix = /^v\d+\./.exec(fragment)![0]
  const version = Number(prefix.slice(1, -1))
  const frame = change(fromBase64Url(fragment.slice(prefix.length)), headerOf(version))
  writeCheck(frame, version)
  return `${prefix}${toBase64Url(frame)}`
}

/** A `#v1.` link around `body` (deflate-raw of JSON in v1), with a valid check: old links still open. */
function v1Link(body: Uint8Array, mode = 0): string {
  const frame = new Uint8Array(headerOf(1) + body.length)
  frame.set(body, headerOf(1))
  setMode(frame, 1, mode)
  writeCheck(frame, 1)
  return `v1.${toBase64Url(frame)}`
}

/** Files written by `openGenerated`, removed after each test: the browser reads a chosen file lazily, so removing
 * it as soon as the input took it could make the page read a file that is gone. */
const generated: string[] = []

async function openGenerated(page: Page, path: string, content: string | Buffer): Promise<void> {
  writeFileSync(path, content)
  generated.push(path)
  await page.getByLabel('Open file', { exact: true }).setInputFiles(path)
  await idle(page)
}

test.afterEach(() => {
  for (const path of generated.splice(0)) rmSync(path, { force: true })
})

async function paste(page: Page, text: string): Promise<void> {
  await page.getByRole('button', { name: 'Paste' }).click()
  await page.getByLabel('Paste box').fill(text)
  await page.getByRole('button', { name: 'Load' }).click()
  await idle(page)
}

/** Ctrl/Cmd+V anywhere on the page: a real `paste` event carrying the text (the box's fill is slow for megabytes). */
async function pasteAnywhere(page: Page, text: string): Promise<void> {
  await page.evaluate((text) => {
    const data = new DataTransfer()
    data.setData('text/plain', text)
    document.body.dispatchEvent(new ClipboardEvent('paste', { clipboardData: data, bubbles: true }))
  }, text)
  await idle(page)
}

/** Opens a link as a fresh page load (a hash change on a loaded page would not wait for the idle signal to drop). */
async function openLink(page: Page, fragment: string): Promise<void> {
  await page.goto('about:blank')
  await page.goto(`/#${fragment}`)
  await idle(page)
}

/**
 * The page is alive: idle, the toolbar usable, and when a stream is on screen a key press moves its cursor.
 * Returns the stream's length (0 when none).
 */
async function expectAlive(page: Page): Promise<number> {
  await idle(page)
  await expect(page.getByLabel('Open file', { exact: true })).toBeEnabled()
  await expect(page.getByRole('button', { name: 'Paste' })).toBeEnabled()
  const position = (await page.getByLabel('Position').textContent()) ?? ''
  const total = Number(/\/ (\d+)$/.exec(position)?.[1] ?? 0)
  if (total > 0) {
    await page.evaluate(() => (document.activeElement as HTMLElement | null)?.blur())
    await page.keyboard.press('Home')
    await expect(page.getByLabel('Position')).toHaveText(`0 / ${total}`)
    await page.keyboard.press('ArrowRight')
    await expect(page.getByLabel('Position')).toHaveText(`1 / ${total}`)
  }
  return total
}

const alert = (page: Page) => page.getByRole('alert')

test.describe('files', () => {
  test('a million block indexes (48 MB) open cut at the block limit, saying so', async ({ page }, info) => {
    test.setTimeout(120_000)
    await openApp(page)
    await openGenerated(page, info.outputPath('blocks.ndjson'), blockPerChunk(1_000_000))
    await expect(alert(page)).toContainText('at most 20,000 distinct block indexes')
    await expect(alert(page)).toContainText('cut to its first 20,000 of 1,000,000 chunks')
    await expect(page.getByLabel('Position')).toHaveText('20000 / 20000')
    expect(await expectAlive(page)).toBe(20_000)
  })

  test('a 50 MB text delta opens; its block and message show the tail, not 50 MB', async ({ page }, info) => {
    test.setTimeout(90_000)
    await openApp(page)
    const huge = 'lorem ipsum '.repeat(4_200_000)
    const text = ndjson([{ type: 'block-start', index: 0, blockType: 'text' }, td(0, huge)])
    await openGenerated(page, info.outputPath('long.ndjson'), text)
    const earlier = `⋯ ${(huge.length - 4000).toLocaleString('en')} earlier chars`
    await expect(page.getByRole('region', { name: 'Blocks' }).getByText(earlier)).toBeVisible()
    await expect(page.getByRole('region', { name: 'Final message' }).getByText(earlier)).toBeVisible()
    // "Show all" stays bounded too.
    await page.getByRole('region', { name: 'Final message' }).getByText(earlier).click()
    await expect(page.getByRole('region', { name: 'Final message' })).toContainText('earlier chars not shown')
    expect(await expectAlive(page)).toBe(2)
  })

  test('a file over the byte limit is refused before it is read', async ({ page }, info) => {
    await openApp(page)
    await openGenerated(page, info.outputPath('huge.jsonl'), Buffer.alloc(129 * 1024 * 1024, 0x20))
    // Handing 129 MiB to the file input can take longer than an assertion's default wait on a loaded machine.
    await expect(alert(page)).toContainText('huge.jsonl is 129 MiB, over the browser limit of 128 MiB', {
      timeout: 60_000,
    })
    await expectAlive(page)
  })

  const unreadable: readonly { name: string; content: () => string | Buffer; says: RegExp }[] = [
    { name: 'newlines.txt', content: () => '\n'.repeat(30_000_000), says: /empty|nothing|unrecognised/ },
    {
      name: 'noise.bin',
      content: () => Buffer.from(Array.from({ length: 1 << 20 }, (_, i) => (i * 7919 + 13) & 0xff)),
      says: /./,
    },
    { name: 'torn.zst', content: () => Buffer.from([0x28, 0xb5, 0x2f, 0xfd, 1, 2, 3, 4, 5]), says: /./ },
    { name: 'torn.zip', content: () => Buffer.from('PK\u0003\u0004garbage garbage garbage'), says: /./ },
    { name: 'torn.sqlite', content: () => Buffer.from('SQLite format 3\u0000' + 'x'.repeat(200)), says: /./ },
    { name: 'page.html', content: () => '<script>alert(1)</script>\n'.repeat(10_000), says: /unrecognised/ },
  ]
  for (const input of unreadable) {
    test(`${input.name} ends in a message, not a blank page`, async ({ page }, info) => {
      await openApp(page)
      await openGenerated(page, info.outputPath(input.name), input.content())
      await expect(alert(page)).toContainText(input.says)
      await expectAlive(page)
    })
  }

  test('10,000 levels of nesting in one chunk leave the page usable', async ({ page }, info) => {
    await openApp(page)
    const deep = `{"type":"usage","usage":{"inputTokens":1,"outputTokens":1,"x":${'['.repeat(10_000)}${']'.repeat(10_000)}}}`
    const text =
      ndjson([td(0, 'kept')]) + deep + '\n' + ndjson([{ type: 'finish', reason: { kind: 'stop' } }])
    await openGenerated(page, info.outputPath('deep.ndjson'), text)
    // Refusing the one line (a diagnostic) or the file (the banner) are both bounded; what matters is the page.
    await expect(
      alert(page)
        .or(page.getByRole('region', { name: 'Final message' }))
        .first(),
    ).toBeVisible()
    await expectAlive(page)
  })

  test('200,000 stragglers after a frozen block open, every one counted', async ({ page }, info) => {
    test.setTimeout(90_000)
    await openApp(page)
    const chunks = [
      { type: 'block-start', index: 0, blockType: 'text' },
      td(0, 'done'),
      { type: 'block-end', index: 0, block: { type: 'text', text: 'done' } },
    ]
    const text = ndjson(chunks) + `{"type":"text-delta","index":0,"text":"late"}\n`.repeat(200_000)
    await openGenerated(page, info.outputPath('stragglers.ndjson'), text)
    await expect(page.getByRole('region', { name: 'Ignored' })).toContainText('200000')
    expect(await expectAlive(page)).toBe(200_003)
  })

  test('5 MB of nested tool-call arguments stay text, with no live tree', async ({ page }, info) => {
    await openApp(page)
    const chunks = [
      { type: 'block-start', index: 0, blockType: 'tool-call' },
      { type: 'tool-call-delta', index: 0, id: 'c', name: 'bash', argumentsDelta: '['.repeat(5_000_000) },
    ]
    await openGenerated(page, info.outputPath('args.ndjson'), ndjson(chunks))
    await expect(page.getByRole('region', { name: 'Blocks' })).toContainText('arguments too long for a live')
    await expectAlive(page)
  })

  test('bidi controls show as marks everywhere, flagged, and reorder nothing', async ({ page }, info) => {
    await openApp(page)
    const chunks = [
      { type: 'block-start', index: 0, blockType: 'text' },
      td(0, TROJAN),
      td(0, ' zero\u200bwidth\ufeff'),
      { type: 'finish', reason: { kind: 'stop' } },
    ]
    await openGenerated(page, info.outputPath('trojan.ndjson'), ndjson(chunks))
    await expect(page.getByRole('grid').getByText('⟨RLO⟩·}·⟨LRI⟩//·check·later⟨PDI⟩')).toBeVisible()
    const blocks = page.getByRole('region', { name: 'Blocks' })
    await expect(blocks).toContainText('if (isAdmin) {⟨RLO⟩ } ⟨LRI⟩// check later⟨PDI⟩ {')
    await expect(blocks.getByRole('note')).toContainText('1 RLO, 1 LRI, 1 PDI, 1 ZWSP, 1 BOM')
    const message = page.getByRole('region', { name: 'Final message' })
    await expect(message).toContainText('zero⟨ZWSP⟩width⟨BOM⟩')
    await expect(message.getByRole('note')).toContainText('hidden characters')
    expect(BIDI_CONTROL.test(await page.locator('body').innerText())).toBe(false)
    await message.getByRole('button', { name: 'Raw JSON' }).click()
    await expect(message.getByLabel('Message JSON')).toContainText('{⟨RLO⟩ } ⟨LRI⟩//')
    expect(BIDI_CONTROL.test(await page.locator('body').innerText())).toBe(false)
    await expectAlive(page)
  })
})

test.describe('paste', () => {
  test('30,000 block indexes pasted are cut at the limit, saying so', async ({ page }) => {
    await openApp(page)
    await pasteAnywhere(page, blockPerChunk(30_000))
    await expect(alert(page)).toContainText('at most 20,000 distinct block indexes')
    expect(await expectAlive(page)).toBe(20_000)
  })

  test('bidi controls in a pasted tool name are marked', async ({ page }) => {
    await openApp(page)
    const chunks = [
      { type: 'block-start', index: 0, blockType: 'tool-call' },
      { type: 'tool-call-delta', index: 0, id: 'c1', name: 'rm\u202e-rf', argumentsDelta: '{}' },
    ]
    await paste(page, ndjson(chunks))
    await expect(page.getByRole('region', { name: 'Blocks' })).toContainText('rm⟨RLO⟩-rf')
    expect(BIDI_CONTROL.test(await page.locator('body').innerText())).toBe(false)
    await expectAlive(page)
  })

  test('a JSON array of 100,000 non-chunks ends in a message', async ({ page }) => {
    await openApp(page)
    await pasteAnywhere(page, JSON.stringify(Array.from({ length: 100_000 }, () => null)))
    await expect(alert(page)).toContainText('item 0: not a StreamChunk')
    await expectAlive(page)
  })
})

test.describe('share links', () => {
  test('an 80 KB link that inflates to a 60 MB string opens bounded', async ({ page }) => {
    test.setTimeout(90_000)
    const fragment = await encodeShareLink(chunksPayload([td(0, 'a'.repeat(60_000_000))]))
    expect(fragment.length).toBeLessThan(200_000)
    await openLink(page, fragment)
    await expect(
      page.getByRole('region', { name: 'Final message' }).getByText('⋯ 59,996,000 earlier chars'),
    ).toBeVisible()
    expect(await expectAlive(page)).toBe(1)
  })

  test('a link that inflates past 64 MiB is refused', async ({ page }) => {
    const fragment = await encodeShareLink(chunksPayload([td(0, 'a'.repeat(70 * 1024 * 1024))]))
    await openLink(page, fragment)
    await expect(alert(page)).toContainText('larger than 64 MiB once decompressed')
    await expectAlive(page)
  })

  test('a link of 30,000 block indexes is cut at the limit', async ({ page }) => {
    const chunks = Array.from({ length: 30_000 }, (_, i) => td(i, 'x'))
    await openLink(page, await encodeShareLink(chunksPayload(chunks)))
    await expect(alert(page)).toContainText('at most 20,000 distinct block indexes')
    expect(await expectAlive(page)).toBe(20_000)
  })

  test('a link of 300,000 things that are not chunks says so', async ({ page }) => {
    await openLink(page, await encodeShareLink(chunksPayload(Array.from({ length: 300_000 }, () => 7))))
    const diagnostics = page.getByRole('region', { name: 'Diagnostics' })
    await expect(diagnostics).toContainText('Diagnostics (300000)')
    await expect(diagnostics).toContainText(
      'chunk 0: not a StreamChunk: not a JSON object (got number); skipped',
    )
    await expectAlive(page)
  })

  test('bidi text in a link is marked', async ({ page }) => {
    await openLink(page, await encodeShareLink(chunksPayload([td(0, TROJAN)])))
    await expect(page.getByRole('region', { name: 'Final message' })).toContainText('{⟨RLO⟩ } ⟨LRI⟩//')
    expect(BIDI_CONTROL.test(await page.locator('body').innerText())).toBe(false)
    await expectAlive(page)
  })

  test('bogus links each say what is wrong and the page stays usable', async ({ page }) => {
    const good = await encodeShareLink(chunksPayload([td(0, 'hi')]))
    // v4 links share today's 2-byte frame but not its body: damage each the same way.
    const good4 = await encodeShareLink(chunksPayload([td(0, 'hi')]), { version: 4 })
    const deflated = new Uint8Array(
      await new Response(
        new Blob(['{"v": 1, not json']).stream().pipeThrough(new CompressionStream('deflate-raw')),
      ).arrayBuffer(),
    )
    const bogus: readonly [string, string | RegExp][] = [
      ['v1.', 'cut short'],
      ['v1.!!!!', 'contains "!"'],
      ['v1.A', 'cut short'],
      // A third of the link lost (a link of one short chunk is ~35 characters).
      [good.slice(0, good.length - Math.ceil(good.length / 3)), 'damaged'],
      [`${good.slice(0, 10)}${good[10] === 'A' ? 'B' : 'A'}${good.slice(11)}`, 'damaged'],
      [`v9.${good.slice(3)}`, 'does not know'],
      [v1Link(Uint8Array.of(0xff, 0xff, 0xff, 0xff)), 'corrupt'],
      [v1Link(Uint8Array.of(1, 2, 3), 7), 'first characters'],
      [v1Link(deflated), 'not valid JSON'],
      // Today's frame keeps the mode in byte 0's top two bits: 3 is neither plain nor encrypted.
      [
        resigned(good, (frame) => {
          setMode(frame, SHARE_VERSION, 3)
          return frame
        }),
        'first characters',
      ],
      [good4.slice(0, good4.length - Math.ceil(good4.length / 3)), 'damaged'],
      [`${good4.slice(0, 10)}${good4[10] === 'A' ? 'B' : 'A'}${good4.slice(11)}`, 'damaged'],
      [
        resigned(good4, (frame) => {
          setMode(frame, 4, 3)
          return frame
        }),
        'first characters',
      ],
      [await encodeShareLink([1, 2] as unknown as SharePayload), 'not a Chunkscope share payload'],
      [await encodeShareLink({ v: 1, source: { kind: 'chunks' }, k: 0 } as never), 'lacks its chunks'],
    ]
    await openApp(page)
    for (const [fragment, says] of bogus) {
      await openLink(page, fragment)
      await expect(alert(page), fragment.slice(0, 40)).toContainText(says)
      await expectAlive(page)
    }
  })

  test('an encrypted link asking for 4 billion key iterations is refused, not run', async ({ page }) => {
    const encrypted = await encodeShareLink(chunksPayload([td(0, 'hi')]), {
      passphrase: 'p',
      iterations: 10_000,
    })
    const greedy = resigned(encrypted, (frame, header) => {
      const copy = frame.slice()
      new DataView(copy.buffer).setUint32(header, 4_000_000_000)
      return copy
    })
    await page.goto(`/#${greedy}`)
    const prompt = page.getByRole('dialog', { name: 'Passphrase' })
    await prompt.getByLabel('Link passphrase').fill('p')
    await prompt.getByRole('button', { name: 'Open' }).click()
    await idle(page)
    await expect(alert(page)).toContainText('outside the accepted')
    await expectAlive(page)
  })
})

import { readFileSync } from 'node:fs'
import { expect, test, type Page } from '@playwright/test'
import { expectPosition, idle, openApp, readCorpus } from './helpers'

// The straggler lesson: bs0, td0 ×3, be0, td0 (straggler), usage, finish — 8 chunks; its text block reads
// "All tests pass: 42 passed, 0 failed."

/** Opens the Share dialog, applies `setup`, and returns the finished link from the dialog's link field. */
async function shareLink(
  page: Page,
  setup: (dialog: ReturnType<Page['getByRole']>) => Promise<void> = async () => {},
) {
  await page.getByRole('button', { name: 'Share', exact: true }).click()
  const dialog = page.getByRole('dialog', { name: 'Share' })
  await expect(dialog).toBeVisible()
  await setup(dialog)
  const field = dialog.getByLabel('Link text')
  await expect(dialog.getByRole('region', { name: 'Link' })).toHaveAttribute('aria-busy', 'false')
  await expect(field).toHaveValue(/^http:\/\/127\.0\.0\.1:\d+\/#v5\./)
  await expect(dialog.getByLabel('Link length')).toContainText('characters')
  const link = await field.inputValue()
  await dialog.getByRole('button', { name: 'Close' }).click()
  return link
}

async function atPosition(page: Page, k: number): Promise<void> {
  // An example opens at k = 0 (where First is disabled); Home goes there from anywhere.
  await page.keyboard.press('Home')
  for (let i = 0; i < k; i++) await page.getByRole('button', { name: 'Next chunk' }).click()
  await expectPosition(page, k)
}

async function snapshotOf(page: Page) {
  return {
    position: await page.getByLabel('Position').textContent(),
    blocks: await page.getByRole('region', { name: 'Blocks' }).innerText(),
    message: await page.getByRole('region', { name: 'Final message' }).innerText(),
  }
}

test('a shared link opens in a fresh browser on the same stream, cursor and state', async ({
  page,
  browser,
}) => {
  await openApp(page, '#ex=straggler')
  await atPosition(page, 3)
  const before = await snapshotOf(page)
  expect(before.position).toBe('3 / 8')
  const link = await shareLink(page)

  const fresh = await browser.newContext()
  const other = await fresh.newPage()
  await other.goto(link)
  await idle(other)
  await expectPosition(other, 3, 8)
  expect(await snapshotOf(other)).toEqual(before)
  // The URL keeps the link itself, so a reload opens the same thing.
  expect(other.url()).toBe(link)
  await other.reload()
  await idle(other)
  await expectPosition(other, 3, 8)
  await fresh.close()
})

test('a window link replays from the carried state and says which chunks it holds', async ({
  page,
  browser,
}) => {
  await openApp(page, '#ex=straggler')
  await atPosition(page, 5)
  const before = await snapshotOf(page)
  const link = await shareLink(page, async (dialog) => {
    await dialog.getByRole('radio', { name: /A window around the cursor/ }).check()
    await dialog.getByLabel('Window size').fill('3')
    await expect(dialog).toContainText('chunks 2–5 of 8')
  })
  const fresh = await browser.newContext()
  const other = await fresh.newPage()
  await other.goto(link)
  await idle(other)
  await expect(other.getByRole('banner')).toContainText('window: chunks 2–5 of 8')
  await expectPosition(other, 3, 3)
  const after = await snapshotOf(other)
  // Same blocks and state; only the seq range of a block opened before the window starts at the window.
  const withoutSeqs = (text: string) => text.replace(/seq \d+–\d+/g, 'seq …')
  expect(withoutSeqs(after.blocks)).toBe(withoutSeqs(before.blocks))
  expect(after.message).toBe(before.message)
  await fresh.close()
})

test('an encrypted link asks for its passphrase, refuses a wrong one, then opens', async ({
  page,
  browser,
}) => {
  await openApp(page, '#ex=straggler')
  await atPosition(page, 4)
  const before = await snapshotOf(page)
  const link = await shareLink(page, async (dialog) => {
    await dialog.getByLabel('Passphrase', { exact: true }).fill('tulip garden')
    await expect(dialog).toContainText('encrypted: opening it asks for the passphrase')
  })

  const fresh = await browser.newContext()
  const other = await fresh.newPage()
  await other.goto(link)
  const prompt = other.getByRole('dialog', { name: 'Passphrase' })
  await expect(prompt).toBeVisible()
  await prompt.getByLabel('Link passphrase').fill('tulip')
  await prompt.getByRole('button', { name: 'Open' }).click()
  await expect(prompt.getByRole('alert')).toContainText('wrong passphrase')
  await expect(prompt).toBeVisible()
  await prompt.getByLabel('Link passphrase').fill('tulip garden')
  await prompt.getByRole('button', { name: 'Open' }).click()
  await expect(prompt).toBeHidden()
  await idle(other)
  await expectPosition(other, 4, 8)
  expect(await snapshotOf(other)).toEqual(before)
  await expect(other.getByRole('banner')).toContainText('encrypted')
  await fresh.close()
})

test('a damaged link says so and the page stays usable', async ({ page, browser }) => {
  await openApp(page, '#ex=straggler')
  const link = await shareLink(page)
  const at = Math.floor((link.indexOf('#v5.') + link.length) / 2)
  const flip = (c: string) => (c === 'A' ? 'B' : 'A')
  const damaged = link.slice(0, at) + flip(link[at]!) + flip(link[at + 1]!) + link.slice(at + 2)

  const fresh = await browser.newContext()
  const other = await fresh.newPage()
  await other.goto(damaged)
  await idle(other)
  await expect(other.getByRole('alert')).toContainText('the link is damaged')
  // The default example is on screen (at its start, as examples open) and works.
  await expectPosition(other, 0, 9)
  await other.keyboard.press('End')
  await expectPosition(other, 9, 9)
  await fresh.close()
})

test('a redacted link shows the redacted badge and same-length placeholders', async ({ page, browser }) => {
  await openApp(page, '#ex=straggler')
  await page.keyboard.press('End')
  await expect(page.getByRole('region', { name: 'Final message' })).toContainText(
    'All tests pass: 42 passed, 0 failed.',
  )
  const link = await shareLink(page, async (dialog) => {
    await dialog.getByLabel('Text & reasoning').check()
    await expect(dialog.getByRole('region', { name: 'Redaction preview' })).toContainText(
      '"text":"xxx xxxxx xxxxx "',
    )
  })
  const fresh = await browser.newContext()
  const other = await fresh.newPage()
  await other.goto(link)
  await idle(other)
  await expect(other.getByRole('banner').getByText('redacted', { exact: true })).toBeVisible()
  const message = other.getByRole('region', { name: 'Final message' })
  await expect(message).toContainText('xxx xxxxx xxxxx xx xxxxxxx x xxxxxxx')
  await expect(message).not.toContainText('All tests')
  await fresh.close()
})

test('Export downloads a Vitest file and the chunks as NDJSON', async ({ page }) => {
  await openApp(page, '#ex=straggler')
  const exportFile = async (label: string) => {
    await page.getByText('Export ▾').click()
    const [download] = await Promise.all([
      page.waitForEvent('download'),
      page.getByRole('menuitem', { name: new RegExp(label) }).click(),
    ])
    return { name: download.suggestedFilename(), text: readFileSync(await download.path(), 'utf8') }
  }
  const vitest = await exportFile("Vitest test: pin today's behaviour")
  expect(vitest.name).toMatch(/\.test\.ts$/)
  expect(vitest.text).toContain('BlockAssembler')
  const ndjson = await exportFile('Chunks \\(NDJSON\\)')
  expect(ndjson.name).toMatch(/\.ndjson$/)
  expect(ndjson.text.split('\n').filter((line) => line.trim() !== '')).toHaveLength(8)
})

test('?src= fetches a file with progress; a failure is explained in plain words', async ({ page }) => {
  const body = readCorpus('acp-agent-text-turn-session.jsonl')
  await page.route('https://logs.example.test/**', (route) =>
    route.request().url().endsWith('/missing.jsonl')
      ? route.abort('failed')
      : route.fulfill({
          body,
          headers: { 'access-control-allow-origin': '*', 'content-type': 'application/jsonl' },
        }),
  )
  await page.goto('/?src=https://logs.example.test/run/session.jsonl')
  await idle(page)
  await expect(page.getByRole('banner')).toContainText('session.jsonl')
  await expect(page.getByRole('alert')).toHaveCount(0)

  await page.goto('/?src=https://logs.example.test/missing.jsonl')
  await idle(page)
  await expect(page.getByRole('alert')).toContainText(/could not|network|CORS/i)
})

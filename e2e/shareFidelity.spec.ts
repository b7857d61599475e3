import { expect, test, type Locator, type Page } from '@playwright/test'
import { corpusFile, idle, openApp, openFile } from './helpers'

// What a bug report must keep: the Findings list, the final message beside the recorded one, and the diagnostics.
async function viewOf(page: Page) {
  return {
    findings: await page.getByRole('region', { name: 'Findings' }).innerText(),
    message: await page.getByRole('region', { name: 'Final message' }).innerText(),
  }
}

type Option = {
  readonly name: string
  readonly setup: (dialog: Locator) => Promise<void>
  /** The opener sees x for every character of text: compare the final message's shape only. */
  readonly redacted?: true
}

/** Redaction keeps every length and every space (README: Sharing), so the shapes are equal. */
const shape = (view: { findings: string; message: string }) => ({
  findings: view.findings,
  message: view.message.replace(/\S/g, 'x'),
})

const OPTIONS: Option[] = [
  { name: 'whole session', setup: (d) => d.getByRole('radio', { name: /Whole session/ }).check() },
  { name: 'only this attempt', setup: (d) => d.getByRole('radio', { name: /Only this attempt/ }).check() },
  {
    name: 'whole session, redacted, non-chunk events dropped',
    redacted: true,
    setup: async (d) => {
      await d.getByRole('radio', { name: /Whole session/ }).check()
      for (const box of ['Text & reasoning', 'Tool-call argument values', 'Drop non-chunk events'])
        await d.getByRole('checkbox', { name: box }).check()
    },
  },
  {
    name: 'only this attempt, redacted',
    redacted: true,
    setup: async (d) => {
      await d.getByRole('radio', { name: /Only this attempt/ }).check()
      for (const box of ['Text & reasoning', 'Tool-call argument values'])
        await d.getByRole('checkbox', { name: box }).check()
    },
  },
  {
    name: 'a window of 5',
    setup: async (d) => {
      await d.getByRole('radio', { name: /A window around the cursor/ }).check()
      await d.getByLabel('Window size').fill('5')
    },
  },
]

async function linkFor(page: Page, option: Option): Promise<string> {
  await page.getByRole('button', { name: 'Share', exact: true }).click()
  const dialog = page.getByRole('dialog', { name: 'Share' })
  await option.setup(dialog)
  await expect(dialog.getByRole('region', { name: 'Link' })).toHaveAttribute('aria-busy', 'false')
  await expect(dialog.getByLabel('Link text')).toHaveValue(/#v\d+\./)
  // The dialog checked this option against what is on screen and found nothing it would lose.
  await expect(dialog.getByLabel('Link fidelity')).toHaveCount(0)
  const link = await dialog.getByLabel('Link text').inputValue()
  await dialog.getByRole('button', { name: 'Close' }).click()
  return link
}

const CASES = [
  { file: 'web-cordis-tool-round-legacy-session.jsonl', finding: 'recorded-mismatch' },
  { file: 'acp-agent-persistent-pwsh-tool-turn-session.jsonl', finding: 'end-content-mismatch' },
]

for (const { file, finding } of CASES) {
  test(`${file}: every share option shows the opener what the sender saw`, async ({ page, browser }) => {
    // Six links, each opened in a fresh page of its own: several times one page's budget.
    test.setTimeout(150_000)
    await openApp(page)
    await openFile(page, corpusFile(file))
    await page.getByRole('region', { name: 'Findings' }).getByText(finding).first().click()
    const before = await viewOf(page)
    expect(before.findings).toContain(finding)
    const context = await browser.newContext()
    for (const option of OPTIONS) {
      const link = await linkFor(page, option)
      const other = await context.newPage()
      await other.goto(link)
      await idle(other)
      const after = await viewOf(other)
      if (option.redacted) expect(shape(after), option.name).toEqual(shape(before))
      else expect(after, option.name).toEqual(before)
      await expect(other.getByRole('region', { name: 'Findings' })).not.toContainText('finish-missing')
      await other.close()
    }
    await context.close()
  })
}

test('the cordis mismatch: its finding jumps to the first divergence; Copy as bug report has it', async ({
  page,
  context,
}) => {
  await context.grantPermissions(['clipboard-read', 'clipboard-write'])
  await openApp(page)
  await openFile(page, corpusFile('web-cordis-tool-round-legacy-session.jsonl'))
  const findings = page.getByRole('region', { name: 'Findings' })
  await expect(findings).toContainText('first divergence at seq 99, block 0 text: seqs 6–86, 88–98 missing')
  await findings.getByText('recorded-mismatch').first().click()
  // Seq 99 is the attempt's third chunk: the cursor stands just after it.
  await expect(page.getByLabel('Position')).toHaveText(/^3 \//)
  await expect(page.getByRole('region', { name: 'Timeline' }).getByLabel(/seqs 6–86 missing/)).toBeVisible()
  await page.getByText('Export ▾').click()
  await page.getByRole('menuitem', { name: /Copy as bug report/ }).click()
  await expect(page.getByRole('menu', { name: 'Export' })).toContainText('Copied to the clipboard')
  const report = await page.evaluate(() => navigator.clipboard.readText())
  expect(report).toContain(
    '- **First divergence:** seq 99, block 0 text: seqs 6–86, 88–98 missing from the log',
  )
  expect(report).toMatch(/- \*\*Link:\*\* http:\/\/127\.0\.0\.1:\d+\/#v5\./)
  expect(report).toContain('```ndjson\n{"seq":5,')
})

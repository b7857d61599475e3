import { expect, test } from '@playwright/test'
import { corpusFile, corpusFiles, openApp, openFile, outlineRows, readCorpus } from './helpers'

const LEGACY = 'web-cordis-tool-round-legacy-session.jsonl'
const files = corpusFiles().filter((name) => name !== LEGACY)

for (const name of files) {
  test(`every recorded attempt of ${name} matches`, async ({ page }) => {
    await openApp(page)
    await openFile(page, corpusFile(name))
    const tree = page.getByRole('tree', { name: 'Streams' })
    await expect(tree).toBeVisible()
    // The tree is virtualized: read every row by scrolling through it.
    const rows = await outlineRows(page)
    expect(rows.filter((row) => row.text.includes('✗'))).toEqual([])
    const recorded = rows.filter(
      (row) => row.title.includes('recorded assistant/message') || row.title.includes('interrupted message'),
    ).length
    // Every assistant/message that cites its chunks (crash-repair messages cite none and link to nothing).
    const cited = readCorpus(name)
      .split('\n')
      .filter(
        (line) => line.includes('"type":"assistant/message"') && line.includes('"sourceEventSeqs"'),
      ).length
    expect(recorded).toBe(cited)
  })
}

test('the hand-trimmed legacy file shows its gaps and mismatches', async ({ page }) => {
  await openApp(page)
  await openFile(page, corpusFile(LEGACY))
  await expect(page.getByRole('region', { name: 'Diagnostics' })).toContainText('seq gap')
  await expect(page.getByRole('tree', { name: 'Streams' }).getByText('✗').first()).toBeVisible()
  await expect(page.getByRole('region', { name: 'Findings' })).toContainText('recorded-mismatch')
})

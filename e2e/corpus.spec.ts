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
    // Every assistant/message that cites its chunks (crash-repair messages cite none and link to nothing).
    const cited = readCorpus(name)
      .split('\n')
      .filter(
        (line) => line.includes('"type":"assistant/message"') && line.includes('"sourceEventSeqs"'),
      ).length
    // The tree is virtualized: read every row by scrolling through it, polled, since the file's load may still be
    // replacing the stream that was open before it.
    const recordedRows = async () =>
      (await outlineRows(page)).filter(
        (row) =>
          row.title.includes('recorded assistant/message') || row.title.includes('interrupted message'),
      ).length
    await expect.poll(recordedRows).toBe(cited)
    const rows = await outlineRows(page)
    expect(rows.filter((row) => row.text.includes('✗'))).toEqual([])
  })
}

test('the hand-trimmed legacy file shows its gaps and mismatches', async ({ page }) => {
  await openApp(page)
  await openFile(page, corpusFile(LEGACY))
  await expect(page.getByRole('region', { name: 'Diagnostics' })).toContainText('seq gap')
  await expect(page.getByRole('tree', { name: 'Streams' }).getByText('✗').first()).toBeVisible()
  await expect(page.getByRole('region', { name: 'Findings' })).toContainText('recorded-mismatch')
})

import { expect, test } from '@playwright/test'
import { corpusFile, corpusFiles, openApp, openFile, readCorpus } from './helpers'

const LEGACY = 'web-cordis-tool-round-legacy-session.jsonl'
const files = corpusFiles().filter((name) => name !== LEGACY)

for (const name of files) {
  test(`every recorded attempt of ${name} matches`, async ({ page }) => {
    await openApp(page)
    await openFile(page, corpusFile(name))
    const tree = page.getByRole('tree', { name: 'Streams' })
    await expect(tree).toBeVisible()
    await expect(tree.getByText('✗')).toHaveCount(0)
    const recorded = await tree
      .locator('[title*="recorded assistant/message"], [title*="interrupted message"]')
      .count()
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

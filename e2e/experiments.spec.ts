import { expect, test, type Page } from '@playwright/test'
import { fileURLToPath } from 'node:url'
import { corpusFile, dropFile, expectPosition, openApp, openFile } from './helpers'

const STREAM = [
  { type: 'block-start', index: 0, blockType: 'text' },
  { type: 'text-delta', index: 0, text: 'Hel' },
  { type: 'text-delta', index: 0, text: 'lo' },
  { type: 'block-end', index: 0, block: { type: 'text', text: 'Hello' } },
  { type: 'usage', usage: { inputTokens: 3, outputTokens: 2 } },
  { type: 'finish', reason: { kind: 'stop' } },
]
  .map((chunk) => JSON.stringify(chunk))
  .join('\n')

/** The outline's diagnostics start folded when they hold only infos. */
async function expandDiagnostics(page: Page) {
  const toggle = page.getByRole('region', { name: 'Diagnostics' }).getByRole('button', { expanded: false })
  if ((await toggle.count()) > 0) await toggle.click()
}

async function experiments(page: Page, tab: string) {
  await page.getByRole('button', { name: /Experiments/ }).click()
  await page.getByRole('tab', { name: tab }).click()
  return page.getByRole('tabpanel', { name: tab })
}

test('what-if: move a delta after its block-end, see the change marked and diffed, undo, redo, reset', async ({
  page,
}) => {
  await openApp(page)
  await dropFile(page, 'hello.ndjson', STREAM)
  await page.keyboard.press('Home')
  await page.keyboard.press('ArrowRight')
  await page.keyboard.press('ArrowRight')
  await page.keyboard.press('ArrowRight')
  await expectPosition(page, 3, 6)
  const panel = await experiments(page, 'What-if')
  await expect(panel).toContainText('Chunk #2 (seq 2) text-delta')
  await panel.getByRole('button', { name: 'Move down' }).click()
  // The delta now comes after block-end: ignored (the block-end stands), and flagged.
  await expect(panel.getByTestId('what-if-history')).toHaveText('edited: move #2 → #3')
  await expect(panel.getByTestId('what-if-changed')).toContainText('Changed chunks: #3')
  await expect(panel.getByTestId('comparison')).toContainText(
    'same message; + delta-after-end, end-content-mismatch',
  )
  await expect(page.getByRole('region', { name: 'Findings' })).toContainText('delta-after-end')
  await expect(page.locator('.timeline-row[data-pos="3"]')).not.toHaveCSS('box-shadow', 'none')
  await expect(page.locator('.timeline-row[data-pos="2"]')).toHaveCSS('box-shadow', 'none')
  // The mark stays while another experiment is shown.
  await page.getByRole('tab', { name: 'Compare' }).click()
  await expect(page.locator('.timeline-row[data-pos="3"]')).not.toHaveCSS('box-shadow', 'none')
  await page.getByRole('tab', { name: 'What-if' }).click()
  await expandDiagnostics(page)
  await expect(page.getByRole('region', { name: 'Diagnostics' })).toContainText(
    'edited stream: 1 edit (move #2 → #3)',
  )
  await expect(page.getByRole('region', { name: 'Experiments' })).toContainText('edited · 1')

  // Edit the block-end's text: the final message changes, and the diff says where.
  await page.keyboard.press('End')
  await page.keyboard.press('ArrowLeft')
  await page.keyboard.press('ArrowLeft')
  await page.keyboard.press('ArrowLeft')
  await expect(panel).toContainText(/Chunk #2 \(seq \d+\) block-end/)
  const editor = panel.getByLabel('The chunk as JSON (payload, index, type)')
  await editor.fill('{"type":"block-end","index":0,"block":{"type":"text","text":"Help"}')
  await expect(panel.getByRole('alert')).toContainText('not JSON')
  await editor.fill('{"type":"block-end","index":0,"block":{"type":"text","text":"Help"}}')
  await panel.getByRole('button', { name: 'Apply edit' }).click()
  await expect(panel.getByTestId('comparison')).toContainText('text differs after 3 characters')
  await expect(page.getByRole('region', { name: 'Final message' })).toContainText('Help')

  await panel.getByRole('button', { name: 'Undo' }).click()
  await expect(panel.getByTestId('what-if-history')).toHaveText('edited: move #2 → #3')
  await panel.getByRole('button', { name: 'Redo' }).click()
  await expect(panel.getByTestId('what-if-history')).toHaveText('edited: move #2 → #3, edit #2 (block-end)')
  await panel.getByRole('button', { name: 'Reset to recording' }).click()
  await expect(panel.getByTestId('what-if-history')).toHaveText('the recording, unedited')
  await expect(page.getByRole('region', { name: 'Findings' })).not.toContainText('delta-after-end')
})

test('minimize in a worker, open the result as a new stream', async ({ page }) => {
  await openApp(page)
  await openFile(page, corpusFile('acp-agent-persistent-pwsh-tool-turn-session.jsonl'))
  const panel = await experiments(page, 'Minimize')
  await panel.getByLabel('Keep').selectOption('finding:end-content-mismatch')
  await panel.getByRole('button', { name: 'Minimize' }).click()
  await expect(panel.getByTestId('minimize-status')).toHaveText(
    /^\d+ → \d+ chunks keeping finding:end-content-mismatch \(\d+ replays\)$/,
  )
  await panel.getByRole('button', { name: 'Open as a new stream' }).click()
  await expandDiagnostics(page)
  await expect(page.getByRole('region', { name: 'Diagnostics' })).toContainText(
    'minimized: finding:end-content-mismatch',
  )
  await expect(page.getByRole('region', { name: 'Findings' })).toContainText('end-content-mismatch')
})

test('chaos: pi-ai’s CR|LF split found in an Anthropic body, the smallest cut named', async ({ page }) => {
  await openApp(page)
  await openFile(
    page,
    fileURLToPath(
      new URL('../src/formats/fixtures/anthropic/synthetic-crlf-line-endings.sse', import.meta.url),
    ),
  )
  const panel = await experiments(page, 'Chaos')
  await panel.getByLabel('Seed').fill('1')
  await panel.getByRole('button', { name: 'Run chaos' }).click()
  await expect(panel.getByTestId('chaos-status')).toContainText('seed 1:')
  await expect(panel.getByRole('list', { name: 'Wire re-splits' })).toContainText(
    /✗ crlf-halves.*smallest: 1 cut, byte \d+ \(line \d+, column \d+\): between CR and LF/,
  )
  await expect(panel.getByRole('list', { name: 'Chunk variants' })).toContainText('split-deltas')
})

test('compare two attempts of one log, block by block', async ({ page }) => {
  await openApp(page)
  await openFile(page, corpusFile('web-goal-multi-turn-actions-session.jsonl'))
  const panel = await experiments(page, 'Compare')
  await panel.getByLabel('Stream B').selectOption('t1.s2.a1')
  await expect(panel.getByTestId('comparison')).toContainText(
    'block 1 tool-call: arguments differs after 13 characters',
  )
  await expect(panel.getByTestId('comparison')).toContainText('Findings only in A: blocks-overlap')
  await expect(panel.getByRole('figure')).toBeVisible()
  // Side by side, aligned by block: the differing block marks where each side's arguments part.
  const columns = panel.getByRole('table', { name: 'Blocks side by side' })
  const differing = columns.getByRole('row').filter({ hasText: 'Block 1 · tool-call' })
  await expect(differing).toContainText('arguments differs')
  await expect(differing.getByRole('cell')).toHaveCount(2)
  await expect(differing.locator('mark')).toHaveCount(2)
  const marked = await differing.locator('mark').allTextContents()
  expect(marked[0]).not.toBe(marked[1])
})

test('compare with a second file: the fixed recording against the truncated one', async ({ page }) => {
  const fixture = (name: string) => fileURLToPath(new URL(`../src/formats/fixtures/${name}`, import.meta.url))
  await openApp(page)
  await openFile(page, fixture('deepseek-reasoner-tool-calls.sse'))
  const panel = await experiments(page, 'Compare')
  await panel.getByLabel('Compare with a file').setInputFiles(fixture('deepseek-reasoner-truncated.sse'))
  const comparison = panel.getByTestId('comparison')
  await expect(comparison).toContainText('block 3 tool-call: arguments differs after 0 characters')
  await expect(comparison).toContainText('Findings only in B: tool-arguments-invalid, usage-missing')
  await expect(panel.getByLabel('Stream B')).toHaveValue('stream')
})

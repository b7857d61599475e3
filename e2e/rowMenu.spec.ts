import { expect, test, type Page } from '@playwright/test'
import { dropFile, expectPosition, idle, openApp } from './helpers'

// Delta-only (the assembler tolerates a stream without block-start/end: docs/protocol.md §3), so the final text is
// the deltas' concatenation and any edit of a delta shows in it.
const STREAM = [
  { type: 'text-delta', index: 0, text: 'Hel' },
  { type: 'text-delta', index: 0, text: 'lo' },
  { type: 'usage', usage: { inputTokens: 3, outputTokens: 2 } },
  { type: 'finish', reason: { kind: 'stop' } },
]
  .map((chunk) => JSON.stringify(chunk))
  .join('\n')

async function openAtSecondChunk(page: Page) {
  await openApp(page)
  await dropFile(page, 'hello.ndjson', STREAM)
  await page.keyboard.press('Home')
  await page.keyboard.press('ArrowRight')
  await page.keyboard.press('ArrowRight')
  await expectPosition(page, 2, 4)
  // The final message as the whole stream assembles it, wherever an edit leaves the cursor.
  await page
    .getByRole('region', { name: 'Final message' })
    .getByRole('button', { name: 'at the end' })
    .click()
}

test('row menu by keyboard: Shift+F10 on the grid, arrows, drop; Ctrl+Z and Ctrl+Shift+Z undo and redo', async ({
  page,
}) => {
  await openAtSecondChunk(page)
  const final = page.getByRole('region', { name: 'Final message' })
  await expect(final).toContainText('Hello')
  const grid = page.getByRole('grid', { name: 'Chunks' })
  await grid.focus()

  // Escape closes the menu and hands focus back to the grid.
  await page.keyboard.press('Shift+F10')
  const menu = page.getByRole('menu', { name: 'Actions for chunk #1' })
  await expect(menu.getByRole('menuitem', { name: 'Drop' })).toBeFocused()
  // Nothing to undo yet: the menu's undo is disabled.
  await expect(menu.getByRole('menuitem', { name: /Undo edit/ })).toBeDisabled()
  await page.keyboard.press('Escape')
  await expect(menu).toBeHidden()
  await expect(grid).toBeFocused()

  await page.keyboard.press('Shift+F10')
  await page.keyboard.press('ArrowDown')
  await expect(menu.getByRole('menuitem', { name: 'Duplicate' })).toBeFocused()
  await page.keyboard.press('ArrowUp')
  await expect(menu.getByRole('menuitem', { name: 'Drop' })).toBeFocused()
  await page.keyboard.press('Enter')
  await expect(menu).toBeHidden()
  await expect(final).not.toContainText('Hello')
  await expect(final).toContainText('Hel')
  await expect(page.getByRole('region', { name: 'Experiments' })).toContainText('edited · 1')
  await expect(page.locator('.timeline-row')).toHaveCount(3)

  await page.keyboard.press('Control+z')
  await expect(final).toContainText('Hello')
  await expect(page.locator('.timeline-row')).toHaveCount(4)
  await page.keyboard.press('Control+Shift+z')
  await expect(final).not.toContainText('Hello')
  await expect(page.locator('.timeline-row')).toHaveCount(3)
})

test('row menu by mouse: right-click duplicate marks the new row; the ⋯ button edits a chunk’s JSON', async ({
  page,
}) => {
  await openAtSecondChunk(page)
  const final = page.getByRole('region', { name: 'Final message' })
  await page.locator('.timeline-row[data-pos="1"]').click({ button: 'right' })
  await page
    .getByRole('menu', { name: 'Actions for chunk #1' })
    .getByRole('menuitem', { name: 'Duplicate' })
    .click()
  await expect(final).toContainText('Hellolo')
  await expect(page.locator('.timeline-row[data-pos="2"]')).not.toHaveCSS('box-shadow', 'none')
  await expect(page.locator('.timeline-row[data-pos="0"]')).toHaveCSS('box-shadow', 'none')

  // The cursor sits on the duplicate; its row's ⋯ button opens the same menu.
  await page.getByRole('button', { name: 'Chunk actions (Shift+F10)' }).click()
  await page.getByRole('menuitem', { name: 'Edit…' }).click()
  const form = page.getByRole('form', { name: 'Edit chunk #2' })
  const json = form.getByLabel('The chunk as JSON (payload, index, type)')
  await expect(json).toBeFocused()
  await json.fill('{"type":"text-delta","index":0,"text":"p!"')
  await expect(form.getByRole('alert')).toContainText('not JSON')
  await expect(form.getByRole('button', { name: 'Apply' })).toBeDisabled()
  await json.fill('{"type":"text-delta","index":0,"text":"p!"}')
  await form.getByRole('button', { name: 'Apply' }).click()
  await expect(final).toContainText('Hellop!')
  await expect(page.getByRole('region', { name: 'Experiments' })).toContainText('edited · 2')

  await page.getByRole('grid', { name: 'Chunks' }).focus()
  await page.keyboard.press('Control+z')
  await expect(final).toContainText('Hellolo')
  await page.keyboard.press('Control+z')
  await expect(final).not.toContainText('lolo')
  await expect(page.locator('.timeline-row')).toHaveCount(4)
  await expect(page.getByRole('region', { name: 'Experiments' })).not.toContainText('edited ·')
})

test('an edited stream shared as “Only this attempt” opens labelled as edited in a fresh browser', async ({
  page,
  browser,
}) => {
  await openAtSecondChunk(page)
  await expect(page.getByTestId('derived-badge')).toHaveCount(0)
  await page.locator('.timeline-row[data-pos="1"]').click({ button: 'right' })
  await page.getByRole('menuitem', { name: 'Drop' }).click()
  const badge = page.getByRole('banner').getByTestId('derived-badge')
  await expect(badge).toHaveText('edited')
  // The edited stream is a one-turn log: its outline row is labelled.
  await expect(page.getByRole('treeitem', { name: /^a1 edited / })).toBeVisible()
  await expect(badge).toHaveAttribute('title', /edited: 1 edit \(drop #1\)/)

  await page.getByRole('button', { name: 'Share', exact: true }).click()
  const dialog = page.getByRole('dialog', { name: 'Share' })
  await dialog.getByRole('radio', { name: /Only this attempt/ }).check()
  await expect(dialog.getByRole('region', { name: 'Link' })).toHaveAttribute('aria-busy', 'false')
  const field = dialog.getByLabel('Link text')
  await expect(field).toHaveValue(/#v5\./)
  const link = await field.inputValue()

  const fresh = await browser.newContext()
  const other = await fresh.newPage()
  await other.goto(link)
  await idle(other)
  const shared = other.getByRole('banner').getByTestId('derived-badge')
  await expect(shared).toHaveText('edited')
  await expect(shared).toHaveAttribute('title', /edited: 1 edit \(drop #1\)/)
  // A bare stream has no outline row: the outline's header says so instead.
  await expect(other.getByRole('region', { name: 'Outline' }).getByTestId('derived-badge')).toHaveText(
    'edited',
  )
  await expect(other.locator('.timeline-row')).toHaveCount(3)
  await fresh.close()
})

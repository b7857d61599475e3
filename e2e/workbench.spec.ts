import { expect, test } from '@playwright/test'
import { expectPosition, openApp } from './helpers'

// The straggler lesson: bs0, td0 ×3, be0, td0 (straggler, seq 5), usage, finish — 8 chunks.
test.describe('stepping through the straggler example', () => {
  test.beforeEach(async ({ page }) => {
    await openApp(page, '#ex=straggler&s=stream&k=8')
  })

  test('keys move the cursor; Blocks, Ignored and Final message follow it', async ({ page }) => {
    const blocks = page.getByRole('region', { name: 'Blocks' })
    const ignored = page.getByRole('region', { name: 'Ignored' })
    const message = page.getByRole('region', { name: 'Final message' })
    await expectPosition(page, 8, 8)

    await page.keyboard.press('Home')
    await expectPosition(page, 0, 8)
    await expect(blocks.getByRole('article')).toHaveCount(0)

    await page.keyboard.press('ArrowRight')
    await page.keyboard.press('ArrowRight')
    await expectPosition(page, 2, 8)
    const block0 = blocks.getByRole('article', { name: 'Block 0' })
    await expect(block0).toContainText('open')
    await expect(block0).toContainText('All tests pass:')
    await expect(message).toContainText('All tests pass:')
    await expect(message).not.toContainText('42 passed')

    await page.keyboard.press('Shift+ArrowRight') // next boundary: after the block-end
    await expectPosition(page, 5, 8)
    await expect(block0).toContainText('frozen')
    await expect(ignored).toContainText('Nothing ignored yet')

    await page.keyboard.press('ArrowRight') // the straggler
    await expectPosition(page, 6, 8)
    await expect(ignored).toContainText('seq 5')
    await expect(ignored).toContainText('straggler-delta')
    await expect(ignored).toContainText('frozen by block-end at seq 4')
    await expect(page.getByLabel('Explanation')).toHaveText(
      'seq 5: text-delta for block 0 ignored — block 0 was frozen by block-end at seq 4.',
    )
    await expect(message).toContainText('All tests pass: 42 passed, 0 failed.')

    await page.keyboard.press('End')
    await expectPosition(page, 8, 8)
    await expect(message).toContainText('finish stop')
  })

  test('the transport buttons step, jump and play', async ({ page }) => {
    await page.getByRole('button', { name: 'First' }).click()
    await expectPosition(page, 0, 8)
    await page.getByRole('button', { name: 'Next chunk' }).click()
    await expectPosition(page, 1, 8)
    await expect(
      page.getByRole('region', { name: 'Blocks' }).getByRole('article', { name: 'Block 0' }),
    ).toContainText('open')
    await page.getByRole('button', { name: 'Last' }).click()
    await expectPosition(page, 8, 8)
    await page.getByRole('button', { name: 'Previous chunk' }).click()
    await expectPosition(page, 7, 8)

    // The scrubber shows the cursor wherever it moved from, and moves it.
    const scrubber = page.getByRole('slider', { name: 'Cursor' })
    await expect(scrubber).toHaveValue('7')
    await page.keyboard.press('Home')
    await expect(scrubber).toHaveValue('0')
    await scrubber.fill('3')
    await expectPosition(page, 3, 8)
    await page.keyboard.press('ArrowRight')
    await expect(scrubber).toHaveValue('4')

    await page.getByLabel('Playback speed').selectOption('16')
    await page.getByRole('button', { name: 'First' }).click()
    await page.getByRole('button', { name: 'Play' }).click()
    await expectPosition(page, 8, 8) // plays to the end and stops
    await expect(page.getByRole('button', { name: 'Play' })).toBeVisible()
  })

  test('clicking a timeline row seeks to it and dims the rows after it', async ({ page }) => {
    const timeline = page.getByRole('region', { name: 'Timeline' })
    await timeline.locator('[data-pos="3"]').click()
    await expectPosition(page, 4, 8)
    await expect(timeline.locator('[aria-current="step"]')).toHaveAttribute('data-pos', '3')
    await expect(page.getByRole('region', { name: 'Blocks' })).toContainText('42 passed')
  })

  test('a finding jumps to its chunk', async ({ page }) => {
    await page.keyboard.press('Home')
    await page.getByRole('region', { name: 'Findings' }).getByText('delta-after-end').click()
    await expectPosition(page, 6, 8)
  })

  test('? lists every key, and Escape closes the list', async ({ page }) => {
    await page.keyboard.press('?')
    const dialog = page.getByRole('dialog', { name: 'Keyboard shortcuts' })
    await expect(dialog).toBeVisible()
    await expect(dialog).toContainText('Shift+← / Shift+→')
    await page.keyboard.press('Escape')
    await expect(dialog).toBeHidden()
  })

  test('every control is reachable with Tab and shows its focus', async ({ page }) => {
    await page.keyboard.press('Tab')
    const first = page.locator(':focus')
    await expect(first).toBeVisible()
    const outline = await first.evaluate((element) => getComputedStyle(element).outlineStyle)
    expect(outline).not.toBe('none')
  })
})

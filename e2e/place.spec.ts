import { expect, test } from '@playwright/test'
import { corpusFile, expectPosition, idle, openApp, openFile } from './helpers'

test('reload returns to the same example, stream and cursor', async ({ page }) => {
  await openApp(page, '#ex=straggler')
  await page.keyboard.press('Home')
  await page.keyboard.press('ArrowRight')
  await page.keyboard.press('ArrowRight')
  await page.keyboard.press('ArrowRight')
  await expect(page).toHaveURL(/#ex=straggler&s=stream&k=3$/)
  await page.reload()
  await idle(page)
  await expectPosition(page, 3, 8)
})

test('a file opened from disk survives a reload', async ({ page }) => {
  await openApp(page)
  await openFile(page, corpusFile('acp-agent-empty-response-retry-session.jsonl'))
  await page.getByRole('tree', { name: 'Streams' }).getByRole('treeitem', { name: /a2/ }).click()
  await idle(page)
  // Focus is in the outline tree now, whose arrow keys move through the tree: use the transport buttons.
  await page.getByRole('button', { name: 'First' }).click()
  await page.getByRole('button', { name: 'Next chunk' }).click()
  await expect(page).toHaveURL(/#f=acp-agent-empty-response-retry-session\.jsonl&s=t1\.s1\.a2&k=1$/)
  await page.reload()
  await idle(page)
  await expectPosition(page, 1)
  await expect(page.getByRole('treeitem', { name: /a2/ })).toHaveAttribute('aria-selected', 'true')
})

test('back and forward move between streams', async ({ page }) => {
  await openApp(page, '#ex=seed')
  await page.getByText('Examples ▾').click()
  await page.getByRole('menuitem', { name: /straggler/i }).click()
  await idle(page)
  await expect(page).toHaveURL(/#ex=straggler/)
  await page.goBack()
  await idle(page)
  await expect(page).toHaveURL(/#ex=seed/)
  await expect(page.getByRole('region', { name: 'Final message' })).toContainText('runoob')
  await page.goForward()
  await idle(page)
  await expect(page.getByRole('region', { name: 'Final message' })).toContainText('42 passed')
})

import { expect, test } from '@playwright/test'
import { corpusFile, dropFile, expectPosition, idle, openApp, openFile, readCorpus } from './helpers'

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
  await page.keyboard.press('End') // a lesson opens at its first chunk
  await expect(page.getByRole('region', { name: 'Final message' })).toContainText('runoob')
  await page.goForward()
  await idle(page)
  await page.keyboard.press('End')
  await expect(page.getByRole('region', { name: 'Final message' })).toContainText('42 passed')
})

test('a `#f=` link in a browser without the file names it, and dropping it opens the link’s place', async ({
  page,
}) => {
  const name = 'web-cordis-tool-round-legacy-session.jsonl'
  await openApp(page, `#f=${name}&s=t1.s2.a1&k=3`)
  const notice = page.getByRole('alert')
  await expect(notice).toContainText(`${name} is not open in this browser`)
  await expect(notice).toContainText('drop it here to open stream t1.s2.a1 at position 3')
  await dropFile(page, name, readCorpus(name))
  await expect(page).toHaveURL(new RegExp(`#f=${name.replaceAll('.', '\\.')}&s=t1\\.s2\\.a1&k=3$`))
  await expectPosition(page, 3)
})

test('a reload after a paste asks for the paste again, and the next paste lands on the same place', async ({
  page,
}) => {
  const text = readCorpus('acp-agent-empty-response-retry-session.jsonl')
  await openApp(page)
  await page.getByRole('button', { name: 'Paste' }).click()
  await page.getByLabel('Paste box').fill(text)
  await page.getByRole('button', { name: 'Load' }).click()
  await idle(page)
  await page.getByRole('tree', { name: 'Streams' }).getByRole('treeitem', { name: /a2/ }).click()
  await idle(page)
  await page.getByRole('button', { name: 'First' }).click()
  await page.getByRole('button', { name: 'Next chunk' }).click()
  await expect(page).toHaveURL(/#paste&s=t1\.s1\.a2&k=1$/)
  await page.reload()
  await idle(page)
  await expect(page.getByRole('alert')).toContainText(
    'the pasted text is gone (a reload does not keep pastes): paste it again to open stream t1.s1.a2 at position 1',
  )
  await page.getByRole('button', { name: 'Paste' }).click()
  await page.getByLabel('Paste box').fill(text)
  await page.getByRole('button', { name: 'Load' }).click()
  await idle(page)
  await expectPosition(page, 1)
  await expect(page).toHaveURL(/#paste&s=t1\.s1\.a2&k=1$/)
})

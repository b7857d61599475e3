import { expect, test } from '@playwright/test'

test('the page assembles the built-in example into the final message', async ({ page }) => {
  await page.goto('/')
  await expect(page.locator('[data-state="idle"]')).toBeVisible()
  await expect(page.getByRole('heading', { level: 1, name: 'Chunkscope' })).toBeVisible()
  // The example is a lesson: it opens at its first chunk; End applies everything.
  await page.keyboard.press('End')

  const finalMessage = page.getByRole('region', { name: 'Final message' })
  await expect(finalMessage).toContainText('runoob 教程')
  const toolCall = finalMessage.getByRole('article', { name: 'Block 1 · tool-call' })
  await expect(toolCall).toContainText('bash')
  await expect(toolCall).toContainText('call-123')
  await expect(toolCall).toContainText('{"command":"echo runoob"}')
  await expect(finalMessage).toContainText('usage in 100 / out 50')
  await expect(finalMessage).toContainText('finish tool-calls')
})

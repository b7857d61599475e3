import AxeBuilder from '@axe-core/playwright'
import { expect, test } from '@playwright/test'
import { idle, openApp, expectPresenterFills } from './helpers'

// The whole lesson as a teacher gives it: a Chinese browser, 200% zoom on a 1920×1080 screen (a 960×540 CSS-pixel
// viewport at device scale 2, what the browser's own zoom does), the straggler lesson (src/examples/lessons/
// straggler.json: 8 chunks, seq 5 the straggler), presented full screen, the class predicting a step, and the link
// that opens the same lesson, language and narration for someone whose browser is English.
test.use({ locale: 'zh-CN', viewport: { width: 960, height: 540 }, deviceScaleFactor: 2 })
test.describe.configure({ timeout: 120_000 })

test('a Chinese lesson presented full screen at 200%: the class predicts, and the link opens the same lesson', async ({
  page,
  browser,
}) => {
  await openApp(page, '#ex=straggler')
  await expect(page.locator('html')).toHaveAttribute('lang', 'zh-CN')
  await expect(page.getByLabel('位置')).toHaveText('0 / 8')
  await page.getByRole('button', { name: '演示' }).click()
  const narration = page.getByRole('region', { name: '讲解' })
  await expect(narration).toContainText('尚未应用任何分片')

  await page.getByRole('button', { name: '全屏（F）' }).click()
  await expectPresenterFills(page)
  expect(await page.evaluate(() => document.documentElement.scrollWidth <= window.innerWidth)).toBe(true)
  const axe = await new AxeBuilder({ page })
    .withTags(['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa', 'wcag22aa'])
    .analyze()
  expect(axe.violations.map((violation) => `${violation.id}: ${violation.nodes.length}`)).toEqual([])

  // Five steps, then the class is asked what seq 5 will do; stepping reveals it.
  for (let k = 0; k < 5; k++) await page.keyboard.press('ArrowRight')
  await page.getByRole('button', { name: '预测' }).click()
  const predict = page.getByRole('region', { name: '预测' })
  await expect(predict.getByRole('group', { name: 'seq 5（text-delta）会做什么？' })).toBeVisible()
  await predict.getByLabel('追加到块 0').check()
  await page.keyboard.press('ArrowRight')
  await expect(predict.getByTestId('predict-reveal')).toContainText('被忽略：块 0 已冻结（straggler）')
  await expect(narration).toContainText('适配器在 block-end 之后又发了一次')

  // Out of the presenter view, Share; the link opens in an English browser as the same Chinese lesson.
  await page.keyboard.press('p')
  await page.getByRole('button', { name: '分享', exact: true }).click()
  const dialog = page.getByRole('dialog')
  await expect(dialog.getByRole('region', { name: '链接' })).toHaveAttribute('aria-busy', 'false')
  const link = await dialog.getByLabel('链接文本').inputValue()
  const fresh = await browser.newContext({ locale: 'en-US' })
  const other = await fresh.newPage()
  await other.goto(link)
  await idle(other)
  await expect(other.locator('html')).toHaveAttribute('lang', 'zh-CN')
  await expect(other.getByLabel('位置')).toHaveText('6 / 8')
  await other.getByRole('button', { name: '演示' }).click()
  await expect(other.getByRole('region', { name: '讲解' })).toContainText('适配器在 block-end 之后又发了一次')
  await fresh.close()
})

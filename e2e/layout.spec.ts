import { expect, test, type Page } from '@playwright/test'
import { corpusFile, idle, openFile } from './helpers'

/**
 * Layouts that must hold for a class: a phone (390 px wide) and 200% browser zoom. Zoom is emulated as the browser
 * does it: the CSS viewport halves (1440×900 → 720×450 CSS px) while the device pixel ratio doubles, so media queries,
 * `vh` and every CSS length see what they see at 200% zoom. (CSS `zoom` on <html> would instead leave `vh` and media
 * queries at 100%, which is not what a zoomed browser does.)
 */
const SCREENS = [
  { name: '390 px phone', viewport: { width: 390, height: 844 }, deviceScaleFactor: 3 },
  { name: '200% zoom', viewport: { width: 720, height: 450 }, deviceScaleFactor: 2 },
] as const

const SESSION = 'acp-agent-parallel-tool-calls-session.jsonl'

async function expectNoHorizontalScroll(page: Page): Promise<void> {
  const { scrollWidth, innerWidth } = await page.evaluate(() => ({
    scrollWidth: document.documentElement.scrollWidth,
    innerWidth: window.innerWidth,
  }))
  expect(scrollWidth).toBeLessThanOrEqual(innerWidth)
}

for (const screen of SCREENS) {
  test.describe(screen.name, () => {
    test.use({ viewport: screen.viewport, deviceScaleFactor: screen.deviceScaleFactor })

    test(`the workbench fits without horizontal scrolling, with a usable timeline and slider (${screen.name})`, async ({
      page,
    }, testInfo) => {
      await page.goto('/#ex=straggler')
      await idle(page)
      await openFile(page, corpusFile(SESSION))
      await expectNoHorizontalScroll(page)

      const timeline = await page.getByRole('region', { name: 'Timeline' }).boundingBox()
      expect(timeline?.height ?? 0).toBeGreaterThan(100)
      const slider = await page.getByRole('slider', { name: 'Cursor' }).boundingBox()
      expect(slider?.width ?? 0).toBeGreaterThan(120)

      // The blocks, under the timeline in this layout, keep room for a card: the first block's title and the
      // start of its content lie inside the panel (the page may scroll to them; nothing squeezes the panel shut).
      const blocks = page.getByRole('region', { name: 'Blocks' })
      const blocksBox = await blocks.boundingBox()
      expect(blocksBox?.height ?? 0).toBeGreaterThan(100)
      const card = await blocks.getByText('Block 0', { exact: true }).boundingBox()
      expect(card).not.toBeNull()
      expect(card!.y + card!.height + 24).toBeLessThanOrEqual(blocksBox!.y + blocksBox!.height)

      // Every metric's label is read whole: none is cut to an ellipsis or runs out of its cell.
      const cut = await page
        .getByRole('region', { name: 'Metrics' })
        .locator('dt')
        .evaluateAll((labels) => labels.filter((label) => label.scrollWidth > label.clientWidth + 1).length)
      expect(cut).toBe(0)

      // The timeline's filters stay inside its panel: none overlaps the panel below it.
      const types = await page.getByRole('button', { name: /^Types/ }).boundingBox()
      expect(types).not.toBeNull()
      expect(types!.y + types!.height).toBeLessThanOrEqual(timeline!.y + timeline!.height)

      // Every language's labels fit too (Japanese and Chinese buttons are wider than the English ones).
      for (const lang of ['zh-CN', 'ja'] as const) {
        await page.getByRole('combobox', { name: /Language|语言|言語/ }).selectOption(lang)
        await expect(page.locator('html')).toHaveAttribute('lang', lang)
        await expectNoHorizontalScroll(page)
        await page.screenshot({ path: testInfo.outputPath(`${lang}.png`) })
      }
    })
  })
}

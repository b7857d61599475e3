import { expect, test } from '@playwright/test'
import { idle } from './helpers'

// The presenter view as a class sees it on a 1920×1080 projector, at 100% and at 200% browser zoom (a 960×540 CSS
// viewport at device scale 2 is what 200% zoom gives), light and dark. Screenshots go to the test's output folder.
for (const { name, viewport, scale } of [
  { name: '1920x1080', viewport: { width: 1920, height: 1080 }, scale: 1 },
  { name: 'zoom200', viewport: { width: 960, height: 540 }, scale: 2 },
]) {
  for (const scheme of ['light', 'dark'] as const) {
    test(`presenter view ${name} ${scheme}: narration, blocks and strip in view, nothing scrolls sideways`, async ({
      browser,
    }, info) => {
      const context = await browser.newContext({
        viewport,
        deviceScaleFactor: scale,
        colorScheme: scheme,
        locale: 'en-US',
      })
      const page = await context.newPage()
      await page.goto('/#ex=seed&s=stream&k=5')
      await idle(page)
      await page.getByRole('button', { name: 'Present' }).click()
      await page.getByRole('button', { name: 'Predict' }).click()
      const blocks = await page.getByRole('region', { name: 'Blocks' }).boundingBox()
      const narration = await page.getByRole('region', { name: 'Narration' }).boundingBox()
      const strip = await page.getByRole('navigation', { name: 'Chunks' }).boundingBox()
      expect(narration!.height).toBeGreaterThan(40)
      expect(blocks!.height).toBeGreaterThan(scale === 1 ? 300 : 150)
      // Nothing overlaps: narration above the blocks, both in the lesson's scrolling part, which ends above the
      // strip; the strip (and the transport under it) stay on screen at any zoom.
      const lesson = await page.locator('[data-presenter-scroll]').boundingBox()
      expect(narration!.y + narration!.height).toBeLessThanOrEqual(blocks!.y + 1)
      expect(blocks!.y).toBeLessThan(lesson!.y + lesson!.height)
      if (scale === 1) expect(blocks!.y + blocks!.height).toBeLessThanOrEqual(lesson!.y + lesson!.height + 1)
      expect(lesson!.y + lesson!.height).toBeLessThanOrEqual(strip!.y + 1)
      expect(strip!.y + strip!.height).toBeLessThanOrEqual(viewport.height)
      const sideways = await page.evaluate(
        () => document.documentElement.scrollWidth - document.documentElement.clientWidth,
      )
      expect(sideways).toBeLessThanOrEqual(0)
      await page.screenshot({ path: info.outputPath(`presenter-${name}-${scheme}.png`) })
      await context.close()
    })
  }
}

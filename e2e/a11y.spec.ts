import AxeBuilder from '@axe-core/playwright'
import { expect, test, type Page } from '@playwright/test'
import { corpusFile, openApp, openFile } from './helpers'

// A hang guard, not a speed test: one axe pass over the full workbench takes seconds on a loaded 2-core machine.
test.describe.configure({ timeout: 120_000 })

/** WCAG 2.0–2.2 A and AA: the level the README claims (and only for the screens checked here). */
const WCAG_AA = ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa', 'wcag22aa']

/** axe's violations as one line per node (rule, impact, target, message), so a failure says what to fix. */
async function violations(page: Page): Promise<string[]> {
  const result = await new AxeBuilder({ page }).withTags(WCAG_AA).analyze()
  return result.violations.flatMap((violation) =>
    violation.nodes.map(
      (node) =>
        `${violation.id} (${violation.impact ?? '?'}) ${node.target.join(' ')}: ${node.failureSummary ?? ''}`,
    ),
  )
}

// A corpus session with parallel tool calls: outline, lanes, timeline, blocks with JSON trees, findings, metrics.
const SESSION = 'acp-agent-parallel-tool-calls-session.jsonl'

for (const scheme of ['light', 'dark'] as const) {
  test.describe(`${scheme}`, () => {
    test.use({ colorScheme: scheme })

    test(`the workbench with a corpus session has no axe violations (${scheme})`, async ({ page }) => {
      await openApp(page)
      await openFile(page, corpusFile(SESSION))
      // A cursor mid-stream: partial blocks, the latest delta highlighted, a growing JSON tree.
      await page.getByRole('button', { name: 'First' }).click()
      for (let i = 0; i < 6; i++) await page.getByRole('button', { name: 'Next chunk' }).click()
      expect(await violations(page)).toEqual([])
      await page.getByRole('button', { name: 'Last' }).click()
      expect(await violations(page)).toEqual([])
    })

    test(`the Share dialog has no axe violations (${scheme})`, async ({ page }) => {
      await openApp(page, '#ex=straggler')
      const opener = page.getByRole('button', { name: 'Share', exact: true })
      await opener.click()
      const dialog = page.getByRole('dialog', { name: 'Share' })
      await expect(dialog.getByRole('region', { name: 'Link' })).toHaveAttribute('aria-busy', 'false')
      expect(await violations(page)).toEqual([])
      await dialog.getByRole('button', { name: 'Close' }).click()
      // Focus goes back to the button that opened the dialog.
      await expect(opener).toBeFocused()
    })

    test(`the presenter view has no axe violations (${scheme})`, async ({ page }) => {
      await openApp(page, '#ex=straggler')
      await page.getByRole('button', { name: 'Present' }).click()
      await expect(page.getByRole('region', { name: 'Narration' })).toBeVisible()
      await page.getByRole('button', { name: 'Next chunk' }).first().click()
      expect(await violations(page)).toEqual([])
      // With the class asked to predict the next step.
      await page.getByRole('button', { name: 'Predict' }).click()
      expect(await violations(page)).toEqual([])
    })

    test(`the Live panel has no axe violations (${scheme})`, async ({ page }) => {
      await openApp(page, '#ex=straggler')
      await page.getByRole('button', { name: 'Live' }).click()
      await expect(page.getByRole('region', { name: 'Live' })).toBeVisible()
      expect(await violations(page)).toEqual([])
    })
  })
}

test('the Examples menu works from the keyboard and gives focus back to its button', async ({ page }) => {
  await openApp(page, '#ex=seed')
  const button = page.getByText('Examples ▾')
  await button.focus()
  await page.keyboard.press('Enter')
  const items = page.getByRole('menu', { name: 'Examples' }).getByRole('menuitem')
  await expect(items.first()).toBeFocused()
  await page.keyboard.press('ArrowDown')
  await expect(items.nth(1)).toBeFocused()
  await page.keyboard.press('End')
  await expect(items.last()).toBeFocused()
  await page.keyboard.press('ArrowDown')
  await expect(items.first()).toBeFocused()
  await page.keyboard.press('ArrowUp')
  await expect(items.last()).toBeFocused()
  await page.keyboard.press('Home')
  await expect(items.first()).toBeFocused()
  // The arrows moved through the menu, not the cursor.
  await expect(page.getByLabel('Position')).toHaveText(/^\d+ \/ \d+$/)
  await page.keyboard.press('Escape')
  await expect(button).toBeFocused()
  await expect(items.first()).toBeHidden()

  // Choosing an item opens its lesson and leaves focus on the button, not on the page's body.
  await page.keyboard.press('ArrowDown')
  await expect(items.first()).toBeFocused()
  await page.keyboard.press('ArrowDown')
  await page.keyboard.press('Enter')
  await expect(page).toHaveURL(/ex=seed-ja/)
  await expect(button).toBeFocused()
})

test('the narration is a polite live region that follows playback', async ({ page }) => {
  await openApp(page, '#ex=straggler&k=0')
  const narration = page.getByLabel('Explanation')
  await expect(narration).toHaveAttribute('aria-live', 'polite')
  await expect(narration).toHaveText(/^Nothing applied yet/)
  await page.getByRole('button', { name: 'Play' }).click()
  await expect(narration).toHaveText(/^seq \d+: /)
  await expect(page.getByLabel('Position')).toHaveText(/^(\d+) \/ \1$/)
  await expect(narration).toHaveText(/finish/)
})

import { expect, type Page } from '@playwright/test'

/** The corpus of real harness logs in fixtures/dsh, from the one definition the unit tests use too. */
export { corpusFiles, corpusPath as corpusFile, readCorpus } from '../src/test/corpus'

/** Waits for the app's own idle signal: a source is on screen and nothing is loading. */
export async function idle(page: Page): Promise<void> {
  await expect(page.locator('#root > [data-state]')).toHaveAttribute('data-state', 'idle', {
    timeout: 60_000,
  })
}

export async function openApp(page: Page, hash = ''): Promise<void> {
  await page.goto(`/${hash}`)
  await idle(page)
}

/**
 * Waits until the open that `start` begins has ended (shown or failed), then for idle. The idle state alone can
 * still be the previous source's when the new open has not begun loading yet; the root's `data-opens` counts the
 * opens that ended.
 */
export async function afterOpen(page: Page, start: () => Promise<void>): Promise<void> {
  const root = page.locator('#root > [data-state]')
  const before = (await root.getAttribute('data-opens')) ?? '0'
  await start()
  await expect(root).not.toHaveAttribute('data-opens', before, { timeout: 60_000 })
  await idle(page)
}

/** Loads a file through the "Open file" input, as a user choosing it in the file dialog. */
export async function openFile(page: Page, path: string): Promise<void> {
  await afterOpen(page, () => page.getByLabel('Open file', { exact: true }).setInputFiles(path))
}

/** Drops a file on the page with a real `drop` event carrying a DataTransfer, as dragging from the desktop does. */
export async function dropFile(page: Page, name: string, content: string): Promise<void> {
  const dataTransfer = await page.evaluateHandle(
    ({ name, content }) => {
      const transfer = new DataTransfer()
      transfer.items.add(new File([content], name, { type: 'application/x-ndjson' }))
      return transfer
    },
    { name, content },
  )
  await afterOpen(page, async () => {
    await page.dispatchEvent('body', 'dragenter', { dataTransfer })
    await page.dispatchEvent('body', 'dragover', { dataTransfer })
    await page.dispatchEvent('body', 'drop', { dataTransfer })
  })
}

/** The "k / N" readout of the transport bar. */
export async function expectPosition(page: Page, k: number, total?: number): Promise<void> {
  const position = page.getByLabel('Position')
  await expect(position).toHaveText(total === undefined ? new RegExp(`^${k} / \\d+$`) : `${k} / ${total}`)
}

/**
 * Every row of the virtualized outline (only the rows in view exist at a time): scrolls the tree from top to
 * bottom and collects each treeitem's key, title and text once.
 */
export async function outlineRows(
  page: Page,
): Promise<
  { readonly key: string; readonly title: string; readonly text: string; readonly group: boolean }[]
> {
  return page.getByRole('tree', { name: 'Streams' }).evaluate(async (tree) => {
    const scroller = tree.parentElement!
    const rows = new Map<string, { key: string; title: string; text: string; group: boolean }>()
    const frame = () => new Promise((resolve) => requestAnimationFrame(() => requestAnimationFrame(resolve)))
    for (let top = 0; ; top += Math.max(1, scroller.clientHeight - 24)) {
      scroller.scrollTop = top
      await frame()
      for (const row of tree.querySelectorAll<HTMLElement>('[role="treeitem"]')) {
        const key = row.dataset['key'] ?? ''
        rows.set(key, {
          key,
          title: row.title,
          text: row.textContent ?? '',
          group: row.hasAttribute('aria-expanded'),
        })
      }
      if (top + scroller.clientHeight >= scroller.scrollHeight) break
    }
    return [...rows.values()]
  })
}

/** The presenter's full screen took: headless Chromium may grant or refuse the Fullscreen API, so either the page
 * is full screen or the presenter view fills the window. */
export async function expectPresenterFills(page: Page): Promise<void> {
  await expect
    .poll(() =>
      page.evaluate(
        () =>
          document.fullscreenElement !== null || document.querySelector('[data-presenter="window"]') !== null,
      ),
    )
    .toBe(true)
}

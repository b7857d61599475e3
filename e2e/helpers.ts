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

/** Loads a file through the "Open file" input, as a user choosing it in the file dialog. */
export async function openFile(page: Page, path: string): Promise<void> {
  await page.getByLabel('Open file', { exact: true }).setInputFiles(path)
  await idle(page)
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
  await page.dispatchEvent('body', 'dragenter', { dataTransfer })
  await page.dispatchEvent('body', 'dragover', { dataTransfer })
  await page.dispatchEvent('body', 'drop', { dataTransfer })
  await idle(page)
}

/** The "k / N" readout of the transport bar. */
export async function expectPosition(page: Page, k: number, total?: number): Promise<void> {
  const position = page.getByLabel('Position')
  await expect(position).toHaveText(total === undefined ? new RegExp(`^${k} / \\d+$`) : `${k} / ${total}`)
}

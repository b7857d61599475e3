import { writeFileSync } from 'node:fs'
import { expect, test } from '@playwright/test'
import { streamAsSessionLog, toSessionJsonl } from '../src/formats/export/sessionJsonl'
import { loadSource } from '../src/formats/load'
import { generateStream } from '../src/test/generate'
import { idle, openApp } from './helpers'

test('a session log of a few MiB, read in pieces while it loads, shows what the whole text gives', async ({
  page,
}, testInfo) => {
  test.setTimeout(120_000)
  // CRLF line ends and 2-, 3- and 4-byte characters throughout, and a torn line past the first MiB, so that the
  // pieces' line numbers and characters are checked where the page shows them.
  const lines = toSessionJsonl(streamAsSessionLog(generateStream(150_000)))
    .replaceAll('zebra', 'zébra😀')
    .split('\n')
  let length = 0
  const torn = lines.findIndex((line) => (length += line.length + 2) > 1_500_000)
  lines.splice(torn, 0, '{"type":"turn/start","seq":')
  const text = lines.join('\r\n')
  expect(new TextEncoder().encode(text).length).toBeGreaterThan(2 << 20)
  const expected = loadSource(text, 'pieces.jsonl').diagnostics.find((d) => d.line === torn + 1)
  expect(expected).toBeDefined()
  const path = testInfo.outputPath('pieces.jsonl')
  writeFileSync(path, text)

  await openApp(page)
  await page.getByLabel('Open file', { exact: true }).setInputFiles(path)
  await idle(page)
  await expect(page.getByRole('region', { name: 'Diagnostics' })).toContainText(expected!.message)
  await expect(page.getByRole('region', { name: 'Final message' })).toContainText('zébra😀')
})

import { writeFileSync } from 'node:fs'
import { expect, test } from '@playwright/test'
import { compareRecorded } from '../src/core/session'
import { loadSource } from '../src/formats/load'
import { listStreams } from '../src/formats/streamRefs'
import { generateStream } from '../src/test/generate'
import { generateSessionLog } from '../src/test/generateSession'
import { corpusFile, expectPosition, openApp, openFile, readCorpus } from './helpers'

const LEGACY = 'web-cordis-tool-round-legacy-session.jsonl'

test('the outline filter "✗ only" shows exactly the attempts whose recorded message differs', async ({
  page,
}) => {
  // Worked out here from the file, apart from the app: the attempts whose recorded comparison fails.
  const source = loadSource(readCorpus(LEGACY), LEGACY)
  const differing = listStreams(source)
    .filter((entry) => compareRecorded(entry.attempt)?.match === false)
    .map((entry) => entry.key)
  expect(differing.length).toBeGreaterThan(0)

  await openApp(page)
  await openFile(page, corpusFile(LEGACY))
  const tree = page.getByRole('tree', { name: 'Streams' })
  await page.getByLabel('Show attempts').selectOption({ label: '✗ only' })
  const attempts = tree.locator('[role="treeitem"]:not([aria-expanded])')
  await expect(attempts).toHaveCount(differing.length)
  expect(await attempts.evaluateAll((rows) => rows.map((row) => row.getAttribute('data-key')))).toEqual(
    differing,
  )
  for (const row of await attempts.all()) await expect(row).toContainText('✗')
  await expect(page.getByRole('region', { name: 'Outline' })).toContainText(
    `${differing.length} of ${listStreams(source).length} streams`,
  )
  // Groups keep aria-expanded; attempts never carry it.
  for (const group of await tree.locator('[aria-expanded]').all())
    await expect(group).toHaveAttribute('aria-level')
})

test('a big outline is virtualized, searchable and keyboard operable', async ({ page }, testInfo) => {
  const generated = generateSessionLog({ targetChars: 3_000_000, deltas: 30 })
  const path = testInfo.outputPath('long-session.jsonl')
  writeFileSync(path, generated.text)
  await openApp(page)
  await openFile(page, path)
  const tree = page.getByRole('tree', { name: 'Streams' })
  await page.getByRole('button', { name: 'Expand all' }).click()
  // Thousands of nodes, a few dozen in the DOM; the last one is reached by End.
  const rendered = await tree.getByRole('treeitem').count()
  expect(rendered).toBeLessThan(120)
  await tree.locator('[role="treeitem"][tabindex="0"]').focus()
  await page.keyboard.press('End')
  const last = `t${generated.turns}.s4.a1`
  await expect(page.locator(':focus')).toHaveAttribute('role', 'treeitem')
  // The last step's rows: the attempt, the tool call and its result (focused by End).
  await page.keyboard.press('ArrowUp')
  await page.keyboard.press('ArrowUp')
  await expect(page.locator(':focus')).toHaveAttribute('data-key', last)
  await page.keyboard.press('Enter')
  await expect(page.locator(':focus')).toHaveAttribute('aria-selected', 'true')

  await page.getByRole('button', { name: 'Collapse all' }).click()
  // Only turns are left, all closed; the set size says how many there are while a few are rendered.
  await expect(tree.locator('[aria-level="2"]')).toHaveCount(0)
  await expect(tree.getByRole('treeitem').first()).toHaveAttribute('aria-setsize', String(generated.turns))
  await expect(tree.locator('[aria-expanded="true"]')).toHaveCount(0)
  await page.getByLabel('Search the outline').fill(`Turn ${generated.turns}`)
  await expect(tree.locator('[aria-level="1"]')).toHaveCount(1)
  await expect(tree.locator(`[data-key="${last}"]`)).toBeVisible()
  await page.getByLabel('Search the outline').fill('edit_file')
  const calls = tree.locator('[role="treeitem"]:not([aria-expanded])')
  await expect(calls.first()).toContainText('tool/call edit_file')
})

test('search finds a tool-call id in a worker: "1 of N", the cursor on the hit, Enter / Shift+Enter', async ({
  page,
}, testInfo) => {
  const lines = generateStream(30_000, 40).map(({ chunk }) => JSON.stringify(chunk))
  const path = testInfo.outputPath('stream.ndjson')
  writeFileSync(path, lines.join('\n') + '\n')
  // Counted on the file's own lines: the chunks that carry the id (its deltas and its block-end).
  const query = 'CALL_101'
  const hits = lines.flatMap((line, pos) => (/call_101/i.test(line) ? [pos] : []))
  expect(hits.length).toBeGreaterThan(2)

  await openApp(page)
  await openFile(page, path)
  await page.keyboard.press('Home')
  await page.getByRole('searchbox', { name: 'Search payloads' }).fill(query)
  const matches = page.getByLabel('Search matches')
  await expect(matches).toHaveText(`1 of ${hits.length}`)
  await expectPosition(page, hits[0]! + 1, 30_000)
  const timeline = page.getByRole('region', { name: 'Timeline' })
  await expect(timeline.locator(`[data-pos="${hits[0]}"]`)).toHaveAttribute('aria-current', 'step')

  await page.keyboard.press('Enter')
  await expect(matches).toHaveText(`2 of ${hits.length}`)
  await expectPosition(page, hits[1]! + 1, 30_000)
  await page.keyboard.press('Shift+Enter')
  await page.keyboard.press('Shift+Enter')
  await expect(matches).toHaveText(`${hits.length} of ${hits.length}`)
  await expectPosition(page, hits.at(-1)! + 1, 30_000)

  await page.getByRole('searchbox', { name: 'Search payloads' }).fill('no such text anywhere')
  await expect(matches).toHaveText('no matches')
})

test('lanes by keyboard: arrows move the cursor, W/S zoom, Shift+→ brushes a range whose figures match the file', async ({
  page,
}, testInfo) => {
  // Some 70 key presses: on a loaded machine they outlast the default 30 s.
  test.setTimeout(90_000)
  const lines = generateStream(3_000, 40).map(({ chunk }) => JSON.stringify(chunk))
  const path = testInfo.outputPath('lanes.ndjson')
  writeFileSync(path, lines.join('\n') + '\n')
  await openApp(page)
  await openFile(page, path)
  await page.keyboard.press('Home')
  const lanes = page.getByRole('slider', { name: 'Block lanes' })
  await lanes.focus()
  for (let i = 0; i < 3; i++) await page.keyboard.press('ArrowRight')
  await expectPosition(page, 3, 3_000)
  await expect(lanes).toHaveAttribute('aria-valuenow', '3')

  const reset = page.getByRole('button', { name: 'Reset zoom' })
  await page.keyboard.press('w')
  await expect(reset).toBeVisible()
  await page.keyboard.press('d')
  await page.keyboard.press('s')
  await page.keyboard.press('-')
  await expect(reset).toHaveCount(0)
  // Ctrl+wheel over the lanes zooms too, around the pointer.
  const box = (await lanes.boundingBox())!
  await page.mouse.move(box.x + box.width / 2, box.y + box.height / 2)
  await page.keyboard.down('Control')
  await page.mouse.wheel(0, -400)
  await page.keyboard.up('Control')
  await expect(reset).toBeVisible()
  await reset.click()

  await lanes.focus()
  for (let i = 0; i < 20; i++) await page.keyboard.press('Shift+ArrowRight')
  // The cursor followed the brush's moving end; the brush holds chunks 3…22.
  await expectPosition(page, 23, 3_000)
  const chunks = lines.slice(3, 23).map((line) => JSON.parse(line) as Record<string, unknown>)
  const chars = chunks.reduce(
    (n, c) =>
      n + (String(c['type']).endsWith('-delta') ? String(c['text'] ?? c['argumentsDelta'] ?? '').length : 0),
    0,
  )
  const selection = page.getByLabel('Selection', { exact: true })
  await expect(selection).toContainText(`seq 3–22 · 20 chunks · ${chars} chars`)
  await page.getByText('by type, block').click()
  const byType = page.getByRole('table', { name: 'Selection by type' })
  const deltas = chunks.filter((c) => c['type'] === 'reasoning-delta').length
  await expect(byType.getByRole('row', { name: 'reasoning-delta' })).toContainText(String(deltas))
  await lanes.focus()
  await page.keyboard.press('Escape')
  await expect(selection).toHaveCount(0)
  await expectPosition(page, 23, 3_000)
})

test('stepping past the timeline’s last visible row centres the cursor, so the chunks still to come are in view', async ({
  page,
}) => {
  await openApp(page)
  await openFile(page, corpusFile('web-goal-multi-turn-actions-session.jsonl'))
  const grid = page.locator('.timeline-grid')
  const box = (await grid.boundingBox())!
  const inView = async (locator: ReturnType<typeof page.locator>) => {
    const row = await locator.boundingBox()
    return row !== null && row.y >= box.y && row.y + row.height <= box.y + box.height
  }
  await page.locator('body').click({ position: { x: 1, y: 1 } })
  await page.keyboard.press('Home')
  const current = grid.locator('[aria-current="step"]')
  // Step until the view has had to move once: the cursor's row is then in the middle of the view, not on its edge.
  let steps = 0
  let before = await grid.evaluate((el) => el.scrollTop)
  while ((await grid.evaluate((el) => el.scrollTop)) === before && steps < 200) {
    await page.keyboard.press('ArrowRight')
    steps += 1
    await expectPosition(page, steps)
  }
  expect(steps).toBeLessThan(200)
  const row = Number(await current.getAttribute('aria-rowindex'))
  await expect.poll(() => inView(current)).toBe(true)
  const middle = (await current.boundingBox())!
  expect(Math.abs(middle.y + middle.height / 2 - (box.y + box.height / 2))).toBeLessThan(box.height / 4)
  // Several of the next rows are on screen, and stepping onto them does not scroll.
  for (const next of [1, 2, 3])
    expect(await inView(grid.locator(`[aria-rowindex="${row + next}"]`))).toBe(true)
  before = await grid.evaluate((el) => el.scrollTop)
  for (let i = 1; i <= 3; i++) {
    await page.keyboard.press('ArrowRight')
    await expectPosition(page, steps + i)
  }
  expect(await grid.evaluate((el) => el.scrollTop)).toBe(before)
})

import { readFileSync, writeFileSync } from 'node:fs'
import { expect, test, type Page } from '@playwright/test'
import { dropFile, expectPosition, idle, openApp, openFile, expectPresenterFills } from './helpers'

// The straggler lesson (src/examples/lessons/straggler.json): bs0, td0 ×3, be0 (seq 4), td0 straggler (seq 5), usage,
// finish — 8 chunks; narration on seqs 4 and 5.
const STRAGGLER_NARRATION = /re-sends “0 failed.” after the block-end: a straggler/

const narration = (page: Page) => page.getByRole('region', { name: 'Narration' })

async function present(page: Page) {
  await page.getByRole('button', { name: 'Present' }).click()
  await expect(narration(page)).toBeVisible()
}

test('a lesson opens at k = 0; the presenter view narrates each step in the lesson’s words', async ({
  page,
}) => {
  await openApp(page, '#ex=straggler')
  await expectPosition(page, 0, 8)
  await present(page)
  await expect(narration(page)).toContainText('Nothing applied yet')
  for (let k = 0; k < 5; k++) await page.keyboard.press('ArrowRight')
  await expect(page.getByTestId('font-scale')).toHaveText('150%')
  await expect(narration(page).getByTestId('lesson-narration')).toHaveText(
    'block-end freezes block 0 as “All tests pass: 42 passed, 0 failed.”',
  )
  await expect(narration(page).getByTestId('engine-narration')).toContainText(
    'seq 4: block-end froze block 0',
  )
  await page.keyboard.press('ArrowRight')
  await expect(narration(page)).toContainText(STRAGGLER_NARRATION)
  // The blocks stay in the middle, the timeline is a strip with the current chunk marked.
  await expect(page.getByRole('region', { name: 'Blocks' })).toContainText(
    'All tests pass: 42 passed, 0 failed.',
  )
  await expect(page.getByRole('navigation', { name: 'Chunks' }).locator('[aria-current="step"]')).toHaveText(
    '5 text-delta',
  )
  // The language switch changes the narration to the lesson's Chinese.
  await page.getByRole('combobox', { name: 'Language' }).selectOption('zh-CN')
  await expect(page.getByRole('region', { name: '讲解' })).toContainText('适配器在 block-end 之后又发了一次')
  await page.getByRole('combobox', { name: '语言' }).selectOption('en')
  // P leaves and enters the presenter view.
  await page.keyboard.press('p')
  await expect(narration(page)).toHaveCount(0)
  await page.keyboard.press('p')
  await expect(narration(page)).toBeVisible()
})

test('the presenter’s type size persists across a reload', async ({ page }) => {
  await openApp(page, '#ex=seed')
  await present(page)
  const rootSize = () => page.evaluate(() => getComputedStyle(document.documentElement).fontSize)
  expect(await rootSize()).toBe('24px')
  await page.getByRole('button', { name: 'Larger type (+)' }).click()
  await page.keyboard.press('+')
  await expect(page.getByTestId('font-scale')).toHaveText('200%')
  expect(await rootSize()).toBe('32px')
  await page.reload()
  await idle(page)
  await present(page)
  await expect(page.getByTestId('font-scale')).toHaveText('200%')
  expect(await rootSize()).toBe('32px')
  await page.getByRole('button', { name: 'Exit presenter' }).click()
  expect(await rootSize()).toBe('16px')
})

test('predict: the class chooses, stepping reveals what the replay did', async ({ page }) => {
  await openApp(page, '#ex=straggler&s=stream&k=5')
  await present(page)
  await page.getByRole('button', { name: 'Predict' }).click()
  const predict = page.getByRole('region', { name: 'Predict' })
  await expect(predict.getByRole('group', { name: 'What will seq 5 (text-delta) do?' })).toBeVisible()
  const choices = predict.getByRole('radio')
  await expect(choices).toHaveCount(3)
  await predict.getByLabel('append to block 0').check()
  await page.keyboard.press('ArrowRight')
  await expect(predict.getByTestId('predict-reveal')).toHaveText(
    'seq 5 did: be ignored: block 0 is already frozen (a straggler). Not this time: the guess was “append to block 0”.',
  )
  await predict.getByLabel('set the token usage').check()
  await page.keyboard.press('ArrowRight')
  await expect(predict.getByTestId('predict-reveal')).toHaveText('seq 6 did: set the token usage. Right!')
})

test('a second window follows the presenter as its notes (BroadcastChannel) and can step it', async ({
  page,
  context,
}) => {
  await openApp(page, '#ex=straggler')
  await present(page)
  const notes = await context.newPage()
  await notes.goto('/?notes')
  await expect(notes.getByTestId('notes-position')).toHaveText('0 / 8')
  await expect(notes.getByTestId('notes-answer')).toHaveText('It will open block 0.')
  for (let k = 0; k < 5; k++) await page.keyboard.press('ArrowRight')
  await expect(notes.getByTestId('notes-position')).toHaveText('5 / 8')
  await expect(notes.getByRole('region', { name: 'Next: seq 5' })).toContainText(STRAGGLER_NARRATION)
  await expect(notes.getByTestId('notes-answer')).toHaveText(
    'It will be ignored: block 0 is already frozen (a straggler).',
  )
  await notes.getByRole('button', { name: /Next chunk/ }).click()
  await expectPosition(page, 6, 8)
  await expect(notes.getByTestId('notes-position')).toHaveText('6 / 8')
})

test('a share link carries the narration and opens the same lesson', async ({ page, browser }) => {
  await openApp(page, '#ex=straggler&s=stream&k=6')
  await page.getByRole('button', { name: 'Share', exact: true }).click()
  const dialog = page.getByRole('dialog', { name: 'Share' })
  await expect(dialog.getByRole('region', { name: 'Link' })).toHaveAttribute('aria-busy', 'false')
  const link = await dialog.getByLabel('Link text').inputValue()
  const fresh = await browser.newContext({ locale: 'ja-JP' })
  const other = await fresh.newPage()
  await other.goto(link)
  await idle(other)
  await expect(other.getByLabel('位置')).toHaveText('6 / 8')
  await other.getByRole('button', { name: 'プレゼン' }).click()
  await expect(other.getByRole('region', { name: '解説' })).toContainText(
    'アダプターが block-end の後に「0 failed.」を再送します',
  )
  await fresh.close()
})

test('a Markdown lesson dropped on the page opens at k = 0 with its narration; a snippet’s comments narrate', async ({
  page,
}) => {
  await openApp(page)
  const chunks = [
    { type: 'block-start', index: 0, blockType: 'text' },
    { type: 'text-delta', index: 0, text: 'Hello' },
    { type: 'finish', reason: { kind: 'stop' } },
  ]
  const lesson = `---\nlesson: 1\ntitle: Hello lesson\n---\n\`\`\`chunks\n${chunks.map((c) => JSON.stringify(c)).join('\n')}\n\`\`\`\n## seq 1\nThe greeting arrives.\n`
  await dropFile(page, 'hello.lesson.md', lesson)
  await expectPosition(page, 0, 3)
  await present(page)
  await expect(page.getByRole('heading', { name: 'Hello lesson' })).toBeVisible()
  await page.keyboard.press('ArrowRight')
  await page.keyboard.press('ArrowRight')
  await expect(narration(page).getByTestId('lesson-narration')).toHaveText('The greeting arrives.')
  const snippet = readFileSync(
    new URL('../src/formats/fixtures/seed-000-example-chunks-gutter.txt', import.meta.url),
    'utf8',
  )
  await dropFile(page, 'article.txt', snippet)
  await expectPosition(page, 0, 9)
  await page.keyboard.press('ArrowRight')
  await expect(narration(page).getByTestId('lesson-narration')).toHaveText('1. 开启一个文本块，index 为 0')
})

test('captions export as WebVTT that Chromium’s own parser reads, one cue per narrated seq', async ({
  page,
}) => {
  await openApp(page, '#ex=seed')
  await present(page)
  const download = page.waitForEvent('download')
  await page.getByRole('button', { name: 'Captions (.vtt)' }).click()
  const file = await download
  expect(file.suggestedFilename()).toMatch(/\.en\.vtt$/)
  const text = readFileSync((await file.path())!, 'utf8')
  const cues = await page.evaluate(async (vtt) => {
    const video = document.createElement('video')
    const track = document.createElement('track')
    track.src = URL.createObjectURL(new Blob([vtt], { type: 'text/vtt' }))
    track.default = true
    video.append(track)
    document.body.append(video)
    await new Promise((resolve, reject) => {
      track.onload = resolve
      track.onerror = reject
    })
    const list = [...(track.track.cues ?? [])] as VTTCue[]
    video.remove()
    return list.map((cue) => ({ id: cue.id, start: cue.startTime, text: cue.text }))
  }, text)
  expect(cues.map((c) => c.id)).toEqual(['seq-0', 'seq-1', 'seq-3', 'seq-4', 'seq-5', 'seq-7', 'seq-8'])
  expect(cues[1]).toEqual({ id: 'seq-1', start: 3, text: expect.stringContaining('“runoob”') })
})

test('a lesson file opened with Open file starts at k = 0; full screen is taken or the view fills the window', async ({
  page,
}, info) => {
  await openApp(page)
  const path = info.outputPath('straggler.lesson.json')
  writeFileSync(path, readFileSync(new URL('../src/examples/lessons/straggler.json', import.meta.url)))
  await openFile(page, path)
  await expectPosition(page, 0, 8)
  await present(page)
  await page.getByRole('button', { name: 'Full screen (F)' }).click()
  await expectPresenterFills(page)
  await expect(page.getByRole('button', { name: 'Full screen (F)' })).toHaveAttribute('aria-pressed', 'true')
})

import { readFileSync } from 'node:fs'
import { fileURLToPath } from 'node:url'
import { expect, test } from '@playwright/test'
import { corpusFile, dropFile, idle, openApp } from './helpers'

test('the language switch translates the page, sets <html lang>, and is kept in the URL and across a reload', async ({
  page,
}) => {
  await openApp(page, '#ex=straggler')
  await expect(page.locator('html')).toHaveAttribute('lang', 'en')
  await page.getByRole('combobox', { name: 'Language' }).selectOption('ja')
  await expect(page.locator('html')).toHaveAttribute('lang', 'ja')
  await expect(page.getByLabel('ファイルを開く', { exact: true })).toBeAttached()
  expect(new URL(page.url()).searchParams.get('lang')).toBe('ja')
  // The fragment (the place on screen) is untouched by the language.
  expect(new URL(page.url()).hash).toContain('ex=straggler')
  await page.reload()
  await idle(page)
  await expect(page.locator('html')).toHaveAttribute('lang', 'ja')
  await expect(page.getByRole('combobox', { name: '言語' })).toHaveValue('ja')
})

test('?lang= wins over the browser language; without it the browser language is used', async ({
  browser,
}) => {
  const context = await browser.newContext({ locale: 'ja-JP' })
  const page = await context.newPage()
  await page.goto('/#ex=straggler')
  await idle(page)
  await expect(page.locator('html')).toHaveAttribute('lang', 'ja')
  await page.goto('/?lang=zh-CN#ex=straggler')
  await idle(page)
  await expect(page.locator('html')).toHaveAttribute('lang', 'zh-CN')
  await expect(page.getByLabel('打开文件', { exact: true })).toBeAttached()
  await context.close()
})

test('in 简体中文 the outline rows and toolbar, the export menu and the usage line are Chinese; protocol words stay', async ({
  page,
}) => {
  await page.goto('/?lang=zh-CN')
  await idle(page)
  await page
    .getByLabel('打开文件', { exact: true })
    .setInputFiles(corpusFile('web-cordis-tool-round-legacy-session.jsonl'))
  await idle(page)
  await expect(page.getByRole('searchbox', { name: '搜索大纲' })).toHaveAttribute(
    'placeholder',
    '轮次、工具…',
  )
  const filter = page.getByRole('combobox', { name: '显示尝试' })
  await expect(filter.locator('option[value="all"]')).toHaveText('所有流')
  await expect(page.getByRole('button', { name: '全部展开' })).toBeVisible()
  await expect(page.getByRole('tree').getByText('轮次 1', { exact: true })).toBeVisible()
  await filter.selectOption('errors')
  await expect(page.locator('output', { hasText: /个流|没有匹配项/ })).toBeVisible()
  await expect(page.getByRole('region', { name: '最终消息' })).toContainText('用量 输入')
  await page.getByText('导出 ▾').click()
  const menu = page.getByRole('menu')
  await expect(menu).toContainText('Chunk（NDJSON）')
  await expect(menu).toContainText('通过 BlockAssembler 重放所选流的回归测试')
})

test('in 日本語 the Adapter view says why an event made no chunk, and a lesson is labelled レッスン', async ({
  page,
}) => {
  await page.goto('/?lang=ja')
  await idle(page)
  const file = 'deepseek-trimmed-final-blank.sse'
  const fixtures = fileURLToPath(new URL('../src/formats/fixtures/', import.meta.url))
  await dropFile(page, file, readFileSync(fixtures + file, 'utf8'))
  await page.getByRole('tab', { name: 'アダプター' }).click()
  const adapter = page.getByRole('region', { name: 'アダプター' })
  await expect(adapter).toContainText('件のイベント →')
  const pairs = adapter.getByRole('list', { name: 'ワイヤーイベント' }).getByRole('listitem')
  // The reason is Japanese; the wire's own words (`[DONE]`) are not translated.
  await expect(pairs.filter({ hasText: 'data: [DONE]' })).toContainText(
    '— チャンクなし: ディスパッチされません',
  )
  await page.goto('/?lang=ja#ex=straggler')
  await idle(page)
  await expect(page.getByRole('banner').getByText('レッスン', { exact: true })).toBeVisible()
})

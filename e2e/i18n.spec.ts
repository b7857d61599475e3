import { expect, test } from '@playwright/test'
import { idle, openApp } from './helpers'

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

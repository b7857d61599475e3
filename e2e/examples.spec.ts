import { expect, test } from '@playwright/test'
import { EXAMPLES } from '../src/examples'
import { idle, openApp } from './helpers'

test('every built-in example opens from the Examples menu', async ({ page }) => {
  test.setTimeout(120_000) // thirteen loads in one test
  const errors: string[] = []
  page.on('pageerror', (error) => errors.push(error.message))
  await openApp(page)
  for (const example of EXAMPLES) {
    await page.getByText('Examples ▾').click()
    const item = page.getByRole('menuitem', { name: new RegExp(example.title) })
    await expect(item).toContainText(example.description)
    await item.click()
    await idle(page)
    await expect(page).toHaveURL(new RegExp(`#ex=${example.id}&`))
    await expect(page.getByRole('region', { name: 'Final message' })).toBeVisible()
  }
  expect(errors).toEqual([])
})

test('the unknown-type example shows the assembler error instead of a message', async ({ page }) => {
  await openApp(page, '#ex=unknown-type&s=stream&k=7')
  await expect(page.getByRole('region', { name: 'Final message' })).toContainText(
    'cannot assemble incomplete block of type "video"',
  )
})

test('the error-retry example shows two attempts of one step', async ({ page }) => {
  await openApp(page, '#ex=error-retry')
  const tree = page.getByRole('tree', { name: 'Streams' })
  await expect(tree.getByRole('treeitem', { name: /a1/ })).toContainText('SERVER')
  await tree.getByRole('treeitem', { name: /a2/ }).click()
  await expect(page).toHaveURL(/s=t1\.s1\.a2/)
  await expect(page.getByRole('region', { name: 'Final message' })).toContainText('matches recorded message')
})

import { expect, test } from '@playwright/test'
import { dropFile, expectPosition, openApp } from './helpers'

// A stream the harness's push throws on at seq 2 (`block: null`); its message checked against the harness's code.
const chunks = [
  { type: 'block-start', index: 0, blockType: 'text' },
  { type: 'text-delta', index: 0, text: 'kept' },
  { type: 'block-end', index: 0, block: null },
  { type: 'text-delta', index: 0, text: 'never read' },
  { type: 'finish', reason: { kind: 'stop' } },
]
const THROWN = "Cannot read properties of null (reading 'type')"

test('a push the harness throws on: its error in the message, every later chunk still explained', async ({
  page,
}) => {
  await openApp(page)
  await dropFile(page, 'thrown.jsonl', chunks.map((chunk) => JSON.stringify(chunk)).join('\n') + '\n')
  await expectPosition(page, 5, 5)
  const message = page.getByRole('region', { name: 'Final message' })
  await expect(message.getByRole('alert')).toContainText(`push throws at seq 2: ${THROWN}`)
  await expect(message).not.toContainText('never read')
  await expect(page.getByRole('region', { name: 'Blocks' }).getByRole('alert')).toContainText(
    `The harness's push threw at seq 2: ${THROWN}`,
  )
  await expect(page.getByLabel('Explanation')).toContainText(
    `seq 4: finish never reaches the harness's assembler: the push of seq 2 threw "${THROWN}"`,
  )

  await page.keyboard.press('ArrowLeft')
  await page.keyboard.press('ArrowLeft')
  await expectPosition(page, 3, 5)
  await expect(page.getByLabel('Explanation')).toContainText(
    `seq 2: block-end cannot be read: the harness's push throws "${THROWN}"`,
  )

  await page.keyboard.press('ArrowLeft')
  await expectPosition(page, 2, 5)
  await expect(message).toContainText('kept')
  await expect(message.getByRole('alert')).toHaveCount(0)
})

test('values no chunk should carry never break the page', async ({ page }) => {
  const errors: string[] = []
  page.on('pageerror', (error) => errors.push(error.message))
  const odd = [
    { type: 'block-end', index: 2, block: 5 },
    { type: 'block-start', index: { toString: 1 }, blockType: { toString: 1 } },
    { type: 'tool-call-delta', index: [{ toString: 'x' }], id: { toString: 1 }, argumentsDelta: '{}' },
    { type: 'block-end', index: 0, block: { type: 'text', text: 5 } },
    { type: 'text-delta', index: 1, text: { toString: 1 } },
  ]
  await openApp(page)
  await dropFile(page, 'odd.jsonl', odd.map((chunk) => JSON.stringify(chunk)).join('\n') + '\n')
  await expectPosition(page, 5, 5)
  await expect(page.getByRole('region', { name: 'Final message' }).getByRole('alert')).toContainText(
    'push throws at seq 4: Cannot convert object to primitive value',
  )
  for (let k = 0; k < 5; k++) await page.keyboard.press('ArrowLeft')
  await expectPosition(page, 0, 5)
  for (let k = 0; k < 4; k++) await page.keyboard.press('ArrowRight')
  await expect(page.getByLabel('Explanation')).toContainText('seq 3: block-end froze block 0')
  await expect(page.getByRole('region', { name: 'Blocks' })).toContainText('5')
  expect(errors).toEqual([])
})

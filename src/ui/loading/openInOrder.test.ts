import { readFileSync } from 'node:fs'
import { expect, it } from 'vitest'
import { openInOrder } from './openInOrder'

const file = (name: string) =>
  new File([readFileSync(new URL(`../../formats/fixtures/wire/${name}`, import.meta.url))], name)

it('opens trace exports after the streams, whatever the order they were picked or dropped in', async () => {
  const opened: string[] = []
  const names = ['otlp-trace.jsonl', 'ai-sdk-ui-stream.sse', 'langfuse-trace.json', 'cohere-tool-call.sse']
  await openInOrder(names.map(file), async (f) => void opened.push(f.name))
  expect(opened).toEqual([
    'ai-sdk-ui-stream.sse',
    'cohere-tool-call.sse',
    'otlp-trace.jsonl',
    'langfuse-trace.json',
  ])
})

/// <reference lib="webworker" />
import type { SearchRequest, SearchResponse } from './searchMessages'
import { searchIndex, type SearchIndex } from './searchIndex'

// Holds one stream's search index and answers queries against it, off the main thread.
const scope = self as unknown as DedicatedWorkerGlobalScope
let index: SearchIndex | null = null
/** The index's text as it arrives, joined here once complete: the join is a long task, off the page's thread. */
let pieces: string[] = []

scope.onmessage = (event: MessageEvent<SearchRequest>) => {
  const request = event.data
  if (request.type === 'piece') {
    pieces.push(request.text)
    return
  }
  if (request.type === 'index') {
    index = { text: pieces.join(''), starts: request.starts }
    pieces = []
    return
  }
  const hits = index === null ? new Int32Array(0) : searchIndex(index, request.query)
  const response: SearchResponse = { type: 'hits', id: request.id, hits }
  scope.postMessage(response, [hits.buffer])
}

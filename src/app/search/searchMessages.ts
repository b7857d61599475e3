/** Messages between the page and the search worker (`searchWorker.ts`). */
export type SearchRequest =
  | { readonly type: 'index'; readonly text: string; readonly starts: Int32Array }
  | { readonly type: 'search'; readonly id: number; readonly query: string }

export type SearchResponse = { readonly type: 'hits'; readonly id: number; readonly hits: Int32Array }

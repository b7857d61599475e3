/** Messages between the page and the search worker (`searchWorker.ts`). */
export type SearchRequest =
  /** The next piece of the index's text, sent as each indexing slice ends (so no one message copies it all). */
  | { readonly type: 'piece'; readonly text: string }
  /** The index is complete: its text is the pieces joined in order. */
  | { readonly type: 'index'; readonly starts: Int32Array }
  | { readonly type: 'search'; readonly id: number; readonly query: string }

export type SearchResponse = { readonly type: 'hits'; readonly id: number; readonly hits: Int32Array }

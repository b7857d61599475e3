import type { LoadedSource } from '../formats/types'

/** Messages between the store and the loading worker (structured-cloned, so plain data only). */
export type LoadRequest =
  | { readonly type: 'load-file'; readonly file: Blob; readonly name: string }
  | { readonly type: 'load-text'; readonly text: string; readonly name: string }

export type LoadProgress = {
  readonly phase: 'reading' | 'parsing' | 'replaying'
  readonly done: number
  readonly total: number
}

export type LoadResponse =
  | { readonly type: 'progress'; readonly progress: LoadProgress }
  | { readonly type: 'loaded'; readonly source: LoadedSource }
  | { readonly type: 'failed'; readonly message: string }

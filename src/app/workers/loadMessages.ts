import type { LoadedSource } from '../../formats/types'
import type { TransferPart, TransferPlan } from './transfer'

/** Messages between the store and the loading worker (structured-cloned, so plain data only). */
export type LoadRequest =
  | { readonly type: 'load-file'; readonly file: Blob; readonly name: string }
  | { readonly type: 'load-text'; readonly text: string; readonly name: string }

export type LoadProgress = {
  readonly phase: 'reading' | 'parsing' | 'transferring' | 'replaying'
  readonly done: number
  readonly total: number
}

export type LoadResponse =
  | { readonly type: 'progress'; readonly progress: LoadProgress }
  /** The source without its events and chunks; `part`s follow, then `done`. */
  | {
      readonly type: 'shell'
      readonly source: LoadedSource
      readonly plan: TransferPlan
      readonly parts: number
    }
  | { readonly type: 'part'; readonly part: TransferPart }
  | { readonly type: 'done' }
  | { readonly type: 'failed'; readonly message: string }

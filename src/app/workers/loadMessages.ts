import type { LoadedSource } from '../../formats/types'
import type { TransferPart, TransferPlan } from './transfer'

/** Messages between the store and the loading worker (structured-cloned, so plain data only, and a transferred port). */
export type LoadRequest =
  | {
      readonly type: 'load-file'
      readonly file: Blob
      readonly name: string
      /** Where the worker asks the page for the file's bytes (workers/rangeReads.ts); absent: it reads them itself. */
      readonly reads?: MessagePort
    }
  | { readonly type: 'load-text'; readonly text: string; readonly name: string }

export type LoadProgress = {
  readonly phase: 'reading' | 'parsing' | 'transferring' | 'replaying'
  readonly done: number
  readonly total: number
}

export type LoadResponse =
  | { readonly type: 'progress'; readonly progress: LoadProgress }
  /**
   * The source without its events and chunks; `part`s follow, then `done`. `early`: how many of the parts posted
   * before the shell (while the worker read) the source keeps; when that is not all of them, the page drops them
   * all and every part follows the shell.
   */
  | {
      readonly type: 'shell'
      readonly source: LoadedSource
      readonly plan: TransferPlan
      readonly parts: number
      readonly early: number
    }
  | { readonly type: 'part'; readonly part: TransferPart }
  /**
   * Before the shell, with the early parts: the next rows of a session's event batches that carry the chunks of one
   * of its streams (the first with chunks), so the page can start replaying it (app/open/earlyReplay.ts).
   */
  | { readonly type: 'rows'; readonly session: number; readonly stream: number; readonly rows: Int32Array }
  | { readonly type: 'done' }
  | { readonly type: 'failed'; readonly message: string }

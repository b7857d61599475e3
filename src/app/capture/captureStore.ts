// Browser captures kept in IndexedDB (database `chunkscope-live`): a reload mid-stream loses nothing already received.
import type { RecordSink } from '../../formats/capture/sessionRecorder'
import type { FeedCapture, FeedRecord } from '../../formats/live/feedProtocol'

export const CAPTURE_DB = 'chunkscope-live'
const VERSION = 1
const SUMMARIES = 'summaries'
const RECORDS = 'records'
const BY_CAPTURE = 'byCapture'

/** A stored record: its capture, and the record itself (the key is an auto-increment number, in append order). */
type StoredRecord = { readonly captureId: string; readonly record: FeedRecord }

export type CaptureStore = {
  /** Resolves once the transaction holding the record has completed (the record is durable). */
  append(captureId: string, record: FeedRecord): Promise<void>
  /** Several records in one transaction, in order. */
  appendMany(captureId: string, records: readonly FeedRecord[]): Promise<void>
  putSummary(summary: FeedCapture): Promise<void>
  /**
   * Every stored capture's summary, newest first (by `startedAt`). A capture that never ended (the page was reloaded
   * mid-stream) lists as it was last stored: state `streaming`.
   */
  list(): Promise<FeedCapture[]>
  /** A capture's records in append order: its session log (header first) as far as it got. */
  records(captureId: string): Promise<FeedRecord[]>
  remove(captureId: string): Promise<void>
  clear(): Promise<void>
  close(): void
}

function done(request: IDBRequest): Promise<void>
function done<T>(request: IDBRequest<T>): Promise<T>
function done<T>(request: IDBRequest<T>): Promise<T> {
  return new Promise((resolve, reject) => {
    request.onsuccess = () => resolve(request.result)
    request.onerror = () => reject(request.error ?? new Error('IndexedDB request failed'))
  })
}

function completed(transaction: IDBTransaction): Promise<void> {
  return new Promise((resolve, reject) => {
    transaction.oncomplete = () => resolve()
    transaction.onerror = () => reject(transaction.error ?? new Error('IndexedDB transaction failed'))
    transaction.onabort = () => reject(transaction.error ?? new Error('IndexedDB transaction aborted'))
  })
}

/**
 * Opens (creating on first use) the capture database. `factory` is the page's `indexedDB` unless given (tests pass
 * fake-indexeddb's).
 *
 * @example
 * const store = await openCaptureStore()
 * startBrowserCapture(form, { id, sink: captureSink(store, id), onSummary: (s) => void store.putSummary(s) })
 */
export async function openCaptureStore(
  factory: IDBFactory = globalThis.indexedDB,
  name = CAPTURE_DB,
): Promise<CaptureStore> {
  if (factory === undefined) throw new Error('IndexedDB is not available in this browser')
  const open = factory.open(name, VERSION)
  open.onupgradeneeded = () => {
    const db = open.result
    if (!db.objectStoreNames.contains(SUMMARIES)) db.createObjectStore(SUMMARIES, { keyPath: 'id' })
    if (!db.objectStoreNames.contains(RECORDS)) {
      const records = db.createObjectStore(RECORDS, { autoIncrement: true })
      records.createIndex(BY_CAPTURE, 'captureId')
    }
  }
  const db = await done(open)

  const write = (stores: string[], work: (transaction: IDBTransaction) => void): Promise<void> => {
    const transaction = db.transaction(stores, 'readwrite')
    const finished = completed(transaction)
    work(transaction)
    return finished
  }
  const appendMany = (captureId: string, records: readonly FeedRecord[]) =>
    write([RECORDS], (transaction) => {
      const store = transaction.objectStore(RECORDS)
      for (const record of records) store.add({ captureId, record } satisfies StoredRecord)
    })

  return {
    append: (captureId, record) => appendMany(captureId, [record]),
    appendMany,
    putSummary: (summary) =>
      write([SUMMARIES], (transaction) => void transaction.objectStore(SUMMARIES).put(summary)),
    list: async () => {
      const summaries = await done<FeedCapture[]>(
        db.transaction(SUMMARIES, 'readonly').objectStore(SUMMARIES).getAll(),
      )
      return summaries.sort((a, b) => (b.startedAt ?? 0) - (a.startedAt ?? 0) || (a.id < b.id ? 1 : -1))
    },
    records: async (captureId) => {
      const index = db.transaction(RECORDS, 'readonly').objectStore(RECORDS).index(BY_CAPTURE)
      const stored = await done<StoredRecord[]>(index.getAll(IDBKeyRange.only(captureId)))
      return stored.map((entry) => entry.record)
    },
    remove: (captureId) =>
      write([SUMMARIES, RECORDS], (transaction) => {
        transaction.objectStore(SUMMARIES).delete(captureId)
        const index = transaction.objectStore(RECORDS).index(BY_CAPTURE)
        const keys = index.getAllKeys(IDBKeyRange.only(captureId))
        keys.onsuccess = () => {
          const records = transaction.objectStore(RECORDS)
          for (const key of keys.result) records.delete(key)
        }
      }),
    clear: () =>
      write([SUMMARIES, RECORDS], (transaction) => {
        transaction.objectStore(SUMMARIES).clear()
        transaction.objectStore(RECORDS).clear()
      }),
    close: () => db.close(),
  }
}

/** The sink a capture appends to: its records in `store` under `captureId` (batched when they pile up). */
export function captureSink(store: CaptureStore, captureId: string): RecordSink {
  return {
    append: (record) => store.append(captureId, record),
    appendMany: (records) => store.appendMany(captureId, records),
  }
}

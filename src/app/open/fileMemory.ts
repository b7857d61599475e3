/**
 * Remembers the last file opened from disk in IndexedDB, so a reload (or back/forward) can reopen it: the URL
 * fragment only holds its name. Only this browser profile sees it; nothing leaves the machine.
 */
const DB = 'chunkscope'
const STORE = 'files'
const KEY = 'last'

function open(): Promise<IDBDatabase> {
  return new Promise((resolve, reject) => {
    const request = indexedDB.open(DB, 1)
    request.onupgradeneeded = () => request.result.createObjectStore(STORE)
    request.onsuccess = () => resolve(request.result)
    request.onerror = () => reject(request.error ?? new Error('IndexedDB unavailable'))
  })
}

export async function rememberFile(file: File): Promise<void> {
  try {
    const db = await open()
    await new Promise<void>((resolve, reject) => {
      const tx = db.transaction(STORE, 'readwrite')
      tx.objectStore(STORE).put({ name: file.name, blob: file }, KEY)
      tx.oncomplete = () => resolve()
      tx.onerror = () => reject(tx.error ?? new Error('IndexedDB write failed'))
    })
    db.close()
  } catch {
    // Private windows may refuse IndexedDB: the file still loads, only reload cannot bring it back.
  }
}

export async function recallFile(name: string): Promise<File | null> {
  try {
    const db = await open()
    const entry = await new Promise<{ name: string; blob: Blob } | undefined>((resolve, reject) => {
      const request = db.transaction(STORE).objectStore(STORE).get(KEY)
      request.onsuccess = () => resolve(request.result as { name: string; blob: Blob } | undefined)
      request.onerror = () => reject(request.error ?? new Error('IndexedDB read failed'))
    })
    db.close()
    return entry && entry.name === name ? new File([entry.blob], entry.name) : null
  } catch {
    return null
  }
}

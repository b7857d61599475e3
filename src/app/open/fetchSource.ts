/**
 * `?src=https://…`: fetch a file by URL for the app to load, with progress, a size cap, and failures explained in
 * plain words. Only http(s) URLs are fetched; the response is data (bytes), never run.
 */

export type FetchProgress = { readonly loaded: number; readonly total: number | null }

export type FetchOptions = {
  readonly onProgress?: (progress: FetchProgress) => void
  readonly signal?: AbortSignal
  /** Refuse bodies larger than this (bytes); default 1 GiB. */
  readonly maxBytes?: number
  /** For tests: the fetch to use. */
  readonly fetch?: typeof fetch
}

export type FetchedSource = {
  readonly bytes: Uint8Array<ArrayBuffer>
  readonly name: string
  readonly url: string
}

const DEFAULT_MAX_BYTES = 1024 * 1024 * 1024

/** The `src` parameter of a page URL's query (`?src=…`), or null. */
export function sourceUrlParam(search: string): string | null {
  const value = new URLSearchParams(search).get('src')
  return value === null || value.trim() === '' ? null : value.trim()
}

/**
 * Fetches the file at `url`. Never throws: failures come back as `{ error }`, worded for the person who clicked
 * the link (what happened, what to do).
 *
 * @example
 * const got = await fetchSource(src, { onProgress: ({ loaded, total }) => setProgress(loaded / (total ?? loaded)) })
 * if ('error' in got) showError(got.error) else loadBytes(got.bytes, got.name)
 */
export async function fetchSource(
  url: string,
  options: FetchOptions = {},
): Promise<FetchedSource | { error: string }> {
  let parsed: URL
  try {
    parsed = new URL(url)
  } catch {
    return { error: `the link's src is not a URL: ${JSON.stringify(url.slice(0, 200))}` }
  }
  if (parsed.protocol !== 'https:' && parsed.protocol !== 'http:') {
    return {
      error: `only http(s) addresses can be loaded, not ${parsed.protocol} (${parsed.href.slice(0, 200)})`,
    }
  }
  const doFetch = options.fetch ?? fetch
  const max = options.maxBytes ?? DEFAULT_MAX_BYTES
  // Ours aborts a download past the cap; the caller's signal, when given, aborts it too.
  const download = new AbortController()
  const { signal } = options
  if (signal?.aborted === true) download.abort(signal.reason)
  signal?.addEventListener('abort', () => download.abort(signal.reason), { once: true })
  let response: Response
  try {
    response = await doFetch(parsed.href, {
      credentials: 'omit',
      redirect: 'follow',
      signal: download.signal,
    })
  } catch (error) {
    if (isAbort(error)) return { error: 'loading was cancelled' }
    return {
      error:
        `could not fetch ${parsed.host}: either the server did not answer (offline, wrong address, blocked by the ` +
        `network) or it does not let other sites read the file (CORS). Download the file and open it instead, or host ` +
        `it where cross-origin reads are allowed (for example a raw GitHub or gist URL).`,
    }
  }
  if (!response.ok) {
    const what =
      response.status === 404
        ? 'not found (404): the file was moved or deleted'
        : response.status === 401 || response.status === 403
          ? `refused (${response.status}): the file is private; links cannot carry your login`
          : `answered ${response.status} ${response.statusText}`.trim()
    return { error: `${parsed.host} ${what}` }
  }
  const header = Number(response.headers.get('content-length'))
  const total = Number.isFinite(header) && header > 0 ? header : null
  if (total !== null && total > max) return { error: tooLarge(total, max) }
  let loaded = 0
  let bytes: Uint8Array<ArrayBuffer>
  try {
    // The bytes come from the response's own arrayBuffer(); a clone (a tee of the same download) is only counted,
    // for progress and the cap. When a page's reader drains the body itself, Chromium reports the request as
    // cancelled (net::ERR_ABORTED) although every byte came: about one download in three on a loaded machine.
    // Read by arrayBuffer(), the same request completes every time (fetchSource.chromium.test.ts).
    const counted = response.clone().body
    const whole = response.arrayBuffer()
    whole.catch(() => undefined) // a broken download is reported once, by the counting below or by `await whole`
    if (counted !== null) {
      const reader = counted.getReader()
      for (;;) {
        const { done, value } = await reader.read()
        if (done) break
        loaded += value.length
        if (loaded > max) {
          download.abort()
          return { error: tooLarge(loaded, max) }
        }
        options.onProgress?.({ loaded, total })
      }
    }
    bytes = new Uint8Array(await whole)
  } catch (error) {
    if (isAbort(error)) return { error: 'loading was cancelled' }
    return {
      error: `the download from ${parsed.host} broke off after ${loaded.toLocaleString('en')} bytes; try again`,
    }
  }
  loaded = bytes.length
  options.onProgress?.({ loaded, total: total ?? loaded })
  const name = safeDecode(parsed.pathname.split('/').filter(Boolean).at(-1) ?? '') || parsed.host
  return { bytes, name, url: parsed.href }
}

function tooLarge(bytes: number, max: number): string {
  const mib = (n: number) => `${Math.round(n / (1024 * 1024))} MiB`
  return `the file is larger than ${mib(max)} (${mib(bytes)} so far); download it and open it instead`
}

function safeDecode(text: string): string {
  try {
    return decodeURIComponent(text)
  } catch {
    return text
  }
}

function isAbort(error: unknown): boolean {
  return error instanceof Error && error.name === 'AbortError'
}

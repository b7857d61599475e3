// What the proxy allows a client and an upstream: body size and timeouts (defaults and flags in README.md).

/** How long the upstream may keep a client waiting; each expiry ends in the harness's code `TIMEOUT`. */
export type ProxyTimeouts = {
  /** DNS, TCP and TLS until the upstream connection is up. */
  readonly connectMs: number
  /** From the end of the request body to the response head. */
  readonly firstByteMs: number
  /** Between two pieces of the response body. */
  readonly idleMs: number
}

/**
 * The harness's adapters give a provider read 300 s (`streamIdleTimeoutMs`, docs/protocol.md §9) before TIMEOUT: the
 * proxy waits as long, so it never cuts a stream the harness would still be waiting for.
 */
export const DEFAULT_TIMEOUTS: ProxyTimeouts = { connectMs: 30_000, firstByteMs: 300_000, idleMs: 300_000 }

/** 64 MiB: far above any chat request (a 128k-token context is well under 1 MiB of text), below harm. */
export const DEFAULT_MAX_BODY_BYTES = 64 * 1024 * 1024

/** A command's `Io` that keeps what it printed: `text` (stdout) and `errors` (stderr), for CLI tests. */
export function recordingIo() {
  const io = {
    text: '',
    errors: '',
    out: (t: string) => (io.text += t),
    err: (t: string) => (io.errors += t),
  }
  return io
}

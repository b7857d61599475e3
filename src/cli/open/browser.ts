import { spawn } from 'node:child_process'
import process from 'node:process'

/** The platform's "open this URL in the default browser" command. */
function opener(url: string): { command: string; args: string[] } {
  if (process.platform === 'darwin') return { command: 'open', args: [url] }
  // `start` is a cmd builtin; its first quoted argument is a window title, hence the empty one.
  if (process.platform === 'win32')
    return { command: 'cmd', args: ['/c', 'start', '""', url.replace(/&/g, '^&')] }
  return { command: 'xdg-open', args: [url] }
}

/**
 * Opens `url` in the default browser without waiting for it to close; resolves with null once the opener started,
 * or with why it could not (no xdg-open on a headless machine), so the caller can ask the user to open the URL.
 */
export function openBrowser(url: string): Promise<string | null> {
  const { command, args } = opener(url)
  return new Promise((resolve) => {
    const child = spawn(command, args, { stdio: 'ignore', detached: true })
    child.once('error', (error) =>
      resolve((error as { code?: string }).code === 'ENOENT' ? `${command} not found` : error.message),
    )
    child.once('spawn', () => {
      child.unref()
      resolve(null)
    })
  })
}

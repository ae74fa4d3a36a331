/**
 * A real pseudo-terminal for command-line tests: the command runs in a detached tmux session on a
 * socket of its own (so nothing else's tmux is touched), keys are typed with send-keys and the
 * screen is read with capture-pane. When the command ends the pane prints `EXIT:<status>`.
 */
import { execFile } from 'node:child_process';
import { promisify } from 'node:util';

const run = promisify(execFile);
let sessions = 0;

export class TmuxTerminal {
  readonly #socket: string;

  private constructor(socket: string) {
    this.#socket = socket;
  }

  /** Starts `command` (a shell command line) in `cwd` on a 140x50 terminal. */
  static async start(command: string, cwd: string): Promise<TmuxTerminal> {
    const socket = `baton-test-${process.pid}-${++sessions}`;
    const line = `${command}; echo "EXIT:$?"; sleep 600`;
    await run('tmux', ['-L', socket, '-f', '/dev/null', 'new-session', '-d', '-x', '140', '-y', '50', '-c', cwd, line]);
    return new TmuxTerminal(socket);
  }

  async screen(): Promise<string> {
    const { stdout } = await run('tmux', ['-L', this.#socket, 'capture-pane', '-p', '-J', '-S', '-500']);
    return stdout;
  }

  /** Waits until the screen shows `text` (polling; generous, since the machine is shared). */
  async waitFor(text: string | RegExp, timeoutMs = 30_000): Promise<string> {
    const deadline = Date.now() + timeoutMs;
    for (;;) {
      const screen = await this.screen();
      if (typeof text === 'string' ? screen.includes(text) : text.test(screen)) return screen;
      if (Date.now() > deadline) throw new Error(`terminal never showed ${String(text)}; it shows:\n${screen}`);
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
  }

  /** Types keys as tmux names them: `Enter`, `Down`, `y`. */
  async keys(...keys: string[]): Promise<void> {
    for (const key of keys) await run('tmux', ['-L', this.#socket, 'send-keys', key]);
  }

  /** The command's exit status, once it has ended. */
  async exitStatus(timeoutMs?: number): Promise<number> {
    const screen = await this.waitFor(/EXIT:\d+/, timeoutMs);
    return Number(/EXIT:(\d+)/.exec(screen)![1]);
  }

  /** Ends the session's tmux server (and the command in it, if still running). */
  async close(): Promise<void> {
    await run('tmux', ['-L', this.#socket, 'kill-server']).catch(() => undefined);
  }
}

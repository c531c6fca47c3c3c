// SIGTERM / SIGINT for the long-running commands (schedule, run, demo, sync): the first signal asks for a
// graceful stop, a second one asks to stop at once. The command says so on stderr the moment the first arrives.
export interface ShutdownHandlers {
  onStop(signal: NodeJS.Signals): void;
  onForce(signal: NodeJS.Signals): void;
}

export function listenForShutdown(handlers: ShutdownHandlers): () => void {
  let received = 0;
  const listener = (signal: NodeJS.Signals) => {
    received++;
    if (received === 1) handlers.onStop(signal);
    else handlers.onForce(signal);
  };
  process.on('SIGINT', listener);
  process.on('SIGTERM', listener);
  return () => {
    process.off('SIGINT', listener);
    process.off('SIGTERM', listener);
  };
}

/** What a command prints on stderr at the first signal: `reporter-etl sync: SIGINT: stopping after ...`. */
export function stoppingMessage(command: string, signal: NodeJS.Signals, after: string): string {
  return `reporter-etl ${command}: ${signal}: stopping after ${after}… (Ctrl-C again to stop now)`;
}

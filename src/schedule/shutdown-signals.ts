// SIGTERM / SIGINT for the long-running commands (schedule, run): the first signal asks for a graceful stop,
// a second one asks to stop at once. Returns a function that removes the handlers.
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

// `reporter-etl emulator` on a port another server holds: a clean usage error that names the port and
// suggests --port, exit 2, instead of an EADDRINUSE stack.
import { createServer, type Server } from 'node:net';
import { describe, expect, it } from 'vitest';
import { runCli } from '../helpers/run-cli.js';

describe('reporter-etl emulator', () => {
  it('names a taken port and suggests --port, exit 2', async () => {
    const holder: Server = createServer();
    await new Promise<void>((resolve, reject) => {
      holder.once('error', reject);
      holder.listen(0, '127.0.0.1', () => resolve());
    });
    const port = (holder.address() as { port: number }).port;
    try {
      const r = await runCli(
        ['emulator', '--port', String(port), '--host', '127.0.0.1', '--sessions', '100'],
        {},
      );
      expect(r.code, r.stderr).toBe(2);
      expect(r.stderr).toContain(`port ${port} is already in use`);
      expect(r.stderr).toMatch(/--port 0/);
      expect(r.stderr).not.toMatch(/EADDRINUSE|\n\s+at /);
    } finally {
      await new Promise<void>((resolve) => holder.close(() => resolve()));
    }
  }, 90_000);

  it('refuses a Chat API token of another form, naming the form, exit 2', async () => {
    const r = await runCli(['emulator', '--port', '0', '--chatapi-token', 'not-a-token'], {});
    expect(r.code, r.stderr).toBe(2);
    expect(r.stderr).toContain('--chatapi-token expects <8 alphanumerics>:<40 hex>');
  }, 90_000);
});

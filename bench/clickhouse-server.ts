// A real ClickHouse server for the tests and the benchmark (Debian's clickhouse-server) on free loopback ports with a private
// config and a temporary data folder, started per suite and stopped after. Where the binary is missing the
// suite is skipped with the reason, except in CI (CI=true), where .ci/run installs it and a missing server
// fails the run.
import { type ChildProcess, spawn, spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

export interface ClickHouseServer {
  url: string;
  stop(): Promise<void>;
}

const BINARY = 'clickhouse-server';

/** Why the server cannot run here, or undefined when it can. */
export function clickHouseMissing(): string | undefined {
  const found = spawnSync('sh', ['-c', `command -v ${BINARY}`], { encoding: 'utf8' });
  if (found.status === 0) return undefined;
  if (process.env['CI'] === 'true')
    throw new Error(`${BINARY} is missing in CI: .ci/run installs clickhouse-server`);
  return `${BINARY} is not installed (apt-get install clickhouse-server): the ClickHouse tests are skipped`;
}

/** A free loopback port (asked of the system, then released). */
export async function freePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', () => r()));
  const { port } = server.address() as { port: number };
  await new Promise((r) => server.close(r));
  return port;
}

export async function startClickHouse(): Promise<ClickHouseServer> {
  const dir = mkdtempSync(join(tmpdir(), 'clickhouse-'));
  for (const sub of ['data', 'tmp']) mkdirSync(join(dir, sub));
  const [http, tcp] = [await freePort(), await freePort()];
  writeFileSync(
    join(dir, 'config.xml'),
    `<yandex>
  <logger><level>warning</level><log>${dir}/server.log</log><errorlog>${dir}/error.log</errorlog></logger>
  <http_port>${http}</http_port><tcp_port>${tcp}</tcp_port><listen_host>127.0.0.1</listen_host>
  <path>${dir}/data/</path><tmp_path>${dir}/tmp/</tmp_path><users_config>${dir}/users.xml</users_config>
  <mark_cache_size>5368709</mark_cache_size>
</yandex>`,
  );
  writeFileSync(
    join(dir, 'users.xml'),
    `<yandex><profiles><default></default></profiles>
  <users><default><password></password><networks><ip>127.0.0.1</ip></networks><profile>default</profile><quota>default</quota></default></users>
  <quotas><default></default></quotas></yandex>`,
  );
  const child: ChildProcess = spawn(BINARY, [`--config-file=${join(dir, 'config.xml')}`], {
    stdio: 'ignore',
  });
  const url = `http://127.0.0.1:${http}/`;
  const deadline = Date.now() + 60_000;
  for (;;) {
    try {
      const response = await fetch(`${url}?query=SELECT%201`);
      if (response.ok) break;
    } catch {
      // not listening yet
    }
    if (Date.now() > deadline || child.exitCode !== null)
      throw new Error('ClickHouse did not start within 60 s');
    await new Promise((r) => setTimeout(r, 200));
  }
  return {
    url,
    async stop() {
      const exited = new Promise((r) => child.once('exit', r));
      child.kill('SIGTERM');
      await Promise.race([exited, new Promise((r) => setTimeout(r, 10_000))]);
      if (child.exitCode === null) child.kill('SIGKILL');
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

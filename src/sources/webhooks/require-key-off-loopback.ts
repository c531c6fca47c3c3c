// A receiver that listens beyond this machine without REPORTER_WEBHOOK_KEY stores whatever anyone who
// reaches it sends: `webhooks` refuses to start so (a usage error, exit 2) unless --insecure-no-key says it
// is meant. Loopback is 127.0.0.0/8, ::1 (also as ::ffff:127.x.x.x) and `localhost`; any other address or
// name (0.0.0.0, ::, a host name) counts as beyond.
import { isIPv4, isIPv6 } from 'node:net';
import { UsageError } from '../../errors.js';

export function isLoopbackHost(host: string): boolean {
  const h = host.replace(/^\[(.*)\]$/, '$1').toLowerCase();
  if (h === 'localhost') return true;
  if (isIPv4(h)) return h.startsWith('127.');
  if (isIPv6(h)) return h === '::1' || h === '0:0:0:0:0:0:0:1' || /^::ffff:127\./.test(h);
  return false;
}

export interface ListeningPlan {
  host: string;
  /** How the host was given, for the message (`--host 0.0.0.0`, `REPORTER_WEBHOOKS_HOST=0.0.0.0`). */
  hostGivenAs: string;
  key: string | undefined;
  insecureNoKey: boolean;
}

export function requireKeyOffLoopback(plan: ListeningPlan): void {
  if (plan.key !== undefined || plan.insecureNoKey || isLoopbackHost(plan.host)) return;
  throw new UsageError(
    `${plan.hostGivenAs} listens beyond this machine without REPORTER_WEBHOOK_KEY: anyone who reaches it could write into the warehouse. Set REPORTER_WEBHOOK_KEY (16 characters or more), listen on 127.0.0.1 behind your HTTPS proxy, or give --insecure-no-key if that is meant.`,
    'webhooks.key_required',
  );
}

// The webhooks step's slow clients: N connections to a server on 127.0.0.1 (loopback only) that each send a
// partial request header and hold it; one the server drops is opened again, until SIGTERM or the time bound.
// Usage: slow-clients <port> <connections> <seconds>. Prints {"held": N} once all are open, then at the end
// {"opened", "dropped" (closed by the server), "failed" (could not connect), "heldMean" (sampled each 100 ms)}.
import { connect, type Socket } from 'node:net';

const [port, wanted, seconds] = process.argv.slice(2).map(Number) as [number, number, number];
const HEAD = 'POST /webhooks/chatapi HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\n';
const held = new Set<Socket>();
const counts = { opened: 0, dropped: 0, failed: 0 };
let stopping = false;

function openOne(): Promise<void> {
  return new Promise((resolve) => {
    const socket = connect(port, '127.0.0.1');
    socket.once('connect', () => {
      counts.opened++;
      held.add(socket);
      socket.write(HEAD);
      resolve();
    });
    socket.on('data', () => undefined);
    socket.on('error', () => undefined);
    socket.once('close', () => {
      if (held.delete(socket)) counts.dropped++;
      else {
        counts.failed++;
        resolve();
      }
      // the server dropped it: another one takes its place, as a client that wants to hold the door would
      if (!stopping) setTimeout(() => void openOne(), 10);
    });
  });
}

const samples: number[] = [];
let sampler: NodeJS.Timeout | undefined;

function stop(): void {
  stopping = true;
  clearInterval(sampler);
  const heldMean = samples.length ? samples.reduce((a, b) => a + b, 0) / samples.length : held.size;
  for (const socket of held) socket.destroy();
  process.stdout.write(`${JSON.stringify({ ...counts, heldMean: Math.round(heldMean) })}\n`);
  process.exit(0);
}

async function main(): Promise<void> {
  setTimeout(stop, seconds * 1000);
  process.once('SIGTERM', stop);
  for (let i = 0; i < wanted; i += 250)
    await Promise.all(Array.from({ length: Math.min(250, wanted - i) }, () => openOne()));
  process.stdout.write(`${JSON.stringify({ held: held.size })}\n`);
  sampler = setInterval(() => samples.push(held.size), 100);
}

void main();

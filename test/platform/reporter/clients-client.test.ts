// The clients client against the emulator: a page of clients/filter, finding one client
// by exact id, block and unblock on both generations, checked against the emulator's own client records.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { EtlError } from '../../../src/errors.js';
import {
  blockClient,
  filterClients,
  findClient,
  unblockClient,
} from '../../../src/platform/reporter/clients.js';
import { type ClientHarness, createClientHarness } from './client-harness.js';

let c: ClientHarness;
beforeAll(async () => {
  c = await createClientHarness();
});
afterAll(() => c.close());

/** Client indexes that exist now, newest first. */
function clientIndexes(): number[] {
  const out: number[] = [];
  for (let k = c.p.skeleton.clientCreator.length - 1; k >= 0; k--)
    if (c.p.skeleton.start.get(c.p.skeleton.clientCreator.get(k)) <= c.now()) out.push(k);
  return out;
}
const botOf = (k: number) => c.p.botIdOf(c.p.skeleton.clientCreator.get(k));

describe('clients', () => {
  it('reads a page of clients/filter with its total', async () => {
    const all = clientIndexes();
    const page = await filterClients(c.v1, [], { page: 0, size: 7 });
    expect(page.paging.totalCount).toBe(all.length);
    expect(page.clients).toHaveLength(7);
    expect(page.clients.map((x) => x.id)).toEqual(all.slice(0, 7).map((k) => c.p.clientId(k)));
  });

  it('finds a client by its exact id, of its bot only', async () => {
    const k = clientIndexes()[5]!;
    const id = c.p.clientId(k);
    const found = await findClient(c.legacy, id);
    expect(found).toMatchObject({ id, botId: botOf(k), isBlocked: false });
    expect(await findClient(c.v1, id, botOf(k))).toMatchObject({ id });
    const other = c.p.botIds.find((b) => b !== botOf(k))!;
    expect(await findClient(c.v1, id, other)).toBeUndefined();
    expect(await findClient(c.v1, `${id}-nope`)).toBeUndefined();
  });

  it('blocks (with a reason and an author) and unblocks, on both generations', async () => {
    const k = clientIndexes()[3]!;
    const request = { clientId: c.p.clientId(k), botId: botOf(k) };
    await blockClient(c.legacy, { ...request, blockedBy: 77, blockReason: 'спам' });
    expect(c.p.block(k)).toMatchObject({ blockedBy: 77, blockReason: 'спам', blockDate: c.now() });
    expect(await findClient(c.v1, request.clientId)).toMatchObject({
      isBlocked: true,
      blockReason: 'спам',
      blockedBy: 77,
      blockDate: c.now(),
    });
    await unblockClient(c.v1, request);
    expect(c.p.block(k)).toBeUndefined();
    await blockClient(c.v1, { ...request, blockedBy: 1 });
    expect(c.p.block(k)).toEqual({ blockedBy: 1, blockDate: c.now() });
    await unblockClient(c.legacy, request);
    const wrongBot = await blockClient(c.v1, {
      ...request,
      botId: c.p.botIds.find((b) => b !== request.botId)!,
      blockedBy: 1,
    }).catch((e: unknown) => e);
    expect(wrongBot).toBeInstanceOf(EtlError);
    expect((wrongBot as Error).message).toMatch(/clientId: client of bot/);
    expect(c.p.block(k)).toBeUndefined();
  });
});

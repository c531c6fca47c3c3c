// The error a warehouse operation fails with: an EtlError as it came, a served read whose writer let go
// midway (`warehouse.locked`, transient), a damaged file (`warehouse.corrupt`), a full disk
// (`warehouse.no_space`, transient), else `warehouse.query_failed`.
import { EtlError } from '../errors.js';
import { corruptWarehouseError, isCorruptionError } from './corrupt-warehouse-error.js';
import { isOutOfSpace, outOfSpaceError } from './out-of-space.js';
import { ReadServiceGone } from './read-service-client.js';

export function makeQueryError(path: string, cause: unknown): Error {
  if (cause instanceof EtlError) return cause;
  if (cause instanceof ReadServiceGone)
    return new EtlError(
      'warehouse.locked',
      `The process that was writing the warehouse ${path} and serving this read let go of it midway ` +
        '(it finished, was stopped, or a read of its ran too long); run the command again: it reads the file itself.',
      { kind: 'transient', cause },
    );
  if (isCorruptionError(cause)) return corruptWarehouseError(path, cause);
  if (isOutOfSpace(cause)) return outOfSpaceError(`A write to the warehouse ${path} failed`, cause);
  return new EtlError('warehouse.query_failed', `Warehouse query failed: ${(cause as Error).message}`, {
    cause,
  });
}

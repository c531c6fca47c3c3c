// Builds a unit's settings from config.ts's ENV_KEYS, the one schema each environment key is read with: a
// unit names its keys, says what each holds and marks the secret ones; the schema comes from ENV_KEYS, so
// a unit cannot name a key config.ts does not read (it does not compile).
import type { Config } from '../config.js';
import { ENV_KEYS } from '../config.js';
import { ERROR_CODES, type ErrorCode } from '../error-codes.js';
import type { SettingSpecs } from './source-unit.js';

export type EnvKey = keyof typeof ENV_KEYS;

/** A setting as a unit declares it: what it holds and, for a secret, the values of the config to redact. */
export interface DeclaredSetting {
  readonly describe: string;
  readonly secret?: (config: Config) => readonly (string | undefined)[];
}

/** The unit's settings, each with its ENV_KEYS schema. */
export function defineSettings(declared: Partial<Record<EnvKey, DeclaredSetting>>): SettingSpecs {
  return Object.fromEntries(
    Object.entries(declared).map(([name, setting]) => [
      name,
      { ...(setting as DeclaredSetting), schema: ENV_KEYS[name as EnvKey] },
    ]),
  );
}

/** The codes of the error catalogue that start with `prefix` (`kb.`): a unit's codes. */
export function selectErrorCodes(...prefixes: readonly string[]): ErrorCode[] {
  return (Object.keys(ERROR_CODES) as ErrorCode[]).filter((code) => prefixes.some((p) => code.startsWith(p)));
}

// The settings of a source or destination unit, built from config.ts's ENV_KEYS (the one schema each
// environment key is read with): a unit names its keys, says what each holds and marks the secret ones, so a
// unit cannot name a key config.ts does not read (it does not compile). And a unit's codes from the catalogue.
import type { z } from 'zod';
import type { Config } from '../config.js';
import { ENV_KEYS } from '../config.js';
import { ERROR_CODES, type ErrorCode } from '../error-codes.js';

/** One environment setting a unit owns (its name is the key of `settings`, REPORTER_...). */
export interface SettingSpec {
  /** One line for people: what it holds. */
  readonly describe: string;
  /** How its environment value is read (the schema config.ts's ENV_KEYS validates it with). */
  readonly schema: z.ZodType;
  /**
   * Marks a secret setting: the values of the loaded configuration the log must redact (a token, a key,
   * the secret part of a URL). Every setting whose name says TOKEN, KEY, PASSWORD or SECRET must have it
   * (test/sources/unit-settings.test.ts), so a new secret cannot reach the log unredacted.
   */
  readonly secret?: (config: Config) => readonly (string | undefined)[];
}

/** The settings of a unit by environment name. */
export type SettingSpecs = Readonly<Record<string, SettingSpec>>;

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

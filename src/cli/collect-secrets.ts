// The log's secret list, derived: every value the settings marked secret hold in the loaded configuration,
// over the core's, the sources', the analyses' and the destinations' settings. A secret setting is declared once, in its
// unit; nothing else lists it, so a new one cannot be left out of the redaction.
import { ANALYSES } from '../analysis/registry.js';
import type { Config } from '../config.js';
import { DESTINATIONS } from '../destinations/registry.js';
import type { SettingSpecs } from '../settings/define-settings.js';
import { CORE_SETTINGS, SOURCES } from '../sources/registry.js';

/** Every unit's settings: the core's, then each source's, each analysis's, each destination's. */
export function collectSettings(): SettingSpecs[] {
  return [
    CORE_SETTINGS,
    ...SOURCES.map((s) => s.settings),
    ...ANALYSES.flatMap((a) => (a.settings === undefined ? [] : [a.settings])),
    ...DESTINATIONS.map((d) => d.settings),
  ];
}

/** The values of every secret setting in `config` (set ones only, empty strings dropped). */
export function collectSecrets(
  config: Config,
  settings: readonly SettingSpecs[] = collectSettings(),
): string[] {
  return settings
    .flatMap((specs) => Object.values(specs))
    .flatMap((spec) => spec.secret?.(config) ?? [])
    .filter((value): value is string => value !== undefined && value !== '');
}

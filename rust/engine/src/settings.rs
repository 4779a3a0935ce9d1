//! Every number an operator or a CLI user can tune, named and defaulted once: the cache
//! bounds ([`Bounds`]) and the resource limits ([`Limits`]); and the rule profile, by name
//! ([`PROFILE_SETTING`]). The broker plugin reads them as system properties
//! `protocompat.<name>`, the CLI as `--limit <name>=N` and `--profile`; neither holds a default
//! of its own.

use crate::checker::Bounds;
use crate::limits::Limits;
use crate::rules::{Profile, PIP246};

/// The bounds, limits and profile of one checker.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Settings {
    pub bounds: Bounds,
    pub limits: Limits,
    pub profile: &'static Profile,
}

/// The setting that picks the rule profile by name: not a number, so not one of [`SETTINGS`].
pub const PROFILE_SETTING: &str = "profile";

/// One tunable number.
pub struct Setting {
    /// `cache.maxSchemas`, `limit.maxFields`, ...
    pub name: &'static str,
    /// What it bounds, for help texts and the operator's guide's table.
    pub bounds: &'static str,
    get: fn(&Settings) -> usize,
    set: fn(&mut Settings, usize),
}

impl Setting {
    pub fn default_value(&self) -> usize {
        (self.get)(&Settings::DEFAULT)
    }

    pub fn value(&self, settings: &Settings) -> usize {
        (self.get)(settings)
    }
}

macro_rules! setting {
    ($name:literal, $group:ident . $field:ident, $bounds:literal) => {
        Setting {
            name: $name,
            bounds: $bounds,
            get: |s| s.$group.$field,
            set: |s, v| s.$group.$field = v,
        }
    };
}

/// Every setting, caches first.
pub static SETTINGS: &[Setting] = &[
    setting!(
        "cache.maxSchemas",
        bounds.max_schemas,
        "schemas remembered (their data, validity, digest and root name); 0 turns every cache off"
    ),
    setting!(
        "cache.maxSchemaDataBytes",
        bounds.max_schema_data_bytes,
        "bytes of schema data the remembered schemas hold in all (a cache hit is confirmed against them)"
    ),
    setting!(
        "cache.maxDecodedBytes",
        bounds.max_decoded_bytes,
        "decoded schemas kept, counted by the heap each holds"
    ),
    setting!(
        "cache.maxVerdicts",
        bounds.max_verdicts,
        "pairwise canRead results kept"
    ),
    setting!(
        "cache.maxVerdictBytes",
        bounds.max_verdict_bytes,
        "memory the kept results take in all (their first findings)"
    ),
    setting!(
        "limit.maxSchemaBytes",
        limits.max_schema_bytes,
        "bytes of one schema's data"
    ),
    setting!(
        "limit.maxFiles",
        limits.max_files,
        "files in one descriptor set"
    ),
    setting!(
        "limit.maxMessages",
        limits.max_messages,
        "messages in one descriptor set, nested ones and map entries included"
    ),
    setting!(
        "limit.maxFields",
        limits.max_fields,
        "fields in one descriptor set, extensions included"
    ),
    setting!(
        "limit.maxEnumValues",
        limits.max_enum_values,
        "enum values in one descriptor set"
    ),
    setting!(
        "limit.maxNameLength",
        limits.max_name_length,
        "bytes of each name in a descriptor set (files, packages, declarations, type names)"
    ),
    setting!(
        "limit.maxDeclarations",
        limits.max_declarations,
        "declarations in one descriptor set: messages, fields, oneofs, enums, enum values, services, methods"
    ),
    setting!(
        "limit.maxElements",
        limits.max_elements,
        "records of one descriptor set decoding allocates for (declarations, their names and strings, options, ranges)"
    ),
    setting!(
        "limit.maxNestedRecords",
        limits.max_nested_records,
        "records inside the options, source info and ranges of one descriptor set"
    ),
    setting!(
        "limit.maxFullNameBytes",
        limits.max_full_name_bytes,
        "bytes of all full names of one descriptor set together (pkg.Message.field)"
    ),
    setting!(
        "limit.maxFieldComparisons",
        limits.max_field_comparisons,
        "field pairs compared in one check, over its whole history"
    ),
    setting!(
        "limit.maxCheckWork",
        limits.max_check_work,
        "work units one check may spend over its whole history (about a nanosecond each): decoding each schema it compares and comparing each pair, counted alike whether or not the caches answer"
    ),
    setting!(
        "limit.maxCheckMemoryBytes",
        limits.max_check_memory_bytes,
        "heap one check may hold, checked after each decode and while walking"
    ),
    setting!(
        "limit.maxCheckCpuMillis",
        limits.max_check_cpu_millis,
        "CPU time in milliseconds one check's thread may use, checked where the memory is: a backstop under limit.maxCheckWork for what its accounting misses"
    ),
];

impl Settings {
    pub const DEFAULT: Settings = Settings {
        bounds: Bounds::DEFAULT,
        limits: Limits::DEFAULT,
        profile: &PIP246,
    };

    /// Sets one setting by name; an unknown name or a value that is not a whole number is
    /// refused with a message naming both, each name spelled as the caller's user writes it
    /// (`-Dprotocompat.cache.maxSchemas`, `--limit limit.maxFields`).
    pub fn set(
        &mut self,
        name: &str,
        value: &str,
        spell: impl Fn(&str) -> String,
    ) -> Result<(), String> {
        if name == PROFILE_SETTING {
            self.profile = Profile::named(value)
                .map_err(|e| format!("{}={}: {e}", spell(name), crate::text::bound(value, 100)))?;
            return Ok(());
        }
        let Some(setting) = SETTINGS.iter().find(|s| s.name == name) else {
            // A name in a known group (`limit.`) lists that group only.
            let group = |n: &str| n.split_once('.').map(|(g, _)| g.to_owned());
            let same_group = SETTINGS.iter().any(|s| group(s.name) == group(name));
            let mut known: Vec<String> = SETTINGS
                .iter()
                .filter(|s| !same_group || group(s.name) == group(name))
                .map(|s| spell(s.name))
                .collect();
            if !same_group {
                known.push(spell(PROFILE_SETTING));
            }
            return Err(format!(
                "unknown setting {}; the settings are {}",
                spell(&crate::text::bound(name, 100)),
                known.join(", ")
            ));
        };
        let parsed = value.trim().parse::<usize>().map_err(|_| {
            format!(
                "{}={} is not a whole number of 0 or more (the default is {})",
                spell(name),
                crate::text::bound(value, 100),
                setting.default_value()
            )
        })?;
        (setting.set)(self, parsed);
        Ok(())
    }
}

impl Default for Settings {
    fn default() -> Self {
        Settings::DEFAULT
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_setting_reads_and_writes_its_own_field() {
        for (i, setting) in SETTINGS.iter().enumerate() {
            let mut settings = Settings::DEFAULT;
            settings
                .set(setting.name, &(1000 + i).to_string(), str::to_owned)
                .unwrap();
            for (j, other) in SETTINGS.iter().enumerate() {
                let want = if i == j {
                    1000 + i
                } else {
                    other.default_value()
                };
                assert_eq!(
                    other.value(&settings),
                    want,
                    "{} after {}",
                    other.name,
                    setting.name
                );
            }
        }
    }

    #[test]
    fn bad_names_and_values_are_named() {
        let mut settings = Settings::DEFAULT;
        let spell = |name: &str| format!("-Dprotocompat.{name}");
        let unknown = settings.set("limit.maxPotatoes", "3", spell).unwrap_err();
        assert!(
            unknown
                .starts_with("unknown setting -Dprotocompat.limit.maxPotatoes; the settings are"),
            "{unknown}"
        );
        assert!(
            unknown.contains("-Dprotocompat.limit.maxFields"),
            "{unknown}"
        );
        let bad = settings.set("cache.maxSchemas", "lots", spell).unwrap_err();
        assert_eq!(
            bad,
            "-Dprotocompat.cache.maxSchemas=lots is not a whole number of 0 or more (the default is 50000)"
        );
        assert_eq!(settings, Settings::DEFAULT);
        let profile = settings.set("profile", "strict", spell).unwrap_err();
        assert_eq!(
            profile,
            "-Dprotocompat.profile=strict: unknown profile `strict`; the profiles are pip246, conservative"
        );
        let typo = settings.set("profle", "pip246", spell).unwrap_err();
        assert!(typo.ends_with(", -Dprotocompat.profile"), "{typo}");
        assert_eq!(settings, Settings::DEFAULT);
        for profile in crate::rules::PROFILES {
            settings
                .set("profile", &format!(" {} ", profile.name), spell)
                .unwrap();
            assert_eq!(settings.profile, *profile);
        }
    }
}

//! The JNI boundary of the broker plugin, and nothing else: Java arrays in, the engine's
//! verdict out as a return code or a Java exception. Every native method runs its body through
//! [`native`], which catches panics and turns every error into one exception type
//! ([`policy::ThrowCheckException`]).

mod arrays;
mod logging;
mod policy;

use std::sync::OnceLock;

use jni::objects::{JByteArray, JClass, JObjectArray, JString};
use jni::sys::{jboolean, jint};
use jni::{Env, EnvUnowned};
use protocompat::{Checker, Requested, Settings, SETTINGS};

use arrays::JavaSchemas;
use policy::{BridgeError, ThrowCheckException};

/// Returned when the schema is compatible and some pair had to be walked (a cold check), or
/// when the caches answered (a warm one). Anything else, including the 0 a failed call
/// returns by default, means "not accepted": the Java side fails closed.
const COMPATIBLE: jint = 1;
const COMPATIBLE_FROM_CACHES: jint = 2;

/// Decoding a schema is allocation-bound: mimalloc makes a cold check about 1.5x faster than
/// glibc's malloc (BENCHMARKS.md). It serves only this library's Rust allocations, metered so
/// that a check past its memory budget stops (`protocompat::budget`).
#[global_allocator]
static ALLOCATOR: protocompat::budget::MeteredAllocator<mimalloc::MiMalloc> =
    protocompat::budget::MeteredAllocator(mimalloc::MiMalloc);

/// One checker, with its caches, for the life of the library.
static CHECKER: OnceLock<Checker> = OnceLock::new();

fn checker() -> &'static Checker {
    CHECKER.get_or_init(|| {
        let settings = Settings::DEFAULT;
        Checker::with_limits(settings.bounds, settings.limits).with_profile(settings.profile)
    })
}

/// How a setting is spelled for an operator: the system property that sets it.
pub(crate) fn property(name: &str) -> String {
    format!("-Dprotocompat.{name}")
}

/// The one way into Rust from Java: runs `body`, and turns its error or panic into a thrown
/// `ProtocompatException` (and the default value, which Java never sees).
fn native<'local, T: Default + 'local>(
    mut env: EnvUnowned<'local>,
    body: impl FnOnce(&mut Env<'local>) -> Result<T, BridgeError>,
) -> T {
    env.with_env(body).resolve::<ThrowCheckException>()
}

/// `NativeChecker.checkCompatible(byte[][] from, byte[] to, int strategy)`.
#[unsafe(no_mangle)]
pub extern "system" fn Java_org_apache_pulsar_broker_service_schema_protocompat_NativeChecker_checkCompatible<
    'local,
>(
    env: EnvUnowned<'local>,
    _class: JClass<'local>,
    from: JObjectArray<'local, JByteArray<'local>>,
    to: JByteArray<'local>,
    strategy: jint,
) -> jint {
    // Typed here, once: the engine never sees the number.
    let strategy = Requested::from_code(strategy);
    native(env, |env| {
        logging::install(env);
        let mut schemas = JavaSchemas::new(env, &from, &to)?;
        let checked = checker().check_source_traced(&mut schemas, strategy)?;
        match (checked.report.compatible, checked.walked) {
            (true, true) => Ok(COMPATIBLE),
            (true, false) => Ok(COMPATIBLE_FROM_CACHES),
            (false, walked) => Err(BridgeError::Incompatible {
                report: checked.report.render_text(),
                rules: rejected_by(&checked.report),
                from_caches: !walked,
            }),
        }
    })
}

/// The rule IDs of a report's failures, each once, for the broker's rejection metric (the kept
/// findings: at most 64 per report, of at most a few dozen rules).
fn rejected_by(report: &protocompat::Report) -> Vec<&'static str> {
    let mut rules: Vec<&'static str> = report.failures.iter().map(|f| f.rule.id()).collect();
    rules.sort_unstable();
    rules.dedup();
    rules
}

/// `NativeChecker.configure(String[] names, String[] values)`: the settings an operator set,
/// by name (`cache.maxSchemas`, ..., `profile`); true if applied, false if a check already ran with the
/// defaults.
#[unsafe(no_mangle)]
pub extern "system" fn Java_org_apache_pulsar_broker_service_schema_protocompat_NativeChecker_configure<
    'local,
>(
    env: EnvUnowned<'local>,
    _class: JClass<'local>,
    names: JObjectArray<'local, JString<'local>>,
    values: JObjectArray<'local, JString<'local>>,
) -> jboolean {
    native(env, |env| {
        let names = arrays::strings(env, &names, "setting names")?;
        let values = arrays::strings(env, &values, "setting values")?;
        if names.len() != values.len() {
            return Err(BridgeError::Input(
                "configure takes as many values as names".into(),
            ));
        }
        let mut settings = Settings::DEFAULT;
        for (name, value) in names.iter().zip(&values) {
            settings
                .set(name, value, property)
                .map_err(BridgeError::Setting)?;
        }
        let checker =
            Checker::with_limits(settings.bounds, settings.limits).with_profile(settings.profile);
        Ok(CHECKER.set(checker).is_ok())
    })
}

/// `NativeChecker.clearCaches()`.
#[unsafe(no_mangle)]
pub extern "system" fn Java_org_apache_pulsar_broker_service_schema_protocompat_NativeChecker_clearCaches<
    'local,
>(
    env: EnvUnowned<'local>,
    _class: JClass<'local>,
) {
    native(env, |_env| {
        checker().clear();
        Ok(())
    })
}

/// `NativeChecker.cacheStats()`: `name=value` pairs separated by spaces, what the caches hold
/// (`schemas`, `schemaDataBytes`, `decoded`, `decodedBytes`, `verdicts`, `verdictBytes`), the
/// heap the last check held at its peak (`lastCheckPeakBytes`), the verdict cache's lookups
/// (`verdictHits`, `verdictMisses`), then every setting in force (`cache.maxSchemas=...`,
/// `limit.maxFields=...`).
#[unsafe(no_mangle)]
pub extern "system" fn Java_org_apache_pulsar_broker_service_schema_protocompat_NativeChecker_cacheStats<
    'local,
>(
    env: EnvUnowned<'local>,
    _class: JClass<'local>,
) -> JString<'local> {
    native(env, |env| {
        let stats = checker().stats();
        let settings = Settings {
            bounds: checker().bounds(),
            limits: checker().limits(),
            profile: checker().profile(),
        };
        let mut text = format!(
            "schemas={} schemaDataBytes={} decoded={} decodedBytes={} verdicts={} verdictBytes={} \
             lastCheckPeakBytes={} verdictHits={} verdictMisses={}",
            stats.schemas,
            stats.schema_data_bytes,
            stats.decoded,
            stats.decoded_bytes,
            stats.verdicts,
            stats.verdict_bytes,
            stats.last_check_peak_bytes,
            stats.verdict_hits,
            stats.verdict_misses
        );
        for setting in SETTINGS {
            text.push_str(&format!(" {}={}", setting.name, setting.value(&settings)));
        }
        Ok(env.new_string(text)?)
    })
}

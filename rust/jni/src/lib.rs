//! The JNI boundary of the broker plugin, and nothing else: Java arrays in, the engine's
//! verdict out as a return code or a Java exception. Every entry point goes through
//! `EnvUnowned::with_env` (which catches panics) and [`policy::ThrowCheckException`] (which
//! turns every error and panic into one exception type carrying our message).

mod logging;
mod policy;

use std::sync::OnceLock;

use jni::elements::ReleaseMode;
use jni::objects::{JByteArray, JClass, JLongArray, JObjectArray};
use jni::sys::{jboolean, jint, jlong};
use jni::{Env, EnvUnowned};
use protocompat::{schema_key, Bounds, Checker, Limits, SchemaKey, Which};

use policy::{BridgeError, ThrowCheckException};

/// Returned when the schema is compatible. Anything else, including the 0 a failed call
/// returns by default, means "not accepted": the Java side fails closed.
const COMPATIBLE: jint = 1;

/// Decoding a schema is allocation-bound: mimalloc makes a cold check about 1.5x faster than
/// glibc's malloc (BENCHMARKS.md). It serves only this library's Rust allocations.
#[global_allocator]
static ALLOCATOR: mimalloc::MiMalloc = mimalloc::MiMalloc;

/// One checker, with its caches, for the life of the library.
static CHECKER: OnceLock<Checker> = OnceLock::new();

fn checker() -> &'static Checker {
    CHECKER.get_or_init(|| Checker::new(Bounds::DEFAULT))
}

/// `NativeChecker.checkCompatible(byte[][] from, byte[] to, int strategy)`.
#[unsafe(no_mangle)]
pub extern "system" fn Java_org_apache_pulsar_broker_service_schema_protocompat_NativeChecker_checkCompatible<
    'local,
>(
    mut unowned_env: EnvUnowned<'local>,
    _class: JClass<'local>,
    from: JObjectArray<'local, JByteArray<'local>>,
    to: JByteArray<'local>,
    strategy: jint,
) -> jint {
    unowned_env
        .with_env(|env| -> Result<jint, BridgeError> {
            logging::install(env);
            let existing = history_keys(env, &from)?;
            let proposed = key_in_place(env, &to, "the new schema")?;
            let report = checker().check_keyed(&existing, proposed, strategy, |which| {
                read_schema(env, &from, &to, which)
            })?;
            if report.compatible {
                Ok(COMPATIBLE)
            } else {
                Err(BridgeError::Incompatible(report.render_text()))
            }
        })
        .resolve::<ThrowCheckException>()
}

/// `NativeChecker.configure(long[] settings)`: the cache bounds {maxSchemas, maxDecodedBytes,
/// maxVerdicts} then the limits {maxSchemaBytes, maxFiles, maxMessages, maxFields,
/// maxFieldComparisons}; true if applied, false if a check already ran with the defaults.
#[unsafe(no_mangle)]
pub extern "system" fn Java_org_apache_pulsar_broker_service_schema_protocompat_NativeChecker_configure<
    'local,
>(
    mut unowned_env: EnvUnowned<'local>,
    _class: JClass<'local>,
    settings: JLongArray<'local>,
) -> jboolean {
    unowned_env
        .with_env(|env| -> Result<jboolean, BridgeError> {
            let mut values = [0 as jlong; 8];
            if settings.is_null() || settings.len(env)? != values.len() {
                return Err(BridgeError::Input("configure takes 8 settings".into()));
            }
            settings.get_region(env, 0, &mut values)?;
            let [schemas, decoded, verdicts, bytes, files, messages, fields, comparisons] =
                values.map(|v| usize::try_from(v.max(0)).unwrap_or(usize::MAX));
            let bounds = Bounds {
                max_schemas: schemas,
                max_decoded_bytes: decoded,
                max_verdicts: verdicts,
            };
            let limits = Limits {
                max_schema_bytes: bytes,
                max_files: files,
                max_messages: messages,
                max_fields: fields,
                max_field_comparisons: comparisons,
                ..Limits::DEFAULT
            };
            Ok(CHECKER.set(Checker::with_limits(bounds, limits)).is_ok())
        })
        .resolve::<ThrowCheckException>()
}

/// `NativeChecker.clearCaches()`.
#[unsafe(no_mangle)]
pub extern "system" fn Java_org_apache_pulsar_broker_service_schema_protocompat_NativeChecker_clearCaches<
    'local,
>(
    mut unowned_env: EnvUnowned<'local>,
    _class: JClass<'local>,
) {
    unowned_env
        .with_env(|_env| -> Result<(), BridgeError> {
            checker().clear();
            Ok(())
        })
        .resolve::<ThrowCheckException>()
}

/// `NativeChecker.cacheStats()`: {schemas, decoded schemas, their estimated bytes, verdicts,
/// then the three bounds, then the five limits}.
#[unsafe(no_mangle)]
pub extern "system" fn Java_org_apache_pulsar_broker_service_schema_protocompat_NativeChecker_cacheStats<
    'local,
>(
    mut unowned_env: EnvUnowned<'local>,
    _class: JClass<'local>,
) -> JLongArray<'local> {
    unowned_env
        .with_env(|env| -> Result<JLongArray<'local>, BridgeError> {
            let stats = checker().stats();
            let bounds = checker().bounds();
            let limits = checker().limits();
            let values = [
                stats.schemas,
                stats.decoded,
                stats.decoded_bytes,
                stats.verdicts,
                bounds.max_schemas,
                bounds.max_decoded_bytes,
                bounds.max_verdicts,
                limits.max_schema_bytes,
                limits.max_files,
                limits.max_messages,
                limits.max_fields,
                limits.max_field_comparisons,
            ]
            .map(|v| jlong::try_from(v).unwrap_or(jlong::MAX));
            let array = env.new_long_array(values.len())?;
            array.set_region(env, 0, &values)?;
            Ok(array)
        })
        .resolve::<ThrowCheckException>()
}

fn history_keys(
    env: &mut Env<'_>,
    from: &JObjectArray<'_, JByteArray<'_>>,
) -> Result<Vec<SchemaKey>, BridgeError> {
    if from.is_null() {
        return Err(BridgeError::Input(
            "the list of existing schemas is null".into(),
        ));
    }
    let count = from.len(env)?;
    let mut keys = Vec::with_capacity(count);
    for index in 0..count {
        let element = from.get_element(env, index)?;
        let key = key_in_place(env, &element, &format!("existing schema #{index}"));
        // A history of thousands of versions must not fill the local reference table.
        env.delete_local_ref(element);
        keys.push(key?);
    }
    Ok(keys)
}

/// Hashes a Java byte array where it lies, without copying it: a warm check never copies a
/// schema it has seen before.
fn key_in_place(
    env: &Env<'_>,
    array: &JByteArray<'_>,
    what: &str,
) -> Result<SchemaKey, BridgeError> {
    if array.is_null() {
        return Err(BridgeError::Input(format!(
            "{what} has no schema data (null)"
        )));
    }
    // SAFETY: the critical section only hashes the elements; no JNI call is made while it is
    // held, and NoCopyBack leaves the array unchanged.
    let elements = unsafe { array.get_elements_critical(env, ReleaseMode::NoCopyBack)? };
    // SAFETY: i8 and u8 have the same size and alignment.
    let bytes =
        unsafe { std::slice::from_raw_parts(elements.as_ptr().cast::<u8>(), elements.len()) };
    Ok(schema_key(bytes))
}

/// Copies one schema's bytes, for the engine's loader (cache misses only).
fn read_schema(
    env: &mut Env<'_>,
    from: &JObjectArray<'_, JByteArray<'_>>,
    to: &JByteArray<'_>,
    which: Which,
) -> Result<Vec<u8>, String> {
    let read = |env: &mut Env<'_>| -> jni::errors::Result<Vec<u8>> {
        match which {
            Which::New => env.convert_byte_array(to),
            Which::Existing(index) => {
                let element = from.get_element(env, index)?;
                let bytes = env.convert_byte_array(&element);
                env.delete_local_ref(element);
                bytes
            }
        }
    };
    read(env).map_err(|e| format!("could not read the schema data from Java ({e})"))
}

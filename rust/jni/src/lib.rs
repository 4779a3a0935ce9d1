//! The JNI boundary of the broker plugin, and nothing else: Java arrays in, the engine's
//! verdict out as a return code or a Java exception. Every entry point goes through
//! `EnvUnowned::with_env` (which catches panics) and [`policy::ThrowCheckException`] (which
//! turns every error and panic into one exception type carrying our message).

mod logging;
mod policy;

use jni::objects::{JByteArray, JClass, JObjectArray};
use jni::sys::jint;
use jni::{Env, EnvUnowned};

use policy::{BridgeError, ThrowCheckException};

/// Returned when the schema is compatible. Anything else, including the 0 a failed call
/// returns by default, means "not accepted": the Java side fails closed.
const COMPATIBLE: jint = 1;

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
            let existing = read_history(env, &from)?;
            let proposed = read_bytes(env, &to, "the new schema")?;
            let existing: Vec<&[u8]> = existing.iter().map(Vec::as_slice).collect();
            let report = protocompat::check_code(&existing, &proposed, strategy)?;
            if report.compatible {
                Ok(COMPATIBLE)
            } else {
                Err(BridgeError::Incompatible(report.render_text()))
            }
        })
        .resolve::<ThrowCheckException>()
}

fn read_history(
    env: &mut Env<'_>,
    from: &JObjectArray<'_, JByteArray<'_>>,
) -> Result<Vec<Vec<u8>>, BridgeError> {
    if from.is_null() {
        return Err(BridgeError::Input(
            "the list of existing schemas is null".into(),
        ));
    }
    let count = from.len(env)?;
    let mut history = Vec::with_capacity(count);
    for index in 0..count {
        let element = from.get_element(env, index)?;
        let bytes = read_bytes(env, &element, &format!("existing schema #{index}"));
        // A history of thousands of versions must not fill the local reference table.
        env.delete_local_ref(element);
        history.push(bytes?);
    }
    Ok(history)
}

fn read_bytes(env: &Env<'_>, array: &JByteArray<'_>, what: &str) -> Result<Vec<u8>, BridgeError> {
    if array.is_null() {
        return Err(BridgeError::Input(format!(
            "{what} has no schema data (null)"
        )));
    }
    Ok(env.convert_byte_array(array)?)
}

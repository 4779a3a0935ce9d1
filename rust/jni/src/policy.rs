//! Our error policy: every error and every panic becomes a
//! `org.apache.pulsar.broker.service.schema.protocompat.ProtocompatException` with our full
//! message, which the Java class turns into Pulsar's `IncompatibleSchemaException`.
//!
//! jni's stock `ThrowRuntimeExAndDefault` would throw a `RuntimeException` (an HTTP 500 in the
//! broker) and print `non-string panic payload` for every `panic!("{}", …)`.

use std::any::Any;
use std::fmt;

use jni::errors::ErrorPolicy;
use jni::strings::JNIString;
use jni::{jni_str, Env};
use protocompat::report::TEXT_LIMIT;
use protocompat::text;
use protocompat::CheckError;

pub(crate) enum BridgeError {
    /// The engine's report of an incompatible schema, already rendered, the rule IDs of its
    /// failures, and whether the caches answered the check.
    Incompatible {
        report: String,
        rules: Vec<&'static str>,
        from_caches: bool,
    },
    /// Bad schema data, or an engine failure it contained.
    Check(CheckError),
    /// A null or unreadable argument.
    Input(String),
    /// A bound or limit an operator set that cannot be used.
    Setting(String),
    /// A JNI call failed (a Java exception may be pending).
    Jni(jni::errors::Error),
}

impl From<jni::errors::Error> for BridgeError {
    fn from(e: jni::errors::Error) -> Self {
        BridgeError::Jni(e)
    }
}

impl From<CheckError> for BridgeError {
    fn from(e: CheckError) -> Self {
        BridgeError::Check(e)
    }
}

impl fmt::Display for BridgeError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            BridgeError::Incompatible { report, .. } => f.write_str(report),
            BridgeError::Check(e) => f.write_str(&e.render(crate::property)),
            BridgeError::Input(what) => write!(f, "SCHEMA_RECONSTRUCTION_FAILED: {what}"),
            BridgeError::Setting(what) => f.write_str(what),
            BridgeError::Jni(e) => write!(
                f,
                "INTERNAL_ERROR: the PROTOBUF_NATIVE checker could not read its arguments ({e}); \
                 the schema was not accepted"
            ),
        }
    }
}

pub(crate) struct ThrowCheckException;

impl BridgeError {
    /// What the broker's metrics count this failure as, as `ProtocompatException` reads it:
    /// `kind=incompatible|bad_input|error`, then `rules=A,B` and `fromCaches=true|false` for an
    /// incompatible schema, `rule=R` for bad input. Never a schema's contents.
    fn details(&self) -> String {
        match self {
            BridgeError::Incompatible {
                rules, from_caches, ..
            } => format!(
                "kind=incompatible rules={} fromCaches={from_caches}",
                rules.join(",")
            ),
            BridgeError::Check(CheckError::Schema(e)) => {
                format!("kind=bad_input rule={}", e.rule.id())
            }
            BridgeError::Input(_) => "kind=bad_input rule=SCHEMA_RECONSTRUCTION_FAILED".to_owned(),
            BridgeError::Check(_) | BridgeError::Setting(_) | BridgeError::Jni(_) => {
                "kind=error".to_owned()
            }
        }
    }
}

const EXCEPTION_CLASS: &jni::strings::JNIStr =
    jni_str!("org/apache/pulsar/broker/service/schema/protocompat/ProtocompatException");

fn throw(env: &mut Env<'_>, message: String, details: &str) {
    // A pending exception (an OutOfMemoryError while copying arrays, say) says more than we
    // could; the Java side turns whatever arrives into IncompatibleSchemaException.
    if env.exception_check() {
        return;
    }
    // The message is ours (a report whose names were made printable): cut, not escaped, so
    // that its lines stay lines.
    let message = text::cut(&message, TEXT_LIMIT);
    let exception = env.new_string(message).and_then(|message| {
        let details = env.new_string(details)?;
        env.new_object(
            EXCEPTION_CLASS,
            jni::jni_sig!("(Ljava/lang/String;Ljava/lang/String;)V"),
            &[(&message).into(), (&details).into()],
        )
    });
    let throwable = exception.and_then(|object| env.cast_local::<jni::objects::JThrowable>(object));
    match throwable {
        // throw reports the thrown exception as an Err; that is the point, not a failure.
        Ok(throwable) => {
            let _ = env.throw(throwable);
        }
        // Out of memory for the strings, say: the message alone, if even that can be made.
        Err(_) if !env.exception_check() => {
            let _ = env.throw_new(EXCEPTION_CLASS, JNIString::from("INTERNAL_ERROR"));
        }
        Err(_) => {}
    }
}

impl<T: Default> ErrorPolicy<T, BridgeError> for ThrowCheckException {
    type Captures<'unowned_env_local: 'native_method, 'native_method> = ();

    fn on_error<'unowned_env_local: 'native_method, 'native_method>(
        env: &mut Env<'unowned_env_local>,
        _cap: &mut Self::Captures<'unowned_env_local, 'native_method>,
        err: BridgeError,
    ) -> jni::errors::Result<T> {
        throw(env, err.to_string(), &err.details());
        Ok(T::default())
    }

    fn on_panic<'unowned_env_local: 'native_method, 'native_method>(
        env: &mut Env<'unowned_env_local>,
        _cap: &mut Self::Captures<'unowned_env_local, 'native_method>,
        payload: Box<dyn Any + Send + 'static>,
    ) -> jni::errors::Result<T> {
        throw(
            env,
            protocompat::contain::internal_error(payload).to_string(),
            "kind=error",
        );
        Ok(T::default())
    }
}

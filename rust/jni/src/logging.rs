//! Routes the engine's `log` records (SCALAR_TYPE_CHANGED warnings among them) to the broker's
//! SLF4J through the static Java method `NativeLog.log(int level, String target, String msg)`.
//! No crate does this direction; it must never throw into, or panic out of, the engine.

use std::panic::{catch_unwind, AssertUnwindSafe};
use std::sync::{Once, OnceLock};

use jni::objects::{JClass, JValue};
use jni::refs::Global;
use jni::{jni_sig, jni_str, Env, JavaVM};
use log::{Level, LevelFilter, Log, Metadata, Record};
use protocompat::report::cut;

/// Log messages are bounded like everything else we hand to the broker.
const MESSAGE_LIMIT: usize = 4096;

static LOG_CLASS: OnceLock<Global<JClass<'static>>> = OnceLock::new();
static INSTALL: Once = Once::new();
static LOGGER: JavaLogger = JavaLogger;

/// Called at the start of every native call: the first one, on a Java thread whose class
/// loader sees our classes, caches the Java class and installs the logger.
pub(crate) fn install(env: &mut Env<'_>) {
    INSTALL.call_once(|| {
        let class = env
            .find_class(jni_str!(
                "org/apache/pulsar/broker/service/schema/protocompat/NativeLog"
            ))
            .and_then(|class| env.new_global_ref(class));
        match class {
            Ok(class) => {
                let _ = LOG_CLASS.set(class);
                if log::set_logger(&LOGGER).is_ok() {
                    log::set_max_level(LevelFilter::Info);
                }
            }
            // Without the class there is nowhere to log to; checks still work.
            Err(_) => env.exception_clear(),
        }
    });
}

struct JavaLogger;

impl Log for JavaLogger {
    fn enabled(&self, metadata: &Metadata) -> bool {
        metadata.level() <= Level::Info
    }

    fn log(&self, record: &Record) {
        if !self.enabled(record.metadata()) {
            return;
        }
        let Some(class) = LOG_CLASS.get() else {
            return;
        };
        let message = cut(&record.args().to_string(), MESSAGE_LIMIT);
        let level = record.level() as i32;
        let target = record.target();
        let _ = catch_unwind(AssertUnwindSafe(|| {
            let Ok(vm) = JavaVM::singleton() else {
                return;
            };
            // Already attached (we are inside a native call), so this is cheap; any Java
            // exception the call raises comes back as an Err and is dropped here.
            let _ = vm.attach_current_thread(|env| -> jni::errors::Result<()> {
                let target = env.new_string(target)?;
                let message = env.new_string(&message)?;
                env.call_static_method(
                    class,
                    jni_str!("log"),
                    jni_sig!("(ILjava/lang/String;Ljava/lang/String;)V"),
                    &[
                        JValue::Int(level),
                        JValue::Object(&target),
                        JValue::Object(&message),
                    ],
                )?;
                Ok(())
            });
        }));
    }

    fn flush(&self) {}
}

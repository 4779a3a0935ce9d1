//! Routes the engine's `log` records (SCALAR_TYPE_CHANGED warnings among them) to the broker's
//! SLF4J through the static Java method `NativeLog.log(int level, String target, String msg)`.
//! No crate does this direction; it must never throw into, or panic out of, the engine.
//!
//! Whoever uploads schemas decides how many records a check makes, so the route has a ceiling
//! of its own: at most [`LINES_PER_SECOND`] records a second, the rest counted and reported in
//! one line when records flow again.

use std::sync::{Mutex, Once, OnceLock};
use std::time::{Duration, Instant};

use jni::objects::{JClass, JValue};
use jni::refs::Global;
use jni::{jni_sig, jni_str, Env, JavaVM};
use log::{Level, LevelFilter, Log, Metadata, Record};
use protocompat::text;

/// Log messages are bounded like everything else we hand to the broker.
const MESSAGE_LIMIT: usize = 4096;

/// Records passed to the broker's log per second, over all checks.
const LINES_PER_SECOND: u32 = 20;

struct Ceiling {
    window: Instant,
    passed: u32,
    dropped: u64,
}

static CEILING: Mutex<Option<Ceiling>> = Mutex::new(None);

/// Whether a record may pass now, and how many were dropped before it (to say so first).
fn admit(now: Instant) -> (bool, u64) {
    let mut guard = CEILING.lock().unwrap_or_else(|p| p.into_inner());
    let ceiling = guard.get_or_insert(Ceiling {
        window: now,
        passed: 0,
        dropped: 0,
    });
    if now.duration_since(ceiling.window) >= Duration::from_secs(1) {
        ceiling.window = now;
        ceiling.passed = 0;
    }
    if ceiling.passed >= LINES_PER_SECOND {
        ceiling.dropped += 1;
        return (false, 0);
    }
    ceiling.passed += 1;
    (true, std::mem::take(&mut ceiling.dropped))
}

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
        let (admitted, dropped) = admit(Instant::now());
        if !admitted {
            return;
        }
        let mut message = text::bound(&record.args().to_string(), MESSAGE_LIMIT);
        if dropped > 0 {
            message = format!(
                "({dropped} earlier PROTOBUF_NATIVE checker log records dropped: more than \
                 {LINES_PER_SECOND} a second) {message}"
            );
        }
        let level = record.level() as i32;
        let target = record.target();
        // A log line is never worth a panic in the check that logs it: one caught here is
        // dropped with the line.
        let _ = protocompat::contain_panics(|| {
            let Ok(vm) = JavaVM::singleton() else {
                return Ok(());
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
            Ok(())
        });
    }

    fn flush(&self) {}
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_ceiling_drops_past_its_rate_and_counts_what_it_dropped() {
        let start = Instant::now();
        let passed = (0..100).filter(|_| admit(start).0).count();
        assert_eq!(passed, LINES_PER_SECOND as usize);
        let (admitted, dropped) = admit(start + Duration::from_millis(1500));
        assert!(admitted);
        assert_eq!(dropped, 100 - u64::from(LINES_PER_SECOND));
        assert_eq!(admit(start + Duration::from_millis(1600)), (true, 0));
    }
}

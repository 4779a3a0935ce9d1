//! Panics stop at the engine's edge. A panic in the engine or in a dependency must never
//! unwind into a caller that cannot take it (a JVM thread through JNI, say), nor pass for a
//! verdict: it comes back as [`CheckError::Internal`], with its message, and the schema is not
//! accepted. The engine's entry points run their body through [`contain_panics`]; a front end
//! whose own wrapper catches panics (the JNI bridge's error policy) turns what it caught into
//! the same error with [`internal_error`].

use std::any::Any;
use std::panic::{catch_unwind, AssertUnwindSafe};

use crate::error::CheckError;
use crate::text;

/// Longest panic message kept in the error, in bytes.
const MESSAGE_LIMIT: usize = 300;

/// Runs `f`, turning a panic into [`CheckError::Internal`] with the panic's message.
pub fn contain_panics<T>(f: impl FnOnce() -> Result<T, CheckError>) -> Result<T, CheckError> {
    catch_unwind(AssertUnwindSafe(f)).unwrap_or_else(|payload| Err(internal_error(payload)))
}

/// The error a caught panic is reported as. The payload is leaked, not dropped: dropping it
/// runs its destructor, which may itself panic, outside any `catch_unwind`.
pub fn internal_error(payload: Box<dyn Any + Send>) -> CheckError {
    let message = panic_message(payload.as_ref());
    std::mem::forget(payload);
    CheckError::Internal(message)
}

/// The message a panic was raised with (`panic!("{}", ...)` included), cut to 300 bytes.
pub fn panic_message(payload: &(dyn Any + Send)) -> String {
    let message = payload
        .downcast_ref::<&str>()
        .copied()
        .or_else(|| payload.downcast_ref::<String>().map(String::as_str))
        .unwrap_or("panic with no message");
    text::bound(message, MESSAGE_LIMIT)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_panic_becomes_an_internal_error_with_its_formatted_message() {
        let result: Result<(), CheckError> = contain_panics(|| panic!("boom at depth {}", 7));
        assert_eq!(
            result,
            Err(CheckError::Internal("boom at depth 7".to_owned()))
        );
        let text = result.unwrap_err().to_string();
        assert!(text.starts_with(
            "INTERNAL_ERROR: the PROTOBUF_NATIVE checker failed unexpectedly (boom at depth 7)"
        ));
    }

    #[test]
    fn a_payload_without_text_and_a_long_message_are_both_reported() {
        let silent: Result<(), CheckError> = contain_panics(|| std::panic::panic_any(42_u32));
        assert_eq!(
            silent,
            Err(CheckError::Internal("panic with no message".to_owned()))
        );
        let long: Result<(), CheckError> = contain_panics(|| panic!("{}", "é".repeat(400)));
        let Err(CheckError::Internal(message)) = long else {
            panic!("expected an internal error, got {long:?}");
        };
        assert!(message.len() <= MESSAGE_LIMIT, "{}", message.len());
        assert!(message.ends_with('…'));
    }

    #[test]
    fn a_value_that_is_returned_passes_through() {
        assert_eq!(contain_panics(|| Ok(5)), Ok(5));
    }
}

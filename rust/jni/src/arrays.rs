//! Reading Java arguments: schema data straight out of `byte[]` arrays, and string arrays.
//!
//! A warm check only hashes and compares each schema, so it reads the arrays in place through
//! `GetPrimitiveArrayCritical`. Inside that section the JNI specification allows no other JNI
//! call (the jni crate's own helper makes one, `ExceptionCheck`, which `-Xcheck:jni` reports),
//! so the raw function pair is called here and only plain Rust runs between them. A schema
//! that must be decoded is copied out with `GetByteArrayRegion` instead.

use std::panic::{catch_unwind, resume_unwind, AssertUnwindSafe};
use std::ptr;

use jni::objects::{JByteArray, JObjectArray, JString};
use jni::refs::Reference;
use jni::sys::JNI_ABORT;
use jni::Env;
use protocompat::{SchemaRef, SchemaSource};

use crate::policy::BridgeError;

/// The schemas of one `checkCompatible` call.
pub(crate) struct JavaSchemas<'a, 'local> {
    env: &'a mut Env<'local>,
    from: &'a JObjectArray<'local, JByteArray<'local>>,
    to: &'a JByteArray<'local>,
    count: usize,
}

impl<'a, 'local> JavaSchemas<'a, 'local> {
    /// Refuses null arguments up front, naming which schema has no data.
    pub(crate) fn new(
        env: &'a mut Env<'local>,
        from: &'a JObjectArray<'local, JByteArray<'local>>,
        to: &'a JByteArray<'local>,
    ) -> Result<Self, BridgeError> {
        if from.is_null() {
            return Err(BridgeError::Input(
                "the list of existing schemas is null".into(),
            ));
        }
        if to.is_null() {
            return Err(BridgeError::Input(
                "the new schema has no schema data (null)".into(),
            ));
        }
        let count = from.len(env)?;
        for index in 0..count {
            let element = from.get_element(env, index)?;
            let missing = element.is_null();
            // A history of thousands of versions must not fill the local reference table.
            env.delete_local_ref(element);
            if missing {
                return Err(BridgeError::Input(format!(
                    "existing[{index}] has no schema data (null)"
                )));
            }
        }
        Ok(JavaSchemas {
            env,
            from,
            to,
            count,
        })
    }

    fn with_array<R>(
        &mut self,
        which: SchemaRef,
        f: impl FnOnce(&mut Env<'local>, &JByteArray<'_>) -> jni::errors::Result<R>,
    ) -> Result<R, String> {
        let result = match which {
            SchemaRef::New => f(self.env, self.to),
            SchemaRef::Existing(index) => match self.from.get_element(self.env, index) {
                Ok(element) => {
                    let result = f(self.env, &element);
                    self.env.delete_local_ref(element);
                    result
                }
                Err(e) => Err(e),
            },
        };
        result.map_err(|e| format!("could not read the schema data from Java ({e})"))
    }
}

impl SchemaSource for JavaSchemas<'_, '_> {
    fn existing(&self) -> usize {
        self.count
    }

    fn inspect<R>(&mut self, which: SchemaRef, f: impl FnOnce(&[u8]) -> R) -> Result<R, String> {
        let mut f = Some(f);
        self.with_array(which, |env, array| {
            let f = f.take().expect("called once");
            pinned(env, array, f)
        })
    }

    fn copy(&mut self, which: SchemaRef) -> Result<Vec<u8>, String> {
        self.with_array(which, |env, array| env.convert_byte_array(array))
    }
}

/// Runs `f` on the array's elements in place, between the raw Get/Release critical calls.
fn pinned<R>(
    env: &Env<'_>,
    array: &JByteArray<'_>,
    f: impl FnOnce(&[u8]) -> R,
) -> jni::errors::Result<R> {
    let len = array.len(env)?;
    let raw_env = env.get_raw();
    let raw_array = array.as_raw();
    // SAFETY: `raw_env` is this thread's valid JNIEnv and `raw_array` a live local reference
    // to a byte[] of `len` elements. Between Get and Release only `f` runs, which reads the
    // elements and makes no JNI call; a panic in it is caught so that Release always runs.
    unsafe {
        let interface = *raw_env;
        let elements =
            ((*interface).v1_2.GetPrimitiveArrayCritical)(raw_env, raw_array, ptr::null_mut());
        if elements.is_null() {
            // The JVM could not pin or copy the array (an OutOfMemoryError is pending).
            return Err(jni::errors::Error::NullPtr("GetPrimitiveArrayCritical"));
        }
        let bytes = std::slice::from_raw_parts(elements.cast::<u8>(), len);
        let outcome = catch_unwind(AssertUnwindSafe(|| f(bytes)));
        ((*interface).v1_2.ReleasePrimitiveArrayCritical)(raw_env, raw_array, elements, JNI_ABORT);
        match outcome {
            Ok(value) => Ok(value),
            Err(panic) => resume_unwind(panic),
        }
    }
}

/// A Java `String[]` as Rust strings; null elements are refused.
pub(crate) fn strings(
    env: &mut Env<'_>,
    array: &JObjectArray<'_, JString<'_>>,
    what: &str,
) -> Result<Vec<String>, BridgeError> {
    if array.is_null() {
        return Err(BridgeError::Input(format!("the {what} are null")));
    }
    let count = array.len(env)?;
    let mut strings = Vec::with_capacity(count);
    for index in 0..count {
        let element = array.get_element(env, index)?;
        if element.is_null() {
            return Err(BridgeError::Input(format!("one of the {what} is null")));
        }
        strings.push(element.try_to_string(env)?);
        env.delete_local_ref(element);
    }
    Ok(strings)
}

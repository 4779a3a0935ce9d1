//! FileDescriptorSet bytes -> the model of the root file's import closure.
//!
//! Pulsar serializes the set from a hash map, so files arrive in any order. The set is first
//! walked without decoding (`prescan`) to count it against the limits and to find where each
//! file lies; then only the files of the root file's import closure are read into the model,
//! dependencies first. Files outside it are counted and never read, so they impose nothing
//! beyond the limits (docs/rules.md#limits).
//!
//! Most sets hold the root's closure and nothing else, as a client built from generated
//! classes sends them. Such a set is first read in one pass, the model's reader keeping the
//! prescan's counts as it goes (`tally`); anything unusual on the way ends the pass, and the
//! set is then walked and decoded as above, which says what is wrong.

use super::closure::{import_closure, index_by_name};
use super::prescan;
use super::read::{BuildError, Builder};
use super::set::{body, file_records, malformed};
use super::tables::Model;
use super::tally::Tally;
use crate::error::DecodeError;
use crate::limits::Limits;

pub(crate) fn build_model(
    bytes: &[u8],
    root_file: &str,
    limits: &Limits,
) -> Result<Model, DecodeError> {
    match build_in_one_pass(bytes, root_file, limits) {
        Some(model) => Ok(model),
        None => build_after_prescan(bytes, root_file, limits),
    }
}

pub(super) fn build_both_ways(
    bytes: &[u8],
    root_file: &str,
    limits: &Limits,
) -> (Option<Model>, Result<Model, DecodeError>) {
    (
        build_in_one_pass(bytes, root_file, limits),
        build_after_prescan(bytes, root_file, limits),
    )
}

/// The model of a set that is exactly the root's import closure, read in one pass, or `None`
/// when the set is anything else, or anything on the way is unusual or wrong: the prescan then
/// walks it. A model built here is the one [`build_after_prescan`] builds: the same files in
/// the same order, read by the same code, and the counts the prescan would take within the
/// limits (see `tally`).
fn build_in_one_pass(bytes: &[u8], root_file: &str, limits: &Limits) -> Option<Model> {
    // Every element is a key and a length at least: past this, the prescan counts them.
    if bytes.len() / 2 > limits.max_elements {
        return None;
    }
    let records = file_records(bytes, limits.max_files)?;
    let files = index_by_name(&records);
    let closure = import_closure(&files, root_file).ok()?;
    // A file listed twice, a file with no name or one the root does not import: the prescan
    // counts and checks what the model would not read.
    if closure.len() != records.len() {
        return None;
    }
    let mut builder = Builder::new(Tally::one_pass(limits));
    for record in closure {
        builder.file(body(record).ok()?).ok()?;
    }
    let counts = builder.counts(records.len(), bytes.len());
    limits.check_counts(&counts, String::new).ok()?;
    builder.finish().ok()
}

/// The model of the root's import closure, after the prescan has walked the whole set and
/// its counts are within the limits.
fn build_after_prescan(
    bytes: &[u8],
    root_file: &str,
    limits: &Limits,
) -> Result<Model, DecodeError> {
    // Past maxFiles the scan keeps no more records, and the count refuses the set anyway.
    let scan = prescan::scan(bytes, limits.max_files)?;
    limits.check_counts(&scan.counts, || scan.longest_name_place())?;
    if scan.counts.files == 0 {
        return Err(DecodeError::invalid("fileDescriptorSet holds no files"));
    }
    let files = index_by_name(&scan.files);
    let closure = import_closure(&files, root_file)?;
    let mut builder = Builder::new(Tally::after_prescan());
    // When the closure is the whole set, the counts say exactly how many rows the tables get.
    if closure.len() == scan.counts.files {
        builder.reserve(&scan.counts);
    }
    for record in closure {
        builder.file(body(record)?).map_err(|e| match e {
            BuildError::Refused(error) => *error,
            BuildError::Malformed(description) => malformed(record, description),
        })?;
    }
    builder.finish()
}

//! One side of `buf breaking` (the module's files, or those it is checked against) as the
//! schemas the engine compares: for a root message, the file declaring it and every file it
//! imports, in the Java client's order, wrapped as Pulsar's schema data, with their source
//! info kept aside to place findings.

use std::collections::HashSet;

use prost::Message;
use prost_types::{FileDescriptorProto, FileDescriptorSet};
use protocompat::model::{prescan, Counts, SchemaData};
use protocompat::Limits;

use super::options::limit_option;
use super::request::{without_field, File};
use super::Failure;
use crate::input::wire::push_bytes;
use crate::input::{java_order, json_names, Loaded, Sources};

/// How much more one side may hold than one schema may ([`Limits`]): a module holds files no
/// root reaches. Raising a limit (the `limits` option) raises this too.
const SIDE_FACTOR: usize = 4;

/// Source info is most of what buf sends (a location, its span and comments for each
/// declaration), and the engine's `maxNestedRecords` counts it where a Java client sends none:
/// this much more is allowed for it, on a side and in one schema's files.
const SOURCE_FACTOR: usize = 20;

/// `FileDescriptorProto.source_code_info`.
const SOURCE_CODE_INFO: u32 = 9;

pub struct Side<'a> {
    /// How the user knows this side, for messages: "the module", "the against input".
    pub which: &'static str,
    /// Every file, decoded without its source info, in the request's order.
    pub set: FileDescriptorSet,
    /// Each file's bytes as buf sent them, and without source info.
    raw: Vec<&'a [u8]>,
    stripped: Vec<Vec<u8>>,
}

impl<'a> Side<'a> {
    /// Reads a side's files, refusing a side past the limits before decoding any of it.
    pub fn read(
        files: &[File<'a>],
        limits: &Limits,
        which: &'static str,
    ) -> Result<Side<'a>, Failure> {
        let mut set = Vec::new();
        for file in files {
            push_bytes(&mut set, 1, file.proto);
        }
        let counts =
            prescan(&set).map_err(|e| Failure::invalid(format!("{which}: {}", e.message)))?;
        drop(set);
        within(&counts, limits, which, SIDE_FACTOR)?;
        let mut side = Side {
            which,
            set: FileDescriptorSet::default(),
            raw: Vec::with_capacity(files.len()),
            stripped: Vec::with_capacity(files.len()),
        };
        let mut names = HashSet::new();
        for file in files {
            let stripped = without_field(file.proto, SOURCE_CODE_INFO)
                .map_err(|e| Failure::invalid(format!("{which}: a file: {e}")))?;
            let decoded = FileDescriptorProto::decode(stripped.as_slice())
                .map_err(|e| Failure::invalid(format!("{which}: a file: {e}")))?;
            if !names.insert(decoded.name().to_owned()) {
                return Err(Failure::invalid(format!(
                    "{which}: two files are named `{}`",
                    protocompat::text::bound(decoded.name(), 200)
                )));
            }
            side.set.file.push(decoded);
            side.raw.push(file.proto);
            side.stripped.push(stripped);
        }
        Ok(side)
    }

    /// The schema whose root is `root`, declared in file `index`: that file and its imports as
    /// the Java client uploads them, with their source info aside. An import the side lacks is
    /// left for the engine to refuse, as it refuses such schema data from a client.
    pub fn schema(&self, root: &str, index: usize, limits: &Limits) -> Result<Loaded, Failure> {
        let root_file = self.set.file[index].name();
        let files: Vec<(usize, &FileDescriptorProto)> = self.set.file.iter().enumerate().collect();
        let ordered = java_order::order_by(files, root_file, |(_, f)| (f.name(), &f.dependency));
        let mut set = Vec::new();
        let mut with_sources = Vec::new();
        for (i, _) in &ordered {
            push_bytes(&mut set, 1, &self.stripped[*i]);
            push_bytes(&mut with_sources, 1, self.raw[*i]);
        }
        let sources = sources(&with_sources, limits);
        // JSON names as the classes generated from these files carry them, as `protocompat
        // schema` makes them: the same files give the same digest in buf and in the CLI.
        if let Some(sources) = &sources {
            set = json_names::as_generated(&set, &sources.set)
                .map_err(|e| Failure::invalid(format!("{}: {root_file}: {e}", self.which)))?;
        }
        let data = SchemaData {
            descriptor_set: set,
            root_message: root.to_owned(),
            root_file: root_file.to_owned(),
        }
        .to_json()
        .into_bytes();
        Ok(Loaded {
            data,
            label: format!("{} {root_file}", self.which),
            version: None,
            sources,
        })
    }
}

/// The schema's files with their source info, when they are within the limits (the engine
/// refuses the schema otherwise, and the finding is placed at the file).
fn sources(set: &[u8], limits: &Limits) -> Option<Sources> {
    let counts = prescan(set).ok()?;
    within(&counts, limits, "", 1).ok()?;
    Some(Sources {
        set: FileDescriptorSet::decode(set).ok()?,
        // No file is read from disk: positions come from the source info buf sent.
        files: Default::default(),
    })
}

/// Refuses `counts` past `factor` times the limits (source info past [`SOURCE_FACTOR`] times
/// that), naming the count, the bound and the option that raises it.
fn within(counts: &Counts, limits: &Limits, which: &str, factor: usize) -> Result<(), Failure> {
    let bounds = [
        ("files", counts.files, limits.max_files, "maxFiles"),
        (
            "messages",
            counts.messages,
            limits.max_messages,
            "maxMessages",
        ),
        ("fields", counts.fields, limits.max_fields, "maxFields"),
        (
            "enum values",
            counts.enum_values,
            limits.max_enum_values,
            "maxEnumValues",
        ),
        (
            "declarations",
            counts.declarations,
            limits.max_declarations,
            "maxDeclarations",
        ),
        (
            "records",
            counts.elements,
            limits.max_elements,
            "maxElements",
        ),
        (
            "bytes of full names",
            counts.full_name_bytes,
            limits.max_full_name_bytes,
            "maxFullNameBytes",
        ),
        (
            "records of options and source info",
            counts.nested_records,
            limits.max_nested_records.saturating_mul(SOURCE_FACTOR),
            "maxNestedRecords",
        ),
    ];
    for (what, count, limit, setting) in bounds {
        let bound = limit.saturating_mul(factor);
        if count > bound {
            return Err(Failure::exhausted(format!(
                "RESOURCE_LIMIT_EXCEEDED: {which} holds {count} {what}, over the {bound} this plugin \
                 reads on one side ({factor} × limit.{setting}; {} raises it)",
                limit_option(setting)
            )));
        }
    }
    if counts.longest_name > limits.max_name_length {
        return Err(Failure::exhausted(format!(
            "RESOURCE_LIMIT_EXCEEDED: {which} has a name of {} bytes, over the limit of {} ({} \
             raises it)",
            counts.longest_name,
            limits.max_name_length,
            limit_option("maxNameLength")
        )));
    }
    Ok(())
}

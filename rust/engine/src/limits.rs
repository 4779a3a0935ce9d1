//! Resource bounds: schema data comes from any client with schema rights, so everything that
//! grows with it is capped before the work starts, and a schema past a cap is refused fast with
//! RESOURCE_LIMIT_EXCEEDED, naming the limit and how to raise it.

use crate::error::DecodeError;

/// The caps. Defaults are far above real schemas (descriptor.proto is 30 messages, 9 KB).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Limits {
    /// Bytes of schema data (the JSON the broker stores).
    pub max_schema_bytes: usize,
    /// Files in a descriptor set.
    pub max_files: usize,
    /// Messages in a descriptor set, nested ones and map entries included.
    pub max_messages: usize,
    /// Fields in a descriptor set, extensions included.
    pub max_fields: usize,
    /// Enum values in a descriptor set.
    pub max_enum_values: usize,
    /// Bytes of any one name in a descriptor set: file names, packages and imports, the names
    /// of declarations and the type names that refer to them (see [`Counts::longest_name`]).
    pub max_name_length: usize,
    /// Declarations of a descriptor set: messages, fields, oneofs, enums, enum values,
    /// services and methods together.
    pub max_declarations: usize,
    /// Records of a descriptor set the decoder would turn into values (see
    /// [`Counts::elements`]).
    pub max_elements: usize,
    /// Records inside the options, source info and ranges of a descriptor set (see
    /// [`Counts::nested_records`]).
    pub max_nested_records: usize,
    /// Bytes of all full names of a descriptor set together (see [`Counts::full_name_bytes`]).
    pub max_full_name_bytes: usize,
    /// Field pairs compared in one check, over its whole history.
    pub max_field_comparisons: usize,
    /// Work units one check may spend over its whole history: decoding each schema it
    /// compares and comparing each pair, charged whether or not the caches answer them
    /// ([`crate::budget::Work`]).
    pub max_check_work: usize,
    /// Heap one check may hold at once, measured where the metered allocator is installed
    /// (see [`crate::budget`]).
    pub max_check_memory_bytes: usize,
    /// CPU time one check's thread may use, in milliseconds: a backstop under
    /// `max_check_work` for what its accounting misses (see [`crate::budget`]).
    pub max_check_cpu_millis: usize,
}

impl Limits {
    pub const DEFAULT: Limits = Limits {
        max_schema_bytes: 16 << 20,
        max_files: 1_000,
        max_messages: 50_000,
        // Decoding and walking a field both ways costs about 1.3 KB of heap at the peak
        // (`tests/peak_memory.rs`), so this keeps a check at the limits near 130 MB; real
        // schemas have a few thousand fields.
        max_fields: 100_000,
        // Real enums have at most a few thousand values (country, currency or error codes).
        // A hundred thousand leaves a wide margin and bounds what decoding them costs: about
        // 500 bytes of heap per value at the peak, so some 50 MB.
        max_enum_values: 100_000,
        // Identifiers and file paths of real schemas stay under a few hundred bytes. Names are
        // copied into every full name built from them, so their length multiplies memory.
        max_name_length: 1_024,
        // Every declaration costs heap in the pool whatever its kind (an empty oneof about
        // 750 bytes, a field 1.3 KB with the walk): 5 million empty oneofs took 4 GB. This
        // bounds them all together, with room for the fields' messages, enums and oneofs.
        max_declarations: 150_000,
        // A declaration is a few records (its name, type name, JSON name), so this is what the
        // declaration limit implies, with room for options and ranges; the rest of the records
        // (numbers, labels) allocate nothing of their own.
        max_elements: 1_000_000,
        // Options are a handful per schema once compiled (`packed`, `deprecated`); the pool
        // spends about 800 bytes on each uninterpreted option's name part, so this keeps them
        // under 100 MB. Source info, which the checker never reads, counts here too: a schema
        // uploaded with it (Java clients send none) has room for about 10,000 declarations.
        max_nested_records: 100_000,
        // A real schema's full names add up to a few megabytes (50,000 names of 60 bytes). The
        // pool keeps each, so nesting long names (a 1,000-byte package over three 1,000-byte
        // message names) multiplies them past the size of the set: 400 MB of names in 2.3 MB.
        max_full_name_bytes: 32 << 20,
        max_field_comparisons: 50_000_000,
        // About three seconds of one core for the costliest inputs known (a unit is about a
        // nanosecond there, RELIABILITY.md "Work per check"): a FULL_TRANSITIVE check against
        // a thousand versions of `bench/schemas/large.proto` (73 KB) takes under a third of it,
        // one of two schemas at every other limit a tenth at most.
        max_check_work: 3_000_000_000,
        // Over twice the worst check the other limits let through (214 MB through JNI at the
        // field limit, both schemas decoded: `PeakMemoryTest`): a net for whatever a count
        // misses, far from what a real schema needs.
        max_check_memory_bytes: 512 << 20,
        // The work budget holds the costliest check known to about 3 s of this machine's CPU
        // (RELIABILITY.md, "The cost model"); three times that leaves room for a slower or
        // busier broker before two brokers could disagree, and still ends a check that the
        // accounting missed long before a client or an operator gives up on it.
        max_check_cpu_millis: 10_000,
    };

    pub(crate) fn check_size(&self, bytes: usize) -> Result<(), DecodeError> {
        exceeded(
            "schema data",
            bytes,
            self.max_schema_bytes,
            "limit.maxSchemaBytes",
            "bytes",
        )
    }

    /// The counts of a descriptor set, taken before it is decoded. `longest_name_place` says
    /// where the longest name is; it is called only to refuse it.
    pub(crate) fn check_counts(
        &self,
        counts: &Counts,
        longest_name_place: impl FnOnce() -> String,
    ) -> Result<(), DecodeError> {
        let set = "the descriptor set";
        exceeded(set, counts.files, self.max_files, "limit.maxFiles", "files")?;
        exceeded(
            set,
            counts.messages,
            self.max_messages,
            "limit.maxMessages",
            "messages",
        )?;
        exceeded(
            set,
            counts.fields,
            self.max_fields,
            "limit.maxFields",
            "fields",
        )?;
        exceeded(
            set,
            counts.enum_values,
            self.max_enum_values,
            "limit.maxEnumValues",
            "enum values",
        )?;
        exceeded(
            set,
            counts.declarations,
            self.max_declarations,
            "limit.maxDeclarations",
            "declarations (messages, fields, oneofs, enums, enum values, services, methods)",
        )?;
        exceeded(
            set,
            counts.elements,
            self.max_elements,
            "limit.maxElements",
            "elements (declarations, their names and strings, options, ranges)",
        )?;
        exceeded(
            set,
            counts.nested_records,
            self.max_nested_records,
            "limit.maxNestedRecords",
            "records inside options, source info and ranges",
        )?;
        exceeded(
            set,
            counts.full_name_bytes,
            self.max_full_name_bytes,
            "limit.maxFullNameBytes",
            "bytes of full names",
        )?;
        if counts.longest_name > self.max_name_length {
            return Err(DecodeError::over_limit(
                "limit.maxNameLength",
                format!(
                    "a name in the descriptor set is {} bytes long, over the limit of {}: {}",
                    counts.longest_name,
                    self.max_name_length,
                    longest_name_place()
                ),
            ));
        }
        Ok(())
    }
}

/// What a descriptor set declares, counted over every file in it, imported or not.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct Counts {
    /// File records (the same file listed twice counts twice).
    pub files: usize,
    /// Messages, nested ones, map entries and groups included.
    pub messages: usize,
    /// Fields, extensions included.
    pub fields: usize,
    /// Enum values.
    pub enum_values: usize,
    /// Every declaration the model builds a row or checks a name for: messages, fields, oneofs, enums, enum
    /// values, services and methods.
    pub declarations: usize,
    /// Every record decoding allocates for: each declaration, each string (names, type names,
    /// imports, reserved names, defaults) and each options, source info or range message. A
    /// bound on what decoding can allocate, whatever the set repeats.
    pub elements: usize,
    /// Records inside options, source info and ranges, a few levels down (uninterpreted
    /// options and their name parts, locations and their comments): compiled schemas have
    /// few, and the pool spends hundreds of bytes on each.
    pub nested_records: usize,
    /// Bytes of the full names (`pkg.Outer.Inner.field`) of every declaration together: what
    /// a descriptor model may store, which nesting multiplies beyond the size of the set.
    pub full_name_bytes: usize,
    /// Bytes of the longest name: file names, packages, imports, the names of messages,
    /// fields, oneofs, enums, enum values, services and methods, and the type names, extendees,
    /// JSON names and method input and output types that refer to them.
    pub longest_name: usize,
}

fn exceeded(
    what: &str,
    count: usize,
    limit: usize,
    setting: &'static str,
    unit: &str,
) -> Result<(), DecodeError> {
    if count <= limit {
        return Ok(());
    }
    Err(DecodeError::over_limit(
        setting,
        format!("{what} has {count} {unit}, over the limit of {limit}"),
    ))
}

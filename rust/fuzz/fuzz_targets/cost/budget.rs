//! What is left of `protocompat::Limits::DEFAULT` as a plan is read ([`Budget`]), and what each
//! element of a part costs against it ([`Cost`]): each part takes what fits, so that the engine
//! gets to work on the schemas instead of refusing them at the door.

use protocompat::Limits;

/// What one element costs against each limit, roughly and on the high side.
#[derive(Clone, Copy, Default)]
pub struct Cost {
    bytes: usize,
    fields: usize,
    messages: usize,
    values: usize,
    declarations: usize,
    elements: usize,
    nested: usize,
    full_names: usize,
}

impl Cost {
    /// A field named `name` bytes in a scope of `scope` bytes, with `extra` bytes of type
    /// name, default and options.
    pub fn field(scope: usize, name: usize, extra: usize) -> Cost {
        Cost {
            bytes: 16 + name + extra,
            fields: 1,
            declarations: 1,
            elements: 6,
            nested: 4,
            full_names: scope + 8 + name,
            ..Cost::default()
        }
    }

    /// A message of `fields` fields.
    pub fn message(scope: usize, fields: usize) -> Cost {
        let field = Cost::field(scope + 10, 12, 24);
        Cost {
            bytes: 16 + fields * field.bytes,
            fields: fields + 1,
            messages: 1,
            declarations: 2 + fields,
            elements: 8 + fields * field.elements,
            nested: 4 + fields * field.nested,
            full_names: scope + 12 + fields * field.full_names + field.full_names,
            values: 0,
        }
    }

    pub fn enumeration(scope: usize) -> Cost {
        Cost {
            bytes: 20,
            declarations: 1,
            elements: 4,
            nested: 4,
            full_names: scope + 12,
            ..Cost::default()
        }
    }

    pub fn value(scope: usize) -> Cost {
        Cost {
            bytes: 20,
            values: 1,
            declarations: 1,
            elements: 3,
            full_names: scope + 20,
            ..Cost::default()
        }
    }

    pub fn oneof(scope: usize) -> Cost {
        Cost {
            bytes: 12,
            declarations: 1,
            elements: 3,
            nested: 2,
            full_names: scope + 16,
            ..Cost::default()
        }
    }

    /// A map field, its entry and the entry's two fields.
    pub fn map(scope: usize) -> Cost {
        let mut cost = Cost::message(scope + 8, 2);
        cost.fields += 1;
        cost.declarations += 1;
        cost.bytes += 60;
        cost.full_names += scope + 30;
        cost
    }

    /// A message with `ranges` extension ranges, held by a field of the root.
    pub fn ranged(scope: usize, ranges: usize) -> Cost {
        let mut cost = Cost::message(scope, 1);
        cost.bytes += ranges * 10;
        cost.elements += ranges * 3;
        cost.nested += ranges * 3;
        cost
    }

    pub fn range() -> Cost {
        Cost {
            bytes: 14,
            elements: 3,
            nested: 3,
            ..Cost::default()
        }
    }

    pub fn reserved_name() -> Cost {
        Cost {
            bytes: 14,
            elements: 2,
            ..Cost::default()
        }
    }
}

/// What is left of the default limits, with a margin: each part takes what fits.
pub struct Budget {
    left: Cost,
    /// Bytes of the package, the scope of every full name.
    pub scope: usize,
}

impl Budget {
    pub fn new(scope: usize) -> Budget {
        let l = Limits::DEFAULT;
        // Schema data is JSON with the set in base64 (4/3), beside room for the marker
        // message, tiny fields and the synthetic oneofs.
        Budget {
            left: Cost {
                bytes: l.max_schema_bytes * 3 / 4 * 9 / 10,
                fields: l.max_fields * 9 / 10,
                messages: l.max_messages * 9 / 10,
                values: l.max_enum_values * 9 / 10,
                declarations: l.max_declarations * 9 / 10 - l.max_fields / 10,
                elements: l.max_elements * 9 / 10,
                nested: l.max_nested_records * 9 / 10,
                full_names: l.max_full_name_bytes * 9 / 10,
            },
            scope,
        }
    }

    /// How many of `want` elements costing `each` fit, taking them.
    pub fn fit(&mut self, want: usize, each: Cost) -> usize {
        let room = |left: usize, one: usize| left.checked_div(one).unwrap_or(usize::MAX);
        let l = &mut self.left;
        let n = want
            .min(room(l.bytes, each.bytes))
            .min(room(l.fields, each.fields))
            .min(room(l.messages, each.messages))
            .min(room(l.values, each.values))
            .min(room(l.declarations, each.declarations))
            .min(room(l.elements, each.elements))
            .min(room(l.nested, each.nested))
            .min(room(l.full_names, each.full_names));
        l.bytes -= n * each.bytes;
        l.fields -= n * each.fields;
        l.messages -= n * each.messages;
        l.values -= n * each.values;
        l.declarations -= n * each.declarations;
        l.elements -= n * each.elements;
        l.nested -= n * each.nested;
        l.full_names -= n * each.full_names;
        n
    }
}

//! Services: their methods' input and output types are names to resolve.

use super::super::descriptor_proto::tag;
use super::super::prescan::Kind;
use super::super::tables::Str;
use super::super::wire::Fields;
use super::resolve::{Pending, Target};
use super::{Builder, Context, Element, Result};

impl<'a> Builder<'a> {
    /// A service: its methods' input and output types must resolve to messages.
    pub(super) fn service(&mut self, ctx: Context, scope: Str, bytes: &'a [u8]) -> Result<()> {
        let mut name = "";
        for field in Fields::new(bytes) {
            let (number, value) = field?;
            if number == tag::service::NAME {
                name = value.text()?;
                self.tally.name(name.len());
            } else {
                self.tally.unread(Kind::Service, number, value)?;
            }
        }
        self.tally.declared(scope.len, name.len())?;
        let (owner, _) = self.join(scope, name);
        self.identifier(ctx, &Element::named(owner), "a service", name)?;
        for field in Fields::new(bytes) {
            let (number, value) = field?;
            if number != tag::service::METHOD {
                continue;
            }
            let mut method = "";
            let mut types = Vec::with_capacity(2);
            for field in Fields::new(value.bytes()?) {
                let (number, value) = field?;
                match number {
                    tag::method::NAME => {
                        method = value.text()?;
                        self.tally.name(method.len());
                    }
                    tag::method::INPUT_TYPE | tag::method::OUTPUT_TYPE => {
                        let type_name = value.text()?;
                        self.tally.name(type_name.len());
                        types.push(type_name);
                    }
                    _ => self.tally.unread(Kind::Method, number, value)?,
                }
            }
            self.tally.declared(owner.len, method.len())?;
            let element = Element {
                scope: owner,
                name: method,
            };
            self.identifier(ctx, &element, "a method", method)?;
            for type_name in types {
                self.pending.push(Pending {
                    target: Target::MessageName,
                    name: type_name,
                    scope,
                    file: ctx.file,
                    owner,
                    member: method,
                });
            }
        }
        Ok(())
    }
}

//! The admin API's lists of names (clusters, brokers, tenants, namespaces, topics), read as
//! they stream in: each name is handed on while it is read, so that a list of millions of
//! names costs what its reader keeps of them, not a `String` each.

use std::fmt;

use serde::de::{self, DeserializeSeed, SeqAccess, Visitor};

use super::Client;
use crate::console::Error;

const SHAPE: &str = "not a JSON list of names";

/// Every name of the JSON list at `path`, handed to `each` as it is read and held nowhere
/// here; an error from `each` stops the reading and is the answer.
pub fn each_name(
    client: &Client,
    path: &str,
    what: &str,
    each: impl FnMut(&str) -> Result<(), Error>,
) -> Result<(), Error> {
    each_name_at(client, &client.url(path), what, each)
}

/// As [`each_name`], for the list at an absolute `url`, which may be another cluster's web
/// service: the token goes there only where it may go (--admin-url's origin,
/// --allow-redirect-host).
pub fn each_name_at(
    client: &Client,
    url: &str,
    what: &str,
    mut each: impl FnMut(&str) -> Result<(), Error>,
) -> Result<(), Error> {
    let answer = client.get_url(url, "application/json")?;
    if answer.status() != 200 {
        return Err(answer.refused(what));
    }
    let mut stopped = None;
    let read = answer.parse(what, SHAPE, |reader| {
        let mut json = serde_json::Deserializer::from_reader(reader);
        let names = Names {
            each: &mut each,
            stopped: &mut stopped,
            element: false,
        };
        de::Deserializer::deserialize_seq(&mut json, names)?;
        json.end()
    });
    match stopped {
        Some(error) => Err(error),
        None => read,
    }
}

/// A JSON list of names from the admin API (`GET /admin/v2/tenants`, a tenant's namespaces),
/// for lists as short as those.
pub fn names(client: &Client, path: &str, what: &str) -> Result<Vec<String>, Error> {
    let mut names = Vec::new();
    each_name(client, path, what, |name| {
        names.push(name.to_owned());
        Ok(())
    })?;
    Ok(names)
}

/// The list, and each name in it: the same visitor, as a sequence and as its elements.
struct Names<'a, F> {
    each: &'a mut F,
    /// The error `each` stopped the reading with.
    stopped: &'a mut Option<Error>,
    /// A name in the list, not the list.
    element: bool,
}

impl<'de, F: FnMut(&str) -> Result<(), Error>> Visitor<'de> for Names<'_, F> {
    type Value = ();

    fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
        f.write_str(if self.element {
            "a name"
        } else {
            "a list of names"
        })
    }

    fn visit_seq<A: SeqAccess<'de>>(self, mut list: A) -> Result<(), A::Error> {
        while list
            .next_element_seed(Names {
                each: &mut *self.each,
                stopped: &mut *self.stopped,
                element: true,
            })?
            .is_some()
        {}
        Ok(())
    }

    fn visit_str<E: de::Error>(self, name: &str) -> Result<(), E> {
        (self.each)(name).map_err(|error| {
            *self.stopped = Some(error);
            E::custom("stopped")
        })
    }
}

impl<'de, F: FnMut(&str) -> Result<(), Error>> DeserializeSeed<'de> for Names<'_, F> {
    type Value = ();

    fn deserialize<D: de::Deserializer<'de>>(self, element: D) -> Result<(), D::Error> {
        element.deserialize_str(self)
    }
}

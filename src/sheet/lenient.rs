//! Reading a group of typed extra fields leniently: a key that fits its
//! type is typed, one that does not stays as written, so a round trip
//! through `verify` loses nothing a tool added.

use std::fmt;
use std::marker::PhantomData;

use serde::Deserializer;
use serde::de::{DeserializeOwned, MapAccess, Visitor};
use serde_json::{Map, Value};

/// A group of typed extra fields, flattened into its owner.
pub trait Lenient: Default {
    /// The keys the group types.
    const FIELDS: &'static [&'static str];
    /// Takes `value` for `key`, or gives it back where it does not fit.
    fn put(&mut self, key: &str, value: Value) -> Result<(), Value>;
    /// Keys of the group kept as written.
    fn unparsed(&mut self) -> &mut Map<String, Value>;
}

/// `value` as a `T`, or `value` back.
pub fn typed<T: DeserializeOwned>(value: Value) -> Result<T, Value> {
    T::deserialize(&value).map_err(|_| value)
}

/// Reads a [`Lenient`] group from the owner's keys (see the module doc).
pub fn read_lenient<'de, D: Deserializer<'de>, T: Lenient>(d: D) -> Result<T, D::Error> {
    struct Group<T>(PhantomData<T>);
    impl<'de, T: Lenient> Visitor<'de> for Group<T> {
        type Value = T;
        fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
            f.write_str("a map")
        }
        fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<T, A::Error> {
            let mut group = T::default();
            while let Some((key, value)) = map.next_entry::<String, Value>()? {
                if let Err(value) = group.put(&key, value) {
                    group.unparsed().insert(key, value);
                }
            }
            Ok(group)
        }
    }
    // Flattened, `deserialize_struct` hands over only the named keys.
    d.deserialize_struct("group", T::FIELDS, Group(PhantomData))
}

//! An observation as JSON, split into its top-level fields as it is written: the match service
//! sends a viewer only the fields that changed since its last `state` (docs/protocol.md section
//! 4.1), and compares each field's text with the one it sent, without reading the JSON back.

use std::borrow::Cow;
use std::collections::BTreeMap;
use std::fmt;

use serde::ser::{self, Impossible, Serialize, SerializeMap, SerializeStruct, Serializer};
use serde_json::value::{RawValue, to_raw_value};

/// A top-level field of an observation: its name and its value's JSON text.
pub type Field = (Cow<'static, str>, Box<RawValue>);

/// An observation as JSON (`DynGame::observe_fields`): the document `DynGame::observe_text`
/// gives, held as its top-level fields when it is an object.
#[derive(Clone, Debug)]
pub enum ObservationJson {
    /// A JSON object: its top-level fields, in the order written.
    Object(Vec<Field>),
    /// Any other JSON value, whole.
    Other(Box<RawValue>),
}

impl ObservationJson {
    /// `value` as JSON, each top-level field written on its own.
    ///
    /// # Panics
    /// If `value` does not serialize to JSON (an observation always does: a map with keys that
    /// are not strings would not).
    pub fn of<T: Serialize + ?Sized>(value: &T) -> ObservationJson {
        if let Ok(fields) = value.serialize(Fields) {
            return ObservationJson::Object(fields);
        }
        let whole = to_raw_value(value).expect("observations serialize to JSON");
        // An object written as a map (its keys known only as it is written): its fields read
        // back, in key order.
        if whole.get().starts_with('{')
            && let Ok(map) = serde_json::from_str::<BTreeMap<String, Box<RawValue>>>(whole.get())
        {
            let fields = map.into_iter().map(|(k, v)| (Cow::Owned(k), v));
            return ObservationJson::Object(fields.collect());
        }
        ObservationJson::Other(whole)
    }

    /// The top-level fields in the order written, when the observation is an object.
    #[must_use]
    pub fn fields(&self) -> Option<&[Field]> {
        match self {
            ObservationJson::Object(fields) => Some(fields),
            ObservationJson::Other(_) => None,
        }
    }

    /// Whether `self` and `other` are the same JSON text (the same fields, in the same order).
    #[must_use]
    pub fn same_as(&self, other: &ObservationJson) -> bool {
        match (self, other) {
            (ObservationJson::Object(a), ObservationJson::Object(b)) => {
                a.len() == b.len()
                    && a.iter()
                        .zip(b)
                        .all(|((ka, va), (kb, vb))| ka == kb && va.get() == vb.get())
            }
            (ObservationJson::Other(a), ObservationJson::Other(b)) => a.get() == b.get(),
            _ => false,
        }
    }
}

/// Written as the JSON it holds: `observe_text`'s document.
impl Serialize for ObservationJson {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        match self {
            ObservationJson::Object(fields) => {
                let mut map = s.serialize_map(Some(fields.len()))?;
                for (k, v) in fields {
                    map.serialize_entry(k, v)?;
                }
                map.end()
            }
            ObservationJson::Other(whole) => whole.serialize(s),
        }
    }
}

/// Writes a struct's fields each on its own (`ObservationJson::of`); refuses anything else.
struct Fields;

/// What `Fields` refuses: a value that is not a struct (or a field that does not serialize).
#[derive(Debug)]
struct NotAStruct;

impl fmt::Display for NotAStruct {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("not a struct")
    }
}

impl std::error::Error for NotAStruct {}

impl ser::Error for NotAStruct {
    fn custom<T: fmt::Display>(_: T) -> Self {
        NotAStruct
    }
}

/// The fields written so far.
struct Written(Vec<Field>);

impl SerializeStruct for Written {
    type Ok = Vec<Field>;
    type Error = NotAStruct;

    fn serialize_field<T: Serialize + ?Sized>(
        &mut self,
        key: &'static str,
        value: &T,
    ) -> Result<(), NotAStruct> {
        let value = to_raw_value(value).map_err(|_| NotAStruct)?;
        self.0.push((Cow::Borrowed(key), value));
        Ok(())
    }

    fn end(self) -> Result<Vec<Field>, NotAStruct> {
        Ok(self.0)
    }
}

/// The `Serializer` methods for what `Fields` refuses.
macro_rules! refuse {
    ($($method:ident($($arg:ty),*) -> $ok:ty;)*) => {
        $(fn $method(self, $(_: $arg),*) -> Result<$ok, NotAStruct> {
            Err(NotAStruct)
        })*
    };
}

impl Serializer for Fields {
    type Ok = Vec<Field>;
    type Error = NotAStruct;
    type SerializeSeq = Impossible<Vec<Field>, NotAStruct>;
    type SerializeTuple = Impossible<Vec<Field>, NotAStruct>;
    type SerializeTupleStruct = Impossible<Vec<Field>, NotAStruct>;
    type SerializeTupleVariant = Impossible<Vec<Field>, NotAStruct>;
    type SerializeMap = Impossible<Vec<Field>, NotAStruct>;
    type SerializeStruct = Written;
    type SerializeStructVariant = Impossible<Vec<Field>, NotAStruct>;

    refuse! {
        serialize_bool(bool) -> Vec<Field>;
        serialize_i8(i8) -> Vec<Field>;
        serialize_i16(i16) -> Vec<Field>;
        serialize_i32(i32) -> Vec<Field>;
        serialize_i64(i64) -> Vec<Field>;
        serialize_u8(u8) -> Vec<Field>;
        serialize_u16(u16) -> Vec<Field>;
        serialize_u32(u32) -> Vec<Field>;
        serialize_u64(u64) -> Vec<Field>;
        serialize_f32(f32) -> Vec<Field>;
        serialize_f64(f64) -> Vec<Field>;
        serialize_char(char) -> Vec<Field>;
        serialize_str(&str) -> Vec<Field>;
        serialize_bytes(&[u8]) -> Vec<Field>;
        serialize_none() -> Vec<Field>;
        serialize_unit() -> Vec<Field>;
        serialize_unit_struct(&'static str) -> Vec<Field>;
        serialize_unit_variant(&'static str, u32, &'static str) -> Vec<Field>;
        serialize_seq(Option<usize>) -> Self::SerializeSeq;
        serialize_tuple(usize) -> Self::SerializeTuple;
        serialize_tuple_struct(&'static str, usize) -> Self::SerializeTupleStruct;
        serialize_tuple_variant(&'static str, u32, &'static str, usize) -> Self::SerializeTupleVariant;
        serialize_map(Option<usize>) -> Self::SerializeMap;
        serialize_struct_variant(&'static str, u32, &'static str, usize) -> Self::SerializeStructVariant;
    }

    fn serialize_some<T: Serialize + ?Sized>(self, value: &T) -> Result<Vec<Field>, NotAStruct> {
        value.serialize(self)
    }

    fn serialize_newtype_struct<T: Serialize + ?Sized>(
        self,
        _: &'static str,
        value: &T,
    ) -> Result<Vec<Field>, NotAStruct> {
        value.serialize(self)
    }

    fn serialize_newtype_variant<T: Serialize + ?Sized>(
        self,
        _: &'static str,
        _: u32,
        _: &'static str,
        _: &T,
    ) -> Result<Vec<Field>, NotAStruct> {
        Err(NotAStruct)
    }

    fn serialize_struct(self, _: &'static str, len: usize) -> Result<Written, NotAStruct> {
        Ok(Written(Vec::with_capacity(len)))
    }
}

#[cfg(test)]
mod tests {
    use std::collections::BTreeMap;

    use serde::Serialize;

    use super::ObservationJson;

    #[derive(Serialize)]
    struct Seen {
        board: Vec<u8>,
        #[serde(skip_serializing_if = "Option::is_none")]
        roll: Option<&'static str>,
        name: &'static str,
    }

    /// The text of `value` as an `ObservationJson` writes it.
    fn text(value: &ObservationJson) -> String {
        serde_json::to_string(value).unwrap()
    }

    /// The fields of `json`: each its name and its value's text.
    fn fields(json: &ObservationJson) -> Vec<(&str, &str)> {
        json.fields()
            .unwrap()
            .iter()
            .map(|(k, v)| (&**k, v.get()))
            .collect()
    }

    #[test]
    fn a_struct_is_split_into_its_fields_as_serde_json_writes_them() {
        let seen = Seen {
            board: vec![1, 2],
            roll: None,
            name: "a \"b\"",
        };
        let json = ObservationJson::of(&seen);
        assert_eq!(
            fields(&json),
            [("board", "[1,2]"), ("name", r#""a \"b\"""#)]
        );
        assert_eq!(text(&json), serde_json::to_string(&seen).unwrap());
    }

    #[test]
    fn a_map_is_read_back_into_fields_and_anything_else_kept_whole() {
        let map = BTreeMap::from([("x", 1), ("a", 2)]);
        let json = ObservationJson::of(&map);
        assert_eq!(fields(&json), [("a", "2"), ("x", "1")]);
        assert_eq!(text(&json), r#"{"a":2,"x":1}"#);
        let list = ObservationJson::of(&[3, 4]);
        assert!(list.fields().is_none());
        assert_eq!(text(&list), "[3,4]");
        assert_eq!(text(&ObservationJson::of(&Some(5))), "5");
    }

    #[test]
    fn the_same_text_is_the_same_observation() {
        let a = Seen {
            board: vec![1],
            roll: Some("2"),
            name: "n",
        };
        let b = Seen {
            board: vec![1],
            roll: None,
            name: "n",
        };
        let (ja, jb) = (ObservationJson::of(&a), ObservationJson::of(&b));
        assert!(ja.same_as(&ObservationJson::of(&a)));
        assert!(!ja.same_as(&jb));
        assert!(!ja.same_as(&ObservationJson::of(&[1])));
    }
}

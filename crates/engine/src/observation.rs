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

/// An observation as the match service keeps it to compare the next one with
/// (`KeptObservation::of`): its fields' names and texts one after the other in one string,
/// where `ObservationJson` holds a list and a string per field (a Moon Leap observation in
/// about 560 bytes of the heap against 1,100; a match keeps one per distinct viewer).
#[derive(Clone, Debug)]
pub struct KeptObservation {
    /// Each field's name, then its value's text, field after field.
    text: Box<str>,
    /// Per field, where its name ends and where its value ends in `text`. `None` for an
    /// observation that is not an object (or, never in practice, one of 4 GiB or more).
    ends: Option<Box<[(u32, u32)]>>,
}

impl KeptObservation {
    /// `json`'s fields, kept. An observation that is not an object keeps none: it has no
    /// fields to compare, so the next one is sent whole all the same.
    #[must_use]
    pub fn of(json: &ObservationJson) -> KeptObservation {
        let none = KeptObservation {
            text: Box::default(),
            ends: None,
        };
        let Some(fields) = json.fields() else {
            return none;
        };
        let length = fields.iter().map(|(k, v)| k.len() + v.get().len()).sum();
        if u32::try_from(length).is_err() {
            return none;
        }
        // Both at their size: no allocation is made twice.
        let mut text = String::with_capacity(length);
        let mut ends = Vec::with_capacity(fields.len());
        for (name, value) in fields {
            text.push_str(name);
            let name_end = text.len() as u32;
            text.push_str(value.get());
            ends.push((name_end, text.len() as u32));
        }
        KeptObservation {
            text: text.into_boxed_str(),
            ends: Some(ends.into_boxed_slice()),
        }
    }

    /// How many fields are kept; `None` when the observation was not an object.
    #[must_use]
    pub fn len(&self) -> Option<usize> {
        self.ends.as_deref().map(<[_]>::len)
    }

    /// Whether there are no fields to compare (the observation was not an object, or was an
    /// empty one).
    #[must_use]
    pub fn is_empty(&self) -> bool {
        self.len().is_none_or(|n| n == 0)
    }

    /// Field `i`: its name and its value's text.
    #[must_use]
    pub fn field(&self, i: usize) -> Option<(&str, &str)> {
        let ends = self.ends.as_deref()?;
        let (name_end, value_end) = *ends.get(i)?;
        let start = i.checked_sub(1).map_or(0, |j| ends[j].1 as usize);
        let (name_end, value_end) = (name_end as usize, value_end as usize);
        Some((&self.text[start..name_end], &self.text[name_end..value_end]))
    }

    /// The fields kept in the order written, each its name and its value's text; `None` when
    /// the observation was not an object.
    #[must_use]
    pub fn fields(&self) -> Option<impl Iterator<Item = (&str, &str)> + Clone + '_> {
        let n = self.len()?;
        Some((0..n).filter_map(|i| self.field(i)))
    }

    /// Whether `json` has the fields kept, named and written alike, in the same order (never
    /// for an observation that is not an object).
    #[must_use]
    pub fn same_as(&self, json: &ObservationJson) -> bool {
        match (self.fields(), json.fields()) {
            (Some(kept), Some(now)) => {
                self.len() == Some(now.len())
                    && kept
                        .zip(now)
                        .all(|((ka, va), (kb, vb))| ka == &**kb && va == vb.get())
            }
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

    use super::{KeptObservation, ObservationJson};

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
    fn a_kept_observation_has_the_fields_and_texts_written() {
        let seen = Seen {
            board: vec![1, 2],
            roll: Some("é"),
            name: "n",
        };
        let json = ObservationJson::of(&seen);
        let kept = KeptObservation::of(&json);
        let fields: Vec<_> = kept.fields().unwrap().collect();
        assert_eq!(
            fields,
            [("board", "[1,2]"), ("roll", "\"é\""), ("name", "\"n\"")]
        );
        assert_eq!((kept.len(), kept.is_empty()), (Some(3), false));
        assert_eq!(kept.field(1), Some(("roll", "\"é\"")));
        assert_eq!(kept.field(3), None);
        assert!(kept.same_as(&json));
        let other = Seen { roll: None, ..seen };
        assert!(!kept.same_as(&ObservationJson::of(&other)));
        let list = KeptObservation::of(&ObservationJson::of(&[1]));
        assert!(list.fields().is_none() && list.field(0).is_none() && list.is_empty());
        assert!(!list.same_as(&ObservationJson::of(&[1])));
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

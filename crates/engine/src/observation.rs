//! An observation as JSON text, with where each of its top-level fields lies in it: the match
//! service sends a viewer only the fields that changed since its last `state` (docs/protocol.md
//! section 4.1), and compares each field's text with the one it sent, without reading the JSON
//! back. The text is written once, in one buffer: no field has a buffer of its own.

use std::collections::BTreeMap;
use std::fmt;
use std::ops::Range;

use serde::ser::{self, Impossible, Serialize, SerializeStruct, Serializer};
use serde_json::value::RawValue;

/// JSON text that serde_json wrote, serialized as it is (a JSON value in serde_json's output, not
/// a string), as serde_json's own `RawValue` is, but made without reading the text back to check
/// it: it can only be made by serializing a value (`JsonText::of`) or by this module, from text
/// serde_json wrote.
/// Made for one message or broadcast, it keeps the room it was written into.
#[derive(Clone, PartialEq, Eq, Debug)]
pub struct JsonText(String);

impl JsonText {
    /// `value` written as JSON, into a buffer of `capacity` bytes to start with (grown if it
    /// needs more).
    ///
    /// # Errors
    /// serde_json's, when `value` does not serialize to JSON (a map with keys that are not
    /// strings).
    pub fn of<T: Serialize + ?Sized>(value: &T, capacity: usize) -> serde_json::Result<JsonText> {
        let mut text = Vec::with_capacity(capacity);
        serde_json::to_writer(&mut text, value)?;
        String::from_utf8(text)
            .map(JsonText)
            .map_err(ser::Error::custom)
    }

    /// The JSON text.
    #[must_use]
    pub fn get(&self) -> &str {
        &self.0
    }
}

/// Written as the JSON it holds.
impl Serialize for JsonText {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        verbatim(&self.0, s)
    }
}

/// The name serde_json gives the struct and the field through which its `RawValue` serializes
/// (its `raw` module): a serde_json serializer writes that field's string as it is, and its
/// `to_value` reads it as JSON. A test holds the two to the same output.
const RAW_VALUE: &str = "$serde_json::private::RawValue";

/// Serializes `json`, JSON text that serde_json wrote, as it is: as serde_json's `RawValue` is,
/// without making one (which would read the text back to check it, or copy it).
fn verbatim<S: Serializer>(json: &str, s: S) -> Result<S::Ok, S::Error> {
    let mut raw = s.serialize_struct(RAW_VALUE, 1)?;
    raw.serialize_field(RAW_VALUE, json)?;
    raw.end()
}

/// serde_json's output as text: it writes only UTF-8, so this never fails (an empty text if it
/// ever did, which no viewer would be sent as JSON).
fn utf8(bytes: Vec<u8>) -> Box<str> {
    String::from_utf8(bytes)
        .unwrap_or_default()
        .into_boxed_str()
}

/// Where one top-level field lies in an observation's text: its name's JSON string starts at
/// `key` (the opening quote), its value at `value` (just after the colon) and ends at `end`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
struct Span {
    key: u32,
    value: u32,
    end: u32,
}

impl Span {
    /// Where the field's name lies, between its quotes.
    fn name(self) -> Range<usize> {
        self.key as usize + 1..self.value as usize - 2
    }

    /// Where the field's value lies.
    fn value(self) -> Range<usize> {
        self.value as usize..self.end as usize
    }
}

/// An observation as JSON (`DynGame::observe_fields`): the document `DynGame::observe_text`
/// gives, with where each top-level field lies in it when it is an object. Compact (one string
/// and one list of positions), as the match service keeps one per distinct view of every match
/// in memory, to compare the next one with.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ObservationJson {
    /// The document.
    text: Box<str>,
    /// Its top-level fields in the order written, when it is an object (`None` otherwise, or,
    /// never in practice, for one of 4 GiB or more).
    fields: Option<Box<[Span]>>,
}

/// The room a struct's text is written into per field to start with (bytes): a Moon Leap
/// observation of 12 fields takes about 600 bytes.
const ROOM_PER_FIELD: usize = 64;

impl ObservationJson {
    /// `value` as JSON, its top-level fields' places noted as they are written.
    ///
    /// # Panics
    /// If `value` does not serialize to JSON (an observation always does: a map with keys that
    /// are not strings would not).
    pub fn of<T: Serialize + ?Sized>(value: &T) -> ObservationJson {
        if let Ok(written) = value.serialize(Fields) {
            return ObservationJson {
                text: utf8(written.text),
                fields: Some(written.spans.into_boxed_slice()),
            };
        }
        let whole = serde_json::to_vec(value).expect("observations serialize to JSON");
        // An object written as a map (its keys known only as it is written): its fields read
        // back, and written again in key order.
        if whole.starts_with(b"{")
            && let Ok(map) = serde_json::from_slice::<BTreeMap<String, &RawValue>>(&whole)
            && let Ok(written) = Written::of_map(&map, whole.len())
        {
            return ObservationJson {
                text: utf8(written.text),
                fields: Some(written.spans.into_boxed_slice()),
            };
        }
        ObservationJson {
            text: utf8(whole),
            fields: None,
        }
    }

    /// The whole document's JSON text.
    #[must_use]
    pub fn text(&self) -> &str {
        &self.text
    }

    /// Whether the observation is an object, whose fields can be compared one by one.
    #[must_use]
    pub fn is_object(&self) -> bool {
        self.fields.is_some()
    }

    /// How many top-level fields it has; `None` when it is not an object.
    #[must_use]
    pub fn len(&self) -> Option<usize> {
        self.fields.as_deref().map(<[Span]>::len)
    }

    /// Whether it has no field to compare (it is not an object, or an empty one).
    #[must_use]
    pub fn is_empty(&self) -> bool {
        self.len().is_none_or(|n| n == 0)
    }

    /// Field `i`: its name as written between the quotes of its JSON string (the name itself
    /// unless it has characters JSON escapes) and its value's text.
    #[must_use]
    pub fn field(&self, i: usize) -> Option<(&str, &str)> {
        let span = self.fields.as_deref()?.get(i)?;
        Some((self.name(span), self.value(span)))
    }

    /// The fields in the order written, as `field` gives them; `None` when it is not an object.
    #[must_use]
    pub fn fields(&self) -> Option<impl Iterator<Item = (&str, &str)> + Clone + '_> {
        let spans = self.fields.as_deref()?;
        Some(spans.iter().map(|s| (self.name(s), self.value(s))))
    }

    /// Whether `self` and `other` are the same JSON text.
    #[must_use]
    pub fn same_as(&self, other: &ObservationJson) -> bool {
        self.text == other.text
    }

    /// The patch from `before` (what a viewer was sent) to `self` (docs/protocol.md section
    /// 4.1): the fields whose value's text is not that of the same field in `before`, written as
    /// one JSON object in their order, and the names of the fields of `before` that `self`
    /// lacks. `None` unless both are objects. The texts are compared as written, without reading
    /// them back.
    #[must_use]
    pub fn patch_from(&self, before: &ObservationJson) -> Option<ObservationPatch> {
        let (now, was) = (self.fields.as_deref()?, before.fields.as_deref()?);
        // One pass, into room for the whole observation (a patch is at most that): the patch
        // lives for one broadcast.
        let mut text = String::with_capacity(self.text.len());
        text.push('{');
        let mut same_names = now.len() == was.len();
        // Compared as bytes: the same texts, without a slice's checks of character boundaries.
        let (text_now, text_was) = (self.text.as_bytes(), before.text.as_bytes());
        for (i, s) in now.iter().enumerate() {
            let name = &text_now[s.name()];
            // An observation's fields come in its type's order: each is looked for at its own
            // place first (a field left out shifts the others).
            let at = |w: &&Span| text_was[w.name()] == *name;
            let here = was.get(i).filter(at);
            same_names &= here.is_some();
            let old = here.or_else(|| was.iter().find(at));
            if old.is_some_and(|w| text_was[w.value()] == text_now[s.value()]) {
                continue;
            }
            if text.len() > 1 {
                text.push(',');
            }
            text.push_str(&self.text[s.key as usize..s.end as usize]);
        }
        text.push('}');
        let removed = if same_names {
            Vec::new()
        } else {
            was.iter()
                .filter(|w| !now.iter().any(|n| self.name(n) == before.name(w)))
                .filter_map(|w| serde_json::from_str(before.key_json(w)).ok())
                .collect()
        };
        Some(ObservationPatch {
            changed: JsonText(text),
            removed,
        })
    }

    /// The name of the field at `span`, as written between its quotes.
    fn name(&self, span: &Span) -> &str {
        &self.text[span.name()]
    }

    /// The JSON string of the name of the field at `span`, quotes and all.
    fn key_json(&self, span: &Span) -> &str {
        &self.text[span.key as usize..span.value as usize - 1]
    }

    /// The text of the value of the field at `span`.
    fn value(&self, span: &Span) -> &str {
        &self.text[span.value()]
    }
}

/// Written as the JSON it holds: `observe_text`'s document.
impl Serialize for ObservationJson {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        verbatim(&self.text, s)
    }
}

/// What changed in an observation since a viewer's last one (`ObservationJson::patch_from`):
/// a `state`'s `observation_patch` and `observation_removed` (docs/protocol.md section 4.1).
#[derive(Clone, PartialEq, Eq, Debug)]
pub struct ObservationPatch {
    /// The fields that changed, each whole, as one JSON object in their order.
    pub changed: JsonText,
    /// The names of the fields that are gone.
    pub removed: Vec<String>,
}

impl ObservationPatch {
    /// Whether no field changed and none is gone.
    #[must_use]
    pub fn is_empty(&self) -> bool {
        self.changed.get() == "{}" && self.removed.is_empty()
    }
}

/// Writes a struct's fields into one buffer, noting where each lies (`ObservationJson::of`);
/// refuses anything else.
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

/// An object's text written so far, and where each of its fields lies.
struct Written {
    text: Vec<u8>,
    spans: Vec<Span>,
}

impl Written {
    /// Room for `capacity` bytes of an object of `fields` fields, its brace opened.
    fn new(capacity: usize, fields: usize) -> Written {
        let mut text = Vec::with_capacity(capacity);
        text.push(b'{');
        Written {
            text,
            spans: Vec::with_capacity(fields),
        }
    }

    /// Writes one field as serde_json writes an object's: its name's JSON string, a colon and
    /// the value (`value` writes it), after a comma but for the first.
    fn field(
        &mut self,
        key: &str,
        value: impl FnOnce(&mut Vec<u8>) -> Result<(), NotAStruct>,
    ) -> Result<(), NotAStruct> {
        let at = |text: &Vec<u8>| u32::try_from(text.len()).map_err(|_| NotAStruct);
        if !self.spans.is_empty() {
            self.text.push(b',');
        }
        let key_at = at(&self.text)?;
        serde_json::to_writer(&mut self.text, key).map_err(|_| NotAStruct)?;
        self.text.push(b':');
        let value_at = at(&self.text)?;
        value(&mut self.text)?;
        self.spans.push(Span {
            key: key_at,
            value: value_at,
            end: at(&self.text)?,
        });
        Ok(())
    }

    /// The object of `map`'s fields in key order.
    fn of_map(map: &BTreeMap<String, &RawValue>, capacity: usize) -> Result<Written, NotAStruct> {
        let mut written = Written::new(capacity, map.len());
        for (key, value) in map {
            written.field(key, |text| {
                text.extend_from_slice(value.get().as_bytes());
                Ok(())
            })?;
        }
        written.text.push(b'}');
        Ok(written)
    }
}

impl SerializeStruct for Written {
    type Ok = Written;
    type Error = NotAStruct;

    fn serialize_field<T: Serialize + ?Sized>(
        &mut self,
        key: &'static str,
        value: &T,
    ) -> Result<(), NotAStruct> {
        self.field(key, |text| {
            value
                .serialize(&mut serde_json::Serializer::new(text))
                .map_err(|_| NotAStruct)
        })
    }

    fn end(mut self) -> Result<Written, NotAStruct> {
        self.text.push(b'}');
        Ok(self)
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
    type Ok = Written;
    type Error = NotAStruct;
    type SerializeSeq = Impossible<Written, NotAStruct>;
    type SerializeTuple = Impossible<Written, NotAStruct>;
    type SerializeTupleStruct = Impossible<Written, NotAStruct>;
    type SerializeTupleVariant = Impossible<Written, NotAStruct>;
    type SerializeMap = Impossible<Written, NotAStruct>;
    type SerializeStruct = Written;
    type SerializeStructVariant = Impossible<Written, NotAStruct>;

    refuse! {
        serialize_bool(bool) -> Written;
        serialize_i8(i8) -> Written;
        serialize_i16(i16) -> Written;
        serialize_i32(i32) -> Written;
        serialize_i64(i64) -> Written;
        serialize_u8(u8) -> Written;
        serialize_u16(u16) -> Written;
        serialize_u32(u32) -> Written;
        serialize_u64(u64) -> Written;
        serialize_f32(f32) -> Written;
        serialize_f64(f64) -> Written;
        serialize_char(char) -> Written;
        serialize_str(&str) -> Written;
        serialize_bytes(&[u8]) -> Written;
        serialize_none() -> Written;
        serialize_unit() -> Written;
        serialize_unit_struct(&'static str) -> Written;
        serialize_unit_variant(&'static str, u32, &'static str) -> Written;
        serialize_seq(Option<usize>) -> Self::SerializeSeq;
        serialize_tuple(usize) -> Self::SerializeTuple;
        serialize_tuple_struct(&'static str, usize) -> Self::SerializeTupleStruct;
        serialize_tuple_variant(&'static str, u32, &'static str, usize) -> Self::SerializeTupleVariant;
        serialize_map(Option<usize>) -> Self::SerializeMap;
        serialize_struct_variant(&'static str, u32, &'static str, usize) -> Self::SerializeStructVariant;
    }

    fn serialize_some<T: Serialize + ?Sized>(self, value: &T) -> Result<Written, NotAStruct> {
        value.serialize(self)
    }

    fn serialize_newtype_struct<T: Serialize + ?Sized>(
        self,
        _: &'static str,
        value: &T,
    ) -> Result<Written, NotAStruct> {
        value.serialize(self)
    }

    fn serialize_newtype_variant<T: Serialize + ?Sized>(
        self,
        _: &'static str,
        _: u32,
        _: &'static str,
        _: &T,
    ) -> Result<Written, NotAStruct> {
        Err(NotAStruct)
    }

    fn serialize_struct(self, _: &'static str, len: usize) -> Result<Written, NotAStruct> {
        Ok(Written::new(ROOM_PER_FIELD * len + 2, len))
    }
}

#[cfg(test)]
mod tests {
    use std::collections::BTreeMap;

    use serde::Serialize;
    use serde_json::json;
    use serde_json::value::RawValue;

    use super::{JsonText, ObservationJson};

    #[derive(Serialize)]
    struct Seen {
        board: Vec<u8>,
        #[serde(skip_serializing_if = "Option::is_none")]
        roll: Option<&'static str>,
        name: &'static str,
    }

    /// The text of `value` as serde_json writes it.
    fn text<T: Serialize + ?Sized>(value: &T) -> String {
        serde_json::to_string(value).unwrap()
    }

    /// The fields of `json`: each its name and its value's text.
    fn fields(json: &ObservationJson) -> Vec<(&str, &str)> {
        json.fields().unwrap().collect()
    }

    #[test]
    fn a_struct_is_written_as_serde_json_writes_it_with_its_fields_noted() {
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
        assert_eq!(json.text(), r#"{"board":[1,2],"name":"a \"b\""}"#);
        assert_eq!(text(&json), text(&seen));
        assert_eq!((json.len(), json.is_empty()), (Some(2), false));
        assert_eq!(json.field(1), Some(("name", r#""a \"b\"""#)));
        assert_eq!(json.field(2), None);
        // Longer than the room made for it at first.
        let seen = Seen {
            board: vec![200; 400],
            roll: Some("é"),
            name: "n",
        };
        let long = ObservationJson::of(&seen);
        assert_eq!(long.field(1), Some(("roll", "\"é\"")));
        assert_eq!(long.text(), text(&seen));
    }

    #[test]
    fn a_map_is_read_back_into_fields_in_key_order_and_anything_else_kept_whole() {
        let map = BTreeMap::from([("x", 1), ("a\n", 2)]);
        let json = ObservationJson::of(&map);
        assert_eq!(fields(&json), [("a\\n", "2"), ("x", "1")]);
        assert_eq!(text(&json), r#"{"a\n":2,"x":1}"#);
        let list = ObservationJson::of(&[3, 4]);
        assert!(list.fields().is_none() && list.field(0).is_none() && list.is_empty());
        assert!(!list.is_object());
        assert_eq!(text(&list), "[3,4]");
        assert_eq!(text(&ObservationJson::of(&Some(5))), "5");
        let empty = ObservationJson::of(&BTreeMap::<String, u8>::new());
        assert_eq!((text(&empty), empty.len()), ("{}".to_owned(), Some(0)));
    }

    #[test]
    fn written_text_serializes_as_serde_json_writes_a_raw_value() {
        #[derive(Serialize)]
        struct Message<'a, T: Serialize> {
            kind: &'a str,
            body: T,
            after: u8,
        }
        let seen = Seen {
            board: vec![7],
            roll: Some("r"),
            name: "n",
        };
        let expected = r#"{"kind":"k","body":{"board":[7],"roll":"r","name":"n"},"after":1}"#;
        let raw = RawValue::from_string(text(&seen)).unwrap();
        let json = ObservationJson::of(&seen);
        let written = JsonText::of(&seen, 4).unwrap();
        fn message<T: Serialize>(body: T) -> Message<'static, T> {
            Message {
                kind: "k",
                body,
                after: 1,
            }
        }
        assert_eq!(text(&message(&*raw)), expected);
        assert_eq!(text(&message(&json)), expected);
        assert_eq!(text(&message(&written)), expected);
        let value = serde_json::to_value(message(&json)).unwrap();
        assert_eq!(
            value["body"],
            json!({"board": [7], "roll": "r", "name": "n"})
        );
        assert_eq!(serde_json::to_value(&written).unwrap()["roll"], "r");
        assert_eq!(written.get(), text(&seen));
    }

    #[test]
    fn a_patch_has_the_fields_changed_in_order_and_the_names_gone() {
        let before = ObservationJson::of(&Seen {
            board: vec![1],
            roll: Some("2"),
            name: "n",
        });
        let same = ObservationJson::of(&Seen {
            board: vec![1],
            roll: Some("2"),
            name: "n",
        });
        assert!(same.same_as(&before));
        let patch = same.patch_from(&before).unwrap();
        assert!(patch.is_empty());
        assert_eq!(patch.changed.get(), "{}");
        let after = ObservationJson::of(&Seen {
            board: vec![1, 3],
            roll: None,
            name: "m",
        });
        assert!(!after.same_as(&before));
        let patch = after.patch_from(&before).unwrap();
        assert_eq!(patch.changed.get(), r#"{"board":[1,3],"name":"m"}"#);
        assert_eq!(patch.removed, ["roll"]);
        assert!(!patch.is_empty());
        // A field back after it was gone, found at another place than its own.
        let patch = before.patch_from(&after).unwrap();
        assert_eq!(
            patch.changed.get(),
            r#"{"board":[1],"roll":"2","name":"n"}"#
        );
        assert!(patch.removed.is_empty());
        // Names JSON escapes come back as themselves.
        let odd = ObservationJson::of(&BTreeMap::from([("a\"b", 1), ("c", 2)]));
        let fewer = ObservationJson::of(&BTreeMap::from([("c", 2)]));
        let patch = fewer.patch_from(&odd).unwrap();
        assert_eq!(
            (patch.changed.get(), &patch.removed[..]),
            ("{}", &["a\"b".to_owned()][..])
        );
        let list = ObservationJson::of(&[1]);
        assert!(list.patch_from(&before).is_none() && before.patch_from(&list).is_none());
    }
}

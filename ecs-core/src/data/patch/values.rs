//! A patch's component values: written as MessagePack for comparing and
//! carrying, turned into JSON (whole, or as an RFC 7396 merge patch from
//! the old value) for the JSON form, and read back into boxed values of
//! their type before a patch changes anything.

use serde_json::{Map, Value as Json};

use crate::component::ops::BoxedComponent;
use crate::data::codec::{deserialize_fns, serialize_fns, DeserializeFns, SerializeFns, Stored};
use crate::data::format::Fmt;
use crate::data::variant::merge_patch;
use crate::Error;

use super::{Type, Value};

/// The name a type is written under.
pub(super) fn name(ty: Type) -> &'static str {
    ty.keys()[0].name()
}

/// The writers of `ty`, when it can be both written and read back.
pub(super) fn writers(ty: Type) -> Option<&'static SerializeFns> {
    let ops = ty.ops;
    serialize_fns(ops).filter(|_| ops.deserialize.is_some())
}

/// The readers of `ty`.
pub(super) fn readers(ty: Type) -> Result<&'static DeserializeFns, Error> {
    deserialize_fns(ty.ops)
        .filter(|_| ty.ops.serialize.is_some())
        .ok_or_else(|| Error::NotSerializable {
            names: vec![name(ty)],
        })
}

/// `value` as MessagePack.
pub(super) fn to_bin(write: &SerializeFns, value: Stored<'_>) -> Result<Vec<u8>, String> {
    let mut out = Vec::new();
    (write.binary)(value, &mut out).map_err(|e| e.to_string())?;
    Ok(out)
}

/// `value` as JSON.
pub(super) fn to_json(write: &SerializeFns, value: Stored<'_>) -> Result<Json, String> {
    let mut out = Vec::new();
    (write.json)(value, &mut out, Fmt::new(false, 0)).map_err(|e| e.to_string())?;
    serde_json::from_slice(&out).map_err(|e| e.to_string())
}

/// A value of `ty` read from `value`; `current` gives the value in place
/// a merge patch applies to. `path` names the value for an error.
pub(super) fn decode<'w>(
    ty: Type,
    value: &Value,
    current: impl FnOnce() -> Option<Stored<'w>>,
    path: &str,
) -> Result<BoxedComponent, Error> {
    let read = readers(ty)?;
    let bad = |inner: String, message: String| Error::Data {
        path: if inner.is_empty() {
            path.to_owned()
        } else {
            format!("{path}.{inner}")
        },
        message: format!("in a `{}`, {message}", name(ty)),
    };
    match value {
        Value::Bin { new, .. } => (read.binary)(new).map_err(|e| bad(String::new(), e.to_string())),
        Value::Data(json) => (read.boxed)(json).map_err(|(inner, m)| bad(inner, m)),
        Value::Merge(patch) => {
            let write = writers(ty).ok_or_else(|| Error::NotSerializable {
                names: vec![name(ty)],
            })?;
            let stored = current().ok_or_else(|| bad(String::new(), "nothing to patch".into()))?;
            let mut json = to_json(write, stored).map_err(|m| bad(String::new(), m))?;
            merge_patch(&mut json, patch);
            (read.boxed)(&json).map_err(|(inner, m)| bad(inner, m))
        }
    }
}

/// The JSON of a value: `("patch", merge patch)` when the old value is
/// known and the change is one a merge patch can say, else `("data",
/// whole value)`.
pub(super) fn json_entry(ty: Type, value: &Value) -> Result<(&'static str, Json), Error> {
    let as_json = |bytes: &[u8]| -> Result<Json, Error> {
        let read = readers(ty)?;
        let write = writers(ty).ok_or_else(|| Error::NotSerializable {
            names: vec![name(ty)],
        })?;
        let boxed = (read.binary)(bytes).map_err(|e| data_error(ty, e.to_string()))?;
        to_json(write, Stored::Any(&*boxed)).map_err(|m| data_error(ty, m))
    };
    match value {
        Value::Bin { new, old } => {
            let new = as_json(new)?;
            if let Some(old) = old
                && let Some(patch) = merge_diff(&as_json(old)?, &new)
            {
                return Ok(("patch", patch));
            }
            Ok(("data", new))
        }
        Value::Data(json) => Ok(("data", json.clone())),
        Value::Merge(json) => Ok(("patch", json.clone())),
    }
}

/// The MessagePack of a value for the binary form: the whole value, or
/// `None` for a merge patch (which the binary form keeps as JSON text).
pub(super) fn bin_entry(ty: Type, value: &Value) -> Result<Option<Vec<u8>>, Error> {
    match value {
        Value::Bin { new, .. } => Ok(Some(new.clone())),
        Value::Data(json) => {
            let read = readers(ty)?;
            let write = writers(ty).ok_or_else(|| Error::NotSerializable {
                names: vec![name(ty)],
            })?;
            let boxed = (read.boxed)(json).map_err(|(_, m)| data_error(ty, m))?;
            to_bin(write, Stored::Any(&*boxed))
                .map(Some)
                .map_err(|m| data_error(ty, m))
        }
        Value::Merge(_) => Ok(None),
    }
}

fn data_error(ty: Type, message: String) -> Error {
    Error::Data {
        path: "(patch)".into(),
        message: format!("in a `{}`, {message}", name(ty)),
    }
}

/// RFC 7396: the merge patch taking `old` to `new`, or `None` when none
/// can (a field that becomes `null` inside an object: a merge patch's
/// `null` removes a field instead).
pub(super) fn merge_diff(old: &Json, new: &Json) -> Option<Json> {
    let (Json::Object(old), Json::Object(new)) = (old, new) else {
        return (!drops_nulls(new)).then(|| new.clone());
    };
    let mut out = Map::new();
    for key in old.keys().filter(|k| !new.contains_key(*k)) {
        out.insert(key.clone(), Json::Null);
    }
    for (key, value) in new {
        match old.get(key) {
            Some(was) if was == value => {}
            _ if value.is_null() => return None,
            Some(was) => {
                out.insert(key.clone(), merge_diff(was, value)?);
            }
            None if drops_nulls(value) => return None,
            None => {
                out.insert(key.clone(), value.clone());
            }
        }
    }
    Some(Json::Object(out))
}

/// Whether merging `value` as a patch would lose a `null` it holds (in an
/// object, at any depth through objects).
fn drops_nulls(value: &Json) -> bool {
    match value {
        Json::Object(fields) => fields.values().any(|v| v.is_null() || drops_nulls(v)),
        _ => false,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn a_merge_diff_applied_gives_the_new_value() {
        let old = json!({"x": 1, "y": {"a": 1, "b": 2}, "gone": 3});
        let new = json!({"x": 1, "y": {"a": 5, "b": 2}, "more": [1, null]});
        let patch = merge_diff(&old, &new).unwrap();
        assert_eq!(
            patch,
            json!({"y": {"a": 5}, "gone": null, "more": [1, null]})
        );
        let mut merged = old.clone();
        merge_patch(&mut merged, &patch);
        assert_eq!(merged, new);
    }

    #[test]
    fn a_field_becoming_null_needs_the_whole_value() {
        assert_eq!(merge_diff(&json!({"t": 1}), &json!({"t": null})), None);
        assert_eq!(merge_diff(&json!(1), &json!(null)), Some(json!(null)));
    }
}

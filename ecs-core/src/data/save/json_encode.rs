//! The JSON format's writing: keyed, fields at their default left out,
//! each component one `{"type", "enabled", "data"}` object. Encodes the
//! pieces `write` walks, nothing else.

use crate::data::format::JsonOut;
use crate::DEFAULT_LAYERS;

use super::write::{Encode, SavedComponent, SavedEntity, SavedValue};

/// Writes JSON, compact or indented by two spaces.
pub(super) struct JsonEncoder {
    w: JsonOut,
    /// Resources written so far.
    resources: usize,
    /// The entity's components written so far.
    listed: usize,
}

impl JsonEncoder {
    /// An encoder for a save of `entities` entities.
    pub(super) fn new(pretty: bool, entities: usize) -> Self {
        JsonEncoder {
            w: JsonOut::new(pretty, 64 + 96 * entities),
            resources: 0,
            listed: 0,
        }
    }

    /// A list of numbers under `key`.
    fn numbers(&mut self, key: &str, numbers: impl Iterator<Item = u64>) {
        let w = &mut self.w;
        w.key(key, false);
        w.begin_array();
        for (i, n) in numbers.enumerate() {
            w.item(i == 0);
            w.u64(n);
            w.end_item();
        }
        w.end_array();
        w.end_value();
    }

    /// `"type": name` and, if disabled, `"enabled": false`, as the first
    /// keys of an object.
    #[inline]
    fn type_and_flag(&mut self, name: &str, enabled: bool) {
        let w = &mut self.w;
        w.begin_object();
        w.key("type", true);
        w.string(name);
        w.end_value();
        if !enabled {
            w.key("enabled", false);
            w.bool(false);
            w.end_value();
        }
    }

    /// The value of the open `data` key, then the end of its object and
    /// of that object's list item.
    #[inline(always)]
    fn data(&mut self, value: SavedValue<'_>) -> Result<(), String> {
        self.w.key("data", false);
        let fmt = self.w.data_fmt();
        (value.write.json)(value.value, &mut self.w.out, fmt).map_err(|e| e.to_string())?;
        self.w.end_value();
        self.w.end_object();
        self.w.end_item();
        Ok(())
    }
}

impl Encode for JsonEncoder {
    const INTERNS: bool = false;
    const VALUE_WITH_TYPE: bool = true;
    const JSON: bool = true;

    fn begin(&mut self, format: &str, version: u64) {
        let w = &mut self.w;
        w.begin_object();
        w.key("format", true);
        w.string(format);
        w.end_value();
        w.key("version", false);
        w.u64(version);
        w.end_value();
    }

    fn update_order(&mut self, names: &[&str]) {
        if names.is_empty() {
            return;
        }
        let w = &mut self.w;
        w.key("update_order", false);
        w.begin_array();
        for (i, name) in names.iter().enumerate() {
            w.item(i == 0);
            w.string(name);
            w.end_item();
        }
        w.end_array();
        w.end_value();
    }

    fn begin_resources(&mut self, count: usize) {
        if count > 0 {
            self.w.key("resources", false);
            self.w.begin_array();
        }
        self.resources = 0;
    }

    fn resource(&mut self, name: &str, value: SavedValue<'_>) -> Result<(), String> {
        self.w.item(self.resources == 0);
        self.resources += 1;
        self.type_and_flag(name, true);
        self.data(value)
    }

    fn end_resources(&mut self) {
        if self.resources > 0 {
            self.w.end_array();
            self.w.end_value();
        }
    }

    fn name_order(&mut self, order: Option<&[u32]>) {
        if let Some(order) = order {
            self.numbers("name_order", order.iter().map(|&s| u64::from(s)));
        }
    }

    fn tables(&mut self, _: &[&str], _: &[&str]) {}

    fn begin_entities(&mut self, _: usize) {
        self.w.key("entities", false);
        self.w.begin_array();
    }

    #[inline]
    fn entity(&mut self, e: &SavedEntity<'_>) {
        let w = &mut self.w;
        w.item(e.saved == 0);
        w.begin_object();
        w.key("id", true);
        w.u64(u64::from(e.saved));
        w.end_value();
        if let Some((name, _)) = e.name {
            w.key("name", false);
            w.string(name);
            w.end_value();
        }
        if e.disabled {
            w.key("enabled", false);
            w.bool(false);
            w.end_value();
        }
        if e.killed {
            w.key("killed", false);
            w.bool(true);
            w.end_value();
        }
        if e.layers != DEFAULT_LAYERS {
            w.key("layers", false);
            w.u64(u64::from(e.layers));
            w.end_value();
        }
        if !e.children.is_empty() {
            self.numbers("children", e.children.iter().map(|&c| u64::from(c)));
        }
        self.w.key("components", false);
        self.w.begin_array();
        self.listed = 0;
    }

    #[inline]
    fn component(&mut self, c: &SavedComponent<'_>) -> Result<(), String> {
        // A type without serde support is left out: the save fails.
        let Some(write) = c.write else {
            return Ok(());
        };
        self.w.item(self.listed == 0);
        self.listed += 1;
        self.type_and_flag(c.name, c.enabled);
        let value = c.value;
        self.data(SavedValue { write, value })
    }

    fn component_path(&self, entity: usize) -> String {
        format!("entities[{entity}].components[{}].data", self.listed - 1)
    }

    #[inline]
    fn end_entity(&mut self) {
        let w = &mut self.w;
        w.end_array();
        w.end_value();
        w.end_object();
        w.end_item();
    }

    fn finish(mut self) -> Vec<u8> {
        self.w.end_array();
        self.w.end_value();
        self.w.end_object();
        self.w.out
    }
}

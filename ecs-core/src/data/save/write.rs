//! Writing a saved world: JSON and the binary snapshot.

use std::any::TypeId;

use crate::data::codec::{JsonWriteFn, RowRef, Stored};
use crate::data::format::{mp, JsonOut};
use crate::entity::TypeIdx;
use crate::world::World;
use crate::{Error, DEFAULT_LAYERS};

use super::{Missing, Plan, FORMAT, VERSION};

impl World {
    pub(super) fn write_json(&self, plan: &Plan, pretty: bool) -> Result<Vec<u8>, Error> {
        let mut missing = Missing::default();
        let mut w = JsonOut::new(pretty, 64 + 96 * plan.order.len());
        w.begin_object();
        w.key("format", true);
        w.string(FORMAT);
        w.end_value();
        w.key("version", false);
        w.u64(VERSION);
        w.end_value();
        if !plan.update_order.is_empty() {
            w.key("update_order", false);
            w.begin_array();
            for (i, name) in plan.update_order.iter().enumerate() {
                w.item(i == 0);
                w.string(name);
                w.end_item();
            }
            w.end_array();
            w.end_value();
        }
        if !plan.resources.is_empty() {
            w.key("resources", false);
            w.begin_array();
            for (i, &(name, fns, ty)) in plan.resources.iter().enumerate() {
                w.item(i == 0);
                w.begin_object();
                w.key("type", true);
                w.string(name);
                w.end_value();
                w.key("data", false);
                let value = self.resource_value(ty);
                write_data(&mut w, fns.json, value, || format!("resources[{i}].data"))?;
            }
            w.end_array();
            w.end_value();
        }
        if let Some(order) = &plan.name_order {
            w.key("name_order", false);
            w.begin_array();
            for (i, &saved) in order.iter().enumerate() {
                w.item(i == 0);
                w.u64(u64::from(saved));
                w.end_item();
            }
            w.end_array();
            w.end_value();
        }
        w.key("entities", false);
        w.begin_array();
        for (i, id) in plan.order.iter().enumerate() {
            w.item(i == 0);
            w.begin_object();
            w.key("id", true);
            w.u64(i as u64);
            w.end_value();
            if let Some(name) = self.name_of(id.index) {
                w.key("name", false);
                w.string(name);
                w.end_value();
            }
            let slot = self.slot(id.index);
            if slot.disabled {
                w.key("enabled", false);
                w.bool(false);
                w.end_value();
            }
            if slot.killed {
                w.key("killed", false);
                w.bool(true);
                w.end_value();
            }
            let layers = self.layers_of(id.index);
            if layers != DEFAULT_LAYERS {
                w.key("layers", false);
                w.u64(u64::from(layers));
                w.end_value();
            }
            let children = self.hierarchy().children(id.index);
            if !children.is_empty() {
                w.key("children", false);
                w.begin_array();
                for (k, &child) in children.iter().enumerate() {
                    w.item(k == 0);
                    w.u64(u64::from(plan.saved_id[child.index()]));
                    w.end_item();
                }
                w.end_array();
                w.end_value();
            }
            w.key("components", false);
            w.begin_array();
            let mut k = 0;
            for c in self.comps(id.index) {
                let vtable = self.vtable(c.ty);
                if vtable.transient {
                    continue;
                }
                let (Some(fns), Some(_)) = (
                    crate::data::codec::serialize_fns(vtable.ops),
                    vtable.ops.deserialize,
                ) else {
                    missing.add(self.storage().info(c.ty).key().name());
                    continue;
                };
                w.item(k == 0);
                w.begin_object();
                w.key("type", true);
                w.string(self.storage().info(c.ty).key().name());
                w.end_value();
                let (_, enabled) = self.instance_of(c);
                if !enabled {
                    w.key("enabled", false);
                    w.bool(false);
                    w.end_value();
                }
                w.key("data", false);
                let value = Stored::Row(RowRef {
                    segment: self.storage().segment(c.seg),
                    row: c.row,
                });
                write_data(&mut w, fns.json, value, || {
                    format!("entities[{i}].components[{k}].data")
                })?;
                k += 1;
            }
            w.end_array();
            w.end_value();
            w.end_object();
            w.end_item();
        }
        w.end_array();
        w.end_value();
        w.end_object();
        missing.check()?;
        Ok(w.out)
    }

    pub(super) fn resource_value(&self, ty: TypeId) -> Stored<'_> {
        let value = self
            .resources()
            .iter()
            .find(|&(t, _)| t == ty)
            .map(|(_, v)| v)
            .expect("a planned resource is present");
        Stored::Any(value)
    }

    pub(super) fn write_binary(&self, plan: &Plan) -> Result<Vec<u8>, Error> {
        let mut missing = Missing::default();
        let mut out = Vec::with_capacity(64 + 64 * plan.order.len());
        mp::array(&mut out, 8);
        mp::string(&mut out, FORMAT);
        mp::uint(&mut out, VERSION);
        mp::array(&mut out, plan.update_order.len());
        for name in &plan.update_order {
            mp::string(&mut out, name);
        }
        mp::array(&mut out, plan.resources.len());
        for (i, &(name, fns, ty)) in plan.resources.iter().enumerate() {
            mp::array(&mut out, 2);
            mp::string(&mut out, name);
            let start = mp::begin_bin(&mut out);
            (fns.binary)(self.resource_value(ty), &mut out)
                .map_err(|e| Self::write_error(format!("resources[{i}].data"), e.to_string()))?;
            mp::end_bin(&mut out, start);
        }
        match &plan.name_order {
            None => mp::nil(&mut out),
            Some(order) => {
                mp::array(&mut out, order.len());
                for &saved in order {
                    mp::uint(&mut out, u64::from(saved));
                }
            }
        }
        // Component types by first use, written once.
        let mut types: Vec<TypeIdx> = Vec::new();
        // By type index: the type's place in `types`, plus one.
        let mut type_at: Vec<u32> = Vec::new();
        for id in &plan.order {
            for c in self.comps(id.index) {
                if type_at.len() <= c.ty.index() {
                    type_at.resize(c.ty.index() + 1, 0);
                }
                if type_at[c.ty.index()] == 0 {
                    types.push(c.ty);
                    type_at[c.ty.index()] = types.len() as u32;
                }
            }
        }
        mp::array(&mut out, types.len());
        for &ty in &types {
            mp::string(&mut out, self.storage().info(ty).key().name());
        }
        // Distinct names, written once; entities name theirs by index.
        let mut name_at: Vec<u32> = vec![u32::MAX; self.names().interned()];
        let mut names: Vec<&str> = Vec::new();
        for id in &plan.order {
            if let (Some(n), Some(text)) = (self.names().id_of(id.index), self.name_of(id.index)) {
                if name_at[n as usize] == u32::MAX {
                    name_at[n as usize] = names.len() as u32;
                    names.push(text);
                }
            }
        }
        mp::array(&mut out, names.len());
        for name in names {
            mp::string(&mut out, name);
        }
        mp::array(&mut out, plan.order.len());
        let mut saved = Vec::new();
        for (i, id) in plan.order.iter().enumerate() {
            mp::array(&mut out, 6);
            match self.names().id_of(id.index) {
                Some(n) => mp::uint(&mut out, u64::from(name_at[n as usize])),
                None => mp::nil(&mut out),
            }
            let slot = self.slot(id.index);
            mp::uint(
                &mut out,
                u64::from(slot.disabled) | u64::from(slot.killed) << 1,
            );
            mp::uint(&mut out, u64::from(self.layers_of(id.index)));
            let children = self.hierarchy().children(id.index);
            mp::array(&mut out, children.len());
            for &child in children {
                mp::uint(&mut out, u64::from(plan.saved_id[child.index()]));
            }
            saved.clear();
            saved.extend(
                self.comps(id.index)
                    .filter(|c| !self.vtable(c.ty).transient),
            );
            mp::array(&mut out, saved.len());
            for c in &saved {
                let (_, enabled) = self.instance_of(*c);
                mp::uint(
                    &mut out,
                    u64::from(type_at[c.ty.index()] - 1) << 1 | u64::from(!enabled),
                );
            }
            mp::array(&mut out, saved.len());
            for (k, &c) in saved.iter().enumerate() {
                let ops = self.vtable(c.ty).ops;
                let (Some(fns), Some(_)) =
                    (crate::data::codec::serialize_fns(&ops), ops.deserialize)
                else {
                    missing.add(self.storage().info(c.ty).key().name());
                    // Keep the envelope well formed; the save fails below.
                    mp::nil(&mut out);
                    continue;
                };
                let start = mp::begin_bin(&mut out);
                let value = Stored::Row(RowRef {
                    segment: self.storage().segment(c.seg),
                    row: c.row,
                });
                (fns.binary)(value, &mut out).map_err(|e| {
                    Self::write_error(format!("entities[{i}].data[{k}]"), e.to_string())
                })?;
                mp::end_bin(&mut out, start);
            }
        }
        missing.check()?;
        Ok(out)
    }
}

/// Writes `value` through `write` as the value of the open `data` key,
/// then closes its object and that object's array item; `path` names the
/// value in an error.
fn write_data(
    w: &mut JsonOut,
    write: JsonWriteFn,
    value: Stored<'_>,
    path: impl FnOnce() -> String,
) -> Result<(), Error> {
    let fmt = w.data_fmt();
    write(value, &mut w.out, fmt).map_err(|e| World::write_error(path(), e.to_string()))?;
    w.end_value();
    w.end_object();
    w.end_item();
    Ok(())
}

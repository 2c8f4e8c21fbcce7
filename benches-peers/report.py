#!/usr/bin/env python3
"""Summarise the peer benchmarks: ecs-core ("ours") against bevy_ecs and hecs.

Reads criterion's <target>/criterion-<profile>/<group>/<id>/new/{estimates,benchmark}.json
(median point estimate, per-element throughput) for every build profile run.sh
has run (default, cgu1, thin, fat; a <target>/criterion left by run.sh from
before profiles counts as cgu1) and <target>/peers-memory.json, prints one
markdown report, and writes results.md and ratios.svg beside this script:
the full tables for one profile (--profile) and, for every profile present,
one column in the table of the rows that decide a game's frame. Standard
library only.

    python3 report.py [--target DIR] [--profile NAME]
        (target default: ./target, or $CARGO_TARGET_DIR; profile default:
        $PROFILE, else cgu1 if it has results, else the first that has)
    python3 report.py --frame-filter     print the criterion filter (a regex)
                                         that selects the frame rows' ids
"""

import argparse
import datetime
import json
import math
import os
import re
import subprocess
import sys

HERE = os.path.dirname(os.path.abspath(__file__))

# (scenario, description[, peer]): "ours" is compared with the faster peer,
# or with the named one when the scenario pins it (get and get_one: the
# target is stated against bevy, so their ratio is against bevy even on a
# run where hecs is faster).
SCENARIOS = [
    ("get", "10k entities x 8 components, one `get` per entity (type `i % 8` through a "
     "`match`), shuffled order", "bevy"),
    ("get_one", "the `get` world and order, every lookup of the same type (`C3`, no `match`)",
     "bevy"),
    ("get_all", "10k entities, sum the radii of 3 colliders per entity (peers: `Colliders(Vec<_>)`)"),
    ("simple_insert", "new world + 10k entities x 4 components (drop not timed)"),
    ("simple_iter", "`pos += vel` over 10k entities"),
    ("frag_iter", "26 types x 20 entities, double every `Data`"),
    ("join5", "10k entities in 4 tables (5-8 components): a 5-term join reading 3 and writing 2, "
     "ours by a `for` loop over `query_mut`"),
    ("add_remove", "add then remove a component on 10k entities"),
    ("changed", "100k entities in 100 tables; one table (1k) written, untimed, then ask which "
     "`Position`s changed since (ours `changed_since`, bevy `Changed<Position>`; hecs none), "
     "per entity in the world", "bevy"),
    ("heavy_compute", "1k entities: 100 matrix inversions each (ours/bevy parallel, hecs sequential)"),
    ("update", "10k behaviours reading and writing a sibling (bevy: the same system in a schedule)"),
]
PEERS = ("bevy", "hecs")

# ours-only rows: a base type reached through the parent chain against the
# exact derived type, on the same world. (row label, group is its first
# word, base id, exact id, description, drawn in ratios.svg)
BASE_VS_EXACT = [
    ("get_via_parent", "ours_parent", "ours_exact",
     "`get::<Moving>()` finding an `AxisMoving`, against `get::<AxisMoving>()`", True),
    ("base_iter", "ours_base", "ours_exact",
     "10k `AxisMoving`s: `for_each_mut` summing the base `Moving`'s speed, against "
     "over `AxisMoving` (both bound by the chain of float adds)", False),
    ("base_iter (`iter`)", "ours_base_iter", "ours_exact_iter",
     "the same sum through `World::iter::<Moving>()`, against `iter::<AxisMoving>()`", False),
    ("base_iter (write)", "ours_base_write", "ours_exact_write",
     "`for_each_mut` negating the speed in place: no add chain, the exact loop vectorises",
     True),
    ("base_term", "ours_base", "ours_exact",
     "the query engine: `query::<(&Moving,)>()` summing the speed, against "
     "`query::<(&AxisMoving,)>()` (both bound by the chain of float adds)", False),
    ("base_term (write)", "ours_base_write", "ours_exact_write",
     "`query_mut::<(&mut Moving,)>()` negating the speed, against "
     "`query_mut::<(&mut AxisMoving,)>()`", True),
]

# More of our ids, each against a baseline in its own group: (row label,
# group, our id, baseline id or tuple of ids (the fastest of them), baseline
# name, description, drawn in ratios.svg).
VARIANTS = [
    ("simple_iter (`query_mut`)", "simple_iter", "ours_query", "bevy", "bevy",
     "`for (p, v) in world.query_mut::<(&mut Position, &Velocity)>()`", True),
    ("simple_iter (query `for_each`)", "simple_iter", "ours", "bevy", "bevy",
     "the same query through `for_each`", False),
    ("frag_iter (`query_mut`)", "frag_iter", "ours_query", PEERS, "faster peer",
     "`for (d,) in world.query_mut::<(&mut Data,)>()`", True),
    ("frag_iter (query `for_each`)", "frag_iter", "ours_query_for_each", PEERS, "faster peer",
     "the same query through `for_each`", False),
    ("join5 (`for_each`)", "join5", "ours_for_each", PEERS, "faster peer",
     "the join5 query through `for_each`", False),
    ("heavy_compute (query `par_for_each`)", "heavy_compute", "ours", "bevy", "bevy",
     "`query_mut::<(&mut Transform, &mut Position)>().par_for_each(..)`", False),
    ("heavy_compute (query sequential)", "heavy_compute", "ours_query_seq", "ours",
     "ours `par_for_each`",
     "the same query through the sequential `for_each`: the ratio is the threads' speedup",
     False),
    ("save_load (save JSON)", "save_load", "ours_save_json", "serde_save_json", "serde_json Vec",
     "`save_json` of 10k entities x 5 components (trees of ten, named, a third holding a reference), "
     "against serde_json writing the same values (with name and parent) in a `Vec`", True),
    ("save_load (load JSON)", "save_load", "ours_load_json", "serde_load_json", "serde_json Vec",
     "`World::load` of that JSON, against serde_json reading the `Vec` back", True),
    ("save_load (save binary)", "save_load", "ours_save_binary", "rmp_save", "rmp-serde Vec",
     "`save_binary` (MessagePack), against rmp-serde writing the `Vec`", False),
    ("save_load (load binary)", "save_load", "ours_load_binary", "rmp_load", "rmp-serde Vec",
     "`World::load` of the snapshot, against rmp-serde reading the `Vec` back", True),
    ("save_load (build, no serde)", "save_load", "ours_build", "rmp_load", "rmp-serde Vec",
     "the same world built from values already in memory (`spawn_batch`, names, parents, "
     "references): the floor under a load", False),
    ("save_load (load binary vs build)", "save_load", "ours_load_binary", "ours_build",
     "ours build", "`World::load` of the snapshot, against building the same world from memory", False),
    ("par_light", "par_light", "ours_par", "ours_seq", "ours `for_each`",
     "`pos += vel` over 10k entities in 4 tables by `par_for_each`, against the sequential "
     "`for_each` on the same world (ours only)", False),
]

# The targets the runtime must meet: (label, numerator, denominator, limit),
# met when numerator / denominator <= limit. A denominator whose id is a
# tuple is the fastest of those ids.
TARGETS = [
    ("get <= 1.0x bevy", ("get", "ours"), ("get", "bevy"), 1.0),
    ("single-type get <= 1.0x bevy", ("get_one", "ours"), ("get_one", "bevy"), 1.0),
    ("get via parent <= 1.1x our exact get", ("get_via_parent", "ours_parent"),
     ("get_via_parent", "ours_exact"), 1.1),
    ("base-type loop <= 1.2x exact (closure)", ("base_iter", "ours_base"),
     ("base_iter", "ours_exact"), 1.2),
    ("base-type loop <= 1.2x exact (`iter`)", ("base_iter", "ours_base_iter"),
     ("base_iter", "ours_exact_iter"), 1.2),
    ("base-type loop <= 1.2x exact (write)", ("base_iter", "ours_base_write"),
     ("base_iter", "ours_exact_write"), 1.2),
    ("simple_iter <= 1.0x bevy", ("simple_iter", "ours"), ("simple_iter", "bevy"), 1.0),
    ("simple_iter <= 2x plain Vec", ("simple_iter", "ours"), ("simple_iter", "vec"), 2.0),
    ("query iterator <= 1.0x bevy's `Query` (simple_iter)", ("simple_iter", "ours_query"),
     ("simple_iter", "bevy"), 1.0),
    ("query iterator <= 1.1x query `for_each` (simple_iter)", ("simple_iter", "ours_query"),
     ("simple_iter", "ours"), 1.1),
    ("join5 <= 1.0x hecs", ("join5", "ours"), ("join5", "hecs"), 1.0),
    ("join5 <= 1.0x bevy", ("join5", "ours"), ("join5", "bevy"), 1.0),
    ("base-type query term <= 1.2x exact (sum)", ("base_term", "ours_base"),
     ("base_term", "ours_exact"), 1.2),
    ("base-type query term <= 1.2x exact (write)", ("base_term", "ours_base_write"),
     ("base_term", "ours_exact_write"), 1.2),
    ("frag_iter stays ahead: per-type loop <= 1.0x the faster peer", ("frag_iter", "ours"),
     ("frag_iter", PEERS), 1.0),
    ("frag_iter query <= 1.0x the faster peer", ("frag_iter", "ours_query"),
     ("frag_iter", PEERS), 1.0),
    ("light `par_for_each` <= 1.1x sequential `for_each` (par_light)", ("par_light", "ours_par"),
     ("par_light", "ours_seq"), 1.1),
    ("add_remove <= 0.7x bevy", ("add_remove", "ours"), ("add_remove", "bevy"), 0.7),
    ("changed read <= 0.1x bevy's `Changed` query", ("changed", "ours"), ("changed", "bevy"),
     0.1),
    ("simple_insert <= 1.0x bevy", ("simple_insert", "ours"), ("simple_insert", "bevy"), 1.0),
    ("update <= 1.5x bevy's system", ("update", "ours"), ("update", "bevy"), 1.5),
    ("blueprint spawn <= 1.1x serde_json alone", ("blueprint", "ours"), ("blueprint", "serde"), 1.1),
    # save/load: one target per world shape and operation, from SAVE_SHAPES below.
]

# What an observer costs, per element, in each library: (library, group,
# id with the observer, id without, id of the interleaved difference). The
# pass adds and removes a component once per element, the observer hears
# the add: the difference is one observer call per add. The interleaved id
# times both passes alternately within each sample and reports observed -
# plain directly (immune to the machine's drift between two separate
# measurements); the two separate ids are the fallback and the context.
# What the interleaved ids add per element (COST_OFFSET_NS in src/lib.rs).
COST_OFFSET_NS = 100.0
OBSERVER_COST = [
    ("ours", "observer_add", "ours_observed", "ours_plain", "ours_cost"),
    ("bevy", "observer_add", "bevy_observed", "bevy_plain", "bevy_cost"),
]
# Absolute targets on those differences: (label, library, limit in ns).
OBSERVER_TARGETS = [
    ("an observer adds <= 20 ns per add (observer_add, observed - plain)", "ours", 20.0),
]


def observer_cost(data, lib):
    """(observed - plain, plain) per element for `lib`, or None."""
    for name, group, observed, plain, cost in OBSERVER_COST:
        if name == lib:
            g = data.get(group, {})
            o, p = per_elem(g.get(observed)), per_elem(g.get(plain))
            c = per_elem(g.get(cost))
            if c is not None:
                return (c - COST_OFFSET_NS, p)
            return (o - p, p) if o is not None and p is not None else None
    return None


# Speedups the runtime must reach: (label, slow, fast, minimum), met when
# slow / fast >= minimum.
SPEEDUPS = [
    ("heavy_compute query `par_for_each` >= 1.7x faster than its sequential `for_each`",
     ("heavy_compute", "ours_query_seq"), ("heavy_compute", "ours"), 1.7),
]


# run.sh's PROFILE names, in table order: (name, cargo profile, what it is).
PROFILES = [
    ("default", "bench-default", "cargo's release defaults: codegen-units = 16, no LTO"),
    ("cgu1", "bench", "codegen-units = 1, no LTO (run.sh without PROFILE)"),
    ("thin", "bench-thin", "codegen-units = 1, thin LTO"),
    ("fat", "bench-fat", "codegen-units = 1, fat LTO"),
]
PROFILE_NAMES = [p[0] for p in PROFILES]

# The rows that decide a game's frame, one column per profile: (label,
# group, our id, baseline id or tuple of ids (the fastest of them), baseline
# name, limit on ours / baseline or None). heavy_compute's ratio is the
# parallel query over its own sequential loop: <= 1/1.7 is the 1.7x speedup.
FRAME_ROWS = [
    ("get", "get", "ours", "bevy", "bevy", 1.0),
    ("simple_iter (`for`)", "simple_iter", "ours_query", "bevy", "bevy", 1.0),
    ("simple_iter (`for_each`)", "simple_iter", "ours", "bevy", "bevy", 1.0),
    ("frag_iter query (`for`)", "frag_iter", "ours_query", PEERS, "faster peer", 1.0),
    ("join5 (`for`)", "join5", "ours", PEERS, "faster peer", 1.0),
    ("base_term write", "base_term", "ours_base_write", "ours_exact_write", "exact term", 1.2),
    ("get_all", "get_all", "ours", PEERS, "faster peer", None),
    ("heavy_compute parallel", "heavy_compute", "ours", "ours_query_seq",
     "its sequential `for_each`", 1 / 1.7),
]


def frame_filter():
    """A criterion filter (regex on `group/id`) that runs the frame rows'
    ids and nothing else."""
    ids = {}
    for _, group, ours, base, _, _ in FRAME_ROWS:
        for i in (ours,) + (base if isinstance(base, tuple) else (base,)):
            ids.setdefault(group, [])
            if i not in ids[group]:
                ids[group].append(i)
    alts = [f"{g}/({'|'.join(sorted(i))})" for g, i in ids.items()]
    return "^(" + "|".join(alts) + ")$"


# Save/load world shapes: (criterion group, shape, description). Each group
# holds ours_{save,load}_{json,binary}, serde_{save,load}_json, rmp_save and
# rmp_load, over the same entities.
SAVE_SHAPES = [
    ("save_load", "mixed", "10k entities x 5 components, trees of ten, every entity named "
     "(ten per name), a third holding an entity reference"),
    ("save_load_named", "named", "10k entities x 2 components, every one with its own name "
     "(serde: a `String` field)"),
    ("save_load_inherited", "inherited", "10k entities: a position and one of `SlMover` and "
     "three types derived from it, up to two levels (serde: an enum of the four)"),
    ("save_load_multiple", "multiple", "10k entities: a position and 1 to 4 `multiple` colliders "
     "(serde: a `Vec`)"),
    ("save_load_hierarchy", "hierarchy", "10k entities x 2 components in ten 4-ary trees of 1k "
     "(serde: the parent's index)"),
]
# (column, our id, baseline id, baseline name, limit)
SAVE_OPS = [
    ("save JSON", "ours_save_json", "serde_save_json", "serde_json", 2.0),
    ("load JSON", "ours_load_json", "serde_load_json", "serde_json", 2.0),
    ("save binary", "ours_save_binary", "rmp_save", "rmp-serde", 1.5),
    ("load binary", "ours_load_binary", "rmp_load", "rmp-serde", 1.5),
]
for _group, _shape, _ in SAVE_SHAPES:
    for _op, _ours, _base, _name, _limit in SAVE_OPS:
        TARGETS.append((f"{_op} <= {_limit:g}x {_name} ({_shape} world)", (_group, _ours),
                        (_group, _base), _limit))


def profile_dirs(target):
    """{profile: its criterion directory} for every profile with results.
    run.sh gives each profile <target>/criterion-<profile>; a plain
    <target>/criterion (run.sh before profiles, or `cargo bench` by hand,
    both cgu1) stands in for cgu1 when criterion-cgu1 is missing."""
    out = {}
    for name in PROFILE_NAMES:
        d = os.path.join(target, f"criterion-{name}")
        if os.path.isdir(d):
            out[name] = d
    legacy = os.path.join(target, "criterion")
    if "cgu1" not in out and os.path.isdir(legacy):
        out["cgu1"] = legacy
    return out


def load_criterion(root):
    """{group: {id: {"median_ns": per iteration, "elements": n or None}}}"""
    out = {}
    if not os.path.isdir(root):
        return out
    for group in sorted(os.listdir(root)):
        gdir = os.path.join(root, group)
        if not os.path.isdir(gdir) or group == "report":
            continue
        for bench in sorted(os.listdir(gdir)):
            new = os.path.join(gdir, bench, "new")
            est = os.path.join(new, "estimates.json")
            if not os.path.isfile(est):
                continue
            with open(est) as f:
                median = json.load(f)["median"]["point_estimate"]
            elements = None
            meta = os.path.join(new, "benchmark.json")
            if os.path.isfile(meta):
                with open(meta) as f:
                    tp = json.load(f).get("throughput") or {}
                elements = tp.get("Elements")
            out.setdefault(group, {})[bench] = {"median_ns": median, "elements": elements}
    return out


def per_elem(entry):
    if entry is None:
        return None
    n = entry["elements"] or 1
    return entry["median_ns"] / n


def lookup(data, group, ids):
    """Per-element time of `group/ids`; for a tuple of ids, the fastest present."""
    g = data.get(group, {})
    if isinstance(ids, str):
        return per_elem(g.get(ids))
    vals = [v for v in (per_elem(g.get(i)) for i in ids) if v is not None]
    return min(vals) if vals else None


def fmt_ns(ns):
    if ns is None:
        return "–"
    if ns >= 100:
        return f"{ns:,.0f} ns"
    if ns >= 10:
        return f"{ns:.1f} ns"
    return f"{ns:.2f} ns"


def fmt_total(ns):
    if ns >= 1e6:
        return f"{ns / 1e6:.2f} ms"
    if ns >= 1e3:
        return f"{ns / 1e3:.1f} µs"
    return f"{ns:.0f} ns"


def fmt_ratio(r):
    return "–" if r is None else f"{r:.2f}x"


def machine_info():
    model, cores = "unknown", 0
    try:
        with open("/proc/cpuinfo") as f:
            for line in f:
                if line.startswith("model name") and model == "unknown":
                    model = line.split(":", 1)[1].strip()
                if line.startswith("processor"):
                    cores += 1
    except OSError:
        pass
    try:
        rustc = subprocess.run(["rustc", "-V"], capture_output=True, text=True).stdout.strip()
    except OSError:
        rustc = "unknown"
    versions = {}
    lock = os.path.join(HERE, "Cargo.lock")
    if os.path.isfile(lock):
        with open(lock) as f:
            text = f.read()
        for name in ("bevy_ecs", "hecs", "criterion"):
            m = re.search(r'name = "%s"\nversion = "([^"]+)"' % re.escape(name), text)
            versions[name] = m.group(1) if m else "?"
    rev = os.environ.get("ECS_CORE_REV")
    if not rev:
        try:
            top = os.path.dirname(HERE)
            rev = subprocess.run(["git", "-C", top, "rev-parse", "--short", "HEAD"],
                                 capture_output=True, text=True).stdout.strip() or "unknown"
            dirty = subprocess.run(["git", "-C", top, "status", "--porcelain", "--", "ecs-core"],
                                   capture_output=True, text=True).stdout.strip()
            if dirty:
                rev += " + uncommitted ecs-core changes"
        except OSError:
            rev = "unknown"
    return {"cpu": model, "cores": cores, "rustc": rustc, "versions": versions, "rev": rev}


def build_rows(data, memory):
    """One row per scenario: values per library (ns/elem or bytes/entity)."""
    rows = []
    for name, desc, *pinned in SCENARIOS:
        g = data.get(name, {})
        vals = {lib: per_elem(g.get(lib)) for lib in ("ours",) + PEERS}
        peers = [(vals[p], p) for p in PEERS if vals[p] is not None]
        best = min(peers) if peers else (None, None)
        versus = pinned[0] if pinned else best[1]
        base = vals.get(versus) if versus else None
        ratio = vals["ours"] / base if vals["ours"] is not None and base else None
        elements = (g.get("ours") or {}).get("elements")
        rows.append({"name": name, "desc": desc, "vals": vals, "best": best[1],
                     "versus": versus, "ratio": ratio, "unit": "ns/elem", "elements": elements})
    if memory:
        b = memory["bytes_per_entity"]
        vals = {lib: b.get(lib) for lib in ("ours",) + PEERS}
        peers = [(vals[p], p) for p in PEERS if vals[p] is not None]
        best = min(peers) if peers else (None, None)
        ratio = vals["ours"] / best[0] if vals["ours"] is not None and best[0] else None
        rows.append({"name": "memory", "desc": "heap bytes per entity, simple_insert world",
                     "vals": vals, "best": best[1], "versus": best[1], "ratio": ratio,
                     "unit": "B/entity",
                     "elements": memory.get("entities")})
    return rows


def check_targets(data, memory):
    results = []
    bc = per_elem(data.get("broadcast", {}).get("ours"))
    if bc is not None:
        results.append(("broadcast <= 20 ns per receiver", bc / 20.0, 1.0, bc <= 20.0))
    for label, (ng, ni), (dg, di), limit in TARGETS:
        num = lookup(data, ng, ni)
        den = lookup(data, dg, di)
        ratio = num / den if num is not None and den else None
        results.append((label, ratio, limit, None if ratio is None else ratio <= limit))
    for label, lib, limit in OBSERVER_TARGETS:
        cost = observer_cost(data, lib)
        ns = None if cost is None else cost[0]
        results.append((label, ns, limit, None if ns is None else ns <= limit, " ns"))
    for label, (sg, si), (fg, fi), minimum in SPEEDUPS:
        slow, fast = lookup(data, sg, si), lookup(data, fg, fi)
        speedup = slow / fast if slow is not None and fast else None
        results.append((label, speedup, minimum, None if speedup is None else speedup >= minimum))
    if memory:
        ours = memory["bytes_per_entity"].get("ours")
        limit = memory["target_bytes_per_entity"]
        label = (f"memory <= 1.5 x {memory['component_bytes']} B components + 32 B "
                 f"= {limit:g} B/entity")
        results.append((label, ours, limit, None if ours is None else ours <= limit))
    return results


def ratio_cell(ours, base, limit):
    """`ratio · ours per element`, the ratio in bold when it misses `limit`."""
    if ours is None:
        return "–"
    if not base:
        return f"– · {fmt_ns(ours)}"
    r = ours / base
    text = f"{r:.2f}x"
    if limit is not None and r > limit:
        text = f"**{text}**"
    return f"{text} · {fmt_ns(ours)}"


def fmt_limit(limit):
    if limit is None:
        return "–"
    return f"<= {limit:.2f}x" if limit < 1 else f"<= {limit:g}x"


def frame_table(by_profile):
    """The frame rows, one column per profile."""
    out = ["## The frame rows by build profile\n"]
    out.append("One column per `run.sh` profile (`PROFILE=`); a cell is ours / baseline (lower "
               "is better) · ours' median per element, in bold where the target is missed. The "
               "profiles are built and run one after another, so a column moves with the "
               "machine's load of its own run.\n")
    for name, cargo, what in PROFILES:
        mark = "" if name in by_profile else " (not run)"
        out.append(f"- `{name}` (`--profile {cargo}`): {what}{mark}")
    out.append("")
    heads = " | ".join(n if n in by_profile else f"{n} (not run)" for n in PROFILE_NAMES)
    out.append(f"| row | against | target | {heads} |")
    out.append("|---|---|---:|" + "---:|" * len(PROFILE_NAMES))
    for label, group, ours_id, base_ids, base_name, limit in FRAME_ROWS:
        cells = []
        for name in PROFILE_NAMES:
            data = by_profile.get(name)
            if data is None:
                cells.append("–")
                continue
            cells.append(ratio_cell(lookup(data, group, ours_id), lookup(data, group, base_ids),
                                    limit))
        tgt = fmt_limit(limit)
        if group == "heavy_compute" and limit is not None:
            tgt += f" (>= {1 / limit:g}x faster)"
        out.append(f"| {label} | {base_name} | {tgt} | {' | '.join(cells)} |")
    out.append("")
    return out


def save_shapes_table(data):
    """Save and load of every world shape against serde alone."""
    if not any(data.get(g) for g, _, _ in SAVE_SHAPES):
        return []
    out = ["## Save and load by world shape\n"]
    out.append("Each cell is ours / serde alone writing or reading the same values in a `Vec` "
               "(lower is better) · ours' median per entity; bold where the target is missed.\n")
    heads = " | ".join(f"{op} (<= {limit:g}x {name})" for op, _, _, name, limit in SAVE_OPS)
    out.append(f"| shape | {heads} | world |")
    out.append("|---|" + "---:|" * len(SAVE_OPS) + "---|")
    for group, shape, desc in SAVE_SHAPES:
        g = data.get(group)
        if not g:
            continue
        cells = [ratio_cell(per_elem(g.get(ours)), per_elem(g.get(base)), limit)
                 for _, ours, base, _, limit in SAVE_OPS]
        out.append(f"| {shape} (`{group}`) | {' | '.join(cells)} | {desc} |")
    out.append("")
    return out


def markdown(rows, data, memory, targets, info, compile_cost=None, profile="cgu1",
             by_profile=None):
    out = []
    out.append("# ecs-core against bevy_ecs and hecs\n")
    v = info["versions"]
    out.append(f"- machine: {info['cpu']}, {info['cores']} logical cores")
    out.append(f"- {info['rustc']}; bevy_ecs {v.get('bevy_ecs', '?')}, hecs {v.get('hecs', '?')}, "
               f"criterion {v.get('criterion', '?')}; ecs-core at {info['rev']}")
    what = dict((n, w) for n, _, w in PROFILES).get(profile, "?")
    out.append(f"- generated {datetime.datetime.now().strftime('%Y-%m-%d %H:%M')} by "
               f"`benches-peers/run.sh` (criterion median); the tables after the first are "
               f"profile `{profile}` ({what})")
    mmap = os.environ.get("MALLOC_MMAP_THRESHOLD_")
    trim = os.environ.get("MALLOC_TRIM_THRESHOLD_")
    if mmap or trim:
        out.append(f"- glibc malloc pinned for all three libraries: MALLOC_MMAP_THRESHOLD_={mmap}, "
                   f"MALLOC_TRIM_THRESHOLD_={trim} (freed blocks are reused, see the README)")
    out.append("")
    if by_profile:
        out.extend(frame_table(by_profile))
    out.append(f"## Summary, profile `{profile}` (median per element; lower is better)\n")
    out.append("| scenario | ours | bevy | hecs | ours / peer | what is measured |")
    out.append("|---|---:|---:|---:|---:|---|")
    for r in rows:
        cells = []
        for lib in ("ours",) + PEERS:
            val = r["vals"][lib]
            if r["unit"] == "B/entity":
                cell = "–" if val is None else f"{val:.1f} B"
            else:
                cell = fmt_ns(val)
            if lib == r["best"]:
                cell = f"**{cell}**"
            cells.append(cell)
        out.append(f"| {r['name']} | {' | '.join(cells)} | {fmt_ratio(r['ratio'])} "
                   f"(vs {r['versus'] or '–'}) | {r['desc']} |")
    for name, base_id, exact_id, what, _ in BASE_VS_EXACT:
        g = data.get(name.split(" ")[0], {})
        base, exact = per_elem(g.get(base_id)), per_elem(g.get(exact_id))
        if base is not None and exact:
            out.append(f"| {name} | {fmt_ns(base)} | – | – | {base / exact:.2f}x "
                       f"(vs ours exact {fmt_ns(exact)}) | {what} (ours only) |")
    for label, group, ours_id, base_ids, base_name, what, _ in VARIANTS:
        ours, base = lookup(data, group, ours_id), lookup(data, group, base_ids)
        if ours is None:
            continue
        g = data.get(group, {})
        peers = " | ".join(fmt_ns(per_elem(g.get(p))) for p in PEERS)
        ratio = f"{ours / base:.2f}x (vs {base_name} {fmt_ns(base)})" if base else "–"
        out.append(f"| {label} | {fmt_ns(ours)} | {peers} | {ratio} | {what} |")
    si = data.get("simple_iter", {})
    # Each peer's own `for` loop against its own closure form: the gap the
    # query iterator has to its `for_each` is the language's, not ours.
    loop_vs_closure = [(p, per_elem(si.get(p)), per_elem(si.get(f"{p}_for_each")))
                       for p in PEERS]
    if all(loop and closure for _, loop, closure in loop_vs_closure):
        cells = " | ".join(fmt_ns(loop) for _, loop, _ in loop_vs_closure)
        ratios = ", ".join(f"{p} {loop / closure:.2f}x (vs its `for_each` {fmt_ns(closure)})"
                           for p, loop, closure in loop_vs_closure)
        out.append(f"| simple_iter (peers' `for` vs their `for_each`) | – | {cells} | {ratios} "
                   "| each peer's iterator against its own closure form |")
    vec = per_elem(si.get("vec"))
    if vec is not None:
        ours = per_elem(si.get("ours"))
        ratio = f"{ours / vec:.2f}x" if ours is not None else "–"
        out.append(f"| simple_iter (plain Vec) | {fmt_ns(ours)} | – | – | {ratio} "
                   f"(vs `Vec<(Position, Velocity)>` {fmt_ns(vec)}) | the no-ECS floor |")
    up_ctx = per_elem(data.get("update", {}).get("ours_ctx"))
    if up_ctx is not None:
        out.append(f"| update (`ctx.get_mut` lookup) | {fmt_ns(up_ctx)} | – | – | – | "
                   "the same behaviour finding its sibling through `Context` instead of "
                   "`behaviour(with = Position)` |")
    bp = data.get("blueprint", {})
    bp_ours, bp_serde = per_elem(bp.get("ours")), per_elem(bp.get("serde"))
    if bp_ours is not None and bp_serde:
        out.append(f"| blueprint | {fmt_ns(bp_ours)} | – | – | {bp_ours / bp_serde:.2f}x "
                   f"(vs serde_json alone {fmt_ns(bp_serde)}) | spawn 10k entities from one "
                   "blueprint (Transform + Model), per entity |")
    costs = {lib: observer_cost(data, lib) for lib in ("ours", "bevy")}
    if costs["ours"] is not None:
        ours_cost, ours_plain = costs["ours"]
        bevy_cell = "–" if costs["bevy"] is None else fmt_ns(costs["bevy"][0])
        out.append(f"| observer_add (observer's cost) | {fmt_ns(ours_cost)} | {bevy_cell} | – | "
                   f"{ours_cost / 20.0:.2f}x (vs 20 ns target) | one observer of the added "
                   "component, doing nothing: observed - plain per add "
                   f"(ours plain {fmt_ns(ours_plain)}"
                   + ("" if costs["bevy"] is None else f", bevy plain {fmt_ns(costs['bevy'][1])}")
                   + "; an add and a remove per element) |")
    bc = per_elem(data.get("broadcast", {}).get("ours"))
    if bc is not None:
        out.append(f"| broadcast | {fmt_ns(bc)} | – | – | {bc / 20.0:.2f}x (vs 20 ns target) | "
                   "a message broadcast down a tree of 10k receivers, per receiver (ours only) |")
    out.append("")
    out.extend(save_shapes_table(data))
    out.append(f"## Targets, profile `{profile}`\n")
    out.append("| target | measured | limit | met |")
    out.append("|---|---:|---:|:---:|")
    for label, value, limit, ok, *unit in targets:
        unit = unit[0] if unit else (" B" if label.startswith("memory") else "x")
        meas = "–" if value is None else f"{value:.2f}{unit}"
        mark = "–" if ok is None else ("yes" if ok else "**no**")
        out.append(f"| {label} | {meas} | {limit:g}{unit} | {mark} |")
    out.append("")
    out.append("## Every benchmark id (median per iteration)\n")
    out.append("| id | median / iter | elements | per element |")
    out.append("|---|---:|---:|---:|")
    for group in sorted(data):
        for bench in sorted(data[group]):
            e = data[group][bench]
            out.append(f"| {group}/{bench} | {fmt_total(e['median_ns'])} | "
                       f"{e['elements'] or 1} | {fmt_ns(per_elem(e))} |")
    if memory:
        out.append("")
        out.append("## Memory (bytes per entity, simple_insert world)\n")
        out.append("| library | B/entity | empty world B |")
        out.append("|---|---:|---:|")
        empty = memory.get("empty_world_bytes", {})
        for lib, val in memory["bytes_per_entity"].items():
            out.append(f"| {lib} | {val:.1f} | {empty.get(lib, '–')} |")
        out.append(f"\nComponents: {memory['component_bytes']} B per entity. `ours` is built "
                   "with `spawn_batch` (reserves exactly); `ours_unreserved` with `spawn` + "
                   "`add` and no reservation. bevy and hecs use their `spawn_batch`.")
    out.append("")
    out.append("## Compile cost of the component derive\n")
    if compile_cost:
        text, when = compile_cost
        # A separate, slower run: its date says which ecs-core it measured.
        out.append(f"From `benches-peers/compile_cost.sh`, {when}:\n")
        out.append(text.strip())
    else:
        out.append("Not measured: `benches-peers/compile_cost.sh` (slow, not part of run.sh) "
                   "writes `target/compile-cost.md`, which this report then includes.")
    out.append("")
    out.append("Notes: bevy_ecs and hecs cannot hold several components of one type per entity, "
               "so `get_all` gives them one `Colliders(Vec<Collider>)` component. In "
               "heavy_compute bevy (`par_iter_mut`, multi_threaded) and ours "
               "(the query's `par_for_each`) use both cores; hecs has "
               "no built-in parallel "
               "iteration and runs on one. bevy queries are cached `QueryState`s, as a system "
               "holds them.")
    out.append("\n![ours / baseline](ratios.svg)")
    return "\n".join(out) + "\n"


def svg_chart(rows, data, targets):
    """Horizontal bars of log2(ratio) around a line at 1.0."""
    bars = []
    for r in rows:
        if r["ratio"] is not None:
            bars.append((r["name"], r["ratio"], f"vs {r['versus']}"))
    for name, base_id, exact_id, _, drawn in BASE_VS_EXACT:
        if not drawn:
            continue  # the summing pairs sit on the add chain's floor, near 1.0 whatever the walk
        g = data.get(name.split(" ")[0], {})
        base, exact = per_elem(g.get(base_id)), per_elem(g.get(exact_id))
        if base is not None and exact:
            bars.append((name, base / exact, "vs ours exact"))
    for label, group, ours_id, base_ids, base_name, _, drawn in VARIANTS:
        ours, base = lookup(data, group, ours_id), lookup(data, group, base_ids)
        if drawn and ours is not None and base:
            bars.append((label, ours / base, f"vs {base_name}"))
    si = data.get("simple_iter", {})
    if si.get("vec") and si.get("ours"):
        bars.append(("simple_iter", per_elem(si["ours"]) / per_elem(si["vec"]), "vs plain Vec"))
    if not bars:
        return None
    lo = min(0.25, min(b[1] for b in bars) / 1.2)
    hi = max(4.0, max(b[1] for b in bars) * 1.2)
    lo_e, hi_e = math.floor(math.log2(lo)), math.ceil(math.log2(hi))
    left, right, top, row_h = 250, 110, 84, 34
    plot_w = 560
    width = left + plot_w + right
    height = top + row_h * len(bars) + 60

    def x(v):
        return left + (math.log2(v) - lo_e) / (hi_e - lo_e) * plot_w

    s = []
    s.append(f'<svg xmlns="http://www.w3.org/2000/svg" width="{width}" height="{height}" '
             f'viewBox="0 0 {width} {height}" font-family="DejaVu Sans, Arial, sans-serif">')
    s.append(f'<rect width="{width}" height="{height}" fill="white"/>')
    s.append(f'<text x="{width / 2}" y="26" font-size="18" font-weight="bold" '
             'text-anchor="middle">ecs-core time (or bytes) / baseline — lower is better</text>')
    s.append(f'<text x="{width / 2}" y="48" font-size="13" fill="#555" text-anchor="middle">'
             'log scale; green: ours ahead of (or level with) the baseline, red: behind</text>')
    axis_y = top + row_h * len(bars) + 8
    for e in range(lo_e, hi_e + 1):
        v = 2.0 ** e
        xx = x(v)
        label = f"{v:g}x" if v >= 1 else f"1/{int(round(1 / v))}x"
        s.append(f'<line x1="{xx:.1f}" y1="{top - 6}" x2="{xx:.1f}" y2="{axis_y}" '
                 'stroke="#ddd" stroke-width="1"/>')
        s.append(f'<text x="{xx:.1f}" y="{axis_y + 18}" font-size="13" '
                 f'text-anchor="middle" fill="#333">{label}</text>')
    x1 = x(1.0)
    for i, (name, ratio, vs) in enumerate(bars):
        y = top + i * row_h
        xr = x(ratio)
        color = "#2e9d4a" if ratio <= 1.0 else "#d0433b"
        bx, bw = (xr, x1 - xr) if ratio < 1 else (x1, xr - x1)
        s.append(f'<text x="{left - 10}" y="{y + 15}" font-size="14" text-anchor="end">'
                 f'{name}</text>')
        s.append(f'<text x="{left - 10}" y="{y + 28}" font-size="11" fill="#666" '
                 f'text-anchor="end">{vs}</text>')
        s.append(f'<rect x="{bx:.1f}" y="{y + 4}" width="{max(bw, 1.5):.1f}" height="{row_h - 10}" '
                 f'fill="{color}"/>')
        tx, anchor = (xr + 6, "start") if ratio >= 1 else (xr - 6, "end")
        if ratio < 1 and tx - 50 < left:
            tx, anchor = x1 + 6, "start"
        s.append(f'<text x="{tx:.1f}" y="{y + 21}" font-size="13" text-anchor="{anchor}" '
                 f'font-weight="bold">{ratio:.2f}x</text>')
    s.append(f'<line x1="{x1:.1f}" y1="{top - 10}" x2="{x1:.1f}" y2="{axis_y}" '
             'stroke="black" stroke-width="2"/>')
    s.append(f'<text x="{x1:.1f}" y="{top - 14}" font-size="12" text-anchor="middle">1.0</text>')
    s.append("</svg>")
    return "\n".join(s) + "\n"


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--target", default=os.environ.get("CARGO_TARGET_DIR")
                    or os.path.join(HERE, "target"))
    ap.add_argument("--out", default=HERE, help="where results.md and ratios.svg go")
    ap.add_argument("--profile", choices=PROFILE_NAMES, default=os.environ.get("PROFILE") if os.environ.get("PROFILE") in PROFILE_NAMES
                    else None,
                    help="the profile of the full tables (default: $PROFILE, else cgu1 if it "
                    "has results, else the first that has)")
    ap.add_argument("--frame-filter", action="store_true",
                    help="print the criterion filter of the frame rows and exit")
    args = ap.parse_args()
    if args.frame_filter:
        print(frame_filter())
        return

    dirs = profile_dirs(args.target)
    by_profile = {name: load_criterion(d) for name, d in dirs.items()}
    by_profile = {name: data for name, data in by_profile.items() if data}
    if not by_profile:
        sys.exit(f"no criterion results under {args.target}/criterion-<profile>: run run.sh first")
    profile = args.profile
    if profile is None:
        profile = "cgu1" if "cgu1" in by_profile else next(
            n for n in PROFILE_NAMES if n in by_profile)
    if profile not in by_profile:
        sys.exit(f"no criterion results for profile {profile} under {args.target} "
                 f"(have: {', '.join(by_profile)})")
    data = by_profile[profile]
    memory = None
    mem_path = os.path.join(args.target, "peers-memory.json")
    if os.path.isfile(mem_path):
        with open(mem_path) as f:
            memory = json.load(f)
    else:
        print(f"warning: {mem_path} missing (run the memory binary)", file=sys.stderr)

    compile_cost = None
    cc_path = os.path.join(args.target, "compile-cost.md")
    if os.path.isfile(cc_path):
        with open(cc_path) as f:
            when = datetime.datetime.fromtimestamp(os.path.getmtime(cc_path))
            compile_cost = (f.read(), when.strftime("%Y-%m-%d %H:%M"))

    rows = build_rows(data, memory)
    targets = check_targets(data, memory)
    md = markdown(rows, data, memory, targets, machine_info(), compile_cost, profile,
                  by_profile)
    print(md)
    with open(os.path.join(args.out, "results.md"), "w") as f:
        f.write(md)
    svg = svg_chart(rows, data, targets)
    if svg:
        with open(os.path.join(args.out, "ratios.svg"), "w") as f:
            f.write(svg)
    print(f"wrote {os.path.join(args.out, 'results.md')} and ratios.svg", file=sys.stderr)


if __name__ == "__main__":
    main()

//! The editor's completion data (`web/editor/completions.json`) against the
//! script engine: the same built-in modules with the same named exports as
//! `interleave::script::run`'s module table, the same globals as
//! `GLOBALS`, and every member, constructor and method result it offers
//! checked on the engine's own objects (the prelude), so the two cannot
//! drift apart.
#![cfg(all(feature = "script", not(target_arch = "wasm32")))]

use std::collections::{BTreeMap, BTreeSet};

use interleave::script::run::{modules, GLOBALS};
use interleave::script::source;
use interleave::script::ScriptRun;
use serde_json::Value;

const DATA: &str = include_str!("../web/editor/completions.json");

fn data() -> Value {
    serde_json::from_str(DATA).expect("completions.json is JSON")
}

fn strings(value: &Value) -> Vec<String> {
    value
        .as_array()
        .expect("an array")
        .iter()
        .map(|s| s.as_str().expect("a string").to_string())
        .collect()
}

/// A member's name: `"get(key)"` is `get`, `"size"` is `size`.
fn member_name(member: &str) -> &str {
    member.split('(').next().unwrap()
}

#[test]
fn the_modules_and_their_exports_are_the_engines() {
    let data = data();
    let listed: BTreeMap<String, Vec<String>> = data["modules"]
        .as_array()
        .expect("modules")
        .iter()
        .map(|m| {
            let name = m["name"].as_str().expect("a name").to_string();
            assert!(
                m["detail"].as_str().is_some_and(|d| !d.is_empty()),
                "{name} has a detail line"
            );
            (name, strings(&m["exports"]))
        })
        .collect();
    let engine: BTreeMap<String, Vec<String>> = modules()
        .map(|(name, exports)| {
            let exports = exports.into_iter().map(String::from).collect();
            (name.to_string(), exports)
        })
        .collect();
    assert_eq!(
        listed.keys().collect::<Vec<_>>(),
        engine.keys().collect::<Vec<_>>(),
        "completions.json lists the modules of run.rs's MODULES"
    );
    for (name, exports) in &engine {
        let mut sorted = listed[name].clone();
        sorted.sort();
        let mut expected = exports.clone();
        expected.sort();
        assert_eq!(sorted, expected, "the exports of {name}");
    }
}

#[test]
fn the_globals_are_the_engines() {
    let data = data();
    let listed: BTreeSet<String> = data["globals"]
        .as_array()
        .expect("globals")
        .iter()
        .map(|g| g["name"].as_str().expect("a name").to_string())
        .collect();
    let engine: BTreeSet<String> = GLOBALS.split(", ").map(String::from).collect();
    assert_eq!(listed, engine, "completions.json lists GLOBALS");
}

/// Arguments for a constructor or factory in `makes`, as JavaScript.
const MAKE_ARGS: &[(&str, &str)] = &[
    ("redlock", "[new (require('ioredis'))()]"),
    ("redlock.Redlock", "[new (require('ioredis'))()]"),
    ("lru-cache.LRUCache", "{ max: 10 }"),
    ("async-mutex.Semaphore", "2"),
    ("async_hooks.AsyncResource", "'probe'"),
];

/// Arguments for a method in `returns`, as JavaScript.
const RETURN_ARGS: &[(&str, &str)] = &[
    ("redlock.Redlock.acquire", "['editor-probe-1'], 1000"),
    ("redlock.Redlock.lock", "'editor-probe-2', 1000"),
];

/// An ES module whose top level checks every claim of the data on the
/// engine's objects and throws naming the false ones.
fn probe_script(data: &Value) -> String {
    let mut js = String::from(
        "const problems = [];\n\
         const has = (what, obj, members) => {\n\
         \x20 if (obj === null || obj === undefined) return problems.push(`${what} is ${obj}`);\n\
         \x20 for (const m of members) if (!(m in Object(obj))) problems.push(`${what} has no ${m}`);\n\
         };\n\
         function value(path) {\n\
         \x20 const [name, ...rest] = path.split('.');\n\
         \x20 let owner, v = require(name);\n\
         \x20 for (const p of rest) { owner = v; v = v[p]; }\n\
         \x20 return [owner, v];\n\
         }\n\
         function make(path, args) {\n\
         \x20 const [owner, f] = value(path);\n\
         \x20 if (typeof f !== 'function') { problems.push(`${path} is not a function`); return undefined; }\n\
         \x20 try { return Reflect.construct(f, args); } catch (e) {\n\
         \x20   if (!(e instanceof TypeError)) throw e;\n\
         \x20   return f.apply(owner, args);\n\
         \x20 }\n\
         }\n",
    );
    let types = data["types"].as_object().expect("types");
    let members = |ty: &str| -> String {
        let list = types
            .get(ty)
            .unwrap_or_else(|| panic!("type {ty} is in types"));
        let names: Vec<String> = strings(list)
            .iter()
            .map(|m| format!("{:?}", member_name(m)))
            .collect();
        format!("[{}]", names.join(", "))
    };
    for module in data["modules"].as_array().unwrap() {
        let name = module["name"].as_str().unwrap();
        let mut names = vec![name.to_string()];
        if module["node"].as_bool() == Some(true) {
            names.push(format!("node:{name}"));
        }
        for name in names {
            js.push_str(&format!(
                "{{ const m = require({name:?}); for (const e of {exports}) if (m[e] === undefined) problems.push(`{name} exports no ${{e}}`); }}\n",
                exports = module["exports"]
            ));
        }
    }
    for global in data["globals"].as_array().unwrap() {
        let name = global["name"].as_str().unwrap();
        js.push_str(&format!(
            "if (!({name:?} in globalThis)) problems.push('no global {name}');\n"
        ));
        if let Some(ty) = global["type"].as_str() {
            js.push_str(&format!(
                "has('{name}', globalThis[{name:?}], {});\n",
                members(ty)
            ));
        }
        if let Some(path) = global["value"].as_str() {
            js.push_str(&format!(
                "if (globalThis[{name:?}] !== value({path:?})[1]) problems.push('{name} is not {path}');\n"
            ));
        }
    }
    let make_args: BTreeMap<&str, &str> = MAKE_ARGS.iter().copied().collect();
    let makes = data["makes"].as_object().expect("makes");
    for key in make_args.keys() {
        assert!(
            makes.contains_key(*key),
            "MAKE_ARGS names {key}, not in makes"
        );
    }
    for (path, ty) in makes {
        let ty = ty.as_str().unwrap();
        let args = make_args.get(path.as_str()).copied().unwrap_or("");
        js.push_str(&format!(
            "has('{path}(…)', make({path:?}, [{args}]), {});\n",
            members(ty)
        ));
    }
    let return_args: BTreeMap<&str, &str> = RETURN_ARGS.iter().copied().collect();
    for (ty, methods) in data["returns"].as_object().expect("returns") {
        let (maker, _) = makes
            .iter()
            .find(|(_, made)| made.as_str() == Some(ty.as_str()))
            .unwrap_or_else(|| panic!("returns names {ty}, which nothing in makes makes"));
        let args = make_args.get(maker.as_str()).copied().unwrap_or("");
        for (method, result) in methods.as_object().unwrap() {
            let call_args = return_args
                .get(format!("{ty}.{method}").as_str())
                .copied()
                .unwrap_or("");
            js.push_str(&format!(
                "has('{ty}.{method}()', await make({maker:?}, [{args}]).{method}({call_args}), {});\n",
                members(result.as_str().unwrap())
            ));
        }
    }
    js.push_str(
        "if (problems.length > 0) throw new Error(problems.join('; '));\n\
         export async function handle() {}\n",
    );
    js
}

#[test]
fn every_type_is_reached_and_every_member_is_real() {
    let data = data();
    let types: BTreeSet<&str> = data["types"]
        .as_object()
        .unwrap()
        .keys()
        .map(String::as_str)
        .collect();
    let modules: BTreeMap<String, Vec<String>> = modules()
        .map(|(name, exports)| {
            let exports = exports.into_iter().map(String::from).collect();
            (name.to_string(), exports)
        })
        .collect();
    // Every type is what a global is, or what a constructor or a method
    // makes; every constructor path starts at a module and its export.
    let mut reached = BTreeSet::new();
    for global in data["globals"].as_array().unwrap() {
        if let Some(ty) = global["type"].as_str() {
            reached.insert(ty.to_string());
        }
    }
    for (path, ty) in data["makes"].as_object().unwrap() {
        let mut parts = path.split('.');
        let module = parts.next().unwrap();
        assert!(modules.contains_key(module), "makes: {path} is no module's");
        if let Some(export) = parts.next() {
            assert!(
                modules[module].iter().any(|e| e == export),
                "makes: {module} exports no {export}"
            );
        }
        reached.insert(ty.as_str().unwrap().to_string());
    }
    for methods in data["returns"].as_object().unwrap().values() {
        for ty in methods.as_object().unwrap().values() {
            reached.insert(ty.as_str().unwrap().to_string());
        }
    }
    let reached: BTreeSet<&str> = reached.iter().map(String::as_str).collect();
    assert_eq!(reached, types, "the types are exactly the ones reached");

    let code = probe_script(&data);
    let (config, _) = source::parse("scenario=script&users=1&clicks=1").expect("a fragment");
    let mut run = match ScriptRun::new(&code, &config, false) {
        Ok(run) => run,
        Err(error) => panic!("the probe does not load: {error}\n{code}"),
    };
    assert!(run.run(1_000_000), "the probe's run ends");
    assert_eq!(
        run.error_messages(),
        Vec::<String>::new(),
        "the probe's messages"
    );
}

//! Scripts against hostile input: arbitrary text and mangled examples
//! never panic (natively), nor do the clients' methods called with
//! hostile arguments, `code=` values that are not lz-string never panic,
//! and the same script and fragment always give the same trace.
#![cfg(all(feature = "script", not(target_arch = "wasm32")))]

use proptest::prelude::*;

use interleave::run::Run;
use interleave::script::source::{self, example, EXAMPLES};
use interleave::script::ScriptRun;

/// Loads and runs `code` on a small fragment; the outcome does not matter,
/// only that it returns.
fn run_any(code: &str) {
    let (config, _) = source::parse("scenario=script&users=2&clicks=2&servers=2").unwrap();
    if let Ok(mut run) = ScriptRun::new(code, &config, true) {
        run.run(10_000);
        let _ = run.metrics();
    }
}

/// Pieces of JavaScript and of our globals, to build plausible nonsense.
const PIECES: &[&str] = &[
    "async function handle(req) {",
    "}",
    "await ",
    "cache.get(",
    "cache.set('k', ",
    "db.find('t', {})",
    "db.table('t', {})",
    "sleep(1)",
    "setInterval(() => {",
    "guard('k', async () => {",
    "lock.acquire('k')",
    "new Promise((r) => {",
    "throw new Error('x')",
    ")",
    ";",
    "\n",
    "const x: number = 1",
    "for (;;) {",
    "{ $inc: 1 }",
    "Math.random()",
    "function f() { return f(); } f();",
    "queueMicrotask(",
    "console.log(",
    "'",
    "`${",
];

/// Each client's methods (ioredis, node-redis, memjs, pg), by name.
const CLIENTS: &[(&str, &str)] = &[
    ("io", "add append decr decrby del eval exists expire expireat get getdel getex getset hdel hget hgetall hincrby hincrbyfloat hmget hset hsetnx incr incrby keys lindex llen lmove lpop lpush lrange lrem lset ltrim mget mset persist pexpire ping psetex pttl publish rename rpop rpush sadd scan scard set setex setnx sismember smembers srem strlen touch ttl type unlink watch zadd zcard zcount zincrby zrange zrangebyscore zrank zrem zremrangebyscore zscore multi pipeline"),
    ("nr", "get set del incr incrBy decr expire pExpire expireAt ttl pTTL persist getDel getSet getEx mGet mSet setNX setEx hSet hGet hGetAll hIncrBy sAdd sMembers lPush lPop lRange zAdd zRange zScore zIncrBy zRangeByScore eval exists watch multi publish scan rename"),
    ("mc", "get set add replace delete increment decrement append prepend touch"),
    ("pool", "query"),
];

/// Arguments at the edges of what a client takes.
const HOSTILE: &[&str] = &[
    "'k'",
    "'lock:1'",
    "1",
    "0",
    "-1",
    "1.5",
    "NaN",
    "Infinity",
    "2**64",
    "1e308",
    "-0",
    "''",
    "null",
    "undefined",
    "true",
    "[]",
    "['a','b']",
    "[1,[2]]",
    "{}",
    "{EX: 10}",
    "{NX: true, PX: 5}",
    "{expiration: {type: 'EX', value: 1}}",
    "{ keys: ['k'], arguments: ['1'] }",
    "'EX'",
    "'PX'",
    "'NX'",
    "'GET'",
    "'KEEPTTL'",
    "'EXAT'",
    "'WITHSCORES'",
    "'LIMIT'",
    "'+inf'",
    "'(1'",
    "'a'.repeat(10000)",
    "Symbol('s')",
    "10n",
    "new Date(0)",
    "Buffer.from('x')",
    "new Uint8Array(3)",
    "() => 1",
    "Promise.resolve(1)",
    "new Map()",
    "Object.create(null)",
    "{toString(){throw new Error('ts')}}",
    "{valueOf(){return 5}}",
    "'SELECT $1::int AS n'",
    "['x']",
    "'BEGIN'",
    "{text: 'SELECT 1', values: []}",
    "{text: 5}",
    "'0x10'",
    "'\\u0000'",
];

/// A handler that calls the clients' methods `calls` names, each with the
/// arguments it picks, and logs what each answers or throws.
fn client_calls(calls: &[(usize, usize, Vec<usize>)]) -> String {
    let mut body = String::new();
    for (client, method, args) in calls {
        let (name, methods) = CLIENTS[*client];
        let methods: Vec<&str> = methods.split(' ').collect();
        let method = methods[method % methods.len()];
        let args: Vec<&str> = args.iter().map(|&a| HOSTILE[a]).collect();
        let call = match method {
            "multi" | "pipeline" => format!("{name}.{method}().set({}).exec()", args.join(", ")),
            _ => format!("{name}.{method}({})", args.join(", ")),
        };
        body.push_str(&format!(
            "  try {{ console.log(typeof (await {call})); }} catch (e) {{ console.log(String(e && e.message)); }}\n"
        ));
    }
    format!(
        "const Redis = require('ioredis');\nconst {{ createClient }} = require('redis');\n\
         const memjs = require('memjs');\nconst {{ Pool }} = require('pg');\n\
         const io = new Redis();\nconst nr = createClient();\nconst mc = memjs.Client.create();\n\
         const pool = new Pool();\nconst ready = nr.connect();\n\
         module.exports = {{ async handle(req) {{\n  await ready;\n{body}  return {{ status: 200 }};\n}} }};\n"
    )
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(64))]

    #[test]
    fn client_calls_with_hostile_arguments_never_panic(
        calls in prop::collection::vec(
            (0..CLIENTS.len(), 0..64usize, prop::collection::vec(0..HOSTILE.len(), 0..6)),
            1..8,
        ),
    ) {
        let code = client_calls(&calls);
        let (config, _) = source::parse("scenario=script&users=2&clicks=1").unwrap();
        let mut run = ScriptRun::with_schema(&code, Some("CREATE TABLE t (id int PRIMARY KEY);"), &config, true)
            .expect("the handler loads");
        run.run(100_000);
        let _ = run.metrics();
        // Every call answered or threw, in each of the two requests.
        prop_assert!(run.messages().len() >= 2 * calls.len(), "{:?}", run.messages());
    }

    #[test]
    fn arbitrary_text_never_panics(text in "\\PC{0,200}") {
        run_any(&text);
    }

    #[test]
    fn plausible_nonsense_never_panics(picks in prop::collection::vec(0..PIECES.len(), 0..40)) {
        let code: String = picks.iter().map(|&i| PIECES[i]).collect();
        run_any(&code);
    }

    #[test]
    fn truncated_examples_never_panic(which in 0..EXAMPLES.len(), cut in 0usize..2000) {
        let code = EXAMPLES[which].code;
        let cut = code.char_indices().map(|(i, _)| i).nth(cut).unwrap_or(code.len());
        run_any(&code[..cut]);
    }

    #[test]
    fn code_values_that_are_not_lz_string_never_panic(text in "[A-Za-z0-9+$-]{0,64}") {
        let _ = source::decode(&text);
        let _ = source::parse(&format!("scenario=script&code={text}"));
    }

    #[test]
    fn same_script_and_fragment_same_trace(which in 0..EXAMPLES.len(), seed in 0u64..1000, users in 1u32..6) {
        let fragment = format!(
            "scenario=script&users={users}&clicks=2&servers=2&strategy=add&db_latency=exp:5ms&seed={seed}"
        );
        let (config, _) = source::parse(&fragment).unwrap();
        let code = example(EXAMPLES[which].name).unwrap();
        let schema = EXAMPLES[which].schema;
        let hash = |keep| {
            let mut run = ScriptRun::with_schema(code, schema, &config, keep).unwrap();
            run.run(1_000_000);
            run.metrics().trace_hash
        };
        prop_assert_eq!(hash(true), hash(false));
        prop_assert_eq!(hash(true), hash(true));
    }
}

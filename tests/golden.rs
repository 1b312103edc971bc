//! Golden runs: the full metrics, the trace and the step reports of varied
//! fragments, recorded from the engine before its performance work, so an
//! optimization that changes any observable behaviour fails here. (Only
//! `trace_hash` was re-recorded since, when the hash function changed; the
//! trace digests, which this file computes itself, stayed the same.)
#![cfg(not(target_arch = "wasm32"))]

use interleave::config::url::parse_fragment;
use interleave::Sim;

/// Every strategy, both scenarios, pools, servers, all routings, Poisson,
/// gap and `at:` arrivals, uniform and exponential latencies, grace with
/// stale answers, warm caches, `ttl=0`, `await_insert=false`, timeouts and
/// empty runs.
const FRAGMENTS: [&str; 32] = [
    "v=1&scenario=stampede&strategy=none&requests=50&seed=7",
    "v=1&scenario=stampede&strategy=get-set&requests=30&db_latency=uniform:1ms..30ms&seed=7",
    "v=1&scenario=stampede&strategy=add&requests=30&db_latency=exp:5ms&seed=7",
    "v=1&scenario=stampede&strategy=keyed-mutex&requests=40&arrival=poisson:500&servers=2&routing=random&seed=7",
    "v=1&scenario=stampede&strategy=single-flight&requests=40&keys=3&cache_latency=exp:1ms&seed=7",
    "v=1&scenario=ticket&strategy=none&users=3&db_latency=exp:5ms&seed=7",
    "v=1&scenario=ticket&strategy=add&users=4&clicks=3&click_gap=2ms&db_latency=uniform:1ms..30ms&seed=7",
    "v=1&scenario=ticket&strategy=keyed-mutex&users=2&servers=2&seed=7",
    "v=1&scenario=stampede&strategy=keyed-mutex&requests=200&keys=5&double_check=false&seed=3",
    "v=1&scenario=stampede&strategy=keyed-mutex&requests=100&db_pool=3&cache_latency=uniform:100us..2ms&seed=11",
    "v=1&scenario=stampede&strategy=none&requests=300&db_pool=4&db_latency=exp:10ms&arrival=gap:1ms&seed=5",
    "v=1&scenario=stampede&strategy=add&requests=60&cache=warm&expire_at=5ms&arrival=gap:1ms&grace=50ms&lock_ttl=30ms&wait_timeout=40ms&poll=3ms&db_latency=uniform:10ms..60ms&seed=9",
    "v=1&scenario=stampede&strategy=get-set&requests=60&cache=warm&expire_at=2ms&arrival=gap:300us&grace=1s&wait_timeout=15ms&poll=2ms&seed=4",
    "v=1&scenario=stampede&strategy=get-set&requests=80&servers=3&routing=sticky&keys=4&arrival=poisson:2000&seed=12",
    "v=1&scenario=stampede&strategy=single-flight&requests=120&servers=4&routing=round-robin&keys=7&arrival=poisson:3000&db_latency=exp:15ms&seed=13",
    "v=1&scenario=stampede&strategy=none&requests=40&cache=warm&ttl=0&seed=2",
    "v=1&scenario=stampede&strategy=keyed-mutex&requests=50&cache=warm&expire_at=10ms&arrival=gap:500us&ttl=20ms&seed=6",
    "v=1&scenario=stampede&strategy=add&requests=50&lock_ttl=5ms&db_latency=const:30ms&poll=1ms&wait_timeout=100ms&seed=8",
    "v=1&scenario=stampede&strategy=add&requests=20&lock_ttl=0&wait_timeout=0&seed=8",
    "v=1&scenario=stampede&strategy=get-set&requests=25&arrival=at:0,1ms,1ms,2ms,3ms,5ms,8ms,13ms,21ms,34ms,0,0,0,1ms,2ms,3ms,4ms,5ms,6ms,7ms,8ms,9ms,10ms,11ms,12ms&seed=21",
    "v=1&scenario=stampede&strategy=none&requests=0",
    "v=1&scenario=ticket&strategy=none&users=20&clicks=3&await_insert=false&seed=14",
    "v=1&scenario=ticket&strategy=keyed-mutex&users=10&clicks=4&await_insert=false&db_write_latency=const:50ms&seed=15",
    "v=1&scenario=ticket&strategy=get-set&users=8&clicks=3&click_gap=1ms&db_latency=exp:8ms&cache_latency=exp:500us&servers=2&routing=random&seed=16",
    "v=1&scenario=ticket&strategy=single-flight&users=6&clicks=5&servers=3&routing=sticky&db_pool=2&seed=17",
    "v=1&scenario=ticket&strategy=add&users=5&clicks=2&lock_ttl=10ms&db_write_latency=uniform:5ms..40ms&wait_timeout=30ms&poll=5ms&seed=18",
    "v=1&scenario=ticket&strategy=none&users=0",
    "v=1&scenario=ticket&strategy=keyed-mutex&users=30&clicks=2&arrival=poisson:100&db_pool=1&servers=2&seed=19",
    "v=1&scenario=ticket&strategy=add&users=3&clicks=3&arrival=at:0,5ms,7ms&await_insert=false&servers=2&routing=round-robin&seed=20",
    "v=1&scenario=stampede&strategy=single-flight&requests=500&arrival=gap:50us&keys=10&servers=5&routing=random&db_pool=2&cache_latency=exp:300us&db_latency=uniform:5ms..25ms&cache=warm&expire_at=3ms&grace=20ms&seed=22",
    "v=1&scenario=stampede&strategy=get-set&requests=200&keys=2&poll=1ms&wait_timeout=2s&lock_ttl=40ms&db_latency=exp:30ms&db_pool=5&seed=23",
    "v=1&scenario=ticket&strategy=get-set&users=50&clicks=2&click_gap=500us&poll=1ms&wait_timeout=1s&await_insert=false&seed=24",
];

const FNV_OFFSET: u64 = 0xcbf2_9ce4_8422_2325;
const FNV_PRIME: u64 = 0x0000_0100_0000_01b3;

/// FNV-1a of text, independent of the engine's own trace hash.
fn fnv(hash: &mut u64, text: &str) {
    for byte in text.bytes() {
        *hash = (*hash ^ u64::from(byte)).wrapping_mul(FNV_PRIME);
    }
}

/// What a run shows: its metrics as JSON, then digests of every trace event
/// (all public fields), of every step report with the queue it leaves, and
/// the trace length.
/// The run's metrics, checked to be the same with and without the trace.
fn same_metrics_either_way(fragment: &str) -> (interleave::Config, interleave::Metrics) {
    let config = parse_fragment(fragment).expect(fragment);
    let metrics = Sim::metrics_only(&config).run();
    assert_eq!(Sim::new(&config).run(), metrics, "{fragment}");
    (config, metrics)
}

fn observe(fragment: &str) -> String {
    let (config, metrics) = same_metrics_either_way(fragment);
    let mut sim = Sim::new(&config);
    let mut steps = FNV_OFFSET;
    let queue = |sim: &Sim| {
        let pending = sim.pending();
        let next = pending.first().map(|p| (p.due, p.seq, p.task));
        format!("{} {next:?}", pending.len())
    };
    fnv(&mut steps, &queue(&sim));
    while let Some(report) = sim.step() {
        let (index, time, task, range) = (report.index, report.time, report.task, report.events);
        fnv(&mut steps, &format!("{index} {time} {task:?} {range:?}"));
        fnv(&mut steps, &queue(&sim));
    }
    assert!(sim.is_done());
    assert_eq!(sim.metrics(), metrics, "stepped differs: {fragment}");
    let mut events = FNV_OFFSET;
    for event in sim.trace().events() {
        let e = event;
        let fields = (
            e.step, e.time, e.request, e.what, e.key, e.outcome, e.site, e.detail,
        );
        fnv(&mut events, &format!("{fields:?}"));
    }
    format!(
        "{} events={events:016x} steps={steps:016x} len={}",
        serde_json::to_string(&metrics).unwrap(),
        sim.trace().len()
    )
}

/// Large runs, checked by their metrics (the trace hash included).
const LARGE: [&str; 5] = [
    "v=1&scenario=stampede&strategy=none&requests=20000",
    "v=1&scenario=stampede&strategy=keyed-mutex&requests=20000&keys=3&servers=2",
    "v=1&scenario=stampede&strategy=single-flight&requests=20000&db_latency=exp:20ms&seed=5",
    "v=1&scenario=stampede&strategy=add&requests=2000&poll=1ms&arrival=poisson:20000&seed=5",
    "v=1&scenario=ticket&strategy=keyed-mutex&users=5000&clicks=3&db_pool=8&servers=3&routing=random",
];

fn observe_large(fragment: &str) -> String {
    let (_, metrics) = same_metrics_either_way(fragment);
    serde_json::to_string(&metrics).unwrap()
}

/// What `observe` gave for each fragment, recorded before the performance work.
const EXPECTED: [&str; 32] = [
    r#"{"db_reads":50,"db_writes":0,"orders":0,"duplicate_tickets":0,"cache_hits":0,"cache_misses":50,"stale_served":0,"timeouts":0,"errors":0,"lock_wakeups":0,"max_in_critical_section":50,"peak_db_concurrency":50,"rejected_writes":0,"early_refreshes":0,"hung":0,"latency_us":{"p50":22000,"p99":22000,"max":22000},"events":200,"trace_hash":"1217a4cff88e9be8"} events=7752481d17be70a7 steps=b5b40da05ac6ce76 len=500"#,
    r#"{"db_reads":30,"db_writes":0,"orders":0,"duplicate_tickets":0,"cache_hits":0,"cache_misses":60,"stale_served":0,"timeouts":0,"errors":0,"lock_wakeups":0,"max_in_critical_section":30,"peak_db_concurrency":30,"rejected_writes":0,"early_refreshes":0,"hung":0,"latency_us":{"p50":17421,"p99":35710,"max":35710},"events":240,"trace_hash":"7d8e8fd3b3f3543c"} events=48dd123db7454c41 steps=b602579014955bf3 len=540"#,
    r#"{"db_reads":1,"db_writes":0,"orders":0,"duplicate_tickets":0,"cache_hits":29,"cache_misses":31,"stale_served":0,"timeouts":0,"errors":0,"lock_wakeups":435,"max_in_critical_section":1,"peak_db_concurrency":1,"rejected_writes":0,"early_refreshes":0,"hung":0,"latency_us":{"p50":158000,"p99":323000,"max":323000},"events":1022,"trace_hash":"e11dd98e506b6022"} events=c65e16c9e554afbf steps=ab85e60868ba9ebc len=2104"#,
    r#"{"db_reads":2,"db_writes":0,"orders":0,"duplicate_tickets":0,"cache_hits":38,"cache_misses":15,"stale_served":0,"timeouts":0,"errors":0,"lock_wakeups":0,"max_in_critical_section":2,"peak_db_concurrency":2,"rejected_writes":0,"early_refreshes":0,"hung":0,"latency_us":{"p50":1000,"p99":23982,"max":23982},"events":97,"trace_hash":"a295ad844b8ab2a7"} events=02794221acce9074 steps=6e75a1577baba023 len=244"#,
    r#"{"db_reads":3,"db_writes":0,"orders":0,"duplicate_tickets":0,"cache_hits":0,"cache_misses":40,"stale_served":0,"timeouts":0,"errors":0,"lock_wakeups":0,"max_in_critical_section":1,"peak_db_concurrency":3,"rejected_writes":0,"early_refreshes":0,"hung":0,"latency_us":{"p50":21575,"p99":21986,"max":21986},"events":86,"trace_hash":"c9d350545f120b22"} events=86356efa8deaf324 steps=8bc94afd951be6fe len=252"#,
    r#"{"db_reads":6,"db_writes":5,"orders":5,"duplicate_tickets":2,"cache_hits":0,"cache_misses":0,"stale_served":0,"timeouts":0,"errors":0,"lock_wakeups":0,"max_in_critical_section":2,"peak_db_concurrency":6,"rejected_writes":0,"early_refreshes":0,"hung":0,"latency_us":{"p50":4597,"p99":29104,"max":29104},"events":17,"trace_hash":"f2e076fc89ae9d13"} events=27b5664471cdaa5a steps=3b01eccb7a50d265 len=46"#,
    r#"{"db_reads":12,"db_writes":4,"orders":4,"duplicate_tickets":0,"cache_hits":0,"cache_misses":0,"stale_served":0,"timeouts":0,"errors":0,"lock_wakeups":29,"max_in_critical_section":1,"peak_db_concurrency":4,"rejected_writes":0,"early_refreshes":0,"hung":0,"latency_us":{"p50":47144,"p99":95270,"max":95270},"events":110,"trace_hash":"90b05e00d1ffb0f2"} events=d90117569cccc746 steps=88cb03947d3a9073 len=244"#,
    r#"{"db_reads":4,"db_writes":4,"orders":4,"duplicate_tickets":2,"cache_hits":0,"cache_misses":0,"stale_served":0,"timeouts":0,"errors":0,"lock_wakeups":0,"max_in_critical_section":2,"peak_db_concurrency":4,"rejected_writes":0,"early_refreshes":0,"hung":0,"latency_us":{"p50":40000,"p99":40000,"max":40000},"events":12,"trace_hash":"14d270ccd984cc00"} events=e2a4f93813e1ec31 steps=f447ef36349b71fe len=36"#,
    r#"{"db_reads":200,"db_writes":0,"orders":0,"duplicate_tickets":0,"cache_hits":0,"cache_misses":200,"stale_served":0,"timeouts":0,"errors":0,"lock_wakeups":0,"max_in_critical_section":1,"peak_db_concurrency":5,"rejected_writes":0,"early_refreshes":0,"hung":0,"latency_us":{"p50":421000,"p99":841000,"max":841000},"events":800,"trace_hash":"170bdab2b1a4e44c"} events=1812e894e8b94f85 steps=53dd477814422421 len=2395"#,
    r#"{"db_reads":1,"db_writes":0,"orders":0,"duplicate_tickets":0,"cache_hits":99,"cache_misses":101,"stale_served":0,"timeouts":0,"errors":0,"lock_wakeups":0,"max_in_critical_section":1,"peak_db_concurrency":1,"rejected_writes":0,"early_refreshes":0,"hung":0,"latency_us":{"p50":79030,"p99":132879,"max":133162},"events":302,"trace_hash":"9df1d338a958cf43"} events=3581b6f22f8f7f3b steps=5fa76df4d2e8cbb6 len=1003"#,
    r#"{"db_reads":4,"db_writes":0,"orders":0,"duplicate_tickets":0,"cache_hits":296,"cache_misses":4,"stale_served":0,"timeouts":0,"errors":0,"lock_wakeups":0,"max_in_critical_section":4,"peak_db_concurrency":3,"rejected_writes":0,"early_refreshes":0,"hung":0,"latency_us":{"p50":1000,"p99":4247,"max":22196},"events":608,"trace_hash":"311a42d9335e9c1d"} events=15e9dda617e9c018 steps=bd34f68ccb85a4df len=1224"#,
    r#"{"db_reads":1,"db_writes":0,"orders":0,"duplicate_tickets":0,"cache_hits":55,"cache_misses":20,"stale_served":4,"timeouts":4,"errors":0,"lock_wakeups":151,"max_in_critical_section":1,"peak_db_concurrency":1,"rejected_writes":0,"early_refreshes":0,"hung":0,"latency_us":{"p50":1000,"p99":44000,"max":44000},"events":465,"trace_hash":"d74f4ab71e7ff264"} events=76cd5e37d39f7f04 steps=bfb46de66e9af97e len=964"#,
    r#"{"db_reads":4,"db_writes":0,"orders":0,"duplicate_tickets":0,"cache_hits":21,"cache_misses":60,"stale_served":35,"timeouts":35,"errors":0,"lock_wakeups":282,"max_in_critical_section":12,"peak_db_concurrency":4,"rejected_writes":0,"early_refreshes":0,"hung":0,"latency_us":{"p50":17000,"p99":26000,"max":26000},"events":741,"trace_hash":"197d0464d8751189"} events=3ac486a18ce2ad90 steps=ad102ccc8334f8e3 len=1559"#,
    r#"{"db_reads":4,"db_writes":0,"orders":0,"duplicate_tickets":0,"cache_hits":76,"cache_misses":59,"stale_served":0,"timeouts":0,"errors":0,"lock_wakeups":107,"max_in_critical_section":4,"peak_db_concurrency":4,"rejected_writes":0,"early_refreshes":0,"hung":0,"latency_us":{"p50":26000,"p99":49000,"max":49000},"events":602,"trace_hash":"95cf0eb46856f21b"} events=8177656f3fa955c5 steps=f63829b03f937d63 len=1314"#,
    r#"{"db_reads":23,"db_writes":0,"orders":0,"duplicate_tickets":0,"cache_hits":96,"cache_misses":24,"stale_served":0,"timeouts":0,"errors":0,"lock_wakeups":0,"max_in_critical_section":4,"peak_db_concurrency":16,"rejected_writes":0,"early_refreshes":0,"hung":0,"latency_us":{"p50":1000,"p99":28399,"max":30332},"events":286,"trace_hash":"e5ce67981221f6e9"} events=9d73385cb85867a4 steps=ebad3a22a7b4fd68 len=620"#,
    r#"{"db_reads":0,"db_writes":0,"orders":0,"duplicate_tickets":0,"cache_hits":40,"cache_misses":0,"stale_served":0,"timeouts":0,"errors":0,"lock_wakeups":0,"max_in_critical_section":0,"peak_db_concurrency":0,"rejected_writes":0,"early_refreshes":0,"hung":0,"latency_us":{"p50":1000,"p99":1000,"max":1000},"events":80,"trace_hash":"acac943384566252"} events=774194c892b58909 steps=a90c2c01f014bb78 len=160"#,
    r#"{"db_reads":2,"db_writes":0,"orders":0,"duplicate_tickets":0,"cache_hits":48,"cache_misses":34,"stale_served":0,"timeouts":0,"errors":0,"lock_wakeups":0,"max_in_critical_section":1,"peak_db_concurrency":1,"rejected_writes":0,"early_refreshes":0,"hung":0,"latency_us":{"p50":26000,"p99":59500,"max":59500},"events":136,"trace_hash":"f58ea01d70d5879e"} events=9e6421f60ff71ed4 steps=0d90f277d8ff208f len=399"#,
    r#"{"db_reads":6,"db_writes":0,"orders":0,"duplicate_tickets":0,"cache_hits":34,"cache_misses":56,"stale_served":0,"timeouts":10,"errors":10,"lock_wakeups":1694,"max_in_critical_section":6,"peak_db_concurrency":5,"rejected_writes":0,"early_refreshes":0,"hung":0,"latency_us":{"p50":74000,"p99":104000,"max":104000},"events":3610,"trace_hash":"e33875cc814634e5"} events=b4334349a713d56b steps=236270ddba5fe279 len=7310"#,
    r#"{"db_reads":1,"db_writes":0,"orders":0,"duplicate_tickets":0,"cache_hits":0,"cache_misses":21,"stale_served":0,"timeouts":19,"errors":19,"lock_wakeups":19,"max_in_critical_section":1,"peak_db_concurrency":1,"rejected_writes":0,"early_refreshes":0,"hung":0,"latency_us":{"p50":2000,"p99":25000,"max":25000},"events":64,"trace_hash":"2b44e83d78de77ec"} events=74abe6fff07a6060 steps=471abcd95ac10a58 len=149"#,
    r#"{"db_reads":7,"db_writes":0,"orders":0,"duplicate_tickets":0,"cache_hits":18,"cache_misses":31,"stale_served":0,"timeouts":0,"errors":0,"lock_wakeups":44,"max_in_critical_section":7,"peak_db_concurrency":7,"rejected_writes":0,"early_refreshes":0,"hung":0,"latency_us":{"p50":27000,"p99":49000,"max":49000},"events":248,"trace_hash":"99e1ff7693672464"} events=1c19191cf580649b steps=f972bb8ffa90e79d len=544"#,
    r#"{"db_reads":0,"db_writes":0,"orders":0,"duplicate_tickets":0,"cache_hits":0,"cache_misses":0,"stale_served":0,"timeouts":0,"errors":0,"lock_wakeups":0,"max_in_critical_section":0,"peak_db_concurrency":0,"rejected_writes":0,"early_refreshes":0,"hung":0,"latency_us":{"p50":0,"p99":0,"max":0},"events":0,"trace_hash":"efd01f60ba992926"} events=cbf29ce484222325 steps=343ba213425b6703 len=0"#,
    r#"{"db_reads":60,"db_writes":60,"orders":60,"duplicate_tickets":40,"cache_hits":0,"cache_misses":0,"stale_served":0,"timeouts":0,"errors":0,"lock_wakeups":0,"max_in_critical_section":3,"peak_db_concurrency":60,"rejected_writes":0,"early_refreshes":0,"hung":0,"latency_us":{"p50":20000,"p99":20000,"max":20000},"events":180,"trace_hash":"f9ce8d3e6e7a39bc"} events=20780b5343516991 steps=3f3282d6d1c85da9 len=480"#,
    r#"{"db_reads":40,"db_writes":30,"orders":30,"duplicate_tickets":20,"cache_hits":0,"cache_misses":0,"stale_served":0,"timeouts":0,"errors":0,"lock_wakeups":0,"max_in_critical_section":1,"peak_db_concurrency":40,"rejected_writes":0,"early_refreshes":0,"hung":0,"latency_us":{"p50":40000,"p99":80000,"max":80000},"events":110,"trace_hash":"07a84e57d0218cef"} events=2eddba78c7340fa7 steps=648a017812ba3977 len=370"#,
    r#"{"db_reads":24,"db_writes":9,"orders":9,"duplicate_tickets":1,"cache_hits":0,"cache_misses":0,"stale_served":0,"timeouts":0,"errors":0,"lock_wakeups":23,"max_in_critical_section":2,"peak_db_concurrency":10,"rejected_writes":0,"early_refreshes":0,"hung":0,"latency_us":{"p50":15256,"p99":39454,"max":39454},"events":175,"trace_hash":"a895d1f016881efe"} events=6241f4de44e1e142 steps=56acce4668834980 len=398"#,
    r#"{"db_reads":6,"db_writes":6,"orders":6,"duplicate_tickets":0,"cache_hits":0,"cache_misses":0,"stale_served":0,"timeouts":0,"errors":0,"lock_wakeups":0,"max_in_critical_section":1,"peak_db_concurrency":2,"rejected_writes":0,"early_refreshes":0,"hung":0,"latency_us":{"p50":100000,"p99":120000,"max":120000},"events":42,"trace_hash":"8d23bc15c25851db"} events=99be379970f6b52b steps=10aa85a4fa8442e5 len=164"#,
    r#"{"db_reads":10,"db_writes":7,"orders":7,"duplicate_tickets":2,"cache_hits":0,"cache_misses":0,"stale_served":0,"timeouts":0,"errors":0,"lock_wakeups":10,"max_in_critical_section":2,"peak_db_concurrency":10,"rejected_writes":0,"early_refreshes":0,"hung":0,"latency_us":{"p50":34000,"p99":70666,"max":70666},"events":67,"trace_hash":"e01e5f5c5fca771b"} events=2939cf4cde9e611a steps=e03b9880723eb365 len=154"#,
    r#"{"db_reads":0,"db_writes":0,"orders":0,"duplicate_tickets":0,"cache_hits":0,"cache_misses":0,"stale_served":0,"timeouts":0,"errors":0,"lock_wakeups":0,"max_in_critical_section":0,"peak_db_concurrency":0,"rejected_writes":0,"early_refreshes":0,"hung":0,"latency_us":{"p50":0,"p99":0,"max":0},"events":0,"trace_hash":"efd01f60ba992926"} events=cbf29ce484222325 steps=343ba213425b6703 len=0"#,
    r#"{"db_reads":60,"db_writes":60,"orders":60,"duplicate_tickets":30,"cache_hits":0,"cache_misses":0,"stale_served":0,"timeouts":0,"errors":0,"lock_wakeups":0,"max_in_critical_section":2,"peak_db_concurrency":1,"rejected_writes":0,"early_refreshes":0,"hung":0,"latency_us":{"p50":1692069,"p99":2210387,"max":2210387},"events":180,"trace_hash":"e8b7cb9cdac67bc0"} events=bd69330c2e551617 steps=5cc7ad26923488bb len=778"#,
    r#"{"db_reads":9,"db_writes":3,"orders":3,"duplicate_tickets":0,"cache_hits":0,"cache_misses":0,"stale_served":0,"timeouts":0,"errors":0,"lock_wakeups":18,"max_in_critical_section":1,"peak_db_concurrency":6,"rejected_writes":0,"early_refreshes":0,"hung":0,"latency_us":{"p50":44000,"p99":66000,"max":66000},"events":75,"trace_hash":"f9dec1f2744d6ae7"} events=57019e06fcc194b5 steps=eeb47278c0f2dd5c len=168"#,
    r#"{"db_reads":49,"db_writes":0,"orders":0,"duplicate_tickets":0,"cache_hits":105,"cache_misses":395,"stale_served":0,"timeouts":0,"errors":0,"lock_wakeups":0,"max_in_critical_section":5,"peak_db_concurrency":2,"rejected_writes":0,"early_refreshes":0,"hung":0,"latency_us":{"p50":127735,"p99":364157,"max":371657},"events":1098,"trace_hash":"cd5be1b5ac67bdb7"} events=0c74e8b57bb9f090 steps=c4ca118dde249270 len=3080"#,
    r#"{"db_reads":200,"db_writes":0,"orders":0,"duplicate_tickets":0,"cache_hits":0,"cache_misses":400,"stale_served":0,"timeouts":0,"errors":0,"lock_wakeups":0,"max_in_critical_section":100,"peak_db_concurrency":5,"rejected_writes":0,"early_refreshes":0,"hung":0,"latency_us":{"p50":534025,"p99":1070575,"max":1094765},"events":1600,"trace_hash":"e82976b1c3c89e0c"} events=8c4a1ba24825c6f7 steps=52aa7b221bfc30f7 len=3990"#,
    r#"{"db_reads":100,"db_writes":100,"orders":100,"duplicate_tickets":50,"cache_hits":0,"cache_misses":0,"stale_served":0,"timeouts":0,"errors":0,"lock_wakeups":0,"max_in_critical_section":2,"peak_db_concurrency":100,"rejected_writes":0,"early_refreshes":0,"hung":0,"latency_us":{"p50":23000,"p99":23000,"max":23000},"events":600,"trace_hash":"cc69a32b682a2df1"} events=6d55dd2ec9f4233b steps=5538b1307b6825ee len=1400"#,
];

/// What `observe_large` gave, recorded before the performance work.
const EXPECTED_LARGE: [&str; 5] = [
    r#"{"db_reads":20000,"db_writes":0,"orders":0,"duplicate_tickets":0,"cache_hits":0,"cache_misses":20000,"stale_served":0,"timeouts":0,"errors":0,"lock_wakeups":0,"max_in_critical_section":20000,"peak_db_concurrency":20000,"rejected_writes":0,"early_refreshes":0,"hung":0,"latency_us":{"p50":22000,"p99":22000,"max":22000},"events":80000,"trace_hash":"9ed799c43763fb8d"}"#,
    r#"{"db_reads":6,"db_writes":0,"orders":0,"duplicate_tickets":0,"cache_hits":19994,"cache_misses":20006,"stale_served":0,"timeouts":0,"errors":0,"lock_wakeups":0,"max_in_critical_section":2,"peak_db_concurrency":6,"rejected_writes":0,"early_refreshes":0,"hung":0,"latency_us":{"p50":1689000,"p99":3322000,"max":3356000},"events":60012,"trace_hash":"e775ad0c2374d3a2"}"#,
    r#"{"db_reads":1,"db_writes":0,"orders":0,"duplicate_tickets":0,"cache_hits":0,"cache_misses":20000,"stale_served":0,"timeouts":0,"errors":0,"lock_wakeups":0,"max_in_critical_section":1,"peak_db_concurrency":1,"rejected_writes":0,"early_refreshes":0,"hung":0,"latency_us":{"p50":6494,"p99":6494,"max":6494},"events":40002,"trace_hash":"577d6180db021889"}"#,
    r#"{"db_reads":1,"db_writes":0,"orders":0,"duplicate_tickets":0,"cache_hits":1999,"cache_misses":465,"stale_served":0,"timeouts":0,"errors":0,"lock_wakeups":110020,"max_in_critical_section":1,"peak_db_concurrency":1,"rejected_writes":0,"early_refreshes":0,"hung":0,"latency_us":{"p50":1000,"p99":902000,"max":948000},"events":225434,"trace_hash":"b8dc3faa3cc6bf56"}"#,
    r#"{"db_reads":15000,"db_writes":10557,"orders":10557,"duplicate_tickets":5557,"cache_hits":0,"cache_misses":0,"stale_served":0,"timeouts":0,"errors":0,"lock_wakeups":0,"max_in_critical_section":3,"peak_db_concurrency":8,"rejected_writes":0,"early_refreshes":0,"hung":0,"latency_us":{"p50":45160000,"p99":63520000,"max":63900000},"events":40557,"trace_hash":"75d368d5269a8046"}"#,
];

#[test]
fn varied_runs_are_unchanged() {
    for (fragment, expected) in FRAGMENTS.iter().zip(EXPECTED) {
        assert_eq!(observe(fragment), expected, "{fragment}");
    }
}

#[test]
fn large_runs_are_unchanged() {
    for (fragment, expected) in LARGE.iter().zip(EXPECTED_LARGE) {
        assert_eq!(observe_large(fragment), expected, "{fragment}");
    }
}
